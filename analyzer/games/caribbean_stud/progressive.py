"""The Caribbean Stud progressive side bet: its RTP as an exact function of the jackpot J (sympy lives here).

The progressive is paid on the player's own five cards, whatever the dealer holds, so
its figures need only how many of the deck's C(n, 5) hands fall in each category (from
the class weights of the count).  The jackpot is a symbol: the RTP is linear in J, the
break-even jackpot is solved exactly, and the rule file's jackpot levels are evaluated.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from analyzer.core.exact import decimal_str, percent_str
from analyzer.games.caribbean_stud.count import SituationCounts, hand_category_counts
from analyzer.games.caribbean_stud.rules import Progressive
from analyzer.poker.settlement import N_CATEGORIES

JACKPOT = sympy.Symbol("J", positive=True)


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
    counts = hand_category_counts(table)
    hands = sum(counts)
    rtp = sympy.expand(sum((sympy.Rational(counts[c], hands) * prog.returned(c, JACKPOT) for c in range(N_CATEGORIES)),
                           sympy.Integer(0)) / _rational(prog.stake))
    solutions = sympy.solve(sympy.Eq(rtp, 1), JACKPOT) if rtp.has(JACKPOT) else []
    break_even = Fraction(int(solutions[0].p), int(solutions[0].q)) if solutions else None
    levels = [(level, _fraction(rtp.subs(JACKPOT, _rational(level)))) for level in prog.levels]
    return ProgressiveFigures(counts, hands, rtp, break_even, levels, progressive_lines(prog, counts, hands),
                              str(rtp))


def progressive_lines(p: Progressive, counts: list, hands: int) -> list[dict]:
    """Each hand's PAR line; the contribution to RTP as text (a function of J for the jackpot hand)."""
    lines = []
    for c in range(N_CATEGORIES - 1, -1, -1):
        share, pays = p.jackpot_share[c], p.pays[c]
        words = []
        if share:
            words.append(f"{percent_str(share, 0)} of J" if share * 100 == int(share * 100) else f"{share} x J")
        if pays:
            words.append(f"EUR {decimal_str(pays, 2)}")
        contribution = sympy.Rational(counts[c], hands) * p.returned(c, JACKPOT) / _rational(p.stake)
        exact = None if getattr(contribution, "free_symbols", None) else _fraction(contribution)
        lines.append({"category": c, "combinations": counts[c], "pays": " + ".join(words) or "loses",
                      "contribution": str(contribution), "contribution_exact": exact})
    return lines


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _fraction(value) -> Fraction:
    value = sympy.Rational(value)
    return Fraction(int(value.p), int(value.q))


def rtp_points(figures: ProgressiveFigures, points: int = 101) -> list[tuple[Fraction, Fraction]]:
    """(J, RTP(J)) at evenly spaced jackpots from 0 to 5/4 of the largest level (or break-even), exactly."""
    levels = sorted({level for level, _ in figures.table} | {figures.break_even})
    top = max(levels) * 5 // 4
    return [(Fraction(top * i, points - 1), _fraction(figures.rtp.subs(JACKPOT, sympy.Rational(int(top * i), points - 1))))
            for i in range(points)]



def rtp_at(rtp_text: str, jackpot) -> Fraction:
    """RTP(J) as written in a summary ("J/324870 + 6091/15470"), evaluated exactly at a jackpot.

    >>> rtp_at("J/324870 + 6091/15470", 0)
    Fraction(6091, 15470)
    """
    rtp = sympy.sympify(rtp_text)
    jackpot = Fraction(jackpot)
    return _fraction(rtp.subs({symbol: sympy.Rational(jackpot.numerator, jackpot.denominator)
                               for symbol in rtp.free_symbols}))


# --- volatility: the progressive's moments, and its covariance with ANTE + raise, as functions of J ---

def net_expression(prog: Progressive, category: int) -> sympy.Expr:
    """The net result per unit staked of a hand of this category, a function of J (`Progressive.net` symbolically)."""
    share, pays, stake = (sympy.Rational(x.numerator, x.denominator)
                          for x in (prog.jackpot_share[category], prog.pays[category], prog.stake))
    returned = share * JACKPOT + pays + (stake if prog.stake_returned and prog.wins(category) else 0)
    return sympy.expand(returned / stake - 1)


@dataclass
class ProgressiveMoments:
    """Exact functions of J: the progressive's mean and variance per unit staked (X = payment / stake - 1)."""

    mean: sympy.Expr
    variance: sympy.Expr
    mean_text: str
    variance_text: str


def progressive_moments(prog: Progressive, counts: list) -> ProgressiveMoments:
    """E[X](J) and Var[X](J) over the deck's five-card hands (`counts` per category): linear and quadratic in J."""
    hands = sum(counts)
    nets = [net_expression(prog, c) for c in range(N_CATEGORIES)]
    mean = sympy.expand(sum(sympy.Rational(counts[c], hands) * nets[c] for c in range(N_CATEGORIES)))
    variance = sympy.expand(sum(sympy.Rational(counts[c], hands) * nets[c] ** 2 for c in range(N_CATEGORIES))
                            - mean ** 2)
    return ProgressiveMoments(mean, variance, str(mean), str(variance))


@dataclass
class CombinedFunctions:
    """ANTE + raise with the progressive staked r x ANTE under one strategy, as exact functions of J (per ANTE)."""

    covariance: str              # Cov(ANTE + raise net per ANTE, X per unit staked)
    mean: str                    # E[main + r X]
    variance: str                # Var(main) + r^2 Var(X) + 2 r Cov
    rtp: str                     # 1 + E[main + r X] / (E[ANTE + raise] + r)


def combined_functions(moments: ProgressiveMoments, prog: Progressive, main_by_category: list, main_mean: Fraction,
                       main_variance: Fraction, mean_wagered: Fraction, ratio: Fraction) -> CombinedFunctions:
    """Cov(main, X)(J) = sum_c E[main; category c] X_c(J) - E[main] E[X](J), and the combined mean and variance.

    `main_by_category[c]` is E[main x 1{the player's category is c}] (counted from the joint
    rows of the strategy's deals); the progressive depends on the category alone.
    """
    def rational(x):
        x = Fraction(x)
        return sympy.Rational(x.numerator, x.denominator)
    r = rational(ratio)
    covariance = sympy.expand(sum(rational(main_by_category[c]) * net_expression(prog, c) for c in range(N_CATEGORIES))
                              - rational(main_mean) * moments.mean)
    mean = sympy.expand(rational(main_mean) + r * moments.mean)
    variance = sympy.expand(rational(main_variance) + r ** 2 * moments.variance + 2 * r * covariance)
    rtp = sympy.expand(1 + mean / (rational(mean_wagered) + r))
    return CombinedFunctions(str(covariance), str(mean), str(variance), str(rtp))
