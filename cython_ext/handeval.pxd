# Poker hand evaluator: the C-level API other kernels cimport.
#
# A hand value (handval_t) orders 5- to 7-card poker hands exactly as poker does:
# larger is better, equal values are equal hands (suits never break ties).
# Layout: category << CATEGORY_SHIFT | payload, where the payload is built from
# 13-bit rank masks and 4-bit ranks so that integer order = kicker order.
# Contract: every function here is noexcept nogil (it cannot fail, needs no GIL) and
# allocates nothing; the tables they read are built once when cython_ext.handeval is
# imported, which a module that cimports them does before its own code runs.
from cython_ext._types cimport card_t, rankmask_t, handval_t, uint16_t, N_RANKS

cdef enum:
    RANK_BITS = 4             # a rank 0..12 in the payload
    CATEGORY_SHIFT = N_RANKS + RANK_BITS   # 17: above a rank and a 13-bit rank mask
    N_DISTINCT_HANDS = 7462   # distinct 5-card hand values
    MAX_HAND_CARDS = 7        # eval_cards takes 5 to 7 cards

# Best hand of the cards given as one rank mask per suit (5 to 7 cards in all).
cdef handval_t eval_masks(rankmask_t clubs, rankmask_t diamonds,
                          rankmask_t hearts, rankmask_t spades) noexcept nogil
# Best hand of those cards ignoring flushes: only which ranks are held how often counts, so
# the masks may as well be the count layers (ranks held at least once, twice, three times,
# four times), which no suit assignment need produce.
cdef handval_t eval_no_flush(rankmask_t clubs, rankmask_t diamonds,
                             rankmask_t hearts, rankmask_t spades) noexcept nogil
# Best hand of n cards (HAND <= n <= MAX_HAND_CARDS), each card = rank * N_SUITS + suit.
cdef handval_t eval_cards(const card_t* cards, int n) noexcept nogil
# Dense rank of a hand value: 0 (7-5-4-3-2 offsuit) .. 7461 (royal flush).
cdef uint16_t dense_rank(handval_t value) noexcept nogil

cdef inline int hand_category(handval_t value) noexcept nogil:
    return value >> CATEGORY_SHIFT
