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

from cython_ext._types cimport (count_t, ACE, HAND, N_CARDS, N_RANKS, N_SUITS, N_CATEGORIES,
                                HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH,
                                FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH,
                                DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE, DEALER_WINS,
                                add_card, clear_masks, masks_of)

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

cdef enum:
    N_MASKS = 1 << N_RANKS    # 8,192 rank masks
    VALUE_SPACE = 2097152     # 2 ** 21: every handval_t is below this
    FIVE_IN_A_ROW = 0x1F      # the rank mask of a straight whose lowest rank is the deuce
    WHEEL = 0x100F            # A-2-3-4-5: the ace plays low
    WHEEL_TOP = 3             # the wheel's top rank, the five

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
    cdef uint32_t suits[N_SUITS]
    cdef int i, top
    suits[0] = c
    suits[1] = d
    suits[2] = h
    suits[3] = s
    for i in range(N_SUITS):
        if __builtin_popcount(suits[i]) >= HAND:
            # With seven cards a flush excludes quads and full houses.
            top = STRAIGHT_TOP[suits[i]]
            if top == ACE:
                return make_value(ROYAL_FLUSH, <uint32_t>top)
            if top >= 0:
                return make_value(STRAIGHT_FLUSH, <uint32_t>top)
            return make_value(FLUSH, keep_top(suits[i], HAND))
    return eval_no_flush(c, d, h, s)


cdef handval_t eval_no_flush(rankmask_t c, rankmask_t d, rankmask_t h, rankmask_t s) noexcept nogil:
    cdef uint32_t any_, two, three, four, pairs, rest, top_pairs
    cdef int top, trips_rank
    any_ = c | d | h | s
    four = c & d & h & s
    if four:
        return make_value(FOUR_OF_A_KIND,
                          (<uint32_t>high_rank(four) << RANK_BITS) | <uint32_t>high_rank(any_ & ~four))
    two = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    three = (c & d & (h | s)) | (h & s & (c | d))
    pairs = two & ~three
    if three:
        trips_rank = high_rank(three)
        rest = (three & ~(1u << trips_rank)) | pairs
        if rest:
            return make_value(FULL_HOUSE, (<uint32_t>trips_rank << RANK_BITS) | <uint32_t>high_rank(rest))
    top = STRAIGHT_TOP[any_]
    if top >= 0:
        return make_value(STRAIGHT, <uint32_t>top)
    if three:
        return make_value(THREE_OF_A_KIND,
                          (<uint32_t>trips_rank << N_RANKS) | keep_top(any_ & ~three, 2))
    if pairs:
        if __builtin_popcount(pairs) >= 2:
            top_pairs = keep_top(pairs, 2)
            return make_value(TWO_PAIR, (top_pairs << RANK_BITS) | <uint32_t>high_rank(any_ & ~top_pairs))
        return make_value(ONE_PAIR, (<uint32_t>high_rank(pairs) << N_RANKS) | keep_top(any_ & ~pairs, 3))
    return make_value(HIGH_CARD, keep_top(any_, HAND))


cdef handval_t eval_cards(const card_t* cards, int n) noexcept nogil:
    cdef rankmask_t masks[N_SUITS]
    masks_of(cards, n, masks)
    return eval_masks(masks[0], masks[1], masks[2], masks[3])


cdef uint16_t dense_rank(handval_t value) noexcept nogil:
    return DENSE[value]


cdef void build_straight_table() noexcept nogil:
    cdef int mask, top
    cdef uint32_t five
    for mask in range(N_MASKS):
        STRAIGHT_TOP[mask] = -1
        for top in range(ACE, WHEEL_TOP, -1):
            five = FIVE_IN_A_ROW << (top - (HAND - 1))
            if (mask & five) == five:
                STRAIGHT_TOP[mask] = top
                break
        if STRAIGHT_TOP[mask] < 0 and (mask & WHEEL) == WHEEL:
            STRAIGHT_TOP[mask] = WHEEL_TOP


cdef int build_dense_table() except -1:
    """Rank every distinct 5-card value: all rank multisets unsuited, plus all flushes."""
    cdef int a, b, cc, dd, e
    cdef rankmask_t m[N_SUITS]
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
                        clear_masks(m)
                        for i, r in enumerate(ranks):
                            # spread equal ranks over suits, never five in one suit
                            j = i % N_SUITS
                            while m[j] & (1 << r):
                                j = (j + 1) % N_SUITS
                            m[j] |= 1 << r
                        values.add(eval_masks(m[0], m[1], m[2], m[3]))
                        if len(set(ranks)) == HAND:
                            mask = sum(1 << r for r in ranks)
                            values.add(eval_masks(mask, 0, 0, 0))
    ordered = sorted(values)
    if len(ordered) != N_DISTINCT_HANDS:
        raise AssertionError(f"hand evaluator found {len(ordered)} distinct hands, "
                             f"expected {N_DISTINCT_HANDS}")
    for i, v in enumerate(ordered):
        DENSE[v] = i
    ORDERED_VALUES.extend(ordered)
    return 0


ORDERED_VALUES = []      # every distinct 5-card hand value, ascending (index = dense rank)


build_straight_table()
build_dense_table()

# The codes of the kernels, by the names the Python side uses (cython_ext._types).
CATEGORY_CODES = {
    "high_card": HIGH_CARD, "one_pair": ONE_PAIR, "two_pair": TWO_PAIR,
    "three_of_a_kind": THREE_OF_A_KIND, "straight": STRAIGHT, "flush": FLUSH,
    "full_house": FULL_HOUSE, "four_of_a_kind": FOUR_OF_A_KIND,
    "straight_flush": STRAIGHT_FLUSH, "royal_flush": ROYAL_FLUSH,
}
OUTCOME_CODES = {
    "dealer_not_qualified": DEALER_NOT_QUALIFIED, "player_wins": PLAYER_WINS,
    "tie": PUSH_TIE, "dealer_wins": DEALER_WINS,
}


def evaluate(cards):
    """Hand value of 5 to 7 cards (card = rank * 4 + suit); larger is better.

    Raises ValueError for a wrong number of cards, a card outside 0..51 or a card twice.

    >>> evaluate([48, 44, 40, 36, 32]) > evaluate([47, 43, 39, 35, 31])   # royal vs K-high SF
    True
    >>> evaluate([48, 44, 40, 36, 32, 0, 1]) == evaluate([48, 44, 40, 36, 32])
    True
    """
    cdef card_t buf[MAX_HAND_CARDS]
    cdef int n = len(cards)
    if not HAND <= n <= MAX_HAND_CARDS:
        raise ValueError(f"a poker hand has {HAND} to {MAX_HAND_CARDS} cards, got {n}")
    seen = set()
    for i, card in enumerate(cards):
        if not 0 <= card < N_CARDS:
            raise ValueError(f"card index {card} is outside 0..{N_CARDS - 1}")
        if card in seen:
            raise ValueError(f"card index {card} appears twice")
        seen.add(card)
        buf[i] = card
    return eval_cards(buf, n)


def category(value):
    """Category of a hand value: 0 high card .. 9 royal flush (CATEGORY_CODES).

    >>> category(evaluate([48, 49, 44, 45, 0])) == CATEGORY_CODES["two_pair"]   # A-A-K-K-2
    True
    """
    return hand_category(value)


def dense(value):
    """Dense rank 0..7461 of a hand value.

    >>> dense(evaluate([20, 13, 8, 4, 0])), dense(evaluate([48, 44, 40, 36, 32]))   # 7-5-4-3-2, royal
    (0, 7461)
    """
    return dense_rank(value)


def category_counts(int n_cards):
    """Number of n-card hands (n = 5 or 7) of each category, over all C(52, n): a validation sweep.

    >>> category_counts(5)
    [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
    """
    cdef count_t counts[N_CATEGORIES]
    cdef int a, b, c, d, e, f, g
    if n_cards not in (HAND, MAX_HAND_CARDS):
        raise ValueError("category_counts sweeps 5- or 7-card hands")
    for a in range(N_CATEGORIES):
        counts[a] = 0
    with nogil:
        if n_cards == HAND:
            for a in range(N_CARDS):
                for b in range(a + 1, N_CARDS):
                    for c in range(b + 1, N_CARDS):
                        for d in range(c + 1, N_CARDS):
                            for e in range(d + 1, N_CARDS):
                                counts[hand_category(eval_hand_of(a, b, c, d, e, -1, -1))] += 1
        else:
            for a in range(N_CARDS):
                for b in range(a + 1, N_CARDS):
                    for c in range(b + 1, N_CARDS):
                        for d in range(c + 1, N_CARDS):
                            for e in range(d + 1, N_CARDS):
                                for f in range(e + 1, N_CARDS):
                                    for g in range(f + 1, N_CARDS):
                                        counts[hand_category(eval_hand_of(a, b, c, d, e, f, g))] += 1
    return [counts[i] for i in range(N_CATEGORIES)]


cdef inline handval_t eval_hand_of(int a, int b, int c, int d, int e, int f, int g) noexcept nogil:
    """Value of the cards a..e, and f and g unless f < 0."""
    cdef rankmask_t m[N_SUITS]
    clear_masks(m)
    add_card(m, a)
    add_card(m, b)
    add_card(m, c)
    add_card(m, d)
    add_card(m, e)
    if f >= 0:
        add_card(m, f)
        add_card(m, g)
    return eval_masks(m[0], m[1], m[2], m[3])


def evaluate_many(const card_t[:, ::1] hands):
    """Hand values of many hands at once: an (n, k) array of cards, 5 <= k <= 7 (unchecked).

    Returns a uint32 array of n values; raises ValueError unless 5 <= k <= 7.

    >>> hands = np.array([[48, 44, 40, 36, 32, 0, 1], [0, 4, 8, 12, 17, 20, 25]], dtype=np.uint8)
    >>> evaluate_many(hands).tolist() == [evaluate(hand) for hand in hands.tolist()]
    True
    >>> categories(evaluate_many(hands)).tolist()      # royal flush; 7-high flush over a straight
    [9, 5]
    """
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int k = hands.shape[1]
    if not HAND <= k <= MAX_HAND_CARDS:
        raise ValueError(f"hands of {HAND} to {MAX_HAND_CARDS} cards, got {k}")
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
    Raises ValueError for a category outside 0..9.

    >>> fours_or_better = threshold_value(CATEGORY_CODES["one_pair"], [2])
    >>> evaluate([8, 9, 30, 36, 47]) >= fours_or_better, evaluate([4, 5, 30, 36, 47]) >= fours_or_better
    (True, False)
    """
    cdef uint32_t payload = 0
    ranks = list(ranks)
    if category in (HIGH_CARD, FLUSH):
        payload = sum(1 << r for r in ranks)
    elif category in (ONE_PAIR, THREE_OF_A_KIND):
        payload = (ranks[0] << N_RANKS | sum(1 << r for r in ranks[1:])) if ranks else 0
    elif category == TWO_PAIR:
        payload = (sum(1 << r for r in ranks[:2]) << RANK_BITS | (ranks[2] if len(ranks) > 2 else 0)) if ranks else 0
    elif category in (FULL_HOUSE, FOUR_OF_A_KIND):
        payload = (ranks[0] << RANK_BITS | (ranks[1] if len(ranks) > 1 else 0)) if ranks else 0
    elif category in (STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH):
        payload = ranks[0] if ranks else 0
    else:
        raise ValueError(f"no hand category {category}")
    return make_value(category, payload)


def dense_at_least(value):
    """The smallest dense rank whose hand value is >= value (7462 if none).

    >>> dense_at_least(0), dense_at_least(threshold_value(CATEGORY_CODES["royal_flush"]))
    (0, 7461)
    """
    return bisect.bisect_left(ORDERED_VALUES, value)


def categories(values):
    """Category of each hand value (numpy array in, int array out).

    >>> categories([evaluate([48, 44, 40, 36, 32]), evaluate([48, 49, 44, 45, 0])]).tolist()
    [9, 2]
    """
    return np.asarray(values, dtype=np.uint32) >> CATEGORY_SHIFT


def pair_ranks(values):
    """Rank of the pair of each one-pair hand value; -1 for other categories.

    >>> pair_ranks([evaluate([8, 9, 30, 36, 47]), evaluate([48, 44, 40, 36, 32])]).tolist()   # fours; royal
    [2, -1]
    """
    values = np.asarray(values, dtype=np.uint32)
    ranks = ((values >> N_RANKS) & ((1 << RANK_BITS) - 1)).astype(np.int64)
    ranks[(values >> CATEGORY_SHIFT) != ONE_PAIR] = -1
    return ranks
