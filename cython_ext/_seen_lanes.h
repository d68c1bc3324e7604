/* The lane loops of cython_ext.holdem_leak (Casino Hold'em with seen dealer cards), in plain C.
 *
 * Each is a loop over a fixed number of 16-bit lanes with restrict pointers, so that gcc -O3
 * vectorises it with the SSE2 every x86-64 CPU has (eight lanes an instruction); Cython's
 * generated loops leave the compiler unsure that the arrays do not overlap.  Ranks are int16
 * dense ranks (0 .. 7461) or SEEN_OFF, above every rank: a pair holding a card of the board.
 */
#ifndef CYTHON_EXT_SEEN_LANES_H
#define CYTHON_EXT_SEEN_LANES_H

#include <stdint.h>

#define SEEN_OFF 0x7FFF
#define SEEN_CARDS 56          /* lanes of a per-card vector: the 49 cards left after a flop, padded to 8s */
#define SEEN_KINDS 40          /* counters per seen card: category x outcome */

/* K = 1, one board, one hole pair H of rank p (>= the qualifier q) and category c: for every seen card s,
 * the completions x by outcome, added to counts[outcome * SEEN_CARDS + s] (c's counters of H).  below_p,
 * up_to_p, below_q[s]: the pairs {s, x} ranking below p, up to p, below q; ranks_a, ranks_b[s]: the ranks of
 * {s, a} and {s, b}, H = {a, b} (not completions: taken off); total[s]: the x left (0 where s is on the board). */
static inline void seen_one_add(uint16_t *restrict counts, const uint16_t *restrict below_p,
                                const uint16_t *restrict up_to_p, const uint16_t *restrict below_q,
                                const uint16_t *restrict total, const int16_t *restrict ranks_a,
                                const int16_t *restrict ranks_b, int16_t p, int16_t q)
{
    uint16_t *restrict nq = counts, *restrict win = counts + SEEN_CARDS, *restrict tie = counts + 2 * SEEN_CARDS,
             *restrict lose = counts + 3 * SEEN_CARDS;
    for (int s = 0; s < SEEN_CARDS; s++) {
        uint16_t less = below_p[s] - (uint16_t)(ranks_a[s] < p) - (uint16_t)(ranks_b[s] < p);
        uint16_t leq = up_to_p[s] - (uint16_t)(ranks_a[s] <= p) - (uint16_t)(ranks_b[s] <= p);
        uint16_t unqualified = below_q[s] - (uint16_t)(ranks_a[s] < q) - (uint16_t)(ranks_b[s] < q);
        nq[s] += unqualified;
        win[s] += less - unqualified;
        tie[s] += leq - less;
        lose[s] += total[s] - leq;
    }
}

/* The same for a hole pair below the qualifier: every dealer hand either does not qualify or wins. */
static inline void seen_one_add_unqualified(uint16_t *restrict counts, const uint16_t *restrict below_q,
                                            const uint16_t *restrict total, const int16_t *restrict ranks_a,
                                            const int16_t *restrict ranks_b, int16_t q)
{
    uint16_t *restrict nq = counts, *restrict lose = counts + 3 * SEEN_CARDS;
    for (int s = 0; s < SEEN_CARDS; s++) {
        uint16_t unqualified = below_q[s] - (uint16_t)(ranks_a[s] < q) - (uint16_t)(ranks_b[s] < q);
        nq[s] += unqualified;
        lose[s] += total[s] - unqualified;
    }
}

/* counts[i] = a[i] + b[i], SEEN_CARDS lanes. */
static inline void seen_add_vectors(uint16_t *restrict out, const uint16_t *restrict a, const uint16_t *restrict b)
{
    for (int s = 0; s < SEEN_CARDS; s++)
        out[s] = a[s] + b[s];
}

/* K = 1, a flop done, one hole pair H: each seen card s with valid[s] (s off the flop and H) decided from its
 * counters (counts[k * SEEN_CARDS + s], k = category x 4 + outcome): calls where its EV numerator (nets[k] x
 * the counts) beats fold_ev (call[s] = 1).  Adds the called and the valid cards' counts by k into called[k]
 * and every[k]; returns how many valid cards do not count `completions` completions (0). */
static inline int seen_one_settle(const uint16_t *restrict counts, const int32_t *restrict nets, int32_t fold_ev,
                                  int32_t completions, const uint16_t *restrict valid, uint16_t *restrict call,
                                  int64_t *restrict called, int64_t *restrict every)
{
    int32_t ev[SEEN_CARDS] = {0}, dealt[SEEN_CARDS] = {0};
    int bad = 0;
    for (int k = 0; k < SEEN_KINDS; k++) {
        const uint16_t *restrict row = counts + k * SEEN_CARDS;
        int32_t net = nets[k];
        for (int s = 0; s < SEEN_CARDS; s++) {
            ev[s] += net * row[s];
            dealt[s] += row[s];
        }
    }
    for (int s = 0; s < SEEN_CARDS; s++) {
        call[s] = valid[s] && ev[s] > fold_ev;
        bad += valid[s] && dealt[s] != completions;
    }
    for (int k = 0; k < SEEN_KINDS; k++) {
        const uint16_t *restrict row = counts + k * SEEN_CARDS;
        int32_t c = 0, e = 0;                    /* at most SEEN_CARDS x 45,540 */
        for (int s = 0; s < SEEN_CARDS; s++) {
            c += call[s] * row[s];
            e += valid[s] * row[s];
        }
        called[k] += c;
        every[k] += e;
    }
    return bad;
}

/* K = 2, one board, one hole pair of rank p: part[S] += the net against every dealer pair S of rank x (n_nq, n_win,
 * n_tie, n_lose: the nets of H's category; 0 where S holds a board card), n lanes (a multiple of 8). */
static inline void seen_two_nets(int16_t *restrict part, const int16_t *restrict ranks, long n, int16_t p, int16_t q,
                                 int16_t n_nq, int16_t n_win, int16_t n_tie, int16_t n_lose)
{
    for (long i = 0; i < n; i++) {               /* selects by masks: a branch-free body gcc vectorises */
        int16_t x = ranks[i];
        int16_t below_q = -(int16_t)(x < q), below_p = -(int16_t)(x < p), equal = -(int16_t)(x == p),
                off = -(int16_t)(x == SEEN_OFF);
        int16_t v = (int16_t)((n_lose & ~equal) | (n_tie & equal));
        v = (int16_t)((v & ~below_p) | (n_win & below_p));
        v = (int16_t)((v & ~below_q) | (n_nq & below_q));
        part[i] += (int16_t)(v & ~off);
    }
}

/* acc[i] += part[i]; part[i] = 0, n lanes. */
static inline void seen_two_flush(int32_t *restrict acc, int16_t *restrict part, long n)
{
    for (long i = 0; i < n; i++) {
        acc[i] += part[i];
        part[i] = 0;
    }
}

/* K = 2, one board again, one hole pair of rank p: of the dealer pairs S the exploit calls against (called[S],
 * 0 or 1), how many are off the board, below q, below p and up to p (sums[0..3]); n lanes. */
static inline void seen_two_called(int32_t *sums, const uint16_t *restrict called, const int16_t *restrict ranks,
                                   long n, int16_t p, int16_t q)
{
    uint16_t on = 0, nq = 0, lt = 0, le = 0;     /* at most 1,176 each */
    for (long i = 0; i < n; i++) {
        int16_t x = ranks[i];
        uint16_t d = called[i];
        on += d & (uint16_t)-(x != SEEN_OFF);
        nq += d & (uint16_t)-(x < q);
        lt += d & (uint16_t)-(x < p);
        le += d & (uint16_t)-(x <= p);
    }
    sums[0] = on;
    sums[1] = nq;
    sums[2] = lt;
    sums[3] = le;
}

#endif
