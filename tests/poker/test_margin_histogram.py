"""The margin histogram of the report's figure: np.histogram's bins and placement, exact integer heights."""
import numpy as np
import pytest

from analyzer.poker.decision_table import (MARGIN_BINS, float_margins, margin_bin_sums, margin_edges, margin_histogram,
                                           margin_thresholds)
from cython_ext.group_sums import add_threshold_bins


def table(rng, rows: int, denominator: int, spread: int):
    ev = rng.integers(-spread, spread + 1, rows, dtype=np.int64) - denominator
    ev[rng.random(rows) < 0.2] = -denominator                         # exact ties with folding
    weights = rng.integers(1, 256, rows).astype(np.uint8)
    return ev, weights


def compiled_sums(ev, denominator, weights):
    thresholds = margin_thresholds(int(ev.min()), int(ev.max()), denominator, margin_edges(ev, denominator))
    sums = np.zeros(MARGIN_BINS, dtype=np.int64)
    add_threshold_bins(ev, weights, thresholds, sums[:len(thresholds) + 1])
    return sums


CASES = [(1, 10**6, 5), (2, 10**6, 0), (1000, 97, 500), (50_000, 2_598_960 * 3, 10**8),
         (20_000, 2**62, 2**61), (20_000, 120, 120),                     # values exactly on the edges
         (5_000, 3, 2**62)]                                             # a range wider than half of int64


@pytest.mark.parametrize("rows, denominator, spread", CASES)
def test_compiled_bins_equal_numpy_histogram_and_the_reference(rows, denominator, spread):
    rng = np.random.default_rng(rows + spread)
    ev, weights = table(rng, rows, denominator, spread)
    margins = float_margins(ev, denominator)
    heights, edges = np.histogram(margins, bins=MARGIN_BINS, weights=weights.astype(float))  # exact: small sums
    assert np.array_equal(margin_edges(ev, denominator), edges)
    compiled = compiled_sums(ev, denominator, weights)
    assert compiled.tolist() == [int(h) for h in heights]
    assert compiled.tolist() == margin_bin_sums(margins, weights, edges).tolist()


@pytest.mark.parametrize("rows, denominator, spread", CASES)
def test_margin_histogram_is_the_shares_of_numpy_histogram(rows, denominator, spread):
    rng = np.random.default_rng(rows)
    ev, weights = table(rng, rows, denominator, spread)
    total = int(weights.sum())
    heights, edges = margin_histogram(ev, denominator, weights, total)
    plain, plain_edges = np.histogram(float_margins(ev, denominator), bins=MARGIN_BINS, weights=weights / total)
    assert np.array_equal(edges, plain_edges) and np.allclose(heights, plain, rtol=1e-12, atol=0)
    assert heights.tolist() == (compiled_sums(ev, denominator, weights) / total).tolist()


def test_python_integer_evs_take_the_reference_path():
    ev = np.array([-(2**70), 0, 2**70, 5], dtype=object)
    weights = np.array([1, 2, 3, 4], dtype=np.uint8)
    heights, edges = margin_histogram(ev, 2**69, weights, 10)
    plain, plain_edges = np.histogram(float_margins(ev, 2**69).astype(float), bins=MARGIN_BINS, weights=weights / 10)
    assert np.array_equal(edges, plain_edges) and np.allclose(heights, plain)


def test_empty_table():
    heights, edges = margin_histogram(np.empty(0, dtype=np.int64), 7, np.empty(0, dtype=np.uint8), 1)
    plain, plain_edges = np.histogram(np.empty(0), bins=MARGIN_BINS)
    assert np.array_equal(edges, plain_edges) and not heights.any() and len(heights) == MARGIN_BINS


@pytest.mark.parametrize("seed", range(4))
def test_threshold_bins_equal_searchsorted(seed):
    """The compiled binning against NumPy's: the number of thresholds at or below each value, the thresholds
    spread evenly, unevenly, repeated, or none."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-1000, 1000, 3_000, dtype=np.int64)
    thresholds = [np.linspace(-900, 900, 50).astype(np.int64), np.sort(rng.integers(-2000, 2000, 40)),
                  np.array([5] * 7 + [6] * 3), np.array([], dtype=np.int64), np.array([-5000, 5000])][seed % 4:][:2]
    weights = rng.integers(0, 256, 3_000).astype(np.uint8)
    for t in thresholds:
        out = np.zeros(len(t) + 1, dtype=np.int64)
        add_threshold_bins(values, weights, np.ascontiguousarray(t, dtype=np.int64), out)
        expected = np.zeros(len(t) + 1, dtype=np.int64)
        np.add.at(expected, np.searchsorted(t, values, side="right"), weights.astype(np.int64))
        assert out.tolist() == expected.tolist()


def test_threshold_bins_refuse_mismatched_lengths():
    with pytest.raises(ValueError, match="one length"):
        add_threshold_bins(np.array([5, 50]), np.array([1], dtype=np.uint8), np.array([1]), np.zeros(2, dtype=np.int64))
