"""Casino Hold'em basic-strategy features of many situations in one pass (hole cards + flop).

`features_into(keys, out, threads)` writes, for every row of keys (2 hole cards, then 3 flop
cards, any order), the features `analyzer.games.casino_holdem.features` declares, one row of
`out` per name of FEATURE_NAMES, each value one byte, with the codes of that module (the
vocabularies PAIR_TYPES and DRAWS by index, -1 where a feature does not apply).  It is that
module's NumPy definition (`features.compute_reference`, column operations over the whole
array) compiled: one row of cards at a time, on `threads` threads, without the GIL; the
tests compare the two on every situation class of small decks and on random cards.
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport int8_t, uint8_t, uint32_t

from cython_ext._types cimport card_t, ACE, HAND, N_RANKS, N_SUITS, ONE_PAIR, TWO_PAIR, STRAIGHT, card_rank, \
    card_suit
from cython_ext.handeval cimport RANK_BITS, eval_cards, hand_category

FEATURE_NAMES = ("hand", "pair_rank", "pair_type", "board_above_pair", "kicker", "high_hole", "low_hole",
                 "overcards", "flush_draw", "flush_draw_hole_cards", "three_flush", "straight_draw", "draw",
                 "suited_hole", "board_paired", "board_suits", "board_high", "board_middle", "board_low",
                 "board_deuces_treys", "aa_bonus_win")

cdef enum:
    F_HAND, F_PAIR_RANK, F_PAIR_TYPE, F_BOARD_ABOVE, F_KICKER, F_HIGH_HOLE, F_LOW_HOLE, F_OVERCARDS, \
        F_FLUSH_DRAW, F_DRAW_HOLE_CARDS, F_THREE_FLUSH, F_STRAIGHT_DRAW, F_DRAW, F_SUITED_HOLE, F_BOARD_PAIRED, \
        F_BOARD_SUITS, F_BOARD_HIGH, F_BOARD_MIDDLE, F_BOARD_LOW, F_DEUCES_TREYS, F_AA_WIN, N_FEATURES
    NOT_APPLICABLE = -1
    PAIR_NONE = 0              # features.PAIR_TYPES: none, on_board, one_hole_card, pocket
    PAIR_ON_BOARD = 1
    PAIR_ONE_HOLE_CARD = 2
    PAIR_POCKET = 3
    DRAW_FLUSH = 3             # features.DRAWS: none, inside_straight, open_ended_straight, flush
    TREY = 1
    N_MASKS = 1 << N_RANKS

cdef int8_t COMPLETING[N_MASKS]      # per rank mask: how many absent ranks would complete a straight


cdef void build_completing() noexcept nogil:
    """COMPLETING as features._completing_ranks defines it (straights ace-high down to the wheel)."""
    cdef int mask, rank, top, low, straight, with_rank, count
    for mask in range(N_MASKS):
        count = 0
        for rank in range(N_RANKS):
            if (mask >> rank) & 1:
                continue
            with_rank = mask | (1 << rank)
            for top in range(3, N_RANKS):
                straight = 0
                for low in range(top - 4, top + 1):
                    straight |= 1 << ((low + N_RANKS) % N_RANKS)       # rank -1 is the ace, played low
                if with_rank & straight == straight:
                    count += 1
                    break
        COMPLETING[mask] = count


build_completing()


cdef inline int8_t count_above(int8_t a, int8_t b, int8_t c, int8_t than) noexcept nogil:
    return (a > than) + (b > than) + (c > than)


cdef void features_of(const card_t* cards, int8_t* out, Py_ssize_t row) noexcept nogil:
    """Every feature of one situation (cards: 2 hole cards, then 3 flop cards) into out[f * row], f per feature."""
    cdef int8_t ranks[HAND]
    cdef int suit_count[N_SUITS]
    cdef int hole_suit_count[N_SUITS]
    cdef int flop_suit_count[N_SUITS]
    cdef int c, s, most = 0, draw_suit = 0, flop_most = 0, hand, mask = 0
    cdef int8_t pair_rank = NOT_APPLICABLE, pair_type = PAIR_NONE, kicker = NOT_APPLICABLE, board_above = NOT_APPLICABLE
    cdef int8_t high_hole, low_hole, board_high, board_low, board_middle, straight_draw, outside0, outside1
    cdef uint32_t value
    for s in range(N_SUITS):
        suit_count[s] = 0
        hole_suit_count[s] = 0
        flop_suit_count[s] = 0
    for c in range(HAND):
        ranks[c] = <int8_t>card_rank(cards[c])
        s = card_suit(cards[c])
        suit_count[s] += 1
        if c < 2:
            hole_suit_count[s] += 1
        else:
            flop_suit_count[s] += 1
        mask |= 1 << ranks[c]
    for s in range(N_SUITS):               # the first suit with the most cards (numpy's argmax)
        if suit_count[s] > most:
            most, draw_suit = suit_count[s], s
        if flop_suit_count[s] > flop_most:
            flop_most = flop_suit_count[s]
    value = eval_cards(cards, HAND)
    hand = hand_category(value)
    high_hole = ranks[0] if ranks[0] > ranks[1] else ranks[1]
    low_hole = ranks[1] if ranks[0] > ranks[1] else ranks[0]
    board_high = ranks[2]
    board_low = ranks[2]
    for c in range(3, HAND):
        if ranks[c] > board_high:
            board_high = ranks[c]
        if ranks[c] < board_low:
            board_low = ranks[c]
    board_middle = ranks[2] + ranks[3] + ranks[4] - board_low - board_high
    if hand == ONE_PAIR:
        pair_rank = <int8_t>((value >> N_RANKS) & ((1 << RANK_BITS) - 1))
        if ranks[0] == ranks[1]:
            pair_type = PAIR_POCKET
        elif ranks[0] == pair_rank or ranks[1] == pair_rank:
            pair_type = PAIR_ONE_HOLE_CARD
        else:
            pair_type = PAIR_ON_BOARD
        board_above = count_above(ranks[2], ranks[3], ranks[4], pair_rank)
        if pair_type != PAIR_POCKET:
            outside0 = NOT_APPLICABLE if ranks[0] == pair_rank else ranks[0]
            outside1 = NOT_APPLICABLE if ranks[1] == pair_rank else ranks[1]
            kicker = outside0 if outside0 > outside1 else outside1
    straight_draw = 0 if hand >= STRAIGHT else (COMPLETING[mask] if COMPLETING[mask] < 2 else 2)
    out[F_HAND * row] = <int8_t>hand
    out[F_PAIR_RANK * row] = pair_rank
    out[F_PAIR_TYPE * row] = pair_type
    out[F_BOARD_ABOVE * row] = board_above
    out[F_KICKER * row] = kicker
    out[F_HIGH_HOLE * row] = high_hole
    out[F_LOW_HOLE * row] = low_hole
    out[F_OVERCARDS * row] = (ranks[0] > board_high) + (ranks[1] > board_high)
    out[F_FLUSH_DRAW * row] = most == 4
    out[F_DRAW_HOLE_CARDS * row] = hole_suit_count[draw_suit] if most == 4 else 0
    out[F_THREE_FLUSH * row] = hole_suit_count[draw_suit] if most == 3 else 0
    out[F_STRAIGHT_DRAW * row] = straight_draw
    out[F_DRAW * row] = DRAW_FLUSH if most == 4 else straight_draw
    out[F_SUITED_HOLE * row] = card_suit(cards[0]) == card_suit(cards[1])
    out[F_BOARD_PAIRED * row] = board_low == board_middle or board_middle == board_high
    out[F_BOARD_SUITS * row] = flop_most
    out[F_BOARD_HIGH * row] = board_high
    out[F_BOARD_MIDDLE * row] = board_middle
    out[F_BOARD_LOW * row] = board_low
    out[F_DEUCES_TREYS * row] = (ranks[2] <= TREY) + (ranks[3] <= TREY) + (ranks[4] <= TREY)
    out[F_AA_WIN * row] = hand >= TWO_PAIR or pair_rank == ACE


def features_into(const card_t[:, ::1] keys, int8_t[:, ::1] out, int threads=1):
    """out[f, i] = feature FEATURE_NAMES[f] of situation keys[i] (2 hole cards, then 3 flop cards).

    Raises ValueError when keys are not 5 cards a row, out is not one row per feature and
    one column per situation, or threads < 1.  Cards must be 0..51 and distinct (unchecked).

    >>> import numpy as np
    >>> keys = np.array([[51, 50, 20, 9, 0]], dtype=np.uint8)        # As Ah (pocket aces), 7s 4d 2c
    >>> out = np.empty((len(FEATURE_NAMES), 1), dtype=np.int8)
    >>> features_into(keys, out)
    >>> {name: int(out[f, 0]) for f, name in enumerate(FEATURE_NAMES)
    ...  if name in ("hand", "pair_rank", "pair_type", "kicker", "aa_bonus_win")}
    {'hand': 1, 'pair_rank': 12, 'pair_type': 3, 'kicker': -1, 'aa_bonus_win': 1}
    """
    cdef Py_ssize_t n = keys.shape[0], row = out.strides[0], i
    if keys.shape[1] != HAND or out.shape[0] != N_FEATURES or out.shape[1] != n:
        raise ValueError(f"keys are {keys.shape[0]} x {keys.shape[1]} and out {out.shape[0]} x {out.shape[1]}: "
                         f"need n x {HAND} cards and {N_FEATURES} x n features")
    if threads < 1:
        raise ValueError("features_into: threads must be at least 1")
    with nogil:
        for i in prange(n, schedule="static", num_threads=threads):
            features_of(&keys[i, 0], &out[0, i], row)
