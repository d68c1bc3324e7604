"""Strategy-file keys packed in one pass: `pack_key_bytes(keys, out, present)` is
`analyzer.core.strategy_file.pack_keys` compiled: a strategy file's key column, stored as byte
planes, read in place into one integer per key.
"""
from libc.stdint cimport uint8_t, uint64_t


def pack_key_bytes(const uint8_t[:, :] keys, uint64_t[::1] out, uint8_t[::1] present):
    """Pack key rows of at most 8 bytes into integers ordered like their bytes, in one pass: out[i] = the
    bytes of keys[i] read big-endian (`analyzer.core.strategy_file.pack_keys`, the plain NumPy version);
    present[b] set for every byte value b in the keys; True when the packed keys are strictly increasing.

    `keys` is (rows, width) with any strides: a strategy file's key column (its planes) or a count's
    key rows, read in place.  Raises ValueError for a width over 8, `out` not of one per row, or
    `present` not of 256.

    >>> import numpy as np
    >>> out, present = np.empty(2, dtype=np.uint64), np.zeros(256, dtype=np.uint8)
    >>> pack_key_bytes(np.array([[1, 2], [3, 255]], dtype=np.uint8), out, present)
    True
    >>> out.tolist(), np.flatnonzero(present).tolist()
    ([258, 1023], [1, 2, 3, 255])
    """
    cdef Py_ssize_t n = keys.shape[0], width = keys.shape[1], i, j
    cdef uint64_t word, previous = 0
    cdef uint8_t byte
    cdef bint increasing = True
    if width > 8 or out.shape[0] != n or present.shape[0] != 256:
        raise ValueError(f"keys of {width} bytes (at most 8), out of {out.shape[0]} for {n} rows, present of 256")
    with nogil:
        for i in range(n):
            word = 0
            for j in range(width):
                byte = keys[i, j]
                present[byte] = 1
                word = word << 8 | byte
            if i and word <= previous:
                increasing = False
            out[i] = previous = word
    return increasing
