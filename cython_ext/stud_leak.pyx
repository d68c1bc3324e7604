"""Caribbean Stud with seen dealer cards: the exploit's exact play over every deal, by classes of the seen cards.

The player sees his five cards P and 1 + K of the dealer's five (the up card and K hole cards: a
set S); the dealer's r = 4 - K other cards R complete his hand from the n - |S| cards left (the
"candidates").  For each suit class of S, weighted by the raw sets it stands for, every P among
the candidates is settled against every R disjoint from P.  Algorithm:

- Card removal by inclusion-exclusion over P's subsets: the completions below P's rank g are

      #{R disjoint from P : rank(S + R) < g} = sum over A subset of P, |A| <= r, of (-1)^|A| F_A(g),
      F_A(g) = #{R containing A : rank(S + R) < g},

  where F_A for |A| = r is [rank(S + A) < g] and, for smaller A, a row of counts by rank,
  cumulative, made once per S from its C(n - |S|, r) dealer hands.  Asked at g, g + 1 and the
  qualifier, it gives the completions below P, up to P and not qualifying: P's outcome counts.
- Hand types: a dealer hand S + R is ranked by R's ranks alone unless S is of one suit (then a
  flush needs R in that suit too), so P's counts depend only on its rank g or, for S of one suit,
  on g and the ranks P holds in that suit.  A canonical S of one suit is in clubs: the deck's
  hands are sorted once by (rank, rank mask in clubs), each type a run of them, and each type's
  counts are asked of one hand of the type that avoids S.
- Bit planes over the sorted hands count the rest: per deck card, the hands holding it (so the
  hands avoiding S are one AND per word), and per up card, the hands the honest optimum raises
  with it; popcounts over a type's run give how many of its hands avoid S and, per card u of S,
  how many of those the honest optimum raises with up card u.

The exploit raises exactly when raising's EV numerator (the counts x the paytable's integer nets)
beats folding's; the deals are added up by the player's category x decision x outcome, and the
deals where the honest optimum decides otherwise are counted with the up card distinguished among
S.  Nothing per situation is kept.

`hand_ranks`, `hand_types` and `honest_planes` make the per-deck tables; `count_seen` counts.
"""
import itertools

import numpy as np

from cython.parallel cimport prange, threadid
from libc.string cimport memset

from cython_ext._types cimport (int64_t, uint8_t, uint16_t, uint32_t, uint64_t, HAND, N_CARDS, N_RANKS, N_SUITS,
                                N_CATEGORIES, N_OUTCOMES, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE,
                                DEALER_WINS, card_rank, card_suit, make_card, fill_binomials, colex5,
                                sort_ascending)
from cython_ext.handeval cimport N_DISTINCT_HANDS
from cython_ext.stud_enum cimport DeckTables, rank_hands

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    MIN_DECK = 10                   # 5 player cards + the dealer's 5
    SITUATION = HAND + 1            # a class key: the hand, then the up card
    MIN_SEEN_HOLE = 1
    MAX_SEEN_HOLE = 3               # K = 4 (the whole hand) needs no enumeration: the honest counts settle it
    MAX_SEEN = MAX_SEEN_HOLE + 1
    MAX_REST = HAND - 1 - MIN_SEEN_HOLE    # the dealer's unseen cards: at most 3
    COLUMNS = N_DISTINCT_HANDS + 1  # a row of counts F_A(g), g = 0 .. 7462
    DECISIONS = 2                   # fold, raise: the middle axis of the totals
    TOTALS = N_CATEGORIES * DECISIONS * N_OUTCOMES
    NOT_IN_DECK = 255
    POSITION_BITS = 6               # a deck position packed in 6 bits
    POSITION_MASK = (1 << POSITION_BITS) - 1
    WORD_BITS = 64                  # hands per word of a bit plane
    CLUBS = 0                       # the suit of a canonical S of one suit


# What every thread reads; set once per count.
cdef struct Setting:
    DeckTables deck                 # n_cards, binom and hand_rank (the rank of every hand by colex index)
    const uint8_t* cards            # the card at each deck position
    int seen                        # |S| = 1 + K
    int rest                        # r = 4 - K: the dealer's unseen cards
    int candidates                  # n - |S|: the cards a player hand or a completion is made of
    int qualifier_rank              # the dealer qualifies with a dense rank >= this
    int n_wide                      # count rows of the subsets of sizes 0 .. r - 2 (uint16)
    int n_narrow                    # count rows of the subsets of size r - 1 (uint8)
    int64_t completions             # C(candidates - 5, r): the completions of one (P, S)
    int64_t fold_ev                 # folding's EV numerator: -completions x the paytable's scale
    const int64_t* nets             # [category * N_OUTCOMES + outcome]: the nets x the paytable's scale
    const uint8_t* category_of_rank # the hand category of each dense rank
    const uint32_t* hands           # the sorted hands: deck positions, ascending, 6 bits each
    const uint32_t* rank_start      # hands of rank g: sorted hands rank_start[g] .. rank_start[g + 1] - 1
    const uint32_t* type_start      # type t: sorted hands type_start[t] .. type_start[t + 1] - 1
    const uint16_t* type_rank       # the rank of each type's hands
    Py_ssize_t n_types
    Py_ssize_t words                # words of a bit plane
    const uint64_t* holding         # plane c (c = deck position): the sorted hands that hold card c
    const uint64_t* honest          # plane u: the sorted hands the honest optimum raises with the up card u

# One thread's tables for one S (sized for the setting) and its totals.
cdef struct Workspace:
    uint8_t* candidate              # N_CARDS: deck position of each candidate, ascending
    uint8_t* index_of               # N_CARDS: candidate index of each deck position (S's: NOT_IN_DECK)
    uint16_t* dealer_rank           # C(candidates, r): the rank of S + R by R's colex index
    uint16_t* wide                  # n_wide x COLUMNS: F_A for |A| <= r - 2 (at most C(50, 3) = 19,600)
    uint8_t* narrow                 # n_narrow x COLUMNS: F_A for |A| = r - 1 (at most 50)
    uint64_t* avoid                 # words: the sorted hands that avoid S
    int64_t* local                  # TOTALS: one S's deals by category x decision x outcome (at most
                                    # C(50, 5) x C(45, 3) < 2**35)
    int64_t* totals                 # TOTALS + 1: weighted over this thread's classes, then the disagreements


cdef inline int wide_row(int size, uint32_t index) noexcept nogil:
    """The wide row of a subset (size 0: row 0; size 1, when r = 3: rows 1 ..)."""
    return index + (size > 0)


cdef void make_tables(const Setting* st, const uint8_t* seen, Workspace* ws) noexcept nogil:
    """The candidates, the rank of every dealer hand S + R, and the cumulative count rows F_A."""
    cdef int m = st.candidates, r = st.rest, p, j, e, t, size, d
    cdef uint64_t in_seen = 0
    cdef uint8_t x[MAX_REST]
    cdef uint8_t hand[HAND]
    cdef uint32_t index, n_dealer = st.deck.binom[m][r], i, c
    cdef Py_ssize_t row
    for j in range(st.seen):
        in_seen |= (<uint64_t>1) << seen[j]
    j = 0
    for p in range(st.deck.n_cards):
        ws.index_of[p] = NOT_IN_DECK
        if not (in_seen >> p) & 1:
            ws.candidate[j] = p
            ws.index_of[p] = j
            j += 1
    memset(ws.wide, 0, st.n_wide * COLUMNS * sizeof(uint16_t))
    memset(ws.narrow, 0, st.n_narrow * COLUMNS * sizeof(uint8_t))
    for e in range(r):
        x[e] = e
    for index in range(n_dealer):                 # R in colex order of its candidates
        for j in range(st.seen):
            hand[j] = seen[j]
        for e in range(r):
            hand[st.seen + e] = ws.candidate[x[e]]
        sort_ascending(hand, HAND)
        d = st.deck.hand_rank[colex5(st.deck.binom, hand[0], hand[1], hand[2], hand[3], hand[4])]
        ws.dealer_rank[index] = d
        for i in range((1 << r) - 1):             # the proper subsets A of R: F_A(g) counts R for g > d
            size = 0
            c = 0
            for t in range(r):
                if (i >> t) & 1:
                    size += 1
                    c += st.deck.binom[x[t]][size]
            if size < r - 1:
                ws.wide[wide_row(size, c) * COLUMNS + d + 1] += 1
            else:
                ws.narrow[c * COLUMNS + d + 1] += 1
        t = 0                                     # the next R in colex order
        while t < r - 1 and x[t] + 1 == x[t + 1]:
            x[t] = t
            t += 1
        x[t] += 1
    for row in range(st.n_wide):
        for d in range(1, COLUMNS):
            ws.wide[row * COLUMNS + d] += ws.wide[row * COLUMNS + d - 1]
    for row in range(st.n_narrow):
        for d in range(1, COLUMNS):
            ws.narrow[row * COLUMNS + d] += ws.narrow[row * COLUMNS + d - 1]


cdef inline void add_term(const Setting* st, const Workspace* ws, int size, uint32_t index, int sign, int g,
                          int64_t* counts) noexcept nogil:
    """Adds sign x F_A at the qualifier, at g and at g + 1 to counts[0..2], A the subset of `size`
    candidates with colex index `index`."""
    cdef const uint16_t* row16
    cdef const uint8_t* row8
    cdef int d, q = st.qualifier_rank
    if size < st.rest - 1:
        row16 = ws.wide + wide_row(size, index) * COLUMNS
        counts[0] += sign * row16[q]
        counts[1] += sign * row16[g]
        counts[2] += sign * row16[g + 1]
    elif size == st.rest - 1:
        row8 = ws.narrow + index * COLUMNS
        counts[0] += sign * row8[q]
        counts[1] += sign * row8[g]
        counts[2] += sign * row8[g + 1]
    else:
        d = ws.dealer_rank[index]
        counts[0] += sign * (d < q)
        counts[1] += sign * (d < g)
        counts[2] += sign * (d <= g)


cdef void hand_counts(const Setting* st, const Workspace* ws, uint32_t packed, int g, int64_t* counts) noexcept nogil:
    """The completions of S that avoid the hand (packed deck positions, ascending) and do not qualify,
    are below g and up to g: counts[0..2], summed over the hand's subsets of at most r cards."""
    cdef uint32_t x[HAND]
    cdef uint32_t pair
    cdef int i, j, k, r = st.rest
    for i in range(HAND):
        x[i] = ws.index_of[(packed >> (POSITION_BITS * i)) & POSITION_MASK]
    counts[0] = counts[1] = counts[2] = 0
    add_term(st, ws, 0, 0, 1, g, counts)
    for i in range(HAND):
        add_term(st, ws, 1, x[i], -1, g, counts)
        if r >= 2:
            for j in range(i + 1, HAND):
                pair = x[i] + st.deck.binom[x[j]][2]
                add_term(st, ws, 2, pair, 1, g, counts)
                if r >= 3:
                    for k in range(j + 1, HAND):
                        add_term(st, ws, 3, pair + st.deck.binom[x[k]][3], -1, g, counts)


cdef Py_ssize_t settle_type(const Setting* st, Workspace* ws, int g, Py_ssize_t first, Py_ssize_t last,
                            const uint64_t** honest, int64_t* dealt, int64_t* disagreements) noexcept nogil:
    """The sorted hands first .. last - 1 (of rank g, one type for S): how many avoid S and how often the
    honest optimum raises them with each card of S as the up card; one of them priced; the decision and
    its deals added to ws.local.  Returns 1 if the counts came out inconsistent (a kernel fault), else 0."""
    cdef Py_ssize_t w, low = first // WORD_BITS, high = (last - 1) // WORD_BITS, one = -1
    cdef uint64_t bits
    cdef int64_t n = 0, raised_honest = 0, nq, below, upto, win, tie, lose
    cdef int64_t counts[3]
    cdef int j, cat, raised
    cdef const int64_t* net
    cdef int64_t* cell
    for w in range(low, high + 1):
        bits = ws.avoid[w]
        if w == low:
            bits &= ~(<uint64_t>0) << (first % WORD_BITS)
        if w == high:
            bits &= ~(<uint64_t>0) >> (WORD_BITS - 1 - (last - 1) % WORD_BITS)
        if bits:
            n += __builtin_popcountll(bits)
            if one < 0:
                one = w * WORD_BITS + __builtin_ctzll(bits)
            for j in range(st.seen):
                raised_honest += __builtin_popcountll(bits & honest[j][w])
    if n == 0:
        return 0
    hand_counts(st, ws, st.hands[one], g, counts)
    nq = counts[0]
    below = counts[1]
    upto = counts[2]
    if g < st.qualifier_rank:                     # no qualifying dealer is beaten or tied
        if not 0 <= nq <= st.completions:
            return 1
        below = upto = nq
    elif not 0 <= nq <= below <= upto <= st.completions:
        return 1
    win = below - nq
    tie = upto - below
    lose = st.completions - upto
    cat = st.category_of_rank[g]
    net = st.nets + cat * N_OUTCOMES
    raised = nq * net[DEALER_NOT_QUALIFIED] + win * net[PLAYER_WINS] + tie * net[PUSH_TIE] \
        + lose * net[DEALER_WINS] > st.fold_ev                 # an exact tie folds
    cell = ws.local + (cat * DECISIONS + raised) * N_OUTCOMES
    cell[DEALER_NOT_QUALIFIED] += n * nq
    cell[PLAYER_WINS] += n * win
    cell[PUSH_TIE] += n * tie
    cell[DEALER_WINS] += n * lose
    dealt[0] += n
    disagreements[0] += st.seen * n - raised_honest if raised else raised_honest
    return 0


cdef Py_ssize_t count_class(const Setting* st, const uint8_t* seen, int64_t weight, Workspace* ws) noexcept nogil:
    """Every player hand against one class of seen cards (deck positions, ascending): its deals x weight
    added to ws.totals.  Returns the inconsistent counts (0 unless the kernel is wrong)."""
    cdef const uint64_t* honest[MAX_SEEN]
    cdef const uint64_t* holding[MAX_SEEN]
    cdef Py_ssize_t w, t, inconsistent = 0
    cdef uint64_t bits
    cdef int64_t dealt = 0, disagreements = 0
    cdef int j, g, one_suit = 1
    make_tables(st, seen, ws)
    for j in range(st.seen):
        honest[j] = st.honest + seen[j] * st.words
        holding[j] = st.holding + seen[j] * st.words
        one_suit &= card_suit(st.cards[seen[j]]) == card_suit(st.cards[seen[0]])
    for w in range(st.words):
        bits = holding[0][w]
        for j in range(1, st.seen):
            bits |= holding[j][w]
        ws.avoid[w] = ~bits
    memset(ws.local, 0, TOTALS * sizeof(int64_t))
    if one_suit:                                  # the dealer may flush: hand types by rank and clubs
        for t in range(st.n_types):
            inconsistent += settle_type(st, ws, st.type_rank[t], st.type_start[t], st.type_start[t + 1], honest,
                                        &dealt, &disagreements)
    else:                                         # the dealer cannot flush: hand types by rank
        for g in range(N_DISTINCT_HANDS):
            if st.rank_start[g] < st.rank_start[g + 1]:
                inconsistent += settle_type(st, ws, g, st.rank_start[g], st.rank_start[g + 1], honest, &dealt,
                                            &disagreements)
    for j in range(TOTALS):
        ws.totals[j] += weight * ws.local[j]
    ws.totals[TOTALS] += weight * disagreements * st.completions
    return inconsistent + (dealt != st.deck.binom[st.candidates][HAND])


# --- the per-deck tables ----------------------------------------------------------------------------

def _deck_positions(deck_cards):
    deck = np.ascontiguousarray(deck_cards, dtype=np.uint8)
    if deck.ndim != 1 or not MIN_DECK <= len(deck) <= N_CARDS:
        raise ValueError(f"a deck holds {MIN_DECK} to {N_CARDS} cards, got {deck.size}")
    if (deck >= N_CARDS).any() or (np.diff(deck.astype(np.int64)) <= 0).any():
        raise ValueError("deck cards must be distinct card indices 0..51 in ascending order")
    position = np.full(N_CARDS, NOT_IN_DECK, dtype=np.uint8)
    position[deck] = np.arange(len(deck), dtype=np.uint8)
    return deck, position


def hand_ranks(deck_cards):
    """The dense rank (handeval) of every 5-card hand of the deck, by colex index of its deck positions (uint16).

    >>> from cython_ext import handeval
    >>> ranks = hand_ranks(range(10))                  # the deuces, treys and two fours (4c, 4d)
    >>> len(ranks), int(ranks[0]) == handeval.dense(handeval.evaluate([0, 1, 2, 3, 4]))   # C(10, 5); 2c 2d 2h 2s 3c
    (252, True)
    """
    deck, _ = _deck_positions(deck_cards)
    cdef DeckTables tables
    cdef int n = len(deck)
    fill_binomials(tables.binom)
    tables.n_cards = n
    tables.n_hands = tables.binom[n][HAND]
    ranks = np.empty(tables.n_hands, dtype=np.uint16)
    cdef uint16_t[::1] ranks_v = ranks
    cdef const uint8_t[::1] cards = deck
    with nogil:
        rank_hands(&tables, &cards[0], &ranks_v[0])
    return ranks


def hand_types(deck_cards, const uint16_t[::1] hand_rank):
    """The deck's hands sorted by (rank, ranks held in clubs), for `count_seen`: a dict of
    "order" (the colex index of each sorted hand), "hands" (its deck positions packed 6 bits each),
    "rank_start" (hands of rank g: rank_start[g] .. rank_start[g + 1] - 1), "type_start" and "type_rank"
    (the runs of one rank and clubs mask, and their ranks), "holding" (per deck position, a bit plane of
    the sorted hands that hold that card).

    >>> types = hand_types(range(12), hand_ranks(range(12)))     # deuces, treys, fours
    >>> len(types["order"]), int(types["rank_start"][-1]), int(types["holding"][0].sum() > 0)
    (792, 792, 1)
    """
    deck, _ = _deck_positions(deck_cards)
    cdef DeckTables tables
    cdef int n = len(deck), a, b, c, e, top, i
    fill_binomials(tables.binom)
    cdef Py_ssize_t n_hands = tables.binom[n][HAND], words = (n_hands + WORD_BITS - 1) // WORD_BITS, h, w
    if hand_rank.shape[0] != n_hands:
        raise ValueError("hand_rank: one rank per hand of the deck")
    keys = np.empty(n_hands, dtype=np.uint32)
    packed = np.empty(n_hands, dtype=np.uint32)
    cdef uint32_t[::1] keys_v = keys
    cdef uint32_t[::1] packed_v = packed
    cdef const uint8_t[::1] cards = deck
    cdef uint32_t index, clubs
    cdef int p[HAND]
    with nogil:
        for top in range(HAND - 1, n):
            for c in range(3, top):
                for b in range(2, c):
                    for a in range(1, b):
                        for e in range(a):
                            p[0] = e
                            p[1] = a
                            p[2] = b
                            p[3] = c
                            p[4] = top
                            index = colex5(tables.binom, e, a, b, c, top)
                            clubs = 0
                            for i in range(HAND):
                                if card_suit(cards[p[i]]) == CLUBS:
                                    clubs |= 1 << card_rank(cards[p[i]])
                            keys_v[index] = (<uint32_t>hand_rank[index] << N_RANKS) | clubs
                            packed_v[index] = (e | a << POSITION_BITS | b << 2 * POSITION_BITS
                                               | c << 3 * POSITION_BITS | top << 4 * POSITION_BITS)
    order = np.argsort(keys, kind="stable").astype(np.uint32)
    keys = keys[order]
    hands = np.ascontiguousarray(packed[order])
    type_start = np.flatnonzero(np.r_[True, np.diff(keys.astype(np.int64)) != 0, True]).astype(np.uint32)
    holding = np.zeros((n, words), dtype=np.uint64)
    cdef uint64_t[:, ::1] holding_v = holding
    cdef uint64_t[::1] masks_v = np.zeros(n_hands, dtype=np.uint64)
    cdef const uint32_t[::1] order_v = order
    with nogil:
        for h in range(n_hands):                                    # by colex index: the cards' positions
            for i in range(HAND):
                masks_v[h] |= (<uint64_t>1) << ((packed_v[h] >> (POSITION_BITS * i)) & POSITION_MASK)
        for w in prange(words, schedule="static"):
            plane_word(&masks_v[0], &order_v[0], w, n_hands, &holding_v[0, 0], words)
    return {"order": order, "hands": hands,
            "rank_start": np.searchsorted(keys >> N_RANKS, np.arange(COLUMNS)).astype(np.uint32),
            "type_start": type_start, "type_rank": (keys[type_start[:len(type_start) - 1]] >> N_RANKS).astype(np.uint16),
            "holding": holding}


def honest_planes(deck_cards, const uint8_t[:, ::1] keys, const uint8_t[::1] raises, const uint32_t[::1] order):
    """Per deck position u, a bit plane over the sorted hands (`hand_types`' order): bit h set where a decision
    per situation class (`raises`, one per class key) raises sorted hand h with the up card at position u.

    keys: the (hand, up card) class keys of the deck, sorted, as `stud_enum.situation_classes` gives
    them (the classes of one canonical hand consecutive).  Every renaming of the deck's suits maps a
    class's canonical hand and up card to the raw situations it stands for; the hands of different
    canonical hands are different, so threads share the canonical hands without sharing a hand.
    Raises ValueError on a malformed deck, key or decision array.

    >>> from cython_ext import stud_enum
    >>> keys, weights = stud_enum.situation_classes(range(12))
    >>> types = hand_types(range(12), hand_ranks(range(12)))
    >>> planes = honest_planes(range(12), keys, np.ones(len(keys), dtype=np.uint8), types["order"])
    >>> planes.shape, sum(bin(int(x)).count("1") for x in planes.ravel()) == 792 * 7   # raise always
    ((12, 13), True)
    """
    deck, position = _deck_positions(deck_cards)
    if keys.shape[1] != SITUATION or raises.shape[0] != keys.shape[0]:
        raise ValueError("keys must be (m, 6) class keys with one decision each")
    n_suits = len({int(c) % N_SUITS for c in deck})
    ranks = {int(c) // N_SUITS for c in deck}
    if set(deck.tolist()) != {make_card(r, s) for r in ranks for s in range(n_suits)}:
        raise ValueError("a deck renamed by suits holds the same ranks in each of the first k suits (c, d, h, s)")
    renamings = np.array([list(p) + list(range(n_suits, N_SUITS)) for p in itertools.permutations(range(n_suits))],
                         dtype=np.uint8)
    rows = np.asarray(keys)
    if len(rows) and (position[rows] == NOT_IN_DECK).any():
        raise ValueError("a class key holds a card outside the deck")
    starts = np.flatnonzero(np.r_[True, (rows[1:, :HAND] != rows[:-1, :HAND]).any(axis=1), True]).astype(np.int64)
    cdef DeckTables tables
    cdef int n = len(deck), n_renamings = len(renamings)
    fill_binomials(tables.binom)
    cdef Py_ssize_t n_hands = tables.binom[n][HAND], words = (n_hands + WORD_BITS - 1) // WORD_BITS, w
    if order.shape[0] != n_hands:
        raise ValueError("order: one colex index per hand of the deck")
    masks = np.zeros(n_hands, dtype=np.uint64)                # by colex index: the up cards it raises with
    planes = np.zeros((n, words), dtype=np.uint64)
    cdef uint64_t[::1] masks_v = masks
    cdef uint64_t[:, ::1] planes_v = planes
    cdef const int64_t[::1] starts_v = starts
    cdef const uint8_t[:, ::1] renamings_v = renamings
    cdef const uint8_t[::1] position_v = position
    cdef Py_ssize_t run, n_runs = len(starts) - 1
    with nogil:
        for run in prange(n_runs, schedule="dynamic", chunksize=64):
            mask_run(&tables, &keys[0, 0], &raises[0], starts_v[run], starts_v[run + 1], &renamings_v[0, 0],
                     n_renamings, &position_v[0], &masks_v[0])
        for w in prange(words, schedule="static"):                  # a word's 64 hands, one thread
            plane_word(&masks_v[0], &order[0], w, n_hands, &planes_v[0, 0], words)
    return planes


cdef void plane_word(const uint64_t* masks, const uint32_t* order, Py_ssize_t w, Py_ssize_t n_hands,
                     uint64_t* planes, Py_ssize_t words) noexcept nogil:
    """Word w of every plane: bit h - 64 w of plane u set where sorted hand h's mask (by colex index order[h])
    has bit u."""
    cdef Py_ssize_t h
    cdef uint64_t mask
    for h in range(w * WORD_BITS, min((w + 1) * WORD_BITS, n_hands)):
        mask = masks[order[h]]
        while mask:
            planes[__builtin_ctzll(mask) * words + w] |= (<uint64_t>1) << (h - w * WORD_BITS)
            mask &= mask - 1


cdef void mask_run(const DeckTables* deck, const uint8_t* keys, const uint8_t* raises, Py_ssize_t first,
                   Py_ssize_t last, const uint8_t* renamings, int n_renamings, const uint8_t* position,
                   uint64_t* masks) noexcept nogil:
    """The raw hands of one canonical hand (class rows first .. last - 1) under every renaming."""
    cdef uint8_t at[HAND]
    cdef const uint8_t* new_suit
    cdef const uint8_t* key
    cdef uint64_t bits
    cdef Py_ssize_t i
    cdef int k, j
    for k in range(n_renamings):
        new_suit = renamings + N_SUITS * k
        for j in range(HAND):
            at[j] = position[make_card(card_rank(keys[SITUATION * first + j]),
                                       new_suit[card_suit(keys[SITUATION * first + j])])]
        sort_ascending(at, HAND)
        bits = 0
        for i in range(first, last):
            key = keys + SITUATION * i
            if raises[i]:
                bits |= (<uint64_t>1) << position[make_card(card_rank(key[HAND]), new_suit[card_suit(key[HAND])])]
        masks[colex5(deck.binom, at[0], at[1], at[2], at[3], at[4])] |= bits


# --- counting ------------------------------------------------------------------------------------------

def count_seen(deck_cards, seen_cards, weights, const uint16_t[::1] hand_rank, types,
               const uint64_t[:, ::1] honest, const uint8_t[::1] category_of_rank, nets, int64_t fold_ev,
               int qualifier_rank, n_threads=None):
    """The exploit's deals by player category x decision x outcome, and the deals where the honest optimum differs.

    deck_cards: the deck (ascending card indices); seen_cards: (c, 1 + K) canonical classes of seen
    dealer cards, K = 1..3 (a class of one suit in clubs), with `weights` (raw sets per class);
    hand_rank, types and honest: the deck's tables (`hand_ranks`, `hand_types`, `honest_planes`);
    category_of_rank: the category of each dense rank; nets: (categories, outcomes) integer nets of a
    raised hand (the paytable x its scale), fold_ev: folding's EV numerator (-completions x scale);
    the dealer qualifies with a dense rank >= qualifier_rank.  Returns (totals, disagreements):
    totals (categories, 2, outcomes) int64 deals [category][folded, raised][outcome], every deal
    (P, S, R) counted once (S in its class's raw sets); disagreements: the deals with the up card
    distinguished among S where the honest optimum decides otherwise.  The caller proves the bounds:
    |nets| x completions and the weighted totals within int64.
    Raises ValueError on malformed input, RuntimeError if a count comes out inconsistent.

    One seen card besides the up card on the 12 cards deuce to four: each of the 66 pairs S, the
    C(10, 5) player hands and the C(5, 3) completions of each.

    >>> from cython_ext import handeval
    >>> deck = range(12)
    >>> nets = np.array([[1, 3, 0, -3]] * 10, dtype=np.int64)       # a raise pays 1 to 1, the ante 1 to 1
    >>> pairs = np.array([[a, b] for a in deck for b in deck if a < b], dtype=np.uint8)
    >>> categories = handeval.categories(handeval.ORDERED_VALUES).astype(np.uint8)
    >>> ranks = hand_ranks(deck)
    >>> types = hand_types(deck, ranks)
    >>> never = np.zeros((12, 13), dtype=np.uint64)                 # an honest strategy that never raises
    >>> one_suit = pairs[:, 0] % 4 == pairs[:, 1] % 4
    >>> pairs = pairs[~one_suit | (pairs[:, 0] % 4 == 0)]           # the pairs of one suit in clubs only
    >>> weights = np.where(pairs[:, 0] % 4 == pairs[:, 1] % 4, 4, 1)
    >>> totals, disagreements = count_seen(deck, pairs, weights, ranks, types, never, categories, nets, -10, 0, 1)
    >>> int(totals.sum()) == 66 * 252 * 10, disagreements == int(totals[:, 1].sum()) * 2
    (True, True)
    """
    deck, position = _deck_positions(deck_cards)
    rows = np.asarray(seen_cards, dtype=np.uint8)
    if rows.ndim != 2 or not MIN_SEEN_HOLE + 1 <= rows.shape[1] <= MAX_SEEN:
        raise ValueError(f"seen cards: (c, 1 + K) rows, K = {MIN_SEEN_HOLE}..{MAX_SEEN_HOLE}")
    seen = np.sort(position[rows], axis=1)
    bad = (seen == NOT_IN_DECK).any(axis=1) | (np.diff(seen.astype(np.int16), axis=1) <= 0).any(axis=1)
    one_suit = (rows % N_SUITS == rows[:, :1] % N_SUITS).all(axis=1)
    bad |= one_suit & (rows[:, 0] % N_SUITS != CLUBS)
    if bad.any():
        raise ValueError(f"seen cards {int(np.argmax(bad))} ({rows[np.argmax(bad)].tolist()}): a card outside "
                         "the deck, a card twice, or of one suit other than clubs (not a canonical class)")
    seen = np.ascontiguousarray(seen)
    class_weights = np.ascontiguousarray(weights, dtype=np.int64)
    net_array = np.ascontiguousarray(nets, dtype=np.int64)
    cdef int n = len(deck), threads = 1 if n_threads is None else int(n_threads), t
    if len(class_weights) != len(seen) or (class_weights < 0).any():
        raise ValueError("one non-negative weight per class of seen cards")
    if net_array.shape != (N_CATEGORIES, N_OUTCOMES) or category_of_rank.shape[0] != N_DISTINCT_HANDS:
        raise ValueError("nets: (categories, outcomes); category_of_rank: one per dense rank")
    if not 0 <= qualifier_rank < N_DISTINCT_HANDS or threads < 1:
        raise ValueError("qualifier_rank: a dense rank; n_threads: at least 1")
    cdef Setting st
    fill_binomials(st.deck.binom)
    st.deck.n_cards = n
    st.deck.n_hands = st.deck.binom[n][HAND]
    st.words = (st.deck.n_hands + WORD_BITS - 1) // WORD_BITS
    cdef const uint32_t[::1] hands_v = types["hands"]
    cdef const uint32_t[::1] rank_start_v = types["rank_start"]
    cdef const uint32_t[::1] type_start_v = types["type_start"]
    cdef const uint16_t[::1] type_rank_v = types["type_rank"]
    cdef const uint64_t[:, ::1] holding_v = types["holding"]
    if hand_rank.shape[0] != st.deck.n_hands or hands_v.shape[0] != st.deck.n_hands \
            or (holding_v.shape[0], holding_v.shape[1]) != (n, st.words) or (honest.shape[0], honest.shape[1]) != (n, st.words) \
            or rank_start_v.shape[0] != COLUMNS or type_start_v.shape[0] != type_rank_v.shape[0] + 1:
        raise ValueError("hand_rank, types and honest: the tables of this deck")
    st.seen = seen.shape[1]
    st.rest = HAND - st.seen
    st.candidates = n - st.seen
    if st.candidates < HAND + st.rest:
        raise ValueError(f"{n} cards cannot deal a player hand and the dealer's {st.rest} unseen cards")
    st.qualifier_rank = qualifier_rank
    st.n_wide = (st.rest >= 2) + (st.candidates if st.rest >= 3 else 0)
    st.n_narrow = st.deck.binom[st.candidates][st.rest - 1]
    st.completions = st.deck.binom[st.candidates - HAND][st.rest]
    st.fold_ev = fold_ev
    cdef const int64_t[:, ::1] nets_v = net_array
    cdef const uint8_t[::1] cards_v = deck
    st.nets = &nets_v[0, 0]
    st.cards = &cards_v[0]
    st.category_of_rank = &category_of_rank[0]
    st.deck.hand_rank = &hand_rank[0]
    st.hands = &hands_v[0]
    st.rank_start = &rank_start_v[0]
    st.type_start = &type_start_v[0]
    st.type_rank = &type_rank_v[0]
    st.n_types = type_rank_v.shape[0]
    st.holding = &holding_v[0, 0]
    st.honest = &honest[0, 0]

    sizes = {"candidate": (N_CARDS, np.uint8), "index_of": (N_CARDS, np.uint8),
             "dealer_rank": (st.deck.binom[st.candidates][st.rest], np.uint16),
             "wide": (max(1, st.n_wide) * COLUMNS, np.uint16), "narrow": (st.n_narrow * COLUMNS, np.uint8),
             "avoid": (st.words, np.uint64), "local": (TOTALS, np.int64), "totals": (TOTALS + 1, np.int64)}
    buffers = {name: np.zeros((threads, size), dtype=dtype) for name, (size, dtype) in sizes.items()}
    cdef uint8_t[:, ::1] candidate_v = buffers["candidate"]
    cdef uint8_t[:, ::1] index_of_v = buffers["index_of"]
    cdef uint16_t[:, ::1] dealer_v = buffers["dealer_rank"]
    cdef uint16_t[:, ::1] wide_v = buffers["wide"]
    cdef uint8_t[:, ::1] narrow_v = buffers["narrow"]
    cdef uint64_t[:, ::1] avoid_v = buffers["avoid"]
    cdef int64_t[:, ::1] local_v = buffers["local"]
    cdef int64_t[:, ::1] totals_v = buffers["totals"]
    workspaces = np.zeros(threads * sizeof(Workspace), dtype=np.uint8)
    cdef uint8_t[::1] workspaces_v = workspaces
    cdef Workspace* ws = <Workspace*>&workspaces_v[0]
    for t in range(threads):
        ws[t].candidate = &candidate_v[t, 0]
        ws[t].index_of = &index_of_v[t, 0]
        ws[t].dealer_rank = &dealer_v[t, 0]
        ws[t].wide = &wide_v[t, 0]
        ws[t].narrow = &narrow_v[t, 0]
        ws[t].avoid = &avoid_v[t, 0]
        ws[t].local = &local_v[t, 0]
        ws[t].totals = &totals_v[t, 0]
    cdef const uint8_t[:, ::1] seen_v = seen
    cdef const int64_t[::1] weights_v = class_weights
    cdef Py_ssize_t i, n_classes = len(seen), inconsistent = 0
    if n_classes:
        with nogil:                               # classes of one suit cost more: taken as threads free up
            for i in prange(n_classes, num_threads=threads, schedule="dynamic"):
                inconsistent += count_class(&st, &seen_v[i, 0], weights_v[i], &ws[threadid()])
    if inconsistent:
        raise RuntimeError(f"stud_leak: {inconsistent} counts came out inconsistent (a kernel fault)")
    summed = buffers["totals"].sum(axis=0)
    return summed[:TOTALS].reshape(N_CATEGORIES, DECISIONS, N_OUTCOMES), int(summed[TOTALS])
