"""Exact poker hand evaluator for 5 to 7 cards (bit-mask method, no big tables).

Algorithm: with one 13-bit rank mask per suit, a flush is a suit holding five or
more ranks; ranks held two, three and four times fall out of ANDs between the
suit masks; straights come from an 8,192-entry table of the highest five-in-a-row
in a rank mask.  The value packs the category above a payload of rank masks and
ranks whose integer order is the kicker order, so values compare directly.
"""
import bisect

import numpy as np

from libc.stdint cimport int8_t, uint32_t

from cython_ext._types cimport count_t, ACE, N_RANKS, N_SUITS, HIGH_CARD, ONE_PAIR, TWO_PAIR, \
    THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

cdef enum:
    N_MASKS = 8192            # 2 ** N_RANKS
    VALUE_SPACE = 2097152     # 2 ** 21: every handval_t is below this

cdef int8_t STRAIGHT_TOP[N_MASKS]     # top rank of the best straight in a mask, -1 if none
cdef uint16_t DENSE[VALUE_SPACE]      # hand value -> dense rank


cdef inline int high_rank(uint32_t mask) noexcept nogil:
    return 31 - __builtin_clz(mask)


cdef inline uint32_t keep_top(uint32_t mask, int n) noexcept nogil:
    """The mask with only its n highest ranks kept."""
    cdef int extra = __builtin_popcount(mask) - n
    while extra > 0:
        mask &= mask - 1          # clears the lowest rank
        extra -= 1
    return mask


cdef inline handval_t make_value(int category, uint32_t payload) noexcept nogil:
    return (<handval_t>category << CATEGORY_SHIFT) | payload


cdef handval_t eval_masks(rankmask_t c, rankmask_t d, rankmask_t h, rankmask_t s) noexcept nogil:
    cdef uint32_t suits[4]
    cdef uint32_t any_, two, three, four, pairs, rest, top_pairs
    cdef int i, top, trips_rank
    suits[0] = c
    suits[1] = d
    suits[2] = h
    suits[3] = s
    for i in range(N_SUITS):
        if __builtin_popcount(suits[i]) >= 5:
            # With seven cards a flush excludes quads and full houses.
            top = STRAIGHT_TOP[suits[i]]
            if top == ACE:
                return make_value(ROYAL_FLUSH, <uint32_t>top)
            if top >= 0:
                return make_value(STRAIGHT_FLUSH, <uint32_t>top)
            return make_value(FLUSH, keep_top(suits[i], 5))
    any_ = c | d | h | s
    four = c & d & h & s
    if four:
        return make_value(FOUR_OF_A_KIND,
                          (<uint32_t>high_rank(four) << 4) | <uint32_t>high_rank(any_ & ~four))
    two = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    three = (c & d & (h | s)) | (h & s & (c | d))
    pairs = two & ~three
    if three:
        trips_rank = high_rank(three)
        rest = (three & ~(1u << trips_rank)) | pairs
        if rest:
            return make_value(FULL_HOUSE, (<uint32_t>trips_rank << 4) | <uint32_t>high_rank(rest))
    top = STRAIGHT_TOP[any_]
    if top >= 0:
        return make_value(STRAIGHT, <uint32_t>top)
    if three:
        return make_value(THREE_OF_A_KIND,
                          (<uint32_t>trips_rank << N_RANKS) | keep_top(any_ & ~three, 2))
    if pairs:
        if __builtin_popcount(pairs) >= 2:
            top_pairs = keep_top(pairs, 2)
            return make_value(TWO_PAIR, (top_pairs << 4) | <uint32_t>high_rank(any_ & ~top_pairs))
        return make_value(ONE_PAIR, (<uint32_t>high_rank(pairs) << N_RANKS) | keep_top(any_ & ~pairs, 3))
    return make_value(HIGH_CARD, keep_top(any_, 5))


cdef handval_t eval_cards(const card_t* cards, int n) noexcept nogil:
    cdef rankmask_t masks[4]
    cdef int i
    masks[0] = 0
    masks[1] = 0
    masks[2] = 0
    masks[3] = 0
    for i in range(n):
        masks[cards[i] % N_SUITS] |= <rankmask_t>(1 << (cards[i] // N_SUITS))
    return eval_masks(masks[0], masks[1], masks[2], masks[3])


cdef uint16_t dense_rank(handval_t value) noexcept nogil:
    return DENSE[value]


cdef void build_straight_table() noexcept nogil:
    cdef int mask, top
    cdef uint32_t five
    for mask in range(N_MASKS):
        STRAIGHT_TOP[mask] = -1
        for top in range(ACE, 3, -1):
            five = 0x1F << (top - 4)
            if (mask & five) == five:
                STRAIGHT_TOP[mask] = top
                break
        if STRAIGHT_TOP[mask] < 0 and (mask & 0x100F) == 0x100F:   # A-2-3-4-5, the wheel
            STRAIGHT_TOP[mask] = 3


cdef int build_dense_table() except -1:
    """Rank every distinct 5-card value: all rank multisets unsuited, plus all flushes."""
    cdef int a, b, cc, dd, e
    cdef rankmask_t m[4]
    cdef handval_t v
    values = set()
    for a in range(N_RANKS):
        for b in range(a, N_RANKS):
            for cc in range(b, N_RANKS):
                for dd in range(cc, N_RANKS):
                    for e in range(dd, N_RANKS):
                        if a == e:
                            continue       # five of one rank cannot be dealt
                        ranks = (a, b, cc, dd, e)
                        m[0] = m[1] = m[2] = m[3] = 0
                        for i, r in enumerate(ranks):
                            # spread equal ranks over suits, never five in one suit
                            j = i % N_SUITS
                            while m[j] & (1 << r):
                                j = (j + 1) % N_SUITS
                            m[j] |= 1 << r
                        values.add(eval_masks(m[0], m[1], m[2], m[3]))
                        if len(set(ranks)) == 5:
                            mask = sum(1 << r for r in ranks)
                            values.add(eval_masks(mask, 0, 0, 0))
    ordered = sorted(values)
    if len(ordered) != N_DISTINCT_HANDS:
        raise AssertionError(f"hand evaluator found {len(ordered)} distinct hands, expected 7462")
    for i, v in enumerate(ordered):
        DENSE[v] = i
    ORDERED_VALUES.extend(ordered)
    return 0


ORDERED_VALUES = []      # every distinct 5-card hand value, ascending (index = dense rank)


build_straight_table()
build_dense_table()


def evaluate(cards):
    """Hand value of 5 to 7 cards (card = rank * 4 + suit); larger is better.

    >>> evaluate([48, 44, 40, 36, 32]) > evaluate([47, 43, 39, 35, 31])   # royal vs K-high SF
    True
    """
    cdef card_t buf[7]
    cdef int n = len(cards)
    if not 5 <= n <= 7:
        raise ValueError(f"a poker hand has 5 to 7 cards, got {n}")
    seen = set()
    for i, card in enumerate(cards):
        if not 0 <= card < 52:
            raise ValueError(f"card index {card} is outside 0..51")
        if card in seen:
            raise ValueError(f"card index {card} appears twice")
        seen.add(card)
        buf[i] = card
    return eval_cards(buf, n)


def category(value):
    """Category of a hand value: 0 high card .. 9 royal flush."""
    return hand_category(value)


def dense(value):
    """Dense rank 0..7461 of a hand value."""
    return dense_rank(value)


def category_counts(int n_cards):
    """Number of n-card hands (n = 5 or 7) of each category, over all C(52, n): a validation sweep."""
    cdef count_t counts[10]
    cdef int a, b, c, d, e, f, g
    cdef rankmask_t m[4]
    if n_cards not in (5, 7):
        raise ValueError("category_counts sweeps 5- or 7-card hands")
    for a in range(10):
        counts[a] = 0
    with nogil:
        if n_cards == 5:
            for a in range(52):
                for b in range(a + 1, 52):
                    for c in range(b + 1, 52):
                        for d in range(c + 1, 52):
                            for e in range(d + 1, 52):
                                counts[hand_category(eval_hand_of(a, b, c, d, e, -1, -1))] += 1
        else:
            for a in range(52):
                for b in range(a + 1, 52):
                    for c in range(b + 1, 52):
                        for d in range(c + 1, 52):
                            for e in range(d + 1, 52):
                                for f in range(e + 1, 52):
                                    for g in range(f + 1, 52):
                                        counts[hand_category(eval_hand_of(a, b, c, d, e, f, g))] += 1
    return [counts[i] for i in range(10)]


cdef inline handval_t eval_hand_of(int a, int b, int c, int d, int e, int f, int g) noexcept nogil:
    cdef rankmask_t m[4]
    m[0] = m[1] = m[2] = m[3] = 0
    m[a & 3] |= 1 << (a >> 2)
    m[b & 3] |= 1 << (b >> 2)
    m[c & 3] |= 1 << (c >> 2)
    m[d & 3] |= 1 << (d >> 2)
    m[e & 3] |= 1 << (e >> 2)
    if f >= 0:
        m[f & 3] |= 1 << (f >> 2)
        m[g & 3] |= 1 << (g >> 2)
    return eval_masks(m[0], m[1], m[2], m[3])


def evaluate_many(const card_t[:, ::1] hands):
    """Hand values of many hands at once: an (n, k) array of cards, 5 <= k <= 7 (unchecked)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int k = hands.shape[1]
    if not 5 <= k <= 7:
        raise ValueError(f"hands of 5 to 7 cards, got {k}")
    values = np.empty(n, dtype=np.uint32)
    cdef uint32_t[::1] out = values
    with nogil:
        for i in range(n):
            out[i] = eval_cards(&hands[i, 0], k)
    return values


def threshold_value(int category, ranks=()):
    """The smallest hand value of `category` whose leading ranks are at least `ranks`.

    "Pair of fours or better" is value >= threshold_value(ONE_PAIR, [2]); "ace-king or
    better" is value >= threshold_value(HIGH_CARD, [12, 11]).  Ranks: 0 = deuce .. 12 = ace.
    """
    cdef uint32_t payload = 0
    ranks = list(ranks)
    if category in (HIGH_CARD, FLUSH):
        payload = sum(1 << r for r in ranks)
    elif category in (ONE_PAIR, THREE_OF_A_KIND):
        payload = (ranks[0] << N_RANKS | sum(1 << r for r in ranks[1:])) if ranks else 0
    elif category == TWO_PAIR:
        payload = (sum(1 << r for r in ranks[:2]) << 4 | (ranks[2] if len(ranks) > 2 else 0)) if ranks else 0
    elif category in (FULL_HOUSE, FOUR_OF_A_KIND):
        payload = (ranks[0] << 4 | (ranks[1] if len(ranks) > 1 else 0)) if ranks else 0
    elif category in (STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH):
        payload = ranks[0] if ranks else 0
    else:
        raise ValueError(f"no hand category {category}")
    return make_value(category, payload)


def dense_at_least(value):
    """The smallest dense rank whose hand value is >= value (7462 if none)."""
    return bisect.bisect_left(ORDERED_VALUES, value)


def categories(values):
    """Category of each hand value (numpy array in, int array out)."""
    return np.asarray(values, dtype=np.uint32) >> CATEGORY_SHIFT


def pair_ranks(values):
    """Rank of the pair of each one-pair hand value; -1 for other categories."""
    values = np.asarray(values, dtype=np.uint32)
    ranks = ((values >> N_RANKS) & 0xF).astype(np.int64)
    ranks[(values >> CATEGORY_SHIFT) != ONE_PAIR] = -1
    return ranks
