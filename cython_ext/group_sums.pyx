"""Grouped sums in one pass: the round statistics' deal counts by (side class, category), and weights by bin.

`add_weighted_rows(counts, weights, groups, mask, out, rest)` adds weights[i] x counts[i, :]
to out[groups[i], :] for every row i where mask[i] is set, and weights[i] to rest[groups[i]]
for every other row (a poker round's folded deals), accumulating in int64.  The caller
proves first that no partial sum can leave the int64 range (`analyzer.poker.statistics`
does, from max(weight) x max(count) x rows, and falls back to Python integers otherwise):
with that bound every sum here is exact.  One pass over the rows, no copy of the counts,
no temporary per row: numpy's scatter-add (`np.add.at`) or a sort by group would read the
rows several times.  `add_threshold_bins` sums weights by the bin an integer value falls in
(the report's margin histogram, placed by integer thresholds: no float per row).
"""
import numpy as np

cimport cython
from libc.stdint cimport int16_t, int64_t, uint8_t, uint16_t, uint32_t

cdef enum:
    SKIP_CELLS = 8             # rows of more counts than this are skipped when outside the mask

ctypedef fused counts_t:
    uint8_t
    uint16_t
    uint32_t
    int64_t

ctypedef fused weights_t:
    uint8_t
    int64_t

ctypedef fused groups_t:
    uint8_t
    int64_t


def add_weighted_rows(const counts_t[:, :] counts, const weights_t[:] weights, const groups_t[:] groups,
                      const uint8_t[:] mask, int64_t[:, ::1] out, int64_t[::1] rest=None):
    """out[groups[i], :] += weights[i] * counts[i, :] over the rows i with mask[i] != 0 (mask None: every row),
    and rest[groups[i]] += weights[i] over the other rows (when `rest` is given).

    Exact only where the caller has proven that every partial sum fits int64.  Raises
    ValueError for mismatched lengths or widths, or a group outside 0..len(out)-1 (found
    while summing: `out` and `rest` are then partly summed and must be discarded).

    >>> import numpy as np
    >>> out, rest = np.zeros((2, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    >>> add_weighted_rows(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint32), np.array([1, 2, 3], dtype=np.uint8),
    ...                   np.array([0, 1, 0], dtype=np.uint8), np.array([1, 1, 0], dtype=np.uint8), out, rest)
    >>> out.tolist(), rest.tolist()
    ([[1, 2], [6, 8]], [3, 0])
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], n_groups = out.shape[0]
    cdef Py_ssize_t i, c, bad = -1
    cdef bint every_row = mask is None, with_rest = rest is not None
    cdef int64_t w, g, inside
    if weights.shape[0] != m or groups.shape[0] != m or (not every_row and mask.shape[0] != m):
        raise ValueError("counts, weights, groups and mask need one length")
    if out.shape[1] != cells or (with_rest and rest.shape[0] != n_groups):
        raise ValueError(f"out is {out.shape[0]} x {out.shape[1]} (and rest one per group) for {cells} counts per row")
    with nogil:
        for i in range(m):
            g = <int64_t>groups[i]
            if g < 0 or g >= n_groups:
                bad = i
                break
            w = <int64_t>weights[i]
            inside = 1 if every_row else mask[i] != 0
            if with_rest:
                rest[g] += w * (1 - inside)
            if cells > SKIP_CELLS:             # a wide row is worth a branch
                if not inside:
                    continue
            else:
                w *= inside                    # no branch on the mask: a strategy's mask is hard to predict
            for c in range(cells):
                out[g, c] += w * <int64_t>counts[i, c]
    if bad >= 0:
        raise ValueError(f"row {bad}: group {groups[bad]} is outside 0..{n_groups - 1}")


def move_rows(const counts_t[:, :] counts, const weights_t[:] weights, const groups_t[:] groups,
              const int64_t[:] rows, int sign, int64_t[:, ::1] out, int64_t[::1] rest):
    """Move the listed rows into (sign 1) or out of (sign -1) the mask of sums made by `add_weighted_rows`:
    out[groups[i], :] += sign * weights[i] * counts[i, :] and rest[groups[i]] -= sign * weights[i].

    Exact only where the caller has proven that every partial sum stays in int64 (moving
    rows out first, then in, keeps every partial sum between the two masks' sums).  Raises
    ValueError as `add_weighted_rows` does; after a bad row `out` and `rest` must be discarded.

    >>> import numpy as np
    >>> out, rest = np.array([[1, 2], [6, 8]]), np.array([3, 0])
    >>> move_rows(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint32), np.array([1, 2, 3], dtype=np.uint8),
    ...           np.array([0, 1, 0], dtype=np.uint8), np.array([2]), 1, out, rest)
    >>> out.tolist(), rest.tolist()
    ([[16, 20], [6, 8]], [0, 0])
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], n_groups = out.shape[0]
    cdef Py_ssize_t k, i, c, bad = -1
    cdef int64_t w, g
    if weights.shape[0] != m or groups.shape[0] != m:
        raise ValueError("counts, weights and groups need one length")
    if out.shape[1] != cells or rest.shape[0] != n_groups or sign not in (1, -1):
        raise ValueError(f"out is {out.shape[0]} x {out.shape[1]} (and rest one per group) for {cells} counts per row,"
                         f" sign 1 or -1 (not {sign})")
    with nogil:
        for k in range(rows.shape[0]):
            i = rows[k]
            if i < 0 or i >= m:
                bad = k
                break
            g = <int64_t>groups[i]
            if g < 0 or g >= n_groups:
                bad = k
                break
            w = sign * <int64_t>weights[i]
            rest[g] -= w
            for c in range(cells):
                out[g, c] += w * <int64_t>counts[i, c]
    if bad >= 0:
        raise ValueError(f"listed row {rows[bad]} is outside the table or its group outside 0..{n_groups - 1}")


def add_threshold_bins(const int64_t[:] values, const uint8_t[:] weights, const int64_t[::1] thresholds,
                       int64_t[::1] out):
    """out[b] += weights[i] for every i, b the number of `thresholds` (ascending) at or below values[i]:
    bin 0 below the first threshold, bin len(thresholds) at or past the last; len(out) = len(thresholds) + 1.

    A value's bin is first guessed by its place between the first and last thresholds (the
    exact answer where they are evenly spread) and then moved to the right one.  In int64:
    exact where the caller has proven the total weight fits.  Raises ValueError for
    mismatched lengths.

    >>> import numpy as np
    >>> out = np.zeros(3, dtype=np.int64)
    >>> add_threshold_bins(np.array([-5, 0, 3, 9]), np.array([1, 2, 3, 4], dtype=np.uint8), np.array([0, 9]), out)
    >>> out.tolist()
    [1, 5, 4]
    """
    cdef Py_ssize_t n = values.shape[0], last = thresholds.shape[0], i, k
    cdef int64_t value
    cdef double first, per_bin, guess
    if weights.shape[0] != n or out.shape[0] != last + 1:
        raise ValueError("values and weights need one length, out one more than the thresholds")
    if last == 0:
        for i in range(n):
            out[0] += weights[i]
        return
    first = <double>thresholds[0]
    per_bin = (last - 1) / (<double>thresholds[last - 1] - first) if thresholds[last - 1] > thresholds[0] else 0.0
    with nogil:
        for i in range(n):
            value = values[i]
            guess = 1.0 + (<double>value - first) * per_bin
            k = 0 if guess < 0.0 else (last if guess > <double>last else <Py_ssize_t>guess)
            while k > 0 and value < thresholds[k - 1]:
                k -= 1
            while k < last and value >= thresholds[k]:
                k += 1
            out[k] += weights[i]


def add_rule_sums(const int16_t[:] first, const int16_t[:] second, const uint8_t[:] plays,
                  const weights_t[:] weights, const int64_t[:] values, int64_t[::1] weight_sums,
                  int64_t[::1] value_sums):
    """A basic strategy's sums by rule: for every row i, with f = first[i] (the rule deciding it), p =
    plays[second[i]] (whether the next rule that holds plays) and s = 0, 1, 2 as values[i] (its gain)
    is below, at or above zero, weight_sums[6 f + 3 p + s] += weights[i] and value_sums[...] += values[i].

    Rows in a run of one cell are added up in registers first (sorted tables have long runs).
    Exact only where the caller has proven that every partial sum fits int64.  Raises
    ValueError for mismatched lengths, or a rule outside `plays` or the sums (found while
    summing: the sums are then partly made and must be discarded).

    >>> import numpy as np
    >>> w, v = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    >>> add_rule_sums(np.array([0, 1, 1], dtype=np.int16), np.array([1, 1, 1], dtype=np.int16),
    ...               np.array([0, 1], dtype=np.uint8), np.array([2, 3, 4], dtype=np.uint8), np.array([-5, 0, 7]), w, v)
    >>> w.tolist(), v.tolist()
    ([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3, 4], [0, 0, 0, -5, 0, 0, 0, 0, 0, 0, 0, 7])
    """
    cdef Py_ssize_t n = first.shape[0], rules = plays.shape[0], cells = weight_sums.shape[0], i, bad = -1
    cdef Py_ssize_t cell, run = -1, f, s
    cdef int64_t value, run_weight = 0, run_value = 0
    if second.shape[0] != n or weights.shape[0] != n or values.shape[0] != n or value_sums.shape[0] != cells:
        raise ValueError("first, second, weights and values need one length, and both sums one length")
    with nogil:
        for i in range(n):
            f, s, value = first[i], second[i], values[i]
            if f < 0 or s < 0 or s >= rules or 6 * f + 5 >= cells:
                bad = i
                break
            cell = 6 * f + 3 * (plays[s] != 0) + (value > 0) - (value < 0) + 1
            if cell != run:
                if run >= 0:
                    weight_sums[run] += run_weight
                    value_sums[run] += run_value
                run, run_weight, run_value = cell, 0, 0
            run_weight += <int64_t>weights[i]
            run_value += value
        if run >= 0:
            weight_sums[run] += run_weight
            value_sums[run] += run_value
    if bad >= 0:
        raise ValueError(f"row {bad}: rule {first[bad]} or next rule {second[bad]} is outside the {rules} rules "
                         "or the sums")
