"""Caribbean Stud: exact counts of the dealer's completions for (player hand, up card) situations.

Algorithm (card removal by inclusion-exclusion over a value sweep).  Every 5-card hand of
the deck is evaluated once and the hands are swept in ascending poker order.  During the
sweep each thread keeps, for every card subset T of 1..4 cards, the number of hands
already swept that contain T (counters indexed by T's colex index).  For a player hand P
and up card u, the dealer hands D with u in D, D disjoint from P and already swept number

    sum over S subset of P, |S| <= 4, of (-1)^|S| * #(swept hands containing S + {u})

(|S| = 4 makes S + {u} a whole hand: "swept" is then its own rank compared with the sweep's).
Asked just before and just after the hands of the player's own rank are added, this gives
the dealer hands below and equal to the player's; asked of a copy of the counters taken
when the sweep reaches the qualifying rank, the dealer hands that do not qualify.  The
subsets S + {u} of a situation are worked out once for all three questions.  Work: 30
counter updates per hand and 31 reads per question, instead of 163,185 evaluations per
situation.  Counters are sized by their bounds (uint8 for 4-card subsets: at most 48
hands), so one thread's counters fit in its core's cache.

Both cores: every thread sweeps all hands into its own counters (cheap) and answers the
questions of its share of the situations (the bulk), so threads never wait on each other.

`situation_classes` lists the suit classes of (hand, up card) in key order, and
`brute_force_situation` is the test oracle (a plain loop over every completion).
"""
import os

import numpy as np

cimport cython
from cython.parallel cimport prange
from libc.string cimport memcpy, memset

from cython_ext._types cimport (card_t, handval_t, rankmask_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
                                N_SUITS, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE, DEALER_WINS, N_OUTCOMES,
                                card_rank, card_suit, masks_of, sort_ascending, fill_binomials, colex5,
                                outcome_of)
from cython_ext.handeval cimport eval_cards, dense_rank, hand_category, N_DISTINCT_HANDS
from cython_ext.isomorphism cimport canonicalize

cdef enum:
    SITUATION = 6                   # the player's five cards and the dealer's up card
    DEALER_HIDDEN = HAND - 1        # the dealer's cards besides the up card
    POSITION_BITS = 6               # a deck position 0..51 packed in 6 bits
    POSITION_MASK = (1 << POSITION_BITS) - 1
    NOT_IN_DECK = 255               # position of a card the deck does not hold
    # A question's counter terms (Terms.index) by subset size |S + {u}|: 1 of one card (+),
    # 5 of two (-), 10 of three (+), 10 of four (-); then 5 whole hands (+) compared by rank.
    TWO_START = 1
    THREE_START = 6
    FOUR_START = 16
    # A swept hand's proper subsets by size: 5 single cards, 10 pairs, 10 triples, 5 quadruples.
    ONES_START = 0
    TWOS_START = 5
    THREES_START = 15
    FOURS_START = 25
    N_PROPER_SUBSETS = 30


# Cards in each subset mask of six positions, and for each place j of the up card among the
# six sorted positions, the masks of the question's subsets S + {u} in term order (tables,
# filled when the module is imported, so the hot loops neither count bits nor branch).
cdef uint8_t SUBSET_SIZE[1 << SITUATION]
cdef uint8_t TERM_MASK[SITUATION][N_COUNTER_TERMS]
cdef uint8_t HAND_MASK[SITUATION][HAND]
cdef uint8_t SUBSET_OF_HAND[N_PROPER_SUBSETS]   # masks of a hand's proper subsets, by size


def _fill_mask_tables():
    for mask in range(1 << SITUATION):
        SUBSET_SIZE[mask] = bin(mask).count("1")
    for j in range(SITUATION):
        with_up = [m for m in range(1, (1 << SITUATION) - 1) if (m >> j) & 1]
        by_size = sorted((m for m in with_up if SUBSET_SIZE[m] < HAND), key=lambda m: SUBSET_SIZE[m])
        hands = [m for m in with_up if SUBSET_SIZE[m] == HAND]
        assert len(by_size) == N_COUNTER_TERMS and len(hands) == HAND
        for k, m in enumerate(by_size):
            TERM_MASK[j][k] = m
        for k, m in enumerate(hands):
            HAND_MASK[j][k] = m
    proper = sorted(range(1, (1 << HAND) - 1), key=lambda m: SUBSET_SIZE[m])
    for k, m in enumerate(proper):
        SUBSET_OF_HAND[k] = m


_fill_mask_tables()


cdef inline void subset_indices(const DeckTables* deck, const int* x, int n, uint32_t* index) noexcept nogil:
    """index[mask] = colex index of the subset `mask` of the ascending positions x[0..n-1].

    Built highest card by highest card: adding x[h] above a subset m of lower cards puts it
    in place |m| + 1, so index[m | 1 << h] = index[m] + C(x[h], |m| + 1).  Within one h the
    iterations are independent (no store-to-load chains).
    """
    cdef int h, m, bit
    cdef const uint32_t* row
    index[0] = 0
    for h in range(n):
        bit = 1 << h
        row = deck.binom[x[h]]
        for m in range(bit):
            index[bit | m] = index[m] + row[SUBSET_SIZE[m] + 1]


cdef inline void build_terms(const DeckTables* deck, const uint8_t* row, Terms* terms) noexcept nogil:
    """The subsets S + {u} of one situation (S within the player's hand, |S| <= 4), grouped by size."""
    cdef int x[SITUATION]
    cdef uint32_t index[1 << SITUATION]
    cdef int i, j, k
    # Insert the up card among the ascending player positions: it lands in place j.
    j = 0
    while j < HAND and row[j] < row[HAND]:
        x[j] = row[j]
        j += 1
    x[j] = row[HAND]
    for i in range(j, HAND):
        x[i + 1] = row[i]
    subset_indices(deck, x, SITUATION, index)
    for k in range(N_COUNTER_TERMS):
        terms.index[k] = index[TERM_MASK[j][k]]
    for k in range(HAND):
        terms.hand_rank[k] = deck.hand_rank[index[HAND_MASK[j][k]]]


cdef inline int64_t count_below(const Counters* counters, const Terms* terms, int below) noexcept nogil:
    """Dealer hands holding u, avoiding P, swept so far (the counters hold ranks < below)."""
    # |partial sums| <= 26 * C(51, 4) < 2**23: int64 is ample.
    cdef int64_t total = counters.one[terms.index[0]]
    cdef int k
    for k in range(TWO_START, THREE_START):
        total -= counters.two[terms.index[k]]
    for k in range(THREE_START, FOUR_START):
        total += counters.three[terms.index[k]]
    for k in range(FOUR_START, N_COUNTER_TERMS):
        total -= counters.four[terms.index[k]]
    for k in range(HAND):
        total += terms.hand_rank[k] < below
    return total


cdef inline void add_hand(const DeckTables* deck, Counters* counters, uint32_t packed) noexcept nogil:
    """Count one swept hand in the counters of its 30 subsets of 1..4 cards."""
    cdef int p[HAND]
    cdef uint32_t index[1 << HAND]
    cdef int i
    for i in range(HAND):
        p[i] = (packed >> (POSITION_BITS * i)) & POSITION_MASK
    subset_indices(deck, p, HAND, index)
    for i in range(ONES_START, TWOS_START):
        counters.one[index[SUBSET_OF_HAND[i]]] += 1
    for i in range(TWOS_START, THREES_START):
        counters.two[index[SUBSET_OF_HAND[i]]] += 1
    for i in range(THREES_START, FOURS_START):
        counters.three[index[SUBSET_OF_HAND[i]]] += 1
    for i in range(FOURS_START, N_PROPER_SUBSETS):
        counters.four[index[SUBSET_OF_HAND[i]]] += 1


cdef void copy_counters(const DeckTables* deck, Counters* target, const Counters* source) noexcept nogil:
    memcpy(target.one, source.one, deck.binom[deck.n_cards][1] * sizeof(uint32_t))
    memcpy(target.two, source.two, deck.binom[deck.n_cards][2] * sizeof(uint16_t))
    memcpy(target.three, source.three, deck.binom[deck.n_cards][3] * sizeof(uint16_t))
    memcpy(target.four, source.four, deck.binom[deck.n_cards][4] * sizeof(uint8_t))


cdef inline Py_ssize_t first_owned(Py_ssize_t first, int thread, int n_threads) noexcept nogil:
    """The first k >= first that this thread owns (k % n_threads == thread)."""
    return first + (thread - first % n_threads + n_threads) % n_threads


cdef void sweep_share(const DeckTables* deck, const SituationTable* table, int thread, int n_threads,
                      Counters* counters, Counters* snapshot, Terms* scratch,
                      uint32_t* out) noexcept nogil:
    # Outcome counts are at most C(46, 4) = 163,185 (full deck): uint32.
    cdef int g, q = table.qualifier_rank
    cdef Py_ssize_t i, k, h, n_own
    cdef int64_t less, upto, nq
    cdef uint32_t* o
    for g in range(N_DISTINCT_HANDS):
        if g == q:
            # The counters hold exactly the non-qualifying hands: keep them for the questions
            # about better player hands, and settle the player hands below the qualifier now
            # (they cannot beat or tie a qualifying dealer).
            copy_counters(deck, snapshot, counters)
            k = thread
            while k < table.start[q]:
                i = table.by_rank[k]
                build_terms(deck, table.positions + SITUATION * i, scratch)
                nq = count_below(counters, scratch, q)
                o = out + i
                o[DEALER_NOT_QUALIFIED * table.count] = <uint32_t>nq
                o[PLAYER_WINS * table.count] = 0
                o[PUSH_TIE * table.count] = 0
                o[DEALER_WINS * table.count] = <uint32_t>(table.completions - nq)
                k += n_threads
        if g < q:
            for h in range(deck.hand_start[g], deck.hand_start[g + 1]):
                add_hand(deck, counters, deck.hands_by_rank[h])
            continue
        # Dealer hands that do not qualify, and those below the player's: asked just before the
        # player's own rank is swept in ...
        n_own = 0
        k = first_owned(table.start[g], thread, n_threads)
        while k < table.start[g + 1]:
            i = table.by_rank[k]
            build_terms(deck, table.positions + SITUATION * i, scratch + n_own)
            o = out + i
            o[DEALER_NOT_QUALIFIED * table.count] = <uint32_t>count_below(snapshot, scratch + n_own, q)
            o[PLAYER_WINS * table.count] = <uint32_t>count_below(counters, scratch + n_own, g)
            n_own += 1
            k += n_threads
        for h in range(deck.hand_start[g], deck.hand_start[g + 1]):
            add_hand(deck, counters, deck.hands_by_rank[h])
        # ... and those below or equal, asked again just after.
        n_own = 0
        k = first_owned(table.start[g], thread, n_threads)
        while k < table.start[g + 1]:
            i = table.by_rank[k]
            upto = count_below(counters, scratch + n_own, g + 1)
            o = out + i
            less = o[PLAYER_WINS * table.count]
            nq = o[DEALER_NOT_QUALIFIED * table.count]
            o[PLAYER_WINS * table.count] = <uint32_t>(less - nq)
            o[PUSH_TIE * table.count] = <uint32_t>(upto - less)
            o[DEALER_WINS * table.count] = <uint32_t>(table.completions - upto)
            n_own += 1
            k += n_threads


# --- building the tables ------------------------------------------------------------------------

# Counting sort by dense rank, in three steps: rank_groups, a stable scatter of item i to
# start[rank[i]] (advancing it), then rank_groups_restored.

cdef inline void rank_groups(const uint16_t* rank, Py_ssize_t n, uint32_t* start) noexcept nogil:
    """start[r] = the number of the n items of dense rank below r, r = 0..N_DISTINCT_HANDS."""
    cdef Py_ssize_t i
    cdef int r
    memset(start, 0, (N_DISTINCT_HANDS + 1) * sizeof(uint32_t))
    for i in range(n):
        start[rank[i] + 1] += 1
    for r in range(N_DISTINCT_HANDS):
        start[r + 1] += start[r]


cdef inline void rank_groups_restored(uint32_t* start) noexcept nogil:
    """After the scatter, which advanced each start[r] to start[r + 1]: the starts again."""
    cdef int r
    for r in range(N_DISTINCT_HANDS, 0, -1):
        start[r] = start[r - 1]
    start[0] = 0


cdef void rank_hands_below(const DeckTables* deck, const card_t* cards, uint16_t* hand_rank,
                           uint8_t* category, int top) noexcept nogil:
    """Dense rank and category of every hand whose highest position is `top`, by colex index."""
    cdef int a, b, c, e
    cdef card_t hand[HAND]
    cdef uint32_t index
    cdef handval_t value
    hand[4] = cards[top]
    for c in range(3, top):
        hand[3] = cards[c]
        for b in range(2, c):
            hand[2] = cards[b]
            for a in range(1, b):
                hand[1] = cards[a]
                for e in range(a):
                    hand[0] = cards[e]
                    index = colex5(deck.binom, e, a, b, c, top)
                    value = eval_cards(hand, HAND)
                    hand_rank[index] = dense_rank(value)
                    category[index] = hand_category(value)


cdef void rank_hands(const DeckTables* deck, const card_t* cards, uint16_t* hand_rank,
                     uint8_t* category) noexcept nogil:
    """Dense rank and category of every 5-card hand of the deck; top cards shared among threads."""
    cdef int top
    for top in prange(HAND - 1, deck.n_cards, schedule="dynamic"):
        rank_hands_below(deck, cards, hand_rank, category, top)


cdef void sort_hands(DeckTables* deck, const uint16_t* hand_rank, uint32_t* by_rank,
                     uint32_t* start) noexcept nogil:
    """Counting sort of the hands by dense rank, each stored as its packed positions."""
    cdef int top, a, b, c, e, r
    cdef uint32_t index
    rank_groups(hand_rank, deck.n_hands, start)
    for top in range(HAND - 1, deck.n_cards):
        for c in range(3, top):
            for b in range(2, c):
                for a in range(1, b):
                    for e in range(a):
                        index = colex5(deck.binom, e, a, b, c, top)
                        r = hand_rank[index]
                        by_rank[start[r]] = (e | (a << POSITION_BITS) | (b << 2 * POSITION_BITS)
                                             | (c << 3 * POSITION_BITS) | (top << 4 * POSITION_BITS))
                        start[r] += 1
    rank_groups_restored(start)


MIN_DECK_CARDS = MIN_DECK          # the smallest deck that deals a round


def _deck_positions(deck_cards):
    deck = np.ascontiguousarray(deck_cards, dtype=np.uint8)
    if deck.ndim != 1 or not MIN_DECK <= len(deck) <= MAX_DECK:
        raise ValueError(f"a deck holds {MIN_DECK} to {MAX_DECK} cards, got {deck.size}")
    if (deck >= N_CARDS).any() or (len(deck) > 1 and (np.diff(deck.astype(np.int64)) <= 0).any()):
        raise ValueError("deck cards must be distinct card indices 0..51 in ascending order")
    position = np.full(N_CARDS, NOT_IN_DECK, dtype=np.uint8)
    position[deck] = np.arange(len(deck), dtype=np.uint8)
    return deck, position


def default_threads() -> int:
    """The cores this process may run on.

    >>> default_threads() >= 1
    True
    """
    return max(1, len(os.sched_getaffinity(0)))


def count_situations(deck_cards, situations, int qualifier_rank, n_threads=None):
    """Exact dealer-completion counts for each (player hand, up card) situation.

    deck_cards: the deck's cards (ascending card indices, 10..52 cards);
    situations: (m, 6) uint8, the player's five cards then the dealer's up card, all in the deck;
    qualifier_rank: the dealer qualifies with a hand of dense rank (handeval) >= this.
    Returns (counts, player_rank, player_category): counts (m, 4) uint32 with columns
    dealer does not qualify / player wins / tie / dealer wins (summing to C(n - 6, 4)), the
    transposed view of a (4, m) array so that each outcome's column is contiguous;
    the dense rank (uint16) and category (uint8) of each player hand.
    Raises ValueError on a malformed deck, situation or qualifier.

    Two pair (deuces and treys) against the up card 4d, on the 24 cards deuce to seven, the
    dealer qualifying with a pair or better: C(18, 4) = 3,060 dealer completions.

    >>> from cython_ext import handeval
    >>> pair_or_better = handeval.dense_at_least(handeval.threshold_value(handeval.CATEGORY_CODES["one_pair"]))
    >>> hand, up = [0, 1, 4, 5, 20], 9                  # 2c 2d 3c 3d 7c, up card 4d
    >>> counts, rank, category = count_situations(range(24), np.array([hand + [up]], dtype=np.uint8),
    ...                                           pair_or_better, n_threads=1)
    >>> counts.tolist(), category.tolist()             # not qualified, player wins, tie, dealer wins
    ([[192, 1565, 0, 1303]], [2])
    >>> tuple(counts[0].tolist()) == brute_force_situation(range(24), hand, up, pair_or_better)
    True
    """
    deck, position = _deck_positions(deck_cards)
    rows = np.ascontiguousarray(situations, dtype=np.uint8)
    if rows.ndim != 2 or rows.shape[1] != SITUATION:
        raise ValueError("situations must be an (m, 6) array: five player cards, then the up card")
    if not 0 <= qualifier_rank < N_DISTINCT_HANDS:
        raise ValueError(f"qualifier_rank must be a dense hand rank 0..{N_DISTINCT_HANDS - 1}")
    cdef int threads = default_threads() if n_threads is None else int(n_threads)
    if threads < 1:
        raise ValueError("n_threads must be at least 1")

    cdef DeckTables tables
    cdef SituationTable table
    cdef int n = len(deck), t
    cdef Py_ssize_t i, m = rows.shape[0]
    fill_binomials(tables.binom)
    tables.n_cards = n
    tables.n_hands = tables.binom[n][HAND]

    hand_rank = np.empty(tables.n_hands, dtype=np.uint16)
    hand_category_of = np.empty(tables.n_hands, dtype=np.uint8)
    bad = np.empty(m, dtype=np.uint8)
    hands_by_rank = np.empty(tables.n_hands, dtype=np.uint32)
    hand_start = np.empty(N_DISTINCT_HANDS + 1, dtype=np.uint32)
    positions = np.empty((m, SITUATION), dtype=np.uint8)
    player_rank = np.empty(m, dtype=np.uint16)
    player_category = np.empty(m, dtype=np.uint8)
    by_rank = np.empty(m, dtype=np.uint32)
    start = np.zeros(N_DISTINCT_HANDS + 1, dtype=np.uint32)
    by_outcome = np.empty((N_OUTCOMES, m), dtype=np.uint32)     # the sweep writes every entry

    cdef const uint8_t[::1] deck_v = deck
    cdef const uint8_t[::1] position_v = position
    cdef const uint8_t[:, ::1] rows_v = rows
    cdef uint16_t[::1] hand_rank_v = hand_rank
    cdef uint8_t[::1] hand_category_v = hand_category_of
    cdef uint8_t[::1] bad_v = bad
    cdef uint32_t[::1] hands_by_rank_v = hands_by_rank
    cdef uint32_t[::1] hand_start_v = hand_start
    cdef uint8_t[:, ::1] positions_v = positions
    cdef uint16_t[::1] player_rank_v = player_rank
    cdef uint8_t[::1] player_category_v = player_category
    cdef uint32_t[::1] by_rank_v = by_rank
    cdef uint32_t[::1] start_v = start
    cdef uint32_t[:, ::1] counts_v = by_outcome
    counts = by_outcome.T                     # (m, 4); each outcome's column contiguous

    with nogil:
        rank_hands(&tables, &deck_v[0], &hand_rank_v[0], &hand_category_v[0])
        sort_hands(&tables, &hand_rank_v[0], &hands_by_rank_v[0], &hand_start_v[0])
    tables.hand_rank = &hand_rank_v[0]
    if m == 0:
        return counts, player_rank, player_category
    with nogil:
        convert_situations(&tables, rows_v, position_v, &hand_category_v[0], positions_v,
                           player_rank_v, player_category_v, bad_v)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(f"situation {first} has a card outside the deck or a card twice: "
                         f"{rows[first].tolist()}")
    tables.hands_by_rank = &hands_by_rank_v[0]
    tables.hand_start = &hand_start_v[0]
    with nogil:
        rank_groups(&player_rank_v[0], m, &start_v[0])
        for i in range(m):                        # stable scatter
            by_rank_v[start_v[player_rank_v[i]]] = <uint32_t>i
            start_v[player_rank_v[i]] += 1
        rank_groups_restored(&start_v[0])
    table.count = m
    table.positions = &positions_v[0, 0]
    table.by_rank = &by_rank_v[0]
    table.start = &start_v[0]
    table.qualifier_rank = qualifier_rank
    table.completions = tables.binom[n - SITUATION][DEALER_HIDDEN]

    # Per thread: counters (zeroed), the snapshot at the qualifier, and room for the terms of
    # its share of one rank group, kept between its two questions about that group.
    arrays = [np.zeros((2 * threads, tables.binom[n][k]), dtype=dtype)
              for k, dtype in ((1, np.uint32), (2, np.uint16), (3, np.uint16), (4, np.uint8))]
    cdef uint32_t[:, ::1] ones = arrays[0]
    cdef uint16_t[:, ::1] twos = arrays[1]
    cdef uint16_t[:, ::1] threes = arrays[2]
    cdef uint8_t[:, ::1] fours = arrays[3]
    blocks = np.zeros(2 * threads * sizeof(Counters), dtype=np.uint8)
    cdef uint8_t[::1] blocks_v = blocks
    cdef Counters* block = <Counters*>&blocks_v[0]
    for t in range(2 * threads):
        block[t].one = &ones[t, 0]
        block[t].two = &twos[t, 0]
        block[t].three = &threes[t, 0]
        block[t].four = &fours[t, 0]
    share = (int(np.diff(start).max()) + threads - 1) // threads
    scratch = np.empty((threads, max(share, 1) * sizeof(Terms)), dtype=np.uint8)
    cdef uint8_t[:, ::1] scratch_v = scratch
    with nogil:
        for t in prange(threads, num_threads=threads, schedule="static", chunksize=1):
            sweep_share(&tables, &table, t, threads, &block[2 * t], &block[2 * t + 1],
                        <Terms*>&scratch_v[t, 0], &counts_v[0, 0])
    return counts, player_rank, player_category


cdef inline uint8_t convert_row(const DeckTables* deck, const uint8_t* row, const uint8_t* position,
                                const uint8_t* hand_category_of, uint8_t* positions, uint16_t* player_rank,
                                uint8_t* player_category) noexcept nogil:
    """One situation: cards -> deck positions (the player's ascending), the player's rank and
    category looked up by the hand's colex index.  Returns 1 for a card outside the deck or twice."""
    cdef int j
    cdef uint8_t p[SITUATION]
    cdef uint8_t tmp
    cdef uint64_t seen = 0
    cdef uint32_t index
    for j in range(SITUATION):
        if row[j] >= N_CARDS or position[row[j]] == NOT_IN_DECK or (seen >> row[j]) & 1:
            return 1
        seen |= (<uint64_t>1) << row[j]
        p[j] = position[row[j]]
    if p[0] > p[1] and p[1] > p[2] and p[2] > p[3] and p[3] > p[4]:   # descending, as class keys are
        tmp = p[0]
        p[0] = p[4]
        p[4] = tmp
        tmp = p[1]
        p[1] = p[3]
        p[3] = tmp
    else:
        sort_ascending(p, HAND)                # the five player positions
    for j in range(SITUATION):
        positions[j] = p[j]
    index = colex5(deck.binom, p[0], p[1], p[2], p[3], p[4])
    player_rank[0] = deck.hand_rank[index]
    player_category[0] = hand_category_of[index]
    return 0


cdef void convert_situations(const DeckTables* deck, const uint8_t[:, ::1] rows,
                             const uint8_t[::1] position, const uint8_t* hand_category_of,
                             uint8_t[:, ::1] positions, uint16_t[::1] player_rank,
                             uint8_t[::1] player_category, uint8_t[::1] bad) noexcept nogil:
    """Every situation converted (threads share the rows); bad[i] = 1 marks a malformed one."""
    cdef Py_ssize_t i
    for i in prange(rows.shape[0], schedule="static"):
        bad[i] = convert_row(deck, &rows[i, 0], &position[0], hand_category_of, &positions[i, 0],
                             &player_rank[i], &player_category[i])


# --- helpers for the analysis and its tests ----------------------------------------------------

def situation_classes(deck_cards):
    """Every (hand, up card) suit class of the deck, sorted by key: (keys (m, 6) uint8, weights (m,) uint8).

    A key is the canonical hand (descending) then the up card, as
    cython_ext.isomorphism.canonical_keys(rows, (5, 1)) writes it.  Hands are visited in key
    order (descending cards, lexicographic), so the keys come out sorted.  A canonical
    hand's suits with equal rank masks form tie groups; the up card's class is its rank in
    the first suit of its tie group, standing for (hands in the hand's class) x (suits in
    that group) raw situations.  The deck must hold the same ranks in each of its suits,
    the first k suits of c, d, h, s.
    Raises ValueError for a deck that is not such a set.

    On the twelve deuces, treys and fours, the weights count every (hand, up card) once:

    >>> keys, weights = situation_classes(range(12))
    >>> len(keys), int(weights.sum()) == 792 * 7        # C(12, 5) hands, 7 up cards each
    (303, True)
    >>> keys[0].tolist(), int(weights[0])                # four deuces and the 3c, up card 3d
    ([4, 3, 2, 1, 0, 5], 12)
    """
    deck, _ = _deck_positions(deck_cards)
    cdef int n = len(deck), n_suits = len({int(c) % N_SUITS for c in deck})
    ranks = {int(c) // N_SUITS for c in deck}
    if set(deck.tolist()) != {r * N_SUITS + s for r in ranks for s in range(n_suits)}:
        raise ValueError("a deck for suit classes holds the same ranks in each of the first k suits (c, d, h, s)")
    cdef DeckTables tables
    fill_binomials(tables.binom)
    hands = np.empty((tables.binom[n][HAND], HAND), dtype=np.uint8)
    ups = np.zeros(tables.binom[n][HAND], dtype=np.uint8)        # up-card classes per canonical hand
    cdef uint8_t[:, ::1] hands_v = hands
    cdef uint8_t[::1] ups_v = ups
    cdef const uint8_t[::1] cards = deck
    cdef Py_ssize_t n_hands = 0, row = 0, h
    cdef int a, b, c, d, e, j, suit, u
    cdef card_t hand[HAND]
    cdef card_t canon[HAND]
    cdef int sizes[1]
    cdef rankmask_t mask[N_SUITS]
    cdef uint8_t first[N_SUITS]
    cdef uint8_t group[N_SUITS]
    cdef int factorial[N_SUITS + 1]
    cdef int orbit
    sizes[0] = HAND
    factorial[0] = 1
    for j in range(1, N_SUITS + 1):
        factorial[j] = factorial[j - 1] * j
    with nogil:
        # Canonical hands in key order: descending cards, the highest varying slowest.
        for a in range(HAND - 1, n):
            for b in range(HAND - 2, a):
                for c in range(HAND - 3, b):
                    for d in range(1, c):
                        for e in range(d):
                            hand[0] = cards[a]
                            hand[1] = cards[b]
                            hand[2] = cards[c]
                            hand[3] = cards[d]
                            hand[4] = cards[e]
                            for j in range(HAND):
                                canon[j] = hand[j]
                            canonicalize(canon, sizes, 1)
                            if (canon[0] == hand[0] and canon[1] == hand[1] and canon[2] == hand[2]
                                    and canon[3] == hand[3] and canon[4] == hand[4]):
                                for j in range(HAND):
                                    hands_v[n_hands, j] = hand[j]
                                n_hands += 1
    # The up cards of each canonical hand, then the rows.
    for h in range(n_hands):
        tie_groups(&hands_v[h, 0], n_suits, mask, first, group)
        for u in range(n):
            if stands_for_class(cards[u], mask, first):
                ups_v[h] += 1
    total = int(ups[:n_hands].sum(dtype=np.int64))
    keys = np.empty((total, SITUATION), dtype=np.uint8)
    weights = np.empty(total, dtype=np.uint8)
    cdef uint8_t[:, ::1] keys_v = keys
    cdef uint8_t[::1] weights_v = weights
    with nogil:
        for h in range(n_hands):
            tie_groups(&hands_v[h, 0], n_suits, mask, first, group)
            orbit = factorial[n_suits]
            for suit in range(n_suits):
                if first[suit]:
                    orbit = orbit // factorial[group[suit]]
            for u in range(n):                    # up cards ascending
                if stands_for_class(cards[u], mask, first):
                    for j in range(HAND):
                        keys_v[row, j] = hands_v[h, j]
                    keys_v[row, HAND] = cards[u]
                    weights_v[row] = <uint8_t>(orbit * group[card_suit(cards[u])])
                    row += 1
    return keys, weights


cdef inline void tie_groups(const uint8_t* hand, int n_suits, rankmask_t* mask, uint8_t* first,
                            uint8_t* group) noexcept nogil:
    """Rank mask per suit; first[s]: suit s opens a tie group (equal masks are adjacent in a
    canonical hand); group[s]: the size of the group suit s opens."""
    cdef int s
    masks_of(hand, HAND, mask)
    for s in range(N_SUITS):
        first[s] = s < n_suits and (s == 0 or mask[s] != mask[s - 1])
        group[s] = 0
    for s in range(n_suits - 1, -1, -1):
        group[s] = 1 + (group[s + 1] if s + 1 < n_suits and mask[s + 1] == mask[s] else 0)


cdef inline bint stands_for_class(int up, const rankmask_t* mask, const uint8_t* first) noexcept nogil:
    """Whether the up card stands for its class beside a canonical hand (tie_groups): not in
    the hand, and in the first suit of its tie group."""
    return first[card_suit(up)] and not (mask[card_suit(up)] >> card_rank(up)) & 1


def brute_force_situation(deck_cards, hand, int up, int qualifier_rank):
    """Test oracle: deal every dealer completion of one situation and compare hands one by one.

    No card-removal arithmetic: a plain loop over all 4-card completions from the cards left,
    each dealer hand evaluated by handeval.  Returns (not qualified, player wins, tie, dealer wins).
    Raises ValueError unless the situation is five distinct player cards and an up card, all in the deck.

    >>> brute_force_situation(range(12), [0, 1, 4, 5, 8], 9, 0)     # two pair and a four, up 4d
    (0, 0, 1, 14)
    """
    deck, position = _deck_positions(deck_cards)
    situation = [int(c) for c in hand] + [up]
    if len(situation) != SITUATION or len(set(situation)) != SITUATION \
            or any(not 0 <= c < N_CARDS or position[c] == NOT_IN_DECK for c in situation):
        raise ValueError("a situation is five distinct player cards and an up card, all in the deck")
    rest = np.array([c for c in deck.tolist() if c not in situation], dtype=np.uint8)
    cdef const uint8_t[::1] left = rest
    cdef card_t player[HAND]
    cdef card_t dealer[HAND]
    cdef int a, b, c, d, j, n_left = len(rest), mine, theirs
    cdef int64_t result[N_OUTCOMES]
    for j in range(HAND):
        player[j] = situation[j]
    dealer[0] = up
    memset(result, 0, sizeof(result))
    with nogil:
        mine = dense_rank(eval_cards(player, HAND))
        for a in range(n_left):
            for b in range(a + 1, n_left):
                for c in range(b + 1, n_left):
                    for d in range(c + 1, n_left):
                        dealer[1] = left[a]
                        dealer[2] = left[b]
                        dealer[3] = left[c]
                        dealer[4] = left[d]
                        theirs = dense_rank(eval_cards(dealer, HAND))
                        result[outcome_of(mine, theirs, qualifier_rank)] += 1
    return tuple(result[k] for k in range(N_OUTCOMES))
