"""The exact sums behind the figures: int64 where a bound proves it fits, Python integers beyond, equal either way."""
import numpy as np
import pytest

from analyzer.core.exact import INT64_MAX, exact_dot, exact_group_sums, exact_masked_sum

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("big", [False, True], ids=["int64", "python-ints"])
def test_every_sum_equals_the_plain_python_one(big):
    n = 3 * (1 << 18) + 17                                           # several chunks and a ragged end
    values = RNG.integers(-10**6, 10**6, n)
    if big:
        values = values.astype(object) * (INT64_MAX // 10**5)       # no int64 bound can hold these sums
    weights = RNG.integers(0, 25, n).astype(np.uint8)
    groups = RNG.integers(0, 7, n).astype(np.uint8)
    mask = RNG.random(n) < 0.4
    plain_values, plain_weights = [int(v) for v in values], [int(w) for w in weights]
    assert exact_masked_sum(values, mask) == sum(v for v, m in zip(plain_values, mask) if m)
    assert exact_dot(weights, values) == sum(w * v for w, v in zip(plain_weights, plain_values))
    by_group = [0] * 7
    for g, v in zip(groups.tolist(), plain_values):
        by_group[g] += v
    assert [int(x) for x in exact_group_sums(groups, values, 7)] == by_group


def test_masked_sum_uses_the_dtype_bound_or_the_data():
    assert exact_masked_sum(np.array([255, 255], dtype=np.uint8), np.array([True, True])) == 510
    assert exact_masked_sum(np.array([2**62, 2**62, 1]), np.array([True, True, False])) == 2**63


def masked_sum_with_where(values, mask) -> int:
    """The former int64 path of exact_masked_sum (the reference where it applies): a sum with where=."""
    return int(np.sum(values, where=np.asarray(mask, dtype=bool), dtype=np.int64))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64])
@pytest.mark.parametrize("n", [0, 1, 1 << 18, (1 << 18) + 1, 3 * (1 << 18) + 17])
def test_masked_sum_by_chunks_equals_the_where_sum_and_plain_python(dtype, n):
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    low, high = (0, 2) if info is None else (max(int(info.min), -10**12), min(int(info.max), 10**12) + 1)
    values = RNG.integers(low, high, n).astype(dtype)
    for mask in (RNG.random(n) < 0.3, np.ones(n, dtype=bool), np.zeros(n, dtype=bool)):
        plain = sum(int(v) for v, m in zip(values.tolist(), mask.tolist()) if m)
        assert exact_masked_sum(values, mask) == masked_sum_with_where(values, mask) == plain


def test_masked_sum_near_the_int64_bound_and_of_several_dimensions():
    at_the_bound = np.full(3, INT64_MAX // 3, dtype=np.int64)                       # int64: 3 x max fits
    assert exact_masked_sum(at_the_bound, np.ones(3, dtype=bool)) == 3 * (INT64_MAX // 3)
    beyond = np.array([INT64_MAX // 2, INT64_MAX // 2, 2], dtype=np.int64)          # Python integers
    assert exact_masked_sum(beyond, np.ones(3, dtype=bool)) == INT64_MAX + 1
    grid = RNG.integers(-1000, 1000, (300, 7))
    mask = RNG.random((300, 7)) < 0.5
    assert exact_masked_sum(grid, mask) == int(grid[mask].sum())
    assert exact_masked_sum(grid, mask[0]) == int(grid[:, mask[0]].sum())          # a mask broadcast over rows
