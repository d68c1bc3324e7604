"""The rule in words' fast paths against their plain readings, on random classes and random rules."""
from fractions import Fraction

import numpy as np
import pytest

from analyzer.core.exact import exact_group_sums, exact_sum
from analyzer.games.caribbean_stud import rule_in_words as rw
from cython_ext import handeval


def random_features(rng, n: int) -> tuple:
    """n random (hand, up card) classes keyed as the count keys them: the hand descending, then the up card."""
    cards = np.array([rng.choice(52, 6, replace=False) for _ in range(n)], dtype=np.uint8).reshape(n, 6)
    keys = np.concatenate([-np.sort(-cards[:, :5].astype(np.int16), axis=1).astype(np.uint8), cards[:, 5:]], axis=1)
    values = handeval.evaluate_many(np.ascontiguousarray(keys[:, :5]))
    rank = np.array([handeval.dense(int(v)) for v in values], dtype=np.uint16)
    return keys, handeval.categories(values).astype(np.uint8), rank


def features_reference(keys, category, rank) -> dict:
    """Features.of as first written: the ranks row by row."""
    ranks = keys[:, :5] >> 2
    up_rank = keys[:, 5] >> 2
    paired = np.full(len(keys), -1, dtype=np.int8)
    for place in range(4, -1, -1):
        paired[ranks[:, place] == up_rank] = place
    return {"category": category, "rank": rank, "ranks": ranks, "up_rank": up_rank, "paired_place": paired}


def pattern_numbers(f) -> np.ndarray:
    """Each class's pattern number, from its features."""
    return f.rank.astype(np.int32) * rw.N_RANKS + f.up_rank


def random_condition(rng):
    kind = int(rng.integers(0, 6))
    if kind == 0:
        return rw.CategoryAtLeast(int(rng.integers(0, 10)))
    if kind in (1, 2):
        category = int(rng.choice([rw.HIGH_CARD, rw.ONE_PAIR, 2]))
        ranks = {rw.HIGH_CARD: (12, int(rng.integers(0, 12))), rw.ONE_PAIR: (int(rng.integers(0, 13)),), 2: ()}
        return (rw.HandBelow if kind == 1 else rw.HandAtLeast)(category, ranks[category])
    if kind == 3:
        return rw.UpPairs(tuple(sorted(set(rng.integers(0, 5, int(rng.integers(0, 3))).tolist()))))
    if kind == 4:
        return rw.CardAtLeast(int(rng.integers(0, 5)), int(rng.integers(0, 14)))
    return rw.UpBelowCard(int(rng.integers(0, 5)), int(rng.integers(1, 4)))


def random_rule(rng) -> rw.StrategyRule:
    clauses = [rw.Clause(str(rng.choice([rw.RAISE, rw.FOLD])),
                         tuple(random_condition(rng) for _ in range(int(rng.integers(1, 4)))))
               for _ in range(int(rng.integers(0, 8)))]
    return rw.StrategyRule(tuple(clauses) + (rw.Clause(str(rng.choice([rw.RAISE, rw.FOLD]))),))


def raises_reference(rule, f) -> np.ndarray:
    """Every clause on every class, the first that holds deciding."""
    raise_, decided = np.zeros(len(f.category), dtype=bool), np.zeros(len(f.category), dtype=bool)
    for clause in rule.clauses:
        holds = ~decided
        for condition in clause.conditions:
            holds &= condition.holds(f)
        raise_[holds] = clause.action == rw.RAISE
        decided |= holds
    return raise_


def prune_reference(rule, f) -> rw.StrategyRule:
    """prune as first written: every clause tested on every class."""
    decided = np.zeros(len(f.category), dtype=bool)
    kept = []
    for clause in rule.clauses[:-1]:
        holds = ~decided
        for condition in clause.conditions:
            holds &= condition.holds(f)
        if holds.any():
            kept.append(clause)
            decided |= holds
    return rw.StrategyRule(tuple(kept) + rule.clauses[-1:])


def lowest_never_folding_reference(category, gain) -> int:
    for c in range(int(category.max()), -1, -1):
        if (gain[category >= c] < 0).any():
            return c + 1
    return 0


@pytest.mark.parametrize("seed", range(5))
def test_fast_paths_agree_with_their_plain_readings(seed):
    rng = np.random.default_rng(seed)
    n = (1, 2, 50, 3_000, 10_000)[seed]
    keys, category, rank = random_features(rng, n)
    f = rw.Features.of(keys, category, rank)
    expected = features_reference(keys, category, rank)
    assert all(np.array_equal(getattr(f, name), value) for name, value in expected.items())
    for _ in range(30):
        rule = random_rule(rng)
        assert np.array_equal(rule.raises(f), raises_reference(rule, f))
        assert rw.prune(rule, f) == prune_reference(rule, f)
    for gain in (rng.integers(-3, 4, n), rng.integers(0, 4, n), rng.integers(-3, 4, n).astype(object) * 2**70):
        assert rw.lowest_never_folding(category, gain < 0) == lowest_never_folding_reference(category, gain)


# --- the rule fitted and checked by pattern, against the rule fitted and checked class by class ----

def derive_rule_reference(f, gain) -> rw.StrategyRule:
    """derive_rule as first written: on the classes, each region's classes grouped by pattern as it is priced."""
    def best(candidates, region):
        if not region.any():
            return candidates[0]
        index = np.flatnonzero(region)
        _, first, inverse = np.unique(pattern_numbers(f)[index], return_index=True, return_inverse=True)
        g = gain[index]
        lost_if_raised = exact_group_sums(inverse, -np.minimum(g, 0), len(first))
        lost_if_folded = exact_group_sums(inverse, np.maximum(g, 0), len(first))
        representatives = rw._Taken(f, index[first])
        costs = [int(np.where(rw.StrategyRule(tuple(c) + (rw.Clause(rw.FOLD),)).raises(representatives),
                              lost_if_raised, lost_if_folded).sum()) for c in candidates]
        return candidates[int(np.argmin(costs))]

    top_category = int(f.category.max())
    always = lowest_never_folding_reference(f.category, gain)
    lower = []
    for c in range(always - 1, rw.HIGH_CARD, -1):
        levels = [[rw.Clause(rw.RAISE, (rw.CategoryAtLeast(c),))], []]
        if c == rw.ONE_PAIR:
            levels += [[rw.Clause(rw.RAISE, (rw.HandAtLeast(rw.ONE_PAIR, (r,)),))] for r in range(1, rw.N_RANKS)]
        level = best(levels, f.category == c)
        if level == levels[0] and not lower:
            always = c
        else:
            lower += level + [rw.Clause(rw.FOLD, (rw.CategoryAtLeast(c),))]
    clauses = ([rw.Clause(rw.RAISE, (rw.CategoryAtLeast(always),))] if always <= top_category else []) + lower
    high = f.category == rw.HIGH_CARD
    raised = high & (gain > 0)
    if always == rw.HIGH_CARD or not raised.any():
        return prune_reference(rw.StrategyRule(tuple(clauses) + (rw.Clause(rw.FOLD),)), f)
    lowest = int(np.argmin(np.where(raised, f.rank, np.iinfo(np.int32).max)))
    floor = rw.HandBelow(rw.HIGH_CARD, rw.leading_ranks(rw.HIGH_CARD, f.ranks[lowest]))
    clauses.append(rw.Clause(rw.FOLD, (floor,)))
    band = high & ~floor.holds(f)
    top, others, none = rw.UpPairs((0, 1)), rw.UpPairs((2, 3, 4)), rw.UpPairs(())
    clauses += best([[rw.Clause(rw.RAISE, (top, rw.CardAtLeast(2, t)))] if t < rw.NEVER else []
                     for t in range(rw.NEVER + 1)], band & top.holds(f)) + [rw.Clause(rw.FOLD, (top,))]
    clauses += best([[rw.Clause(rw.RAISE, (others,))], []], band & others.holds(f))
    shapes = [[]]
    for third in range(rw.N_RANKS):
        for fourth in range(rw.N_RANKS + 1):
            shape = []
            if fourth < rw.NEVER:
                shape.append(rw.Clause(rw.RAISE, (none, rw.CardAtLeast(2, third), rw.CardAtLeast(3, fourth),
                                                  rw.UpBelowCard(3, 1))))
            shape.append(rw.Clause(rw.RAISE, (none, rw.CardAtLeast(2, third), rw.UpBelowCard(3, 2))))
            shapes.append(shape)
    clauses += best(shapes, band & none.holds(f))
    return prune_reference(rw.StrategyRule(tuple(clauses) + (rw.Clause(rw.FOLD),)), f)


def check_rule_reference(rule, f, gain, scale) -> rw.RuleCheck:
    """check_rule as first written: the rule on every class, the costs summed class by class."""
    raises = raises_reference(rule, f)
    wrong = (raises & (gain < 0)) | (~raises & (gain > 0))
    absolute = exact_group_sums(pattern_numbers(f), np.abs(gain), rw.N_PATTERNS)
    signed = exact_group_sums(pattern_numbers(f), gain, rw.N_PATTERNS)
    best = (absolute - np.abs(signed)) // 2
    return rw.RuleCheck(rule=rule, raises=raises, exceptions=np.flatnonzero(wrong), exception_gains=gain[wrong],
                        cost=Fraction(exact_sum(np.abs(gain[wrong])), scale),
                        best_rank_only_cost=Fraction(exact_sum(best), scale), mixed_rank_patterns=int((best > 0).sum()))


def assert_same_check(got: rw.RuleCheck, expected: rw.RuleCheck):
    assert got.rule == expected.rule
    assert np.array_equal(got.raises, expected.raises)
    assert np.array_equal(got.exceptions, expected.exceptions)
    assert got.exception_gains.tolist() == expected.exception_gains.tolist()
    assert (got.cost, got.best_rank_only_cost, got.mixed_rank_patterns) == \
        (expected.cost, expected.best_rank_only_cost, expected.mixed_rank_patterns)


def test_patterns_stand_for_their_classes():
    """Every feature of a class is its pattern's; the patterns are the classes' pattern numbers."""
    rng = np.random.default_rng(7)
    keys, category, rank = random_features(rng, 20_000)
    patterns = rw.Patterns.of(keys, category, rank)
    f = rw.Features.of(keys, category, rank)
    pattern = rw.class_patterns(rank, rw.up_ranks(keys))
    assert np.array_equal(pattern, pattern_numbers(f))
    assert np.array_equal(patterns.numbers, np.unique(pattern)) and len(patterns) < len(keys)
    assert np.array_equal(pattern_numbers(patterns.features), patterns.numbers)
    for name in ("category", "up_rank", "paired_place"):
        assert np.array_equal(patterns.spread(getattr(patterns.features, name)), getattr(f, name)), name
    for place in range(5):
        assert np.array_equal(patterns.spread(patterns.features.ranks[:, place]), f.ranks[:, place])
    chosen = rng.random(len(patterns)) < 0.3
    assert np.array_equal(patterns.classes_in(chosen), np.flatnonzero(patterns.spread(chosen)))
    values, weights = rng.integers(-5, 6, len(keys)), rng.integers(1, 25, len(keys)).astype(np.uint8)
    for v in (values, values.astype(object) * 2**70):            # int64, then Python integers
        sums = patterns.sign_sums(weights, v)
        for s, sign in enumerate((-1, 0, 1)):                     # v has the signs of values
            where = [(pattern == number) & (np.sign(values) == sign) for number in patterns.numbers]
            assert sums.weights[:, s].tolist() == [int(weights[w].astype(int).sum()) for w in where]
            assert sums.gains[:, s].tolist() == [sum(int(x) for x in v[w]) for w in where]
        g = rw.PatternGains.of(patterns, sums)
        assert g.lost_if_raised.tolist() == [-sum(int(x) for x in v[pattern == n] if x < 0) for n in patterns.numbers]
        assert g.lost_if_folded.tolist() == [sum(int(x) for x in v[pattern == n] if x > 0) for n in patterns.numbers]


@pytest.mark.parametrize("seed", range(6))
def test_rule_by_pattern_agrees_with_the_rule_class_by_class(seed):
    """Random classes (several per pattern) and random gains of either sign, ties, one class, huge gains."""
    rng = np.random.default_rng(100 + seed)
    n = (1, 5, 400, 5_000, 20_000, 20_000)[seed]
    keys, category, rank = random_features(rng, n)
    f = rw.Features.of(keys, category, rank)
    gains = [rng.integers(-4, 5, n), rng.integers(-1, 30, n), np.zeros(n, dtype=np.int64),
             rng.integers(-4, 5, n).astype(object) * 2**70]
    # gains that pay pairs and better (a rule with every clause of the shape), the rest mixed
    gains.append(np.where(category > 0, 10, rng.integers(-20, 3, n)))
    weights = rng.integers(1, 25, n).astype(np.uint8)
    for gain in gains:
        patterns = rw.Patterns.of(keys, category, rank)
        g = rw.PatternGains.of(patterns, patterns.sign_sums(weights, gain))
        rule = rw.derive_rule(g)
        assert rule == derive_rule_reference(f, gain)
        assert_same_check(rw.check_rule(rule, g, gain.__getitem__, 1000), check_rule_reference(rule, f, gain, 1000))
        other = random_rule(rng)
        assert_same_check(rw.check_rule(other, g, gain.__getitem__, 7), check_rule_reference(other, f, gain, 7))


@pytest.mark.parametrize("rule_set", ["operator", "standard"])
def test_rule_in_words_by_pattern_on_the_full_deck(stud_analyses, rule_set):
    """The analysis's rule and its check, against the rule fitted and checked class by class."""
    analysis = stud_analyses[rule_set]
    table, priced = analysis.table, analysis.priced
    f = rw.Features.of(table.keys, table.player_category, table.player_rank)
    scale = table.raw_situations * priced.denominator
    assert analysis.rule_check.rule == derive_rule_reference(f, priced.gain)
    assert_same_check(analysis.rule_check, check_rule_reference(analysis.rule_check.rule, f, priced.gain, scale))
    assert np.array_equal(rw.patterns_of(table).numbers, np.flatnonzero(np.bincount(pattern_numbers(f)) > 0))
