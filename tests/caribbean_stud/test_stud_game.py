"""Caribbean Stud: the card-removal kernel against brute force, reduced decks, symmetry, figures, files."""
import itertools
import json
import random

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.formats import strategy_file
from analyzer.core.cards import parse_cards
from analyzer.core.exact import percent_str
from analyzer.core.execution import SerialExecutor
from analyzer.core.isomorphism import canonical_groups
from analyzer.core.rules import RuleError
from analyzer.games import registry
from analyzer.games.caribbean_stud import checks, outputs, price, progressive
import plain_caribbean_stud as reference
from analyzer.games.caribbean_stud.count import count_classes, situation_classes
from plain_poker import five_card_value
from analyzer.publish import pipeline
from cython_ext import handeval, stud_enum
from cython_ext.isomorphism import canonical_keys

STUD = registry.game("caribbean-stud")

FULL_DECK = np.arange(52, dtype=np.uint8)
ACE_KING = handeval.dense_at_least(handeval.threshold_value(0, [12, 11]))
ACE_KING_TUPLE = (0, 12, 11)                 # the same qualifier for the plain evaluator
SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def variant(tmp_path, replacements, name="variant", standard=False):
    return support.variant(tmp_path, "caribbean-stud", replacements, name, builtin=1 if standard else 0)


def reduced_deck(tmp_path, ranks, suits, qualifier=None, name="small"):
    replacements = [('ranks = "23456789TJQKA"', f'ranks = "{ranks}"'), ('suits = "cdhs"', f'suits = "{suits}"')]
    if qualifier:
        category, qranks = qualifier
        replacements.append(('category = "high_card"\nranks = ["A", "K"]',
                             f'category = "{category}"\nranks = {json.dumps(qranks)}'))
    return variant(tmp_path, replacements, name)


def rename(cards, perm):
    return [(c // 4) * 4 + perm[c % 4] for c in cards]


# --- the kernel ------------------------------------------------------------------------------

def test_kernel_equals_compiled_brute_force_on_random_situations():
    """300 random situations of the full deck, each dealt over all 163,185 dealer completions."""
    rng = random.Random(4)
    rows = np.array([rng.sample(range(52), 6) for _ in range(300)], dtype=np.uint8)
    counts, ranks, categories = stud_enum.count_situations(FULL_DECK, rows, ACE_KING)
    for row, got in zip(rows.tolist(), counts.tolist()):
        assert tuple(got) == stud_enum.brute_force_situation(FULL_DECK, row[:5], row[5], ACE_KING)
        assert sum(got) == 163_185


@pytest.mark.parametrize("hand,up", [("Ah Kd 9s 5c 2h", "Qd"), ("Ac Kc Qc Jc 9c", "Tc"), ("7s 7h 7d 2c 2s", "Kh"),
                                     ("As Kd Qh 4c 3s", "Kc")])
def test_kernel_equals_plain_python_loop(hand, up):
    """A plain Python loop over every completion (compiled evaluator, no card-removal arithmetic)."""
    cards = parse_cards(hand, 5)
    up_card = parse_cards(up, 1)[0]
    counts, _, _ = stud_enum.count_situations(FULL_DECK, np.array([cards + [up_card]], dtype=np.uint8), ACE_KING)

    def value(five):
        return handeval.dense(handeval.evaluate(five))
    plain = reference.deal_every_completion(cards, up_card, range(52), ACE_KING, value_of=value)
    assert tuple(counts[0].tolist()) == plain


@pytest.mark.parametrize("qualifier", [ACE_KING, handeval.dense_at_least(handeval.threshold_value(1, [2])), 0, 7461])
def test_kernel_follows_the_qualifier(qualifier):
    rng = random.Random(qualifier)
    rows = np.array([rng.sample(range(52), 6) for _ in range(40)], dtype=np.uint8)
    counts, _, _ = stud_enum.count_situations(FULL_DECK, rows, qualifier)
    for row, got in zip(rows.tolist(), counts.tolist()):
        assert tuple(got) == stud_enum.brute_force_situation(FULL_DECK, row[:5], row[5], qualifier)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_count_does_not_change_counts(threads):
    rng = random.Random(9)
    rows = np.array([rng.sample(range(52), 6) for _ in range(500)], dtype=np.uint8)
    one, _, _ = stud_enum.count_situations(FULL_DECK, rows, ACE_KING, 1)
    many, _, _ = stud_enum.count_situations(FULL_DECK, rows, ACE_KING, threads)
    assert (one == many).all()


def runs_of_hands(rng, deck, n_hands, max_ups):
    """Rows in runs of one player hand: each hand's cards in some order (ascending, descending as
    class keys are, or shuffled), then 1..max_ups up cards in random order; some hands come
    back in a later run, and some runs are one row."""
    rows = []
    hands = [rng.sample(deck, 5) for _ in range(n_hands)]
    for hand in hands + rng.sample(hands, n_hands // 3):
        order = rng.choice([sorted(hand), sorted(hand, reverse=True), rng.sample(hand, 5)])
        rest = [c for c in deck if c not in hand]
        rows += [order + [up] for up in rng.sample(rest, rng.randint(1, min(max_ups, len(rest))))]
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("deck,qualifier,threads", [
    (list(range(24)), ACE_KING, 2), (list(range(24)), 0, 1), (list(range(24)), 7461, 3),
    (list(range(12)), handeval.dense_at_least(handeval.threshold_value(1, [2])), 2),
    (list(range(32, 52)) + [0, 5, 9, 14], ACE_KING, 2)])
def test_runs_of_one_hand_equal_brute_force(deck, qualifier, threads):
    """A hand's situations are asked as one run (the place of the up card among the hand's cards
    worked out once per place): every row against a plain loop over its completions."""
    rng = random.Random(len(deck) + qualifier)
    rows = runs_of_hands(rng, deck, 25, 12)
    counts, ranks, categories = stud_enum.count_situations(sorted(deck), rows, qualifier, threads)
    for row, got, rank, category in zip(rows.tolist(), counts.tolist(), ranks.tolist(), categories.tolist()):
        assert tuple(got) == stud_enum.brute_force_situation(sorted(deck), row[:5], row[5], qualifier)
        value = handeval.evaluate(row[:5])
        assert rank == handeval.dense(value) and category == handeval.category(value)


def test_runs_on_the_full_deck():
    """Long runs on the full deck (a hand with 47 up cards, in random order), one row, one run."""
    rng = random.Random(3)
    hand = rng.sample(range(52), 5)
    every_up = [hand + [up] for up in rng.sample([c for c in range(52) if c not in hand], 47)]
    for rows in (every_up, every_up[:1], runs_of_hands(rng, list(range(52)), 4, 47).tolist()):
        counts, _, _ = stud_enum.count_situations(FULL_DECK, np.array(rows, dtype=np.uint8), ACE_KING, 2)
        for row, got in zip(rows, counts.tolist()):
            assert tuple(got) == stud_enum.brute_force_situation(FULL_DECK, row[:5], row[5], ACE_KING)


def test_suit_renaming_gives_equal_counts():
    rng = random.Random(5)
    base = [rng.sample(range(52), 6) for _ in range(40)]
    rows = np.array([rename(row, perm) for row in base for perm in SUIT_PERMUTATIONS], dtype=np.uint8)
    counts, _, _ = stud_enum.count_situations(FULL_DECK, rows, ACE_KING)
    per_situation = counts.reshape(len(base), len(SUIT_PERMUTATIONS), 4)
    assert (per_situation == per_situation[:, :1, :]).all()


@pytest.mark.parametrize("rows,problem", [
    ([[0, 1, 2, 3, 4, 4]], "card twice"),
    ([[0, 1, 2, 3, 4, 52]], "outside the deck"),
])
def test_kernel_refuses_bad_situations(rows, problem):
    with pytest.raises(ValueError, match=problem):
        stud_enum.count_situations(FULL_DECK, np.array(rows, dtype=np.uint8), ACE_KING)


def test_kernel_refuses_a_deck_too_small():
    with pytest.raises(ValueError, match="10 to 52 cards"):
        stud_enum.count_situations(np.arange(9, dtype=np.uint8), np.zeros((0, 6), dtype=np.uint8), ACE_KING)


# --- reduced decks: the whole game by brute force -----------------------------------------------

REDUCED = [("9TJQKA", "cd", None, ACE_KING_TUPLE),                       # flushes, straights, royal
           ("9TJQKA", "cd", ("one_pair", ["T"]), (1, 8)),                # another qualifier
           ("QKA", "cdhs", ("two_pair", ["K"]), (2, 11)),                # quads, full houses; no high card
           ("23456A", "cd", None, ACE_KING_TUPLE)]                       # the wheel


@pytest.mark.parametrize("ranks,suits,qualifier,qualifier_tuple", REDUCED,
                         ids=[f"{r}-{s}-{q[0] if q else 'AK'}" for r, s, q, _ in REDUCED])
def test_whole_reduced_game_equals_brute_force(tmp_path, ranks, suits, qualifier, qualifier_tuple):
    """Every hand, up card and completion of a tiny deck in plain Python: the counts of every
    situation equal its class's, and the optimal EV and raise probability equal the analysis's."""
    path = reduced_deck(tmp_path, ranks, suits, qualifier)
    rule_file, rules = STUD.load_rules(path)
    table = count_classes(rules.cards, rules.qualifier_rank, SerialExecutor(2))
    game = reference.whole_game(rules.cards, qualifier_tuple)
    assert int(table.weights.sum()) == len(game) == table.raw_situations
    row = {bytes(k): i for i, k in enumerate(table.keys)}
    for (hand, up), counts in game.items():
        key = bytes(c for group in canonical_groups((list(hand), [up])) for c in group)
        assert tuple(table.counts[row[key]].tolist()) == counts, (hand, up)
        assert table.player_category[row[key]] == five_card_value(hand)[0]
    analysis = support.analyse_one("caribbean-stud", path)
    ev, p_raise = reference.optimal_ev(game, rules.paytable.net)
    assert analysis.strategies["optimal"].ev == ev
    assert analysis.strategies["optimal"].p_play == p_raise


def test_reduced_deck_keys_are_canonical(tmp_path):
    _, rules = STUD.load_rules(reduced_deck(tmp_path, "9TJQKA", "cdh"))
    keys, weights = situation_classes(rules.cards)
    assert (canonical_keys(keys, (5, 1)) == keys).all()
    assert len(np.unique(strategy_file.pack_keys(keys))) == len(keys)
    n = len(rules.cards)
    assert int(weights.sum()) == len(list(itertools.combinations(range(n), 5))) * (n - 5)


# --- the full deck -----------------------------------------------------------------------------

@pytest.mark.parametrize("ranks,suits", [("9TJQKA", "cd"), ("TJQKA", "cdh"), ("QKA", "cdhs"), ("23456789TJQKA", "c")])
def test_compiled_classes_equal_the_numpy_reference(tmp_path, ranks, suits):
    _, rules = STUD.load_rules(reduced_deck(tmp_path, ranks, suits))
    keys, weights = situation_classes(rules.cards)
    plain_keys, plain_weights = reference.situation_classes(rules.cards)
    assert (keys == plain_keys).all() and (weights == plain_weights).all()


def test_situation_classes_of_the_full_deck():
    keys, weights = situation_classes(range(52))
    plain_keys, plain_weights = reference.situation_classes(range(52))
    assert (keys == plain_keys).all() and (weights == plain_weights).all()
    assert len(keys) == 5_649_150
    assert int(weights.sum(dtype=np.int64)) == 122_151_120
    assert weights.max() == 24
    assert (canonical_keys(keys, (5, 1)) == keys).all()
    packed = strategy_file.pack_keys(keys)
    assert (packed[1:] > packed[:-1]).all()                 # sorted by key bytes, no duplicates
    assert len(np.unique(strategy_file.pack_keys(canonical_keys(np.ascontiguousarray(keys[:, :5]), (5,))))) == 134_459


def test_every_class_counts_every_completion(stud_analyses):
    table = stud_analyses["standard"].table
    assert len(table) == 5_649_150
    assert (table.counts.sum(axis=1, dtype=np.int64) == 163_185).all()
    assert table is stud_analyses["operator"].table            # one count for both rule sets


def test_published_standard_figures(stud_analyses):
    optimal = stud_analyses["standard"].strategies["optimal"]
    assert percent_str(optimal.house_edge, 3) == "5.224%"
    assert percent_str(optimal.p_play, 2) == "52.23%"
    summary = outputs.summary(stud_analyses["standard"])
    assert summary["published"]["house_edge"]["agrees"] and summary["published"]["raise_probability"]["agrees"]


def test_exact_figures_are_pinned(stud_analyses):
    standard = stud_analyses["standard"].strategies["optimal"]
    operator = stud_analyses["operator"].strategies["optimal"]
    assert standard.house_edge == Fraction(142031221, 2718662100)
    assert standard.p_play == Fraction(5316167, 10179260)
    assert operator.p_play == standard.p_play                # the bonus column never changes a decision here
    assert operator.house_edge < standard.house_edge
    assert standard.element_of_risk == standard.house_edge / (1 + 2 * standard.p_play)
    assert standard.rtp == 1 - standard.element_of_risk


def test_optimal_beats_every_simple_strategy(stud_analyses):
    for analysis in stud_analyses.values():
        st = analysis.strategies
        for name in price.SIMPLE_STRATEGIES:
            assert st["optimal"].ev > st[name].ev
        assert st["raise_everything"].p_play == 1
        # raising a pair or better is a subset of raising ace-king or better
        assert st["raise_pair_or_better"].p_play < st["raise_ace_king_or_better"].p_play


def test_figures_equal_a_direct_sum(stud_analyses):
    """EV of raising everything, recomputed class by class from the counts in Fractions (a sample)."""
    analysis = stud_analyses["operator"]
    table, rules = analysis.table, analysis.rules
    rng = random.Random(2)
    for i in rng.sample(range(len(table)), 200):
        counts = table.counts[i].tolist()
        expected = sum(Fraction(n, 163_185) * rules.paytable.net(int(table.player_category[i]), o) for o, n in enumerate(counts))
        assert Fraction(int(analysis.priced.ev_raise[i]), analysis.priced.denominator) == expected


@pytest.mark.parametrize("rule_set", ["operator", "standard"])
def test_pricing_kernel_equals_the_numpy_path(stud_analyses, rule_set, monkeypatch):
    """The one-pass pricing (EVs, gains summed by pattern) against play_ev_numerators and the gains summed by
    NumPy, and every strategy priced from the pattern sums against its per-class masked sums."""
    analysis = stud_analyses[rule_set]
    fast = analysis.priced
    monkeypatch.setattr(price, "INT64_MAX", -1)                   # no bound fits: the NumPy path
    plain = price.price(analysis.table, analysis.rules)
    assert np.array_equal(fast.ev_raise, plain.ev_raise) and fast.denominator == plain.denominator
    assert all(np.array_equal(a, b) for a, b in zip(fast.optimal(), (plain.ev_raise > -plain.denominator,
                                                                     plain.ev_raise == -plain.denominator)))
    assert np.array_equal(fast.sums.weights, plain.sums.weights) and np.array_equal(fast.sums.gains, plain.sums.gains)
    for name, f in analysis.strategies.items():
        by_class = plain.figures(name, f.description, analysis.raises(name))
        assert (f.p_play, f.ev, f.play_size) == (by_class.p_play, by_class.ev, by_class.play_size), name
    rows = np.array([0, 5, len(analysis.table) - 1])
    assert fast.decisions.gains_at(rows).tolist() == plain.gain[rows].tolist()


def test_par_lines_cover_every_deal_and_give_the_ev(stud_analyses):
    for analysis in stud_analyses.values():
        lines = outputs.par_lines(analysis)
        total = analysis.total_deals
        assert total == 122_151_120 * 163_185
        assert sum(line["combinations"] for line in lines) == total
        ev = sum(Fraction(line["combinations"], total) * line["net"] for line in lines)
        assert ev == analysis.strategies["optimal"].ev


def test_par_lines_equal_plain_sums_by_action_and_category(stud_analyses):
    """The PAR lines reuse the round statistics' sums: they equal weight x counts grouped afresh in Python."""
    for analysis in stud_analyses.values():
        table, raise_ = analysis.table, analysis.priced.optimal()[0]
        weights, categories = table.weights.astype(object), table.player_category
        expected = []
        for raised in (False, True):
            for c in range(10):
                rows = (raise_ == raised) & (categories == c)
                if not rows.any():
                    continue
                if raised:
                    sums = (table.counts[rows].astype(object) * weights[rows, None]).sum(axis=0)
                    expected += [int(n) for n in sums]
                else:
                    expected.append(int(weights[rows].sum()) * table.completions)
        assert [line["combinations"] for line in outputs.par_lines(analysis)] == expected


def test_rule_in_words_is_checked_against_the_optimal_table(stud_analyses):
    for analysis in stud_analyses.values():
        check, st = analysis.rule_check, analysis.strategies
        words = check.strategy.lines()
        assert words[0] == "Raise if you hold a pair or better."
        assert words[1] == "Otherwise fold if your hand is below ace-king."
        assert words[-1] == "Otherwise fold."
        # the stated cost is exactly the EV lost against optimal play
        assert check.cost == st["optimal"].ev - st["rule_in_words"].ev
        assert 0 <= check.best_rank_only_cost <= check.cost
        raise_, _ = analysis.priced.optimal()
        differs = np.flatnonzero(check.raises != raise_)
        assert (differs == check.exceptions).all()
        assert len(check.exceptions) < 10_000                  # a handful of patterns, listed one by one


def test_progressive_hand_counts_and_break_even(stud_analyses):
    prog = stud_analyses["operator"].progressive
    assert prog.counts == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    # independent arithmetic: stake 0.50, nothing returned but the listed amounts
    fixed = Fraction(36 * 1250 + 624 * 250 + 3744 * 25 + 5108 * 15 + 10200 * 3 + 54912 * 2, 2_598_960)
    break_even = (Fraction(1, 2) - fixed) / Fraction(4, 2_598_960)
    assert prog.break_even == break_even
    levels = dict(prog.table)
    assert levels[Fraction(100000)] == (fixed + Fraction(4, 2_598_960) * 100000) / Fraction(1, 2)
    assert prog.rtp_text == "J/324870 + 6091/15470"


def test_progressive_stake_returned_switch(tmp_path):
    path = variant(tmp_path, [("stake_returned_with_win = false", "stake_returned_with_win = true")])
    rule_file, rules = STUD.load_rules(path)
    table = count_classes(rules.cards, rules.qualifier_rank)
    returned = progressive.progressive_figures(table, rules.progressive)
    plain = progressive.progressive_figures(table, STUD.load_rules()[1].progressive)
    winners = 4 + 36 + 624 + 3744 + 5108 + 10200 + 54912
    assert returned.rtp - plain.rtp == Fraction(winners, 2_598_960)


# --- direct dealing ---------------------------------------------------------------------------

def test_direct_dealing_equals_the_class(stud_analyses):
    """The verification's direct dealing of one raw situation equals its class's EV of raising."""
    analysis = stud_analyses["operator"]
    for hand, up in [("Ah Kd 9s 5c 2h", "Qd"), ("As Kd Qh 4c 3s", "Kc"), ("Ah Ad 9s 5c 2h", "Qd")]:
        cards, up_card = parse_cards(hand), parse_cards(up)[0]
        key = np.array([[c for g in canonical_groups((cards, [up_card])) for c in g]], dtype=np.uint8)
        row = int(np.searchsorted(strategy_file.pack_keys(analysis.table.keys), strategy_file.pack_keys(key)[0]))
        assert checks.direct_ev(analysis.rules, cards, up_card) \
            == Fraction(int(analysis.priced.ev_raise[row]), analysis.priced.denominator)


# --- rule files ----------------------------------------------------------------------------

def test_builtin_rule_sets():
    paths = STUD.builtin_rule_paths
    assert [p.name for p in paths] == ["caribbean_stud.toml", "caribbean_stud.standard.toml"]
    (_, operator), (_, standard) = (STUD.load_rules(p) for p in paths)
    assert operator.raise_pays[9] == 200 and operator.raise_pays_not_qualified[9] == 100
    assert standard.raise_pays[:7] == (1, 1, 2, 3, 4, 5, 7) and not any(standard.raise_pays_not_qualified)
    assert operator.qualifier_rank == ACE_KING and operator.raise_size == 2
    assert operator.progressive.stake == Fraction(1, 2) and operator.progressive.jackpot_share[9] == 1


BAD = [
    ("unknown key", "size = 2", "size = 2\ncolour = 1", "raise.colour", "unknown key"),
    ("negative pay", "royal_flush = 200", "royal_flush = -200", "raise_pays.royal_flush", "must not be below 0"),
    ("missing pay", "two_pair = 2\n", "", "raise_pays.two_pair", "missing key"),
    ("bad qualifier rank", 'ranks = ["A", "K"]', 'ranks = ["A", "X"]', "qualifier.ranks[1]", "is not one rank"),
    ("bad category", 'category = "high_card"', 'category = "flush_draw"', "qualifier.category", "must be one of"),
    ("share above 1", "royal_flush = 1 ", "royal_flush = 2 ", "progressive.jackpot_share.royal_flush", "above 1"),
    ("bad switch", "stake_returned_with_win = false", 'stake_returned_with_win = "no"',
     "progressive.stake_returned_with_win", "true or false"),
    ("deck too small", 'ranks = "23456789TJQKA"', 'ranks = "AK"', "deck", "cannot deal a round"),
    ("bad suits", 'suits = "cdhs"', 'suits = "hs"', "deck.suits", "first suits"),
]


@pytest.mark.parametrize("case,old,new,key,problem", BAD, ids=[b[0] for b in BAD])
def test_bad_rule_file_is_refused(tmp_path, case, old, new, key, problem):
    path = variant(tmp_path, [(old, new)])
    with pytest.raises(RuleError) as caught:
        STUD.load_rules(path)
    message = str(caught.value)
    assert str(path) in message and f"key '{key}'" in message and problem in message


# --- files and the command line ----------------------------------------------------------------

def test_results_folder_and_strategy_file(stud_analyses, tmp_path, quick_checks):
    analysis = stud_analyses["standard"]
    folder = support.publish("caribbean-stud", analysis, tmp_path, quick_checks)
    assert folder == tmp_path / "caribbean_stud" / "standard"
    names = {p.name for p in folder.iterdir()}
    assert {"summary.json", "par_sheet.md", "par_sheet.csv", "strategy.bin.gz", "strategy_rule.md",
            "strategy_rule_exceptions.csv", "progressive_rtp_by_jackpot.csv", "manifest.json", "rules.toml"} <= names
    header, columns = strategy_file.decode((folder / "strategy.bin.gz").read_bytes())
    assert header["game"] == "caribbean-stud" and header["rule_set"] == "standard"
    assert header["rows"] == 5_649_150 and header["actions"] == ["fold", "raise"]
    assert header["denominator"] == 163_185 and header["ev_fold"] == -163_185
    assert header["rule_sha256"] == analysis.rule_file.sha256
    assert columns["key"].shape == (5_649_150, 6) and int(columns["weight"].sum(dtype=np.int64)) == 122_151_120
    ev = columns["ev_raise"]
    assert ((columns["decision"] == 1) == (ev > -163_185)).all()
    total = int((columns["weight"].astype(np.int64) * np.maximum(ev, -163_185)).sum())
    assert Fraction(total, 122_151_120 * 163_185) == analysis.strategies["optimal"].ev
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["strategies"]["optimal"]["house_edge_per_ante"]["exact"] == "142031221/2718662100"
    assert "Raise if you hold a pair or better." in (folder / "strategy_rule.md").read_text()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def test_cli_on_a_reduced_deck(tmp_path):
    path = reduced_deck(tmp_path, "9TJQKA", "cd")
    run = run_cli("caribbean-stud", "--rules", str(path), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1",
                  "--check-rounds", "20000", "--check-samples", "5")
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "out" / "caribbean_stud" / "small" / "summary.json").read_text())
    assert summary["enumeration"]["situations"] == str(792 * 7)


def test_cli_help_and_bad_rule_file(tmp_path):
    run = run_cli("caribbean-stud", "--help")
    assert run.returncode == 0 and "usage: analyzer caribbean-stud" in run.stdout
    bad = variant(tmp_path, [("royal_flush = 200", "royal_flush = -1")])
    run = run_cli("caribbean-stud", "--rules", str(bad), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and "raise_pays.royal_flush" in run.stderr
    assert not (tmp_path / "out").exists()


def test_the_reference_reader_reads_the_strategy_file(stud_analyses, tmp_path, quick_checks):
    """docs/strategy-format.md's reader (analyzer.advisor) answers as dealing every completion does."""
    from analyzer import advisor
    analysis = stud_analyses["operator"]
    folder = support.publish("caribbean-stud", analysis, tmp_path, quick_checks)
    strategy = advisor.load_strategy(folder / "strategy.bin.gz")
    for hand, up in [("Ah Kd 9s 5c 2h", "Qd"), ("As Kd Qh 4c 3s", "Kc"), ("2c 3d 4h 5s 7c", "Ac"),
                     ("Td Th 4c 4s 9d", "2d"), ("Ah Ad 9s 5c 2h", "Qd")]:
        answer = strategy.decide(hand, up)
        direct = checks.direct_ev(analysis.rules, parse_cards(hand), parse_cards(up)[0])
        assert answer.ev["raise"] == direct and answer.ev["fold"] == -1
        assert answer.decision == ("raise" if direct > -1 else "fold")


def test_rule_in_words_on_a_paytable_where_pairs_fold(stud_analyses, tmp_path):
    """A raise that pays nothing on a pair: small pairs fold, and the rule must say so and stay checked."""
    analysis = support.analyse_one("caribbean-stud", variant(tmp_path, [("one_pair = 1\n", "one_pair = 0\n")],
                                                             "pairs_push"))
    check, st = analysis.rule_check, analysis.strategies
    raise_, _ = analysis.priced.optimal()
    assert not raise_[analysis.table.player_category == 1].all()          # some pairs fold
    words = check.strategy.lines()
    assert words[0].startswith("Raise if you hold") and words[-1] == "Otherwise fold."
    assert check.cost == st["optimal"].ev - st["rule_in_words"].ev
    assert all(st["rule_in_words"].ev >= st[name].ev for name in price.SIMPLE_STRATEGIES)
    assert (np.flatnonzero(check.raises != raise_) == check.exceptions).all()


def test_classes_need_a_suit_symmetric_deck():
    uneven = np.array(sorted(set(range(52)) - {51}), dtype=np.uint8)          # no As
    with pytest.raises(ValueError, match="same ranks in each"):
        stud_enum.situation_classes(uneven)
    with pytest.raises(ValueError, match="same ranks in each"):
        stud_enum.situation_classes(np.array([r * 4 + s for r in range(6) for s in (2, 3)], dtype=np.uint8))


def test_sweep_compares_a_stud_paytable(tmp_path, quick_checks):
    """`analyzer sweep` runs the pipeline and reads each analysis's key figures."""
    from analyzer.publish import sweep
    path = reduced_deck(tmp_path, "9TJQKA", "cd")
    folder = sweep.run([path], "stud", pipeline.Run(tmp_path / "out", checks=quick_checks))
    table = (folder / "comparison.csv").read_text()
    assert "house edge per ANTE, optimal strategy" in table and "caribbean-stud" in table


def test_rule_exceptions_csv_equals_the_plain_rendering(stud_analyses):
    """strategy_rule_exceptions.csv (each distinct EV and cost rendered once) against every row rendered on its own."""
    from analyzer.core.cards import card_str, cards_str
    from analyzer.core.exact import decimal_str, fraction_str
    from analyzer.figures.tables import csv_text
    for analysis in stud_analyses.values():
        check, table, priced = analysis.rule_check, analysis.table, analysis.priced
        scale = table.raw_situations * priced.denominator
        rows = []
        for i in check.exceptions.tolist():
            ev = Fraction(int(priced.ev_raise[i]), priced.denominator)
            cost = Fraction(abs(int(priced.gain[i])), scale)
            rows.append([cards_str(table.keys[i, :5].tolist()), card_str(int(table.keys[i, 5])), int(table.weights[i]),
                         "raise" if check.raises[i] else "fold", "fold" if check.raises[i] else "raise",
                         fraction_str(ev), "-1/1", decimal_str(ev, 10), fraction_str(cost), decimal_str(cost, 15)])
        assert outputs.strategy_rule_exceptions_csv(analysis) == csv_text(outputs.EXCEPTION_HEADERS, rows)


@pytest.mark.parametrize("ranks,suits", [("9TJQKA", "cd"), ("789TJQKA", "cdh")])
def test_moving_one_deal_between_two_outcomes_breaks_the_totals(tmp_path, ranks, suits):
    """`count.consistent`, the count cache's check of what it reads: a true count keeps every total; one deal
    moved between any two outcomes of a class (every class's sum kept) breaks one."""
    from analyzer.games.caribbean_stud.count import consistent
    from dataclasses import replace
    game = registry.game("caribbean-stud")
    _, rules = game.load_rules(support.reduced_deck(tmp_path, "caribbean-stud", ranks, suits))
    table = game.module.count(rules)
    assert consistent(table)
    qualifies = table.player_rank >= table.qualifier_rank
    for row in (int(np.flatnonzero(qualifies)[0]), int(np.flatnonzero(~qualifies)[0])):
        for source, target in itertools.permutations(range(4), 2):
            counts = table.counts.copy()
            if counts[row, source] == 0:
                continue
            counts[row, source] -= 1
            counts[row, target] += 1
            assert not consistent(replace(table, counts=counts)), (row, source, target)
