"""cython_ext.stud_patterns against numpy's reading: the pattern numbers made first, then a scatter or a gather."""
import numpy as np
import pytest

from analyzer.core.exact import INT64_MAX
from analyzer.games.caribbean_stud.patterns import class_patterns
from analyzer.poker.decision_table import SignSums
from cython_ext import stud_patterns

N = stud_patterns.N_PATTERNS


def random_classes(rng, n: int):
    """n classes: dense ranks and up ranks."""
    rank = rng.integers(0, 7462, n).astype(np.uint16)
    rank[: n // 2] = rng.integers(0, 40, n // 2)              # a few dense ranks: many classes per pattern
    return rank, rng.integers(0, 13, n).astype(np.uint8)


@pytest.mark.parametrize("n", [0, 1, 2, 1_000, 50_000])
def test_kernels_agree_with_numpy(n):
    rng = np.random.default_rng(n)
    rank, up = random_classes(rng, n)
    pattern = class_patterns(rank, up)
    numbers, first, sizes = np.unique(pattern, return_index=True, return_counts=True)
    expected_first, expected_sizes = np.full(N, -1, dtype=np.int32), np.zeros(N, dtype=np.int32)
    expected_first[numbers], expected_sizes[numbers] = first, sizes
    got_first, got_sizes = stud_patterns.pattern_classes(rank, up)
    assert np.array_equal(got_first, expected_first) and np.array_equal(got_sizes, expected_sizes)
    counts, category, weights, nets, completions, denominator = random_pricing(rng, n)
    ev, raise_, tie, sign_weights, sign_gains = stud_patterns.price_classes(rank, up, counts, category, weights,
                                                                            nets, completions, denominator)
    expected_ev, expected = pricing_reference(pattern, counts, category, weights, nets, denominator)
    assert ev.tolist() == expected_ev.tolist()
    assert raise_.tolist() == (expected_ev > -denominator).tolist()
    assert tie.tolist() == (expected_ev == -denominator).tolist()
    assert sign_weights.tolist() == expected.weights.tolist() and sign_gains.tolist() == expected.gains.tolist()
    by_pattern = rng.integers(0, 256, N).astype(np.uint8)
    assert np.array_equal(stud_patterns.spread(rank, up, by_pattern), by_pattern[pattern])
    chosen = (rng.random(N) < 0.4).astype(np.uint8)
    expected = np.flatnonzero(chosen[pattern])
    assert np.array_equal(stud_patterns.classes_in(rank, up, chosen, len(expected)), expected)
    for wrong in (len(expected) - 1, len(expected) + 1):             # a caller's miscount is refused
        if 0 <= wrong <= n:
            with pytest.raises(ValueError, match="classes in the chosen patterns"):
                stud_patterns.classes_in(rank, up, chosen, wrong)


def random_pricing(rng, n: int):
    """Counts (a (m, 4) view of a (4, m) array, as the count makes them) adding up to the completions in every
    row, categories, weights, nets (10, 4), completions, denominator."""
    completions = int(rng.integers(1, 200))
    cuts = np.sort(rng.integers(0, completions + 1, (n, 3)), axis=1)
    rows = np.diff(np.concatenate([np.zeros((n, 1), dtype=np.int64), cuts, np.full((n, 1), completions)], axis=1))
    counts = np.ascontiguousarray(rows.T.astype(np.uint32)).T
    nets = rng.integers(-500, 501, (10, 4)).astype(np.int64)
    nets[:, 2] = 0                                              # ties: gains of 0 with the denominator below
    return (counts, rng.integers(0, 10, n).astype(np.uint8), rng.integers(1, 25, n).astype(np.uint8), nets,
            completions, completions * int(rng.integers(1, 4)))


def pricing_reference(pattern, counts, category, weights, nets, denominator):
    """price_classes by NumPy in Python integers: the EVs, then the gains summed by pattern and sign."""
    ev = sum(counts[:, o].astype(object) * nets[category, o].astype(object) for o in range(4))
    ev = np.asarray(ev if len(counts) else np.zeros(0, dtype=object), dtype=object)
    return ev, SignSums.of(pattern, N, weights, (ev + denominator) * weights.astype(object))


def test_pricing_at_the_int64_bound():
    """Three gains of a third of the int64 range in one pattern, as a caller's bound allows: exact."""
    rank, up = np.full(3, 5, dtype=np.uint16), np.zeros(3, dtype=np.uint8)
    counts = np.array([[0, 1, 0, 0]] * 3, dtype=np.uint32)
    category, weights = np.zeros(3, np.uint8), np.ones(3, np.uint8)
    third = INT64_MAX // 3
    for sign in (1, -1):
        nets = np.zeros((10, 4), dtype=np.int64)
        nets[:, 1] = sign * third
        ev, raise_, tie, sign_weights, sign_gains = stud_patterns.price_classes(rank, up, counts, category, weights,
                                                                                nets, 1, 0)
        assert ev.tolist() == [sign * third] * 3 and raise_.tolist() == [sign > 0] * 3 and not tie.any()
        assert sign_gains[5 * 13].tolist() == ([0, 0, 3 * third] if sign > 0 else [-3 * third, 0, 0])
        assert sign_weights[5 * 13].tolist() == ([0, 0, 3] if sign > 0 else [3, 0, 0])


def test_bad_input_is_refused():
    rank, up = np.array([3, 7462], dtype=np.uint16), np.zeros(2, dtype=np.uint8)
    for call in (lambda: stud_patterns.pattern_classes(rank, up),
                 lambda: stud_patterns.price_classes(rank, up, np.zeros((2, 4), dtype=np.uint32),
                                                     np.zeros(2, np.uint8), np.ones(2, np.uint8),
                                                     np.zeros((10, 4), dtype=np.int64), 0, 1),
                 lambda: stud_patterns.spread(rank, up, np.zeros(N, dtype=np.uint8)),
                 lambda: stud_patterns.classes_in(rank, up, np.zeros(N, dtype=np.uint8), 0)):
        with pytest.raises(ValueError, match="class 1: dense rank 7462"):
            call()
    up[0] = 13
    with pytest.raises(ValueError, match="up rank 13"):
        stud_patterns.pattern_classes(np.array([3, 3], dtype=np.uint16), up)
    with pytest.raises(ValueError, match="one of each per class"):
        stud_patterns.pattern_classes(rank, np.zeros(3, dtype=np.uint8))
    rank, up, nets = np.zeros(2, dtype=np.uint16), np.zeros(2, dtype=np.uint8), np.zeros((10, 4), np.int64)
    counts = np.array([[1, 0, 0, 0], [0, 0, 2, 0]], dtype=np.uint32)
    category, weights = np.zeros(2, np.uint8), np.ones(2, np.uint8)
    with pytest.raises(ValueError, match="count rows"):
        stud_patterns.price_classes(rank, up, counts[:1], category, weights, nets, 1, 1)
    with pytest.raises(ValueError, match="outcomes"):
        stud_patterns.price_classes(rank, up, counts, category, weights, nets[:, :3].copy(), 1, 1)
    with pytest.raises(ValueError, match="class 1: .* counts adding up to 2, not 1"):
        stud_patterns.price_classes(rank, up, counts, category, weights, nets, 1, 1)
    counts[1, 2] = 1
    category[1] = 10
    with pytest.raises(ValueError, match="class 1: category 10 .below 10."):
        stud_patterns.price_classes(rank, up, counts, category, weights, nets, 1, 1)
    with pytest.raises(ValueError, match="pattern numbers"):
        stud_patterns.spread(np.zeros(2, dtype=np.uint16), np.zeros(2, dtype=np.uint8), np.zeros(5, dtype=np.uint8))
