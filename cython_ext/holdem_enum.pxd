# Casino Hold'em enumeration: per board, every player hole pair against every dealer hole pair.
#
# Contract: evaluate_board and board_work_size are noexcept nogil (they cannot fail, need no
# GIL) and allocate nothing; evaluate_board writes only `row` and `work`.
from cython_ext._types cimport card_t, uint8_t, uint16_t, uint32_t, uint64_t, N_CATEGORIES, N_OUTCOMES

cdef enum:
    N_PAIRS = 1326            # C(52, 2) two-card holdings of a 52-card deck, indexed by pair_index
    N_COUNTS = N_CATEGORIES * N_OUTCOMES   # 40 counters per situation, category-major
    FIELD_BITS = 10           # one outcome's count in its lane of a BoardResult; above the dealer-wins
                              # count, the offset of the category's counters (category x N_OUTCOMES)

# Index of the two-card set {a, b}, a != b: colex order C(a, 2) + C(b, 1) for a > b, 0 .. 1325.
cdef inline int pair_index(int a, int b) noexcept nogil:
    if a < b:
        a, b = b, a
    return a * (a - 1) // 2 + b

# A board result is, for one player hole pair on one board, the counts of dealer hole
# pairs by outcome and the player's final category: one 16-bit lane per outcome code
# (_types.pxd), the count in its low FIELD_BITS = 10 bits (a deck of at most 52 cards leaves
# at most C(45, 2) = 990 dealer pairs); bits 10..15 of the dealer-wins lane hold where the
# category's counters start among a situation's, category x N_OUTCOMES (at most 36 < 64).
# Pass 2 reads the four lanes with one vector load, widening, mask and add.  Arrays of board
# results are uint64 arrays to numpy (one 8-byte entry per result); the kernels read and
# write them only as BoardResult.
cdef struct BoardResult:
    uint16_t lane[N_OUTCOMES]     # lane[outcome]: count (bits 0..9); lane[DEALER_WINS] bits 10..15:
                                  # category x N_OUTCOMES

ctypedef uint64_t board_result_t  # the numpy-visible container of one BoardResult

# Fills row[pair_index] for every hole pair of `deck` disjoint from the 5-card board and
# sets every pair holding a board card to 0 (other entries untouched), so that a row can be
# reused from board to board and a situation reading a pair that holds its turn or river
# adds nothing.  work: scratch space of at least board_work_size() bytes.
cdef void evaluate_board(const card_t* board, uint64_t deck, int qualifier_rank,
                         BoardResult* row, void* work) noexcept nogil
cdef size_t board_work_size() noexcept nogil
