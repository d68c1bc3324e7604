"""Integer count rows dotted with one vector, in one pass: a poker table's EV numerators of playing.

`dot_rows(counts, nets, out, threads)` writes out[i] = sum_k counts[i, k] x nets[k] in int64,
reading the counts as they are stored (uint8, uint16, uint32 or int64: no int64 copy of the
table) and sharing the rows out among `threads` threads.  The caller proves first that no
partial sum can leave the int64 range (`analyzer.poker.decision_table.play_ev_numerators`
does, from max |net| x the counts' bound x the row width, and falls back to Python integers
otherwise): with that bound every value here is exact.  NumPy's `counts.astype(int64) @ nets`
is the reference the tests compare it with.
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t

ctypedef fused counts_t:
    uint8_t
    uint16_t
    uint32_t
    int64_t


def dot_rows(const counts_t[:, ::1] counts, const int64_t[::1] nets, int64_t[::1] out, int threads=1):
    """out[i] = sum over k of counts[i, k] x nets[k], for every row i (int64; exact under the caller's bound).

    Raises ValueError when the shapes disagree or threads < 1.

    >>> import numpy as np
    >>> out = np.empty(2, dtype=np.int64)
    >>> dot_rows(np.array([[1, 2], [3, 4]], dtype=np.uint32), np.array([10, -1], dtype=np.int64), out)
    >>> out.tolist()
    [8, 26]
    """
    cdef Py_ssize_t m = counts.shape[0], cells = counts.shape[1], i, k
    cdef int64_t total
    if nets.shape[0] != cells or out.shape[0] != m:
        raise ValueError(f"{m} x {cells} counts, {nets.shape[0]} nets and {out.shape[0]} outputs do not agree")
    if threads < 1:
        raise ValueError("dot_rows: threads must be at least 1")
    with nogil:
        for i in prange(m, schedule="static", num_threads=threads):
            total = 0
            for k in range(cells):
                total = total + <int64_t>counts[i, k] * nets[k]
            out[i] = total
