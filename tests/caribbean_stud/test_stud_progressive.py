"""The progressive's functions of J (exact polynomials) against the sympy code that built them before, kept
here as the reference: the same text in every file, the same break-even jackpot, values and PAR lines, on
the built-in paytables, the tests' paytables and random ones, over the full deck's hand counts and others."""
import dataclasses
import random
from fractions import Fraction

import pytest
import sympy

from analyzer.core.errors import InputError
from analyzer.games import registry
from analyzer.games.caribbean_stud.progressive import (combined_functions, figures_of_counts, progressive_moments,
                                                       rtp_at, rtp_function)
from analyzer.games.caribbean_stud.rules import Progressive
from analyzer.poker.settlement import N_CATEGORIES

STUD = registry.game("caribbean-stud")
J = sympy.Symbol("J", positive=True)
FULL_DECK = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]


# --- the reference: the former sympy implementation ----------------------------------------------------

def rational(x) -> sympy.Rational:
    x = Fraction(x)
    return sympy.Rational(x.numerator, x.denominator)


def fraction(value) -> Fraction:
    value = sympy.Rational(value)
    return Fraction(int(value.p), int(value.q))


def reference_figures(prog: Progressive, counts: list) -> dict:
    hands = sum(counts)
    rtp = sympy.expand(sum((sympy.Rational(counts[c], hands) * prog.returned(c, J) for c in range(N_CATEGORIES)),
                           sympy.Integer(0)) / rational(prog.stake))
    solutions = sympy.solve(sympy.Eq(rtp, 1), J) if rtp.has(J) else []
    lines = []
    for c in range(N_CATEGORIES - 1, -1, -1):
        contribution = sympy.Rational(counts[c], hands) * prog.returned(c, J) / rational(prog.stake)
        lines.append((str(contribution), None if getattr(contribution, "free_symbols", None) else fraction(contribution)))
    return {"rtp": str(rtp), "break_even": fraction(solutions[0]) if solutions else None,
            "levels": [(level, fraction(rtp.subs(J, rational(level)))) for level in prog.levels], "lines": lines}


def reference_net(prog: Progressive, category: int):
    share, pays, stake = (rational(x) for x in (prog.jackpot_share[category], prog.pays[category], prog.stake))
    returned = share * J + pays + (stake if prog.stake_returned and prog.wins(category) else 0)
    return sympy.expand(returned / stake - 1)


def reference_moments(prog: Progressive, counts: list):
    hands = sum(counts)
    nets = [reference_net(prog, c) for c in range(N_CATEGORIES)]
    mean = sympy.expand(sum(sympy.Rational(counts[c], hands) * nets[c] for c in range(N_CATEGORIES)))
    variance = sympy.expand(sum(sympy.Rational(counts[c], hands) * nets[c] ** 2 for c in range(N_CATEGORIES))
                            - mean ** 2)
    return mean, variance


def reference_combined(prog, counts, main_by_category, main_mean, main_variance, mean_wagered, ratio):
    moment_mean, moment_variance = reference_moments(prog, counts)
    r = rational(ratio)
    covariance = sympy.expand(sum(rational(main_by_category[c]) * reference_net(prog, c) for c in range(N_CATEGORIES))
                              - rational(main_mean) * moment_mean)
    mean = sympy.expand(rational(main_mean) + r * moment_mean)
    variance = sympy.expand(rational(main_variance) + r ** 2 * moment_variance + 2 * r * covariance)
    rtp = sympy.expand(1 + mean / (rational(mean_wagered) + r))
    return str(covariance), str(mean), str(variance), str(rtp)


# --- the paytables and hand counts compared on --------------------------------------------------------

def builtin_paytables() -> list[Progressive]:
    tables = [STUD.load_rules(path)[1].progressive for path in STUD.builtin_rule_paths]
    operator = tables[0]
    shares = [Fraction(0)] * N_CATEGORIES
    shares[9], shares[8] = Fraction(1), Fraction(1, 10)           # tests/publish/test_design.py's paytable
    pays = [Fraction(0)] * N_CATEGORIES
    pays[7], pays[6], pays[5] = Fraction(100), Fraction(75), Fraction(50)
    huge = list(operator.pays)
    huge[5] = Fraction(10**30)                                     # tests/core/test_overflow_policy.py's flush
    return tables + [dataclasses.replace(operator, stake_returned=True),
                     Progressive(Fraction(1), False, tuple(shares), tuple(pays), (Fraction(100000),)),
                     dataclasses.replace(operator, pays=tuple(huge))]


def random_paytable(rng: random.Random) -> Progressive:
    def amount():
        return rng.choice([Fraction(0), Fraction(rng.randint(1, 5000)), Fraction(rng.randint(1, 10**6), rng.randint(1, 100))])
    shares = [rng.choice([Fraction(0), Fraction(0), Fraction(1), Fraction(1, 10), Fraction(rng.randint(1, 99), 100)])
              for _ in range(N_CATEGORIES)]
    pays = [amount() for _ in range(N_CATEGORIES)]
    if rng.random() < 0.1:
        shares = [Fraction(0)] * N_CATEGORIES                      # no jackpot at all: RTP a constant
    stake = rng.choice([Fraction(1, 2), Fraction(1), Fraction(rng.randint(1, 100), rng.randint(1, 7))])
    levels = tuple(Fraction(rng.randint(1, 10**6)) for _ in range(rng.randint(1, 3)))
    return Progressive(stake, rng.random() < 0.5, tuple(shares), tuple(pays), levels)


def random_counts(rng: random.Random) -> list:
    return [rng.choice([0, rng.randint(1, 50), rng.randint(1, 10**7)]) for _ in range(N_CATEGORIES - 1)] + [rng.randint(1, 40)]


def cases():
    rng = random.Random(14)
    yield from ((prog, FULL_DECK) for prog in builtin_paytables())
    yield from ((prog, random_counts(rng)) for prog in builtin_paytables())
    yield from ((random_paytable(rng), rng.choice([FULL_DECK, random_counts(rng)])) for _ in range(150))


def test_figures_and_their_text_equal_sympys():
    for prog, counts in cases():
        mine, theirs = figures_of_counts(prog, counts), reference_figures(prog, counts)
        assert mine.rtp_text == theirs["rtp"]
        assert mine.break_even == theirs["break_even"]
        assert mine.table == theirs["levels"]
        assert [(line["contribution"], line["contribution_exact"]) for line in mine.lines] == theirs["lines"]
        assert rtp_at(mine.rtp_text, prog.levels[0]) == theirs["levels"][0][1]
        assert rtp_function(prog, counts)(prog.levels[-1]) == theirs["levels"][-1][1]    # as the design problems take it


def test_moments_and_combined_functions_equal_sympys():
    rng = random.Random(13)
    for prog, counts in cases():
        moments = progressive_moments(prog, counts)
        mean, variance = reference_moments(prog, counts)
        assert (moments.mean_text, moments.variance_text) == (str(mean), str(variance))
        main = [Fraction(rng.randint(-10**9, 10**9), rng.randint(1, 10**9)) for _ in range(N_CATEGORIES)]
        figures = (Fraction(rng.randint(-10**6, 0), 10**6), Fraction(rng.randint(1, 10**12), 10**9),
                   Fraction(rng.randint(10**6, 3 * 10**6), 10**6), rng.choice([Fraction(1), Fraction(1, 2), Fraction(3)]))
        functions = combined_functions(moments, prog, main, *figures)
        assert (functions.covariance, functions.mean, functions.variance, functions.rtp) == \
            reference_combined(prog, counts, main, *figures)


def test_a_break_even_at_or_below_zero_is_none():
    """The jackpot was a positive symbol: fixed payouts that alone return the stake (RTP(0) = 1) or more
    leave no break-even jackpot."""
    operator = builtin_paytables()[0]
    others = sum(n * operator.pays[c] for c, n in enumerate(FULL_DECK) if c != 5)
    for flush in (Fraction(sum(FULL_DECK) * operator.stake - others, FULL_DECK[5]), Fraction(4_000_000)):
        pays = list(operator.pays)
        pays[5] = flush
        prog = dataclasses.replace(operator, pays=tuple(pays))
        assert rtp_function(prog, FULL_DECK)(0) >= 1
        assert figures_of_counts(prog, FULL_DECK).break_even is None
        assert reference_figures(prog, FULL_DECK)["break_even"] is None


@pytest.mark.parametrize("text", ["J/324870 + 6091/15470)", "J/324870 + 6091/15470 + K", "", "J/324870 + 1.5"])
def test_rtp_at_refuses_damaged_text(text):
    with pytest.raises(InputError, match="is not a polynomial in J"):
        rtp_at(text, 0)
