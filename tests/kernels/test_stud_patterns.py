"""cython_ext.stud_patterns against numpy's reading: the pattern numbers made first, then a scatter or a gather."""
import numpy as np
import pytest

from analyzer.core.exact import INT64_MAX, exact_group_sums
from analyzer.games.caribbean_stud.rule_in_words import class_patterns
from cython_ext import stud_patterns

N = stud_patterns.N_PATTERNS


def random_classes(rng, n: int):
    """n classes: dense ranks and keys (only the up card, the sixth, places a class)."""
    rank = rng.integers(0, 7462, n).astype(np.uint16)
    rank[: n // 2] = rng.integers(0, 40, n // 2)              # a few dense ranks: many classes per pattern
    keys = rng.integers(0, 52, (n, 6)).astype(np.uint8)
    return rank, keys


@pytest.mark.parametrize("n", [0, 1, 2, 1_000, 50_000])
def test_kernels_agree_with_numpy(n):
    rng = np.random.default_rng(n)
    rank, keys = random_classes(rng, n)
    pattern = class_patterns(keys, rank)
    numbers, first, sizes = np.unique(pattern, return_index=True, return_counts=True)
    expected_first, expected_sizes = np.full(N, -1, dtype=np.int32), np.zeros(N, dtype=np.int32)
    expected_first[numbers], expected_sizes[numbers] = first, sizes
    got_first, got_sizes = stud_patterns.pattern_classes(rank, keys)
    assert np.array_equal(got_first, expected_first) and np.array_equal(got_sizes, expected_sizes)
    gain = rng.integers(-10**9, 10**9, n)
    gain[::7] = 0
    raised, folded = stud_patterns.gain_sums(rank, keys, gain)
    assert np.array_equal(raised, exact_group_sums(pattern, -np.minimum(gain, 0), N))
    assert np.array_equal(folded, exact_group_sums(pattern, np.maximum(gain, 0), N))
    by_pattern = rng.integers(0, 256, N).astype(np.uint8)
    assert np.array_equal(stud_patterns.spread(rank, keys, by_pattern), by_pattern[pattern])
    chosen = (rng.random(N) < 0.4).astype(np.uint8)
    expected = np.flatnonzero(chosen[pattern])
    assert np.array_equal(stud_patterns.classes_in(rank, keys, chosen, len(expected)), expected)
    for wrong in (len(expected) - 1, len(expected) + 1):             # a caller's miscount is refused
        if 0 <= wrong <= n:
            with pytest.raises(ValueError, match="classes in the chosen patterns"):
                stud_patterns.classes_in(rank, keys, chosen, wrong)


def test_gain_sums_at_the_int64_bound():
    """Three gains of a third of the int64 range in one pattern, as a caller's bound allows: exact."""
    rank, keys = np.full(3, 5, dtype=np.uint16), np.zeros((3, 6), dtype=np.uint8)
    third = INT64_MAX // 3
    raised, folded = stud_patterns.gain_sums(rank, keys, np.array([third] * 3, dtype=np.int64))
    assert int(folded[5 * 13]) == 3 * third and not raised.any()
    raised, folded = stud_patterns.gain_sums(rank, keys, np.array([-third] * 3, dtype=np.int64))
    assert int(raised[5 * 13]) == 3 * third and not folded.any()


def test_bad_input_is_refused():
    rank, keys = np.array([3, 7462], dtype=np.uint16), np.zeros((2, 6), dtype=np.uint8)
    for call in (lambda: stud_patterns.pattern_classes(rank, keys),
                 lambda: stud_patterns.gain_sums(rank, keys, np.zeros(2, dtype=np.int64)),
                 lambda: stud_patterns.spread(rank, keys, np.zeros(N, dtype=np.uint8)),
                 lambda: stud_patterns.classes_in(rank, keys, np.zeros(N, dtype=np.uint8), 0)):
        with pytest.raises(ValueError, match="class 1: dense rank 7462"):
            call()
    keys[0, 5] = 52
    with pytest.raises(ValueError, match="up card 52"):
        stud_patterns.pattern_classes(np.array([3, 3], dtype=np.uint16), keys)
    with pytest.raises(ValueError, match="one key of 6 cards"):
        stud_patterns.pattern_classes(rank, np.zeros((2, 5), dtype=np.uint8))
    with pytest.raises(ValueError, match="gains for 2 classes"):
        stud_patterns.gain_sums(np.zeros(2, dtype=np.uint16), np.zeros((2, 6), dtype=np.uint8), np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="pattern numbers"):
        stud_patterns.spread(np.zeros(2, dtype=np.uint16), np.zeros((2, 6), dtype=np.uint8), np.zeros(5, dtype=np.uint8))
