# Shared fixed-width types, named constants and tiny hot helpers for every kernel.
#
# Contract: this file has no .pyx and no run-time module; what a kernel cimports from it is
# compiled into that kernel.  Every helper is `cdef inline ... noexcept nogil`: it cannot
# fail, needs no GIL, allocates nothing and touches only the memory its arguments point to.
#
# Card encoding (used by every game and by the strategy files):
#   card = rank * N_SUITS + suit,  rank 0 = deuce ... 12 = ace,  suit 0..3 = c, d, h, s.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

ctypedef uint8_t card_t        # 0..51
ctypedef uint16_t rankmask_t   # bit r set = rank r present (13 bits)
ctypedef uint32_t handval_t    # exact poker order: larger is better (see handeval.pxd)
ctypedef int64_t count_t       # combination counts and exact integer sums

cdef enum:
    N_RANKS = 13
    N_SUITS = 4
    N_CARDS = 52
    ACE = 12
    HAND = 5                   # cards in a poker hand (and in a Hold'em board)
    # Baccarat card values 0..9 (ten, jack, queen, king count 0).
    N_BACCARAT_VALUES = 10

# Poker hand categories, lowest first; the royal flush is its own category
# because every paytable pays it apart from the other straight flushes.
# Python sees these as cython_ext.handeval.CATEGORY_CODES.
cdef enum:
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    N_CATEGORIES = 10

# Outcome of a called/raised hand against the dealer; also the column (or field) order of
# every per-outcome count the poker kernels return.  Python sees these as
# cython_ext.handeval.OUTCOME_CODES.
cdef enum:
    DEALER_NOT_QUALIFIED = 0
    PLAYER_WINS = 1
    PUSH_TIE = 2
    DEALER_WINS = 3
    N_OUTCOMES = 4


cdef inline int outcome_of(int player_rank, int dealer_rank, int qualifier_rank) noexcept nogil:
    """Outcome code of one deal from the two hands' dense ranks (handeval.dense_rank)."""
    if dealer_rank < qualifier_rank:
        return DEALER_NOT_QUALIFIED
    if player_rank > dealer_rank:
        return PLAYER_WINS
    if player_rank == dealer_rank:
        return PUSH_TIE
    return DEALER_WINS


# --- cards ------------------------------------------------------------------------------------
# Cards are taken unsigned: they are never negative, and unsigned division by N_SUITS is a shift.

cdef inline int card_rank(unsigned int card) noexcept nogil:
    return card // N_SUITS

cdef inline int card_suit(unsigned int card) noexcept nogil:
    return card % N_SUITS

cdef inline int make_card(int rank, int suit) noexcept nogil:
    return rank * N_SUITS + suit

cdef inline int with_suit(unsigned int card, const uint8_t* new_suit) noexcept nogil:
    """The card of the same rank in suit new_suit[its suit] (a renaming of suits)."""
    return make_card(card_rank(card), new_suit[card_suit(card)])

# Per-suit rank masks: 13-bit masks of one hand (rankmask_t), or the suits' signatures of
# isomorphism.pxd, one 13-bit mask per card group in 64 bits (uint64_t).
ctypedef fused suitmask_t:
    rankmask_t
    uint64_t

cdef inline void add_card(suitmask_t* masks, unsigned int card) noexcept nogil:
    """Sets the card's rank bit in the mask of its suit (masks: N_SUITS of them)."""
    masks[card_suit(card)] |= (<suitmask_t>1) << card_rank(card)

cdef inline void clear_masks(suitmask_t* masks) noexcept nogil:
    cdef int s
    for s in range(N_SUITS):
        masks[s] = 0

cdef inline void copy_masks(suitmask_t* target, const suitmask_t* source) noexcept nogil:
    cdef int s
    for s in range(N_SUITS):
        target[s] = source[s]

cdef inline void masks_of(const card_t* cards, int n, suitmask_t* masks) noexcept nogil:
    """The per-suit rank masks of n cards."""
    cdef int i
    clear_masks(masks)
    for i in range(n):
        add_card(masks, cards[i])


# --- small sorts ------------------------------------------------------------------------------
# Insertion sorts for the few cards or deck positions of one hand (n <= 16), in place.

cdef inline void sort_ascending(uint8_t* values, int n) noexcept nogil:
    cdef int i, j
    cdef uint8_t v
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v

cdef inline void sort_descending(uint8_t* values, int n) noexcept nogil:
    cdef int i, j
    cdef uint8_t v
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] < v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


# --- binomials and colex indices --------------------------------------------------------------
# A k-subset of 0..n-1 with elements p_0 < p_1 < ... < p_{k-1} has the colex index
# sum_i C(p_i, i + 1): the k-subsets of 0..n-1 are numbered 0 .. C(n, k) - 1.

# binom[n][k] = C(n, k) for n <= N_CARDS, k <= HAND (0 when k > n); C(52, 5) fits 32 bits.
ctypedef uint32_t binomial_table_t[N_CARDS + 1][HAND + 1]

cdef inline void fill_binomials(binomial_table_t binom) noexcept nogil:
    """Pascal's rule."""
    cdef int n, k
    for n in range(N_CARDS + 1):
        binom[n][0] = 1
        for k in range(1, HAND + 1):
            binom[n][k] = 0 if n == 0 else binom[n - 1][k - 1] + binom[n - 1][k]

cdef inline uint32_t colex5(const uint32_t (*binom)[HAND + 1], int p0, int p1, int p2, int p3,
                            int p4) noexcept nogil:
    """Colex index of the 5-subset p0 < p1 < p2 < p3 < p4 (binom: a binomial_table_t)."""
    return binom[p0][1] + binom[p1][2] + binom[p2][3] + binom[p3][4] + binom[p4][5]
