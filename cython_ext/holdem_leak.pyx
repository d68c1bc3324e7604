"""Casino Hold'em with seen dealer cards: the exploit's exact play over every deal, flop by flop.

The player sees his hole cards H, the flop F and K = 1 or 2 of the dealer's hole cards (the
seen card s, or the seen pair S) and calls exactly when calling's EV over the turn and river T
(and, for K = 1, the dealer's other card x) beats folding's.  Every canonical flop is counted
with the m = n - 3 cards left after it: a pair of them is a *lane*, both the turn and river
(T) and a dealer hole pair (S) being one; the lanes are numbered as `holdem_enum.flop_uses`
lists the flop's turn and river pairs.  For each T the rank of every lane's pair on the board
F + T is read from the board classes' rank table (`board_ranks`, through the suit renaming
onto the class), lanes holding a card of T marked OFF.  The flop's representative hole pairs
(one per suit class of (H, F), `holdem_enum.situation_representatives`) are the lanes H.

- K = 1, one sorted pass per board: each board class's pairs are sorted by rank once
  (`board_ranks`), so a board's lanes come in rank order through the renaming back from its
  class.  Swept in that order, they are counted per card s (the pairs {s, x} passed: below the
  rank reached, up to it, below the qualifier); at each rank, its representatives H read the
  counts of every s at once (a vector of 16-bit lanes, one per s), take off the two pairs {s, h},
  h in H, and add the completions x by outcome into (H, s)'s counters under H's final category
  (16 bits: a situation has at most C(46, 2) x 44 = 45,540 completions).  After the flop's last
  T the counters price each (H, F, s) exactly.
- K = 2, a lane loop per board: for each T and H, every pair S gets the paytable's net of H's
  category and the outcome against S (16-bit lanes, moved into 32-bit sums before they could
  overflow), summed over T; then each (H, F, S) is decided, and a second pass over the flop's
  boards counts the called deals by category and outcome (four sums over the lanes per T and H).
The lane loops are plain C (`_seen_lanes.h`), which gcc vectorises.

The deals are added up, weighted by each representative's class weight, by the player's final
category x the exploit's decision x the outcome; the deals where the honest optimum (which sees
none of the dealer's cards) decides otherwise are counted apart.  For K = 2 only the called deals
are counted (the folded ones are every deal less those, from the honest counts).  Nothing per
situation outlives its flop.
"""
import numpy as np

from cython.parallel cimport prange, threadid
from libc.stdint cimport int16_t
from libc.string cimport memcpy, memset

from cython_ext._types cimport (card_t, rankmask_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t, HAND, N_CARDS,
                                N_SUITS, N_CATEGORIES, N_OUTCOMES, DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE,
                                DEALER_WINS, add_card, copy_masks, masks_of)
from cython_ext.handeval cimport eval_masks, dense_rank, N_DISTINCT_HANDS
from cython_ext.holdem_enum cimport N_PAIRS, pair_index

cdef extern from "_seen_lanes.h" nogil:
    int OFF "SEEN_OFF"
    void seen_one_add(uint16_t* counts, const uint16_t* below_p, const uint16_t* up_to_p, const uint16_t* below_q,
                      const uint16_t* total, const int16_t* ranks_a, const int16_t* ranks_b, int16_t p,
                      int16_t q) noexcept
    void seen_one_add_unqualified(uint16_t* counts, const uint16_t* below_q, const uint16_t* total,
                                  const int16_t* ranks_a, const int16_t* ranks_b, int16_t q) noexcept
    int seen_one_settle(const uint16_t* counts, const int32_t* nets, int32_t fold_ev, int32_t completions,
                        const uint16_t* valid, uint16_t* call, int64_t* called, int64_t* every) noexcept
    void seen_two_nets(int16_t* part, const int16_t* ranks, long n, int16_t p, int16_t q, int16_t n_nq,
                       int16_t n_win, int16_t n_tie, int16_t n_lose) noexcept
    void seen_two_flush(int32_t* acc, int16_t* part, long n) noexcept
    void seen_two_called(int32_t* sums, const uint16_t* called, const int16_t* ranks, long n, int16_t p,
                         int16_t q) noexcept

cdef enum:
    HOLE = 2
    FLOP = 3
    LEFT_MAX = N_CARDS - FLOP                     # cards left after the flop: at most 49
    CARDS_PAD = 56                                # SEEN_CARDS: a per-card vector
    LANES_MAX = LEFT_MAX * (LEFT_MAX - 1) // 2    # pairs of them: at most 1,176 (a multiple of 8)
    N_PERMUTATIONS = 24                           # renamings of the four suits
    DECISIONS = 2                                 # fold, call: the middle axis of the totals
    FOLD = 0
    CALL = 1
    KINDS = N_CATEGORIES * N_OUTCOMES             # SEEN_KINDS
    TOTALS = N_CATEGORIES * DECISIONS * N_OUTCOMES
    RADIX_LOW_BITS = 7                            # dense ranks < 8192 sort in two counting passes: 7 + 6 bits
    RADIX_LOW = 128
    RADIX_HIGH = 64
    INT16_LIMIT = 32767


# What every thread reads; set once per count.
cdef struct Setting:
    int k                           # dealer hole cards seen: 1 or 2
    int n_cards
    const uint8_t* cards            # the deck's cards, ascending
    int qualifier_rank              # the dealer qualifies with a dense rank >= this
    const uint8_t* flops            # canonical flops, 3 cards each
    Py_ssize_t lanes                # C(n - 3, 2): lanes (turn and river pairs) of every flop
    Py_ssize_t lanes_pad            # the same rounded up to a multiple of 8 (the vector loops' lanes)
    const int32_t* use_board        # [flop * lanes + lane]: the class of the board flop + lane
    const uint8_t* use_perm         # and the renaming of suits onto it (index into the 24)
    const uint16_t* perm_pairs      # [renaming * N_PAIRS + pair]: the pair renamed
    const uint16_t* ranks           # [board class * N_PAIRS + pair]: the pair's dense rank on the board
    const uint16_t* order           # [board class * per_board + i]: the board's pairs by rank
    Py_ssize_t per_board            # C(n - 5, 2): pairs off a board
    const uint8_t* inverse          # the inverse of each renaming (index into the 24)
    const int64_t* rep_start        # flop f's representatives: rep_start[f] .. rep_start[f + 1] - 1
    const uint16_t* rep_pair        # each representative's hole pair (pair_index)
    const int64_t* rep_weight       # the raw situations its class stands for
    const uint8_t* rep_honest       # 1 where the honest optimum calls with it
    const uint8_t* category_of_rank # the hand category of each dense rank
    int32_t nets[KINDS]             # [category * N_OUTCOMES + outcome]: the nets x the paytable's scale
    int flush_every                 # K = 2: boards summed in 16 bits before they are moved to 32
    int32_t completions             # the completions of one situation (H, F, seen cards)
    int32_t fold_ev                 # folding's EV numerator: -completions x the paytable's scale


# One thread's tables for one flop (sized for the largest) and its totals.
cdef struct Workspace:
    uint8_t left[LEFT_MAX]          # the cards left after the flop, ascending
    int16_t lane_of[LEFT_MAX][LEFT_MAX]   # the lane of two positions among them
    uint8_t lane_a[LANES_MAX]       # a lane's positions, lane_a < lane_b
    uint8_t lane_b[LANES_MAX]
    uint16_t lane_pair[LANES_MAX]   # its pair_index
    int16_t lane_of_pair[N_PAIRS]   # the lane of a pair of the left cards
    int32_t rep_of_lane[LANES_MAX]  # the representative a lane is (-1: none)
    uint16_t rep_lane[LANES_MAX]    # the flop's representatives: their lanes and positions
    uint8_t rep_a[LANES_MAX]
    uint8_t rep_b[LANES_MAX]
    int16_t rank[LANES_MAX]         # this board's rank of every lane (OFF: holds a board card; and the padding)
    int16_t by_card[LEFT_MAX][CARDS_PAD]     # the same by the lane's two positions (OFF on the diagonal)
    uint16_t sorted_lane[LANES_MAX] # K = 1: the lanes off the board by rank
    uint16_t below_q[CARDS_PAD]     # K = 1, per seen card s: the pairs {s, x} off the board below the qualifier,
    uint16_t below_p[CARDS_PAD]     # below the rank being swept, up to it,
    uint16_t up_to_p[CARDS_PAD]
    uint16_t total[CARDS_PAD]       # and the cards x a completion may take (0 for s on the board)
    uint16_t valid[CARDS_PAD]       # K = 1, settling: 1 for the seen cards of a representative
    uint16_t call[CARDS_PAD]
    uint16_t* counters              # K = 1: [representative][category][outcome][s]
    int16_t* part                   # K = 2: [representative][lane]: calling's EV numerator, the last boards
    int32_t* cell_ev                # K = 2: [representative][lane]: the boards before
    uint16_t* called                # K = 2: [representative][lane]: 1 where the exploit calls
    int64_t totals[TOTALS + 1]      # weighted deals over this thread's flops, then the disagreements


cdef int decode_pair(int p, int* low) noexcept nogil:
    """The cards of pair_index p: returns the higher, sets the lower."""
    cdef int a = 1
    while (a + 1) * a // 2 <= p:
        a += 1
    low[0] = p - a * (a - 1) // 2
    return a


cdef Py_ssize_t lay_out_flop(const Setting* st, Py_ssize_t f, Workspace* ws) noexcept nogil:
    """The flop's left cards, lanes and representatives; returns how many representatives (-1 if the
    lanes do not match the uses)."""
    cdef uint64_t flop_mask = 0
    cdef int pos[N_CARDS]
    cdef int i, j, m = 0, low, high
    cdef Py_ssize_t lane = 0, h, n_reps, r0
    for i in range(FLOP):
        flop_mask |= (<uint64_t>1) << st.flops[f * FLOP + i]
    for i in range(N_CARDS):
        pos[i] = -1
    for i in range(st.n_cards):
        if not (flop_mask >> st.cards[i]) & 1:
            ws.left[m] = st.cards[i]
            pos[st.cards[i]] = m
            m += 1
    for i in range(m):
        for j in range(CARDS_PAD):
            ws.by_card[i][j] = OFF
    for i in range(m):
        for j in range(i + 1, m):
            ws.lane_of[i][j] = <int16_t>lane
            ws.lane_of[j][i] = <int16_t>lane
            ws.lane_a[lane] = <uint8_t>i
            ws.lane_b[lane] = <uint8_t>j
            ws.lane_pair[lane] = <uint16_t>pair_index(ws.left[i], ws.left[j])
            ws.lane_of_pair[ws.lane_pair[lane]] = <int16_t>lane
            ws.rep_of_lane[lane] = -1
            lane += 1
    if lane != st.lanes:
        return -1
    for lane in range(st.lanes, st.lanes_pad):
        ws.rank[lane] = OFF
    r0 = st.rep_start[f]
    n_reps = st.rep_start[f + 1] - r0
    for h in range(n_reps):
        high = decode_pair(st.rep_pair[r0 + h], &low)
        if pos[low] < 0 or pos[high] < 0:
            return -1
        ws.rep_a[h] = <uint8_t>pos[low]
        ws.rep_b[h] = <uint8_t>pos[high]
        ws.rep_lane[h] = <uint16_t>ws.lane_of[ws.rep_a[h]][ws.rep_b[h]]
        ws.rep_of_lane[ws.rep_lane[h]] = <int32_t>h
    return n_reps


cdef void rank_lanes(const Setting* st, Py_ssize_t f, Py_ssize_t u, int m, Workspace* ws) noexcept nogil:
    """Every lane's rank on the board flop + lane u (OFF where the lane holds one of u's cards)."""
    cdef Py_ssize_t use = f * st.lanes + u, lane
    cdef const uint16_t* row = st.ranks + <Py_ssize_t>st.use_board[use] * N_PAIRS
    cdef const uint16_t* renamed = st.perm_pairs + <Py_ssize_t>st.use_perm[use] * N_PAIRS
    cdef int t = ws.lane_a[u], r = ws.lane_b[u], x
    for lane in range(st.lanes):
        ws.rank[lane] = <int16_t>row[renamed[ws.lane_pair[lane]]]
    for x in range(m):
        if x != t:
            ws.rank[ws.lane_of[t][x]] = OFF
        if x != r:
            ws.rank[ws.lane_of[r][x]] = OFF


cdef void one_seen_lanes(const Setting* st, Py_ssize_t f, Py_ssize_t u, int m, Workspace* ws) noexcept nogil:
    """K = 1: every lane's rank on the board flop + lane u, by lane and by its two cards (OFF where it holds
    one of u's cards), and the lanes off the board in rank order, read off the board class's order through
    the renaming back from it."""
    cdef Py_ssize_t use = f * st.lanes + u, i, lane
    cdef Py_ssize_t board = st.use_board[use]
    cdef const uint16_t* row = st.ranks + board * N_PAIRS
    cdef const uint16_t* order = st.order + board * st.per_board
    cdef const uint16_t* back = st.perm_pairs + <Py_ssize_t>st.inverse[st.use_perm[use]] * N_PAIRS
    cdef int t = ws.lane_a[u], r = ws.lane_b[u], x, a, b
    cdef int16_t v
    cdef uint16_t pair
    for x in range(m):
        if x != t:
            ws.rank[ws.lane_of[t][x]] = OFF
            ws.by_card[t][x] = OFF
            ws.by_card[x][t] = OFF
        if x != r:
            ws.rank[ws.lane_of[r][x]] = OFF
            ws.by_card[r][x] = OFF
            ws.by_card[x][r] = OFF
    for i in range(st.per_board):
        pair = order[i]
        v = <int16_t>row[pair]
        lane = ws.lane_of_pair[back[pair]]
        ws.sorted_lane[i] = <uint16_t>lane
        ws.rank[lane] = v
        a = ws.lane_a[lane]
        b = ws.lane_b[lane]
        ws.by_card[a][b] = v
        ws.by_card[b][a] = v


cdef void one_seen_board(const Setting* st, int m, int t, int r, Workspace* ws) noexcept nogil:
    """K = 1, one board: every (s, H)'s completions x by outcome, added under H's category.  The lanes are
    swept in rank order, counting per card s the pairs {s, x} passed; at each rank, its representatives
    read the counts of every s at once."""
    cdef int n = st.per_board, i, j, g, s, has_rep, q = st.qualifier_rank
    cdef int32_t h
    cdef int16_t v
    cdef uint16_t* counts
    for s in range(CARDS_PAD):
        ws.total[s] = <uint16_t>(m - 5) if s < m and s != t and s != r else 0
    memset(ws.below_q, 0, sizeof(ws.below_q))
    memset(ws.below_p, 0, sizeof(ws.below_p))
    i = 0
    while i < n and ws.rank[ws.sorted_lane[i]] < q:
        ws.below_q[ws.lane_a[ws.sorted_lane[i]]] += 1
        ws.below_q[ws.lane_b[ws.sorted_lane[i]]] += 1
        i += 1
    i = 0
    while i < n:
        v = ws.rank[ws.sorted_lane[i]]
        j = i
        has_rep = 0
        while j < n and ws.rank[ws.sorted_lane[j]] == v:
            has_rep |= ws.rep_of_lane[ws.sorted_lane[j]] >= 0
            j += 1
        if not has_rep:
            for g in range(i, j):
                ws.below_p[ws.lane_a[ws.sorted_lane[g]]] += 1
                ws.below_p[ws.lane_b[ws.sorted_lane[g]]] += 1
            i = j
            continue
        memcpy(ws.up_to_p, ws.below_p, sizeof(ws.below_p))
        for g in range(i, j):
            ws.up_to_p[ws.lane_a[ws.sorted_lane[g]]] += 1
            ws.up_to_p[ws.lane_b[ws.sorted_lane[g]]] += 1
        for g in range(i, j):
            h = ws.rep_of_lane[ws.sorted_lane[g]]
            if h < 0:
                continue
            counts = ws.counters + (h * N_CATEGORIES + st.category_of_rank[v]) * N_OUTCOMES * CARDS_PAD
            if v >= q:
                seen_one_add(counts, ws.below_p, ws.up_to_p, ws.below_q, ws.total, ws.by_card[ws.rep_a[h]],
                             ws.by_card[ws.rep_b[h]], v, <int16_t>q)
            else:
                seen_one_add_unqualified(counts, ws.below_q, ws.total, ws.by_card[ws.rep_a[h]],
                                         ws.by_card[ws.rep_b[h]], <int16_t>q)
        memcpy(ws.below_p, ws.up_to_p, sizeof(ws.below_p))
        i = j


cdef int one_seen_settle(const Setting* st, int m, Py_ssize_t f, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 1, the flop done: each (H, F, s) decided and its deals added; returns the inconsistent ones."""
    cdef Py_ssize_t h, r0 = st.rep_start[f]
    cdef int s, c, o, kind, bad = 0, disagree
    cdef int64_t w
    cdef int64_t called[KINDS]
    cdef int64_t every[KINDS]
    for h in range(n_reps):
        w = st.rep_weight[r0 + h]
        for s in range(CARDS_PAD):
            ws.valid[s] = 1 if s < m and s != ws.rep_a[h] and s != ws.rep_b[h] else 0
        memset(called, 0, sizeof(called))
        memset(every, 0, sizeof(every))
        bad += seen_one_settle(ws.counters + h * KINDS * CARDS_PAD, st.nets, st.fold_ev, st.completions, ws.valid,
                               ws.call, called, every)
        for kind in range(KINDS):
            c = kind // N_OUTCOMES
            o = kind % N_OUTCOMES
            ws.totals[(c * DECISIONS + CALL) * N_OUTCOMES + o] += w * called[kind]
            ws.totals[(c * DECISIONS + FOLD) * N_OUTCOMES + o] += w * (every[kind] - called[kind])
        disagree = 0
        for s in range(m):
            if ws.valid[s] and ws.call[s] != st.rep_honest[r0 + h]:
                disagree += 1
        ws.totals[TOTALS] += w * st.completions * disagree
    return bad


cdef void two_seen_evs(const Setting* st, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 2, one board: every (H, S) cell gets the net of H's category and the outcome against S."""
    cdef Py_ssize_t h
    cdef int16_t p
    cdef const int32_t* nets
    for h in range(n_reps):
        p = ws.rank[ws.rep_lane[h]]
        if p == OFF:
            continue
        nets = st.nets + st.category_of_rank[p] * N_OUTCOMES
        seen_two_nets(ws.part + h * st.lanes_pad, ws.rank, st.lanes_pad, p, <int16_t>st.qualifier_rank,
                      <int16_t>nets[DEALER_NOT_QUALIFIED], <int16_t>nets[PLAYER_WINS], <int16_t>nets[PUSH_TIE],
                      <int16_t>nets[DEALER_WINS])


cdef void two_seen_decide(const Setting* st, Py_ssize_t f, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 2, the flop's EVs done: each (H, F, S) decided (called[H][S]), the disagreements counted."""
    cdef Py_ssize_t h, lane, r0 = st.rep_start[f], row
    cdef int ha, hb, d
    cdef int64_t w
    for h in range(n_reps):
        ha = ws.rep_a[h]
        hb = ws.rep_b[h]
        w = st.rep_weight[r0 + h]
        row = h * st.lanes_pad
        seen_two_flush(ws.cell_ev + row, ws.part + row, st.lanes_pad)
        for lane in range(st.lanes_pad):
            if lane >= st.lanes or ws.lane_a[lane] == ha or ws.lane_a[lane] == hb or ws.lane_b[lane] == ha \
                    or ws.lane_b[lane] == hb:
                ws.called[row + lane] = 0
                continue
            d = ws.cell_ev[row + lane] > st.fold_ev
            ws.called[row + lane] = <uint16_t>d
            if d != st.rep_honest[r0 + h]:
                ws.totals[TOTALS] += w * st.completions


cdef void two_seen_called(const Setting* st, Py_ssize_t f, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 2, one board again: the called deals by H's category and outcome."""
    cdef Py_ssize_t h, r0 = st.rep_start[f]
    cdef int16_t p
    cdef int32_t sums[4]
    cdef int q = st.qualifier_rank
    cdef int64_t w
    cdef int64_t* out
    for h in range(n_reps):
        p = ws.rank[ws.rep_lane[h]]
        if p == OFF:
            continue
        seen_two_called(sums, ws.called + h * st.lanes_pad, ws.rank, st.lanes_pad, p, <int16_t>q)
        w = st.rep_weight[r0 + h]
        out = ws.totals + (st.category_of_rank[p] * DECISIONS + CALL) * N_OUTCOMES
        out[DEALER_NOT_QUALIFIED] += w * sums[1]
        if p >= q:
            out[PLAYER_WINS] += w * (sums[2] - sums[1])
            out[PUSH_TIE] += w * (sums[3] - sums[2])
            out[DEALER_WINS] += w * (sums[0] - sums[3])
        else:
            out[DEALER_WINS] += w * (sums[0] - sums[1])


cdef int count_flop(const Setting* st, Py_ssize_t f, Workspace* ws) noexcept nogil:
    """Every situation (H, F, seen cards) of canonical flop f, decided and its deals added; returns the
    inconsistencies found (0)."""
    cdef Py_ssize_t n_reps = lay_out_flop(st, f, ws), u, h
    cdef int m = st.n_cards - FLOP, boards = 0
    if n_reps < 0:
        return 1
    if st.k == 1:
        memset(ws.counters, 0, n_reps * KINDS * CARDS_PAD * sizeof(uint16_t))
        for u in range(st.lanes):
            one_seen_lanes(st, f, u, m, ws)
            one_seen_board(st, m, ws.lane_a[u], ws.lane_b[u], ws)
        return one_seen_settle(st, m, f, n_reps, ws)
    memset(ws.cell_ev, 0, n_reps * st.lanes_pad * sizeof(int32_t))
    memset(ws.part, 0, n_reps * st.lanes_pad * sizeof(int16_t))
    for u in range(st.lanes):
        rank_lanes(st, f, u, m, ws)
        two_seen_evs(st, n_reps, ws)
        boards += 1
        if boards == st.flush_every:
            for h in range(n_reps):
                seen_two_flush(ws.cell_ev + h * st.lanes_pad, ws.part + h * st.lanes_pad, st.lanes_pad)
            boards = 0
    two_seen_decide(st, f, n_reps, ws)
    for u in range(st.lanes):
        rank_lanes(st, f, u, m, ws)
        two_seen_called(st, f, n_reps, ws)
    return 0


# --- Python-facing entry points: validate, then run without the GIL ---------------------

cdef void rank_board(const card_t* board, uint64_t deck, uint16_t* out, uint16_t* order) noexcept nogil:
    """out[pair_index] = the dense rank of the board with every pair of the deck's cards off it; order: those
    pairs by rank (stable radix sort, two counting passes)."""
    cdef rankmask_t m[N_SUITS]
    cdef rankmask_t pm[N_SUITS]
    cdef uint16_t pairs[N_PAIRS]
    cdef int32_t bucket[RADIX_LOW]
    cdef uint64_t used = 0
    cdef int a, b, j, n = 0, i, total, count, shift, size, pass_, key
    cdef uint16_t* src = pairs
    cdef uint16_t* dst = order
    cdef uint16_t* swap
    masks_of(board, HAND, m)
    for j in range(HAND):
        used |= (<uint64_t>1) << board[j]
    for a in range(N_CARDS):
        if not (deck >> a) & 1 or (used >> a) & 1:
            continue
        for b in range(a):
            if not (deck >> b) & 1 or (used >> b) & 1:
                continue
            copy_masks(pm, m)
            add_card(pm, a)
            add_card(pm, b)
            out[pair_index(a, b)] = dense_rank(eval_masks(pm[0], pm[1], pm[2], pm[3]))
            pairs[n] = <uint16_t>pair_index(a, b)
            n += 1
    for pass_ in range(2):                       # pairs -> order -> pairs: the result lands in pairs
        shift = 0 if pass_ == 0 else RADIX_LOW_BITS
        size = RADIX_LOW if pass_ == 0 else RADIX_HIGH
        memset(bucket, 0, size * sizeof(int32_t))
        for i in range(n):
            bucket[(out[src[i]] >> shift) & (size - 1)] += 1
        total = 0
        for i in range(size):
            count = bucket[i]
            bucket[i] = total
            total += count
        for i in range(n):
            key = (out[src[i]] >> shift) & (size - 1)
            dst[bucket[key]] = src[i]
            bucket[key] += 1
        swap = src
        src = dst
        dst = swap
    memcpy(order, pairs, n * sizeof(uint16_t))


def board_ranks(const card_t[:, ::1] boards, uint64_t deck, int threads=1):
    """The rank of every pair of the deck's cards off each board, with the board, and those pairs in rank order.

    Returns (ranks uint16 (len(boards), N_PAIRS): the dense rank, 0 for pairs holding a board card or a
    card outside the deck; order uint16 (len(boards), C(n - 5, 2)): the pairs (pair_index) off the board by
    rank).  Raises ValueError unless the boards are 5 cards of the deck.

    The four deuces and the 3c with the 3d and 4c (pair 33) make quad deuces; pair 6 holds the 3c and 2c;
    of the six pairs off the board, the three with the 4c (a four kicker) rank last:

    >>> from cython_ext import handeval
    >>> ranks, order = board_ranks(np.array([[0, 1, 2, 3, 4]], dtype=np.uint8), (1 << 9) - 1)
    >>> int(ranks[0, 33]) == handeval.dense_at_least(handeval.evaluate([0, 1, 2, 3, 4, 5, 8])), int(ranks[0, 6])
    (True, 0)
    >>> order.shape, order[0, 3:].tolist()
    ((1, 6), [33, 34, 35])
    """
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int j, n_cards = bin(deck).count("1")
    if boards.shape[1] != HAND or threads < 1 or n_cards < HAND + HOLE:
        raise ValueError("board_ranks: boards of 5 cards, a deck of at least 7, at least one thread")
    for i in range(n):
        for j in range(HAND):
            if boards[i, j] >= N_CARDS or not (deck >> boards[i, j]) & 1:
                raise ValueError(f"board_ranks: board {i} holds a card outside the deck")
    result = np.zeros((n, N_PAIRS), dtype=np.uint16)
    order_array = np.zeros((n, (n_cards - HAND) * (n_cards - HAND - 1) // 2), dtype=np.uint16)
    cdef uint16_t[:, ::1] out = result
    cdef uint16_t[:, ::1] order = order_array
    if n:
        with nogil:
            for i in prange(n, num_threads=threads, schedule="static"):
                rank_board(&boards[i, 0], deck, &out[i, 0], &order[i, 0])
    return result, order_array


def count_seen(int k, const uint8_t[::1] cards, int qualifier_rank, const uint8_t[:, ::1] flops,
               Py_ssize_t start, Py_ssize_t stop, const int32_t[::1] use_board, const uint8_t[::1] use_perm,
               const uint16_t[:, ::1] perm_pairs, const uint8_t[::1] inverse, const uint16_t[:, ::1] ranks,
               const uint16_t[:, ::1] order, const int64_t[::1] rep_start,
               const uint16_t[::1] rep_pair, const int64_t[::1] rep_weight, const uint8_t[::1] rep_honest,
               const uint8_t[::1] category_of_rank, nets, int64_t fold_ev, int64_t completions, int n_threads=1):
    """The deals of canonical flops start..stop-1 with K = 1 or 2 dealer hole cards seen.

    cards: the deck, ascending; flops, use_board, use_perm: the deck's canonical flops and every
    (flop, turn/river) board's class and renaming (`holdem_enum.flop_uses`); perm_pairs:
    `holdem_enum.perm_pair_table()` and the inverse of each renaming; ranks, order: `board_ranks` of the
    canonical boards; rep_*: the
    situation classes' representatives in flop order (rep_start per flop), their weights and the
    honest optimum's decision; nets: (categories, outcomes) int64, the paytable's nets x its scale;
    fold_ev: folding's EV numerator over a situation's `completions`.  Returns (deals int64
    (categories, 2, outcomes) [category][fold, call][outcome], disagreements): for K = 2 the folded
    deals are left 0.  Raises ValueError on inputs that do not fit together (before counting) and
    RuntimeError if the counts come out inconsistent (a kernel fault).
    """
    cdef int n = cards.shape[0], threads = n_threads, t, i
    cdef Py_ssize_t n_flops = flops.shape[0], f, lanes = (n - FLOP) * (n - FLOP - 1) // 2, max_reps = 0
    net_array = np.ascontiguousarray(nets, dtype=np.int64)
    if k not in (1, 2) or threads < 1:
        raise ValueError("count_seen: K = 1 or 2 seen hole cards, at least one thread")
    if net_array.shape != (N_CATEGORIES, N_OUTCOMES) or category_of_rank.shape[0] != N_DISTINCT_HANDS:
        raise ValueError("count_seen: nets (categories, outcomes); category_of_rank: one per dense rank")
    if n > N_CARDS or n < HOLE + FLOP + HOLE + HOLE or (np.diff(np.asarray(cards).astype(np.int64)) <= 0).any() \
            or (n and cards[n - 1] >= N_CARDS):
        raise ValueError("count_seen: the deck's cards, ascending, at least 9 of them")
    if not 0 <= start <= stop <= n_flops or flops.shape[1] != FLOP or use_board.shape[0] != n_flops * lanes \
            or use_perm.shape[0] != n_flops * lanes or rep_start.shape[0] != n_flops + 1 \
            or (perm_pairs.shape[0], perm_pairs.shape[1]) != (N_PERMUTATIONS, N_PAIRS) or ranks.shape[1] != N_PAIRS \
            or inverse.shape[0] != N_PERMUTATIONS or (order.shape[0], order.shape[1]) != (ranks.shape[0], (n - HAND) * (n - HAND - 1) // 2):
        raise ValueError("count_seen: flops, uses and representatives of one deck")
    reps = np.asarray(rep_start)
    if len(reps) and (reps[0] != 0 or (np.diff(reps) < 0).any() or reps[len(reps) - 1] != rep_pair.shape[0]
                      or rep_weight.shape[0] != rep_pair.shape[0] or rep_honest.shape[0] != rep_pair.shape[0]):
        raise ValueError("count_seen: the representatives do not match their flops")
    if len(reps) > 1:
        max_reps = int(np.diff(reps).max())
    board_of = np.asarray(use_board)
    if len(board_of) and (int(board_of.min()) < 0 or int(board_of.max()) >= ranks.shape[0]
                          or int(np.asarray(use_perm).max()) >= N_PERMUTATIONS
                          or int(np.asarray(inverse).max()) >= N_PERMUTATIONS):
        raise ValueError("count_seen: a use names a board class or renaming that is not there")
    largest = int(np.abs(net_array).max())
    if largest * completions * N_OUTCOMES >= 2**31 or completions >= 2**16 or (k == 2 and largest > INT16_LIMIT):
        raise ValueError("count_seen: the nets or completions are too large for the kernel's exact EVs")
    cdef Setting st
    st.k = k
    st.n_cards = n
    st.cards = &cards[0]
    st.qualifier_rank = qualifier_rank
    st.flops = &flops[0, 0] if n_flops else NULL
    st.lanes = lanes
    st.lanes_pad = (lanes + 7) // 8 * 8
    st.use_board = &use_board[0] if use_board.shape[0] else NULL
    st.use_perm = &use_perm[0] if use_perm.shape[0] else NULL
    st.perm_pairs = &perm_pairs[0, 0]
    st.ranks = &ranks[0, 0] if ranks.shape[0] else NULL
    st.order = &order[0, 0] if order.shape[0] else NULL
    st.per_board = (n - HAND) * (n - HAND - 1) // 2
    st.inverse = &inverse[0]
    st.rep_start = &rep_start[0]
    st.rep_pair = &rep_pair[0] if rep_pair.shape[0] else NULL
    st.rep_weight = &rep_weight[0] if rep_weight.shape[0] else NULL
    st.rep_honest = &rep_honest[0] if rep_honest.shape[0] else NULL
    st.category_of_rank = &category_of_rank[0]
    for i in range(KINDS):
        st.nets[i] = <int32_t>net_array.flat[i]
    st.flush_every = INT16_LIMIT // max(largest, 1)
    st.completions = <int32_t>completions
    st.fold_ev = <int32_t>fold_ev

    per_thread = max_reps * KINDS * CARDS_PAD if k == 1 else 1
    cells = max_reps * st.lanes_pad if k == 2 else 1
    counters = np.zeros((threads, per_thread), dtype=np.uint16)
    part = np.zeros((threads, cells), dtype=np.int16)
    cell_ev = np.zeros((threads, cells), dtype=np.int32)
    called = np.zeros((threads, cells), dtype=np.uint16)
    workspaces = np.zeros(threads * sizeof(Workspace), dtype=np.uint8)
    cdef uint16_t[:, ::1] counters_v = counters
    cdef int16_t[:, ::1] part_v = part
    cdef int32_t[:, ::1] cell_ev_v = cell_ev
    cdef uint16_t[:, ::1] called_v = called
    cdef uint8_t[::1] workspaces_v = workspaces
    cdef Workspace* ws = <Workspace*>&workspaces_v[0]
    for t in range(threads):
        ws[t].counters = &counters_v[t, 0]
        ws[t].part = &part_v[t, 0]
        ws[t].cell_ev = &cell_ev_v[t, 0]
        ws[t].called = &called_v[t, 0]
    cdef Py_ssize_t inconsistent = 0
    if stop > start:
        with nogil:
            for f in prange(start, stop, num_threads=threads, schedule="dynamic", chunksize=1):
                inconsistent += count_flop(&st, f, &ws[threadid()])
    if inconsistent:
        raise RuntimeError(f"holdem_leak: {inconsistent} counts came out inconsistent (a kernel fault)")
    summed = np.zeros(TOTALS + 1, dtype=object)
    for t in range(threads):
        for i in range(TOTALS + 1):
            summed[i] += ws[t].totals[i]
    return summed[:TOTALS].reshape(N_CATEGORIES, DECISIONS, N_OUTCOMES), int(summed[TOTALS])
