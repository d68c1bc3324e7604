"""Caribbean Stud situation classes by pattern, in one pass each: their places, their pricing, spreads.

A class's pattern number is its hand's dense rank x 13 + the rank of its up card (the
key's sixth card): all that a rule a person can follow reads of a class
(`analyzer.games.caribbean_stud.patterns.Patterns`).  These functions read the
table's dense ranks and the up cards' ranks (one byte a class, made once per table: a pass
reads 17 MB on the full deck, where the keys' column of up cards alone would be 34 MB of
cache lines) and make no per-class array but their result; numpy's reading of each (the
pattern numbers first, `patterns.class_patterns`, 23 MB on the full deck, then a
scatter or a gather) is what the tests compare them with.

Every function raises ValueError for mismatched lengths, or a dense rank or up rank out of
range.
"""
import numpy as np

from cython_ext._types cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, N_OUTCOMES, N_RANKS
from cython_ext.handeval cimport N_DISTINCT_HANDS

N_PATTERNS = N_DISTINCT_HANDS * N_RANKS


cdef Py_ssize_t _classes(const uint16_t[::1] rank, const uint8_t[::1] up_rank) except -1:
    """The number of classes, after their lengths and every dense rank and up rank are checked (one pass),
    so that the passes after it read `pattern_of` without a check of their own."""
    if up_rank.shape[0] != rank.shape[0]:
        raise ValueError(f"{rank.shape[0]} dense ranks and {up_rank.shape[0]} up ranks: one of each per class")
    cdef Py_ssize_t m = rank.shape[0], i, bad = -1
    cdef uint16_t out_of_range = 0
    with nogil:
        for i in range(m):                  # no early exit, in 16 bits: vectorised
            out_of_range |= (rank[i] >= N_DISTINCT_HANDS) | (<uint16_t>up_rank[i] >= N_RANKS)
        if out_of_range:                    # find the first, to say which
            for i in range(m):
                if rank[i] >= N_DISTINCT_HANDS or up_rank[i] >= N_RANKS:
                    bad = i
                    break
    if bad >= 0:
        raise ValueError(f"class {bad}: dense rank {rank[bad]} (below {N_DISTINCT_HANDS}) or up rank "
                         f"{up_rank[bad]} (below {N_RANKS}) out of range")
    return m


cdef int _check_per_pattern(Py_ssize_t n, str what) except -1:
    """Refuse (ValueError) an array of per-pattern values that is not one per pattern number."""
    if n != N_PATTERNS:
        raise ValueError(f"{n} {what} for {N_PATTERNS} pattern numbers")
    return 0


cdef inline Py_ssize_t pattern_of(unsigned int rank, unsigned int up_rank) noexcept nogil:
    """The pattern number of a class of this dense rank and up rank (both checked by `_classes`)."""
    return rank * N_RANKS + up_rank


def pattern_classes(const uint16_t[::1] rank, const uint8_t[::1] up_rank):
    """Per pattern number (N_PATTERNS of them): (the index of its first class, -1 where it has none; how many
    classes it has), as two int32 arrays.

    >>> import numpy as np
    >>> up = np.array([12, 12, 0], dtype=np.uint8)
    >>> first, size = pattern_classes(np.array([7, 7, 7], dtype=np.uint16), up)
    >>> np.flatnonzero(first >= 0).tolist(), first[first >= 0].tolist(), size[size > 0].tolist()
    ([91, 103], [2, 0], [1, 2])
    """
    cdef Py_ssize_t m = _classes(rank, up_rank), i, p
    first_class, classes = np.full(N_PATTERNS, -1, dtype=np.int32), np.zeros(N_PATTERNS, dtype=np.int32)
    cdef int32_t[::1] first = first_class, size = classes
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], up_rank[i])
            if first[p] < 0:
                first[p] = <int32_t>i
            size[p] += 1
    return first_class, classes


def price_classes(const uint16_t[::1] rank, const uint8_t[::1] up_rank, const uint32_t[:, :] counts,
                  const uint8_t[:] category, const uint8_t[:] weight, const int64_t[:, ::1] nets,
                  int64_t completions, int64_t denominator):
    """Caribbean Stud's pricing in one pass: per class, the EV numerator of raising, sum over outcomes of
    counts x nets[its category] (int64, m), and the optimal decisions, where raising beats folding (EV >
    -denominator) and where they tie (bool, m each); per pattern number, the weight and the gain, weight x
    (EV + denominator), of its classes whose gain is < 0, = 0, > 0 (two (N_PATTERNS, 3) int64 arrays, the
    gains' middle column 0).  No per-class gain is kept.

    Every class's counts must add up to `completions` (ValueError otherwise): so no count exceeds it
    and |EV| <= max |net| x completions.  Exact only where the caller has proven from that bound that
    (max |net| x completions + denominator) x max weight x classes fits int64 (every EV, gain and sum
    then does).

    >>> import numpy as np
    >>> up = np.array([12, 12, 0], dtype=np.uint8)
    >>> counts = np.array([[1, 0, 0, 1], [0, 2, 0, 0], [0, 0, 0, 2]], dtype=np.uint32)
    >>> nets = np.array([[1, 3, 0, -3]] * 10, dtype=np.int64)
    >>> ev, raise_, tie, weights, gains = price_classes(np.array([7, 7, 7], dtype=np.uint16), up, counts,
    ...                                                 np.zeros(3, dtype=np.uint8),
    ...                                                 np.array([1, 2, 3], dtype=np.uint8), nets, 2, 2)
    >>> ev.tolist(), raise_.tolist(), tie.tolist()
    ([-2, 6, -6], [False, True, False], [True, False, False])
    >>> weights[[91, 103]].tolist(), gains[[91, 103]].tolist()
    ([[3, 0, 0], [0, 1, 2]], [[-12, 0, 0], [0, 0, 16]])
    """
    cdef Py_ssize_t m = _classes(rank, up_rank), i, p, o, bad = -1
    cdef Py_ssize_t n_categories = nets.shape[0]
    cdef int64_t ev, margin, gain
    cdef uint64_t total
    cdef int sign
    if counts.shape[0] != m or category.shape[0] != m or weight.shape[0] != m:
        raise ValueError(f"{counts.shape[0]} count rows, {category.shape[0]} categories and {weight.shape[0]} "
                         f"weights for {m} classes")
    if counts.shape[1] != N_OUTCOMES or nets.shape[1] != N_OUTCOMES:
        raise ValueError(f"counts of {counts.shape[1]} and nets of {nets.shape[1]} outcomes, not {N_OUTCOMES}")
    ev_raise, raises, ties = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.uint8), np.empty(m, dtype=np.uint8)
    weight_sums, gain_sums = np.zeros((N_PATTERNS, 3), dtype=np.int64), np.zeros((N_PATTERNS, 3), dtype=np.int64)
    cdef int64_t[::1] out = ev_raise
    cdef uint8_t[::1] raise_ = raises, tie = ties
    cdef int64_t[:, ::1] weights_by_sign = weight_sums, gains_by_sign = gain_sums
    with nogil:
        for i in range(m):
            total = 0
            for o in range(N_OUTCOMES):
                total += counts[i, o]
            if category[i] >= n_categories or total != <uint64_t>completions:
                bad = i
                break
            ev = 0
            for o in range(N_OUTCOMES):
                ev += <int64_t>counts[i, o] * nets[category[i], o]
            out[i] = ev
            margin = ev + denominator                  # EV of raising minus EV of folding, per ANTE numerator
            raise_[i] = margin > 0
            tie[i] = margin == 0
            gain = margin * weight[i]
            sign = 0 if gain < 0 else (1 if gain == 0 else 2)
            p = pattern_of(rank[i], up_rank[i])
            weights_by_sign[p, sign] += weight[i]
            gains_by_sign[p, sign] += gain
    if bad >= 0:
        raise ValueError(f"class {bad}: category {category[bad]} (below {n_categories}), or counts adding up "
                         f"to {sum(counts[bad, o] for o in range(N_OUTCOMES))}, not {completions}")
    return ev_raise, raises.view(bool), ties.view(bool), weight_sums, gain_sums


def spread(const uint16_t[::1] rank, const uint8_t[::1] up_rank, const uint8_t[::1] by_pattern):
    """Per class, by_pattern[its pattern number] (by_pattern: one byte per pattern number, N_PATTERNS of them).

    >>> import numpy as np
    >>> up = np.array([12, 12, 0], dtype=np.uint8)
    >>> by_pattern = np.zeros(N_PATTERNS, dtype=np.uint8)
    >>> by_pattern[103] = 9
    >>> spread(np.array([7, 7, 7], dtype=np.uint16), up, by_pattern).tolist()
    [9, 9, 0]
    """
    cdef Py_ssize_t m = _classes(rank, up_rank), i, p
    _check_per_pattern(by_pattern.shape[0], "values")
    out = np.empty(m, dtype=np.uint8)
    cdef uint8_t[::1] values = out
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], up_rank[i])
            values[i] = by_pattern[p]
    return out


def classes_in(const uint16_t[::1] rank, const uint8_t[::1] up_rank, const uint8_t[::1] chosen, Py_ssize_t n):
    """The indices (ascending, intp) of the classes whose pattern is chosen (chosen: one byte per pattern
    number, nonzero = chosen); `n`: how many there are (the chosen patterns' sizes, `pattern_classes`), so
    that one pass fills an array of the answer's length.  ValueError when there are not n.

    >>> import numpy as np
    >>> up = np.array([12, 12, 0], dtype=np.uint8)
    >>> chosen = np.zeros(N_PATTERNS, dtype=np.uint8)
    >>> chosen[103] = 1
    >>> classes_in(np.array([7, 7, 7], dtype=np.uint16), up, chosen, 2).tolist()
    [0, 1]
    """
    cdef Py_ssize_t m = _classes(rank, up_rank), i, p, found = 0
    _check_per_pattern(chosen.shape[0], "flags")
    if n < 0 or n > m:
        raise ValueError(f"{n} classes asked for among {m}")
    out = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] index = out
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], up_rank[i])
            if chosen[p] != 0:
                if found == n:
                    found += 1             # more than n: stop, and say so below
                    break
                index[found] = i
                found += 1
    if found != n:
        raise ValueError(f"{'more' if found > n else found} classes in the chosen patterns, not {n}")
    return out
