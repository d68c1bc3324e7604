"""Grouped sums of weighted count rows in one pass: the round statistics' deal counts by (side class, category).

`add_weighted_rows(counts, weights, groups, mask, out)` adds weights[i] x counts[i, :] to
out[groups[i], :] for every row i where mask[i] is set, accumulating in int64.  The caller
proves first that no partial sum can leave the int64 range (`analyzer.poker.statistics`
does, from max(weight) x max(count) x rows, and falls back to Python integers otherwise):
with that bound every sum here is exact.  One pass over the rows, no copy of the counts,
no temporary per row: numpy's scatter-add (`np.add.at`) or a sort by group would read the
rows several times.
"""
import numpy as np

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t

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
                      const uint8_t[:] mask, int64_t[:, ::1] out):
    """out[groups[i], :] += weights[i] * counts[i, :] over the rows i with mask[i] != 0 (mask None: every row).

    Exact only where the caller has proven that every partial sum fits int64.  Raises
    ValueError for mismatched lengths or widths, or a group outside 0..len(out)-1.

    >>> import numpy as np
    >>> out = np.zeros((2, 2), dtype=np.int64)
    >>> add_weighted_rows(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint32), np.array([1, 2, 3], dtype=np.uint8),
    ...                   np.array([0, 1, 0], dtype=np.uint8), np.array([1, 1, 0], dtype=np.uint8), out)
    >>> out.tolist()
    [[1, 2], [6, 8]]
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], n_groups = out.shape[0]
    cdef Py_ssize_t i, c, bad = -1
    cdef bint every_row = mask is None
    cdef int64_t w
    cdef int64_t g
    if weights.shape[0] != m or groups.shape[0] != m or (not every_row and mask.shape[0] != m):
        raise ValueError("counts, weights, groups and mask need one length")
    if out.shape[1] != cells:
        raise ValueError(f"out has {out.shape[1]} columns for {cells} counts per row")
    with nogil:
        for i in range(m):
            if not every_row and not mask[i]:
                continue
            g = <int64_t>groups[i]
            if g < 0 or g >= n_groups:
                bad = i
                break
            w = <int64_t>weights[i]
            for c in range(cells):
                out[g, c] += w * <int64_t>counts[i, c]
    if bad >= 0:
        raise ValueError(f"row {bad}: group {groups[bad]} is outside 0..{n_groups - 1}")
