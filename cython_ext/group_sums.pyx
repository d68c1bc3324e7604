"""Grouped sums in one pass: the round statistics' deal counts by (side class, category), and weights by bin.

`add_weighted_rows(counts, weights, groups, mask, out, rest)` adds weights[i] x counts[i, :]
to out[groups[i], :] for every row i where mask[i] is set, and weights[i] to rest[groups[i]]
for every other row (a poker round's folded deals), accumulating in int64.  The caller
proves first that no partial sum can leave the int64 range (`analyzer.poker.statistics`
does, from max(weight) x max(count) x rows, and falls back to Python integers otherwise):
with that bound every sum here is exact.  One pass over the rows, no copy of the counts,
no temporary per row: numpy's scatter-add (`np.add.at`) or a sort by group would read the
rows several times.  `add_threshold_bins` sums weights by the bin an integer value falls in
(the report's margin histogram, placed by integer thresholds: no float per row);
`add_rule_sums` sums a rule list's weights and gains by deciding rule (the rule costs);
`move_changed_rows` moves the rows where two masks differ (the round statistics' nearest
mask); `are_joint_classes` checks in one pass that kept groups are those of given side
classes and categories (the round statistics' cache looks its sums up by it);
`decision_sums` totals a decision table's rows (the verification's check of a strategy file).
"""
import numpy as np

cimport cython
from libc.stdint cimport int16_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    SKIP_CELLS = 8             # rows of more counts than this are skipped when outside the mask (else summed
                               # a block of columns at a time)
    COLUMNS = 4                # the columns of one block: one local sum each
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

    Rows of at most SKIP_CELLS counts are summed a block of COLUMNS columns at a time, each
    run of consecutive rows of one group in registers (a table in key order has long runs of
    one group; the sums then wait on no store); wider rows in one pass, row by row.  Exact
    only where the caller has proven that every partial sum fits int64.  Raises ValueError
    for mismatched lengths or widths, or a group outside 0..len(out)-1 (found while summing:
    `out` and `rest` are then partly summed and must be discarded).

    >>> import numpy as np
    >>> out, rest = np.zeros((2, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    >>> add_weighted_rows(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint32), np.array([1, 2, 3], dtype=np.uint8),
    ...                   np.array([0, 1, 0], dtype=np.uint8), np.array([1, 1, 0], dtype=np.uint8), out, rest)
    >>> out.tolist(), rest.tolist()
    ([[1, 2], [6, 8]], [3, 0])
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], n_groups = out.shape[0]
    cdef Py_ssize_t i, c, first = 0, bad = -1
    cdef bint every_row = mask is None, with_rest = rest is not None
    cdef int64_t w, g
    if weights.shape[0] != m or groups.shape[0] != m or (not every_row and mask.shape[0] != m):
        raise ValueError("counts, weights, groups and mask need one length")
    if out.shape[1] != cells or (with_rest and rest.shape[0] != n_groups):
        raise ValueError(f"out is {out.shape[0]} x {out.shape[1]} (and rest one per group) for {cells} counts per row")
    with nogil:
        if cells <= SKIP_CELLS:
            while bad < 0 and (first < cells or first == 0):        # the first block also sums `rest`
                bad = _column_block(counts, weights, groups, mask, every_row, first,
                                    cells - first if cells - first < COLUMNS else COLUMNS, with_rest and first == 0,
                                    out, rest)
                first += COLUMNS
        else:
            for i in range(m):
                g = <int64_t>groups[i]
                if g < 0 or g >= n_groups:
                    bad = i
                    break
                w = <int64_t>weights[i]
                if not (every_row or mask[i]):         # a wide row is worth a branch
                    if with_rest:
                        rest[g] += w
                    continue
                for c in range(cells):
                    out[g, c] += w * <int64_t>counts[i, c]
    if bad >= 0:
        raise ValueError(f"row {bad}: group {groups[bad]} is outside 0..{n_groups - 1}")


cdef Py_ssize_t _column_block(const counts_t[:, :] counts, const weights_t[:] weights, const groups_t[:] groups,
                              const uint8_t[:] mask, bint every_row, Py_ssize_t first, Py_ssize_t width,
                              bint add_rest, int64_t[:, ::1] out, int64_t[::1] rest) noexcept nogil:
    """`add_weighted_rows` of the columns first..first+width-1 (width 0..COLUMNS), and of `rest` when
    `add_rest`: a run of rows of one group is summed in locals and added when the group changes.
    Returns the first row whose group is out of range (checked as each run starts), else -1."""
    cdef Py_ssize_t m = counts.shape[0], n_groups = out.shape[0], i
    cdef int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, outside = 0, w, g, group
    if m == 0:
        return -1
    group = <int64_t>groups[0]
    if group < 0 or group >= n_groups:
        return 0
    for i in range(m):
        g = <int64_t>groups[i]
        if g != group:
            if g < 0 or g >= n_groups:
                return i
            _add_run(out, rest, group, first, width, s0, s1, s2, s3, outside, add_rest)
            s0 = s1 = s2 = s3 = outside = 0
            group = g
        w = <int64_t>weights[i] * (every_row or mask[i] != 0)    # no branch on the mask: hard to predict
        outside += <int64_t>weights[i] - w
        if width > 0:
            s0 += w * <int64_t>counts[i, first]
        if width > 1:
            s1 += w * <int64_t>counts[i, first + 1]
        if width > 2:
            s2 += w * <int64_t>counts[i, first + 2]
        if width > 3:
            s3 += w * <int64_t>counts[i, first + 3]
    _add_run(out, rest, group, first, width, s0, s1, s2, s3, outside, add_rest)
    return -1


cdef inline void _add_run(int64_t[:, ::1] out, int64_t[::1] rest, int64_t group, Py_ssize_t first, Py_ssize_t width,
                          int64_t s0, int64_t s1, int64_t s2, int64_t s3, int64_t outside,
                          bint add_rest) noexcept nogil:
    if width > 0:
        out[group, first] += s0
    if width > 1:
        out[group, first + 1] += s1
    if width > 2:
        out[group, first + 2] += s2
    if width > 3:
        out[group, first + 3] += s3
    if add_rest:
        rest[group] += outside


def move_changed_rows(const counts_t[:, :] counts, const weights_t[:] weights, const groups_t[:] groups,
                      const uint8_t[::1] was, const uint8_t[::1] now, int64_t[:, ::1] out, int64_t[::1] rest):
    """Turn the sums `add_weighted_rows` made under the mask packed in `was` into those under `now`: the rows
    leaving the mask are moved out of `out` (into `rest`) first, then the rows entering it are moved in.
    Returns how many rows were moved.

    `was`, `now`: masks of the rows as `np.packbits` packs them (row 8k + j is bit 7 - j of byte
    k; the bits past the last row 0).  They are compared a word (64 rows) at a time, and only
    the rows of words that differ are looked into.
    Exact only where the caller has proven that every partial sum stays in int64 (moving rows
    out first, then in, keeps every partial sum between the two masks' sums).  Raises
    ValueError as `add_weighted_rows` does (or for masks not of the table's length, or a set
    bit past its last row); after a bad row `out` and `rest` must be discarded.

    >>> import numpy as np
    >>> out, rest = np.array([[1, 2], [6, 8]]), np.array([3, 0])           # rows 0 and 1 in the mask, row 2 out
    >>> counts, weights = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint32), np.array([1, 2, 3], dtype=np.uint8)
    >>> move_changed_rows(counts, weights, np.array([0, 1, 0], dtype=np.uint8), np.packbits([1, 1, 0]),
    ...                   np.packbits([0, 1, 1]), out, rest)
    2
    >>> out.tolist(), rest.tolist()
    ([[15, 18], [6, 8]], [1, 0])
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], n_groups = out.shape[0]
    cdef Py_ssize_t bytes_ = was.shape[0], k, stop, j, i, c, bad = -1, moved = 0
    cdef int64_t w, g, sign
    cdef uint64_t x, y
    cdef uint8_t changed
    cdef int direction
    if weights.shape[0] != m or groups.shape[0] != m or was.shape[0] != (m + 7) // 8 or now.shape[0] != was.shape[0]:
        raise ValueError("counts, weights and groups need one length, and the masks one bit per row of it")
    if out.shape[1] != cells or rest.shape[0] != n_groups:
        raise ValueError(f"out is {out.shape[0]} x {out.shape[1]} (and rest one per group) for {cells} counts per row")
    with nogil:
        for direction in range(2):                 # 0: the rows leaving the mask, 1: the rows entering it
            sign = -1 if direction == 0 else 1
            k = 0
            while k < bytes_ and bad < 0:
                if k + 8 <= bytes_:                # a word of 64 rows at a time: most are unchanged
                    memcpy(&x, &was[k], 8)
                    memcpy(&y, &now[k], 8)
                    if not ((x & ~y) if direction == 0 else (y & ~x)):
                        k += 8
                        continue
                    stop = k + 8
                else:
                    stop = bytes_
                while k < stop and bad < 0:
                    changed = (was[k] & ~now[k]) if direction == 0 else (now[k] & ~was[k])
                    for j in range(8):
                        if not (changed >> (7 - j)) & 1:
                            continue
                        i = 8 * k + j
                        if i >= m:
                            bad = i
                            break
                        g = <int64_t>groups[i]
                        if g < 0 or g >= n_groups:
                            bad = i
                            break
                        w = sign * <int64_t>weights[i]
                        rest[g] -= w
                        for c in range(cells):
                            out[g, c] += w * <int64_t>counts[i, c]
                        moved += 1
                    k += 1
    if bad >= m:
        raise ValueError(f"a mask sets bit {bad}, past the last of the table's {m} rows")
    if bad >= 0:
        raise ValueError(f"row {bad}: group {groups[bad]} is outside 0..{n_groups - 1}")
    return moved


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


def differing_bits(const uint8_t[::1] a, const uint8_t[::1] b):
    """How many bits differ between two packed masks of one length (a word at a time).

    >>> import numpy as np
    >>> differing_bits(np.packbits([1, 0, 1, 1, 0]), np.packbits([0, 0, 1, 0, 0]))
    2
    """
    cdef Py_ssize_t n = a.shape[0], k, words
    cdef uint64_t x, y, total = 0
    if b.shape[0] != n:
        raise ValueError(f"masks of {n} and {b.shape[0]} bytes")
    words = n // 8
    with nogil:
        for k in range(words):
            memcpy(&x, &a[8 * k], 8)
            memcpy(&y, &b[8 * k], 8)
            total += __builtin_popcountll(x ^ y)
        for k in range(8 * words, n):
            total += __builtin_popcountll(a[k] ^ b[k])
    return total


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


def decision_sums(const weights_t[:] weights, const int64_t[:] play, int64_t fold, const uint8_t[:] decisions):
    """(weight, best, play, played_weight, flipped) over a decision table's rows, in one pass, int64: the sums
    of weight, weight x max(play, fold), weight x play and of the weight where play > fold, and how many
    rows' decision code is not the one their EVs give (1 where play > fold, 2 (either) where equal, else 0).
    The caller proves first that max weight x max(|play|, |fold|) x rows fits int64
    (`analyzer.poker.checks.decision_totals`, whose NumPy chunks are the reference).

    >>> import numpy as np
    >>> decision_sums(np.array([2, 3, 1], dtype=np.uint8), np.array([5, -7, -4]), -4, np.array([1, 1, 2], dtype=np.uint8))
    (6, -6, -15, 2, 1)
    """
    cdef Py_ssize_t m = play.shape[0], i
    if weights.shape[0] != m or decisions.shape[0] != m:
        raise ValueError(f"{weights.shape[0]} weights, {m} EVs and {decisions.shape[0]} decisions do not agree")
    cdef int64_t weight = 0, best = 0, played = 0, played_weight = 0, w, p, plays, ties
    cdef Py_ssize_t flipped = 0
    with nogil:
        for i in range(m):                # no branch: whether a row plays is as likely as not
            w, p = <int64_t>weights[i], play[i]
            plays, ties = p > fold, p == fold
            weight += w
            played += w * p
            best += w * (plays * p + (1 - plays) * fold)
            played_weight += w * plays
            flipped += decisions[i] != plays + 2 * ties
    return weight, best, played, played_weight, flipped
