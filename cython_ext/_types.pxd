# Shared fixed-width types, named constants and tiny hot helpers for every kernel.
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
    # Baccarat card values 0..9 (ten, jack, queen, king count 0).
    N_BACCARAT_VALUES = 10

# Poker hand categories, lowest first; the royal flush is its own category
# because every paytable pays it apart from the other straight flushes.
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

# Outcome of a called/raised hand against the dealer.
cdef enum:
    DEALER_NOT_QUALIFIED = 0
    PLAYER_WINS = 1
    PUSH_TIE = 2
    DEALER_WINS = 3
    N_OUTCOMES = 4

cdef inline int card_rank(int card) noexcept nogil:
    return card // N_SUITS

cdef inline int card_suit(int card) noexcept nogil:
    return card % N_SUITS
