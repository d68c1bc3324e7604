"""The exact sums behind the figures: int64 where a bound proves it fits, Python integers beyond, equal either way."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.exact import (INT64_MAX, as_narrowest_int, exact_cumsum, exact_group_sums,
                                 exact_masked_sum, exact_sum, exact_terms)

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("big", [False, True], ids=["int64", "python-ints"])
def test_every_sum_equals_the_plain_python_one(big):
    n = 3 * (1 << 18) + 17                                           # several chunks and a ragged end
    values = RNG.integers(-10**6, 10**6, n)
    if big:
        values = values.astype(object) * (INT64_MAX // 10**5)       # no int64 bound can hold these sums
    groups = RNG.integers(0, 7, n).astype(np.uint8)
    mask = RNG.random(n) < 0.4
    plain_values = [int(v) for v in values]
    assert exact_masked_sum(values, mask) == sum(v for v, m in zip(plain_values, mask) if m)
    by_group = [0] * 7
    for g, v in zip(groups.tolist(), plain_values):
        by_group[g] += v
    assert [int(x) for x in exact_group_sums(groups, values, 7)] == by_group


def test_masked_sum_uses_the_dtype_bound_or_the_data():
    assert exact_masked_sum(np.array([255, 255], dtype=np.uint8), np.array([True, True])) == 510
    assert exact_masked_sum(np.array([2**62, 2**62, 1]), np.array([True, True, False])) == 2**63


@pytest.mark.parametrize("values", [
    np.array([2**62] * 5 + [-3, 7], dtype=np.int64),                   # int64 chunks of 1 (sum beyond int64)
    np.array([INT64_MAX // 3] * 10, dtype=np.int64),                   # chunks of 3 and a ragged end
    np.array([2**63 + 5, 2**64 - 1, 0], dtype=np.uint64),              # items beyond int64: Python ints
    RNG.integers(-10**6, 10**6, (300, 7)),                              # one int64 sum, any shape
    np.array([2**70, -2**70, 3], dtype=object),
    np.zeros(0, dtype=np.int64),
])
def test_exact_sum_equals_the_plain_python_one(values):
    assert exact_sum(values) == sum(int(v) for v in values.ravel().tolist())


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint32, np.int64, np.uint64, bool])
def test_masked_sum_equals_a_plain_loop_on_edge_shapes(dtype):
    """Empty, one element, a ragged last chunk and a 2-d array, every dtype: the chunked dot product is the
    plain sum of the kept values."""
    for shape in [(0,), (1,), (1 << 18, ), ((1 << 18) + 5,), (300, 7)]:
        values = RNG.integers(0, 2 if dtype is bool else 200, size=shape).astype(dtype)
        mask = RNG.random(shape) < 0.5
        plain = sum(int(v) for v, m in zip(values.ravel().tolist(), mask.ravel().tolist()) if m)
        assert exact_masked_sum(values, mask) == plain
        assert exact_masked_sum(values, mask.astype(np.uint8)) == plain            # a 0/1 mask of another dtype


def test_masked_sum_near_the_int64_bound():
    """A bound that just proves the sum fits is summed in int64; one that does not, in Python integers."""
    n = 1000
    fits = np.full(n, INT64_MAX // n, dtype=np.int64)
    assert exact_masked_sum(fits, np.ones(n, dtype=bool)) == n * (INT64_MAX // n)
    wide = np.full(n, INT64_MAX // n + 1, dtype=np.int64)
    mask = np.ones(n, dtype=bool)
    mask[3] = False
    assert exact_masked_sum(wide, mask) == (n - 1) * (INT64_MAX // n + 1)
    assert exact_masked_sum(wide, mask, bound=INT64_MAX // n + 1) == (n - 1) * (INT64_MAX // n + 1)


@pytest.mark.parametrize("bound, dtype", [(0, np.int8), (127, np.int8), (128, np.int16), (2**31 - 1, np.int32),
                                          (2**31, np.int64), (INT64_MAX, np.int64), (INT64_MAX + 1, object)])
def test_narrowest_int_holds_every_value_its_bound_allows(bound, dtype):
    values = np.array([bound, -bound, 0], dtype=object)
    narrow = as_narrowest_int(values, bound)
    assert narrow.dtype == dtype and narrow.tolist() == values.tolist()
    assert exact_masked_sum(narrow, np.array([True, False, True]), bound) == bound
    assert as_narrowest_int(np.array([], dtype=np.int64), bound).size == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-2**63 + 1, 2**63 - 1), st.integers(1, 2**63 - 1),
                          st.integers(-2**63 + 1, 2**63 - 1), st.integers(1, 2**63 - 1)), min_size=1, max_size=20),
       st.integers(-2**40, 2**40))
def test_exact_terms_equal_python_integers_across_the_int64_bound(rows, scalar):
    # near 2**63 the products need Python integers; small ones stay in int64: equal either way
    p1, q1, p2, q2 = (np.array(column, dtype=np.int64) for column in zip(*rows))
    expected = [a * d - c * b + scalar for a, b, c, d in rows]
    assert exact_terms((p1, q2), (p2, q1, -1), (scalar,)).tolist() == expected
    small = [(a % 1000, b % 1000) for a, b, _, _ in rows]
    x, y = (np.array(column, dtype=np.int64) for column in zip(*small))
    result = exact_terms((x, y, 3), (x, -1))
    assert result.dtype == np.int64 and result.tolist() == [3 * a * b - a for a, b in small]


def test_exact_cumsum_widens_past_int64():
    values = np.array([2**62, 2**62, -5, 2**62], dtype=np.int64)
    assert exact_cumsum(values).tolist() == [2**62, 2**63, 2**63 - 5, 2**63 + 2**62 - 5]
    assert exact_cumsum(np.array([1, 2, 3], dtype=np.uint8)).dtype == np.int64
