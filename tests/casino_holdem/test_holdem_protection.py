"""Casino Hold'em with seen dealer cards: the kernel and the exact figures against brute force and the honest
analysis."""
import math
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.core.errors import InputError
from analyzer.core.execution import LocalExecutor, SerialExecutor
from analyzer.games import registry
import plain_casino_holdem as reference
from analyzer.games.casino_holdem import count
from analyzer.games.casino_holdem.protection import deals_of_every_k, seen_dealer_cards
from analyzer.poker.protection import FOLD, PLAY as CALL
from cython_ext import handeval, holdem_enum, holdem_leak

HOLDEM = registry.game("casino-holdem")
FOURS = (1, 2)                               # the operator's qualifier for the plain evaluator: a pair of fours


def reduced(tmp_path, ranks, suits, more=()):
    """A reduced deck of the operator's rules (with other rules `more`), its rules and its honest counts."""
    _, rules = HOLDEM.load_rules(support.reduced_deck(tmp_path, "casino-holdem", ranks, suits, more=more))
    return rules, count.count_situations(rules, executor=SerialExecutor(2))


REDUCED = [("23456A", "cd", (), FOURS),                                 # flushes, straights, the wheel
           ("45A", "cdhs", [('category = "one_pair"\nranks = ["4"]', 'category = "two_pair"\nranks = ["5"]'),
                            ("full_house = 3", 'full_house = "7/2"')], (2, 3)),   # quads; another qualifier, paytable
           ("JQKA", "cdh", [("size = 2 ", "size = 1 "), ("pays = 1 ", "pays = 2 ")], FOURS)]   # three suits; CALL 1 x, 2 to 1


@pytest.mark.parametrize("ranks,suits,more,qualifier", REDUCED, ids=[f"{r}-{s}" for r, s, _, _ in REDUCED])
def test_every_k_equals_brute_force(tmp_path, ranks, suits, more, qualifier):
    """Every deal of a tiny deck dealt out in plain Python, for K = 0..2: the deals by category, decision and
    outcome and the disagreements equal the fast path's to the integer; the figures follow from them."""
    rules, table = reduced(tmp_path, ranks, suits, more)
    brute = reference.seen_dealer_cards(list(rules.cards), qualifier, rules.paytable)
    for k in range(3):
        result = seen_dealer_cards(rules, table, k)
        deals, disagreements = brute[k]
        assert result.counts.deals.tolist() == deals, k
        assert result.counts.disagreements == disagreements, k
        rounds = {}
        for category, by_decision in enumerate(deals):
            rounds[Fraction(-1)] = rounds.get(Fraction(-1), 0) + sum(by_decision[FOLD])
            for o, n in enumerate(by_decision[CALL]):
                net = rules.paytable.net(category, o)
                rounds[net] = rounds.get(net, 0) + n
        support.assert_statistics_equal(result.statistics, rounds)
        total = sum(rounds.values())
        assert total == deals_of_every_k(len(rules.cards), k)
        assert result.ev == sum(v * n for v, n in rounds.items()) / total
        assert result.play_probability == Fraction(sum(sum(d[CALL]) for d in deals), total)
        assert result.rtp == 1 + result.ev / (1 + rules.call_size * result.play_probability)


def test_seeing_more_is_worth_more(tmp_path):
    """The exploit's EV never falls as it sees more, and it is the honest optimum's with nothing seen."""
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    results = [seen_dealer_cards(rules, table, k) for k in range(3)]
    assert results[0].gain == 0 and results[0].disagreement == 0
    assert 0 < results[1].gain < results[2].gain
    assert all(r.house_edge == -r.ev for r in results)


def test_no_seen_card_is_the_honest_analysis(holdem_analysis):
    """K = 0 on the full deck: the honest optimum's EV, call probability and main-game distribution, exactly."""
    analysis = holdem_analysis
    result = seen_dealer_cards(analysis.rules, analysis.table, 0)
    optimal = analysis.strategies["optimal"]
    assert (result.ev, result.play_probability, result.rtp) == (optimal.ev, optimal.p_call, optimal.rtp)
    assert result.statistics.variance == analysis.statistics["optimal"].main.variance
    assert result.counts.total == deals_of_every_k(52, 0) == math.comb(52, 2) * math.comb(50, 3) * 1_070_190
    assert "AA Bonus" in result.note


def test_one_seen_card_on_the_full_deck(holdem_analysis):
    """K = 1 on the full deck (about a minute on two cores): every deal once, the exact EV pinned (the kernel
    is checked against brute force on reduced decks; this pins what it gives on the full one)."""
    result = seen_dealer_cards(holdem_analysis.rules, holdem_analysis.table, 1)
    assert result.counts.total == deals_of_every_k(52, 1) == 25_989_600 * 47 * math.comb(46, 2) * 44
    assert result.ev == PINNED_ONE_SEEN_EV
    assert result.gain == result.ev - holdem_analysis.strategies["optimal"].ev > 0


PINNED_ONE_SEEN_EV = Fraction(165610697951, 1738363126500)      # a player's edge of 9.5268% per ANTE


def test_executors_give_identical_counts(tmp_path):
    """The chunks add up to the same totals in one process on any number of threads and on worker processes."""
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    for k in (1, 2):
        one = seen_dealer_cards(rules, table, k, SerialExecutor(1)).counts
        for executor in (SerialExecutor(2), LocalExecutor(2)):
            other = seen_dealer_cards(rules, table, k, executor).counts
            assert other.deals.tolist() == one.deals.tolist() and other.disagreements == one.disagreements


@pytest.mark.parametrize("k", [-1, 3, True, 1.0, "1"])
def test_k_out_of_range_is_refused(tmp_path, k):
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    with pytest.raises(InputError, match="K = "):
        seen_dealer_cards(rules, table, k)


def test_board_ranks_are_the_evaluators():
    """Every pair's rank on a board is the 7-card dense rank; pairs holding a board card are 0."""
    board = np.array([[0, 5, 10, 47, 51]], dtype=np.uint8)
    ranks, order = holdem_leak.board_ranks(board, (1 << 52) - 1)
    pair = lambda a, b: max(a, b) * (max(a, b) - 1) // 2 + min(a, b)            # holdem_enum's pair_index
    for a, b in ((1, 2), (50, 49), (4, 8)):
        value = int(handeval.evaluate_many(np.array([[a, b, *board[0]]], dtype=np.uint8))[0])
        assert ranks[0, pair(a, b)] == handeval.dense_at_least(value)
    assert ranks[0, pair(5, 0)] == ranks[0, pair(5, 3)] == 0
    assert len(set(order[0].tolist())) == len(order[0]) == math.comb(47, 2)
    assert (np.diff(ranks[0, order[0]].astype(np.int64)) >= 0).all() and ranks[0, order[0]].min() > 0


def test_kernel_refuses_mismatched_inputs(tmp_path):
    rules, table = reduced(tmp_path, "9TJQKA", "cd")
    cards = np.array(rules.cards, dtype=np.uint8)
    with pytest.raises(ValueError, match="K = 1 or 2"):
        holdem_leak.count_seen(3, cards, 0, np.zeros((0, 3), dtype=np.uint8), 0, 0, np.zeros(0, dtype=np.int32),
                               np.zeros(0, dtype=np.uint8), holdem_enum.perm_pair_table(), np.zeros(24, dtype=np.uint8),
                               np.zeros((0, 1326), dtype=np.uint16), np.zeros((0, 21), dtype=np.uint16), np.zeros(1, dtype=np.int64),
                               np.zeros(0, dtype=np.uint16), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8),
                               np.zeros(7462, dtype=np.uint8), np.zeros((10, 4), dtype=np.int64), -1, 1)
    with pytest.raises(ValueError, match="flops, uses"):
        holdem_leak.count_seen(1, cards, 0, np.zeros((1, 3), dtype=np.uint8), 0, 1, np.zeros(0, dtype=np.int32),
                               np.zeros(0, dtype=np.uint8), holdem_enum.perm_pair_table(), np.zeros(24, dtype=np.uint8),
                               np.zeros((0, 1326), dtype=np.uint16), np.zeros((0, 21), dtype=np.uint16), np.zeros(2, dtype=np.int64),
                               np.zeros(0, dtype=np.uint16), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8),
                               np.zeros(7462, dtype=np.uint8), np.zeros((10, 4), dtype=np.int64), -1, 1)
