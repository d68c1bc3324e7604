"""Caribbean Stud: exact counts of the dealer's completions for (player hand, up card) situations.

Algorithm (card removal by inclusion-exclusion over a value sweep).  Every 5-card hand of
the deck is evaluated once and the hands are swept in ascending poker order.  During the
sweep each thread keeps, for every card subset T of 1..4 cards, the number of hands
already swept that contain T (counters indexed by T's colex index).  For a player hand P
and up card u, the dealer hands D with u in D, D disjoint from P and already swept number

    sum over S subset of P, |S| <= 4, of (-1)^|S| * #(swept hands containing S + {u})

(|S| = 4 makes S + {u} a whole hand: "swept" is then its own rank compared with the sweep's).
Asked just before the hands of the player's own rank are added, this gives the dealer hands
below the player's; asked of a copy of the counters taken when the sweep reaches the
qualifying rank, the dealer hands that do not qualify.  The dealer hands that tie are among
the few hands of the player's own rank: counted from those directly, once per player hand.
Work: 30 counter updates per hand and 31 reads per question, instead of 163,185 evaluations
per situation.  Counters are sized by their bounds (uint8 for 4-card subsets: at most 48
hands), so one thread's counters fit in its core's cache.

Situations are taken in runs of one player hand (consecutive rows with the same five cards,
as a hand's up cards are in the sorted class keys): what the 31 subsets S + {u} have in
common, the colex terms of S's cards, is worked out once per run and place of the up card
among the hand's cards, so a situation's subsets cost one addition each.

Both cores: every thread sweeps all hands into its own counters (cheap) and answers the
questions of its share of the runs (the bulk), so threads never wait on each other.

`situation_classes` lists the suit classes of (hand, up card) in key order, and
`brute_force_situation` is the test oracle (a plain loop over every completion).
"""
import os

import numpy as np

from cython_ext import handeval

from cython.parallel cimport prange
from libc.string cimport memcmp, memcpy, memset

from cython_ext._types cimport (card_t, rankmask_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
                                N_SUITS, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE, DEALER_WINS, N_OUTCOMES,
                                card_rank, card_suit, masks_of, sort_ascending, fill_binomials, colex5,
                                outcome_of)
from cython_ext.handeval cimport eval_cards, dense_rank, hand_category, N_DISTINCT_HANDS

cdef enum:
    SITUATION = 6                   # the player's five cards and the dealer's up card
    DEALER_HIDDEN = HAND - 1        # the dealer's cards besides the up card
    POSITION_BITS = 6               # a deck position 0..51 packed in 6 bits
    POSITION_MASK = (1 << POSITION_BITS) - 1
    NOT_IN_DECK = 255               # position of a card the deck does not hold
    # The proper subsets of five cards, by size (proper_subset_indices): the empty one, 5 single
    # cards, 10 pairs, 10 triples, 5 quadruples.  A swept hand counts in the counters of its
    # nonempty ones; a question's terms are S + {u} for every one of them: 1 of one card (+),
    # 5 of two (-), 10 of three (+), 10 of four (-), then 5 whole hands (+) compared by rank.
    SINGLES_START = 1
    PAIRS_START = 6
    TRIPLES_START = 16
    QUADS_START = 26
    N_PROPER_SUBSETS = 31

# For each place j of the up card among a player hand's five ascending positions,
# UP_PLACE[j][k] = u's place (1-based) among the cards of S_k + {u}, S_k the k-th proper
# subset in the order of proper_subset_indices (a table filled when the module is imported,
# so the hot loops neither count bits nor branch).
cdef uint8_t UP_PLACE[HAND + 1][N_PROPER_SUBSETS]


def _proper_subsets_in_term_order():
    """The proper subsets of five places as bit masks, in proper_subset_indices's order: by
    size, and within a size as its loops visit them."""
    by_size = [[0], [], [], [], []]
    for l in range(HAND):
        by_size[1].append(1 << l)
        for k in range(l):
            by_size[2].append(1 << l | 1 << k)
            for j in range(k):
                by_size[3].append(1 << l | 1 << k | 1 << j)
                for i in range(j):
                    by_size[4].append(1 << l | 1 << k | 1 << j | 1 << i)
    return [mask for size in by_size for mask in size]


def _fill_up_places():
    subsets = _proper_subsets_in_term_order()
    assert len(subsets) == N_PROPER_SUBSETS
    for k, mask in enumerate(subsets):
        for j in range(HAND + 1):
            UP_PLACE[j][k] = 1 + bin(mask & ((1 << j) - 1)).count("1")


_fill_up_places()


cdef uint8_t CATEGORY_OF_RANK[N_DISTINCT_HANDS]      # the hand category of each dense rank


def _fill_categories():
    for rank, value in enumerate(handeval.ORDERED_VALUES):
        CATEGORY_OF_RANK[rank] = hand_category(value)


_fill_categories()


cdef inline void proper_subset_indices(const DeckTables* deck, const uint8_t* x, int shifted_from,
                                       uint32_t* index, Counters* counters) noexcept nogil:
    """The colex index of every proper subset of the ascending positions x[0..4], each of the cards
    x[shifted_from..4] counted one place higher (room for a card below them): written to index[k]
    in term order (the empty one, 5 single cards, 10 pairs, 10 triples, 5 quadruples), or, where
    `counters` is given, counted there for the nonempty ones instead (index unused).

    A card in place t of a subset adds C(x, t + 1) (t + 2 if shifted); the loops pick each
    subset's cards from the highest down, so every sum adds one term to a smaller subset's.
    Within a size the subsets come in colex order of their places: {i < j < k < l} is number
    C(l, 4) + C(k, 3) + C(j, 2) + i among the quadruples (a constant once the loops are unrolled).
    """
    cdef uint32_t c1[HAND]
    cdef uint32_t c2[HAND]
    cdef uint32_t c3[HAND]
    cdef uint32_t c4[HAND]
    cdef uint32_t v
    cdef const uint32_t* row
    cdef int i, j, k, l
    for i in range(HAND):
        row = deck.binom[x[i]] + (i >= shifted_from)
        c1[i] = row[1]
        c2[i] = row[2]
        c3[i] = row[3]
        c4[i] = row[4]
    if counters == NULL:
        index[0] = 0
    for l in range(HAND):
        if counters == NULL:
            index[SINGLES_START + l] = c1[l]
        else:
            counters.one[c1[l]] += 1
        for k in range(l):
            v = c2[l] + c1[k]
            if counters == NULL:
                index[PAIRS_START + l * (l - 1) // 2 + k] = v
            else:
                counters.two[v] += 1
            for j in range(k):
                v = c3[l] + c2[k] + c1[j]
                if counters == NULL:
                    index[TRIPLES_START + l * (l - 1) * (l - 2) // 6 + k * (k - 1) // 2 + j] = v
                else:
                    counters.three[v] += 1
                for i in range(j):
                    v = c4[l] + c3[k] + c2[j] + c1[i]
                    if counters == NULL:
                        index[QUADS_START + l * (l - 1) * (l - 2) * (l - 3) // 24 + k * (k - 1) * (k - 2) // 6
                              + j * (j - 1) // 2 + i] = v
                    else:
                        counters.four[v] += 1


cdef inline void add_hand(const DeckTables* deck, Counters* counters, uint32_t packed) noexcept nogil:
    """Count one swept hand in the counters of its 30 subsets of 1..4 cards."""
    cdef uint8_t p[HAND]
    cdef int i
    for i in range(HAND):
        p[i] = (packed >> (POSITION_BITS * i)) & POSITION_MASK
    proper_subset_indices(deck, p, HAND, NULL, counters)


cdef inline int64_t swept_with(const Counters* counters, const uint32_t* index) noexcept nogil:
    """sum of (-1)^|S| #(swept hands containing S + {u}) over |S| <= 3: the question's counter terms."""
    # |partial sums| <= 26 * C(51, 4) < 2**23: int64 is ample.
    cdef int64_t total = counters.one[index[0]]
    cdef int k
    for k in range(SINGLES_START, PAIRS_START):
        total -= counters.two[index[k]]
    for k in range(PAIRS_START, TRIPLES_START):
        total += counters.three[index[k]]
    for k in range(TRIPLES_START, QUADS_START):
        total -= counters.four[index[k]]
    return total


cdef void copy_counters(const DeckTables* deck, Counters* target, const Counters* source) noexcept nogil:
    memcpy(target.one, source.one, deck.binom[deck.n_cards][1] * sizeof(uint32_t))
    memcpy(target.two, source.two, deck.binom[deck.n_cards][2] * sizeof(uint16_t))
    memcpy(target.three, source.three, deck.binom[deck.n_cards][3] * sizeof(uint16_t))
    memcpy(target.four, source.four, deck.binom[deck.n_cards][4] * sizeof(uint8_t))


cdef Py_ssize_t wrong_counters(const DeckTables* deck, const Counters* counters) noexcept nogil:
    """After the whole sweep each k-card subset lies in exactly C(n - k, 5 - k) swept hands: the
    number of counters that say otherwise.  Counters only grow and their types hold these
    final counts, so a counter that had overflowed its type would be among them."""
    cdef Py_ssize_t i, wrong = 0
    cdef int n = deck.n_cards
    for i in range(deck.binom[n][1]):
        wrong += counters.one[i] != deck.binom[n - 1][4]
    for i in range(deck.binom[n][2]):
        wrong += counters.two[i] != deck.binom[n - 2][3]
    for i in range(deck.binom[n][3]):
        wrong += counters.three[i] != deck.binom[n - 3][2]
    for i in range(deck.binom[n][4]):
        wrong += counters.four[i] != deck.binom[n - 4][1]
    return wrong


cdef inline Py_ssize_t first_owned(Py_ssize_t first, int thread, int n_threads) noexcept nogil:
    """The first k >= first that this thread owns (k % n_threads == thread)."""
    return first + (thread - first % n_threads + n_threads) % n_threads


cdef enum Question:
    SETTLE_BELOW_QUALIFIER          # player rank g < q; counters at the qualifier q
    AT_OWN_RANK                     # counters below g, snapshot at q, the hands of rank g


cdef void hand_masks(const uint32_t* packed, Py_ssize_t n, uint64_t* mask) noexcept nogil:
    """mask[h]: the five positions of hand h (packed 6 bits each) as bits."""
    cdef Py_ssize_t h
    cdef int i
    for h in range(n):
        mask[h] = 0
        for i in range(HAND):
            mask[h] |= (<uint64_t>1) << ((packed[h] >> (POSITION_BITS * i)) & POSITION_MASK)


cdef Py_ssize_t ask_run(const DeckTables* deck, const SituationTable* table, Py_ssize_t run, int g,
                        Question question, const Counters* counters, const Counters* snapshot,
                        const RankGroup* own, uint32_t* out) noexcept nogil:
    """The final counts of every situation of a run (player rank g); returns how many came out
    inconsistent (outside 0 <= not qualified <= below <= up to <= all: none unless the kernel is
    wrong).  The dealer hands that tie are the hands of rank g (`own`, AT_OWN_RANK) holding the
    up card and none of the player's: counted from those hands directly, once per run."""
    # Outcome counts are at most C(46, 4) = 163,185 (full deck): uint32.
    cdef const uint8_t* p = table.run_positions + HAND * run
    cdef uint32_t base[N_PROPER_SUBSETS]
    cdef uint32_t index[N_PROPER_SUBSETS]
    cdef uint32_t ties[MAX_DECK]
    cdef const uint32_t* up_row
    cdef const uint8_t* up_place
    cdef int u, j, k, r, place = -1, q = table.qualifier_rank
    cdef int hands_below_q, hands_below_g
    cdef Py_ssize_t i, h, m = table.count, inconsistent = 0
    cdef int64_t nq, less, upto, completions = table.completions
    cdef uint64_t player = 0
    cdef uint32_t* o
    if question == AT_OWN_RANK:
        # ties[c]: hands of rank g that avoid the player's cards and hold position c (at most the
        # hands of one rank, 1,020 on a 52-card deck)
        for k in range(HAND):
            player |= (<uint64_t>1) << p[k]
        memset(ties, 0, sizeof(ties))
        for h in range(own.count):
            if not own.mask[h] & player:
                for k in range(HAND):
                    ties[(own.hands[h] >> (POSITION_BITS * k)) & POSITION_MASK] += 1
    for i in range(table.run_first[run], table.run_first[run + 1]):
        u = table.position[table.rows[SITUATION * i + HAND]]
        j = (p[0] < u) + (p[1] < u) + (p[2] < u) + (p[3] < u) + (p[4] < u)
        if j != place:                            # ascending up cards: at most six places per run
            proper_subset_indices(deck, p, j, base, NULL)
            place = j
        up_row = deck.binom[u]
        up_place = UP_PLACE[j]
        for k in range(N_PROPER_SUBSETS):
            index[k] = base[k] + up_row[up_place[k]]
        hands_below_q = hands_below_g = 0
        for k in range(QUADS_START, N_PROPER_SUBSETS):
            r = deck.hand_rank[index[k]]
            hands_below_q += r < q
            hands_below_g += r < g
        o = out + i
        if question == SETTLE_BELOW_QUALIFIER:
            # The player's hand cannot beat or tie a qualifying dealer.
            nq = swept_with(counters, index) + hands_below_q
            inconsistent += not (0 <= nq <= completions)
            o[DEALER_NOT_QUALIFIED * m] = <uint32_t>nq
            o[PLAYER_WINS * m] = 0
            o[PUSH_TIE * m] = 0
            o[DEALER_WINS * m] = <uint32_t>(completions - nq)
        else:
            nq = swept_with(snapshot, index) + hands_below_q
            less = swept_with(counters, index) + hands_below_g
            upto = less + ties[u]
            inconsistent += not (0 <= nq <= less and upto <= completions)
            o[DEALER_NOT_QUALIFIED * m] = <uint32_t>nq
            o[PLAYER_WINS * m] = <uint32_t>(less - nq)
            o[PUSH_TIE * m] = ties[u]
            o[DEALER_WINS * m] = <uint32_t>(completions - upto)
    return inconsistent


cdef Py_ssize_t sweep_share(const DeckTables* deck, const SituationTable* table, int thread, int n_threads,
                            Counters* counters, Counters* snapshot, uint64_t* own_masks,
                            uint32_t* out) noexcept nogil:
    cdef int g, q = table.qualifier_rank
    cdef Py_ssize_t k, h, inconsistent = 0
    cdef RankGroup own
    own.mask = own_masks
    for g in range(N_DISTINCT_HANDS):
        own.hands = deck.hands_by_rank + deck.hand_start[g]
        own.count = deck.hand_start[g + 1] - deck.hand_start[g]
        if g == q:
            # The counters hold exactly the non-qualifying hands: keep them for the questions
            # about better player hands, and settle the player hands below the qualifier now.
            copy_counters(deck, snapshot, counters)
            k = thread
            while k < table.start[q]:
                inconsistent += ask_run(deck, table, table.by_rank[k], g, SETTLE_BELOW_QUALIFIER,
                                        counters, snapshot, &own, out)
                k += n_threads
        if g >= q:
            # Dealer hands that do not qualify, and those below the player's: asked just before
            # the player's own rank is swept in; those that tie, from the hands of that rank.
            k = first_owned(table.start[g], thread, n_threads)
            if k < table.start[g + 1]:
                hand_masks(own.hands, own.count, own_masks)
            while k < table.start[g + 1]:
                inconsistent += ask_run(deck, table, table.by_rank[k], g, AT_OWN_RANK, counters, snapshot,
                                        &own, out)
                k += n_threads
        for h in range(own.count):
            add_hand(deck, counters, own.hands[h])
    return inconsistent + wrong_counters(deck, counters)


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
                           int top) noexcept nogil:
    """Dense rank of every hand whose highest position is `top`, by colex index."""
    cdef int a, b, c, e
    cdef card_t hand[HAND]
    cdef uint32_t index
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
                    hand_rank[index] = dense_rank(eval_cards(hand, HAND))


cdef void rank_hands(const DeckTables* deck, const card_t* cards, uint16_t* hand_rank) noexcept nogil:
    """Dense rank of every 5-card hand of the deck; top cards shared among threads."""
    cdef int top
    for top in prange(HAND - 1, deck.n_cards, schedule="dynamic"):
        rank_hands_below(deck, cards, hand_rank, top)


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
    A player hand's situations in consecutive rows (as the class keys have them, up cards
    ascending) share the work of that hand.
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
    cdef Py_ssize_t i, r, m = rows.shape[0], n_runs, bad_runs = 0, inconsistent = 0
    fill_binomials(tables.binom)
    tables.n_cards = n
    tables.n_hands = tables.binom[n][HAND]

    hand_rank = np.empty(tables.n_hands, dtype=np.uint16)
    hands_by_rank = np.empty(tables.n_hands, dtype=np.uint32)
    hand_start = np.empty(N_DISTINCT_HANDS + 1, dtype=np.uint32)
    player_rank = np.empty(m, dtype=np.uint16)
    player_category = np.empty(m, dtype=np.uint8)
    by_outcome = np.empty((N_OUTCOMES, m), dtype=np.uint32)     # the sweep writes every entry

    cdef const uint8_t[::1] deck_v = deck
    cdef const uint8_t[::1] position_v = position
    cdef const uint8_t[:, ::1] rows_v = rows
    cdef uint16_t[::1] hand_rank_v = hand_rank
    cdef uint32_t[::1] hands_by_rank_v = hands_by_rank
    cdef uint32_t[::1] hand_start_v = hand_start
    cdef uint16_t[::1] player_rank_v = player_rank
    cdef uint8_t[::1] player_category_v = player_category
    cdef uint32_t[:, ::1] counts_v = by_outcome
    counts = by_outcome.T                     # (m, 4); each outcome's column contiguous

    with nogil:
        rank_hands(&tables, &deck_v[0], &hand_rank_v[0])
        sort_hands(&tables, &hand_rank_v[0], &hands_by_rank_v[0], &hand_start_v[0])
    tables.hand_rank = &hand_rank_v[0]
    tables.hands_by_rank = &hands_by_rank_v[0]
    tables.hand_start = &hand_start_v[0]
    if m == 0:
        return counts, player_rank, player_category

    # The runs of one player hand, each converted once and grouped by the hand's rank.
    with nogil:
        n_runs = find_runs(&rows_v[0, 0], m, NULL)
    run_first = np.empty(n_runs + 1, dtype=np.uint32)
    run_positions = np.empty((n_runs, HAND), dtype=np.uint8)
    run_rank = np.empty(n_runs, dtype=np.uint16)
    by_rank = np.empty(n_runs, dtype=np.uint32)
    start = np.empty(N_DISTINCT_HANDS + 1, dtype=np.uint32)
    cdef uint32_t[::1] run_first_v = run_first
    cdef uint8_t[:, ::1] run_positions_v = run_positions
    cdef uint16_t[::1] run_rank_v = run_rank
    cdef uint32_t[::1] by_rank_v = by_rank
    cdef uint32_t[::1] start_v = start
    table.count = m
    table.rows = &rows_v[0, 0]
    table.position = &position_v[0]
    table.run_first = &run_first_v[0]
    table.run_positions = &run_positions_v[0, 0]
    with nogil:
        find_runs(&rows_v[0, 0], m, &run_first_v[0])
        for r in prange(n_runs, schedule="static"):
            bad_runs += convert_run(&tables, &table, r, &run_positions_v[r, 0], &run_rank_v[r],
                                    &player_rank_v[0], &player_category_v[0]) != 0
    if bad_runs:
        for r in range(n_runs):                   # the first bad row, for the message
            i = convert_run(&tables, &table, r, &run_positions_v[r, 0], &run_rank_v[r],
                            &player_rank_v[0], &player_category_v[0]) - 1
            if i >= 0:
                raise ValueError(f"situation {i} has a card outside the deck or a card twice: {rows[i].tolist()}")
    with nogil:
        rank_groups(&run_rank_v[0], n_runs, &start_v[0])
        for r in range(n_runs):                   # stable scatter
            by_rank_v[start_v[run_rank_v[r]]] = <uint32_t>r
            start_v[run_rank_v[r]] += 1
        rank_groups_restored(&start_v[0])
    table.by_rank = &by_rank_v[0]
    table.start = &start_v[0]
    table.qualifier_rank = qualifier_rank
    table.completions = tables.binom[n - SITUATION][DEALER_HIDDEN]

    # Per thread: counters (zeroed), the snapshot at the qualifier, ...
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
    # and room for the masks of the hands of one rank (the player's, for counting ties).
    own_masks = np.empty((threads, max(1, int(np.diff(hand_start).max()))), dtype=np.uint64)
    cdef uint64_t[:, ::1] own_masks_v = own_masks
    with nogil:
        for t in prange(threads, num_threads=threads, schedule="static", chunksize=1):
            inconsistent += sweep_share(&tables, &table, t, threads, &block[2 * t], &block[2 * t + 1],
                                        &own_masks_v[t, 0], &counts_v[0, 0])
    if inconsistent:
        raise RuntimeError(f"stud_enum: {inconsistent} counts or counters came out inconsistent (a kernel fault)")
    return counts, player_rank, player_category


cdef Py_ssize_t find_runs(const uint8_t* rows, Py_ssize_t m, uint32_t* run_first) noexcept nogil:
    """The runs of one player hand: maximal blocks of consecutive rows with the same first five
    bytes.  Writes each run's first row, then m, to run_first unless it is NULL; returns the number of runs."""
    cdef Py_ssize_t i, n_runs = 0
    for i in range(m):
        if i == 0 or memcmp(rows + SITUATION * i, rows + SITUATION * (i - 1), HAND) != 0:
            if run_first != NULL:
                run_first[n_runs] = <uint32_t>i
            n_runs += 1
    if run_first != NULL:
        run_first[n_runs] = <uint32_t>m
    return n_runs


cdef Py_ssize_t convert_run(const DeckTables* deck, const SituationTable* table, Py_ssize_t run,
                            uint8_t* positions, uint16_t* run_rank,
                            uint16_t* player_rank, uint8_t* player_category) noexcept nogil:
    """One run: the player's cards -> ascending deck positions, the hand's rank (looked up by its
    colex index) and category given to each of its situations.  Returns 0, or 1 + the
    first of its rows with a card outside the deck or a card twice."""
    cdef Py_ssize_t i, first = table.run_first[run]
    cdef const uint8_t* row = table.rows + SITUATION * first
    cdef const uint8_t* position = table.position
    cdef int j, up, rank, category
    cdef uint8_t tmp
    cdef uint64_t seen = 0
    for j in range(HAND):
        if row[j] >= N_CARDS or position[row[j]] == NOT_IN_DECK or (seen >> row[j]) & 1:
            return first + 1
        seen |= (<uint64_t>1) << row[j]
        positions[j] = position[row[j]]
    if positions[0] > positions[1] > positions[2] > positions[3] > positions[4]:   # descending, as class keys are
        tmp = positions[0]
        positions[0] = positions[4]
        positions[4] = tmp
        tmp = positions[1]
        positions[1] = positions[3]
        positions[3] = tmp
    else:
        sort_ascending(positions, HAND)
    i = colex5(deck.binom, positions[0], positions[1], positions[2], positions[3], positions[4])
    rank = deck.hand_rank[i]
    category = CATEGORY_OF_RANK[rank]
    run_rank[0] = rank
    for i in range(first, table.run_first[run + 1]):
        up = table.rows[SITUATION * i + HAND]
        if up >= N_CARDS or position[up] == NOT_IN_DECK or (seen >> up) & 1:
            return i + 1
        player_rank[i] = rank
        player_category[i] = category
    return 0


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
    cdef uint8_t[:, ::1] hands_v = hands
    cdef const uint8_t[::1] cards = deck
    cdef Py_ssize_t n_hands = 0, h
    cdef int a, b, c, d, e
    cdef uint64_t with_a, with_b, with_c, with_d
    with nogil:
        # Canonical hands in key order: descending cards, the highest varying slowest; the
        # suits' rank masks built up loop by loop.
        for a in range(HAND - 1, n):
            with_a = suit_mask_bit(cards[a])
            for b in range(HAND - 2, a):
                with_b = with_a | suit_mask_bit(cards[b])
                for c in range(HAND - 3, b):
                    with_c = with_b | suit_mask_bit(cards[c])
                    for d in range(1, c):
                        with_d = with_c | suit_mask_bit(cards[d])
                        for e in range(d):
                            if suits_in_canonical_order(with_d | suit_mask_bit(cards[e])):
                                hands_v[n_hands, 0] = cards[a]
                                hands_v[n_hands, 1] = cards[b]
                                hands_v[n_hands, 2] = cards[c]
                                hands_v[n_hands, 3] = cards[d]
                                hands_v[n_hands, 4] = cards[e]
                                n_hands += 1
    # Each canonical hand's classes (its up cards), counted, then written where they start;
    # threads share the hands.
    first_row = np.zeros(n_hands + 1, dtype=np.int64)
    cdef int64_t[::1] first_row_v = first_row
    with nogil:
        for h in prange(n_hands, schedule="static"):
            first_row_v[h + 1] = classes_of_hand(&hands_v[h, 0], n_suits, &cards[0], n, NULL, NULL)
    np.cumsum(first_row, out=first_row)
    keys = np.empty((first_row[n_hands], SITUATION), dtype=np.uint8)
    weights = np.empty(first_row[n_hands], dtype=np.uint8)
    cdef uint8_t[:, ::1] keys_v = keys
    cdef uint8_t[::1] weights_v = weights
    with nogil:
        for h in prange(n_hands, schedule="static"):
            classes_of_hand(&hands_v[h, 0], n_suits, &cards[0], n, &keys_v[0, 0] + SITUATION * first_row_v[h],
                            &weights_v[0] + first_row_v[h])
    return keys, weights


cdef Py_ssize_t classes_of_hand(const uint8_t* hand, int n_suits, const uint8_t* cards, int n, uint8_t* keys,
                                uint8_t* weights) noexcept nogil:
    """The classes of one canonical hand (tie_groups): its up cards, ascending, that stand for
    their class.  Written as key rows (the hand, then the up card) with their weights unless
    keys is NULL; returns how many."""
    cdef rankmask_t mask[N_SUITS]
    cdef uint8_t first[N_SUITS]
    cdef uint8_t group[N_SUITS]
    cdef int s, u, orbit = 1
    cdef Py_ssize_t count = 0
    tie_groups(hand, n_suits, mask, first, group)
    # The hand's class: n_suits! renamings, less those within each tie group.
    for s in range(2, n_suits + 1):
        orbit *= s
    for s in range(n_suits):
        if first[s]:
            for u in range(2, group[s] + 1):
                orbit //= u
    for u in range(n):
        if stands_for_class(cards[u], mask, first):
            if keys != NULL:
                memcpy(keys + SITUATION * count, hand, HAND)
                keys[SITUATION * count + HAND] = cards[u]
                weights[count] = <uint8_t>(orbit * group[card_suit(cards[u])])
            count += 1
    return count


# A hand's rank masks of the four suits side by side in 64 bits, suit s at bits 16 s .. 16 s + 12.
cdef enum:
    SUIT_MASK_BITS = 16


cdef inline uint64_t suit_mask_bit(unsigned int card) noexcept nogil:
    return (<uint64_t>1) << (SUIT_MASK_BITS * card_suit(card) + card_rank(card))


cdef inline bint suits_in_canonical_order(uint64_t masks) noexcept nogil:
    """Whether a hand is its own canonical form (isomorphism.canonicalize): its suits' rank masks
    do not increase from suit to suit, so the renaming by descending mask keeps every card."""
    cdef uint64_t low = (<uint64_t>1 << SUIT_MASK_BITS) - 1
    return (masks & low) >= ((masks >> SUIT_MASK_BITS) & low) >= ((masks >> 2 * SUIT_MASK_BITS) & low) \
        >= (masks >> 3 * SUIT_MASK_BITS)


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
