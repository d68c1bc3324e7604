"""Casino Hold'em colluders: the kernel's exact per-deal counts and EVs against brute force, and the estimator's
intervals against the exact value of every deal of a small deck."""
import math
import random
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.core.errors import InputError
from analyzer.formats.strategy_file import pack_keys
from analyzer.games.casino_holdem import collusion, count, price, rules as holdem_rules
import plain_casino_holdem as reference
from analyzer.poker.collusion import Estimate
from cython_ext import collusion as kernel
from cython_ext import handeval
from cython_ext.isomorphism import canonical_keys

FULL_DECK = list(range(52))
FOURS = handeval.threshold_value(1, [2])               # a pair of fours or better, as a compiled hand value
FOURS_TUPLE = (1, 2)                                   # ... and as a plain one
Z_90 = Fraction("1.644853627")                         # two-sided 90% normal quantile


def compiled_value(cards):
    """The compiled evaluator in the plain one's place: (category, value) orders hands as the value does."""
    value = handeval.evaluate(list(cards))
    return handeval.category(value), value


def random_deals(deck, seats, n, seed):
    rng = random.Random(seed)
    return np.array([rng.sample(list(deck), 2 * seats + 3) for _ in range(n)], dtype=np.uint8)


def plain_counts(deck, row, seats, qualifier, value_of=reference.best_value):
    holes = [tuple(int(c) for c in row[2 * i:2 * i + 2]) for i in range(seats)]
    counters = reference.collusion_deal(holes, [int(c) for c in row[2 * seats:]], list(deck), qualifier, value_of)
    counts = np.zeros((seats, 10, 4), dtype=np.int64)
    for seat, counter in enumerate(counters):
        for (category, outcome), n in counter.items():
            counts[seat, category, outcome] += n
    return counts


def binomial_bounds(n, p, tail=Fraction(1, 2000)):
    """The least and greatest number of misses, of n trials missing with probability p, that leave at most
    `tail` of the probability below and above (a 99.9% two-sided acceptance region)."""
    pmf = [math.comb(n, k) * Fraction(p) ** k * (1 - Fraction(p)) ** (n - k) for k in range(n + 1)]
    low = next(k for k in range(n + 1) if sum(pmf[:k + 1]) > tail)
    high = next(k for k in range(n, -1, -1) if sum(pmf[k:]) > tail)
    return low, high


# --- the kernel against brute force -----------------------------------------------------------

def test_evs_equal_the_brute_force_to_the_integer(holdem_analysis):
    """Six seats on the full deck: every turn, river and dealer pair dealt out (396,270 a seat, the compiled
    evaluator standing in for the plain one), the pooled EVs of calling against Fractions."""
    rules = holdem_analysis.rules
    deals = random_deals(FULL_DECK, 6, 1, 6)
    evs = collusion.pooled_evs(rules, deals, 6)
    counts = kernel.holdem_outcomes(FULL_DECK, deals, 6, handeval.dense_at_least(FOURS))
    plain = plain_counts(FULL_DECK, deals[0], 6, (1, FOURS), compiled_value)
    assert (counts[0] == plain).all()
    for seat in range(6):
        ev = sum(Fraction(int(n), int(plain[seat].sum())) * rules.paytable.net(c, o)
                 for (c, o), n in np.ndenumerate(plain[seat]))
        assert Fraction(int(evs[0, seat]), collusion.denominator(rules, 6)) == ev


def flush_deals(deck, seats, seed):
    """Deals whose flop is of one suit and whose seats hold none of it: every board with a turn or river of
    that suit leaves the dealer flushes of one, two or no hole cards of it."""
    rng = random.Random(seed)
    suit = rng.randrange(len({c % 4 for c in deck}))
    suited = [c for c in deck if c % 4 == suit]
    others = [c for c in deck if c % 4 != suit]
    return np.array([rng.sample(others, 2 * seats) + rng.sample(suited, 3) for _ in range(2)], dtype=np.uint8)


REDUCED = [("789TJQKA", "cd", 3, ("one_pair", [2]), FOURS_TUPLE),
           ("23456A", "cd", 2, ("one_pair", [2]), FOURS_TUPLE),
           ("TJQKA", "cdhs", 4, ("one_pair", [11]), (1, 11)),
           ("9TJQKA", "cdh", 3, ("high_card", []), (0,))]


@pytest.mark.parametrize("ranks,suits,seats,qualifier,plain_qualifier", REDUCED)
def test_counts_equal_the_plain_brute_force_on_reduced_decks(ranks, suits, seats, qualifier, plain_qualifier):
    deck = sorted(4 * "23456789TJQKA".index(r) + "cdhs".index(s) for r in ranks for s in suits)
    rank = handeval.dense_at_least(handeval.threshold_value(handeval.CATEGORY_CODES[qualifier[0]], qualifier[1]))
    deals = np.concatenate((random_deals(deck, seats, 4, len(deck)), flush_deals(deck, seats, len(deck))))
    counts = kernel.holdem_outcomes(deck, deals, seats, rank, threads=2)
    for row, got in zip(deals, counts):
        assert (got == plain_counts(deck, row, seats, plain_qualifier)).all()


def test_bad_deals_are_refused():
    with pytest.raises(ValueError, match="row 0 repeats a card"):
        kernel.holdem_outcomes(FULL_DECK, [[0, 1, 2, 3, 4, 5, 0]], 2, 0)
    with pytest.raises(ValueError, match="rows of 7 cards"):
        kernel.holdem_outcomes(FULL_DECK, [list(range(9))], 2, 0)
    with pytest.raises(ValueError, match="cannot deal"):
        kernel.holdem_outcomes(list(range(10)), [list(range(7))], 2, 0)


# --- the estimate -----------------------------------------------------------------------------

def test_one_seat_is_honest_play_exactly(holdem_analysis):
    """A lone seat pools nothing: his EVs are the honest analysis's, class by class, and he gains 0."""
    priced = holdem_analysis.priced
    deals = random_deals(FULL_DECK, 1, 100, 1)
    evs = collusion.pooled_evs(priced.rules, deals, 1)
    rows = np.searchsorted(pack_keys(priced.table.keys), pack_keys(canonical_keys(deals, (2, 3))))
    assert collusion.denominator(priced.rules, 1) == priced.denominator
    assert (evs[:, 0] == priced.ev_call[rows]).all()
    figures = collusion.estimate(priced, 1, 100, seed=2)
    assert figures.gains[0] == figures.differs[0] == Estimate(Fraction(0), Fraction(0))
    assert figures.seats[0].mean == figures.table.mean == holdem_analysis.strategies["optimal"].ev


def test_same_seed_same_figures_on_any_number_of_threads(holdem_analysis):
    priced = holdem_analysis.priced
    one = collusion.estimate(priced, 5, 200, seed=7, threads=1)
    assert collusion.estimate(priced, 5, 200, seed=7, threads=2) == one
    assert collusion.estimate(priced, 5, 200, seed=8, threads=2) != one


@pytest.mark.parametrize("colluders", [0, 7])
def test_colluders_out_of_range_are_refused(holdem_analysis, colluders):
    with pytest.raises(InputError, match="1 to 6 seats"):
        collusion.estimate(holdem_analysis.priced, colluders, 100, seed=1)


@pytest.fixture(scope="module")
def small_game(tmp_path_factory):
    """Two colluders on 12 cards (the fewest that deal them, with straights and unqualified pairs): each
    deal leaves 10 turn/river pairs and 3 dealer pairs; the exact values over every deal, by brute force."""
    path = support.reduced_deck(tmp_path_factory.mktemp("collusion"), "casino-holdem", "23456A", "cd")
    _, rules = holdem_rules.load_rules(path)
    priced = price.price(count.count_situations(rules), rules)
    honest, colluder = reference.collusion_every_deal(rules.cards, FOURS_TUPLE, rules.paytable.net)
    return priced, honest, colluder


def test_the_brute_force_agrees_with_the_honest_analysis(small_game):
    priced, honest, colluder = small_game
    assert honest == priced.decisions.figures("", "", priced.optimal_call()[0]).ev
    assert colluder > honest


def test_intervals_cover_the_exact_value_at_their_rate(small_game):
    """200 estimates of 300 deals (seeds 0..199) against the exact colluder EV: the 99.9% intervals and
    the 90% ones miss it as often as a binomial count allows (at 99.9%)."""
    priced, _, exact = small_game
    misses = {"seat": [0, 0], "average": [0, 0], "table": [0, 0]}
    for seed in range(200):
        figures = collusion.estimate(priced, 2, 300, seed, threads=1)
        for name, estimate, value in (("seat", figures.seats[0], exact), ("average", figures.seat_average, exact),
                                      ("table", figures.table, 2 * exact)):
            misses[name][0] += not estimate.covers(value)
            misses[name][1] += not estimate.covers(value, Z_90)
    low, high = binomial_bounds(200, Fraction(1, 10))
    assert all(strict <= binomial_bounds(200, Fraction(1, 1000))[1] and low <= loose <= high
               for strict, loose in misses.values()), misses
