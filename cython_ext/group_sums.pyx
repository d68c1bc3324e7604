"""Grouped sums of weighted count rows in one pass: the round statistics' deal counts by (side class, category).

`add_weighted_rows(counts, weights, groups, mask, out, rest)` adds weights[i] x counts[i, :]
to out[groups[i], :] for every row i where mask[i] is set, and weights[i] to rest[groups[i]]
for every other row (a poker round's folded deals), accumulating in int64.  The caller
proves first that no partial sum can leave the int64 range (`analyzer.poker.statistics`
does, from max(weight) x max(count) x rows, and falls back to Python integers otherwise):
with that bound every sum here is exact.  One pass over the rows, no copy of the counts,
no temporary per row: numpy's scatter-add (`np.add.at`) or a sort by group would read the
rows several times.  `are_joint_classes` checks in one pass that kept groups are those of
given side classes and categories (the round statistics' cache looks its sums up by it).
"""
import numpy as np

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    SKIP_CELLS = 8             # rows of more counts than this are skipped when outside the mask
    CHECK_BLOCK = 4096         # rows checked between two looks at whether one differed

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


ctypedef fused side_t:
    uint8_t
    int64_t

ctypedef fused category_t:
    uint8_t
    int64_t


def are_joint_classes(const groups_t[::1] groups, const side_t[::1] side, Py_ssize_t n_side,
                      const category_t[::1] category, Py_ssize_t n_categories):
    """Whether groups[i] == side[i] x n_categories + category[i] with side[i] in 0..n_side-1 and category[i] in
    0..n_categories-1 for every row: then `groups` were made of exactly these classes (the pair of a group is
    unique), and the grouped sums kept with them are theirs.  One pass (a block of rows at a time, without a
    branch inside the block), no temporary arrays.

    >>> import numpy as np
    >>> side, category = np.array([0, 2], dtype=np.uint8), np.array([4, 9], dtype=np.uint8)
    >>> are_joint_classes(np.array([4, 29], dtype=np.uint8), side, 3, category, 10)
    True
    >>> are_joint_classes(np.array([4, 29], dtype=np.uint8), side, 2, category, 10)      # side class 2 of 0..1
    False
    """
    cdef Py_ssize_t m = groups.shape[0], start, stop, i
    cdef uint64_t s, c, differ = 0
    cdef uint16_t s16, c16, differ16, n_side16 = <uint16_t>n_side, n16 = <uint16_t>n_categories
    cdef bint narrow = n_side <= 256 and n_categories <= 256      # then every value below fits 16 bits
    if side.shape[0] != m or category.shape[0] != m:
        return False
    with nogil:
        start = 0
        while start < m and not differ:
            stop = start + CHECK_BLOCK if start + CHECK_BLOCK < m else m
            if groups_t is uint8_t and side_t is uint8_t and category_t is uint8_t and narrow:
                differ16 = 0
                for i in range(start, stop):       # in 16 bits: vectorised
                    s16, c16 = side[i], category[i]
                    differ16 |= (s16 >= n_side16) | (c16 >= n16) | (<uint16_t>groups[i] != s16 * n16 + c16)
                differ = differ16
            else:
                for i in range(start, stop):
                    s, c = <uint64_t><int64_t>side[i], <uint64_t><int64_t>category[i]    # a negative one: huge
                    differ |= ((s >= <uint64_t>n_side) | (c >= <uint64_t>n_categories)
                               | (<uint64_t><int64_t>groups[i] != s * <uint64_t>n_categories + c))
            start = stop
    return differ == 0
