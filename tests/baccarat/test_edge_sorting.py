"""Edge-sorted Baccarat: the first-card counts and every K's figures against a card-by-card brute force, K = 0
against the honest analysis, exact identities of the full shoe, the search over every split, bad input."""
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import support
from analyzer.core.errors import InputError, InvariantError
from analyzer.games import registry
from analyzer.games.baccarat import edge_sorting
from analyzer.games.baccarat.count import count_outcomes
from analyzer.games.baccarat.edge_sorting import (DEFAULT_VALUES, best_groupings, check_k, count_first_cards,
                                                  edge_sort, outcome_index, parse_values, splits)
from analyzer.games.baccarat.price import MainOutcomes, bet_lines, rtp_of
from plain_baccarat import first_cards_every_sequence, settle_every_sequence
from analyzer.games.baccarat.rules import BETS

BACCARAT = registry.game("baccarat")
SUMMARY = Path(__file__).parents[2] / "results" / "baccarat" / "operator" / "summary.json"

ELEVEN = [0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9]
HIGH = [0, 0, 0, 1, 6, 6, 7, 8, 9, 9, 9]                  # no 2..5: some patterns never occur
GROUPS = [DEFAULT_VALUES, {0}, {1, 3, 5, 7, 9}, {4, 5, 6, 7, 8, 9}, {2, 3}]
ODD_TABLEAU = [("natural = [8, 9]", "natural = [9]"),
               ("player_draws_on = [0, 1, 2, 3, 4, 5]", "player_draws_on = [0, 2, 4, 6]"),
               ("banker_draws_when_player_stands = [0, 1, 2, 3, 4, 5]", "banker_draws_when_player_stands = [1, 3, 5]"),
               ("6 = [6, 7]", "6 = [0, 6, 7, 9]")]
OTHER_PAYS = [("tie = 8 ", "tie = 9 "), ("tie_pushes_player_and_banker = true", "tie_pushes_player_and_banker = false"),
              ("banker = 0.05 ", "banker = 0.04 ")]


@pytest.fixture(scope="module")
def full():
    """The operator's rules and the first-card counts of their full shoe."""
    _, rules = BACCARAT.load_rules()
    return rules, count_first_cards(rules.full_shoe(), rules)


def plain_figures(sequences: Counter, rules, values, k: int) -> dict:
    """{pattern: (probability, {bet: EV})} from the brute force's sequences, each settled by the reference."""
    by_pattern = {}
    for (first, result), n in sequences.items():
        by_pattern.setdefault(tuple(v in values for v in first[:k]), Counter())[result] += n
    figures = {}
    for pattern, outcomes in by_pattern.items():
        rounds = settle_every_sequence(outcomes, rules)
        n = sum(rounds.values())
        figures[pattern] = (Fraction(n, sum(sequences.values())),
                            {bet: sum(nets[i] * m for nets, m in rounds.items()) / n for i, bet in enumerate(BETS)})
    return figures


@pytest.mark.parametrize("deck,replacements", [(ELEVEN, []), (HIGH, []), (ELEVEN, ODD_TABLEAU), (HIGH, OTHER_PAYS)],
                         ids=["eleven", "high", "eleven-odd-tableau", "high-other-payouts"])
def test_every_k_and_grouping_equals_brute_force(tmp_path, deck, replacements):
    """Every ordered sequence of a small deck's cards dealt one by one: the first-card counts equal the fast
    path's to the integer, and for K = 0..4 and several groups so do each pattern's probability and EVs,
    its best bet (exact ties to BANKER, then PLAYER) and both policies' edges."""
    rules = BACCARAT.load_rules(support.variant(tmp_path, "baccarat", replacements))[1] if replacements \
        else BACCARAT.load_rules()[1]
    sequences = first_cards_every_sequence(deck, rules)
    assert sum(sequences.values()) == math.perm(len(deck), 6)
    cells = count_first_cards([deck.count(v) for v in range(10)], rules)
    brute = np.zeros_like(cells)
    for (first, (player, banker, _)), n in sequences.items():
        brute[first + (outcome_index(player, banker),)] += n
    assert (cells == brute).all()
    for values in GROUPS:
        for k in range(5):
            result = edge_sort(cells, rules, values, k)
            plain = plain_figures(sequences, rules, values, k)
            assert {p.known: (p.probability, p.evs) for p in result.patterns} == plain, (values, k)
            best = {pattern: next(bet for bet in BETS if evs[bet] == max(evs.values()))
                    for pattern, (_, evs) in plain.items()}
            assert {p.known: p.best for p in result.patterns} == best
            assert result.edge == sum(p * evs[best[pattern]] for pattern, (p, evs) in plain.items())
            positive = {pattern: (p, evs[best[pattern]]) for pattern, (p, evs) in plain.items() if evs[best[pattern]] > 0}
            assert result.bet_fraction == sum((p for p, _ in positive.values()), Fraction(0))
            assert result.selective_edge == sum((p * ev for p, ev in positive.values()), Fraction(0))


def test_no_card_known_is_the_honest_analysis(full):
    """K = 0: one pattern, the whole shoe; its EVs are summary.json's bets (nominal commission) and the honest
    count's, and the edge is the best single bet's (BANKER)."""
    rules, cells = full
    result = edge_sort(cells, rules, DEFAULT_VALUES, 0)
    committed = json.loads(SUMMARY.read_text())["bets"]
    assert [p.known for p in result.patterns] == [()]
    assert {bet: Fraction(committed[bet]["ev_per_unit"]["exact"]) for bet in BETS} == result.patterns[0].evs
    honest = bet_lines(MainOutcomes.from_counts(count_outcomes(rules.full_shoe(), rules)), rules)
    assert {bet: rtp_of(honest[bet]) - 1 for bet in BETS} == result.honest.evs == result.patterns[0].evs
    assert (result.edge, result.gain, result.honest.best) == (result.honest.evs["banker"], 0, "banker")
    assert (result.bet_fraction, result.selective_edge, result.selective_edge_per_bet) == (0, 0, None)


def test_full_shoe_identities(full):
    """For every K: the patterns' probabilities add up to 1, each bet's EV averaged over the patterns is its
    honest EV, and knowing more cards never lowers either policy's edge."""
    rules, cells = full
    assert int(cells.sum()) == math.perm(416, 6)
    before = None
    for k in range(5):
        result = edge_sort(cells, rules, DEFAULT_VALUES, k)
        assert len(result.patterns) == 2 ** k
        assert sum(p.probability for p in result.patterns) == 1
        for bet in BETS:
            assert sum(p.probability * p.evs[bet] for p in result.patterns) == result.honest.evs[bet]
        assert result.edge >= result.honest.best_ev and result.selective_edge >= 0
        if before:
            assert result.edge >= before.edge and result.selective_edge >= before.selective_edge
        if result.bet_fraction:
            assert result.selective_edge_per_bet == result.selective_edge / result.bet_fraction
        before = result


def test_exact_ties_go_to_banker_and_are_not_bet(tmp_path):
    """A shoe of tens with TIE paying 0 to 1: every round is a tie and every bet's EV is 0, so the best bet is
    BANKER (the first of BANKER, PLAYER, TIE) and a player who bets only when positive never bets."""
    _, rules = BACCARAT.load_rules(support.variant(tmp_path, "baccarat", [("tie = 8 ", "tie = 0 ")]))
    result = edge_sort(count_first_cards([6] + [0] * 9, rules), rules, DEFAULT_VALUES, 1)
    assert [(p.known, p.evs, p.best) for p in result.patterns] == [((False,), dict.fromkeys(BETS, 0), "banker")]
    assert (result.edge, result.bet_fraction, result.selective_edge_per_bet) == (0, 0, None)


# The exact figures of the default group {6, 7, 8, 9} (a regression pin, not a published figure):
# K -> (always betting, betting only when positive per round dealt).
PINNED = {1: ("6604082064256/97624966318425", "6604082064256/97624966318425"),
          2: ("6980761495856/97624966318425", "29597645738/392068137825"),
          3: ("3292306687718/19524993263685", "7948744418/47048176539"),
          4: ("20426265988204/97624966318425", "224516716802/1072801827675")}


@pytest.mark.parametrize("k", sorted(PINNED))
def test_default_group_figures(full, k):
    rules, cells = full
    result = edge_sort(cells, rules, DEFAULT_VALUES, k)
    assert (result.edge, result.selective_edge) == tuple(map(Fraction, PINNED[k]))
    assert result.gain == result.edge - result.honest.evs["banker"]
    assert result.pattern((True,) * k) in result.patterns


@pytest.mark.parametrize("cards,dtype", [(1448, np.int64), (1449, object)])
def test_counts_widen_beyond_64_bits(cards, dtype, full):
    """A shoe whose n^6 no longer fits in 63 bits is counted in Python integers, and still covers every
    sequence once with the honest count's outcomes."""
    rules, _ = full
    shoe = [cards - 9 * (cards // 10)] + [cards // 10] * 9
    cells = count_first_cards(shoe, rules)
    assert cells.dtype == dtype and sum(shoe) == cards
    honest = MainOutcomes.from_counts(count_outcomes(shoe, rules))
    assert [int(n) for n in cells.sum(axis=(0, 1, 2, 3))] == [honest.banker, honest.player, honest.tie]


def test_cells_that_miss_a_sequence_are_refused(full, monkeypatch):
    rules, _ = full
    monkeypatch.setattr(edge_sorting, "round_outcomes", lambda rules: np.full((10,) * 4, 3, dtype=np.int8))
    with pytest.raises(InvariantError, match="every ordered 6-card sequence"):
        count_first_cards(rules.full_shoe(), rules)


def test_every_split_is_searched(full):
    """511 distinct splits; a group and its complement are the same knowledge (patterns mirrored); the best
    split's edge is at least every other's, under either policy."""
    rules, cells = full
    groups = splits()
    assert len(set(groups)) == len(groups) == 511 and not any(0 in g for g in groups)
    for values in (DEFAULT_VALUES, {1}, {2, 4, 6, 8}):
        a = edge_sort(cells, rules, values, 4)
        b = edge_sort(cells, rules, set(range(10)) - set(values), 4)
        assert (a.edge, a.selective_edge, a.bet_fraction) == (b.edge, b.selective_edge, b.bet_fraction)
        assert {p.known: p.evs for p in a.patterns} == {tuple(not x for x in p.known): p.evs for p in b.patterns}
    for k in range(1, 5):
        ranked = best_groupings(cells, rules, k)
        assert len(ranked) == 511 and all(ranked[0].edge >= r.edge for r in ranked)
        assert [r.edge for r in ranked] == sorted((r.edge for r in ranked), reverse=True)
        assert ranked[0].edge >= edge_sort(cells, rules, DEFAULT_VALUES, k).edge
    assert ranked[0].values == {4, 5, 6, 7, 8, 9}
    by_selective = best_groupings(cells, rules, 4, by="selective_edge")
    assert all(by_selective[0].selective_edge >= r.selective_edge for r in by_selective)


@pytest.mark.parametrize("text", ["", "6x89", "6,7,8,8", "0123456789", "6,10", "6 78"])
def test_bad_values_are_refused(text):
    with pytest.raises(InputError, match="--edge-sort"):
        parse_values(text)


@pytest.mark.parametrize("k", [-1, 5, True, "1", 1.0])
def test_bad_k_is_refused(k, full):
    with pytest.raises(InputError, match="--cards"):
        check_k(k)
    rules, cells = full
    with pytest.raises(InputError, match="--cards"):
        edge_sort(cells, rules, DEFAULT_VALUES, k)


def test_values_are_read_as_digits(full):
    assert parse_values("6789") == parse_values("6, 7, 8, 9") == parse_values("9 8 7 6") == DEFAULT_VALUES
    assert parse_values("0") == {0}
    rules, cells = full
    for values in (set(), set(range(10)), {6, 10}):
        with pytest.raises(InputError, match="--edge-sort"):
            edge_sort(cells, rules, values, 1)
