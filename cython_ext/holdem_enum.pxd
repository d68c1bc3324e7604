# Casino Hold'em enumeration: per board, every player hole pair against every dealer hole pair.
from cython_ext._types cimport card_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    N_PAIRS = 1326            # two-card holdings of a 52-card deck, indexed by pair_index
    N_COUNTS = 40             # per situation: N_CATEGORIES x N_OUTCOMES counters

# Index of the two-card set {a, b}, a != b: colex order, 0 .. 1325.
cdef inline int pair_index(int a, int b) noexcept nogil:
    if a < b:
        a, b = b, a
    return a * (a - 1) // 2 + b

# A board result packs, for one player hole pair on one board, the counts of dealer
# hole pairs by outcome and the player's final category (10 bits each, since a deck of
# at most 52 cards leaves at most C(45, 2) = 990 dealer pairs):
#   bits 0-9 dealer does not qualify, 10-19 player wins, 20-29 tie, 30-39 dealer wins,
#   bits 40-43 the player's hand category.
ctypedef uint64_t board_result_t

# Fills row[pair_index] for every hole pair of `deck` disjoint from the 5-card board
# (other entries untouched).  work: scratch space of at least board_work_size() bytes.
cdef void evaluate_board(const card_t* board, uint64_t deck, int qualifier_rank,
                         board_result_t* row, void* work) noexcept nogil
cdef size_t board_work_size() noexcept nogil
