"""The rule in words' fast paths against their plain readings, on random classes and random rules."""
import numpy as np
import pytest

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
    return {"category": category, "rank": rank, "ranks": ranks, "up_rank": up_rank, "paired_place": paired,
            "pattern": rank.astype(np.int32) * rw.N_RANKS + up_rank}


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
        assert rw.lowest_never_folding(category, gain) == lowest_never_folding_reference(category, gain)
