"""Casino Hold'em: the two-pass kernel against brute force, symmetry, published figures, files."""
import random
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.formats import strategy_file
from analyzer.core.exact import exact_sum, percent_str
from analyzer.core.cards import parse_cards
from analyzer.core.isomorphism import canonical_groups
from analyzer.core.rules import RuleError
from analyzer.games import registry
from analyzer.games.casino_holdem import checks, count, outputs, price
from plain_casino_holdem import count_every_deal
from analyzer.games.casino_holdem.rules import AA_HANDS
from cython_ext import handeval, holdem_enum

HOLDEM = registry.game("casino-holdem")


def variant(tmp_path, replacements, name="variant"):
    return support.variant(tmp_path, "casino-holdem", replacements, name)


def key_of(hole, flop):
    return bytes(c for group in canonical_groups((hole, flop)) for c in group)


# flushes, straights and the wheel; quads, full houses and trips; straight and royal flushes
@pytest.mark.parametrize("ranks,suits", [("23456A", "cd"), ("45A", "cdhs"), ("9TJQKA", "cd")])
def test_kernel_equals_brute_force_on_reduced_decks(tmp_path, ranks, suits):
    """Every raw situation of the reduced deck, dealt out in pure Python, equals its class's counts."""
    path = variant(tmp_path, [('ranks = "23456789TJQKA"', f'ranks = "{ranks}"'), ('suits = "cdhs"', f'suits = "{suits}"')])
    _, rules = HOLDEM.load_rules(path)
    table = count.count_situations(rules)
    row = {bytes(k): i for i, k in enumerate(table.keys)}
    brute = count_every_deal(list(rules.cards), (1, 2))        # qualifier: a pair of fours, (ONE_PAIR, rank 4)
    assert exact_sum(table.weights) == len(brute) == rules.raw_situations
    for (hole, flop), counter in brute.items():
        expected = np.zeros((10, 4), dtype=np.int64)
        for (category, outcome), n in counter.items():
            expected[category, outcome] = n
        assert (table.counts[row[key_of(hole, flop)]] == expected).all(), (hole, flop)
        assert expected.sum() == rules.continuations


@pytest.fixture
def analysis(holdem_analysis):
    return holdem_analysis


def test_situation_classes(analysis):
    assert len(analysis.table) == 1_286_792
    assert analysis.total_weight == 25_989_600
    assert analysis.table.n_flops == 1_755 and analysis.table.n_boards == 134_459
    assert (analysis.table.counts.reshape(len(analysis.table), -1).sum(axis=1) == 1_070_190).all()


def test_random_situations_equal_direct_dealing(analysis):
    """Any raw situation, suits renamed or not, dealt out directly, equals its class's counts."""
    rng = random.Random(11)
    row = {bytes(k): i for i, k in enumerate(analysis.table.keys)}
    qualifier = handeval.dense_at_least(analysis.rules.qualifier_value)
    for _ in range(12):
        cards = rng.sample(range(52), 5)
        hole, flop = cards[:2], cards[2:]
        direct = holdem_enum.deal_one_situation(np.array(hole, dtype=np.uint8), np.array(flop, dtype=np.uint8),
                                                       analysis.rules.deck_mask, qualifier)
        assert (analysis.table.counts[row[key_of(hole, flop)]] == direct).all()


def test_published_figures(analysis):
    st = analysis.strategies
    assert percent_str(st["optimal"].house_edge, 2) == "2.16%"
    assert percent_str(st["optimal"].rtp, 2) == "99.18%"
    assert percent_str(st["always_call"].aa_rtp, 2) == "93.60%"
    # pinned exact values
    assert st["optimal"].ev == Fraction(-1363917077, 63213204600)


def test_aa_bonus_rtp_when_every_hand_calls_is_the_five_card_distribution(analysis):
    """Independent of the kernel: AA Bonus RTP from the 2,598,960 five-card hands x C(5,2)."""
    counts = handeval.category_counts(5)
    # pairs of aces among one-pair hands: 4C2 * C(12,3) * 4^3
    aces = 6 * 220 * 64
    flush_or_better = sum(counts[5:])
    seven = counts[4] + counts[3] + counts[2] + aces
    expected = Fraction(26 * flush_or_better + 8 * seven, sum(counts))
    assert analysis.strategies["always_call"].aa_rtp == expected


def test_par_sheet_adds_up(analysis):
    lines = outputs.par_lines(analysis)
    total = analysis.total_deals
    assert sum(line["combinations"] for line in lines) == total
    ev = sum(Fraction(line["combinations"], total) * line["net"] for line in lines)
    assert ev == analysis.strategies["optimal"].ev
    aa = outputs.aa_par_lines(analysis)
    assert sum(line["combinations"] for line in aa) == analysis.total_weight
    assert sum(Fraction(line["combinations"], analysis.total_weight) * line["returned"] for line in aa) \
        == analysis.strategies["optimal"].aa_rtp


def test_par_lines_equal_the_plain_weighted_sum_of_the_called_classes(analysis):
    """The PAR lines reuse the round statistics' sums by AA hand: they equal weight x counts summed afresh."""
    table, call = analysis.table, analysis.strategies["optimal"].call
    expected = (table.counts[call].astype(object) * table.weights[call, None, None].astype(object)).sum(axis=0)
    lines = outputs.par_lines(analysis)
    assert lines[0]["combinations"] == sum(int(w) for w in table.weights[~call]) * table.continuations
    assert [line["combinations"] for line in lines[1:]] == [int(expected[c, o]) for c in range(9, -1, -1)
                                                             for o in range(expected.shape[1])]


def test_aa_par_lines_equal_the_plain_weights_by_aa_hand(analysis):
    w, call, hand = analysis.table.weights, analysis.strategies["optimal"].call, analysis.priced.aa_hand
    expected = [sum(int(x) for x in w[(hand == index) & (call if called else ~call)])
                for index in range(len(AA_HANDS)) for called in (True, False)]
    assert [line["combinations"] for line in outputs.aa_par_lines(analysis)] == expected


def test_joint_optimal_strategy(analysis):
    st = analysis.strategies
    priced = analysis.priced
    assert (st["joint_optimal"].call != st["optimal"].call).any()
    total = {name: f.ev + 1 * (f.aa_rtp - 1) for name, f in st.items()}
    assert total["joint_optimal"] == max(total.values())
    # with a small side bet, calling on every AA win stops paying and the two strategies part
    small = price.figures(priced, "k", "", price.jointly_optimal_call(priced, Fraction(1, 10)),
                           aa_ratio=Fraction(1, 10))
    aa_win = st["call_on_aa_win"]
    assert small.ev + Fraction(1, 10) * (small.aa_rtp - 1) > aa_win.ev + Fraction(1, 10) * (aa_win.aa_rtp - 1)


def test_a_very_fine_aa_ratio_is_decided_in_python_integers(analysis):
    """A ratio whose denominator puts the comparison past int64 carries on exactly (no refusal, no wrap)."""
    priced = analysis.priced
    fine = Fraction(10**12 + 39, 10**13 + 37)                  # near 1/10, a 44-bit denominator
    call = price.jointly_optimal_call(priced, fine)
    plain = [int(ev) * fine.denominator * priced.aa_denominator + int(aa) * fine.numerator * priced.denominator
             > -priced.denominator * fine.denominator * priced.aa_denominator
             for ev, aa in zip(priced.ev_call[::997].tolist(), priced.aa_return[::997].tolist())]
    assert call[::997].tolist() == plain
    assert (call == price.jointly_optimal_call(priced, Fraction(1, 10))).mean() > 0.999


def test_strategy_file_round_trip(analysis):
    header, columns = strategy_file.decode(analysis.files.data("strategy.bin.gz"))
    assert header["rows"] == 1_286_792 and header["denominator"] == analysis.priced.denominator
    assert (columns["key"] == analysis.table.keys).all()
    assert (columns["ev_call"] == analysis.priced.ev_call).all()
    packed = strategy_file.pack_keys(columns["key"])
    assert (np.diff(packed.astype(np.int64)) > 0).all()          # sorted, unique


def test_direct_dealing_of_concrete_cards(analysis):
    """The verification's direct dealing of one situation equals its class's EV of calling."""
    row = {bytes(k): i for i, k in enumerate(analysis.table.keys)}
    for hole, flop in [("Ah Kd", "Qs 7h 2c"), ("7c 2d", "Ks Qs 9h"), ("5h 5d", "5s Ah Kc")]:
        hole_cards, flop_cards = parse_cards(hole), parse_cards(flop)
        i = row[key_of(hole_cards, flop_cards)]
        assert checks.direct_ev(analysis.rules, hole_cards, flop_cards) \
            == Fraction(int(analysis.priced.ev_call[i]), analysis.priced.denominator)


@pytest.mark.parametrize("old,new,key", [
    ("royal_flush = 100", "royal_flush = -100", "ante_pays.royal_flush"),
    ('category = "one_pair"', 'category = "pair"', "qualifier.category"),
    ('other_pair = "lose"', 'other_pair = "never"', "aa_bonus.pays.other_pair"),
    ('suits = "cdhs"', 'suits = "hs"', "deck.suits"),
    ('ranks = "23456789TJQKA"', 'ranks = "AK"', "deck"),
])
def test_bad_rule_files(tmp_path, old, new, key):
    with pytest.raises(RuleError, match=key.replace(".", r"\.")):
        HOLDEM.load_rules(variant(tmp_path, [(old, new)]))


def test_cli_on_a_reduced_deck(tmp_path):
    import json
    import subprocess
    import sys
    path = variant(tmp_path, [('ranks = "23456789TJQKA"', 'ranks = "23456A"'), ('suits = "cdhs"', 'suits = "cd"')],
                   name="small")
    run = subprocess.run([sys.executable, "-m", "analyzer", "casino-holdem", "--rules", str(path), "--out",
                          str(tmp_path / "out"), "--quiet", "--check-rounds", "20000", "--check-samples", "5"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "out" / "casino_holdem" / "small"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["enumeration"]["situations"] == "7920"
    assert {p.name for p in folder.iterdir()} == {"summary.json", "par_sheet.md", "par_sheet.csv", "strategy.bin.gz",
                                                  "rules.toml", "manifest.json", "report.md", "report.html",
                                                  "figure_margin.svg", "basic_strategy.toml", "basic_strategy.md",
                                                  "strategy_basic.bin.gz", "par_sheet.xlsx",
                                                  "figure_net_distribution.svg"}



def test_pass_two_refuses_what_would_not_be_exact():
    """Two segments of one flop (two threads on one counter), or a use whose board is not in the table."""
    board_class, board_perm, boards = holdem_enum.board_classes((1 << 16) - 1)
    flops = np.array([[0, 1, 2], [0, 1, 3]], dtype=np.uint8)
    use_board, use_perm = holdem_enum.flop_uses(flops, (1 << 16) - 1, board_class, board_perm)
    results = np.zeros((len(boards), holdem_enum.PAIRS), dtype=np.uint64)
    counts = np.zeros((4, holdem_enum.COUNTS_PER_SITUATION), dtype=np.uint32)
    rep_start = np.array([0, 2, 4], dtype=np.int64)
    rep_pair = np.array([100, 101, 102, 103], dtype=np.uint16)
    per_flop = len(use_board) // 2
    args = (holdem_enum.perm_pair_table(), use_board, use_perm)
    with pytest.raises(ValueError, match="out of range"):
        holdem_enum.accumulate_uses(results, 0, *args, np.array([0, per_flop, 2 * per_flop], dtype=np.int64),
                                    np.array([0, 0], dtype=np.int32), rep_start, rep_pair, counts, 0, 1)
    with pytest.raises(ValueError, match="out of range"):
        holdem_enum.accumulate_uses(results[:1], 1, *args, np.array([0, per_flop], dtype=np.int64),
                                    np.array([0], dtype=np.int32), rep_start, rep_pair, counts, 0, 1)
    holdem_enum.accumulate_uses(results, 0, *args, np.array([0, per_flop, 2 * per_flop], dtype=np.int64),
                                np.array([0, 1], dtype=np.int32), rep_start, rep_pair, counts, 0, 2)


def test_rows_are_permuted_in_place():
    rows = np.arange(30, dtype=np.uint32).reshape(10, 3)
    destination = np.random.default_rng(5).permutation(10).astype(np.int32)
    expected = np.empty_like(rows)
    expected[destination] = rows
    holdem_enum.permute_rows(rows, destination)
    assert (rows == expected).all()
    with pytest.raises(ValueError, match="not a permutation"):
        holdem_enum.permute_rows(rows, np.zeros(10, dtype=np.int32))


@pytest.mark.parametrize("royal", ["25", "1" + "0" * 30])
def test_aa_bonus_returns_per_class_are_each_hands_exact_return(tmp_path, royal):
    """Each class's AA Bonus return is its hand's return over the AA denominator: int64 while every return
    fits, exact Python integers beyond (a royal flush paying 10**30 to 1)."""
    path = variant(tmp_path, [('ranks = "23456789TJQKA"', 'ranks = "9TJQKA"'), ('suits = "cdhs"', 'suits = "cdh"'),
                              ("royal_flush = 25", f"royal_flush = {royal}"), ("two_pair = 7", "two_pair = \"7/3\"")])
    _, rules = HOLDEM.load_rules(path)
    priced = price.price(count.count_situations(rules), rules)
    expected = [rules.aa_return(AA_HANDS[h]) * priced.aa_denominator for h in priced.aa_hand.tolist()]
    assert priced.aa_denominator == 3 and priced.aa_return.tolist() == expected
    assert priced.aa_return.dtype == (np.int64 if royal == "25" else object)
    assert (np.asarray(priced.aa_hand) == AA_HANDS.index("royal_flush")).any()
    assert priced.aa_wins().tolist() == [r > 0 for r in expected]
    # weight x return per class, kept in the narrowest dtype its bound fits (a byte or two here; Python ints beyond)
    weighted = [int(w) * r for w, r in zip(priced.table.weights.tolist(), expected)]
    assert priced.aa_weighted.tolist() == weighted
    assert priced.aa_weighted.dtype == (np.int16 if royal == "25" else object)
    assert priced.aa_weighted_bound >= max(map(abs, weighted))
