"""The shared poker round statistics: exact grouped counts and the joint rows of a play mask, against plain loops."""
import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.poker.settlement import Paytable
from analyzer.poker.statistics import (COMPONENTS, PlayStatistics, grouped_counts, round_outcomes, with_side_bet)

PAYS = Paytable(Fraction(2), tuple(Fraction(c + 1) for c in range(10)), tuple(Fraction(c + 1) for c in range(10)),
                (Fraction(0),) * 10, tuple(Fraction(1, 2) * c for c in range(10)))


def plain_grouped(counts, weights, groups, n_groups, mask):
    out = np.zeros((n_groups,) + counts.shape[1:], dtype=object)
    for i in range(len(weights)):
        if mask[i]:
            out[groups[i]] = out[groups[i]] + int(weights[i]) * counts[i].astype(object)
    return out


@pytest.mark.parametrize("shape", [(300, 4), (300, 10, 4), (70_000, 3, 4)])
def test_grouped_counts_equal_a_plain_loop(shape):
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 1000, size=shape).astype(np.uint32)
    weights = rng.integers(0, 25, size=shape[0])
    groups = rng.integers(0, 7, size=shape[0])
    mask = rng.random(shape[0]) < 0.6
    got = grouped_counts(counts, weights, groups, 7, mask)
    assert got.dtype == np.int64
    assert (got.astype(object) == plain_grouped(counts, weights, groups, 7, mask)).all()


def test_grouped_counts_beyond_int64_are_python_integers():
    counts = np.array([[2**40, 1], [2**40, 3]], dtype=object)
    weights = np.array([2**30, 2**30], dtype=object)
    got = grouped_counts(counts, weights, np.array([0, 0]), 1)
    assert got.dtype == object and got.tolist() == [[2**71, 4 * 2**30]]


def fake_table(rng, m, fixed_category):
    weights = rng.integers(1, 5, size=m)
    if fixed_category:
        counts = rng.integers(0, 6, size=(m, 4))
        counts[:, 3] += 24 - counts.sum(axis=1)           # every class counts 24 continuations
        return weights, counts, rng.integers(0, 10, size=m)
    counts = np.zeros((m, 10, 4), dtype=np.int64)
    for i in range(m):
        for _ in range(24):
            counts[i, rng.integers(10), rng.integers(4)] += 1
    return weights, counts, None


@pytest.mark.parametrize("fixed_category", [True, False])
def test_round_outcomes_equal_settling_every_continuation(fixed_category):
    """Rows against a plain loop that settles every continuation of every class under the mask."""
    rng = np.random.default_rng(5)
    weights, counts, category = fake_table(rng, 40, fixed_category)
    play = rng.random(40) < 0.7
    side = rng.integers(0, 3, size=40)
    rows = round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=3)
    plain = {}
    for i in range(40):
        if not play[i]:
            key = (Fraction(-1), Fraction(1), Fraction(0), Fraction(int(side[i])))
            plain[key] = plain.get(key, 0) + int(weights[i]) * 24
            continue
        cells = ([(int(category[i]), o, counts[i, o]) for o in range(4)] if fixed_category else
                 [(c, o, counts[i, c, o]) for c in range(10) for o in range(4)])
        for c, o, n in cells:
            key = (PAYS.net(c, o), Fraction(3), Fraction(1), Fraction(int(side[i])))
            plain[key] = plain.get(key, 0) + int(weights[i]) * int(n)
    assert rows.names == COMPONENTS
    assert dict(rows.rows) == {k: v for k, v in plain.items() if v}
    assert rows.total == int(weights.sum()) * 24


def test_cache_returns_the_same_rows_and_side_bet_combines():
    rng = np.random.default_rng(8)
    weights, counts, category = fake_table(rng, 30, True)
    play, side = rng.random(30) < 0.5, category
    cache = {}
    first = round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=10, cache=cache)
    assert len(cache) == 1
    assert round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=10,
                          cache=cache) == first
    nets = [Fraction(random.Random(c).randrange(-1, 30)) for c in range(10)]
    joint = with_side_bet(first, "side_bet", lambda c, played: nets[c] if played else Fraction(-1))
    stats = PlayStatistics.of(joint, "side_bet", Fraction(1, 2))
    assert stats.combined.mean == stats.main.mean + Fraction(1, 2) * stats.side.mean
    assert stats.combined.variance == (stats.main.variance + Fraction(1, 4) * stats.side.variance
                                       + stats.covariance)
    assert stats.combined.mean_wagered == stats.main.mean_wagered + Fraction(1, 2)
