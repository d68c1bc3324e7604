# Casino Hold'em enumeration: per board, every player hole pair against every dealer hole pair.
#
# Contract: evaluate_board and board_work_size are noexcept nogil (they cannot fail, need no
# GIL) and allocate nothing; evaluate_board writes only `row` and `work`.
from cython_ext._types cimport card_t, uint8_t, uint16_t, uint32_t, uint64_t, N_CATEGORIES, N_OUTCOMES

cdef enum:
    N_PAIRS = 1326            # C(52, 2) two-card holdings of a 52-card deck, indexed by pair_index
    N_COUNTS = N_CATEGORIES * N_OUTCOMES   # 40 counters per situation, category-major
    FIELD_BITS = 10           # one outcome's count in a board result
    CATEGORY_BIT = N_OUTCOMES * FIELD_BITS # the category above the four outcome fields
    CATEGORY_FIELD_BITS = 4

# Index of the two-card set {a, b}, a != b: colex order C(a, 2) + C(b, 1) for a > b, 0 .. 1325.
cdef inline int pair_index(int a, int b) noexcept nogil:
    if a < b:
        a, b = b, a
    return a * (a - 1) // 2 + b

# A board result packs, for one player hole pair on one board, the counts of dealer
# hole pairs by outcome and the player's final category (FIELD_BITS = 10 bits each, since a
# deck of at most 52 cards leaves at most C(45, 2) = 990 dealer pairs):
#   bits outcome * FIELD_BITS .. + 9 the count of that outcome code (_types.pxd): 0-9 dealer
#   does not qualify, 10-19 player wins, 20-29 tie, 30-39 dealer wins;
#   bits CATEGORY_BIT = 40 .. 43 the player's hand category.
ctypedef uint64_t board_result_t

# Fills row[pair_index] for every hole pair of `deck` disjoint from the 5-card board
# (other entries untouched).  work: scratch space of at least board_work_size() bytes.
cdef void evaluate_board(const card_t* board, uint64_t deck, int qualifier_rank,
                         board_result_t* row, void* work) noexcept nogil
cdef size_t board_work_size() noexcept nogil
