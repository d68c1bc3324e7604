"""Caribbean Stud situation classes by pattern, in one pass each: their places, gain sums, spreads.

A class's pattern number is its hand's dense rank x 13 + the rank of its up card (the
key's sixth card): all that a rule a person can follow reads of a class
(`analyzer.games.caribbean_stud.rule_in_words.Patterns`).  These functions read the
table's own columns (dense ranks, keys) and make no per-class array but their result;
numpy's reading of each (the pattern numbers first, `rule_in_words.class_patterns`, 23 MB
on the full deck, then a scatter or a gather) is what the tests compare them with.

Every function raises ValueError for mismatched lengths, keys that are not six cards, or a
dense rank or card out of range.
"""
import numpy as np

from cython_ext._types cimport int32_t, int64_t, uint8_t, uint16_t, N_CARDS, N_RANKS, card_rank
from cython_ext.handeval cimport N_DISTINCT_HANDS

cdef enum:
    SITUATION = 6               # a key: the hand's five cards, then the up card
    UP = 5                      # the up card's column

N_PATTERNS = N_DISTINCT_HANDS * N_RANKS


cdef Py_ssize_t _classes(const uint16_t[:] rank, const uint8_t[:, :] keys) except -1:
    """The number of classes, after their shapes and every dense rank and up card are checked (one pass),
    so that the passes after it read `pattern_of` without a check of their own."""
    if keys.shape[0] != rank.shape[0] or keys.shape[1] != SITUATION:
        raise ValueError(f"{rank.shape[0]} dense ranks and keys of shape ({keys.shape[0]}, {keys.shape[1]}): "
                         f"one key of {SITUATION} cards per rank")
    cdef Py_ssize_t m = rank.shape[0], i, bad = -1
    with nogil:
        for i in range(m):
            if rank[i] >= N_DISTINCT_HANDS or keys[i, UP] >= N_CARDS:
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"class {bad}: dense rank {rank[bad]} (below {N_DISTINCT_HANDS}) or up card "
                         f"{keys[bad, UP]} (below {N_CARDS}) out of range")
    return m


cdef inline Py_ssize_t pattern_of(unsigned int rank, unsigned int up_card) noexcept nogil:
    """The pattern number of a class of this dense rank and up card (both checked by `_classes`)."""
    return rank * N_RANKS + card_rank(up_card)


def pattern_classes(const uint16_t[:] rank, const uint8_t[:, :] keys):
    """Per pattern number (N_PATTERNS of them): (the index of its first class, -1 where it has none; how many
    classes it has), as two int32 arrays.

    >>> import numpy as np
    >>> keys = np.array([[12, 8, 5, 2, 0, 51], [12, 9, 5, 2, 0, 50], [12, 8, 5, 2, 0, 1]], dtype=np.uint8)
    >>> first, size = pattern_classes(np.array([7, 7, 7], dtype=np.uint16), keys)
    >>> np.flatnonzero(first >= 0).tolist(), first[first >= 0].tolist(), size[size > 0].tolist()
    ([91, 103], [2, 0], [1, 2])
    """
    cdef Py_ssize_t m = _classes(rank, keys), i, p
    first_class, classes = np.full(N_PATTERNS, -1, dtype=np.int32), np.zeros(N_PATTERNS, dtype=np.int32)
    cdef int32_t[::1] first = first_class, size = classes
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], keys[i, UP])
            if first[p] < 0:
                first[p] = <int32_t>i
            size[p] += 1
    return first_class, classes


def gain_sums(const uint16_t[:] rank, const uint8_t[:, :] keys, const int64_t[:] gain):
    """Per pattern number, (the sum of -gain over its classes with gain < 0, the sum of gain over those with
    gain > 0), as two int64 arrays of N_PATTERNS.

    Exact only where the caller has proven that no sum leaves int64 (max |gain| x classes fits).

    >>> import numpy as np
    >>> keys = np.array([[12, 8, 5, 2, 0, 51], [12, 9, 5, 2, 0, 50], [12, 8, 5, 2, 0, 1]], dtype=np.uint8)
    >>> raised, folded = gain_sums(np.array([7, 7, 7], dtype=np.uint16), keys, np.array([-4, 3, 5]))
    >>> raised[[91, 103]].tolist(), folded[[91, 103]].tolist()
    ([0, 4], [5, 3])
    """
    cdef Py_ssize_t m = _classes(rank, keys), i, p
    cdef int64_t g
    if gain.shape[0] != m:
        raise ValueError(f"{gain.shape[0]} gains for {m} classes")
    lost_if_raised, lost_if_folded = np.zeros(N_PATTERNS, dtype=np.int64), np.zeros(N_PATTERNS, dtype=np.int64)
    cdef int64_t[::1] raised = lost_if_raised, folded = lost_if_folded
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], keys[i, UP])
            g = gain[i]
            if g > 0:
                folded[p] += g
            else:
                raised[p] -= g
    return lost_if_raised, lost_if_folded


def spread(const uint16_t[:] rank, const uint8_t[:, :] keys, const uint8_t[::1] by_pattern):
    """Per class, by_pattern[its pattern number] (by_pattern: one byte per pattern number, N_PATTERNS of them).

    >>> import numpy as np
    >>> keys = np.array([[12, 8, 5, 2, 0, 51], [12, 9, 5, 2, 0, 50], [12, 8, 5, 2, 0, 1]], dtype=np.uint8)
    >>> by_pattern = np.zeros(N_PATTERNS, dtype=np.uint8)
    >>> by_pattern[103] = 9
    >>> spread(np.array([7, 7, 7], dtype=np.uint16), keys, by_pattern).tolist()
    [9, 9, 0]
    """
    cdef Py_ssize_t m = _classes(rank, keys), i, p
    if by_pattern.shape[0] != N_PATTERNS:
        raise ValueError(f"{by_pattern.shape[0]} values for {N_PATTERNS} pattern numbers")
    out = np.empty(m, dtype=np.uint8)
    cdef uint8_t[::1] values = out
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], keys[i, UP])
            values[i] = by_pattern[p]
    return out


def classes_in(const uint16_t[:] rank, const uint8_t[:, :] keys, const uint8_t[::1] chosen, Py_ssize_t n):
    """The indices (ascending, intp) of the classes whose pattern is chosen (chosen: one byte per pattern
    number, nonzero = chosen); `n`: how many there are (the chosen patterns' sizes, `pattern_classes`), so
    that one pass fills an array of the answer's length.  ValueError when there are not n.

    >>> import numpy as np
    >>> keys = np.array([[12, 8, 5, 2, 0, 51], [12, 9, 5, 2, 0, 50], [12, 8, 5, 2, 0, 1]], dtype=np.uint8)
    >>> chosen = np.zeros(N_PATTERNS, dtype=np.uint8)
    >>> chosen[103] = 1
    >>> classes_in(np.array([7, 7, 7], dtype=np.uint16), keys, chosen, 2).tolist()
    [0, 1]
    """
    cdef Py_ssize_t m = _classes(rank, keys), i, p, found = 0
    if chosen.shape[0] != N_PATTERNS:
        raise ValueError(f"{chosen.shape[0]} flags for {N_PATTERNS} pattern numbers")
    if n < 0 or n > m:
        raise ValueError(f"{n} classes asked for among {m}")
    out = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] index = out
    with nogil:
        for i in range(m):
            p = pattern_of(rank[i], keys[i, UP])
            if chosen[p] != 0:
                if found == n:
                    found += 1             # more than n: stop, and say so below
                    break
                index[found] = i
                found += 1
    if found != n:
        raise ValueError(f"{'more' if found > n else found} classes in the chosen patterns, not {n}")
    return out
