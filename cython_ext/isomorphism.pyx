"""Canonical suit renaming of card situations (the key every strategy file is indexed by).

Algorithm: per suit, concatenate the 13-bit rank masks of each group (first group
highest); order suits by that signature, descending, and rename them 0, 1, 2, 3 in
that order; then sort each group's cards descending.  Two situations get the same
canonical form exactly when a renaming of suits maps one onto the other.
"""
import numpy as np

from cython_ext._types cimport card_t, uint8_t, uint64_t, N_SUITS, N_RANKS

cdef enum:
    MAX_CARDS = 16


cdef void suit_renaming(const uint64_t* signature, uint8_t* new_suit) noexcept nogil:
    cdef int order[4]
    cdef int i, j, s
    for i in range(N_SUITS):
        order[i] = i
    for i in range(1, N_SUITS):             # insertion sort, descending, stable
        s = order[i]
        j = i - 1
        while j >= 0 and signature[order[j]] < signature[s]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    for i in range(N_SUITS):
        new_suit[order[i]] = i


cdef void canonicalize(card_t* cards, const int* group_sizes, int n_groups) noexcept nogil:
    cdef uint64_t signature[4]
    cdef uint8_t new_suit[4]
    cdef int g, i, j, start, card
    cdef card_t tmp
    signature[0] = signature[1] = signature[2] = signature[3] = 0
    start = 0
    for g in range(n_groups):
        for i in range(N_SUITS):
            signature[i] <<= N_RANKS
        for i in range(start, start + group_sizes[g]):
            signature[cards[i] % N_SUITS] |= (<uint64_t>1) << (cards[i] // N_SUITS)
        start += group_sizes[g]
    suit_renaming(signature, new_suit)
    start = 0
    for g in range(n_groups):
        for i in range(start, start + group_sizes[g]):
            card = cards[i]
            cards[i] = (card // N_SUITS) * N_SUITS + new_suit[card % N_SUITS]
        for i in range(start + 1, start + group_sizes[g]):     # insertion sort, descending
            tmp = cards[i]
            j = i - 1
            while j >= start and cards[j] < tmp:
                cards[j + 1] = cards[j]
                j -= 1
            cards[j + 1] = tmp
        start += group_sizes[g]


def canonical_keys(const uint8_t[:, ::1] situations, group_sizes):
    """Canonical forms of many situations at once: (n, k) uint8 array in, new array out.

    Each row holds the groups back to back (e.g. 2 hole cards then 3 flop cards with
    group_sizes (2, 3)).  Cards must be 0..51 and distinct within a row (not checked here).
    """
    cdef int sizes[4]
    cdef int n_groups = len(group_sizes), total = 0, g
    cdef Py_ssize_t row, n = situations.shape[0]
    if not 1 <= n_groups <= 4:
        raise ValueError("1 to 4 card groups")
    for g in range(n_groups):
        sizes[g] = group_sizes[g]
        total += sizes[g]
    if total != situations.shape[1] or total > MAX_CARDS or 13 * n_groups > 64:
        raise ValueError("group sizes do not match the situation width")
    result = np.array(situations, dtype=np.uint8, copy=True)
    cdef uint8_t[:, ::1] out = result
    with nogil:
        for row in range(n):
            canonicalize(&out[row, 0], sizes, n_groups)
    return result

