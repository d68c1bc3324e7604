"""The Caribbean Stud progressive side bet, paid on the player's five cards alone: its RTP and moments as exact
functions of the jackpot J, a positive sympy symbol (sympy is imported here only); the files write each
function as sympy's str() of its expanded form.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, percent_str
from analyzer.games.caribbean_stud.count import SituationCounts, hand_category_counts
from analyzer.games.caribbean_stud.rules import Progressive
from analyzer.poker.settlement import N_CATEGORIES


@cache
def jackpot():
    """The symbol J (positive: a jackpot below or at zero is no break-even)."""
    import sympy
    return sympy.Symbol("J", positive=True)


def _expanded(expression):
    import sympy
    return sympy.expand(sympy.sympify(expression))


def _fraction(value) -> Fraction:
    """A sympy Rational as a Fraction."""
    return Fraction(int(value.p), int(value.q))


def value_at_jackpot(expression, jackpot_value) -> Fraction:
    """A function of J at one jackpot, exactly: its polynomial's coefficients by Horner's rule."""
    value, at = Fraction(0), Fraction(jackpot_value)
    for coefficient in _coefficients(expression):
        value = value * at + coefficient
    return value


@cache
def _coefficients(expression) -> tuple[Fraction, ...]:
    """A polynomial in J's coefficients, the highest power's first."""
    import sympy
    return tuple(_fraction(c) for c in sympy.Poly(sympy.sympify(expression), jackpot()).all_coeffs())


@dataclass
class ProgressiveFigures:
    """The progressive's exact figures: hand counts, RTP(J), the break-even jackpot, the PAR lines."""

    counts: list                 # hands of each category
    hands: int                   # C(n, 5)
    rtp: object                  # total returned / total staked, a function of J (a sympy expression)
    break_even: Fraction | None  # the jackpot J > 0 at which RTP = 1 (None if no hand pays a share of it)
    table: list                  # [(jackpot, rtp)] at the rule file's levels
    lines: list                  # PAR lines, best hand first: category, combinations, pays, contribution

    @property
    def rtp_text(self) -> str:
        """RTP(J) as the files write it."""
        return str(self.rtp)


def progressive_figures(table: SituationCounts, prog: Progressive) -> ProgressiveFigures:
    """RTP(J) = total returned / total staked as a linear function of J, and what follows from it."""
    return figures_of_counts(prog, hand_category_counts(table))


def figures_of_counts(prog: Progressive, counts: list[int]) -> ProgressiveFigures:
    """`progressive_figures` from the hands of each category."""
    import sympy
    hands = sum(counts)
    rtp = rtp_function(prog, counts)
    # the symbol is positive: no break-even when the fixed payouts alone return the stake
    solutions = sympy.solve(rtp - 1, jackpot()) if rtp.has(jackpot()) else []
    break_even = _fraction(solutions[0]) if solutions else None
    levels = [(level, value_at_jackpot(rtp, level)) for level in prog.levels]
    return ProgressiveFigures(counts, hands, rtp, break_even, levels, progressive_lines(prog, counts, hands))


def rtp_function(prog: Progressive, counts: list[int]):
    """RTP(J) = total returned / total staked over the deck's five-card hands (`counts` per category)."""
    hands = sum(counts)
    return _expanded(sum(Fraction(n, hands) * prog.returned(c, jackpot()) for c, n in enumerate(counts)) / prog.stake)


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
        contribution = _expanded(p.returned(c, jackpot()) * Fraction(counts[c], hands) / p.stake)
        exact = None if contribution.has(jackpot()) else value_at_jackpot(contribution, 0)
        lines.append({"category": c, "combinations": counts[c], "pays": " + ".join(words) or "loses",
                      "contribution": str(contribution), "contribution_exact": exact})
    return lines


def rtp_points(figures: ProgressiveFigures, points: int = 101) -> list[tuple[Fraction, Fraction]]:
    """(J, RTP(J)) at evenly spaced jackpots from 0 to 5/4 of the largest level (or break-even), exactly."""
    levels = sorted({level for level, _ in figures.table} | {figures.break_even})
    top = max(levels) * 5 // 4
    jackpots = [Fraction(top * i, points - 1) for i in range(points)]
    return [(j, value_at_jackpot(figures.rtp, j)) for j in jackpots]


# what the files write: sums of [p*]J[**2][/q] and p[/q] terms (no name but J, no call: safe to sympify)
_TERM = r"(?:[1-9]\d*\*)?J(?:\*\*2)?(?:/[1-9]\d*)?|(?:0|[1-9]\d*)(?:/[1-9]\d*)?"
_FUNCTION_OF_J = re.compile(rf"\s*-?\s*(?:{_TERM})(?:\s*[+-]\s*(?:{_TERM}))*\s*")


def rtp_at(text: str, jackpot_value) -> Fraction:
    """A function of J as a summary writes it ("J/324870 + 6091/15470"), evaluated exactly at a jackpot.

    InputError if the text is not a polynomial in J of degree at most 2 with rational coefficients.

    >>> rtp_at("J/324870 + 6091/15470", 0)
    Fraction(6091, 15470)
    """
    import sympy
    if not isinstance(text, str) or not _FUNCTION_OF_J.fullmatch(text):
        raise InputError(f"{text!r} is not a polynomial in J of degree at most 2 with rational coefficients")
    return value_at_jackpot(sympy.sympify(text, locals={"J": jackpot()}), jackpot_value)


# --- volatility: the progressive's moments, and its covariance with ANTE + raise, as functions of J ---

def net_expression(prog: Progressive, category: int):
    """The net result per unit staked of a hand of this category, a function of J (`Progressive.net` of J)."""
    return _expanded(prog.returned(category, jackpot()) / prog.stake - 1)


@dataclass
class ProgressiveMoments:
    """Exact functions of J: the progressive's mean and variance per unit staked (X = payment / stake - 1)."""

    mean: object                 # sympy expressions
    variance: object

    @property
    def mean_text(self) -> str:
        """E[X](J) as the files write it."""
        return str(self.mean)

    @property
    def variance_text(self) -> str:
        """Var[X](J) as the files write it."""
        return str(self.variance)


def progressive_moments(prog: Progressive, counts: list) -> ProgressiveMoments:
    """E[X](J) and Var[X](J) over the deck's five-card hands (`counts` per category): linear and quadratic in J."""
    hands = sum(counts)
    nets = [net_expression(prog, c) for c in range(N_CATEGORIES)]
    mean = _expanded(sum(Fraction(counts[c], hands) * nets[c] for c in range(N_CATEGORIES)))
    variance = _expanded(sum(Fraction(counts[c], hands) * nets[c] ** 2 for c in range(N_CATEGORIES)) - mean ** 2)
    return ProgressiveMoments(mean, variance)


@dataclass
class CombinedFunctions:
    """ANTE + raise with the progressive staked r x ANTE under one strategy, as exact functions of J (per ANTE)."""

    covariance: str              # Cov(ANTE + raise net per ANTE, X per unit staked)
    mean: str                    # E[main + r X]
    variance: str                # Var(main) + r^2 Var(X) + 2 r Cov
    rtp: str                     # 1 + E[main + r X] / (E[ANTE + raise] + r)


def combined_functions(moments: ProgressiveMoments, prog: Progressive, main_by_category: list, main_mean: Fraction,
                       main_variance: Fraction, mean_wagered: Fraction, ratio: Fraction) -> CombinedFunctions:
    """Cov(main, X)(J) = sum_c E[main; category c] X_c(J) - E[main] E[X](J), and the combined mean, variance
    and RTP (`main_by_category[c]`: E[main x 1{category c}])."""
    r = Fraction(ratio)
    covariance = _expanded(sum(Fraction(main_by_category[c]) * net_expression(prog, c) for c in range(N_CATEGORIES))
                           - Fraction(main_mean) * moments.mean)
    mean = _expanded(Fraction(main_mean) + r * moments.mean)
    variance = _expanded(Fraction(main_variance) + r ** 2 * moments.variance + 2 * r * covariance)
    rtp = _expanded(1 + mean / (Fraction(mean_wagered) + r))
    return CombinedFunctions(str(covariance), str(mean), str(variance), str(rtp))
