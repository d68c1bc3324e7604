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

- K = 1, one sorted pass per board: the lanes are radix-sorted by rank once per T and dealt
  into one sorted list per card s (the ranks of the dealer pairs {s, x}), and the representatives
  into rank order; for each s a merge walk over the representatives gives, for each H, how many
  x give a dealer below H, equal to it, and below the qualifier (less the two pairs {s, h} with
  h in H, looked up), hence the counts by outcome, added into (s, H)'s counters under H's final
  category (four 16-bit lanes of one uint64: a situation has at most C(46, 2) x 44 = 45,540
  completions).  After the flop's last T the counters price each (H, F, s) exactly.
- K = 2, a lane loop per board: for each T and H, every pair S gets the paytable's net of H's
  category and the outcome against S (int32, vectorisable), summed over T; then each (H, F, S)
  is decided, and a second pass over the flop's boards counts the called deals by category and
  outcome (four sums over the lanes per T and H).

The deals are added up, weighted by each representative's class weight, by the player's final
category x the exploit's decision x the outcome; the deals where the honest optimum (which sees
none of the dealer's cards) decides otherwise are counted apart.  For K = 2 only the called deals
are counted (the folded ones are every deal less those, from the honest counts).  Nothing per
situation outlives its flop.
"""
import numpy as np

from cython.parallel cimport prange, threadid
from libc.string cimport memset

from libc.stdint cimport int16_t

from cython_ext._types cimport (card_t, rankmask_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t,
                                HAND, N_CARDS, N_SUITS, N_CATEGORIES, N_OUTCOMES, DEALER_NOT_QUALIFIED,
                                PLAYER_WINS, PUSH_TIE, DEALER_WINS, add_card, copy_masks, masks_of)
from cython_ext.handeval cimport eval_masks, dense_rank, N_DISTINCT_HANDS
from cython_ext.holdem_enum cimport N_PAIRS, pair_index

cdef enum:
    HOLE = 2
    FLOP = 3
    LEFT_MAX = N_CARDS - FLOP                     # cards left after the flop: at most 49
    LANES_MAX = LEFT_MAX * (LEFT_MAX - 1) // 2    # pairs of them: at most 1,176
    N_PERMUTATIONS = 24                           # renamings of the four suits
    OFF = 0xFFFF                                  # the rank of a lane holding a card of the board
    DECISIONS = 2                                 # fold, call: the middle axis of the totals
    FOLD = 0
    CALL = 1
    TOTALS = N_CATEGORIES * DECISIONS * N_OUTCOMES
    LANE_BITS = 16                                # an outcome's count in a K = 1 counter
    LANE_MASK = (1 << LANE_BITS) - 1
    RADIX_LOW_BITS = 7                            # dense ranks < 8192 sort in two counting passes: 7 + 6 bits
    RADIX_LOW = 128
    RADIX_HIGH = 64


# What every thread reads; set once per count.
cdef struct Setting:
    int k                           # dealer hole cards seen: 1 or 2
    int n_cards
    const uint8_t* cards            # the deck's cards, ascending
    int qualifier_rank              # the dealer qualifies with a dense rank >= this
    const uint8_t* flops            # canonical flops, 3 cards each
    Py_ssize_t lanes                # C(n - 3, 2): lanes (turn and river pairs) of every flop
    const int32_t* use_board        # [flop * lanes + lane]: the class of the board flop + lane
    const uint8_t* use_perm         # and the renaming of suits onto it (index into the 24)
    const uint16_t* perm_pairs      # [renaming * N_PAIRS + pair]: the pair renamed
    const uint16_t* ranks           # [board class * N_PAIRS + pair]: the pair's dense rank on the board
    const int64_t* rep_start        # flop f's representatives: rep_start[f] .. rep_start[f + 1] - 1
    const uint16_t* rep_pair        # each representative's hole pair (pair_index)
    const int64_t* rep_weight       # the raw situations its class stands for
    const uint8_t* rep_honest       # 1 where the honest optimum calls with it
    const uint8_t* category_of_rank # the hand category of each dense rank
    const int64_t* nets             # [category * N_OUTCOMES + outcome]: the nets x the paytable's scale
    int32_t nets32[N_CATEGORIES * N_OUTCOMES]  # the same in 32 bits (K = 2: a cell sums C(m - 4, 2) of them)
    int64_t completions             # the completions of one situation (H, F, seen cards)
    int64_t fold_ev                 # folding's EV numerator: -completions x the paytable's scale


# One thread's tables for one flop (sized for the largest) and its totals.
cdef struct Workspace:
    uint8_t left[LEFT_MAX]          # the cards left after the flop, ascending
    int16_t lane_of[LEFT_MAX][LEFT_MAX]   # the lane of two positions among them
    uint8_t lane_a[LANES_MAX]       # a lane's positions, lane_a < lane_b
    uint8_t lane_b[LANES_MAX]
    uint16_t lane_pair[LANES_MAX]   # its pair_index
    int32_t rep_of_lane[LANES_MAX]  # the representative a lane is (-1: none)
    uint16_t rep_lane[LANES_MAX]    # the flop's representatives: their lanes and positions
    uint8_t rep_a[LANES_MAX]
    uint8_t rep_b[LANES_MAX]
    uint16_t rank[LANES_MAX]        # this board's rank of every lane (OFF: holds a board card)
    int32_t rank32[LANES_MAX]       # the same, widened (K = 2's lane loops)
    uint16_t sorted_lane[LANES_MAX] # K = 1: the lanes off the board by rank
    uint16_t scratch[LANES_MAX]
    uint16_t order[LANES_MAX]       # the representatives off the board by rank
    uint16_t list_rank[LEFT_MAX][LEFT_MAX]   # per card s: the ranks of the pairs {s, x}, ascending
    int32_t list_len[LEFT_MAX]
    int32_t bucket[RADIX_LOW]
    uint64_t* counters              # K = 1: [s][representative][category], four 16-bit outcome lanes
    int32_t* cell_ev                # K = 2: [representative][lane]: calling's EV numerator so far
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
        for j in range(i + 1, m):
            ws.lane_of[i][j] = <int16_t>lane
            ws.lane_of[j][i] = <int16_t>lane
            ws.lane_a[lane] = <uint8_t>i
            ws.lane_b[lane] = <uint8_t>j
            ws.lane_pair[lane] = <uint16_t>pair_index(ws.left[i], ws.left[j])
            ws.rep_of_lane[lane] = -1
            lane += 1
    if lane != st.lanes:
        return -1
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
        ws.rank[lane] = row[renamed[ws.lane_pair[lane]]]
    for x in range(m):
        if x != t:
            ws.rank[ws.lane_of[t][x]] = OFF
        if x != r:
            ws.rank[ws.lane_of[r][x]] = OFF


cdef void sort_by_rank(uint16_t* lanes, uint16_t* scratch, int n, const uint16_t* rank, int32_t* bucket) noexcept nogil:
    """Stable radix sort of n lanes by rank (two counting passes), in place."""
    cdef int i, total, count, shift, size, pass_, key
    cdef uint16_t* a = lanes
    cdef uint16_t* b = scratch
    cdef uint16_t* t
    for pass_ in range(2):
        shift = 0 if pass_ == 0 else RADIX_LOW_BITS
        size = RADIX_LOW if pass_ == 0 else RADIX_HIGH
        memset(bucket, 0, size * sizeof(int32_t))
        for i in range(n):
            bucket[(rank[a[i]] >> shift) & (size - 1)] += 1
        total = 0
        for i in range(size):
            count = bucket[i]
            bucket[i] = total
            total += count
        for i in range(n):
            key = (rank[a[i]] >> shift) & (size - 1)
            b[bucket[key]] = a[i]
            bucket[key] += 1
        t = a
        a = b
        b = t


cdef void one_seen_board(const Setting* st, int m, Py_ssize_t n_reps, int t, int r, Workspace* ws) noexcept nogil:
    """K = 1, one board: every (s, H)'s completions x by outcome, added under H's category."""
    cdef int n = 0, i, s, length, lt, le, below, nq, less, leq, ha, hb, x1, x2, p, q = st.qualifier_rank
    cdef int total = m - 5                       # x: the cards off the flop, T, s and H
    cdef Py_ssize_t lane, h, n_order = 0
    cdef uint16_t v
    cdef const uint16_t* lst
    cdef uint64_t* base
    cdef uint64_t packed
    for lane in range(st.lanes):
        if ws.rank[lane] != OFF:
            ws.sorted_lane[n] = <uint16_t>lane
            n += 1
    sort_by_rank(ws.sorted_lane, ws.scratch, n, ws.rank, ws.bucket)
    for i in range(m):
        ws.list_len[i] = 0
    for i in range(n):
        lane = ws.sorted_lane[i]
        v = ws.rank[lane]
        ws.list_rank[ws.lane_a[lane]][ws.list_len[ws.lane_a[lane]]] = v
        ws.list_len[ws.lane_a[lane]] += 1
        ws.list_rank[ws.lane_b[lane]][ws.list_len[ws.lane_b[lane]]] = v
        ws.list_len[ws.lane_b[lane]] += 1
        if ws.rep_of_lane[lane] >= 0:
            ws.order[n_order] = <uint16_t>ws.rep_of_lane[lane]
            n_order += 1
    for s in range(m):
        if s == t or s == r:
            continue
        lst = ws.list_rank[s]
        length = ws.list_len[s]
        nq = 0
        while nq < length and lst[nq] < q:
            nq += 1
        lt = 0
        le = 0
        base = ws.counters + s * n_reps * N_CATEGORIES
        for i in range(n_order):
            h = ws.order[i]
            p = ws.rank[ws.rep_lane[h]]
            while lt < length and lst[lt] < p:
                lt += 1
            if le < lt:
                le = lt
            while le < length and lst[le] <= p:
                le += 1
            ha = ws.rep_a[h]
            hb = ws.rep_b[h]
            if ha == s or hb == s:
                continue
            x1 = ws.rank[ws.lane_of[s][ha]]       # the pairs {s, h}, h in H: not completions
            x2 = ws.rank[ws.lane_of[s][hb]]
            less = lt - (x1 < p) - (x2 < p)
            leq = le - (x1 <= p) - (x2 <= p)
            below = nq - (x1 < q) - (x2 < q)
            if p >= q:
                packed = ((<uint64_t>below << (LANE_BITS * DEALER_NOT_QUALIFIED))
                          | (<uint64_t>(less - below) << (LANE_BITS * PLAYER_WINS))
                          | (<uint64_t>(leq - less) << (LANE_BITS * PUSH_TIE))
                          | (<uint64_t>(total - leq) << (LANE_BITS * DEALER_WINS)))
            else:
                packed = ((<uint64_t>below << (LANE_BITS * DEALER_NOT_QUALIFIED))
                          | (<uint64_t>(total - below) << (LANE_BITS * DEALER_WINS)))
            base[h * N_CATEGORIES + st.category_of_rank[p]] += packed


cdef int one_seen_settle(const Setting* st, int m, Py_ssize_t f, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 1, the flop done: each (H, F, s) decided and its deals added; returns the inconsistent ones."""
    cdef Py_ssize_t h, r0 = st.rep_start[f]
    cdef int s, c, o, d, bad = 0
    cdef int64_t w, ev, n_deals, n_o
    cdef const uint64_t* cell
    for h in range(n_reps):
        w = st.rep_weight[r0 + h]
        for s in range(m):
            if s == ws.rep_a[h] or s == ws.rep_b[h]:
                continue
            cell = ws.counters + (s * n_reps + h) * N_CATEGORIES
            ev = 0
            n_deals = 0
            for c in range(N_CATEGORIES):
                for o in range(N_OUTCOMES):
                    n_o = (cell[c] >> (LANE_BITS * o)) & LANE_MASK
                    ev += st.nets[c * N_OUTCOMES + o] * n_o
                    n_deals += n_o
            if n_deals != st.completions:
                bad += 1
            d = CALL if ev > st.fold_ev else FOLD
            for c in range(N_CATEGORIES):
                for o in range(N_OUTCOMES):
                    ws.totals[(c * DECISIONS + d) * N_OUTCOMES + o] += w * <int64_t>((cell[c] >> (LANE_BITS * o)) & LANE_MASK)
            if d != st.rep_honest[r0 + h]:
                ws.totals[TOTALS] += w * st.completions
    return bad


cdef void widen_ranks(const Setting* st, Workspace* ws) noexcept nogil:
    cdef Py_ssize_t lane
    for lane in range(st.lanes):
        ws.rank32[lane] = ws.rank[lane]


cdef void two_seen_evs(const Setting* st, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 2, one board: every (H, S) cell gets the net of H's category and the outcome against S."""
    cdef Py_ssize_t h, lane, lanes = st.lanes
    cdef int32_t p, x, v, n_nq, n_win, n_tie, n_lose, q = st.qualifier_rank
    cdef int32_t* row
    cdef const int32_t* rank = ws.rank32
    cdef int c
    for h in range(n_reps):
        p = ws.rank[ws.rep_lane[h]]
        if p == OFF:
            continue
        c = st.category_of_rank[p]
        n_nq = st.nets32[c * N_OUTCOMES + DEALER_NOT_QUALIFIED]
        n_win = st.nets32[c * N_OUTCOMES + PLAYER_WINS]
        n_tie = st.nets32[c * N_OUTCOMES + PUSH_TIE]
        n_lose = st.nets32[c * N_OUTCOMES + DEALER_WINS]
        row = ws.cell_ev + h * lanes
        for lane in range(lanes):
            x = rank[lane]
            v = n_lose
            if x == p:
                v = n_tie
            if x < p:
                v = n_win
            if x < q:
                v = n_nq
            if x == OFF:
                v = 0
            row[lane] += v


cdef void two_seen_decide(const Setting* st, Py_ssize_t f, Py_ssize_t n_reps, Workspace* ws) noexcept nogil:
    """K = 2, the flop's EVs done: each (H, F, S) decided (called[H][S]), the disagreements counted."""
    cdef Py_ssize_t h, lane, r0 = st.rep_start[f]
    cdef int ha, hb, d
    cdef int64_t w
    for h in range(n_reps):
        ha = ws.rep_a[h]
        hb = ws.rep_b[h]
        w = st.rep_weight[r0 + h]
        for lane in range(st.lanes):
            if ws.lane_a[lane] == ha or ws.lane_a[lane] == hb or ws.lane_b[lane] == ha or ws.lane_b[lane] == hb:
                ws.called[h * st.lanes + lane] = 0
                continue
            d = ws.cell_ev[h * st.lanes + lane] > st.fold_ev
            ws.called[h * st.lanes + lane] = <uint16_t>d
            if d != st.rep_honest[r0 + h]:
                ws.totals[TOTALS] += w * st.completions


cdef void two_seen_called(const Setting* st, Py_ssize_t f, Py_ssize_t n_reps, int m, int t, int r,
                          Workspace* ws) noexcept nogil:
    """K = 2, one board again: the called deals by H's category and outcome."""
    cdef Py_ssize_t h, lane, lanes = st.lanes, r0 = st.rep_start[f]
    cdef int32_t p, x, q = st.qualifier_rank, d
    cdef int32_t n_called, n_nq, n_lt, n_le, x_
    cdef const uint16_t* row
    cdef const int32_t* rank = ws.rank32
    cdef int c
    cdef int64_t w
    cdef int64_t* out
    for h in range(n_reps):
        p = ws.rank[ws.rep_lane[h]]
        if p == OFF:
            continue
        row = ws.called + h * lanes
        n_called = 0
        n_nq = 0
        n_lt = 0
        n_le = 0
        for lane in range(lanes):
            x = rank[lane]
            d = row[lane]
            n_called += d
            n_nq += d & -(x < q)
            n_lt += d & -(x < p)
            n_le += d & -(x <= p)
        for x_ in range(m):                        # the lanes holding t or r (OFF: above every rank)
            if x_ != t:
                n_called -= row[ws.lane_of[t][x_]]
            if x_ != r and x_ != t:
                n_called -= row[ws.lane_of[r][x_]]
        c = st.category_of_rank[p]
        w = st.rep_weight[r0 + h]
        out = ws.totals + (c * DECISIONS + CALL) * N_OUTCOMES
        out[DEALER_NOT_QUALIFIED] += w * n_nq
        if p >= q:
            out[PLAYER_WINS] += w * (n_lt - n_nq)
            out[PUSH_TIE] += w * (n_le - n_lt)
            out[DEALER_WINS] += w * (n_called - n_le)
        else:
            out[DEALER_WINS] += w * (n_called - n_nq)


cdef int count_flop(const Setting* st, Py_ssize_t f, Workspace* ws) noexcept nogil:
    """Every situation (H, F, seen cards) of canonical flop f, decided and its deals added; returns the
    inconsistencies found (0)."""
    cdef Py_ssize_t n_reps = lay_out_flop(st, f, ws), u
    cdef int m = st.n_cards - FLOP
    if n_reps < 0:
        return 1
    if st.k == 1:
        memset(ws.counters, 0, m * n_reps * N_CATEGORIES * sizeof(uint64_t))
        for u in range(st.lanes):
            rank_lanes(st, f, u, m, ws)
            one_seen_board(st, m, n_reps, ws.lane_a[u], ws.lane_b[u], ws)
        return one_seen_settle(st, m, f, n_reps, ws)
    memset(ws.cell_ev, 0, n_reps * st.lanes * sizeof(int32_t))
    for u in range(st.lanes):
        rank_lanes(st, f, u, m, ws)
        widen_ranks(st, ws)
        two_seen_evs(st, n_reps, ws)
    two_seen_decide(st, f, n_reps, ws)
    for u in range(st.lanes):
        rank_lanes(st, f, u, m, ws)
        widen_ranks(st, ws)
        two_seen_called(st, f, n_reps, m, ws.lane_a[u], ws.lane_b[u], ws)
    return 0


# --- Python-facing entry points: validate, then run without the GIL ---------------------

def board_ranks(const card_t[:, ::1] boards, uint64_t deck, int threads=1):
    """uint16 (len(boards), N_PAIRS): the dense rank of every pair of the deck's cards off each board with
    the board (0 for pairs holding a board card or a card outside the deck).  Raises ValueError unless
    the boards are 5 cards of the deck."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int a, b, j
    cdef uint64_t used
    cdef rankmask_t m[N_SUITS]
    cdef rankmask_t pm[N_SUITS]
    if boards.shape[1] != HAND or threads < 1:
        raise ValueError("board_ranks: boards of 5 cards, at least one thread")
    for i in range(n):
        for j in range(HAND):
            if boards[i, j] >= N_CARDS or not (deck >> boards[i, j]) & 1:
                raise ValueError(f"board_ranks: board {i} holds a card outside the deck")
    result = np.zeros((n, N_PAIRS), dtype=np.uint16)
    cdef uint16_t[:, ::1] out = result
    with nogil:
        for i in prange(n, num_threads=threads, schedule="static"):
            masks_of(&boards[i, 0], HAND, m)
            used = 0
            for j in range(HAND):
                used = used | ((<uint64_t>1) << boards[i, j])
            for a in range(N_CARDS):
                if not (deck >> a) & 1 or (used >> a) & 1:
                    continue
                for b in range(a):
                    if not (deck >> b) & 1 or (used >> b) & 1:
                        continue
                    copy_masks(pm, m)
                    add_card(pm, a)
                    add_card(pm, b)
                    out[i, pair_index(a, b)] = dense_rank(eval_masks(pm[0], pm[1], pm[2], pm[3]))
    return result


def count_seen(int k, const uint8_t[::1] cards, int qualifier_rank, const uint8_t[:, ::1] flops,
               Py_ssize_t start, Py_ssize_t stop, const int32_t[::1] use_board, const uint8_t[::1] use_perm,
               const uint16_t[:, ::1] perm_pairs, const uint16_t[:, ::1] ranks, const int64_t[::1] rep_start,
               const uint16_t[::1] rep_pair, const int64_t[::1] rep_weight, const uint8_t[::1] rep_honest,
               const uint8_t[::1] category_of_rank, nets, int64_t fold_ev, int64_t completions, int n_threads=1):
    """The deals of canonical flops start..stop-1 with K = 1 or 2 dealer hole cards seen.

    cards: the deck, ascending; flops, use_board, use_perm: the deck's canonical flops and every
    (flop, turn/river) board's class and renaming (`holdem_enum.flop_uses`); perm_pairs:
    `holdem_enum.perm_pair_table()`; ranks: `board_ranks` of the canonical boards; rep_*: the
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
            or (perm_pairs.shape[0], perm_pairs.shape[1]) != (N_PERMUTATIONS, N_PAIRS) or ranks.shape[1] != N_PAIRS:
        raise ValueError("count_seen: flops, uses and representatives of one deck")
    reps = np.asarray(rep_start)
    if len(reps) and (reps[0] != 0 or (np.diff(reps) < 0).any() or reps[-1] != rep_pair.shape[0]
                      or rep_weight.shape[0] != rep_pair.shape[0] or rep_honest.shape[0] != rep_pair.shape[0]):
        raise ValueError("count_seen: the representatives do not match their flops")
    if len(reps) > 1:
        max_reps = int(np.diff(reps).max())
    board_of = np.asarray(use_board)
    if len(board_of) and (int(board_of.min()) < 0 or int(board_of.max()) >= ranks.shape[0]
                          or int(np.asarray(use_perm).max()) >= N_PERMUTATIONS):
        raise ValueError("count_seen: a use names a board class or renaming that is not there")
    if completions > LANE_MASK:
        raise ValueError("count_seen: more completions than a 16-bit counter holds")
    largest = int(np.abs(net_array).max())
    if k == 2 and largest * completions >= 2**31:
        raise ValueError("count_seen: the nets are too large for the 32-bit EVs of two seen cards")
    cdef Setting st
    st.k = k
    st.n_cards = n
    st.cards = &cards[0]
    st.qualifier_rank = qualifier_rank
    st.flops = &flops[0, 0] if n_flops else NULL
    st.lanes = lanes
    st.use_board = &use_board[0] if use_board.shape[0] else NULL
    st.use_perm = &use_perm[0] if use_perm.shape[0] else NULL
    st.perm_pairs = &perm_pairs[0, 0]
    st.ranks = &ranks[0, 0] if ranks.shape[0] else NULL
    st.rep_start = &rep_start[0]
    st.rep_pair = &rep_pair[0] if rep_pair.shape[0] else NULL
    st.rep_weight = &rep_weight[0] if rep_weight.shape[0] else NULL
    st.rep_honest = &rep_honest[0] if rep_honest.shape[0] else NULL
    st.category_of_rank = &category_of_rank[0]
    cdef const int64_t[:, ::1] nets_v = net_array
    st.nets = &nets_v[0, 0]
    for i in range(N_CATEGORIES * N_OUTCOMES):
        st.nets32[i] = <int32_t>st.nets[i]
    st.completions = completions
    st.fold_ev = fold_ev

    m = n - FLOP
    per_thread = m * max_reps * N_CATEGORIES if k == 1 else 0
    cells = max_reps * lanes if k == 2 else 0
    counters = np.zeros((threads, max(per_thread, 1)), dtype=np.uint64)
    cell_ev = np.zeros((threads, max(cells, 1)), dtype=np.int32)
    called = np.zeros((threads, max(cells, 1)), dtype=np.uint16)
    workspaces = np.zeros(threads * sizeof(Workspace), dtype=np.uint8)
    cdef uint64_t[:, ::1] counters_v = counters
    cdef int32_t[:, ::1] cell_ev_v = cell_ev
    cdef uint16_t[:, ::1] called_v = called
    cdef uint8_t[::1] workspaces_v = workspaces
    cdef Workspace* ws = <Workspace*>&workspaces_v[0]
    for t in range(threads):
        ws[t].counters = &counters_v[t, 0]
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
