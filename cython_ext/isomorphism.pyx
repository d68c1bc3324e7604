"""Canonical suit renaming of card situations (the key every strategy file is indexed by).

Algorithm: per suit, concatenate the 13-bit rank masks of each group (first group
highest); order suits by that signature, descending, and rename them 0, 1, 2, 3 in
that order; then sort each group's cards descending.  Two situations get the same
canonical form exactly when a renaming of suits maps one onto the other.
"""
import numpy as np

from cython_ext._types cimport (card_t, uint8_t, uint64_t, N_SUITS, N_RANKS, add_card, clear_masks, with_suit,
                                sort_descending)

cdef enum:
    MAX_CARDS = 16
    MAX_GROUPS = 4        # a signature holds one N_RANKS-bit mask per group in 64 bits


cdef void suit_renaming(const uint64_t* signature, uint8_t* new_suit) noexcept nogil:
    cdef int order[N_SUITS]
    cdef int i, j, s
    for i in range(N_SUITS):
        order[i] = i
    for i in range(1, N_SUITS):             # insertion sort of the suits by signature, descending, stable
        s = order[i]
        j = i - 1
        while j >= 0 and signature[order[j]] < signature[s]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    for i in range(N_SUITS):
        new_suit[order[i]] = i


cdef void canonicalize(card_t* cards, const int* group_sizes, int n_groups) noexcept nogil:
    cdef uint64_t signature[N_SUITS]
    cdef uint8_t new_suit[N_SUITS]
    cdef int g, i, start
    clear_masks(signature)
    start = 0
    for g in range(n_groups):
        for i in range(N_SUITS):
            signature[i] <<= N_RANKS
        for i in range(start, start + group_sizes[g]):
            add_card(signature, cards[i])
        start += group_sizes[g]
    suit_renaming(signature, new_suit)
    start = 0
    for g in range(n_groups):
        for i in range(start, start + group_sizes[g]):
            cards[i] = with_suit(cards[i], new_suit)
        sort_descending(cards + start, group_sizes[g])
        start += group_sizes[g]


def canonical_keys(const uint8_t[:, ::1] situations, group_sizes):
    """Canonical forms of many situations at once: (n, k) uint8 array in, new array out.

    Each row holds the groups back to back (e.g. 2 hole cards then 3 flop cards with
    group_sizes (2, 3)).  Cards must be 0..51 and distinct within a row (not checked here).
    Raises ValueError unless there are 1 to 4 groups whose sizes add up to the row width.

    Ace-king of hearts with a flop of spades renames hearts to clubs and spades to diamonds
    (card = rank * 4 + suit; 50 = Ah, 46 = Kh, 3 = 2s ...):

    >>> canonical_keys(np.array([[50, 46, 3, 7, 11]], dtype=np.uint8), (2, 3)).tolist()
    [[48, 44, 9, 5, 1]]
    >>> rows = np.array([[50, 46, 3], [49, 45, 0]], dtype=np.uint8)     # the same, suits renamed
    >>> canonical_keys(rows, (2, 1)).tolist()
    [[48, 44, 1], [48, 44, 1]]
    """
    cdef int sizes[MAX_GROUPS]
    cdef int n_groups = len(group_sizes), total = 0, g
    cdef Py_ssize_t row, n = situations.shape[0]
    if not 1 <= n_groups <= MAX_GROUPS:
        raise ValueError(f"1 to {MAX_GROUPS} card groups")
    for g in range(n_groups):
        sizes[g] = group_sizes[g]
        total += sizes[g]
    if total != situations.shape[1] or total > MAX_CARDS or N_RANKS * n_groups > 64:
        raise ValueError("group sizes do not match the situation width")
    result = np.array(situations, dtype=np.uint8, copy=True)
    cdef uint8_t[:, ::1] out = result
    with nogil:
        for row in range(n):
            canonicalize(&out[row, 0], sizes, n_groups)
    return result

