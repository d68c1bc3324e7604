"""Undo the count cache's byte-shuffle filter in one pass: byte planes back into items.

`unshuffle_into(out, source, itemsize)` is `analyzer.core.count_cache.unshuffle_reference`
(the plain NumPy definition, which the tests compare it with on random arrays of every item
size) compiled: source holds the itemsize planes of a block (all first bytes of the items,
then all second bytes, ...), and item i of `out` gets byte j = plane j [i].  NumPy does it
in one pass per plane (a shift and an or on words each), reading and writing the output
itemsize times; here every output byte is written once, without the GIL, so the count
cache's loader threads undo their blocks side by side.
"""
cimport cython
from libc.stdint cimport uint8_t


cdef inline void _unshuffle_fixed(uint8_t *out, const uint8_t *source, Py_ssize_t items,
                                  Py_ssize_t itemsize) noexcept nogil:
    # itemsize is a constant at each call site below, so the compiler unrolls the inner loop
    cdef Py_ssize_t i, j
    for i in range(items):
        for j in range(itemsize):
            out[i * itemsize + j] = source[j * items + i]


def unshuffle_into(uint8_t[::1] out, const uint8_t[::1] source, Py_ssize_t itemsize):
    """Write the items whose byte planes are `source` into `out` (both uint8, of one length).

    Plane j is source[j * items:(j + 1) * items], items = len(source) // itemsize.  Raises
    ValueError when the lengths differ or are not a multiple of itemsize.

    >>> import numpy as np
    >>> out = np.empty(6, dtype=np.uint8)
    >>> unshuffle_into(out, np.array([1, 2, 3, 10, 20, 30], dtype=np.uint8), 2)
    >>> out.tolist()
    [1, 10, 2, 20, 3, 30]
    """
    cdef Py_ssize_t n = out.shape[0]
    if source.shape[0] != n or itemsize < 1 or n % itemsize:
        raise ValueError(f"{n} and {source.shape[0]} bytes are not the same whole number of {itemsize}-byte items")
    if n == 0:
        return
    cdef uint8_t *target = &out[0]
    cdef const uint8_t *planes = &source[0]
    cdef Py_ssize_t items = n // itemsize
    with nogil:
        if itemsize == 2:
            _unshuffle_fixed(target, planes, items, 2)
        elif itemsize == 4:
            _unshuffle_fixed(target, planes, items, 4)
        elif itemsize == 8:
            _unshuffle_fixed(target, planes, items, 8)
        else:
            _unshuffle_fixed(target, planes, items, itemsize)
