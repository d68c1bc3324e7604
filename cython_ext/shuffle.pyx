"""The first cards of shuffled decks, from one random sort key per card (the Monte Carlo's dealing).

A deck is shuffled by ordering its cards by independent uniform keys in [0, 1); only the
first k cards of each round are dealt, so a partial selection suffices.  A row's keys
below a bound that at least k of them pass all but always are its candidates, gathered
without a branch; the k smallest candidates are kept in order by insertion, and their
cards are the ones dealt.  A row with fewer than k candidates has every card a
candidate.  Equal keys (which uniform doubles make all but impossible) keep the lower
deck position first, as a stable sort would.
"""
from libc.math cimport sqrt

import numpy as np

from cython_ext._types cimport uint8_t

cdef enum:
    MAX_CARDS = 64            # cards in a deck at most (a deck holds at most 52)


cdef inline void keep_smallest(const double* key, const Py_ssize_t* position, Py_ssize_t m, Py_ssize_t k,
                               double* best_key, Py_ssize_t* best_position) noexcept nogil:
    """The k smallest of m >= k keys (and their positions), ascending, by insertion; ties: the earlier first."""
    cdef Py_ssize_t kept = 0, i, j
    for i in range(m):
        if kept == k and key[i] >= best_key[k - 1]:
            continue
        j = kept if kept < k else k - 1
        while j > 0 and best_key[j - 1] > key[i]:
            best_key[j] = best_key[j - 1]
            best_position[j] = best_position[j - 1]
            j -= 1
        best_key[j] = key[i]
        best_position[j] = position[i]
        if kept < k:
            kept += 1


cdef inline void deal_row(const double* keys, Py_ssize_t n, Py_ssize_t k, double bound, const uint8_t* deck,
                          uint8_t* out) noexcept nogil:
    cdef double key[MAX_CARDS]
    cdef Py_ssize_t position[MAX_CARDS]
    cdef double best_key[MAX_CARDS]
    cdef Py_ssize_t best_position[MAX_CARDS]
    cdef Py_ssize_t m = 0, i
    for i in range(n):                                  # the candidates, in deck order, without a branch
        key[m] = keys[i]
        position[m] = i
        m += keys[i] < bound
    if m < k:                                           # too few: every card is one
        for i in range(n):
            key[i] = keys[i]
            position[i] = i
        m = n
    keep_smallest(key, position, m, k, best_key, best_position)
    for i in range(k):
        out[i] = deck[best_position[i]]


def first_cards(const double[:, ::1] keys, const uint8_t[::1] deck, uint8_t[:, ::1] out):
    """out[r] = the cards of deck in the order of row r's keys, the first out.shape[1] of them.

    keys: (rounds, len(deck)), each in [0, 1); out: (rounds, k), k <= len(deck).  Raises
    ValueError on mismatched shapes.

    >>> keys = np.array([[0.5, 0.1, 0.9, 0.3]])
    >>> out = np.empty((1, 3), dtype=np.uint8)
    >>> first_cards(keys, np.array([10, 11, 12, 13], dtype=np.uint8), out); out.tolist()
    [[11, 13, 10]]
    """
    cdef Py_ssize_t rounds = keys.shape[0], n = keys.shape[1], k = out.shape[1], r
    cdef double bound
    if out.shape[0] != rounds or deck.shape[0] != n or k > n or n > MAX_CARDS:
        raise ValueError("first_cards: keys, deck and out do not match")
    if k == 0 or rounds == 0:
        return None
    # k + 3 sqrt(k) candidates expected; fewer than k in 0.17% of rows for 9 of 52 cards (then the whole row)
    bound = min(1.0, (k + 3 * sqrt(<double>k)) / n)
    with nogil:
        for r in range(rounds):
            deal_row(&keys[r, 0], n, k, bound, &deck[0], &out[r, 0])
    return None
