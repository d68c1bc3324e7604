"""The Caribbean Stud progressive side bet: its RTP as an exact function of the jackpot J (sympy lives here,
imported when a progressive is first built or read).

The progressive is paid on the player's own five cards, whatever the dealer holds, so
its figures need only how many of the deck's C(n, 5) hands fall in each category (from
the class weights of the count).  The jackpot is a symbol: the RTP is linear in J, the
break-even jackpot is solved exactly, and the rule file's jackpot levels are evaluated.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.errors import InvariantError
from analyzer.core.exact import decimal_str, exact_group_sums, percent_str
from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.rules import Progressive
from analyzer.poker.settlement import N_CATEGORIES



@functools.cache
def _sympy():
    """sympy and the jackpot symbol J, imported when a progressive's figures are first built or read."""
    import sympy
    return sympy, sympy.Symbol("J", positive=True)


def hand_category_counts(table: SituationCounts) -> list[int]:
    """How many of the deck's C(n, 5) hands fall in each category (from the class weights)."""
    per_up = len(table.cards) - 5
    totals = [int(t) for t in exact_group_sums(table.player_category, table.weights, N_CATEGORIES)]
    if sum(totals) != table.raw_situations or any(t % per_up for t in totals):
        raise InvariantError("Caribbean Stud class weights do not split evenly over the up cards")
    return [t // per_up for t in totals]


@dataclass
class ProgressiveFigures:
    """The progressive's exact figures: hand counts, RTP(J), the break-even jackpot, the PAR lines."""

    counts: list                 # hands of each category
    hands: int                   # C(n, 5)
    rtp: sympy.Expr              # total returned / total staked, a function of J
    break_even: Fraction | None  # the jackpot at which RTP = 1 (None if no hand pays a share of it)
    table: list                  # [(jackpot, rtp)] at the rule file's levels
    lines: list                  # PAR lines, best hand first: category, combinations, pays, contribution
    rtp_text: str                # str(rtp), made once (the files are written without sympy)


def progressive_figures(table: SituationCounts, prog: Progressive) -> ProgressiveFigures:
    """RTP(J) = total returned / total staked as a linear function of J, and what follows from it."""
    sympy, JACKPOT = _sympy()
    counts = hand_category_counts(table)
    hands = sum(counts)
    stake = sympy.Rational(prog.stake.numerator, prog.stake.denominator)
    returned = sympy.Integer(0)
    for c in range(N_CATEGORIES):
        if not prog.wins(c):
            continue
        share, pays = (sympy.Rational(x.numerator, x.denominator) for x in (prog.jackpot_share[c], prog.pays[c]))
        payment = share * JACKPOT + pays + (stake if prog.stake_returned else 0)
        returned += sympy.Rational(counts[c], hands) * payment
    rtp = sympy.expand(returned / stake)
    solutions = sympy.solve(sympy.Eq(rtp, 1), JACKPOT) if rtp.has(JACKPOT) else []
    break_even = Fraction(int(solutions[0].p), int(solutions[0].q)) if solutions else None
    levels = [(level, _fraction(rtp.subs(JACKPOT, sympy.Rational(level.numerator, level.denominator))))
              for level in prog.levels]
    return ProgressiveFigures(counts, hands, rtp, break_even, levels, progressive_lines(prog, counts, hands),
                              str(rtp))


def progressive_lines(p: Progressive, counts: list, hands: int) -> list[dict]:
    """Each hand's PAR line; the contribution to RTP as text (a function of J for the jackpot hand)."""
    sympy, JACKPOT = _sympy()
    stake = sympy.Rational(p.stake.numerator, p.stake.denominator)
    lines = []
    for c in range(N_CATEGORIES - 1, -1, -1):
        share, pays = p.jackpot_share[c], p.pays[c]
        words = []
        if share:
            words.append(f"{percent_str(share, 0)} of J" if share * 100 == int(share * 100) else f"{share} x J")
        if pays:
            words.append(f"EUR {decimal_str(pays, 2)}")
        returned = 0
        if p.wins(c):
            returned = share * JACKPOT + sympy.Rational(pays.numerator, pays.denominator) \
                + (stake if p.stake_returned else 0)
        contribution = sympy.Rational(counts[c], hands) * returned / stake
        exact = None if getattr(contribution, "free_symbols", None) else _fraction(contribution)
        lines.append({"category": c, "combinations": counts[c], "pays": " + ".join(words) or "loses",
                      "contribution": str(contribution), "contribution_exact": exact})
    return lines


def _fraction(value) -> Fraction:
    sympy, _ = _sympy()
    value = sympy.Rational(value)
    return Fraction(int(value.p), int(value.q))


def rtp_points(figures: ProgressiveFigures, points: int = 101) -> list[tuple[Fraction, Fraction]]:
    """(J, RTP(J)) at evenly spaced jackpots from 0 to 5/4 of the largest level (or break-even), exactly."""
    sympy, JACKPOT = _sympy()
    levels = sorted({level for level, _ in figures.table} | {figures.break_even})
    top = max(levels) * 5 // 4
    return [(Fraction(top * i, points - 1), _fraction(figures.rtp.subs(JACKPOT, sympy.Rational(int(top * i), points - 1))))
            for i in range(points)]


def rtp_at(rtp_text: str, jackpot) -> Fraction:
    """RTP(J) as written in a summary ("J/324870 + 6091/15470"), evaluated exactly at a jackpot.

    >>> rtp_at("J/324870 + 6091/15470", 0)
    Fraction(6091, 15470)
    """
    sympy, _ = _sympy()
    rtp = sympy.sympify(rtp_text)
    jackpot = Fraction(jackpot)
    return _fraction(rtp.subs({symbol: sympy.Rational(jackpot.numerator, jackpot.denominator)
                               for symbol in rtp.free_symbols}))
