"""Exact punto banco outcome counts by card value, with multiplicities (no card-by-card walk).

Algorithm: deal the two hands and the third cards as card *values* 0..9; each draw
is weighted by how many cards of that value are left, and a round that uses k < 6
cards is weighted by the (N-k)(N-k-1)...(N-5) ways to fill the unused positions, so
every count is a number of ordered 6-card sequences from the shoe.
"""
cdef enum:
    FIRST_DEALT = 4       # the fewest cards a round deals


cdef inline int total(int a, int b) noexcept nogil:
    return (a + b) % N_TOTALS


cdef inline count_t* slot(count_t* out, int player, int banker, int dealt) noexcept nogil:
    return out + (player * N_TOTALS + banker) * N_DEALT_KINDS + (dealt - FIRST_DEALT)


cdef void count_outcomes_c(count_t* c, const Tableau* rules, count_t* out) noexcept nogil:
    cdef count_t n = 0
    cdef int v, p1, b1, p2, b2, p3, b3, pt, bt, pt3
    cdef count_t m1, m2, m3, m4, m5, tail4, tail5
    for v in range(N_BACCARAT_VALUES):
        n += c[v]
    tail5 = n - 5                       # unused 6th position
    tail4 = (n - 4) * (n - 5)           # unused 5th and 6th positions
    # A hand's two cards are dealt in either order with the same multiplicity, so each
    # unordered pair is visited once and counted twice when its values differ.
    for p1 in range(N_BACCARAT_VALUES):
        m1 = c[p1]
        if m1 == 0:
            continue
        c[p1] -= 1
        for p2 in range(p1, N_BACCARAT_VALUES):
            m2 = m1 * c[p2] * (1 if p2 == p1 else 2)
            if m2 == 0:
                continue
            c[p2] -= 1
            pt = total(p1, p2)
            for b1 in range(N_BACCARAT_VALUES):
                m3 = m2 * c[b1]
                if m3 == 0:
                    continue
                c[b1] -= 1
                for b2 in range(b1, N_BACCARAT_VALUES):
                    m4 = m3 * c[b2] * (1 if b2 == b1 else 2)
                    if m4 == 0:
                        continue
                    c[b2] -= 1
                    bt = total(b1, b2)
                    if rules.natural[pt] or rules.natural[bt]:
                        slot(out, pt, bt, 4)[0] += m4 * tail4
                    elif rules.player_draws[pt]:
                        for p3 in range(N_BACCARAT_VALUES):
                            m5 = m4 * c[p3]
                            if m5 == 0:
                                continue
                            pt3 = total(pt, p3)
                            if rules.banker_draws[bt][p3]:
                                c[p3] -= 1
                                for b3 in range(N_BACCARAT_VALUES):
                                    slot(out, pt3, total(bt, b3), 6)[0] += m5 * c[b3]
                                c[p3] += 1
                            else:
                                slot(out, pt3, bt, 5)[0] += m5 * tail5
                    elif rules.banker_draws_alone[bt]:
                        for b3 in range(N_BACCARAT_VALUES):
                            slot(out, pt, total(bt, b3), 5)[0] += m4 * c[b3] * tail5
                    else:
                        slot(out, pt, bt, 4)[0] += m4 * tail4
                    c[b2] += 1
                c[b1] += 1
            c[p2] += 1
        c[p1] += 1

def count_outcomes(const count_t[::1] value_counts, const uint8_t[::1] natural,
                   const uint8_t[::1] player_draws, const uint8_t[::1] banker_draws_alone,
                   const uint8_t[::1] banker_draws, count_t[::1] out):
    """Fill out[(player*10 + banker)*3 + dealt-4] with ordered 6-card sequence counts.

    value_counts: 10 card counts by value; the flags are 10, 10, 10 and 100 bytes
    (banker_draws row-major [banker total][player third card]); out: 300 zeros.
    The caller checks that shoe_size ** 6 fits in 63 bits.  Raises ValueError on wrong
    array sizes or a negative card count.

    Every ordered 6-card sequence of the shoe is counted once, whatever the tableau: on a
    shoe of one suit (ten, jack, queen and king count 0), with naturals on 8 and 9 and both
    hands drawing on 0 to 5, the counts add up to 13 * 12 * 11 * 10 * 9 * 8:

    >>> import numpy as np
    >>> shoe = np.array([4, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int64)
    >>> natural = np.array([0] * 8 + [1] * 2, dtype=np.uint8)
    >>> draws = np.array([1] * 6 + [0] * 4, dtype=np.uint8)
    >>> out = np.zeros(300, dtype=np.int64)
    >>> count_outcomes(shoe, natural, draws, draws, np.repeat(draws, 10), out)
    >>> int(out.sum()) == 13 * 12 * 11 * 10 * 9 * 8
    True
    """
    cdef Tableau rules
    cdef count_t counts[N_BACCARAT_VALUES]
    cdef int i, j
    if value_counts.shape[0] != N_BACCARAT_VALUES or natural.shape[0] != N_TOTALS \
            or player_draws.shape[0] != N_TOTALS or banker_draws_alone.shape[0] != N_TOTALS \
            or banker_draws.shape[0] != N_TOTALS * N_BACCARAT_VALUES or out.shape[0] != N_SLOTS:
        raise ValueError("count_outcomes: wrong array sizes")
    for i in range(N_BACCARAT_VALUES):
        if value_counts[i] < 0:
            raise ValueError("count_outcomes: negative card count")
        counts[i] = value_counts[i]
    for i in range(N_TOTALS):
        rules.natural[i] = natural[i]
        rules.player_draws[i] = player_draws[i]
        rules.banker_draws_alone[i] = banker_draws_alone[i]
        for j in range(N_BACCARAT_VALUES):
            rules.banker_draws[i][j] = banker_draws[i * N_BACCARAT_VALUES + j]
    with nogil:
        count_outcomes_c(counts, &rules, &out[0])
