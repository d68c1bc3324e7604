"""Casino Hold'em counts: every (hole, flop) situation against every turn/river and dealer hole pair.

Algorithm, in two passes over the deck:
1. Boards.  Each of the 134,459 suit classes of 5-card boards is evaluated once: the
   7-card value of every player hole pair (1,081 of them), then one sweep in rank order
   counts, by card removal, how many dealer hole pairs disjoint from each player pair are
   below it, equal, and not qualifying (totals minus the pairs holding either of the
   player's cards).  A hole pair that makes no flush has the value of its two ranks, so
   one evaluation per rank pair (at most 91) and one per flush-making hole pair give every
   value; these *items*, radix-sorted by dense rank, are swept, each hole pair listed from
   its item as the sweep reaches it (2.4 times faster than evaluating and sorting all
   1,081 pairs).
2. Situations.  A board's result serves every (canonical flop, turn/river) whose five
   cards it is under some suit renaming: its *uses* (`flop_uses`: 1,755 x 1,176 of them
   on the full deck).  Only one (canonical flop, hole pair) per situation class is
   counted, its *representative*: for each use, every representative hole pair of the
   flop gathers its board counts (through the renaming) and adds them to the class's
   (category x outcome) counters (`accumulate_uses`).  Each situation thus sums 1,081 x
   990 = 1,070,190 continuations.
Pass 2 can consume the boards a range at a time, as pass 1 produces them: the uses are
grouped by the range of their board and then by flop, and the threads share out one
range's flops, so no two threads write one counter and no whole table of board results
is ever held.
All counters are integers: a board result is at most 990 per field (10 bits); a
situation counter receives at most one board result per turn/river pair, so it stays
at most 1,070,190 (uint32).
"""
import itertools

from cython.parallel cimport parallel, prange, threadid
from libc.string cimport memcpy, memset

import numpy as np

from cython_ext._types cimport (card_t, rankmask_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
                                HAND, N_CARDS, N_SUITS, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE,
                                DEALER_WINS, binomial_table_t, fill_binomials, colex5, add_card, copy_masks,
                                masks_of, with_suit, sort_ascending, outcome_of, card_rank, card_suit, N_RANKS)
from cython_ext.handeval cimport eval_masks, eval_no_flush, dense_rank, hand_category, handval_t
from cython_ext.isomorphism cimport canonicalize, suit_renaming


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    void __builtin_prefetch(const void*, int, int) nogil

cdef extern from "_lanes.h" nogil:
    void add_lanes(uint32_t* counters, const uint16_t* lanes, uint16_t mask) noexcept

cdef enum:
    HOLE_CARDS = 2
    FLOP_CARDS = 3
    N_BOARDS = 2598960        # C(52, 5): colex indices of 5-card sets
    FIELD_MASK = (1 << FIELD_BITS) - 1
    RADIX_LOW_BITS = 7        # dense ranks < 8192 sort in two counting passes: 7 + 6 bits
    RADIX_LOW = 128
    RADIX_HIGH = 64
    N_PERMUTATIONS = 24       # renamings of the four suits
    SUIT_BITS = 2             # a renaming's code: new suit of suit s in bits 2s, 2s + 1
    N_RENAMING_CODES = 1 << (SUIT_BITS * N_SUITS)
    N_RANK_PAIRS = N_RANKS * (N_RANKS + 1) // 2    # 91 ranks of two hole cards, pocket pairs included
    MAX_ITEMS = N_RANK_PAIRS + N_PAIRS             # a board's rank pairs and flush-making hole pairs
    USES_AT_ONCE = 8          # pass 2 adds eight boards into a representative's counters at a time
    CACHE_LINE = 64
    ROW_BYTES = N_PAIRS * 8   # a board's results: one 8-byte BoardResult per hole pair
    FLUSH_DRAW = 3            # board cards of one suit that leave a flush to the hole cards

cdef binomial_table_t BINOMIAL             # C(n, k) for colex indices


cdef struct Item:
    # The board's player hole pairs of one 7-card value: a rank pair's holdings that make no
    # flush, or one hole pair that makes a flush.
    uint16_t rank          # dense rank of the player's 7-card hand
    uint8_t first          # a rank pair: its ranks, first >= second; a flush: the two cards
    uint8_t second
    uint8_t category
    uint8_t is_rank_pair


cdef struct BoardWork:
    Item items[MAX_ITEMS]
    Item sorted_items[MAX_ITEMS]
    uint8_t cards_of_rank[N_RANKS][N_SUITS]   # the deck's cards off the board, ascending, by rank
    int32_t n_of_rank[N_RANKS]
    uint8_t group_first[N_PAIRS]         # the hole pairs of the dense rank being swept
    uint8_t group_second[N_PAIRS]
    int32_t below_by_card[N_CARDS]       # swept pairs (lower rank) holding each card
    int32_t group_by_card[N_CARDS]       # pairs of the current rank holding each card
    int32_t unqualified_by_card[N_CARDS] # non-qualifying pairs holding each card
    int32_t bucket[RADIX_LOW]


cdef size_t board_work_size() noexcept nogil:
    return sizeof(BoardWork)


cdef inline uint64_t board_index(const card_t* c) noexcept nogil:
    """Colex index of five ascending cards."""
    return colex5(BINOMIAL, c[0], c[1], c[2], c[3], c[4])


cdef inline int renaming_code(const uint8_t* new_suit) noexcept nogil:
    cdef int s, code = 0
    for s in range(N_SUITS):
        code |= new_suit[s] << (SUIT_BITS * s)
    return code


cdef inline void merge_board(const card_t* flop, int t, int r, int* five) noexcept nogil:
    """The five cards, ascending, of an ascending flop and a turn/river pair t < r not in it."""
    cdef int i = 0, k = 0
    while k < FLOP_CARDS and flop[k] < t:
        five[i] = flop[k]
        i += 1
        k += 1
    five[i] = t
    i += 1
    while k < FLOP_CARDS and flop[k] < r:
        five[i] = flop[k]
        i += 1
        k += 1
    five[i] = r
    i += 1
    while k < FLOP_CARDS:
        five[i] = flop[k]
        i += 1
        k += 1


cdef void radix_sort(Item* src, Item* dst, int n, int32_t* bucket) noexcept nogil:
    """Stable sort of src by rank into src (dst is scratch), two counting passes."""
    cdef int i, total, count
    cdef int shift, size, pass_
    cdef Item* a = src
    cdef Item* b = dst
    cdef Item* t
    for pass_ in range(2):
        shift = 0 if pass_ == 0 else RADIX_LOW_BITS
        size = RADIX_LOW if pass_ == 0 else RADIX_HIGH
        memset(bucket, 0, size * sizeof(int32_t))
        for i in range(n):
            bucket[(a[i].rank >> shift) & (size - 1)] += 1
        total = 0
        for i in range(size):
            count = bucket[i]
            bucket[i] = total
            total += count
        for i in range(n):
            b[bucket[(a[i].rank >> shift) & (size - 1)]] = a[i]
            bucket[(a[i].rank >> shift) & (size - 1)] += 1
        t = a
        a = b
        b = t
    # two passes: the sorted result is back in src


cdef inline void add_rank(rankmask_t* layers, int rank) noexcept nogil:
    """One more card of `rank` in the count layers (layers[k]: ranks held more than k times)."""
    cdef rankmask_t bit = <rankmask_t>(1 << rank)
    cdef int k = 0
    while layers[k] & bit:
        k += 1
    layers[k] |= bit


cdef inline bint makes_flush(int a, int b, int flush_suit, int flush_needed) noexcept nogil:
    """Whether hole cards a, b bring the board's suit flush_suit (-1: none) to five cards."""
    return flush_suit >= 0 and (card_suit(a) == flush_suit) + (card_suit(b) == flush_suit) >= flush_needed


cdef inline void add_item(Item* item, int first, int second, handval_t value, bint is_rank_pair) noexcept nogil:
    item.rank = dense_rank(value)
    item.first = <uint8_t>first
    item.second = <uint8_t>second
    item.category = <uint8_t>hand_category(value)
    item.is_rank_pair = is_rank_pair


cdef int holes_of(const Item* item, const BoardWork* work, int flush_suit, int flush_needed,
                  uint8_t* first, uint8_t* second) noexcept nogil:
    """Writes the item's hole pairs to first[k], second[k]; returns how many."""
    cdef int n = 0, i, j, n_first, n_second
    cdef const uint8_t* a
    cdef const uint8_t* b
    if not item.is_rank_pair:
        first[0] = item.first
        second[0] = item.second
        return 1
    a = work.cards_of_rank[item.first]
    b = work.cards_of_rank[item.second]
    n_first = work.n_of_rank[item.first]
    for i in range(n_first):
        n_second = i if item.first == item.second else work.n_of_rank[item.second]
        for j in range(n_second):
            if not makes_flush(a[i], b[j], flush_suit, flush_needed):
                first[n] = a[i]
                second[n] = b[j]
                n += 1
    return n


cdef inline void set_result(BoardResult* row, int a, int b, int32_t not_qualified, int32_t win, int32_t tie,
                            int32_t lose, int category) noexcept nogil:
    cdef BoardResult* result = &row[pair_index(a, b)]
    result.lane[DEALER_NOT_QUALIFIED] = <uint16_t>not_qualified
    result.lane[PLAYER_WINS] = <uint16_t>win
    result.lane[PUSH_TIE] = <uint16_t>tie
    result.lane[DEALER_WINS] = <uint16_t>(lose | ((category * N_OUTCOMES) << FIELD_BITS))


cdef int value_items(const card_t* board, uint64_t deck, BoardWork* work, int* flush_suit,
                     int* flush_needed, int* n_rest) noexcept nogil:
    """The board's items (work.items), the deck's cards off it by rank; returns how many items.

    Without a flush a 7-card value depends on the ranks alone: one evaluation per rank pair
    of hole cards (at most 91) stands for all its holdings.  A hole pair that brings the
    board's three or more cards of one suit to five is evaluated on its own.
    """
    cdef rankmask_t masks[N_SUITS]
    cdef rankmask_t layers[N_SUITS]
    cdef rankmask_t m[N_SUITS]
    cdef uint8_t suited[N_CARDS]
    cdef uint8_t other[N_CARDS]
    cdef uint64_t board_mask = 0
    cdef int i, j, r, s, n_items = 0, n_suited = 0, n_other = 0
    masks_of(board, HAND, masks)
    memset(layers, 0, sizeof(layers))
    for i in range(HAND):
        board_mask |= (<uint64_t>1) << board[i]
        add_rank(layers, card_rank(board[i]))
    flush_suit[0] = -1
    for s in range(N_SUITS):
        if __builtin_popcount(masks[s]) >= FLUSH_DRAW:
            flush_suit[0] = s
            flush_needed[0] = HAND - __builtin_popcount(masks[s])
    memset(work.n_of_rank, 0, sizeof(work.n_of_rank))
    n_rest[0] = 0
    for i in range(N_CARDS):
        if (deck >> i) & 1 and not (board_mask >> i) & 1:
            r = card_rank(i)
            work.cards_of_rank[r][work.n_of_rank[r]] = <uint8_t>i
            work.n_of_rank[r] += 1
            n_rest[0] += 1
            if card_suit(i) == flush_suit[0]:
                suited[n_suited] = <uint8_t>i
                n_suited += 1
            else:
                other[n_other] = <uint8_t>i
                n_other += 1
    for r in range(N_RANKS):
        for s in range(r + 1):
            if work.n_of_rank[r] < 1 + (s == r) or work.n_of_rank[s] == 0:
                continue
            copy_masks(m, layers)
            add_rank(m, r)
            add_rank(m, s)
            add_item(&work.items[n_items], r, s, eval_no_flush(m[0], m[1], m[2], m[3]), True)
            n_items += 1
    if flush_suit[0] < 0:
        return n_items
    for i in range(n_suited):        # hole pairs with at least flush_needed cards of the suit
        for j in range(i):
            n_items = add_flush_item(work, n_items, masks, suited[i], suited[j])
        if flush_needed[0] <= 1:
            for j in range(n_other):
                n_items = add_flush_item(work, n_items, masks, suited[i], other[j])
    if flush_needed[0] == 0:
        for i in range(n_other):
            for j in range(i):
                n_items = add_flush_item(work, n_items, masks, other[i], other[j])
    return n_items


cdef inline int add_flush_item(BoardWork* work, int n_items, const rankmask_t* masks, int a, int b) noexcept nogil:
    cdef rankmask_t m[N_SUITS]
    copy_masks(m, masks)
    add_card(m, a)
    add_card(m, b)
    add_item(&work.items[n_items], a, b, eval_masks(m[0], m[1], m[2], m[3]), False)
    return n_items + 1


cdef void evaluate_board(const card_t* board, uint64_t deck, int qualifier_rank,
                         BoardResult* row, void* work_) noexcept nogil:
    cdef BoardWork* work = <BoardWork*>work_
    cdef Item* items = work.items
    cdef uint8_t* first = work.group_first
    cdef uint8_t* second = work.group_second
    cdef int n_items, n_rest, flush_suit, flush_needed = HAND, n_qualified_from, i, j, k, h, n, a, b
    cdef int32_t unqualified = 0, below, n_dealer, less, equal, not_qualified
    for i in range(HAND):
        for j in range(N_CARDS):             # pairs holding a board card: no situation of this board
            if j != board[i]:
                memset(&row[pair_index(board[i], j)], 0, sizeof(BoardResult))
    n_items = value_items(board, deck, work, &flush_suit, &flush_needed, &n_rest)
    n_dealer = (n_rest - 2) * (n_rest - 3) // 2
    radix_sort(items, work.sorted_items, n_items, work.bucket)

    # Hole pairs below the qualifier sort first; against them no dealer pair loses or ties.
    memset(work.unqualified_by_card, 0, sizeof(work.unqualified_by_card))
    n_qualified_from = 0
    while n_qualified_from < n_items and items[n_qualified_from].rank < qualifier_rank:
        n = holes_of(&items[n_qualified_from], work, flush_suit, flush_needed, first, second)
        for h in range(n):
            work.unqualified_by_card[first[h]] += 1
            work.unqualified_by_card[second[h]] += 1
        unqualified += n
        n_qualified_from += 1
    for k in range(n_qualified_from):
        n = holes_of(&items[k], work, flush_suit, flush_needed, first, second)
        for h in range(n):
            # the pair itself is among the non-qualifying ones holding either card: add it back once
            not_qualified = unqualified - work.unqualified_by_card[first[h]] - work.unqualified_by_card[second[h]] + 1
            set_result(row, first[h], second[h], not_qualified, 0, 0, n_dealer - not_qualified, items[k].category)

    # The qualifying ones, a dense rank at a time: dealer pairs disjoint from {a, b} below it,
    # equal to it and not qualifying are all such pairs minus those holding a or b.
    memcpy(work.below_by_card, work.unqualified_by_card, sizeof(work.below_by_card))
    memset(work.group_by_card, 0, sizeof(work.group_by_card))
    below = unqualified
    i = n_qualified_from
    while i < n_items:
        n = 0
        j = i
        while j < n_items and items[j].rank == items[i].rank:
            n += holes_of(&items[j], work, flush_suit, flush_needed, first + n, second + n)
            j += 1
        for h in range(n):
            work.group_by_card[first[h]] += 1
            work.group_by_card[second[h]] += 1
        for h in range(n):
            a = first[h]
            b = second[h]
            less = below - work.below_by_card[a] - work.below_by_card[b]
            equal = n - (work.group_by_card[a] + work.group_by_card[b] - 1)
            not_qualified = unqualified - work.unqualified_by_card[a] - work.unqualified_by_card[b]
            set_result(row, a, b, not_qualified, less - not_qualified, equal, n_dealer - less - equal,
                       items[i].category)
        for h in range(n):
            work.below_by_card[first[h]] += 1
            work.below_by_card[second[h]] += 1
            work.group_by_card[first[h]] = 0
            work.group_by_card[second[h]] = 0
        below += n
        i = j


cdef inline void prefetch_row(const BoardResult* row) noexcept nogil:
    """Asks for a board's row ahead of its use (into L2): its entries are read in no order the CPU foresees."""
    cdef const char* start = <const char*>row
    cdef int i
    for i in range(ROW_BYTES // CACHE_LINE + 1):
        __builtin_prefetch(start + i * CACHE_LINE, 0, 2)


cdef inline void add_result(const BoardResult* row, const uint16_t* renamed, int pair, uint32_t* counts) noexcept nogil:
    """Adds the board's result for hole pair `pair` (renamed) to a representative's counters.

    counts[category * N_OUTCOMES + outcome] += the result's count of the outcome, all four,
    category the player's.  A hole pair holding the turn or the river reads a zero entry
    (evaluate_board clears the pairs holding a board card) and adds nothing.
    """
    cdef const BoardResult* r = &row[renamed[pair]]
    add_lanes(counts + ((<unsigned int>r.lane[DEALER_WINS]) >> FIELD_BITS), r.lane, FIELD_MASK)


cdef void accumulate_segment(const BoardResult* results, Py_ssize_t first_board, const uint16_t* perm_pairs,
                             const int32_t* use_board, const uint8_t* use_perm, Py_ssize_t n_uses,
                             const uint16_t* rep_pair, Py_ssize_t n_reps, uint32_t* counts) noexcept nogil:
    """Adds the boards of n_uses uses of one flop into the counters of its n_reps representatives.

    Representative j (hole pair rep_pair[j]) has the counters counts[j * N_COUNTS ..].  The
    uses are taken USES_AT_ONCE at a time, so that each representative's counters are
    fetched once for all of them (they do not fit the first-level cache: 160 bytes a
    representative, up to 1,176 of them), and the next uses' rows are asked for meanwhile.
    """
    cdef const BoardResult* rows[USES_AT_ONCE]
    cdef const uint16_t* renamed[USES_AT_ONCE]
    cdef Py_ssize_t u = 0, j, k, n_block
    cdef int pair
    cdef uint32_t* c
    while u < n_uses:
        n_block = min(USES_AT_ONCE, n_uses - u)
        for k in range(n_block):
            rows[k] = results + (use_board[u + k] - first_board) * N_PAIRS
            renamed[k] = perm_pairs + use_perm[u + k] * N_PAIRS
        for k in range(u + USES_AT_ONCE, min(u + 2 * USES_AT_ONCE, n_uses)):
            prefetch_row(results + (use_board[k] - first_board) * N_PAIRS)
        c = counts
        if n_block == USES_AT_ONCE:
            for j in range(n_reps):
                pair = rep_pair[j]
                for k in range(USES_AT_ONCE):          # a constant count: the compiler unrolls it
                    add_result(rows[k], renamed[k], pair, c)
                c += N_COUNTS
        else:
            for j in range(n_reps):
                pair = rep_pair[j]
                for k in range(n_block):
                    add_result(rows[k], renamed[k], pair, c)
                c += N_COUNTS
        u += USES_AT_ONCE


# --- Python-facing entry points: validate, then run without the GIL ---------------------

fill_binomials(BINOMIAL)

PERMUTATIONS = list(itertools.permutations(range(N_SUITS)))


def perm_pair_table():
    """uint16 (24, 1326): pair index after each suit renaming (PERMUTATIONS[i][old] = new).

    >>> table = perm_pair_table()
    >>> table.shape, bool((table[0] == np.arange(PAIRS)).all())     # PERMUTATIONS[0] keeps every suit
    ((24, 1326), True)
    """
    cdef uint8_t new_suit[N_SUITS]
    cdef int i, s, a, b
    table = np.zeros((N_PERMUTATIONS, N_PAIRS), dtype=np.uint16)
    cdef uint16_t[:, ::1] out = table
    for i in range(N_PERMUTATIONS):
        for s in range(N_SUITS):
            new_suit[s] = PERMUTATIONS[i][s]
        for a in range(N_CARDS):
            for b in range(a):
                out[i, pair_index(a, b)] = pair_index(with_suit(a, new_suit), with_suit(b, new_suit))
    return table


cdef void classify_boards_from(int i0, const int* cards, int n, const int* code_to_perm,
                               int32_t* canonical_of, uint8_t* perm) noexcept nogil:
    """canonical_of and perm for every board of the deck whose lowest card is cards[i0]."""
    cdef int i1, i2, i3, i4, j
    cdef card_t c[HAND]
    cdef card_t renamed[HAND]
    cdef uint64_t signature[N_SUITS]
    cdef uint8_t new_suit[N_SUITS]
    cdef uint64_t index
    for i1 in range(i0 + 1, n):
        for i2 in range(i1 + 1, n):
            for i3 in range(i2 + 1, n):
                for i4 in range(i3 + 1, n):
                    c[0] = cards[i0]
                    c[1] = cards[i1]
                    c[2] = cards[i2]
                    c[3] = cards[i3]
                    c[4] = cards[i4]
                    masks_of(c, HAND, signature)
                    suit_renaming(signature, new_suit)
                    for j in range(HAND):
                        renamed[j] = with_suit(c[j], new_suit)
                    sort_ascending(renamed, HAND)
                    index = board_index(c)
                    canonical_of[index] = <int32_t>board_index(renamed)
                    perm[index] = <uint8_t>code_to_perm[renaming_code(new_suit)]


cdef void decode_colex5(uint64_t index, card_t* cards) noexcept nogil:
    """The five cards (ascending) of the 5-card set with this colex index."""
    cdef int k, c
    for k in range(HAND, 0, -1):
        c = k - 1
        while BINOMIAL[c + 1][k] <= index:
            c += 1
        cards[k - 1] = <card_t>c
        index -= BINOMIAL[c][k]


def board_classes(uint64_t deck, int threads=1):
    """Suit classes of the deck's 5-card boards (found by `threads` threads).

    Returns (board_class int32[N_BOARDS], board_perm uint8[N_BOARDS], boards uint8[n, 5]):
    for a board's colex index, its class (-1 if not in the deck) and the index in
    PERMUTATIONS of the renaming onto the class's canonical board; canonical boards in
    ascending colex order, cards ascending.

    The 56 boards of the eight deuces and treys fall into six classes (four of a kind, or
    trips with a pair that does or does not share the trips' missing suit, of either rank):

    >>> board_class, board_perm, boards = board_classes((1 << 8) - 1)
    >>> int((board_class >= 0).sum()), len(boards), boards[0].tolist()
    (56, 6, [0, 1, 2, 3, 4])
    """
    cdef uint8_t[::1] perm
    cdef int32_t[::1] canonical_of
    cdef int code_to_perm[N_RENAMING_CODES]
    cdef int cards[N_CARDS]
    cdef int n = 0, i0, s, j
    cdef uint8_t new_suit[N_SUITS]
    cdef Py_ssize_t i
    if threads < 1:
        raise ValueError("board_classes: threads must be at least 1")
    for j in range(N_RENAMING_CODES):
        code_to_perm[j] = -1
    for j in range(N_PERMUTATIONS):
        for s in range(N_SUITS):
            new_suit[s] = PERMUTATIONS[j][s]
        code_to_perm[renaming_code(new_suit)] = j
    for j in range(N_CARDS):
        if (deck >> j) & 1:
            cards[n] = j
            n += 1
    class_array = np.full(N_BOARDS, -1, dtype=np.int32)
    perm_array = np.zeros(N_BOARDS, dtype=np.uint8)
    canonical_array = np.full(N_BOARDS, -1, dtype=np.int32)
    perm = perm_array
    canonical_of = canonical_array
    with nogil:
        for i0 in prange(n, schedule="dynamic", chunksize=1, num_threads=threads):
            classify_boards_from(i0, cards, n, code_to_perm, &canonical_of[0], &perm[0])
    canonical_indices = np.unique(canonical_array[canonical_array >= 0])
    numbering = np.full(N_BOARDS, -1, dtype=np.int32)
    numbering[canonical_indices] = np.arange(len(canonical_indices), dtype=np.int32)
    in_deck = canonical_array >= 0
    class_array[in_deck] = numbering[canonical_array[in_deck]]
    boards_array = np.empty((len(canonical_indices), HAND), dtype=np.uint8)
    cdef const int64_t[::1] indices = canonical_indices.astype(np.int64)
    cdef uint8_t[:, ::1] boards = boards_array
    with nogil:
        for i in range(boards.shape[0]):
            decode_colex5(<uint64_t>indices[i], &boards[i, 0])
    return class_array, perm_array, boards_array


def evaluate_boards(const card_t[:, ::1] boards, uint64_t deck, int qualifier_rank,
                    board_result_t[:, ::1] results, Py_ssize_t start, Py_ssize_t stop, int threads):
    """Pass 1 for canonical boards start..stop-1: results[i, pair_index] for every hole pair.

    boards: the canonical boards of board_classes(deck); qualifier_rank: the dealer qualifies
    with a dense rank (handeval) >= this; results: (len(boards), PAIRS), rows start..stop-1
    filled (see holdem_enum.pxd for the packing).  Raises ValueError on mismatched shapes.
    """
    cdef Py_ssize_t i
    cdef uint8_t[:, ::1] work
    if results.shape[1] != N_PAIRS or boards.shape[1] != HAND or not 0 <= start <= stop <= boards.shape[0] \
            or results.shape[0] != boards.shape[0] or threads < 1:
        raise ValueError("evaluate_boards: shapes do not match")
    work = np.empty((threads, board_work_size()), dtype=np.uint8)
    with nogil, parallel(num_threads=threads):
        for i in prange(start, stop, schedule="dynamic", chunksize=16):
            evaluate_board(&boards[i, 0], deck, qualifier_rank, <BoardResult*>&results[i, 0],
                           &work[threadid(), 0])
    return None


def situation_representatives(const card_t[:, ::1] flops, uint64_t deck):
    """Every suit class of (hole pair, flop) situations of the deck, one representative each, in flop order.

    flops: canonical flops (distinct classes), cards of the deck.  Two situations on one
    canonical flop are one class exactly when a renaming of suits that keeps the flop maps
    one hole pair onto the other (situations on different canonical flops never are): a
    class is an orbit of hole pairs under the flop's stabilizer, represented by its lowest
    pair_index.  Returns (rep_flop int32[n], rep_pair uint16[n], members int64[n], keys
    uint8[n, 5]), flop after flop, each flop's representatives by pair_index: the hole
    pairs in each class and its canonical key (hole cards, then flop, each descending:
    isomorphism.canonical_keys).  Raises ValueError on a flop that is not 3 cards of the deck.

    On the eight deuces and treys, the flop 2c 2d 2h is kept by the six renamings of c, d
    and h: the ten pairs off it fall in four classes, a trey of those suits with the 2s, two
    of those treys, the 2s with the 3s, and one of those treys with the 3s:

    >>> rep_flop, rep_pair, members, keys = situation_representatives(np.array([[0, 1, 2]], dtype=np.uint8), 255)
    >>> members.tolist(), keys.tolist()
    ([3, 3, 1, 3], [[4, 1, 3, 2, 0], [5, 4, 2, 1, 0], [4, 0, 3, 2, 1], [5, 4, 3, 2, 0]])
    """
    cdef Py_ssize_t f, n_flops = flops.shape[0], n = 0, p
    cdef int i, k, a, b, n_stable, lowest, image, n_cards = 0
    cdef int cards[N_CARDS]
    cdef int stable[N_PERMUTATIONS]
    cdef int sizes[2]
    cdef uint64_t flop_mask, renamed_mask
    if flops.shape[1] != FLOP_CARDS:
        raise ValueError("situation_representatives: a flop is 3 cards")
    for f in range(n_flops):
        for k in range(FLOP_CARDS):
            if flops[f, k] >= N_CARDS or not (deck >> flops[f, k]) & 1:
                raise ValueError("situation_representatives: a flop card is not in the deck")
    for i in range(N_CARDS):
        if (deck >> i) & 1:
            cards[n_cards] = i
            n_cards += 1
    sizes[0] = HOLE_CARDS
    sizes[1] = FLOP_CARDS
    table_array = perm_pair_table()
    cdef const uint16_t[:, ::1] table = table_array
    suits_array = np.array(PERMUTATIONS, dtype=np.uint8)
    cdef const uint8_t[:, ::1] suits = suits_array
    capacity = max(n_flops * (n_cards - FLOP_CARDS) * (n_cards - FLOP_CARDS - 1) // 2, 1)
    rep_flop_array = np.empty(capacity, dtype=np.int32)
    rep_pair_array = np.empty(capacity, dtype=np.uint16)
    members_array = np.zeros(capacity, dtype=np.int64)
    keys_array = np.empty((capacity, HOLE_CARDS + FLOP_CARDS), dtype=np.uint8)
    rep_of_array = np.empty(N_PAIRS, dtype=np.int64)
    cdef int32_t[::1] rep_flop = rep_flop_array
    cdef uint16_t[::1] rep_pair = rep_pair_array
    cdef int64_t[::1] members = members_array
    cdef uint8_t[:, ::1] keys = keys_array
    cdef int64_t[::1] rep_of = rep_of_array          # a representative pair's row
    in_deck_array = np.zeros(N_PAIRS, dtype=np.uint8)
    cdef uint8_t[::1] in_deck = in_deck_array
    for a in range(n_cards):
        for b in range(a):
            in_deck[pair_index(cards[a], cards[b])] = 1
    with nogil:
        for f in range(n_flops):
            flop_mask = 0
            for k in range(FLOP_CARDS):
                flop_mask |= (<uint64_t>1) << flops[f, k]
            n_stable = 0
            for i in range(N_PERMUTATIONS):
                renamed_mask = 0
                for k in range(FLOP_CARDS):
                    renamed_mask |= (<uint64_t>1) << with_suit(flops[f, k], &suits[i, 0])
                if renamed_mask == flop_mask:
                    stable[n_stable] = i
                    n_stable += 1
            for a in range(n_cards):
                if (flop_mask >> cards[a]) & 1:
                    continue
                for b in range(a):                      # pair_index ascending: the lower card varies fastest
                    if (flop_mask >> cards[b]) & 1:
                        continue
                    p = pair_index(cards[a], cards[b])
                    lowest = p
                    for i in range(n_stable):          # the orbit's pairs in the deck (a reduced deck may lack some)
                        image = table[stable[i], p]
                        if image < lowest and in_deck[image]:
                            lowest = image
                    if lowest == p:
                        rep_of[p] = n
                        rep_flop[n] = <int32_t>f
                        rep_pair[n] = <uint16_t>p
                        keys[n, 0] = <uint8_t>cards[a]
                        keys[n, 1] = <uint8_t>cards[b]
                        for k in range(FLOP_CARDS):
                            keys[n, HOLE_CARDS + k] = flops[f, k]
                        canonicalize(&keys[n, 0], sizes, 2)
                        n += 1
                    members[rep_of[lowest]] += 1
    return rep_flop_array[:n].copy(), rep_pair_array[:n].copy(), members_array[:n].copy(), keys_array[:n].copy()


def flop_uses(const card_t[:, ::1] flops, uint64_t deck, const int32_t[::1] board_class,
              const uint8_t[::1] board_perm):
    """Every (canonical flop, turn/river pair) of the deck: its board's class and the renaming onto it.

    flops: canonical flops, cards of the deck; board_class, board_perm: from
    board_classes(deck).  Returns (use_board int32[n_flops * per_flop], use_perm
    uint8[...]), flop after flop, the turn/river pairs (t < r, neither in the flop) of
    each in ascending order; per_flop = C(n - 3, 2) for a deck of n cards.  Raises
    ValueError on mismatched shapes or a flop card outside the deck.

    >>> board_class, board_perm, boards = board_classes((1 << 8) - 1)
    >>> use_board, use_perm = flop_uses(np.array([[0, 1, 2]], dtype=np.uint8), (1 << 8) - 1, board_class, board_perm)
    >>> len(use_board), int(use_board.min()) >= 0                  # C(5, 2) turn/river pairs, all boards of the deck
    (10, True)
    """
    cdef Py_ssize_t f, u = 0, n_flops = flops.shape[0]
    cdef int n = 0, t, r, i, k
    cdef int cards[N_CARDS]
    cdef int five[HAND]
    cdef card_t sorted_flop[FLOP_CARDS]
    cdef uint64_t flop_mask, index
    cdef Py_ssize_t per_flop
    if flops.shape[1] != FLOP_CARDS or board_class.shape[0] != N_BOARDS or board_perm.shape[0] != N_BOARDS:
        raise ValueError("flop_uses: shapes do not match")
    for i in range(N_CARDS):
        if (deck >> i) & 1:
            cards[n] = i
            n += 1
    for f in range(n_flops):
        for k in range(FLOP_CARDS):
            if flops[f, k] >= N_CARDS or not (deck >> flops[f, k]) & 1:
                raise ValueError("flop_uses: a flop card is not in the deck")
    per_flop = (n - FLOP_CARDS) * (n - FLOP_CARDS - 1) // 2
    use_board_array = np.empty(n_flops * per_flop, dtype=np.int32)
    use_perm_array = np.empty(n_flops * per_flop, dtype=np.uint8)
    cdef int32_t[::1] use_board = use_board_array
    cdef uint8_t[::1] use_perm = use_perm_array
    with nogil:
        for f in range(n_flops):
            for k in range(FLOP_CARDS):
                sorted_flop[k] = flops[f, k]
            sort_ascending(sorted_flop, FLOP_CARDS)
            flop_mask = 0
            for k in range(FLOP_CARDS):
                flop_mask |= (<uint64_t>1) << sorted_flop[k]
            for t in range(n):
                if (flop_mask >> cards[t]) & 1:
                    continue
                for r in range(t + 1, n):
                    if (flop_mask >> cards[r]) & 1:
                        continue
                    merge_board(sorted_flop, cards[t], cards[r], five)
                    index = colex5(BINOMIAL, five[0], five[1], five[2], five[3], five[4])
                    use_board[u] = board_class[index]
                    use_perm[u] = board_perm[index]
                    u += 1
    return use_board_array, use_perm_array


def accumulate_uses(const board_result_t[:, ::1] results, Py_ssize_t first_board,
                    const uint16_t[:, ::1] perm_pairs, const int32_t[::1] use_board, const uint8_t[::1] use_perm,
                    const int64_t[::1] segment_start, const int32_t[::1] segment_flop,
                    const int64_t[::1] rep_start, const uint16_t[::1] rep_pair,
                    uint32_t[:, ::1] counts, Py_ssize_t first_row, int threads):
    """Pass 2 for some uses: add each use's board results into its flop's representatives' counters.

    Segment k is the uses segment_start[k]..segment_start[k+1]-1 (of use_board, use_perm),
    all of flop segment_flop[k]; flop f's representatives are the hole pairs rep_pair[j]
    (pair_index), j = rep_start[f]..rep_start[f+1]-1, counted in row j - first_row of
    counts (representatives in flop order).  results holds the board results of boards
    first_board.. (pass 1, evaluate_boards); perm_pairs: perm_pair_table().  counts:
    (rows, COUNTS_PER_SITUATION), added to.

    The segments are shared out among `threads` threads, a segment at a time; they must
    name distinct flops, so that no two threads write one counter.  Raises ValueError,
    before counting anything, on mismatched shapes, a use whose board is not in results, a
    representative outside counts, or a flop named by two segments.
    """
    cdef Py_ssize_t k, u, n_segments = segment_flop.shape[0], n_flops = rep_start.shape[0] - 1
    cdef Py_ssize_t n_boards = results.shape[0], n_rows = counts.shape[0]
    cdef int32_t f
    cdef int bad = 0
    if results.shape[1] != N_PAIRS or counts.shape[1] != N_COUNTS or perm_pairs.shape[0] != N_PERMUTATIONS \
            or perm_pairs.shape[1] != N_PAIRS or segment_start.shape[0] != n_segments + 1 \
            or use_perm.shape[0] != use_board.shape[0] or n_flops < 0 or threads < 1:
        raise ValueError("accumulate_uses: shapes do not match")
    seen_array = np.zeros(max(n_flops, 1), dtype=np.uint8)
    cdef uint8_t[::1] seen = seen_array
    with nogil:
        for k in range(n_segments):
            f = segment_flop[k]
            if f < 0 or f >= n_flops or seen[f] or segment_start[k] < 0 or segment_start[k] > segment_start[k + 1] \
                    or segment_start[k + 1] > use_board.shape[0] or rep_start[f] < first_row \
                    or rep_start[f] > rep_start[f + 1] or rep_start[f + 1] > first_row + n_rows \
                    or rep_start[f + 1] > rep_pair.shape[0]:
                bad = 1
                break
            seen[f] = 1
            for u in range(segment_start[k], segment_start[k + 1]):
                if use_board[u] < first_board or use_board[u] >= first_board + n_boards \
                        or use_perm[u] >= N_PERMUTATIONS:
                    bad = 1
            for u in range(rep_start[f], rep_start[f + 1]):
                if rep_pair[u] >= N_PAIRS:
                    bad = 1
    if bad:
        raise ValueError("accumulate_uses: a segment's flop, uses or representatives are out of range")
    with nogil:
        for k in prange(n_segments, schedule="dynamic", chunksize=1, num_threads=threads):
            f = segment_flop[k]
            accumulate_segment(<const BoardResult*>&results[0, 0], first_board, &perm_pairs[0, 0],
                               &use_board[segment_start[k]], &use_perm[segment_start[k]],
                               segment_start[k + 1] - segment_start[k], &rep_pair[rep_start[f]],
                               rep_start[f + 1] - rep_start[f], &counts[rep_start[f] - first_row, 0])
    return None


def permute_rows(uint32_t[:, ::1] rows, const int32_t[::1] destination):
    """Move row i of `rows` to row destination[i], for every i, in place (two spare rows of memory).

    destination must be a permutation of 0..len(rows)-1; ValueError otherwise (rows untouched).

    >>> rows = np.array([[0], [1], [2]], dtype=np.uint32)
    >>> permute_rows(rows, np.array([2, 0, 1], dtype=np.int32)); rows.ravel().tolist()
    [1, 2, 0]
    """
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], i, j, target
    cdef int bad = 0
    if destination.shape[0] != n:
        raise ValueError("permute_rows: one destination per row")
    visited_array = np.zeros(n, dtype=np.uint8)
    spare_array = np.empty((2, max(width, 1)), dtype=np.uint32)
    cdef uint8_t[::1] visited = visited_array
    cdef uint32_t[:, ::1] spare = spare_array
    with nogil:
        for i in range(n):                                   # a permutation: every row is some row's destination
            if destination[i] < 0 or destination[i] >= n or visited[destination[i]]:
                bad = 1
                break
            visited[destination[i]] = 1
        if not bad and n > 0:
            memset(&visited[0], 0, n)
    if bad:
        raise ValueError("permute_rows: the destinations are not a permutation of the rows")
    with nogil:
        for i in range(n):
            if visited[i]:
                continue
            # carry row i along its cycle: i -> destination[i] -> ...
            memcpy(&spare[0, 0], &rows[i, 0], width * sizeof(uint32_t))
            j = i
            while not visited[j]:
                visited[j] = 1
                target = destination[j]
                memcpy(&spare[1, 0], &rows[target, 0], width * sizeof(uint32_t))
                memcpy(&rows[target, 0], &spare[0, 0], width * sizeof(uint32_t))
                memcpy(&spare[0, 0], &spare[1, 0], width * sizeof(uint32_t))
                j = target
    return None


def deal_one_situation(const card_t[::1] hole, const card_t[::1] flop, uint64_t deck, int qualifier_rank):
    """Counts (10 categories x 4 outcomes) of one situation by dealing every continuation.

    Every turn/river pair and every dealer hole pair is dealt explicitly and both hands
    evaluated directly: no card-removal arithmetic, no suit symmetry.  About 1.07 million
    evaluations; an independent check of the two-pass enumeration and a one-off answer.
    Returns an int64 array (category, outcome code); raises ValueError unless there are 2
    hole cards and 3 flop cards.

    On the twelve deuces, treys and fours, 7 cards are left: C(7, 2) turn/river pairs, each
    with C(5, 2) dealer hole pairs:

    >>> counts = deal_one_situation(np.array([8, 9], dtype=np.uint8), np.array([0, 1, 4], dtype=np.uint8),
    ...                             (1 << 12) - 1, 0)
    >>> counts.shape, int(counts.sum())
    ((10, 4), 210)
    """
    cdef uint64_t used = 0
    cdef int cards[N_CARDS]
    cdef int n = 0, i, j, k, l, player_rank, dealer_rank, category
    cdef rankmask_t m[N_SUITS]
    cdef rankmask_t pm[N_SUITS]
    cdef rankmask_t dm[N_SUITS]
    cdef handval_t value
    result = np.zeros((N_CATEGORIES, N_OUTCOMES), dtype=np.int64)
    cdef int64_t[:, ::1] out = result
    if hole.shape[0] != HOLE_CARDS or flop.shape[0] != FLOP_CARDS:
        raise ValueError(f"a situation is {HOLE_CARDS} hole cards and {FLOP_CARDS} flop cards")
    for i in range(HOLE_CARDS):
        used |= (<uint64_t>1) << hole[i]
    for i in range(FLOP_CARDS):
        used |= (<uint64_t>1) << flop[i]
    for i in range(N_CARDS):
        if (deck >> i) & 1 and not (used >> i) & 1:
            cards[n] = i
            n += 1
    with nogil:
        for i in range(n):
            for j in range(i + 1, n):
                masks_of(&flop[0], FLOP_CARDS, m)            # the board: flop, turn, river
                add_card(m, cards[i])
                add_card(m, cards[j])
                copy_masks(pm, m)
                add_card(pm, hole[0])
                add_card(pm, hole[1])
                value = eval_masks(pm[0], pm[1], pm[2], pm[3])
                player_rank = dense_rank(value)
                category = hand_category(value)
                for k in range(n):
                    if k == i or k == j:
                        continue
                    for l in range(k + 1, n):
                        if l == i or l == j:
                            continue
                        copy_masks(dm, m)
                        add_card(dm, cards[k])
                        add_card(dm, cards[l])
                        dealer_rank = dense_rank(eval_masks(dm[0], dm[1], dm[2], dm[3]))
                        out[category, outcome_of(player_rank, dealer_rank, qualifier_rank)] += 1
    return result


PAIRS = N_PAIRS              # Python-visible sizes of the count arrays
COUNTS_PER_SITUATION = N_COUNTS
