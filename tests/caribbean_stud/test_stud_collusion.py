"""Caribbean Stud colluders: the kernel's exact per-deal counts and EVs against brute force, and the estimator's
intervals against the exact value of every deal of a small deck."""
import math
import random
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.core.errors import InputError
from analyzer.formats.strategy_file import pack_keys
from analyzer.games.caribbean_stud import collusion, count, price, rules as stud_rules
from analyzer.poker.collusion import Estimate
from plain_poker import five_card_value
import plain_caribbean_stud as reference
from cython_ext import collusion as kernel
from cython_ext import handeval
from cython_ext.isomorphism import canonical_keys

FULL_DECK = list(range(52))
ACE_KING = handeval.threshold_value(0, [12, 11])       # the qualifier as a compiled hand value
ACE_KING_TUPLE = (0, 12, 11)                           # ... and as a plain one
Z_90 = Fraction("1.644853627")                         # two-sided 90% normal quantile


def priced_of(path):
    _, rules = stud_rules.load_rules(path)
    return price.price(count.count_classes(rules.cards, rules.qualifier_rank), rules)


def random_deals(deck, seats, n, seed):
    rng = random.Random(seed)
    return np.array([rng.sample(list(deck), 5 * seats + 1) for _ in range(n)], dtype=np.uint8)


def plain_counts(deck, row, seats, qualifier, value_of=five_card_value):
    hands = [tuple(int(c) for c in row[5 * i:5 * i + 5]) for i in range(seats)]
    return [list(c) for c in reference.collusion_deal(hands, int(row[-1]), list(deck), qualifier, value_of)]


def binomial_bounds(n, p, tail=Fraction(1, 2000)):
    """The least and greatest number of misses, of n trials missing with probability p, that leave at most
    `tail` of the probability below and above (a 99.9% two-sided acceptance region)."""
    pmf = [math.comb(n, k) * Fraction(p) ** k * (1 - Fraction(p)) ** (n - k) for k in range(n + 1)]
    low = next(k for k in range(n + 1) if sum(pmf[:k + 1]) > tail)
    high = next(k for k in range(n, -1, -1) if sum(pmf[k:]) > tail)
    return low, high


# --- the kernel against brute force -----------------------------------------------------------

@pytest.mark.parametrize("seats,n", [(7, 3), (6, 1)])
def test_counts_equal_the_plain_brute_force_on_the_full_deck(seats, n):
    """Every dealer completion dealt and compared with the plain evaluator."""
    deals = random_deals(FULL_DECK, seats, n, seats)
    counts, categories = kernel.stud_outcomes(FULL_DECK, deals, seats, handeval.dense_at_least(ACE_KING))
    for row, got, category in zip(deals, counts, categories):
        assert got.tolist() == plain_counts(FULL_DECK, row, seats, ACE_KING_TUPLE)
        assert category.tolist() == [five_card_value(row[5 * i:5 * i + 5].tolist())[0] for i in range(seats)]


@pytest.mark.parametrize("seats", [1, 2, 3])
def test_evs_equal_the_brute_force_to_the_integer(stud_analyses, seats):
    """The pooled EVs of raising, numerator by numerator, against Fractions over every completion dealt out
    (the compiled evaluator standing in for the plain one: 101,270 completions a seat at two seats);
    the first deal's seats hold no card of the up card's suit, so 495 completions make a flush."""
    rules = stud_analyses["operator"].rules
    deals = random_deals(FULL_DECK, seats, 2, 10 + seats)
    deals[0] = [c for c in FULL_DECK if c % 4 != 3][:5 * seats] + [51]        # the up card As
    evs = collusion.pooled_evs(rules, deals, seats)
    over = collusion.denominator(rules, seats)
    for row, got in zip(deals, evs):
        for seat, counts in enumerate(plain_counts(FULL_DECK, row, seats, ACE_KING, handeval.evaluate)):
            category = five_card_value(row[5 * seat:5 * seat + 5].tolist())[0]
            plain = sum(Fraction(n, sum(counts)) * rules.paytable.net(category, o) for o, n in enumerate(counts))
            assert Fraction(int(got[seat]), over) == plain


REDUCED = [("789TJQKA", "cd", 2, ("high_card", [12, 11]), ACE_KING_TUPLE),
           ("9TJQKA", "cdhs", 3, ("one_pair", [2]), (1, 2)),
           ("6789TJQKA", "cdhs", 5, ("high_card", [12, 11]), ACE_KING_TUPLE),
           ("23456789", "cdhs", 4, ("one_pair", [7]), (1, 7)),
           ("TJQKA", "cdhs", 2, ("high_card", []), (0,))]


@pytest.mark.parametrize("ranks,suits,seats,qualifier,plain_qualifier", REDUCED)
def test_counts_equal_the_plain_brute_force_on_reduced_decks(ranks, suits, seats, qualifier, plain_qualifier):
    deck = sorted(4 * "23456789TJQKA".index(r) + "cdhs".index(s) for r in ranks for s in suits)
    rank = handeval.dense_at_least(handeval.threshold_value(handeval.CATEGORY_CODES[qualifier[0]], qualifier[1]))
    deals = random_deals(deck, seats, 40, len(deck))
    counts, _ = kernel.stud_outcomes(deck, deals, seats, rank, threads=2)
    for row, got in zip(deals, counts):
        assert got.tolist() == plain_counts(deck, row, seats, plain_qualifier)


def test_bad_deals_are_refused():
    with pytest.raises(ValueError, match="row 1 repeats a card"):
        kernel.stud_outcomes(FULL_DECK, [list(range(11)), [0] * 11], 2, 0)
    with pytest.raises(ValueError, match="outside the deck"):
        kernel.stud_outcomes(list(range(20, 52)), [list(range(11))], 2, 0)
    with pytest.raises(ValueError, match="rows of 11 cards"):
        kernel.stud_outcomes(FULL_DECK, [list(range(10))], 2, 0)
    with pytest.raises(ValueError, match="cannot deal"):
        kernel.stud_outcomes(list(range(14)), [list(range(11))], 2, 0)


# --- the estimate -----------------------------------------------------------------------------

def test_one_seat_is_honest_play_exactly(stud_analyses):
    """A lone seat pools nothing: his EVs are the honest analysis's, class by class, and he gains 0."""
    priced = stud_analyses["operator"].priced
    deals = random_deals(FULL_DECK, 1, 500, 1)
    evs = collusion.pooled_evs(priced.rules, deals, 1)
    rows = np.searchsorted(pack_keys(priced.table.keys), pack_keys(canonical_keys(deals, (5, 1))))
    assert collusion.denominator(priced.rules, 1) == priced.denominator
    assert (evs[:, 0] == priced.ev_raise[rows]).all()
    figures = collusion.estimate(priced, 1, 3000, seed=2)
    assert figures.gains[0] == figures.differs[0] == Estimate(Fraction(0), Fraction(0))
    assert figures.seats[0].mean == figures.table.mean == priced.optimal_figures("", "").ev


def test_same_seed_same_figures_on_any_number_of_threads(stud_analyses):
    priced = stud_analyses["standard"].priced
    one = collusion.estimate(priced, 4, 9000, seed=7, threads=1)      # two batches of deals
    assert collusion.estimate(priced, 4, 9000, seed=7, threads=2) == one
    assert collusion.estimate(priced, 4, 9000, seed=8, threads=2) != one
    assert one.deals == 9000 and len(one.seats) == 4


@pytest.mark.parametrize("colluders", [0, 8])
def test_colluders_out_of_range_are_refused(stud_analyses, colluders):
    with pytest.raises(InputError, match="1 to 7 seats"):
        collusion.estimate(stud_analyses["operator"].priced, colluders, 100, seed=1)


@pytest.mark.parametrize("deals", [1, 0, 2.5])
def test_too_few_deals_are_refused(stud_analyses, deals):
    with pytest.raises(InputError, match="at least 2 deals"):
        collusion.estimate(stud_analyses["operator"].priced, 2, deals, seed=1)


@pytest.fixture(scope="module")
def small_game(tmp_path_factory):
    """Two colluders on 15 cards (the fewest that deal them): each deal leaves the dealer exactly his
    four hole cards, so the colluders know every card; the exact values over every deal, by brute force."""
    path = support.reduced_deck(tmp_path_factory.mktemp("collusion"), "caribbean-stud", "89TJA", "cdh")
    priced = priced_of(path)
    honest, colluder = reference.collusion_every_deal(priced.rules.cards, ACE_KING_TUPLE, priced.rules.paytable.net)
    return priced, honest, colluder


def test_the_brute_force_agrees_with_the_honest_analysis(small_game):
    priced, honest, colluder = small_game
    assert honest == priced.optimal_figures("", "").ev
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
