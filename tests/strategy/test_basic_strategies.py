"""Basic strategies: the rule language, the features, and the exact figures of the committed rule lists."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.core.cards import parse_cards
from analyzer.core.isomorphism import canonical_groups
from analyzer.games.caribbean_stud import basic as stud_basic
from analyzer.games.caribbean_stud import features as sf
from analyzer.games.casino_holdem import basic as basic_strategy
from analyzer.games.casino_holdem import features as hf
from analyzer.games.casino_holdem import price as holdem_price
from analyzer.poker.hands import CATEGORIES
from analyzer.strategy.language import (Condition, Rule, RuleListError, Strategy, load_strategy, loads_strategy,
                                        strategy_card_markdown)
from rule_reader import parse_rule
from cython_ext import handeval

HEADER = '[strategy]\ngame = "casino-holdem"\nname = "t"\ntitle = "test"\ndefault = "fold"\n'


def features_of(hole: str, flop: str) -> dict:
    cards = parse_cards(hole, 2) + parse_cards(flop, 3)
    values = hf.compute(np.array([cards], dtype=np.uint8))
    return {name: int(v[0]) for name, v in values.items()}


def rank(letter: str) -> int:
    return hf.RANK_LETTERS.index(letter)


# --- features on concrete situations ---------------------------------------------------------------

@pytest.mark.parametrize("hole, flop, expected", [
    ("Ah Kd", "Qs 7h 2c", {"hand": 0, "pair_rank": -1, "pair_type": 0, "kicker": -1, "overcards": 2,
                            "flush_draw": 0, "straight_draw": 0, "draw": 0, "three_flush": 0,
                            "high_hole": rank("A"), "low_hole": rank("K"), "board_high": rank("Q"),
                            "board_middle": rank("7"), "board_low": rank("2"), "board_deuces_treys": 1,
                            "board_suits": 1, "board_paired": 0, "suited_hole": 0, "aa_bonus_win": 0}),
    ("9h 8h", "7h 6c 2h", {"hand": 0, "flush_draw": 1, "flush_draw_hole_cards": 2, "straight_draw": 2,
                            "draw": hf.DRAWS.index("flush"), "overcards": 2, "board_suits": 2, "suited_hole": 1,
                            "three_flush": 0}),
    ("Ks Qd", "Kh 7c 2d", {"hand": 1, "pair_rank": rank("K"), "pair_type": hf.PAIR_TYPES.index("one_hole_card"),
                            "board_above_pair": 0, "kicker": rank("Q"), "overcards": 0, "three_flush": 0}),
    ("5c 5d", "Kh 9s 2c", {"hand": 1, "pair_rank": rank("5"), "pair_type": hf.PAIR_TYPES.index("pocket"),
                            "board_above_pair": 2, "kicker": -1, "overcards": 0}),
    ("Ac 3d", "8h 8s 2c", {"hand": 1, "pair_rank": rank("8"), "pair_type": hf.PAIR_TYPES.index("on_board"),
                            "board_above_pair": 0, "kicker": rank("A"), "board_paired": 1, "overcards": 1,
                            "board_deuces_treys": 1}),
    ("Jc Td", "9h 7s 2c", {"straight_draw": hf.STRAIGHT_DRAWS.index("inside"),
                            "draw": hf.DRAWS.index("inside_straight")}),
    ("5c 4d", "3h 2s Kc", {"straight_draw": hf.STRAIGHT_DRAWS.index("open_ended"), "board_deuces_treys": 2,
                            "three_flush": 0}),
    ("Ac Kc", "Qc Jc Tc", {"hand": CATEGORIES.index("royal_flush"), "straight_draw": 0, "draw": 0,
                            "flush_draw": 0, "board_suits": 3, "aa_bonus_win": 1}),
    ("Ad 7c", "As 9h 4c", {"hand": 1, "pair_rank": rank("A"), "aa_bonus_win": 1, "kicker": rank("7"),
                            "three_flush": 0}),
    ("Ad 7c", "As 9c 4c", {"three_flush": 1, "flush_draw": 0, "board_suits": 2}),
    ("7s 2s", "Ks 9d 4h", {"three_flush": 2, "overcards": 0, "board_suits": 1}),
])
def test_features_of_concrete_situations(hole, flop, expected):
    got = features_of(hole, flop)
    assert {name: got[name] for name in expected} == expected


def reference_features(cards: list[int]) -> dict:
    """A few features by plain Python (sets and itertools), independent of holdem_features.compute."""
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    hole, flop = ranks[:2], ranks[2:]
    category = int(handeval.categories(np.array([handeval.evaluate(cards)], dtype=np.uint32))[0])
    straights = [set(range(top - 4, top + 1)) for top in range(4, 13)] + [{12, 0, 1, 2, 3}]
    held = set(ranks)
    completing = 0 if category >= CATEGORIES.index("straight") else sum(
        1 for r in range(13) if r not in held and any(s <= held | {r} for s in straights))
    by_suit = {s: suits.count(s) for s in range(4)}
    four = [s for s, n in by_suit.items() if n == 4]
    return {"overcards": sum(h > max(flop) for h in hole),
            "straight_draw": min(completing, 2),
            "flush_draw": int(bool(four)),
            "flush_draw_hole_cards": sum(suits[i] == four[0] for i in range(2)) if four else 0,
            "board_paired": int(len(set(flop)) < 3),
            "board_suits": max(suits[2:].count(s) for s in range(4)),
            "board_deuces_treys": sum(r <= 1 for r in flop),
            "high_hole": max(hole), "low_hole": min(hole), "board_low": min(flop), "board_middle": sorted(flop)[1]}


def test_features_match_a_plain_reference_on_random_situations():
    rng = random.Random(7)
    rows = [rng.sample(range(52), 5) for _ in range(3000)]
    values = hf.compute(np.array(rows, dtype=np.uint8))
    for i, cards in enumerate(rows):
        expected = reference_features(cards)
        assert {name: int(values[name][i]) for name in expected} == expected, cards


def test_features_do_not_depend_on_suit_names_or_card_order():
    rng = random.Random(11)
    rows = [rng.sample(range(52), 5) for _ in range(2000)]
    canonical = [sum(canonical_groups((r[:2], r[2:])), ()) for r in rows]
    shuffled = [rng.sample(r[:2], 2) + rng.sample(r[2:], 3) for r in rows]
    a, b, c = (hf.compute(np.array(x, dtype=np.uint8)) for x in (rows, canonical, shuffled))
    for name in hf.FEATURES:
        assert (a[name] == b[name]).all() and (a[name] == c[name]).all(), name


# --- the language: data, words, errors ---------------------------------------------------------------

def every_situation(cards: list[int]) -> np.ndarray:
    """Every (2 hole cards, 3 flop cards) of the cards, hole cards and flop each in deck order."""
    rows = [hole + flop for hole in itertools.combinations(cards, 2)
            for flop in itertools.combinations([c for c in cards if c not in hole], 3)]
    return np.array(rows, dtype=np.uint8).reshape(-1, 5)


@pytest.mark.parametrize("cards", [
    list(range(52))[::3],                                       # every rank, every suit, spread out
    [4 * r + s for r in (0, 1, 2, 3, 12) for s in range(4)],    # wheels, quads, full houses
    [4 * r + s for r in range(8, 13) for s in (0, 1, 2)],       # broadways, straight and royal flushes
])
def test_compiled_features_equal_the_numpy_definition_on_every_situation(cards):
    """The kernel (`compute`) and the column operations (`compute_reference`) agree on every situation of a
    small deck, value for value and dtype for dtype; and in any card order."""
    keys = every_situation(cards)
    fast, plain = hf.compute(keys), hf.compute_reference(keys)
    assert set(fast) == set(plain) == set(hf.FEATURES)
    for name in plain:
        assert fast[name].dtype == plain[name].dtype == np.int8 and np.array_equal(fast[name], plain[name]), name
    reversed_cards = hf.compute(np.ascontiguousarray(keys[:, [1, 0, 4, 3, 2]]))
    assert all(np.array_equal(reversed_cards[name], plain[name]) for name in plain)


def test_compiled_features_equal_the_numpy_definition_on_random_and_edge_rows():
    rng = np.random.default_rng(13)
    for n in (0, 1, 2, 50_000):
        keys = np.array([rng.choice(52, 5, replace=False) for _ in range(n)], dtype=np.uint8).reshape(-1, 5)
        fast, plain = hf.compute(keys), hf.compute_reference(keys)
        assert all(len(fast[name]) == n and np.array_equal(fast[name], plain[name]) for name in plain)


def test_compiled_features_refuse_a_bad_shape():
    from cython_ext import holdem_features
    with pytest.raises(ValueError):
        holdem_features.features_into(np.zeros((2, 4), dtype=np.uint8), np.empty((21, 2), dtype=np.int8))
    with pytest.raises(ValueError):
        holdem_features.features_into(np.zeros((2, 5), dtype=np.uint8), np.empty((20, 2), dtype=np.int8))


def test_table_aa_bonus_hands_from_the_features_equal_those_evaluated(tmp_path):
    """The AA Bonus hands price reads (from the features' hand and pair rank) are those of the evaluator."""
    from analyzer.games.casino_holdem import count
    from analyzer.games.casino_holdem.rules import load_rules
    import support
    _, rules = load_rules(support.reduced_deck(tmp_path, "casino-holdem", "2345TKA", "cdh"))
    table = count.count_situations(rules)
    got = holdem_price.table_aa_bonus_hands(table)
    assert np.array_equal(got, holdem_price.aa_bonus_hands(table.keys)) and got.dtype == np.int8
    assert len(set(got.tolist())) >= 8                                # most AA Bonus hands occur


def test_committed_rule_list_loads_and_every_sentence_reads_back_to_its_rule():
    strategy = hf.basic_strategy()
    assert 1 <= len(strategy.rules) <= 12
    for rule, sentence in zip(strategy.rules, strategy.lines()):
        assert parse_rule(sentence, hf.FEATURE_SET) == rule
    assert strategy.lines()[-1] == f"Otherwise {strategy.default}."


def test_rule_list_round_trips_through_toml():
    strategy = hf.basic_strategy()
    again = loads_strategy(strategy.to_toml("comment"), hf.FEATURE_SET)
    assert again.rules == strategy.rules and again.default == strategy.default and again.title == strategy.title


def every_condition():
    """One condition of every operator of every feature (the words templates allow), for the round trip."""
    for name, feature in hf.FEATURES.items():
        kind = feature.kind
        values = [v for v in kind.values() if v != feature.missing]
        for op in feature.templates:
            if op in ("true", "false"):
                yield Condition(name, "eq", int(op == "true"))
            elif op == "between":
                yield Condition(name, op, (values[0], values[-1]))
            elif op in ("in", "not_in"):
                yield Condition(name, op, tuple(values[:2]))
            else:
                yield Condition(name, op, values[len(values) // 2])


@pytest.mark.parametrize("condition", list(every_condition()), ids=lambda c: f"{c.feature}-{c.op}")
def test_every_word_template_reads_back(condition):
    other = Condition("overcards", "min", 1) if condition.feature != "overcards" else Condition("hand", "eq", 0)
    for conditions in [(condition,), (other, condition), (condition, other, Condition("board_paired", "eq", 0))]:
        rule = Rule(conditions, "call")
        assert parse_rule(rule.words(hf.FEATURE_SET), hf.FEATURE_SET) == rule


def test_a_chained_rule_list_reads_as_one_chain_and_back():
    """Chained (the rule in words): "Call if a and b and c.", then "Otherwise fold if ..."; each line reads back."""
    three = (Condition("hand", "min", 1), Condition("overcards", "min", 1), Condition("board_paired", "eq", 0))
    rules = (Rule(three, "call"), Rule(three[1:], "fold"))
    lines = Strategy("casino-holdem", "t", "t", rules, "call", hf.FEATURE_SET, chained=True).lines()
    assert lines == ["Call if " + " and ".join(c.words(hf.FEATURE_SET) for c in three) + ".",
                     "Otherwise fold if " + " and ".join(c.words(hf.FEATURE_SET) for c in three[1:]) + ".",
                     "Otherwise call."]
    assert [parse_rule(line, hf.FEATURE_SET) for line in lines[:2]] == list(rules)
    assert Strategy("casino-holdem", "t", "t", (), "call", hf.FEATURE_SET, chained=True).lines() == ["Call."]


def test_words_that_no_rule_states_are_refused():
    with pytest.raises(ValueError):
        parse_rule("Call if you hold a lucky card.", hf.FEATURE_SET)
    with pytest.raises(ValueError):
        parse_rule("Raise if you hold a pair or better.", hf.FEATURE_SET)


@pytest.mark.parametrize("body, key, problem", [
    ('[[rule]]\nthen = "call"\nif = { colour = "red" }\n', "rule 1.if.colour", "unknown feature"),
    ('[[rule]]\nthen = "raise"\nif = { hand = "one_pair" }\n', "rule 1.then", "must be one of"),
    ('[[rule]]\nthen = "call"\nif = { hand = "big" }\n', "rule 1.if.hand", "must be one of"),
    ('[[rule]]\nthen = "call"\nif = { pair_rank = { min = "1" } }\n', "rule 1.if.pair_rank.min", "must be one of"),
    ('[[rule]]\nthen = "call"\nif = { overcards = 5 }\n', "rule 1.if.overcards", "from 0 to 2"),
    ('[[rule]]\nthen = "call"\nif = { overcards = { above = 1 } }\n', "rule 1.if.overcards.above", "unknown operator"),
    ('[[rule]]\nthen = "call"\nif = { high_hole = { min = "K", max = "9" } }\n', "rule 1.if.high_hole", "above max"),
    ('[[rule]]\nthen = "call"\nif = { flush_draw = "yes" }\n', "rule 1.if.flush_draw", "true or false"),
    ('[[rule]]\nthen = "call"\nif = {}\n', "rule 1.if", "non-empty"),
    ('[[rule]]\nthen = "call"\nif = { hand = "one_pair" }\nwhen = 1\n', "rule 1.when", "unknown key"),
    ('[[rule]]\nthen = "call"\nif = { overcards = { in = [] } }\n', "rule 1.if.overcards.in", "non-empty list"),
    ('[[rule]]\nthen = "call"\nif = { overcards = { in = [1] } }\n', "rule 1.if.overcards", "takes no 'in'"),
])
def test_bad_rule_lists_are_refused_naming_file_and_key(body, key, problem):
    with pytest.raises(RuleListError) as error:
        loads_strategy(HEADER + body, hf.FEATURE_SET, file="bad.toml")
    assert error.value.file == "bad.toml" and error.value.key == key
    assert problem in error.value.problem
    assert str(error.value).startswith("basic strategy bad.toml: key ")


def test_bad_headers_are_refused(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(HEADER.replace('"casino-holdem"', '"baccarat"'))
    with pytest.raises(RuleListError, match="strategy.game"):
        load_strategy(path, hf.FEATURE_SET)
    path.write_text(HEADER.replace('default = "fold"\n', ""))
    with pytest.raises(RuleListError, match="strategy.default.*missing"):
        load_strategy(path, hf.FEATURE_SET)
    path.write_text("[strategy\n")
    with pytest.raises(RuleListError, match="not valid TOML"):
        load_strategy(path, hf.FEATURE_SET)
    with pytest.raises(RuleListError, match="cannot be read"):
        load_strategy(tmp_path / "missing.toml", hf.FEATURE_SET)


def test_a_condition_on_a_feature_that_does_not_apply_never_holds():
    rows = [parse_cards("Ah Kd Qs 7h 2c"), parse_cards("Ks Qd Kh 7c 2d")]
    values = hf.compute(np.array(rows, dtype=np.uint8))
    low = Condition("pair_rank", "max", rank("A"))          # any one pair; not "no pair"
    assert low.holds(values, hf.FEATURE_SET).tolist() == [False, True]
    assert Condition("kicker", "min", 0).holds(values, hf.FEATURE_SET).tolist() == [False, True]


def test_first_matching_rule_decides():
    strategy = loads_strategy(HEADER + '[[rule]]\nthen = "fold"\nif = { pair_rank = "K" }\n'
                              '[[rule]]\nthen = "call"\nif = { hand = { min = "one_pair" } }\n', hf.FEATURE_SET)
    rows = [parse_cards(x) for x in ("Ks Qd Kh 7c 2d", "Qs Qd Kh 7c 2d", "Ah Kd Qs 7h 2c")]
    values = hf.compute(np.array(rows, dtype=np.uint8))
    assert strategy.first_rule(values).tolist() == [0, 1, 2]
    assert strategy.decide(values).tolist() == [0, 1, 0]


def test_strategy_card_lists_every_rule():
    strategy = hf.basic_strategy()
    card = strategy_card_markdown(strategy)
    for i, line in enumerate(strategy.lines(), 1):
        assert f"{i}. {line}" in card


# --- exact figures over the full analysis ------------------------------------------------------------

def interpret(data: dict, values: dict, features: dict = hf.FEATURES, play: str = "call") -> np.ndarray:
    """A second reading of a TOML rule list, straight from its data (no Condition objects): True = play."""
    def parsed(feature, v):
        kind = features[feature].kind
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        return kind.names.index(v)
    n = len(next(iter(values.values())))
    decided = np.zeros(n, dtype=bool)
    call = np.full(n, data["strategy"]["default"] == play)
    for rule in data["rule"]:
        holds = np.ones(n, dtype=bool)
        for feature, spec in rule["if"].items():
            v = values[feature].astype(np.int64)
            missing = features[feature].missing
            test = np.ones(n, dtype=bool) if missing is None else v != missing
            if not isinstance(spec, dict):
                test &= v == parsed(feature, spec)
            else:
                for op, x in spec.items():
                    if op == "min":
                        test &= v >= parsed(feature, x)
                    elif op == "max":
                        test &= v <= parsed(feature, x)
                    elif op == "not":
                        test &= v != parsed(feature, x)
                    elif op == "in":
                        test &= np.isin(v, [parsed(feature, y) for y in x])
                    elif op == "not_in":
                        test &= ~np.isin(v, [parsed(feature, y) for y in x])
            holds &= test
        new = holds & ~decided
        call[new] = rule["then"] == play
        decided |= new
    return call


def plain_figures(priced, call) -> tuple[Fraction, Fraction, Fraction]:
    """(EV per ANTE, P(call), AA Bonus RTP) by a plain Python loop over the classes."""
    ev = aa = called = total = 0
    for e, w, a, c in zip(priced.ev_call.tolist(), priced.table.weights.tolist(), priced.aa_return.tolist(),
                          call.tolist()):
        total += w
        if c:
            ev += w * e
            aa += w * a
            called += w
        else:
            ev -= w * priced.denominator
    return (Fraction(ev, total * priced.denominator), Fraction(called, total),
            Fraction(aa, total * priced.aa_denominator))


def test_basic_strategy_figures_recomputed_independently(holdem_analysis):
    import tomllib
    priced = holdem_analysis.priced
    strategy = hf.basic_strategy()
    values = hf.compute(priced.table.keys)
    call = hf.decisions(strategy, values)
    data = tomllib.loads((hf.STRATEGIES / "casino_holdem.basic.toml").read_text())
    assert (interpret(data, values) == call).all()
    f = basic_strategy.basic_figures(priced, strategy)
    assert (f.ev, f.p_call, f.aa_rtp) == plain_figures(priced, call)
    optimal = holdem_analysis.strategies["optimal"]
    assert optimal.ev > f.ev


def test_basic_strategy_exact_figures_are_pinned(holdem_analysis):
    f = basic_strategy.basic_figures(holdem_analysis.priced, hf.basic_strategy())
    assert f"{f.house_edge.numerator}/{f.house_edge.denominator}" == PINNED_HOUSE_EDGE


def test_always_call_in_the_language_is_the_engines_always_call(holdem_analysis):
    strategy = loads_strategy(HEADER.replace('default = "fold"', 'default = "call"'), hf.FEATURE_SET)
    f = basic_strategy.basic_figures(holdem_analysis.priced, strategy)
    engine = holdem_analysis.strategies["always_call"]
    assert (f.ev, f.p_call, f.aa_rtp) == (engine.ev, engine.p_call, engine.aa_rtp)


def test_call_on_aa_win_rule_in_the_language(holdem_analysis):
    """'Call with a pair of aces or better, else optimal' in features equals the engine's call_on_aa_win."""
    priced = holdem_analysis.priced
    values = hf.compute(priced.table.keys)
    optimal, _ = priced.optimal_call()
    assert ((values["aa_bonus_win"] == 1) == (priced.aa_return > 0)).all()
    f = holdem_price.figures(priced, "x", "", optimal | (values["aa_bonus_win"] == 1))
    assert f.aa_rtp == holdem_analysis.strategies["call_on_aa_win"].aa_rtp
    assert f.ev == holdem_analysis.strategies["call_on_aa_win"].ev


def test_rule_costs_add_up_to_the_gap(holdem_analysis):
    priced = holdem_analysis.priced
    strategy = hf.basic_strategy()
    costs = basic_strategy.holdem_rule_costs(priced, strategy)
    basic = basic_strategy.basic_figures(priced, strategy)
    assert sum(c.ev_lost for c in costs) == holdem_analysis.strategies["optimal"].ev - basic.ev
    assert sum(c.share for c in costs) == 1
    assert all(c.ev_lost >= 0 for c in costs)
    assert len(costs) == len(strategy.rules) + 1 and costs[-1].number is None
    # a rule worth keeping: striking it does not raise the EV
    assert all(c.ev_if_struck <= 0 for c in costs[:-1])


def test_the_analysis_costs_its_basic_rules_and_lets_the_features_go(holdem_analysis):
    priced = holdem_analysis.priced
    assert holdem_analysis.basic_costs == basic_strategy.holdem_rule_costs(priced, holdem_analysis.basic)
    values = hf.of_table(priced.table)
    hf.let_go(priced.table)
    assert "basic_features" not in priced.table.derived
    again = hf.of_table(priced.table)                    # made again when asked, the same values
    assert again is not values and all((again[name] == values[name]).all() for name in values)


def test_three_strategy_table(holdem_analysis):
    priced = holdem_analysis.priced
    rows = basic_strategy.three_strategy_table(priced, hf.basic_strategy())
    by = {r.row: r for r in rows}
    st = holdem_analysis.strategies
    assert by["optimal"].main_rtp == st["optimal"].rtp
    assert by["optimal"].aa_rtp == st["optimal"].aa_rtp
    assert by["call_on_aa_win_basic"].aa_rtp == st["always_call"].aa_rtp      # every AA win is called
    assert by["basic"].published_main == "98.7%" and by["basic"].published_aa == "89.6%"
    assert by["basic"].main_rtp < by["optimal"].main_rtp
    md = basic_strategy.three_strategy_markdown(rows)
    assert "98.7%" in md and "93.60%" in md
    # the analysis's own figures of the three strategies give the same table and basic_strategy.md
    known = {name: st[name] for name in ("basic", "optimal", "call_on_aa_win_basic")}
    reused = basic_strategy.three_strategy_table(priced, hf.basic_strategy(), priced_figures=known)
    assert [(r.row, r.label, r.main_rtp, r.aa_rtp, r.figures.p_call, r.figures.house_edge) for r in reused] == \
        [(r.row, r.label, r.main_rtp, r.aa_rtp, r.figures.p_call, r.figures.house_edge) for r in rows]
    assert basic_strategy.basic_strategy_markdown(priced, hf.basic_strategy(), reused, known) == \
        basic_strategy.basic_strategy_markdown(priced, hf.basic_strategy())


PINNED_HOUSE_EDGE = "3550103497/133720240500"       # games/casino_holdem/strategies/casino_holdem.basic.toml


def test_no_two_conditions_share_their_words():
    """Every condition of every feature, operator and value has words of its own (the card is unambiguous)."""
    seen = {}
    for name, feature in hf.FEATURES.items():
        values = [v for v in feature.kind.values() if v != feature.missing]
        for op in feature.templates:
            if op in ("true", "false"):
                conditions = [Condition(name, "eq", int(op == "true"))]
            elif op == "between":
                conditions = [Condition(name, op, (a, b)) for a, b in itertools.combinations(values, 2)]
            elif op in ("in", "not_in"):
                conditions = [Condition(name, op, pair) for pair in itertools.combinations(values, 2)]
            else:
                conditions = [Condition(name, op, v) for v in values]
            for condition in conditions:
                words = condition.words(hf.FEATURE_SET)
                assert seen.setdefault(words, condition) == condition, words


# --- Caribbean Stud ------------------------------------------------------------------------------------

STUD_RULE_SETS = ("operator", "standard")


def stud_features_of(hand: str, up: str) -> dict:
    values = sf.compute(np.array([parse_cards(hand, 5) + parse_cards(up, 1)], dtype=np.uint8))
    return {name: int(v[0]) for name, v in values.items()}


def test_the_sorting_network_sorts_every_binary_input():
    """A network that sorts every 0/1 input sorts every input."""
    for bits in itertools.product((0, 1), repeat=5):
        values = list(bits)
        for a, b in sf.SORTING_NETWORK_5:
            values[a], values[b] = max(values[a], values[b]), min(values[a], values[b])
        assert values == sorted(bits, reverse=True)


@pytest.mark.parametrize("hand, up, expected", [
    ("Ah Kd 9s 5c 2h", "Qd", {"hand": 0, "ace_king": 1, "up_pairs": 0, "up_pairs_any": 0, "up_below_third": 0,
                              "up_below_fourth": 0, "third": rank("9"), "fifth": rank("2"), "up_rank": rank("Q")}),
    ("2h 5c Kd 9s Ah", "3c", {"up_below_third": 6, "up_below_fourth": 2, "up_below_fifth": 0, "highest": rank("A"),
                              "second": rank("K"), "fourth": rank("5")}),
    ("Ah Kd Qs 5c 2h", "5d", {"up_pairs": 4, "up_pairs_any": 1, "up_below_fourth": 0}),
    ("Ah Kd Qs 5c 2h", "Ad", {"up_pairs": 1, "up_pairs_any": 1}),
    ("9h 9d Qs 5c 2h", "Kd", {"hand": 1, "pair_rank": rank("9"), "ace_king": 0, "highest": rank("Q")}),
    ("Ah Kh Qh Jh Th", "2d", {"hand": CATEGORIES.index("royal_flush"), "pair_rank": -1}),
])
def test_stud_features_of_concrete_situations(hand, up, expected):
    got = stud_features_of(hand, up)
    assert {name: got[name] for name in expected} == expected


@pytest.mark.parametrize("hand, up, level, decision", [
    ("Ah Qd 9s 5c 2h", "3d", "ace-queen", "fold"), ("Ah Kd 3s 5c 2h", "3d", "ace-king", "raise"),
    ("2h 2d 3s 5c 7h", "Kd", "a pair of 2s", "raise"), ("6h 6d Ks Kc 7h", "Kd", "two pair", "raise"),
    ("Ah Kh Qh Jh 9h", "Kd", "a flush", "fold"),
])
def test_stud_hand_level(hand, up, level, decision):
    """The level orders hands as poker does, a high card by its two highest cards; `below` is strictly below."""
    got = stud_features_of(hand, up)
    assert sf.FEATURES["level"].kind.word(got["level"]) == level
    strategy = loads_strategy('[strategy]\ngame = "caribbean-stud"\nname = "t"\ntitle = "t"\ndefault = "raise"\n'
                              '[[rule]]\nthen = "fold"\nif = { level = { below = "AK" } }\n'
                              '[[rule]]\nthen = "fold"\nif = { level = { min = "flush" } }\n', sf.FEATURE_SET)
    assert strategy.lines()[0] == "Fold if your hand is below ace-king."
    assert loads_strategy(strategy.to_toml(), sf.FEATURE_SET).rules == strategy.rules
    values = {name: np.array([v]) for name, v in got.items()}
    assert sf.ACTIONS[int(strategy.decide(values)[0])] == decision


def test_the_search_leaves_out_features_for_stating_fitted_rules():
    """With no feature list, the derivation searches only the features marked searched: not Stud's hand level,
    though here it alone tells the margins apart."""
    from analyzer.strategy.search import derive_basic
    rng = np.random.default_rng(3)
    keys = np.array([rng.choice(52, 6, replace=False) for _ in range(3_000)], dtype=np.uint8)
    values = sf.compute(keys)
    gain = np.where(values["level"] >= sf.LEVELS.index((0, (12, 10))), 5, -5).astype(np.int64)
    parameters = dict(stud_basic.DERIVATION_PARAMETERS, max_rules=2)
    used = {c.feature for r in derive_basic(sf.FEATURE_SET, values, gain, 1, "t", parameters).rules for c in r.conditions}
    assert used and "level" not in used
    with_level = dict(parameters, features=("level",))
    assert {c.feature for r in derive_basic(sf.FEATURE_SET, values, gain, 1, "t", with_level).rules
            for c in r.conditions} == {"level"}


def test_stud_word_templates_are_unambiguous_and_read_back():
    seen = {}
    for name, feature in sf.FEATURES.items():
        values = [v for v in feature.kind.values() if v != feature.missing]
        for op in feature.templates:
            if op in ("true", "false"):
                conditions = [Condition(name, "eq", int(op == "true"))]
            elif op == "between":
                conditions = [Condition(name, op, (a, b)) for a, b in itertools.combinations(values, 2)]
            elif op == "in":
                conditions = [Condition(name, op, pair) for pair in itertools.combinations(values, 2)]
            else:
                conditions = [Condition(name, op, v) for v in values]
            for condition in conditions:
                words = condition.words(sf.FEATURE_SET)
                assert seen.setdefault(words, condition) == condition, words
                rule = Rule((Condition("hand", "eq", 0), condition), "raise")
                assert parse_rule(rule.words(sf.FEATURE_SET), sf.FEATURE_SET) == rule


@pytest.mark.parametrize("rule_set", STUD_RULE_SETS)
def test_stud_rule_in_words_is_a_rule_list_of_the_language(stud_analyses, rule_set):
    """The rule in words decides every class from the features, reads as a chain, and round-trips as TOML."""
    analysis = stud_analyses[rule_set]
    strategy = analysis.rule_check.strategy
    assert (sf.decisions(strategy, sf.compute(analysis.table.keys)) == analysis.rule_check.raises).all()
    lines = strategy.lines()
    assert lines[0].startswith("Raise if ") and all(line.startswith("Otherwise ") for line in lines[1:])
    assert [parse_rule(line, sf.FEATURE_SET) for line in lines[:-1]] == list(strategy.rules)
    again = loads_strategy(strategy.to_toml(), sf.FEATURE_SET)
    assert again.rules == strategy.rules


def test_stud_basic_strategy_checked_like_the_rule_in_words(stud_analyses):
    """The one check of Stud rule lists: a basic strategy's exceptions are where it differs from optimal, its
    cost the EV it gives up; neither beats the least cost of any rule blind to suits."""
    analysis = stud_analyses["standard"]
    check = stud_basic.check(analysis.basic, analysis.priced)
    optimal, _ = analysis.priced.optimal()
    assert np.array_equal(check.exceptions, np.flatnonzero(check.raises != optimal))
    assert check.cost == analysis.strategies["optimal"].ev - analysis.strategies["basic"].ev
    assert check.best_rank_only_cost == analysis.rule_check.best_rank_only_cost <= analysis.rule_check.cost < check.cost


@pytest.mark.parametrize("rule_set", STUD_RULE_SETS)
def test_stud_basic_strategy_figures_recomputed_independently(stud_analyses, rule_set):
    import tomllib
    analysis = stud_analyses[rule_set]
    priced, table = analysis.priced, analysis.table
    strategy = sf.basic_strategy(rule_set)
    assert len(strategy.rules) <= 5
    for rule, sentence in zip(strategy.rules, strategy.lines()):
        assert parse_rule(sentence, sf.FEATURE_SET) == rule
    raise_ = sf.decisions(strategy, sf.compute(table.keys))
    data = tomllib.loads(sf.basic_strategy_path(rule_set).read_text())
    assert (interpret(data, sf.compute(table.keys), sf.FEATURES, "raise") == raise_).all()
    f = priced.figures("basic", "", raise_)
    # EV by plain sums: fold loses 1 ANTE; a raise adds its gain (weight x (EV raise - EV fold)).
    total = table.raw_situations
    gained = sum(priced.gain[raise_].tolist())
    assert f.ev == Fraction(-total * priced.denominator + gained, total * priced.denominator)
    optimal = analysis.strategies["optimal"]
    assert 0 <= optimal.ev - f.ev
    assert abs(optimal.rtp - f.rtp) <= Fraction(1, 10**4)          # within 0.01 percentage points
    costs = stud_basic.stud_rule_costs(priced, strategy)
    assert sum(c.ev_lost for c in costs) == optimal.ev - f.ev


def test_stud_raise_everything_in_the_language(stud_analyses):
    analysis = stud_analyses["operator"]
    strategy = loads_strategy('[strategy]\ngame = "caribbean-stud"\nname = "all"\ntitle = "all"\ndefault = "raise"\n',
                              sf.FEATURE_SET)
    rows = stud_basic.stud_strategy_table(analysis.priced, {"all": strategy})
    engine = analysis.strategies["raise_everything"]
    assert (rows[1].figures.ev, rows[1].figures.p_play) == (engine.ev, engine.p_play)
    assert rows[0].figures.ev == analysis.strategies["optimal"].ev


def test_features_computed_in_chunks_equal_those_computed_at_once():
    from analyzer.strategy.language import computed_in_chunks
    from analyzer.games.caribbean_stud import features as stud
    from analyzer.games.casino_holdem import features as holdem
    rng = np.random.default_rng(11)
    for module, cards in ((holdem, 5), (stud, 6)):
        keys = np.array([rng.choice(52, cards, replace=False) for _ in range(3_000)], dtype=np.uint8)
        whole = module._compute_rows(keys)
        chunked = computed_in_chunks(module._compute_rows, keys, module.FEATURES, rows=700)
        assert set(whole) == set(chunked) and all(np.array_equal(whole[k], chunked[k]) for k in whole)


def _first_rule(held: list, n: int) -> np.ndarray:
    """Per class, the index of the first rule (of the tests `held`) that holds; len(held) where none does."""
    which = np.full(n, len(held), dtype=np.int16)
    for index in range(len(held) - 1, -1, -1):
        which[held[index]] = index
    return which


def rule_costs_reference(strategy, values, gain, weights, scale, figures_of):
    """rule_costs as first written: every struck list re-decided from scratch, each rule's classes copied out."""
    from analyzer.core.exact import exact_sum
    from analyzer.strategy.costs import RuleCost
    n = len(weights)
    held = [np.ones(n, dtype=bool) if h is None else h for h in (r.holds(values, strategy.features) for r in strategy.rules)]
    which = _first_rule(held, n)
    codes = [strategy.features.actions.index(r.action) for r in strategy.rules] \
        + [strategy.features.actions.index(strategy.default)]
    play = np.array([code == 1 for code in codes])[which]
    total = exact_sum(weights)
    base_ev, base_rtp = figures_of(play)
    out = []
    entries = [(i, r.words(strategy.features), r.action) for i, r in enumerate(strategy.rules)]
    entries.append((len(strategy.rules), strategy.default_words(), strategy.default))
    for index, words, action in entries:
        mine = which == index
        ev_if = rtp_if = None
        if index < len(strategy.rules):
            struck = _first_rule(held[:index] + held[index + 1:], n)
            ev, rtp = figures_of(np.array([code == 1 for code in codes[:index] + codes[index + 1:]])[struck])
            ev_if, rtp_if = ev - base_ev, rtp - base_rtp
        lost = gain[mine]
        if codes[index] == 1:
            np.negative(lost, out=lost)
        np.maximum(lost, 0, out=lost)
        decided = exact_sum(weights[mine])
        out.append(RuleCost(number=index + 1 if index < len(strategy.rules) else None, words=words, action=action,
                            situations=decided, share=Fraction(decided, total),
                            disagreements=exact_sum(weights[mine][lost > 0]), ev_lost=Fraction(exact_sum(lost), scale),
                            ev_if_struck=ev_if, rtp_if_struck=rtp_if))
    return out


def strategy_of(rules: list, default: str, features) -> "Strategy":
    from analyzer.strategy.language import Strategy
    return Strategy("caribbean-stud", "test", "test", tuple(rules), default, features)


@pytest.mark.parametrize("seed", range(6))
def test_rule_costs_agree_with_the_plain_reference(seed, monkeypatch):
    """The grouped sums against the reference on random tables: one class and a few thousand, EVs in int64
    (summed compiled, or by NumPy where their bound x rows passes int64) and in Python integers beyond
    it, the built-in cards and lists with an always-true rule and no rules."""
    from analyzer.poker.decision_table import DecisionTable, SignSums
    from analyzer.strategy import costs
    from analyzer.strategy.costs import rule_costs
    from analyzer.strategy.language import Condition, Rule
    monkeypatch.setattr(costs, "CHUNK_ROWS", 1000 if seed % 2 else 1 << 20)     # several chunks, and one
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 4_000)) if seed else 1                 # one class, and a few thousand
    keys = np.array([rng.choice(52, 6, replace=False) for _ in range(n)], dtype=np.uint8)
    keys[n // 2:] = keys[rng.integers(0, max(n // 2, 1), n - n // 2)]      # classes that share their features
    values = sf.compute(keys)
    weights = rng.integers(1, 49, n).astype(np.uint8)
    denominator = 10**12
    ev = rng.integers(-3, 2, n) * denominator + rng.integers(-5, 5, n)
    ev[rng.random(n) < 0.1] = -denominator                          # exact ties
    if seed == 3:                                                    # Python integers beyond int64
        ev, denominator = ev.astype(object) * 2**70, denominator * 2**70
    if seed == 5:                                                    # int64 gains, sums that may not fit
        ev, denominator = ev * 2**15, denominator * 2**15
    decisions = DecisionTable(weights, ev, denominator, Fraction(2))

    def figures_of(play):
        f = decisions.figures("x", "", play)
        return f.ev, f.rtp
    always = Rule((Condition("hand", "min", 0),), "raise")           # holds for every class
    pair = Rule((Condition("hand", "min", 1),), "fold")
    strategies = [sf.basic_strategy("operator"), sf.basic_strategy("standard"),
                  strategy_of([pair, always, pair], "fold", sf.FEATURE_SET), strategy_of([], "raise", sf.FEATURE_SET)]
    # the classes grouped by their feature values (what every strategy reads), summed by the sign of the gain
    _, first, group = np.unique(np.stack(list(values.values()), axis=1), axis=0, return_index=True,
                                return_inverse=True)
    groups = SignSums.of(group.ravel(), len(first), weights, decisions.gain)
    assert n == 1 or len(groups) < n
    group_values = {name: v[first] for name, v in values.items()}
    for strategy in strategies:
        expected = rule_costs_reference(strategy, values, decisions.gain, weights, decisions.total_weight * denominator,
                                        figures_of)
        assert rule_costs(strategy, values, decisions) == expected
        assert rule_costs(strategy, group_values, decisions, groups) == expected


def test_stud_features_by_pattern_on_random_classes():
    """features.compute on one class of each pattern, spread to the classes, is features.compute on every class."""
    from analyzer.games.caribbean_stud.count import SituationCounts
    rng = np.random.default_rng(3)
    cards = np.array([rng.choice(52, 6, replace=False) for _ in range(30_000)], dtype=np.uint8)
    keys = np.concatenate([-np.sort(-cards[:, :5].astype(np.int16), axis=1).astype(np.uint8), cards[:, 5:]], axis=1)
    values = handeval.evaluate_many(np.ascontiguousarray(keys[:, :5]))
    rank = np.array([handeval.dense(int(v)) for v in values], dtype=np.uint16)
    table = SituationCounts(tuple(range(52)), 0, keys, np.ones(len(keys), dtype=np.uint8),
                            np.zeros((len(keys), 4), dtype=np.uint32), rank,
                            handeval.categories(values).astype(np.uint8), 1)
    spread, computed = stud_basic.ClassFeatures(table), sf.compute(keys)
    assert list(spread) == list(computed) and len(spread) == len(computed)
    for name, expected in computed.items():
        assert np.array_equal(spread[name], expected), name


@pytest.mark.parametrize("rule_set", STUD_RULE_SETS)
def test_stud_basic_strategy_decided_by_pattern_on_the_full_deck(stud_analyses, rule_set):
    """The analysis's basic-strategy raises and features, against features.compute on every class."""
    analysis = stud_analyses[rule_set]
    computed = sf.compute(analysis.table.keys)
    assert np.array_equal(analysis.strategies["basic"].play, sf.decisions(analysis.basic, computed))
    spread = stud_basic.features_of(analysis.priced)
    for name, expected in computed.items():
        assert np.array_equal(spread[name], expected), name
    from analyzer.strategy.costs import rule_costs                 # on the patterns, and class by class
    assert stud_basic.stud_rule_costs(analysis.priced, analysis.basic) == \
        rule_costs(analysis.basic, spread, analysis.priced.decisions)
