"""Caribbean Stud with seen dealer cards: the kernel and the exact figures against brute force, the honest analysis
and the full deck's totals."""
import json
import math
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.core.errors import InputError
from analyzer.core.execution import LocalExecutor, SerialExecutor
from analyzer.core.isomorphism import canonical_groups
from analyzer.games import registry
import plain_caribbean_stud as reference
from analyzer.games.caribbean_stud.count import count_classes
from analyzer.games.caribbean_stud.price import price
from analyzer.games.caribbean_stud.protection import seen_classes, seen_dealer_cards
from analyzer.poker.protection import FOLD, PLAY as RAISE
from analyzer.poker.settlement import DEALER_WINS, N_OUTCOMES
from cython_ext import handeval, stud_leak

STUD = registry.game("caribbean-stud")
ACE_KING = (0, 12, 11)                       # the operator's qualifier for the plain evaluator


def reduced(tmp_path, ranks, suits, qualifier=None):
    """A reduced deck of the operator's rules (and another qualifier), its rules and its honest counts."""
    more = []
    if qualifier:
        category, qranks = qualifier
        more.append(('category = "high_card"\nranks = ["A", "K"]', f'category = "{category}"\nranks = {json.dumps(qranks)}'))
    _, rules = STUD.load_rules(support.reduced_deck(tmp_path, "caribbean-stud", ranks, suits, more=more))
    return rules, count_classes(rules.cards, rules.qualifier_rank, SerialExecutor(2))


REDUCED = [("9TJQKA", "cd", None, ACE_KING),                  # flushes (the dealer's too), straights, royal
           ("9TJQKA", "cd", ("one_pair", ["T"]), (1, 8)),     # another qualifier
           ("QKA", "cdhs", ("two_pair", ["K"]), (2, 11)),     # four suits: quads, full houses, no high card
           ("JQKA", "cdh", None, ACE_KING),                   # three suits
           ("23456A", "cd", None, ACE_KING)]                  # the wheel


@pytest.mark.parametrize("ranks,suits,qualifier,qualifier_tuple", REDUCED,
                         ids=[f"{r}-{s}-{q[0] if q else 'AK'}" for r, s, q, _ in REDUCED])
def test_every_k_equals_brute_force(tmp_path, ranks, suits, qualifier, qualifier_tuple):
    """Every deal of a tiny deck dealt out in plain Python, for K = 0..4: the deals by category, decision and
    outcome and the disagreements equal the fast path's to the integer; the figures follow from them."""
    rules, table = reduced(tmp_path, ranks, suits, qualifier)
    for k in range(5):
        result = seen_dealer_cards(rules, table, k)
        deals, disagreements = reference.seen_dealer_cards(rules.cards, qualifier_tuple, rules.paytable, k)
        assert result.counts.deals.tolist() == deals, k
        assert result.counts.disagreements == disagreements, k
        rounds = {}
        for category, by_decision in enumerate(deals):
            rounds[Fraction(-1)] = rounds.get(Fraction(-1), 0) + sum(by_decision[FOLD])
            for o, n in enumerate(by_decision[RAISE]):
                net = rules.paytable.net(category, o)
                rounds[net] = rounds.get(net, 0) + n
        support.assert_statistics_equal(result.statistics, rounds)
        total = sum(rounds.values())
        assert result.ev == sum(v * n for v, n in rounds.items()) / total
        assert result.play_probability == Fraction(sum(sum(d[RAISE]) for d in deals), total)


def test_deals_are_every_deal_once(tmp_path):
    """C(n, 5) hands x C(n - 5, 1 + K) seen sets x C(n - 6 - K, 4 - K) completions; the disagreements are over
    the deals with the up card distinguished: (1 + K) times as many."""
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    n = len(rules.cards)
    for k in range(5):
        counts = seen_dealer_cards(rules, table, k).counts
        assert counts.total == math.comb(n, 5) * math.comb(n - 5, 1 + k) * math.comb(n - 6 - k, 4 - k)
        assert counts.disagreement_deals == math.comb(n, 5) * (n - 5) * math.comb(n - 6, k) * math.comb(n - 6 - k, 4 - k)


def test_no_seen_card_is_the_honest_analysis(stud_analyses):
    """K = 0 on the full deck: the honest optimum's EV, raise probability and round distribution, exactly."""
    for analysis in stud_analyses.values():
        result = seen_dealer_cards(analysis.rules, analysis.table, 0)
        optimal = analysis.strategies["optimal"]
        assert (result.ev, result.play_probability, result.rtp) == (optimal.ev, optimal.p_play, optimal.rtp)
        assert result.outcomes == analysis.statistics["optimal"].outcomes
        assert result.statistics.variance == analysis.statistics["optimal"].main.variance
        assert (result.gain, result.disagreement) == (0, 0)


def test_whole_hand_seen_on_the_full_deck(stud_analyses):
    """K = 4: every deal once; the exploit folds exactly the hands the dealer beats (standard paytable)."""
    analysis = stud_analyses["standard"]
    result = seen_dealer_cards(analysis.rules, analysis.table, 4)
    deals = result.counts.deals
    assert result.counts.total == math.comb(52, 5) * math.comb(47, 5)
    assert deals[:, RAISE, DEALER_WINS].sum() == 0
    assert deals[:, FOLD, :DEALER_WINS].sum() == 0
    assert result.gain == result.ev - analysis.strategies["optimal"].ev > 0


def test_one_seen_card_on_the_full_deck(stud_analyses):
    """K = 1 on the full deck: every deal once, and the exact figures pinned (the kernel is checked against
    brute force on reduced decks; this pins what it gives on the full one)."""
    analysis = stud_analyses["standard"]
    result = seen_dealer_cards(analysis.rules, analysis.table, 1)
    assert result.counts.total == math.comb(52, 5) * math.comb(47, 2) * math.comb(45, 3)
    assert (result.ev, result.play_probability, result.disagreement) == PINNED_ONE_SEEN


PINNED_ONE_SEEN = (Fraction(-2558246932, 415275635775), Fraction(81447061, 117061490), Fraction(47288447, 234122980))


def test_executors_give_identical_counts(tmp_path):
    """The chunks add up to the same totals in one process on any number of threads and on worker processes."""
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    for k in (1, 2, 3):
        one = seen_dealer_cards(rules, table, k, SerialExecutor(1)).counts
        for executor in (SerialExecutor(2), LocalExecutor(2)):
            other = seen_dealer_cards(rules, table, k, executor).counts
            assert other.deals.tolist() == one.deals.tolist() and other.disagreements == one.disagreements


@pytest.mark.parametrize("k", [-1, 5, True, 1.0, "1"])
def test_k_out_of_range_is_refused(tmp_path, k):
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    with pytest.raises(InputError, match="K = "):
        seen_dealer_cards(rules, table, k)


def test_seen_classes_cover_every_set():
    """The suit classes of 2, 3 and 4 cards of the full deck weigh C(52, k) raw sets in all."""
    for size, classes in ((2, 169), (3, 1755), (4, 16432)):
        keys, weights = seen_classes(range(52), size)
        assert (len(keys), int(weights.sum())) == (classes, math.comb(52, size))


# --- the kernel's tables and refusals --------------------------------------------------------------

def test_honest_planes_are_the_class_decisions(tmp_path):
    """Every raw (hand, up card) of a reduced deck: its bit in the planes is its class's optimal decision."""
    rules, table = reduced(tmp_path, "JQKA", "cdh")
    raise_, _ = price(table, rules).optimal()
    cards = np.array(rules.cards, dtype=np.uint8)
    types = stud_leak.hand_types(cards, stud_leak.hand_ranks(cards))
    planes = stud_leak.honest_planes(cards, table.keys, raise_.view(np.uint8), types["order"])
    row = {bytes(key): i for i, key in enumerate(table.keys)}
    position = {int(c): p for p, c in enumerate(cards)}
    for h, packed in enumerate(types["hands"].tolist()):
        hand = [int(cards[(packed >> 6 * i) & 63]) for i in range(5)]
        for up in set(cards.tolist()) - set(hand):
            key = bytes(c for group in canonical_groups((hand, [up])) for c in group)
            assert bool(planes[position[up], h // 64] >> np.uint64(h % 64) & np.uint64(1)) == bool(raise_[row[key]])


def test_hand_types_sort_by_rank_and_clubs():
    """The full deck's hands sorted by (rank, ranks held in clubs), each type one run; a card's plane holds
    the C(51, 4) hands with that card."""
    cards = np.arange(52, dtype=np.uint8)
    ranks = stud_leak.hand_ranks(cards)
    types = stud_leak.hand_types(cards, ranks)
    positions = (types["hands"][:, None] >> (6 * np.arange(5, dtype=np.uint32))) & 63
    clubs = ((positions % 4 == 0) << (positions // 4).astype(np.int64)).sum(axis=1)
    key = ranks[types["order"]].astype(np.int64) << 13 | clubs
    assert (np.diff(key) >= 0).all() and len(np.unique(types["order"])) == math.comb(52, 5)
    assert types["type_start"].tolist() == np.flatnonzero(np.r_[True, np.diff(key) != 0, True]).tolist()
    assert int(types["rank_start"][-1]) == math.comb(52, 5)
    assert all(sum(bin(int(w)).count("1") for w in types["holding"][c]) == math.comb(51, 4) for c in (0, 51))


def test_kernel_refuses_a_seen_set_of_one_suit_outside_clubs():
    deck = np.arange(12, dtype=np.uint8)
    ranks = stud_leak.hand_ranks(deck)
    types = stud_leak.hand_types(deck, ranks)
    planes = np.zeros((12, 13), dtype=np.uint64)
    categories = handeval.categories(handeval.ORDERED_VALUES).astype(np.uint8)
    nets = np.zeros((10, N_OUTCOMES), dtype=np.int64)
    with pytest.raises(ValueError, match="clubs"):
        stud_leak.count_seen(deck, np.array([[1, 5]], dtype=np.uint8), [1], ranks, types, planes, categories, nets,
                             -10, 0, 1)
    with pytest.raises(ValueError, match="twice"):
        stud_leak.count_seen(deck, np.array([[1, 1]], dtype=np.uint8), [1], ranks, types, planes, categories, nets,
                             -10, 0, 1)
    with pytest.raises(ValueError, match="tables of this deck"):
        stud_leak.count_seen(deck, np.array([[0, 5]], dtype=np.uint8), [1], ranks[:10], types, planes, categories,
                             nets, -10, 0, 1)
