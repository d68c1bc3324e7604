"""Casino Hold'em counts: every (hole, flop) situation against every turn/river and dealer hole pair.

Algorithm, in two passes over the deck:
1. Boards.  Each of the 134,459 suit classes of 5-card boards is evaluated once: the
   7-card value of every player hole pair (1,081 of them), radix-sorted by dense rank,
   then one sweep in rank order counts, by card removal, how many dealer hole pairs
   disjoint from each player pair are below it, equal, and not qualifying (totals
   minus the pairs holding either of the player's cards).
2. Flops.  For each canonical flop and each turn/river pair, the board's class and the
   suit renaming onto it are looked up, and every player hole pair gathers its counts
   from the class's row (through the renaming), adding them to the situation's
   (category x outcome) counters.  Each situation thus sums 1,081 x 990 = 1,070,190
   continuations.
All counters are integers: a board result is at most 990 per field (10 bits); a
situation counter is at most 1,070,190 (uint32).
"""
import itertools

from cython.parallel cimport parallel, prange, threadid
from libc.string cimport memset

import numpy as np

from cython_ext._types cimport (card_t, rankmask_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
                                HAND, N_CARDS, N_SUITS, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE,
                                DEALER_WINS, binomial_table_t, fill_binomials, colex5, add_card, copy_masks,
                                masks_of, with_suit, sort_ascending, outcome_of)
from cython_ext.handeval cimport eval_masks, dense_rank, hand_category, handval_t
from cython_ext.isomorphism cimport suit_renaming

cdef enum:
    HOLE_CARDS = 2
    FLOP_CARDS = 3
    N_BOARDS = 2598960        # C(52, 5): colex indices of 5-card sets
    FIELD_MASK = (1 << FIELD_BITS) - 1
    CATEGORY_MASK = (1 << CATEGORY_FIELD_BITS) - 1
    RADIX_LOW_BITS = 7        # dense ranks < 8192 sort in two counting passes: 7 + 6 bits
    RADIX_LOW = 128
    RADIX_HIGH = 64
    N_PERMUTATIONS = 24       # renamings of the four suits
    SUIT_BITS = 2             # a renaming's code: new suit of suit s in bits 2s, 2s + 1
    N_RENAMING_CODES = 1 << (SUIT_BITS * N_SUITS)

cdef binomial_table_t BINOMIAL             # C(n, k) for colex indices
cdef uint64_t PAIR_CARDS[N_PAIRS]          # card mask of each pair index


cdef struct Hole:
    uint16_t rank          # dense rank of the player's 7-card hand
    uint16_t pair          # pair_index of the hole cards
    uint8_t high           # the two cards
    uint8_t low
    uint8_t category


cdef struct BoardWork:
    Hole holes[N_PAIRS]
    Hole sorted_holes[N_PAIRS]
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


cdef inline board_result_t result_field(int32_t count, int outcome) noexcept nogil:
    """A count in the board-result field of an outcome code."""
    return (<board_result_t>count) << (outcome * FIELD_BITS)


cdef void radix_sort(Hole* src, Hole* dst, int n, int32_t* bucket) noexcept nogil:
    """Stable sort of src by rank into src (dst is scratch), two counting passes."""
    cdef int i, total, count
    cdef int shift, size, pass_
    cdef Hole* a = src
    cdef Hole* b = dst
    cdef Hole* t
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


cdef void evaluate_board(const card_t* board, uint64_t deck, int qualifier_rank,
                         board_result_t* row, void* work_) noexcept nogil:
    cdef BoardWork* work = <BoardWork*>work_
    cdef Hole* holes = work.holes
    cdef rankmask_t masks[N_SUITS]
    cdef rankmask_t m[N_SUITS]
    cdef int rest[N_CARDS]
    cdef int n_rest = 0, n_holes = 0, i, j, h, a, b, group
    cdef uint64_t board_mask = 0
    cdef int32_t unqualified = 0, below = 0, n_dealer
    cdef int32_t less, equal, not_qualified, win, tie, lose
    cdef handval_t value
    masks_of(board, HAND, masks)
    for i in range(HAND):
        board_mask |= (<uint64_t>1) << board[i]
    for i in range(N_CARDS):
        if (deck >> i) & 1 and not (board_mask >> i) & 1:
            rest[n_rest] = i
            n_rest += 1
    n_dealer = (n_rest - 2) * (n_rest - 3) // 2
    for i in range(n_rest):
        for j in range(i):
            a = rest[i]
            b = rest[j]
            copy_masks(m, masks)
            add_card(m, a)
            add_card(m, b)
            value = eval_masks(m[0], m[1], m[2], m[3])
            holes[n_holes].rank = dense_rank(value)
            holes[n_holes].pair = pair_index(a, b)
            holes[n_holes].high = a
            holes[n_holes].low = b
            holes[n_holes].category = hand_category(value)
            n_holes += 1
    radix_sort(holes, work.sorted_holes, n_holes, work.bucket)

    memset(work.below_by_card, 0, sizeof(work.below_by_card))
    memset(work.group_by_card, 0, sizeof(work.group_by_card))
    memset(work.unqualified_by_card, 0, sizeof(work.unqualified_by_card))
    for h in range(n_holes):
        if holes[h].rank < qualifier_rank:
            unqualified += 1
            work.unqualified_by_card[holes[h].high] += 1
            work.unqualified_by_card[holes[h].low] += 1
    i = 0
    while i < n_holes:
        j = i
        while j < n_holes and holes[j].rank == holes[i].rank:
            work.group_by_card[holes[j].high] += 1
            work.group_by_card[holes[j].low] += 1
            j += 1
        group = j - i
        for h in range(i, j):
            a = holes[h].high
            b = holes[h].low
            # dealer pairs disjoint from {a, b}: all, minus those holding a or b
            less = below - work.below_by_card[a] - work.below_by_card[b]
            equal = group - (work.group_by_card[a] + work.group_by_card[b] - 1)
            not_qualified = unqualified - work.unqualified_by_card[a] - work.unqualified_by_card[b]
            if holes[h].rank < qualifier_rank:
                not_qualified += 1          # the pair {a, b} itself was subtracted twice
                win = 0
                tie = 0
                lose = n_dealer - not_qualified
            else:
                win = less - not_qualified
                tie = equal
                lose = n_dealer - less - equal
            row[holes[h].pair] = (result_field(not_qualified, DEALER_NOT_QUALIFIED)
                                  | result_field(win, PLAYER_WINS) | result_field(tie, PUSH_TIE)
                                  | result_field(lose, DEALER_WINS)
                                  | (<board_result_t>holes[h].category << CATEGORY_BIT))
        for h in range(i, j):
            work.below_by_card[holes[h].high] += 1
            work.below_by_card[holes[h].low] += 1
            work.group_by_card[holes[h].high] = 0
            work.group_by_card[holes[h].low] = 0
        below += group
        i = j


cdef void accumulate_flop(const card_t* flop, uint64_t deck, const int32_t* board_class,
                          const uint8_t* board_perm, const uint16_t* perm_pairs,
                          const board_result_t* results, uint32_t* acc) noexcept nogil:
    """Add every turn/river of one flop into acc[pair_index * N_COUNTS + category * N_OUTCOMES + outcome]."""
    cdef uint64_t flop_mask = 0, blocked, v
    cdef int five[HAND]
    cdef int t, r, i, k, p, f0 = flop[0], f1 = flop[1], f2 = flop[2]
    cdef int sorted_flop[FLOP_CARDS]
    cdef const board_result_t* row
    cdef const uint16_t* renamed
    cdef uint32_t* a
    cdef uint64_t index
    # ascending flop
    if f0 > f1:
        f0, f1 = f1, f0
    if f1 > f2:
        f1, f2 = f2, f1
    if f0 > f1:
        f0, f1 = f1, f0
    sorted_flop[0] = f0
    sorted_flop[1] = f1
    sorted_flop[2] = f2
    flop_mask = ((<uint64_t>1) << f0) | ((<uint64_t>1) << f1) | ((<uint64_t>1) << f2)
    for t in range(N_CARDS):
        if not (deck >> t) & 1 or (flop_mask >> t) & 1:
            continue
        for r in range(t + 1, N_CARDS):
            if not (deck >> r) & 1 or (flop_mask >> r) & 1:
                continue
            # merge the ascending flop with t < r
            i = 0
            k = 0
            while k < FLOP_CARDS and sorted_flop[k] < t:
                five[i] = sorted_flop[k]
                i += 1
                k += 1
            five[i] = t
            i += 1
            while k < FLOP_CARDS and sorted_flop[k] < r:
                five[i] = sorted_flop[k]
                i += 1
                k += 1
            five[i] = r
            i += 1
            while k < FLOP_CARDS:
                five[i] = sorted_flop[k]
                i += 1
                k += 1
            index = colex5(BINOMIAL, five[0], five[1], five[2], five[3], five[4])
            row = results + <size_t>board_class[index] * N_PAIRS
            renamed = perm_pairs + <size_t>board_perm[index] * N_PAIRS
            blocked = flop_mask | ((<uint64_t>1) << t) | ((<uint64_t>1) << r) | ~deck
            for p in range(N_PAIRS):
                if PAIR_CARDS[p] & blocked:
                    continue
                v = row[renamed[p]]
                a = acc + p * N_COUNTS + ((v >> CATEGORY_BIT) & CATEGORY_MASK) * N_OUTCOMES
                # Written out: gcc 12 gives this loop an extra instruction when the fields are
                # read through an inline helper (or when `five` is a card_t array).
                a[DEALER_NOT_QUALIFIED] += (v >> (DEALER_NOT_QUALIFIED * FIELD_BITS)) & FIELD_MASK
                a[PLAYER_WINS] += (v >> (PLAYER_WINS * FIELD_BITS)) & FIELD_MASK
                a[PUSH_TIE] += (v >> (PUSH_TIE * FIELD_BITS)) & FIELD_MASK
                a[DEALER_WINS] += (v >> (DEALER_WINS * FIELD_BITS)) & FIELD_MASK


# --- Python-facing entry points: validate, then run without the GIL ---------------------

cdef void init_tables() noexcept nogil:
    cdef int a, b
    fill_binomials(BINOMIAL)
    for a in range(N_CARDS):
        for b in range(a):
            PAIR_CARDS[pair_index(a, b)] = ((<uint64_t>1) << a) | ((<uint64_t>1) << b)


init_tables()

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


def board_classes(uint64_t deck):
    """Suit classes of the deck's 5-card boards.

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
    cdef int n = 0, i0, i1, i2, i3, i4, s, j
    cdef card_t c[HAND]
    cdef card_t renamed[HAND]
    cdef uint64_t signature[N_SUITS]
    cdef uint8_t new_suit[N_SUITS]
    cdef uint64_t index
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
        for i0 in range(n):
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
    canonical_indices = np.unique(canonical_array[canonical_array >= 0])
    numbering = np.full(N_BOARDS, -1, dtype=np.int32)
    numbering[canonical_indices] = np.arange(len(canonical_indices), dtype=np.int32)
    in_deck = canonical_array >= 0
    class_array[in_deck] = numbering[canonical_array[in_deck]]
    return class_array, perm_array, _decode_colex5(canonical_indices)


def _decode_colex5(indices):
    """Cards (ascending) of 5-card sets from their colex indices."""
    out = np.zeros((len(indices), HAND), dtype=np.uint8)
    from math import comb
    for row, index in enumerate(indices.tolist()):
        for k in range(HAND, 0, -1):
            c = k - 1
            while comb(c + 1, k) <= index:
                c += 1
            out[row, k - 1] = c
            index -= comb(c, k)
    return out


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
            evaluate_board(&boards[i, 0], deck, qualifier_rank, &results[i, 0], &work[threadid(), 0])
    return None


def accumulate_flops(const card_t[:, ::1] flops, uint64_t deck, const int32_t[::1] board_class,
                     const uint8_t[::1] board_perm, const uint16_t[:, ::1] perm_pairs,
                     const board_result_t[:, ::1] results, uint32_t[:, ::1] counts,
                     Py_ssize_t start, Py_ssize_t stop, int threads):
    """Pass 2 for flops start..stop-1: counts[flop, pair_index * 40 + category * 4 + outcome].

    board_class, board_perm: from board_classes(deck); perm_pairs: perm_pair_table();
    results: every canonical board's row from evaluate_boards; counts: (len(flops),
    PAIRS * COUNTS_PER_SITUATION), rows start..stop-1 added to.  Raises ValueError on
    mismatched shapes.
    """
    cdef Py_ssize_t i
    if flops.shape[1] != FLOP_CARDS or counts.shape[1] != N_PAIRS * N_COUNTS or counts.shape[0] != flops.shape[0] \
            or board_class.shape[0] != N_BOARDS or board_perm.shape[0] != N_BOARDS \
            or perm_pairs.shape[0] != N_PERMUTATIONS or perm_pairs.shape[1] != N_PAIRS \
            or results.shape[1] != N_PAIRS or not 0 <= start <= stop <= flops.shape[0] or threads < 1:
        raise ValueError("accumulate_flops: shapes do not match")
    with nogil:
        for i in prange(start, stop, schedule="dynamic", chunksize=1, num_threads=threads):
            accumulate_flop(&flops[i, 0], deck, &board_class[0], &board_perm[0], &perm_pairs[0, 0],
                            &results[0, 0], &counts[i, 0])
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
