"""The Caribbean Stud progressive side bet, paid on the player's five cards alone: its RTP and moments as exact
functions of the jackpot J, polynomials over the rationals (sympy's `Poly`; sympy is imported here only); the
files write each function as sympy's str() of its expression.
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
    """J as a polynomial (the symbol positive: a jackpot below or at zero is no break-even)."""
    import sympy
    return sympy.Poly(sympy.Symbol("J", positive=True), domain=sympy.QQ)


def polynomial(value):
    """A number, or a polynomial in J, as a polynomial in J over the rationals."""
    import sympy
    return sympy.Poly(value, *jackpot().gens, domain=sympy.QQ)


def text(function) -> str:
    """A function of J as the files write it ("J/324870 + 6091/15470")."""
    return str(function.as_expr())


def value_at_jackpot(function, jackpot_value) -> Fraction:
    """A function of J at one jackpot, exactly: its coefficients by Horner's rule."""
    value, at = Fraction(0), Fraction(jackpot_value)
    for coefficient in _coefficients(function):
        value = value * at + coefficient
    return value


@cache
def _coefficients(function) -> tuple[Fraction, ...]:
    """A polynomial's coefficients, the highest power's first."""
    return tuple(Fraction(int(c.p), int(c.q)) for c in function.all_coeffs())


@dataclass
class ProgressiveFigures:
    """The progressive's exact figures: hand counts, RTP(J), the break-even jackpot, the PAR lines."""

    counts: list                 # hands of each category
    hands: int                   # C(n, 5)
    rtp: object                  # total returned / total staked, a polynomial in J
    break_even: Fraction | None  # the jackpot J > 0 at which RTP = 1 (None if no hand pays a share of it)
    table: list                  # [(jackpot, rtp)] at the rule file's levels
    lines: list                  # PAR lines, best hand first: category, combinations, pays, contribution

    @property
    def rtp_text(self) -> str:
        """RTP(J) as the files write it."""
        return text(self.rtp)


def progressive_figures(table: SituationCounts, prog: Progressive) -> ProgressiveFigures:
    """RTP(J) = total returned / total staked as a linear function of J, and what follows from it."""
    return figures_of_counts(prog, hand_category_counts(table))


def figures_of_counts(prog: Progressive, counts: list[int]) -> ProgressiveFigures:
    """`progressive_figures` from the hands of each category."""
    hands = sum(counts)
    rtp = rtp_function(prog, counts)
    # no break-even when the fixed payouts alone return the stake (RTP(J) = 1 only at J <= 0)
    roots = [root for root in (rtp - 1).real_roots() if root > 0] if rtp.degree() > 0 else []
    break_even = Fraction(int(roots[0].p), int(roots[0].q)) if roots else None
    levels = [(level, value_at_jackpot(rtp, level)) for level in prog.levels]
    return ProgressiveFigures(counts, hands, rtp, break_even, levels, progressive_lines(prog, counts, hands))


@cache
def returned(prog: Progressive, category: int):
    """Total returned per unit staked by a hand of this category, a polynomial in J."""
    return polynomial(prog.returned(category, jackpot()) * (1 / Fraction(prog.stake)))


def rtp_function(prog: Progressive, counts: list[int]):
    """RTP(J) = total returned / total staked over the deck's five-card hands (`counts` per category)."""
    hands = sum(counts)
    return sum((returned(prog, c) * Fraction(n, hands) for c, n in enumerate(counts)), polynomial(0))


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
        contribution = returned(p, c) * Fraction(counts[c], hands)
        exact = None if contribution.degree() > 0 else value_at_jackpot(contribution, 0)
        lines.append({"category": c, "combinations": counts[c], "pays": " + ".join(words) or "loses",
                      "contribution": text(contribution), "contribution_exact": exact})
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


def rtp_at(written: str, jackpot_value) -> Fraction:
    """A function of J as a summary writes it ("J/324870 + 6091/15470"), evaluated exactly at a jackpot.

    InputError if the text is not a polynomial in J of degree at most 2 with rational coefficients.

    >>> rtp_at("J/324870 + 6091/15470", 0)
    Fraction(6091, 15470)
    """
    import sympy
    if not isinstance(written, str) or not _FUNCTION_OF_J.fullmatch(written):
        raise InputError(f"{written!r} is not a polynomial in J of degree at most 2 with rational coefficients")
    return value_at_jackpot(polynomial(sympy.sympify(written, locals={"J": jackpot().gens[0]})), jackpot_value)


# --- volatility: the progressive's moments, and its covariance with ANTE + raise, as functions of J ---

@cache
def net_function(prog: Progressive, category: int):
    """The net result per unit staked of a hand of this category, a polynomial in J (`Progressive.net` of J)."""
    return returned(prog, category) - 1


@dataclass
class ProgressiveMoments:
    """Exact functions of J: the progressive's mean and variance per unit staked (X = payment / stake - 1)."""

    mean: object                 # polynomials in J
    variance: object

    @property
    def mean_text(self) -> str:
        """E[X](J) as the files write it."""
        return text(self.mean)

    @property
    def variance_text(self) -> str:
        """Var[X](J) as the files write it."""
        return text(self.variance)


def progressive_moments(prog: Progressive, counts: list) -> ProgressiveMoments:
    """E[X](J) and Var[X](J) over the deck's five-card hands (`counts` per category): linear and quadratic in J."""
    hands = sum(counts)
    nets = [net_function(prog, c) for c in range(N_CATEGORIES)]
    mean = sum((nets[c] * Fraction(counts[c], hands) for c in range(N_CATEGORIES)), polynomial(0))
    variance = sum((nets[c] ** 2 * Fraction(counts[c], hands) for c in range(N_CATEGORIES)), -mean ** 2)
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
    covariance = sum((net_function(prog, c) * Fraction(main_by_category[c]) for c in range(N_CATEGORIES)),
                     moments.mean * -Fraction(main_mean))
    mean = moments.mean * r + Fraction(main_mean)
    variance = moments.variance * r ** 2 + covariance * (2 * r) + Fraction(main_variance)
    rtp = mean * (1 / (Fraction(mean_wagered) + r)) + 1
    return CombinedFunctions(text(covariance), text(mean), text(variance), text(rtp))
