"""Integer count rows dotted with one vector, in one pass: a poker table's EV numerators of playing.

`dot_rows(counts, nets, out, threads)` writes out[i] = sum_k counts[i, k] x nets[k] in int64,
reading the counts as they are stored (uint8, uint16, uint32 or int64: no int64 copy of the
table) and sharing the rows out among `threads` threads.  The caller proves first that no
partial sum can leave the int64 range (`analyzer.poker.decision_table.play_ev_numerators`
does, from max |net| x the counts' bound x the row width, and falls back to Python integers
otherwise): with that bound every value here is exact.  NumPy's `counts.astype(int64) @ nets`
is the reference the tests compare it with.

uint32 counts with every |net| below 2**32 (always, under that bound, for uint32 counts) take
a faster road: the nets split into their positive and negative parts, each a uint32, so that
every product is a 32 x 32 -> 64-bit unsigned multiply (which the compiler vectorises, where a
64-bit one is not), the two sums are unsigned (each at most the bound) and their difference
is the exact value; rows of Casino Hold'em's width (40 counts) are unrolled.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

ctypedef fused counts_t:
    uint8_t
    uint16_t
    uint32_t
    int64_t

cdef extern from *:
    """
    static inline __attribute__((always_inline)) void
    row_dot_split_fixed(const uint32_t *counts, Py_ssize_t first, Py_ssize_t stop, Py_ssize_t cells,
                        const uint32_t *plus, const uint32_t *minus, int64_t *out)
    {
        for (Py_ssize_t i = first; i < stop; i++) {
            const uint32_t *row = counts + i * cells;
            uint64_t up = 0, down = 0;
            for (Py_ssize_t k = 0; k < cells; k++) {
                up += (uint64_t)row[k] * plus[k];
                down += (uint64_t)row[k] * minus[k];
            }
            out[i] = (int64_t)(up - down);       /* |up - down| fits int64 under the caller's bound */
        }
    }
    static void row_dot_split(const uint32_t *counts, Py_ssize_t first, Py_ssize_t stop, Py_ssize_t cells,
                              const uint32_t *plus, const uint32_t *minus, int64_t *out)
    {
        if (cells == 40) row_dot_split_fixed(counts, first, stop, 40, plus, minus, out);
        else row_dot_split_fixed(counts, first, stop, cells, plus, minus, out);
    }
    """
    void row_dot_split(const uint32_t *counts, Py_ssize_t first, Py_ssize_t stop, Py_ssize_t cells,
                       const uint32_t *plus, const uint32_t *minus, int64_t *out) noexcept nogil

cdef enum:
    ROWS_PER_PIECE = 1 << 14       # rows one thread takes at a time on the uint32 road


def dot_rows(const counts_t[:, ::1] counts, const int64_t[::1] nets, int64_t[::1] out, int threads=1):
    """out[i] = sum over k of counts[i, k] x nets[k], for every row i (int64; exact under the caller's bound).

    Raises ValueError when the shapes disagree or threads < 1.

    >>> import numpy as np
    >>> out = np.empty(2, dtype=np.int64)
    >>> dot_rows(np.array([[1, 2], [3, 4]], dtype=np.uint32), np.array([10, -1], dtype=np.int64), out)
    >>> out.tolist()
    [8, 26]
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], i, k, piece
    cdef int64_t total
    if nets.shape[0] != cells or out.shape[0] != m:
        raise ValueError(f"{m} x {cells} counts, {nets.shape[0]} nets and {out.shape[0]} outputs do not agree")
    if threads < 1:
        raise ValueError("dot_rows: threads must be at least 1")
    if m == 0:
        return
    if cells == 0:
        out[:] = 0
        return
    cdef uint32_t[::1] plus, minus
    if counts_t is uint32_t and all(-(1 << 32) < nets[k] < (1 << 32) for k in range(cells)):
        plus, minus = np.zeros(cells, dtype=np.uint32), np.zeros(cells, dtype=np.uint32)
        for k in range(cells):
            if nets[k] > 0:
                plus[k] = <uint32_t>nets[k]
            else:
                minus[k] = <uint32_t>(-nets[k])
        with nogil:
            for piece in prange((m + ROWS_PER_PIECE - 1) // ROWS_PER_PIECE, schedule="static", num_threads=threads):
                row_dot_split(&counts[0, 0], piece * ROWS_PER_PIECE, min(m, (piece + 1) * ROWS_PER_PIECE), cells,
                              &plus[0], &minus[0], &out[0])
        return
    with nogil:
        for i in prange(m, schedule="static", num_threads=threads):
            total = 0
            for k in range(cells):
                total = total + <int64_t>counts[i, k] * nets[k]
            out[i] = total
