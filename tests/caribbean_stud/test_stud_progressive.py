"""The progressive's functions of J (sympy) against plain Fractions: each function's text, read back, equals at
several jackpots what a plain Fraction loop gives there (three points fix a function of degree at most 2),
the break-even jackpot is the plain linear root, the PAR lines add up to RTP(J); on the built-in paytables,
the tests' paytables and random ones, over the full deck's hand counts and others.  Damaged text is refused."""
import dataclasses
import random
from fractions import Fraction

import pytest

from analyzer.core.errors import InputError
from analyzer.games import registry
from analyzer.games.caribbean_stud.progressive import (combined_functions, figures_of_counts, progressive_moments,
                                                       rtp_at, rtp_function, value_at_jackpot)
from analyzer.games.caribbean_stud.rules import Progressive
from analyzer.poker.settlement import N_CATEGORIES

STUD = registry.game("caribbean-stud")
FULL_DECK = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]


# --- the reference: plain Fractions at one jackpot j ---------------------------------------------------

def plain_rtp(prog: Progressive, counts: list, j: Fraction) -> Fraction:
    return sum(n * prog.returned(c, j) for c, n in enumerate(counts)) / (sum(counts) * prog.stake)


def plain_moments(prog: Progressive, counts: list, j: Fraction) -> tuple[Fraction, Fraction]:
    hands = sum(counts)
    mean = sum(n * prog.net(c, j) for c, n in enumerate(counts)) / hands
    return mean, sum(n * (prog.net(c, j) - mean) ** 2 for c, n in enumerate(counts)) / hands


def plain_combined(prog, counts, main_by_category, main_mean, main_variance, mean_wagered, ratio, j):
    mean_x, variance_x = plain_moments(prog, counts, j)
    covariance = sum(main_by_category[c] * prog.net(c, j) for c in range(N_CATEGORIES)) - main_mean * mean_x
    mean = main_mean + ratio * mean_x
    return (covariance, mean, main_variance + ratio ** 2 * variance_x + 2 * ratio * covariance,
            1 + mean / (mean_wagered + ratio))


def jackpots(prog: Progressive) -> list:
    """The rule file's levels and three more: enough distinct points to fix a quadratic."""
    return sorted(set(prog.levels) | {Fraction(0), Fraction(1), Fraction(123457, 3)})


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
    yield from ((random_paytable(rng), rng.choice([FULL_DECK, random_counts(rng)])) for _ in range(60))


def test_the_published_text_is_sympys_expanded_form():
    operator = builtin_paytables()[0]
    figures, moments = figures_of_counts(operator, FULL_DECK), progressive_moments(operator, FULL_DECK)
    assert figures.rtp_text == "J/324870 + 6091/15470" and figures.break_even == 196959
    assert moments.mean_text == "J/324870 - 9379/15470"
    assert moments.variance_text == "649739*J**2/105540516900 - 6091*J/2512869450 + 36446591899/239320900"
    assert [line["contribution"] for line in figures.lines[:2]] == ["J/324870", "375/10829"]


def test_figures_equal_plain_fractions():
    for prog, counts in cases():
        figures = figures_of_counts(prog, counts)
        for j in jackpots(prog):
            expected = plain_rtp(prog, counts, j)
            assert rtp_at(figures.rtp_text, j) == value_at_jackpot(rtp_function(prog, counts), j) == expected
            assert sum(rtp_at(line["contribution"], j) for line in figures.lines) == expected
        assert figures.table == [(level, plain_rtp(prog, counts, level)) for level in prog.levels]
        at_zero, slope = plain_rtp(prog, counts, Fraction(0)), plain_rtp(prog, counts, Fraction(1)) - plain_rtp(
            prog, counts, Fraction(0))
        root = (1 - at_zero) / slope if slope else None
        assert figures.break_even == (root if root is not None and root > 0 else None)
        for line in figures.lines:
            fixed = not prog.jackpot_share[line["category"]] or not counts[line["category"]]
            assert line["contribution_exact"] == (rtp_at(line["contribution"], 0) if fixed else None)


def test_moments_and_combined_functions_equal_plain_fractions():
    rng = random.Random(13)
    for prog, counts in cases():
        moments = progressive_moments(prog, counts)
        main = [Fraction(rng.randint(-10**9, 10**9), rng.randint(1, 10**9)) for _ in range(N_CATEGORIES)]
        figures = (Fraction(rng.randint(-10**6, 0), 10**6), Fraction(rng.randint(1, 10**12), 10**9),
                   Fraction(rng.randint(10**6, 3 * 10**6), 10**6), rng.choice([Fraction(1), Fraction(1, 2), Fraction(3)]))
        functions = combined_functions(moments, prog, main, *figures)
        texts = (functions.covariance, functions.mean, functions.variance, functions.rtp)
        for j in jackpots(prog):
            assert (rtp_at(moments.mean_text, j), rtp_at(moments.variance_text, j)) == plain_moments(prog, counts, j)
            assert tuple(rtp_at(text, j) for text in texts) == plain_combined(prog, counts, main, *figures, j)


def test_a_break_even_at_or_below_zero_is_none():
    """The jackpot is a positive symbol: fixed payouts that alone return the stake (RTP(0) = 1) or more
    leave no break-even jackpot."""
    operator = builtin_paytables()[0]
    others = sum(n * operator.pays[c] for c, n in enumerate(FULL_DECK) if c != 5)
    for flush in (Fraction(sum(FULL_DECK) * operator.stake - others, FULL_DECK[5]), Fraction(4_000_000)):
        pays = list(operator.pays)
        pays[5] = flush
        prog = dataclasses.replace(operator, pays=tuple(pays))
        assert plain_rtp(prog, FULL_DECK, Fraction(0)) >= 1
        assert figures_of_counts(prog, FULL_DECK).break_even is None


@pytest.mark.parametrize("text", ["J/324870 + 6091/15470)", "J/324870 + 6091/15470 + K", "", "  ", "-", "J +",
                                  "J + + 1", "J/324870 + 1.5", "2*J/0", "1/00", "3 J", "J*2", "J**-2", "J**3", "1e5*J",
                                  "nan", "9**9**9", "__import__('os')", "J.subs(J, 1)", None])
def test_rtp_at_refuses_damaged_text(text):
    with pytest.raises(InputError, match="is not a polynomial in J"):
        rtp_at(text, 0)


def test_rtp_at_reads_what_the_files_write():
    assert rtp_at("-J**2 + 3*J/2 - 7", 2) == -8 and rtp_at("1 - J", Fraction(1, 3)) == Fraction(2, 3)
    assert rtp_at("J/324870+6091/15470", 0) == Fraction(6091, 15470)
