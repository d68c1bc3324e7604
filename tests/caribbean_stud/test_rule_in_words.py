"""The rule in words: fitted and checked on the rank patterns, against the same fit and a plain check on the
classes; its clauses read as their kinds always meant; its words read back to its rules."""
import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.core.exact import exact_group_sums, exact_sum
from analyzer.games.caribbean_stud import basic, features, fitted_rule
from analyzer.games.caribbean_stud.patterns import N_PATTERNS, Patterns, class_patterns, patterns_of, up_ranks
from analyzer.games.caribbean_stud.price import Priced
from analyzer.poker.decision_table import DecisionTable
from analyzer.strategy.costs import Losses
from analyzer.strategy.language import Condition, Rule
from rule_reader import parse_rule
from cython_ext import handeval

RESULTS = Path(__file__).parents[2] / "results" / "caribbean_stud"
RAISE = features.ACTIONS.index("raise")


def random_classes(rng, n: int) -> tuple:
    """n random (hand, up card) classes keyed as the count keys them (the hand descending, then the up card),
    and their dense ranks."""
    cards = np.array([rng.choice(52, 6, replace=False) for _ in range(n)], dtype=np.uint8).reshape(n, 6)
    keys = np.concatenate([-np.sort(-cards[:, :5].astype(np.int16), axis=1).astype(np.uint8), cards[:, 5:]], axis=1)
    values = handeval.evaluate_many(np.ascontiguousarray(keys[:, :5]))
    return keys, np.array([handeval.dense(int(v)) for v in values], dtype=np.uint16)


def random_priced(keys, rank, weights, ev, denominator) -> Priced:
    """A rule set's pricing of these classes (EV numerators of raising over `denominator`; folding is -1)."""
    table = SimpleNamespace(keys=keys, player_rank=rank, derived={}, raw_situations=exact_sum(weights))
    decisions = DecisionTable(weights, ev, denominator, Fraction(2))
    return Priced(table, None, decisions, patterns_of(table).sign_sums(weights, decisions.gain))


def class_losses(gain) -> Losses:
    """Every class a group of its own."""
    return Losses(-np.minimum(gain, 0), np.maximum(gain, 0))


def check_reference(strategy, keys, rank, gain, scale) -> dict:
    """The check as first written: the rule list on every class, the costs summed class by class."""
    raises = strategy.decide(features.compute(keys)) == RAISE
    wrong = (raises & (gain < 0)) | (~raises & (gain > 0))
    pattern = class_patterns(rank, up_ranks(keys))
    absolute, signed = exact_group_sums(pattern, np.abs(gain), N_PATTERNS), exact_group_sums(pattern, gain, N_PATTERNS)
    best = (absolute - np.abs(signed)) // 2
    return {"raises": raises.tolist(), "exceptions": np.flatnonzero(wrong).tolist(),
            "exception_gains": gain[wrong].tolist(), "cost": Fraction(exact_sum(np.abs(gain[wrong])), scale),
            "best_rank_only_cost": Fraction(exact_sum(best), scale), "mixed_rank_patterns": int((best > 0).sum())}


def as_reference(check: basic.RuleCheck) -> dict:
    return {"raises": check.raises.tolist(), "exceptions": check.exceptions.tolist(),
            "exception_gains": check.exception_gains.tolist(), "cost": check.cost,
            "best_rank_only_cost": check.best_rank_only_cost, "mixed_rank_patterns": check.mixed_rank_patterns}


def clauses_raise(clauses: list, keys, rank) -> np.ndarray:
    """summary.json's clauses on every class, each kind read as it was first written: the first that holds decides."""
    ranks, up = (keys[:, :5] >> 2).astype(np.int16), (keys[:, 5] >> 2).astype(np.int16)
    category = handeval.categories(handeval.evaluate_many(np.ascontiguousarray(keys[:, :5])))
    paired = np.full(len(keys), -1)
    for place in range(4, -1, -1):
        paired[ranks[:, place] == up] = place

    def holds(c):
        if c["kind"] == "CategoryAtLeast":
            return category >= c["category"]
        if c["kind"] in ("HandAtLeast", "HandBelow"):
            level = handeval.dense_at_least(handeval.threshold_value(c["category"], c["ranks"]))
            return rank >= level if c["kind"] == "HandAtLeast" else rank < level
        if c["kind"] == "UpPairs":
            return np.isin(paired, c["places"]) if c["places"] else paired < 0
        if c["kind"] == "CardAtLeast":
            return ranks[:, c["place"]] >= c["rank"]
        assert c["kind"] == "UpBelowCard"
        return up <= ranks[:, c["place"]] - c["gap"]
    raise_, decided = np.zeros(len(keys), dtype=bool), np.zeros(len(keys), dtype=bool)
    for clause in clauses:
        held = ~decided
        for condition in clause["conditions"]:
            held &= holds(condition)
        raise_[held] = clause["action"] == "raise"
        decided |= held
    assert decided.all()
    return raise_


def random_rule_list(rng):
    """A rule list of the conditions the rule in words names (random thresholds and actions)."""
    def condition():
        return [Condition("hand", "min", int(rng.integers(0, 10))),
                Condition("level", str(rng.choice(["min", "below"])), int(rng.integers(0, len(features.LEVELS)))),
                Condition("up_pairs", "in", tuple(sorted(rng.choice(np.arange(1, 6), 2, replace=False).tolist()))),
                Condition("up_pairs", "eq", int(rng.integers(1, 6))), Condition("up_pairs_any", "eq", 0),
                Condition(features.PLACES[int(rng.integers(0, 5))], "min", int(rng.integers(0, 13))),
                Condition(f"up_below_{features.PLACES[int(rng.integers(2, 5))]}", "min", int(rng.integers(1, 4)))
                ][int(rng.integers(0, 7))]
    return fitted_rule.rule_list(Rule(tuple(dict.fromkeys(condition() for _ in range(int(rng.integers(1, 4))))),
                                      str(rng.choice(["raise", "fold"]))) for _ in range(int(rng.integers(0, 8))))


def assert_reads_back(strategy):
    """Every line parses back to its rule; the clauses are data summary.json can hold."""
    for rule, line in zip(strategy.rules, strategy.lines()):
        assert parse_rule(line, features.FEATURE_SET) == rule, line
    assert json.loads(json.dumps(fitted_rule.clauses(strategy))) == fitted_rule.clauses(strategy)


def test_patterns_stand_for_their_classes():
    """Every feature of a class is its pattern's; the patterns are the classes' pattern numbers."""
    rng = np.random.default_rng(7)
    keys, rank = random_classes(rng, 20_000)
    patterns = Patterns.of(keys, rank)
    pattern = class_patterns(rank, up_ranks(keys))
    assert np.array_equal(pattern, rank.astype(np.int32) * 13 + (keys[:, 5] >> 2))
    assert np.array_equal(patterns.numbers, np.unique(pattern)) and len(patterns) < len(keys)
    assert np.array_equal(class_patterns(patterns.rank, up_ranks(patterns.keys)), patterns.numbers)
    by_class, by_pattern = features.compute(keys), features.compute(patterns.keys)
    assert set(by_class) == set(features.FEATURES)
    for name, values in by_pattern.items():
        assert np.array_equal(patterns.spread(values), by_class[name]), name
    chosen = rng.random(len(patterns)) < 0.3
    assert np.array_equal(patterns.classes_in(chosen), np.flatnonzero(patterns.spread(chosen)))
    values, weights = rng.integers(-5, 6, len(keys)), rng.integers(1, 25, len(keys)).astype(np.uint8)
    for v in (values, values.astype(object) * 2**70):            # int64, then Python integers
        sums = patterns.sign_sums(weights, v)
        for s, sign in enumerate((-1, 0, 1)):                     # v has the signs of values
            where = [(pattern == number) & (np.sign(values) == sign) for number in patterns.numbers]
            assert sums.weights[:, s].tolist() == [int(weights[w].astype(int).sum()) for w in where]
            assert sums.gains[:, s].tolist() == [sum(int(x) for x in v[w]) for w in where]
        losses = Losses.of(sums)
        assert losses.if_played.tolist() == [-sum(int(x) for x in v[pattern == n] if x < 0) for n in patterns.numbers]
        assert losses.if_folded.tolist() == [sum(int(x) for x in v[pattern == n] if x > 0) for n in patterns.numbers]


@pytest.mark.parametrize("seed", range(6))
def test_rule_by_pattern_agrees_with_the_rule_class_by_class(seed):
    """Random classes (several per pattern) and random EVs of either sign, ties, one class, huge EVs."""
    rng = np.random.default_rng(100 + seed)
    n = (1, 5, 400, 5_000, 20_000, 20_000)[seed]
    keys, rank = random_classes(rng, n)
    category = handeval.categories(handeval.evaluate_many(np.ascontiguousarray(keys[:, :5])))
    denominator = 10
    evs = [rng.integers(-14, -5, n), rng.integers(-11, 20, n), np.full(n, -denominator),
           (rng.integers(-4, 5, n).astype(object) * 2**70),
           # pairs and better raise (every rule of the shape), the rest mixed; or pairs mixed too
           np.where(category > 0, 5, rng.integers(-30, -7, n)), np.where(category > 1, 5, rng.integers(-30, -5, n))]
    weights = rng.integers(1, 25, n).astype(np.uint8)
    for ev in evs:
        priced = random_priced(keys, rank, weights, ev, denominator)
        gain, scale = priced.gain, priced.table.raw_situations * denominator
        strategy = fitted_rule.fit(basic.pattern_features(priced.table), Losses.of(priced.sums))
        assert strategy == fitted_rule.fit(features.compute(keys), class_losses(gain))
        check = basic.check(strategy, priced)
        assert as_reference(check) == check_reference(strategy, keys, rank, gain, scale)
        assert np.array_equal(clauses_raise(fitted_rule.clauses(strategy), keys, rank), check.raises)
        assert_reads_back(strategy)
        other = random_rule_list(rng)
        assert as_reference(basic.check(other, priced)) == check_reference(other, keys, rank, gain, scale)
        assert np.array_equal(clauses_raise(fitted_rule.clauses(other), keys, rank),
                              other.decide(features.compute(keys)) == RAISE)
        assert_reads_back(other)


@pytest.mark.parametrize("rule_set", ["operator", "standard"])
def test_rule_in_words_on_the_full_deck(stud_analyses, rule_set):
    """The analysis's rule and its check, against the rule fitted and checked class by class; its words and
    clauses are those committed, and the clauses decide every class as the rule does."""
    analysis = stud_analyses[rule_set]
    table, priced, check = analysis.table, analysis.priced, analysis.rule_check
    strategy = check.strategy
    assert strategy == fitted_rule.fit(features.compute(table.keys), class_losses(priced.gain))
    scale = table.raw_situations * priced.denominator
    assert as_reference(check) == check_reference(strategy, table.keys, table.player_rank, priced.gain, scale)
    committed = json.loads((RESULTS / rule_set / "summary.json").read_text())["rule_in_words"]
    assert (strategy.lines(), fitted_rule.clauses(strategy)) == (committed["rule"], committed["clauses"])
    assert np.array_equal(clauses_raise(committed["clauses"], table.keys, table.player_rank), check.raises)
    assert_reads_back(strategy)
