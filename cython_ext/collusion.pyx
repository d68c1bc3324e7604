"""Colluding players' exact outcome counts, deal by deal: every dealer completion of a deal whose seats are known.

N seats pool their cards; for one such deal every completion of the dealer's hand
(Caribbean Stud: his four hole cards; Casino Hold'em: the turn and river, then his two
hole cards) is counted by the outcome it gives each seat, and, in Hold'em, by the seat's
final category.

Algorithm: counting by rank.  A hand that makes no flush has the value of its ranks, so
the dealer's completions are counted a rank multiset at a time (Stud: 1,820 multisets of
four ranks rather than up to C(41, 4) = 101,270 hands; Hold'em: 91 rank pairs per board
rather than up to 946 hole pairs), each weighted by the product over its ranks of C(cards
of that rank left, times it is taken).  The completions that do make a flush are then
dealt one by one and moved from their rank value to their true one.  Every count is an
integer; the plain brute force of `analyzer.games.*.reference` is the check.
"""
from cython.parallel cimport prange

import numpy as np

from cython_ext._types cimport (card_t, rankmask_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, HAND, N_CARDS, N_RANKS,
                                N_SUITS, N_CATEGORIES, N_OUTCOMES, outcome_of, card_rank, card_suit, add_card,
                                clear_masks, masks_of)
from cython_ext.handeval cimport eval_masks, eval_no_flush, eval_cards, dense_rank, hand_category, handval_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    MAX_SEATS = 8             # seats a deal may pool (Caribbean Stud: 7 at most on 52 cards)
    STUD_HOLE = 4             # the dealer's hole cards in Caribbean Stud
    N_MULTISETS = 1820        # multisets of four ranks: C(13 + 3, 4)
    HOLE_CARDS = 2            # Casino Hold'em hole cards, each seat's and the dealer's
    FLOP_CARDS = 3
    MAX_RANK_COUNT = 4        # cards of one rank in a deck

cdef uint8_t MULTISET_RANKS[N_MULTISETS][STUD_HOLE]     # each multiset's ranks, ascending
cdef uint16_t STUD_RANK[N_RANKS][N_MULTISETS]           # dense rank of an up card's rank and a multiset's,
                                                        # no flush (unused where a rank would be held 5 times)
cdef int64_t BINOMIAL[MAX_RANK_COUNT + 1][MAX_RANK_COUNT + 1]   # C(n, k), n, k <= 4


cdef void fill_tables() noexcept:
    cdef int a, b, c, d, m = 0, n, k, up
    cdef rankmask_t layers[MAX_RANK_COUNT + 1]
    cdef int held[N_RANKS]
    for n in range(MAX_RANK_COUNT + 1):
        for k in range(MAX_RANK_COUNT + 1):
            BINOMIAL[n][k] = 0 if k > n else (1 if k == 0 or k == n else BINOMIAL[n - 1][k - 1] + BINOMIAL[n - 1][k])
    for a in range(N_RANKS):
        for b in range(a, N_RANKS):
            for c in range(b, N_RANKS):
                for d in range(c, N_RANKS):
                    MULTISET_RANKS[m][0], MULTISET_RANKS[m][1], MULTISET_RANKS[m][2], MULTISET_RANKS[m][3] = a, b, c, d
                    for up in range(N_RANKS):
                        for k in range(MAX_RANK_COUNT + 1):
                            layers[k] = 0
                        for k in range(N_RANKS):
                            held[k] = 0
                        for k in (up, a, b, c, d):
                            add_rank(layers, held, k)
                        STUD_RANK[up][m] = dense_rank(eval_no_flush(layers[0], layers[1], layers[2], layers[3]))
                    m += 1


cdef inline int64_t multiset_ways(const uint8_t* ranks, const int* left) noexcept nogil:
    """Ways to take four cards of these ranks (ascending, repeats allowed) from `left` cards of each rank."""
    cdef int64_t ways = 1
    cdef int i = 0, j
    while i < STUD_HOLE:
        j = i + 1
        while j < STUD_HOLE and ranks[j] == ranks[i]:
            j += 1
        ways *= BINOMIAL[left[ranks[i]]][j - i]
        i = j
    return ways


cdef inline void add_rank(rankmask_t* layers, int* held, int rank) noexcept nogil:
    """One more card of `rank` in count layers (layer k: the ranks held more than k times)."""
    layers[held[rank]] |= <rankmask_t>(1 << rank)
    held[rank] += 1


cdef inline void tally(int64_t* counts, const int* player, int n_seats, int dealer, int qualifier_rank,
                       int64_t ways, const int* offset) noexcept nogil:
    """Adds `ways` completions whose dealer hand has dense rank `dealer` to every seat's outcome counters
    (seat i's counters start at offset[i])."""
    cdef int i
    for i in range(n_seats):
        counts[offset[i] + outcome_of(player[i], dealer, qualifier_rank)] += ways


cdef inline int known_cards(const card_t* row, int n, uint64_t deck, uint64_t* known) noexcept nogil:
    """The row's cards as a mask; -1 unless they are distinct cards of the deck."""
    cdef int i
    known[0] = 0
    for i in range(n):
        if row[i] >= N_CARDS:
            return -1
        known[0] |= (<uint64_t>1) << row[i]
    return 0 if __builtin_popcountll(known[0]) == n and not (known[0] & ~deck) else -1


fill_tables()


cdef int stud_deal(const card_t* row, int n_seats, uint64_t deck, int qualifier_rank, uint32_t* out,
                   uint8_t* category) noexcept nogil:
    """Caribbean Stud: seats' hands row[5i .. 5i + 4], the up card row[5 n_seats]; out: 4 counts per seat."""
    cdef int64_t counts[MAX_SEATS * N_OUTCOMES]
    cdef int player[MAX_SEATS]
    cdef int offset[MAX_SEATS]
    cdef int left[N_RANKS]
    cdef card_t suited[N_RANKS]
    cdef rankmask_t flush[N_SUITS]
    cdef uint64_t known
    cdef handval_t value
    cdef int up = row[HAND * n_seats], n_suited = 0, i, m, a, b, c, d
    cdef int64_t ways
    if known_cards(row, HAND * n_seats + 1, deck, &known) < 0:
        return -1
    for i in range(N_RANKS):
        left[i] = 0
    for i in range(N_CARDS):
        if (deck >> i) & 1 and not (known >> i) & 1:
            left[card_rank(i)] += 1
            if card_suit(i) == card_suit(up):
                suited[n_suited] = i
                n_suited += 1
    for i in range(n_seats):
        value = eval_cards(row + HAND * i, HAND)
        player[i] = dense_rank(value)
        category[i] = hand_category(value)
        offset[i] = N_OUTCOMES * i
    for i in range(n_seats * N_OUTCOMES):
        counts[i] = 0
    for m in range(N_MULTISETS):
        ways = multiset_ways(MULTISET_RANKS[m], left)
        if ways:
            tally(counts, player, n_seats, STUD_RANK[card_rank(up)][m], qualifier_rank, ways, offset)
    # the four hole cards in the up card's suit make a flush: counted above at the value of their ranks
    for a in range(n_suited):
        for b in range(a + 1, n_suited):
            for c in range(b + 1, n_suited):
                for d in range(c + 1, n_suited):
                    clear_masks(flush)
                    add_card(flush, up)
                    add_card(flush, suited[a])
                    add_card(flush, suited[b])
                    add_card(flush, suited[c])
                    add_card(flush, suited[d])
                    tally(counts, player, n_seats, dense_rank(eval_no_flush(flush[card_suit(up)], 0, 0, 0)),
                          qualifier_rank, -1, offset)
                    tally(counts, player, n_seats, dense_rank(eval_masks(flush[0], flush[1], flush[2], flush[3])),
                          qualifier_rank, 1, offset)
    for i in range(n_seats * N_OUTCOMES):
        out[i] = <uint32_t>counts[i]
    return 0


cdef inline int pair_rank(const rankmask_t* layers, const int* held, int a, int b) noexcept nogil:
    """Dense rank, ignoring flushes, of the board (count layers `layers`, `held` cards of each rank) with two
    more cards of ranks a and b (at most four of a rank in all)."""
    cdef rankmask_t with_pair[MAX_RANK_COUNT + 1]
    cdef int k
    for k in range(MAX_RANK_COUNT + 1):
        with_pair[k] = layers[k]
    with_pair[held[a]] |= <rankmask_t>(1 << a)
    with_pair[held[b] + (a == b)] |= <rankmask_t>(1 << b)
    return dense_rank(eval_no_flush(with_pair[0], with_pair[1], with_pair[2], with_pair[3]))


cdef inline void move_flush(card_t x, card_t y, const rankmask_t* board, const rankmask_t* layers, const int* held,
                            int64_t* counts, const int* player, int n_seats, int qualifier_rank,
                            const int* offset) noexcept nogil:
    """The dealer hole pair x, y makes a flush: moved from the value of its ranks to its true value."""
    cdef rankmask_t masks[N_SUITS]
    cdef int k
    for k in range(N_SUITS):
        masks[k] = board[k]
    add_card(masks, x)
    add_card(masks, y)
    tally(counts, player, n_seats, pair_rank(layers, held, card_rank(x), card_rank(y)), qualifier_rank, -1, offset)
    tally(counts, player, n_seats, dense_rank(eval_masks(masks[0], masks[1], masks[2], masks[3])), qualifier_rank, 1,
          offset)


cdef int holdem_deal(const card_t* row, int n_seats, uint64_t deck, int qualifier_rank, uint32_t* out) noexcept nogil:
    """Casino Hold'em: seats' hole cards row[2i], row[2i + 1], the flop after them; out: 10 x 4 counts per seat."""
    cdef int64_t counts[MAX_SEATS * N_CATEGORIES * N_OUTCOMES]
    cdef int player[MAX_SEATS]
    cdef int offset[MAX_SEATS]
    cdef card_t left[N_CARDS]
    cdef card_t suited[N_CARDS]
    cdef card_t other[N_CARDS]
    cdef int remaining[N_RANKS]
    cdef int held[N_RANKS]
    cdef rankmask_t board[N_SUITS]
    cdef rankmask_t masks[N_SUITS]
    cdef rankmask_t layers[MAX_RANK_COUNT + 1]
    cdef const card_t* flop = row + HOLE_CARDS * n_seats
    cdef uint64_t known
    cdef handval_t value
    cdef int n_left = 0, n_suited, n_other, t, r, i, j, k, a, b, suit, on_board
    cdef int64_t ways
    if known_cards(row, HOLE_CARDS * n_seats + FLOP_CARDS, deck, &known) < 0:
        return -1
    for i in range(N_CARDS):
        if (deck >> i) & 1 and not (known >> i) & 1:
            left[n_left] = i
            n_left += 1
    for i in range(n_seats * N_CATEGORIES * N_OUTCOMES):
        counts[i] = 0
    for t in range(n_left):
        for r in range(t + 1, n_left):
            masks_of(flop, FLOP_CARDS, board)
            add_card(board, left[t])
            add_card(board, left[r])
            for i in range(n_seats):
                for k in range(N_SUITS):
                    masks[k] = board[k]
                add_card(masks, row[HOLE_CARDS * i])
                add_card(masks, row[HOLE_CARDS * i + 1])
                value = eval_masks(masks[0], masks[1], masks[2], masks[3])
                player[i] = dense_rank(value)
                offset[i] = (i * N_CATEGORIES + hand_category(value)) * N_OUTCOMES
            for k in range(N_RANKS):
                held[k] = 0
                remaining[k] = 0
            for k in range(MAX_RANK_COUNT + 1):
                layers[k] = 0
            for k in range(FLOP_CARDS):
                add_rank(layers, held, card_rank(flop[k]))
            add_rank(layers, held, card_rank(left[t]))
            add_rank(layers, held, card_rank(left[r]))
            for k in range(n_left):
                if k != t and k != r:
                    remaining[card_rank(left[k])] += 1
            for a in range(N_RANKS):                # the dealer's hole pairs by their ranks a <= b
                if remaining[a] == 0:
                    continue
                for b in range(a, N_RANKS):
                    ways = BINOMIAL[remaining[a]][2] if a == b else remaining[a] * remaining[b]
                    if ways:
                        tally(counts, player, n_seats, pair_rank(layers, held, a, b), qualifier_rank, ways, offset)
            for suit in range(N_SUITS):             # a suit with three or more board cards: the flushes
                on_board = __builtin_popcountll(board[suit])
                if on_board < HAND - HOLE_CARDS:
                    continue
                n_suited = n_other = 0
                for k in range(n_left):
                    if k == t or k == r:
                        continue
                    if card_suit(left[k]) == suit:
                        suited[n_suited] = left[k]
                        n_suited += 1
                    else:
                        other[n_other] = left[k]
                        n_other += 1
                for i in range(n_suited):           # both hole cards of the suit
                    for j in range(i + 1, n_suited):
                        move_flush(suited[i], suited[j], board, layers, held, counts, player, n_seats,
                                   qualifier_rank, offset)
                if on_board >= HAND - 1:            # one of them
                    for i in range(n_suited):
                        for j in range(n_other):
                            move_flush(suited[i], other[j], board, layers, held, counts, player, n_seats,
                                       qualifier_rank, offset)
                if on_board == HAND:                # neither
                    for i in range(n_other):
                        for j in range(i + 1, n_other):
                            move_flush(other[i], other[j], board, layers, held, counts, player, n_seats,
                                       qualifier_rank, offset)
    for i in range(n_seats * N_CATEGORIES * N_OUTCOMES):
        out[i] = <uint32_t>counts[i]
    return 0


def _checked(deck_cards, deals, int seat_cards, int shared_cards, int n_seats, int dealt_after):
    """The deck as a mask and the deals as a C-contiguous uint8 array, or ValueError saying what is wrong."""
    cards = sorted({int(c) for c in deck_cards})
    if any(not 0 <= c < N_CARDS for c in cards):
        raise ValueError(f"deck cards must be 0..{N_CARDS - 1}")
    if not 1 <= n_seats <= MAX_SEATS:
        raise ValueError(f"a deal pools 1 to {MAX_SEATS} seats, not {n_seats}")
    width = seat_cards * n_seats + shared_cards
    if len(cards) < width + dealt_after:
        raise ValueError(f"{len(cards)} cards cannot deal {n_seats} seats and complete the dealer's hand")
    deals = np.ascontiguousarray(deals, dtype=np.uint8)
    if deals.ndim != 2 or deals.shape[1] != width:
        raise ValueError(f"deals must be rows of {width} cards ({n_seats} seats of {seat_cards}, then {shared_cards})")
    return sum(1 << c for c in cards), deals


def _raise_for_bad_rows(const uint8_t[::1] bad):
    rows = np.flatnonzero(np.asarray(bad))
    if len(rows):
        raise ValueError(f"deal row {rows[0]} repeats a card or holds one outside the deck")


def stud_outcomes(deck_cards, deals, int n_seats, int qualifier_rank, int threads=1):
    """Caribbean Stud: per deal and seat, (not qualified, player wins, tie, dealer wins) over every 4-card
    completion of the dealer's hand from the cards no seat holds, and each seat's hand category.

    deals: (n, 5 n_seats + 1) cards, the seats' hands then the dealer's up card.  Returns
    ((n, n_seats, 4) uint32, (n, n_seats) uint8); raises ValueError for a row that repeats a card
    or holds one outside the deck.

    >>> deck = list(range(16, 52))        # sixes to aces: C(25, 4) completions
    >>> counts, categories = stud_outcomes(deck, [[48, 44, 40, 36, 32, 49, 45, 41, 37, 33, 50]], 2, 0)
    >>> counts.sum(axis=2).tolist(), categories.tolist()                # two royal flushes
    ([[12650, 12650]], [[9, 9]])
    """
    mask, rows = _checked(deck_cards, deals, HAND, 1, n_seats, STUD_HOLE)
    cdef uint64_t deck = mask
    cdef const uint8_t[:, ::1] deal_rows = rows
    cdef Py_ssize_t n = rows.shape[0], i
    counts = np.zeros((n, n_seats, N_OUTCOMES), dtype=np.uint32)
    categories = np.zeros((n, n_seats), dtype=np.uint8)
    bad = np.zeros(n, dtype=np.uint8)
    cdef uint32_t[:, :, ::1] out = counts
    cdef uint8_t[:, ::1] category = categories
    cdef uint8_t[::1] bad_v = bad
    for i in prange(n, nogil=True, num_threads=max(1, threads), schedule="dynamic", chunksize=16):
        bad_v[i] = stud_deal(&deal_rows[i, 0], n_seats, deck, qualifier_rank, &out[i, 0, 0], &category[i, 0]) != 0
    _raise_for_bad_rows(bad)
    return counts, categories


def holdem_outcomes(deck_cards, deals, int n_seats, int qualifier_rank, int threads=1):
    """Casino Hold'em: per deal and seat, counts by final category x outcome over every turn and river and
    every dealer hole pair from the cards no seat holds.

    deals: (n, 2 n_seats + 3) cards, the seats' hole cards then the flop.  Returns an
    (n, n_seats, 10, 4) uint32 array; raises ValueError for a row that repeats a card or holds
    one outside the deck.

    >>> deck = list(range(32, 52))        # tens to aces: C(13, 2) x C(11, 2) completions
    >>> counts = holdem_outcomes(deck, [[51, 50, 47, 46, 49, 45, 41]], 2, 0)
    >>> counts.sum(axis=(2, 3)).tolist()
    [[4290, 4290]]
    """
    mask, rows = _checked(deck_cards, deals, HOLE_CARDS, FLOP_CARDS, n_seats, 2 * HOLE_CARDS)
    cdef uint64_t deck = mask
    cdef const uint8_t[:, ::1] deal_rows = rows
    cdef Py_ssize_t n = rows.shape[0], i
    counts = np.zeros((n, n_seats, N_CATEGORIES, N_OUTCOMES), dtype=np.uint32)
    bad = np.zeros(n, dtype=np.uint8)
    cdef uint32_t[:, :, :, ::1] out = counts
    cdef uint8_t[::1] bad_v = bad
    for i in prange(n, nogil=True, num_threads=max(1, threads), schedule="dynamic", chunksize=4):
        bad_v[i] = holdem_deal(&deal_rows[i, 0], n_seats, deck, qualifier_rank, &out[i, 0, 0, 0]) != 0
    _raise_for_bad_rows(bad)
    return counts
