"""Caribbean Stud with seen dealer cards: the exploit's exact play over every deal, by classes of the seen cards.

The player sees his five cards P and 1 + K of the dealer's five (the up card and K hole cards: a
set S); the dealer's r = 4 - K other cards R complete his hand.  For each suit class of S (weighted
by the raw sets it stands for), every player hand P among the n - |S| cards left (the
"candidates") is settled against every completion R disjoint from P.  Algorithm (card removal by
inclusion-exclusion over P's subsets):

    #{R disjoint from P : rank(S + R) < g} = sum over A subset of P, |A| <= r, of (-1)^|A| F_A(g),
    F_A(g) = #{R containing A : rank(S + R) < g},

where F_A for |A| = r is [rank(S + A) < g] and, for smaller A, a row of counts by rank, cumulative,
made once per S from its C(n - |S|, r) dealer hands.  Asked at g = the player's rank, at g + 1 and
at the qualifier, this gives the dealer hands below, up to and not qualifying against P: the
completions by outcome.  The exploit raises exactly when raising's EV numerator (the counts x the
paytable's integer nets) beats folding's; every deal is added to its player category x decision x
outcome, and the deals where the honest optimum (which takes one of the |S| cards as the up card)
decides otherwise are counted from a per-hand bit mask of its decisions.  Nothing per situation
is kept.

Player hands are visited in colex order of their candidate indices (the smallest card in the
innermost loop), so that their deck colex indices increase and the per-hand tables are read in
order; the terms of the subsets of the outer cards are made once per iteration of their loop.

`hand_ranks` and `honest_masks` make the per-hand tables; `count_seen` counts.
"""
import itertools

import numpy as np

from cython.parallel cimport prange
from libc.string cimport memset

from cython_ext._types cimport (card_t, int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, HAND, N_CARDS,
                                N_SUITS, N_CATEGORIES, N_OUTCOMES, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE,
                                DEALER_WINS, card_rank, card_suit, make_card, fill_binomials, colex5,
                                sort_ascending)
from cython_ext.handeval cimport N_DISTINCT_HANDS
from cython_ext.stud_enum cimport DeckTables, rank_hands

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    MIN_DECK = 10                   # 5 player cards + the dealer's 5
    SITUATION = HAND + 1            # a class key: the hand, then the up card
    MIN_SEEN_HOLE = 1
    MAX_SEEN_HOLE = 3               # K = 4 (the whole hand) needs no enumeration: the honest counts settle it
    MAX_REST = HAND - 1 - MIN_SEEN_HOLE    # the dealer's unseen cards: at most 3
    OUTER = HAND - 1                # the player's cards outside the innermost loop
    MAX_TERMS = 1 << OUTER          # subsets of the outer cards
    COLUMNS = N_DISTINCT_HANDS + 1  # a row of counts F_A(g), g = 0 .. 7462
    DECISIONS = 2                   # fold, raise: the middle axis of the totals
    TOTALS = N_CATEGORIES * DECISIONS * N_OUTCOMES
    NOT_IN_DECK = 255


# What every thread reads; set once per count.
cdef struct Setting:
    DeckTables deck                 # n_cards, binom and hand_rank (the rank of every hand by colex index)
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
    const uint64_t* honest          # by hand colex index: bit u set = the honest optimum raises with
                                    # the up card at deck position u

# One thread's tables for one S (sized for the setting) and its totals.
cdef struct Workspace:
    uint8_t* candidate              # deck position of each candidate, ascending
    uint16_t* dealer_rank           # C(candidates, r): the rank of S + R by R's colex index
    uint16_t* wide                  # n_wide x COLUMNS: F_A for |A| <= r - 2 (at most C(50, 3) = 19,600)
    uint8_t* narrow                 # n_narrow x COLUMNS: F_A for |A| = r - 1 (at most 50)
    uint16_t* wide_q                # each row's count at the qualifier
    uint8_t* narrow_q
    int64_t* local                  # TOTALS: one S's deals by category x decision x outcome (at most
                                    # C(50, 5) x C(45, 3) < 2**35)
    int64_t* totals                 # TOTALS + 1: weighted over this thread's classes, then the disagreements

# The subsets A of the player's cards fixed so far with |A| <= r: their terms by kind (a row of
# counts, or a dealer hand's rank when |A| = r), signed (-1)^|A|; and those with |A| < r, which a
# smaller card may still join.
cdef struct Terms:
    int n_wide, n_narrow, n_dealer, n_grow
    const uint16_t* wide[MAX_TERMS]
    const uint8_t* narrow[MAX_TERMS]
    uint16_t dealer[MAX_TERMS]
    int8_t wide_sign[MAX_TERMS]
    int8_t narrow_sign[MAX_TERMS]
    int8_t dealer_sign[MAX_TERMS]
    uint8_t grow_size[MAX_TERMS]
    int8_t grow_sign[MAX_TERMS]
    uint32_t grow_shift[MAX_TERMS][MAX_REST + 1]   # sum over A's cards a_e (ascending) of C(a_e, e + 1 + t)
    int64_t nq                      # sum of sign x F_A(q): the completions that do not qualify, so far
    uint32_t colex                  # the fixed cards' part of the hand's deck colex index


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
        if not (in_seen >> p) & 1:
            ws.candidate[j] = p
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
        ws.wide_q[row] = ws.wide[row * COLUMNS + st.qualifier_rank]
    for row in range(st.n_narrow):
        for d in range(1, COLUMNS):
            ws.narrow[row * COLUMNS + d] += ws.narrow[row * COLUMNS + d - 1]
        ws.narrow_q[row] = ws.narrow[row * COLUMNS + st.qualifier_rank]


cdef inline void add_term(const Setting* st, const Workspace* ws, Terms* terms, int size, int sign,
                          const uint32_t* shift) noexcept nogil:
    """Adds the subset of `size` cards whose shifted colex sums are `shift` (shift[0]: its index)."""
    cdef int t, k
    cdef uint16_t d
    if size < st.rest - 1:
        k = terms.n_wide
        terms.wide[k] = ws.wide + wide_row(size, shift[0]) * COLUMNS
        terms.wide_sign[k] = sign
        terms.nq += sign * ws.wide_q[wide_row(size, shift[0])]
        terms.n_wide += 1
    elif size == st.rest - 1:
        k = terms.n_narrow
        terms.narrow[k] = ws.narrow + shift[0] * COLUMNS
        terms.narrow_sign[k] = sign
        terms.nq += sign * ws.narrow_q[shift[0]]
        terms.n_narrow += 1
    else:
        k = terms.n_dealer
        d = ws.dealer_rank[shift[0]]
        terms.dealer[k] = d
        terms.dealer_sign[k] = sign
        terms.nq += sign * (d < st.qualifier_rank)
        terms.n_dealer += 1
    if size < st.rest:
        k = terms.n_grow
        terms.grow_size[k] = size
        terms.grow_sign[k] = sign
        for t in range(st.rest - size + 1):
            terms.grow_shift[k][t] = shift[t]
        terms.n_grow += 1


cdef void extend(const Setting* st, const Workspace* ws, const Terms* parent, Terms* child, int x,
                 int place) noexcept nogil:
    """child = parent's subsets, and each growable one joined by candidate x (below all of its cards),
    x being the hand's card at `place` (1 = lowest outer card .. 4 = highest)."""
    cdef int k, t, size
    cdef uint32_t shift[MAX_REST + 1]
    child.n_wide = parent.n_wide
    child.n_narrow = parent.n_narrow
    child.n_dealer = parent.n_dealer
    child.n_grow = parent.n_grow
    for k in range(parent.n_wide):
        child.wide[k] = parent.wide[k]
        child.wide_sign[k] = parent.wide_sign[k]
    for k in range(parent.n_narrow):
        child.narrow[k] = parent.narrow[k]
        child.narrow_sign[k] = parent.narrow_sign[k]
    for k in range(parent.n_dealer):
        child.dealer[k] = parent.dealer[k]
        child.dealer_sign[k] = parent.dealer_sign[k]
    for k in range(parent.n_grow):
        child.grow_size[k] = parent.grow_size[k]
        child.grow_sign[k] = parent.grow_sign[k]
        for t in range(st.rest - parent.grow_size[k] + 1):
            child.grow_shift[k][t] = parent.grow_shift[k][t]
    child.nq = parent.nq
    child.colex = parent.colex + st.deck.binom[ws.candidate[x]][place + 1]
    for k in range(parent.n_grow):
        size = parent.grow_size[k] + 1
        for t in range(st.rest - size + 1):
            shift[t] = st.deck.binom[x][1 + t] + parent.grow_shift[k][t + 1]
        add_term(st, ws, child, size, -parent.grow_sign[k], shift)


cdef Py_ssize_t settle_hands(const Setting* st, Workspace* ws, const Terms* outer, int last,
                             uint64_t seen_bits, int64_t* disagreements) noexcept nogil:
    """Every player hand made of the outer cards and a candidate c0 < last: its completions by outcome,
    the exploit's decision, the deals added to ws.local.  Returns the inconsistent counts (none)."""
    cdef const uint16_t* inner_wide[MAX_TERMS]
    cdef const uint16_t* inner_wide_q[MAX_TERMS]
    cdef const uint8_t* inner_narrow[MAX_TERMS]
    cdef const uint8_t* inner_narrow_q[MAX_TERMS]
    cdef const uint16_t* inner_dealer[MAX_TERMS]
    cdef int8_t wide_sign[MAX_TERMS]
    cdef int8_t narrow_sign[MAX_TERMS]
    cdef int8_t dealer_sign[MAX_TERMS]
    cdef int n_wide = 0, n_narrow = 0, n_dealer = 0, k, size, sign, g, q = st.qualifier_rank, c0, cat, raised, h
    cdef int d
    cdef uint32_t shift, index
    cdef int64_t nq, below, upto, win, tie, lose, ev, completions = st.completions
    cdef int64_t* cell
    cdef const uint16_t* row16
    cdef const uint8_t* row8
    cdef const int64_t* net
    cdef Py_ssize_t inconsistent = 0
    # The subsets that hold the innermost card: {c0} + B for each growable B (index c0 + B's shift 1).
    for k in range(outer.n_grow):
        size = outer.grow_size[k] + 1
        sign = -outer.grow_sign[k]
        shift = outer.grow_shift[k][1]
        if size < st.rest - 1:
            inner_wide[n_wide] = ws.wide + wide_row(size, shift) * COLUMNS
            inner_wide_q[n_wide] = ws.wide_q + wide_row(size, shift)
            wide_sign[n_wide] = sign
            n_wide += 1
        elif size == st.rest - 1:
            inner_narrow[n_narrow] = ws.narrow + shift * COLUMNS
            inner_narrow_q[n_narrow] = ws.narrow_q + shift
            narrow_sign[n_narrow] = sign
            n_narrow += 1
        else:
            inner_dealer[n_dealer] = ws.dealer_rank + shift
            dealer_sign[n_dealer] = sign
            n_dealer += 1
    for c0 in range(last):
        index = outer.colex + ws.candidate[c0]
        g = st.deck.hand_rank[index]
        nq = outer.nq
        for k in range(n_wide):
            nq += wide_sign[k] * inner_wide_q[k][c0]
        for k in range(n_narrow):
            nq += narrow_sign[k] * inner_narrow_q[k][c0]
        for k in range(n_dealer):
            nq += dealer_sign[k] * (inner_dealer[k][c0] < q)
        if g < q:                                 # no qualifying dealer is beaten or tied
            win = tie = 0
            lose = completions - nq
            inconsistent += not (0 <= nq <= completions)
        else:
            below = upto = 0
            for k in range(outer.n_wide):
                row16 = outer.wide[k]
                below += outer.wide_sign[k] * row16[g]
                upto += outer.wide_sign[k] * row16[g + 1]
            for k in range(n_wide):
                row16 = inner_wide[k] + c0 * COLUMNS
                below += wide_sign[k] * row16[g]
                upto += wide_sign[k] * row16[g + 1]
            for k in range(outer.n_narrow):
                row8 = outer.narrow[k]
                below += outer.narrow_sign[k] * row8[g]
                upto += outer.narrow_sign[k] * row8[g + 1]
            for k in range(n_narrow):
                row8 = inner_narrow[k] + c0 * COLUMNS
                below += narrow_sign[k] * row8[g]
                upto += narrow_sign[k] * row8[g + 1]
            for k in range(outer.n_dealer):
                d = outer.dealer[k]
                below += outer.dealer_sign[k] * (d < g)
                upto += outer.dealer_sign[k] * (d <= g)
            for k in range(n_dealer):
                d = inner_dealer[k][c0]
                below += dealer_sign[k] * (d < g)
                upto += dealer_sign[k] * (d <= g)
            win = below - nq
            tie = upto - below
            lose = completions - upto
            inconsistent += not (0 <= nq <= below <= upto <= completions)
        cat = st.category_of_rank[g]
        net = st.nets + cat * N_OUTCOMES
        ev = nq * net[DEALER_NOT_QUALIFIED] + win * net[PLAYER_WINS] + tie * net[PUSH_TIE] + lose * net[DEALER_WINS]
        raised = ev > st.fold_ev                  # an exact tie folds
        cell = ws.local + (cat * DECISIONS + raised) * N_OUTCOMES
        cell[DEALER_NOT_QUALIFIED] += nq
        cell[PLAYER_WINS] += win
        cell[PUSH_TIE] += tie
        cell[DEALER_WINS] += lose
        h = __builtin_popcountll(st.honest[index] & seen_bits)    # up cards of S the honest optimum raises with
        disagreements[0] += h + raised * (st.seen - 2 * h)
    return inconsistent


cdef Py_ssize_t count_class(const Setting* st, const uint8_t* seen, int64_t weight, Workspace* ws) noexcept nogil:
    """Every player hand against one class of seen cards (deck positions, ascending): its deals x weight
    added to ws.totals.  Returns the inconsistent counts (0 unless the kernel is wrong)."""
    cdef Terms terms[OUTER + 1]                   # terms[j]: the subsets of the j highest cards
    cdef uint32_t empty[MAX_REST + 1]
    cdef int m = st.candidates, c1, c2, c3, c4, j
    cdef uint64_t seen_bits = 0
    cdef int64_t disagreements = 0, dealt = 0
    cdef Py_ssize_t inconsistent = 0
    make_tables(st, seen, ws)
    for j in range(st.seen):
        seen_bits |= (<uint64_t>1) << seen[j]
    memset(ws.local, 0, TOTALS * sizeof(int64_t))
    memset(empty, 0, sizeof(empty))
    terms[0].n_wide = terms[0].n_narrow = terms[0].n_dealer = terms[0].n_grow = 0
    terms[0].nq = 0
    terms[0].colex = 0
    add_term(st, ws, &terms[0], 0, 1, empty)
    for c4 in range(OUTER, m):
        extend(st, ws, &terms[0], &terms[1], c4, 4)
        for c3 in range(3, c4):
            extend(st, ws, &terms[1], &terms[2], c3, 3)
            for c2 in range(2, c3):
                extend(st, ws, &terms[2], &terms[3], c2, 2)
                for c1 in range(1, c2):
                    extend(st, ws, &terms[3], &terms[4], c1, 1)
                    inconsistent += settle_hands(st, ws, &terms[4], c1, seen_bits, &disagreements)
    for j in range(TOTALS):
        dealt += ws.local[j]
        ws.totals[j] += weight * ws.local[j]
    ws.totals[TOTALS] += weight * disagreements * st.completions
    return inconsistent + (dealt != <int64_t>st.deck.binom[m][HAND] * st.completions)


cdef void count_share(const Setting* st, const uint8_t* seen, const int64_t* weights, Py_ssize_t n_classes,
                      int thread, int n_threads, Workspace* ws, Py_ssize_t* inconsistent) noexcept nogil:
    """The classes thread, thread + n_threads, ...: every class costs the same."""
    cdef Py_ssize_t i = thread
    while i < n_classes:
        inconsistent[0] += count_class(st, seen + st.seen * i, weights[i], ws)
        i += n_threads


# --- Python entry points --------------------------------------------------------------------------

def _deck_positions(deck_cards):
    deck = np.ascontiguousarray(deck_cards, dtype=np.uint8)
    if deck.ndim != 1 or not MIN_DECK <= len(deck) <= N_CARDS:
        raise ValueError(f"a deck holds {MIN_DECK} to {N_CARDS} cards, got {deck.size}")
    if (deck >= N_CARDS).any() or (np.diff(deck.astype(np.int64)) <= 0).any():
        raise ValueError("deck cards must be distinct card indices 0..51 in ascending order")
    position = np.full(N_CARDS, NOT_IN_DECK, dtype=np.uint8)
    position[deck] = np.arange(len(deck), dtype=np.uint8)
    return deck, position


def _positions_of(rows, position, what):
    """Each row's cards as deck positions, ascending; ValueError for a card outside the deck or twice."""
    rows = np.asarray(rows, dtype=np.uint8)
    at = np.sort(position[rows], axis=1)
    bad = (at == NOT_IN_DECK).any(axis=1) | (np.diff(at.astype(np.int16), axis=1) <= 0).any(axis=1)
    if bad.any():
        raise ValueError(f"{what} {int(np.argmax(bad))} has a card outside the deck or a card twice: "
                         f"{rows[np.argmax(bad)].tolist()}")
    return np.ascontiguousarray(at)


def hand_ranks(deck_cards):
    """The dense rank (handeval) of every 5-card hand of the deck, by colex index of its deck positions (uint16).

    >>> ranks = hand_ranks(range(10))                  # the deuces, treys and two fours (4c, 4d)
    >>> from cython_ext import handeval
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


def honest_masks(deck_cards, const uint8_t[:, ::1] keys, const uint8_t[::1] raises):
    """Per hand of the deck (by colex index of its deck positions): bit u set where a decision per
    situation class (`raises`, one per class key) raises with the up card at deck position u.

    keys: the (hand, up card) class keys of the deck, sorted, as `stud_enum.situation_classes` gives
    them (the classes of one canonical hand consecutive).  Every renaming of the deck's suits maps a
    class's canonical hand and up card to the raw situations it stands for; the hands of different
    canonical hands are different, so threads share the canonical hands without sharing a mask.
    Raises ValueError on a malformed deck, key or decision array.

    >>> from cython_ext import stud_enum
    >>> keys, weights = stud_enum.situation_classes(range(12))
    >>> masks = honest_masks(range(12), keys, np.ones(len(keys), dtype=np.uint8))
    >>> sorted(set(bin(int(m)).count("1") for m in masks))     # raise always: all 7 up cards, every hand
    [7]
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
    masks = np.zeros(tables.binom[n][HAND], dtype=np.uint64)
    cdef uint64_t[::1] masks_v = masks
    cdef const int64_t[::1] starts_v = starts
    cdef const uint8_t[:, ::1] renamings_v = renamings
    cdef const uint8_t[::1] position_v = position
    cdef Py_ssize_t run, n_runs = len(starts) - 1
    with nogil:
        for run in prange(n_runs, schedule="dynamic", chunksize=64):
            mask_run(&tables, &keys[0, 0], &raises[0], starts_v[run], starts_v[run + 1], &renamings_v[0, 0],
                     n_renamings, &position_v[0], &masks_v[0])
    return masks


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


def count_seen(deck_cards, seen_cards, weights, const uint16_t[::1] hand_rank, const uint64_t[::1] honest,
               const uint8_t[::1] category_of_rank, nets, int64_t fold_ev, int qualifier_rank, n_threads=None):
    """The exploit's deals by player category x decision x outcome, and the deals where the honest optimum differs.

    deck_cards: the deck (ascending card indices); seen_cards: (c, 1 + K) the classes of seen dealer
    cards, K = 1..3, with `weights` (raw sets per class); hand_rank and honest: per hand of the deck
    by colex index (`hand_ranks`, `honest_masks`); category_of_rank: the category of each dense rank;
    nets: (categories, outcomes) integer nets of a raised hand (the paytable x its scale), fold_ev:
    folding's EV numerator (-completions x scale); the dealer qualifies with a dense rank >=
    qualifier_rank.  Returns (totals, disagreements): totals (categories, 2, outcomes) int64 deals
    [category][folded, raised][outcome], every deal (P, S, R) counted once (S in its class's raw sets);
    disagreements: the deals with the up card distinguished among S where the honest optimum decides
    otherwise.  The caller proves the bounds: |nets| x completions and the weighted totals within int64.
    Raises ValueError on malformed input, RuntimeError if a count comes out inconsistent.

    One seen card besides the up card on the 12 cards deuce to four: each of the 66 pairs S, the
    C(10, 5) player hands and the C(5, 3) completions of each.

    >>> from cython_ext import handeval
    >>> deck = range(12)
    >>> nets = np.array([[1, 3, 0, -3]] * 10, dtype=np.int64)       # a raise pays 1 to 1, the ante 1 to 1
    >>> pairs = np.array([[a, b] for a in deck for b in deck if a < b], dtype=np.uint8)
    >>> categories = handeval.categories(handeval.ORDERED_VALUES).astype(np.uint8)
    >>> totals, disagreements = count_seen(deck, pairs, np.ones(len(pairs)), hand_ranks(deck),
    ...     np.zeros(792, dtype=np.uint64), categories, nets, -10, 0, n_threads=1)
    >>> int(totals.sum()) == 66 * 252 * 10, int(totals[:, 1].sum()) > 0, disagreements == int(totals[:, 1].sum()) * 2
    (True, True, True)
    """
    deck, position = _deck_positions(deck_cards)
    seen = _positions_of(seen_cards, position, "seen cards")
    if seen.ndim != 2 or not MIN_SEEN_HOLE + 1 <= seen.shape[1] <= MAX_SEEN_HOLE + 1:
        raise ValueError(f"seen cards: (c, 1 + K) rows, K = {MIN_SEEN_HOLE}..{MAX_SEEN_HOLE}")
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
    if hand_rank.shape[0] != st.deck.n_hands or honest.shape[0] != st.deck.n_hands:
        raise ValueError("hand_rank and honest: one entry per hand of the deck")
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
    st.nets = &nets_v[0, 0]
    st.category_of_rank = &category_of_rank[0]
    st.deck.hand_rank = &hand_rank[0]
    st.honest = &honest[0]

    sizes = {"candidate": (N_CARDS, np.uint8), "dealer_rank": (st.deck.binom[st.candidates][st.rest], np.uint16),
             "wide": (max(1, st.n_wide) * COLUMNS, np.uint16), "narrow": (st.n_narrow * COLUMNS, np.uint8),
             "wide_q": (max(1, st.n_wide), np.uint16), "narrow_q": (st.n_narrow, np.uint8),
             "local": (TOTALS, np.int64), "totals": (TOTALS + 1, np.int64)}
    buffers = {name: np.zeros((threads, size), dtype=dtype) for name, (size, dtype) in sizes.items()}
    cdef uint8_t[:, ::1] candidate_v = buffers["candidate"]
    cdef uint16_t[:, ::1] dealer_v = buffers["dealer_rank"]
    cdef uint16_t[:, ::1] wide_v = buffers["wide"]
    cdef uint8_t[:, ::1] narrow_v = buffers["narrow"]
    cdef uint16_t[:, ::1] wide_q_v = buffers["wide_q"]
    cdef uint8_t[:, ::1] narrow_q_v = buffers["narrow_q"]
    cdef int64_t[:, ::1] local_v = buffers["local"]
    cdef int64_t[:, ::1] totals_v = buffers["totals"]
    workspaces = np.zeros(threads * sizeof(Workspace), dtype=np.uint8)
    cdef uint8_t[::1] workspaces_v = workspaces
    cdef Workspace* ws = <Workspace*>&workspaces_v[0]
    for t in range(threads):
        ws[t].candidate = &candidate_v[t, 0]
        ws[t].dealer_rank = &dealer_v[t, 0]
        ws[t].wide = &wide_v[t, 0]
        ws[t].narrow = &narrow_v[t, 0]
        ws[t].wide_q = &wide_q_v[t, 0]
        ws[t].narrow_q = &narrow_q_v[t, 0]
        ws[t].local = &local_v[t, 0]
        ws[t].totals = &totals_v[t, 0]
    inconsistent = np.zeros(threads, dtype=np.intp)
    cdef Py_ssize_t[::1] inconsistent_v = inconsistent
    cdef const uint8_t[:, ::1] seen_v = seen
    cdef const int64_t[::1] weights_v = class_weights
    cdef Py_ssize_t n_classes = len(seen)
    if n_classes:
        with nogil:
            for t in prange(threads, num_threads=threads, schedule="static", chunksize=1):
                count_share(&st, &seen_v[0, 0], &weights_v[0], n_classes, t, threads, &ws[t], &inconsistent_v[t])
    if inconsistent.any():
        raise RuntimeError(f"stud_leak: {int(inconsistent.sum())} counts came out inconsistent (a kernel fault)")
    summed = buffers["totals"].sum(axis=0)
    return summed[:TOTALS].reshape(N_CATEGORIES, DECISIONS, N_OUTCOMES), int(summed[TOTALS])
