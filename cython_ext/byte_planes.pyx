"""Byte planes and items in one pass each: the count cache's layouts undone, strategy-file keys packed.

`unshuffle_into(out, source, itemsize)` is `analyzer.core.count_cache.unshuffle_reference`
(the plain NumPy definition, which the tests compare it with on random arrays of every item
size) compiled: source holds the first planes of a block (all first bytes of the items,
then all second bytes, ...; trailing all-zero planes are not stored), and item i of `out`
gets byte j = plane j [i], or 0 past the stored planes.  NumPy does it
in one pass per plane (a shift and an or on words each), reading and writing the output
itemsize times; here every output byte is written once, without the GIL, so the count
cache's loader threads undo their blocks side by side.

`expand_into(out, bitmap, source, itemsize)` is `count_cache.expand_reference` compiled (the
tests compare the two the same way): the count cache's sparse layout stores a block as a
bitmap of its nonzero items and the byte planes of those items only; item i of `out` is the
next stored item where bit i is set, else zero, a zero bitmap byte eight zero items at once.

`pack_key_bytes(keys, out, present)` is `analyzer.core.strategy_file.pack_keys` compiled: a
strategy file's key column, stored as byte planes, read in place into one integer per key.
"""
cimport cython
from libc.stdint cimport uint8_t, uint64_t


cdef extern from *:
    """
    #include <string.h>
    /* One pass over the items; every case below passes constants, so the compiler
       unrolls (and vectorises) the inner loops for each item size and plane count. */
    static inline __attribute__((always_inline)) void
    byte_planes_fixed(uint8_t *out, const uint8_t *source, Py_ssize_t items, Py_ssize_t itemsize, Py_ssize_t planes)
    {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (itemsize == 2 || itemsize == 4 || itemsize == 8) {
            /* Item i as a little-endian word: plane j is its byte j in memory (vectorises
               for fewer stored planes too, where the byte loop below does not). */
            for (Py_ssize_t i = 0; i < items; i++) {
                uint64_t word = 0;
                for (Py_ssize_t j = 0; j < planes; j++)
                    word |= (uint64_t)source[j * items + i] << (8 * j);
                if (itemsize == 2) { uint16_t w = (uint16_t)word; memcpy(out + 2 * i, &w, 2); }
                else if (itemsize == 4) { uint32_t w = (uint32_t)word; memcpy(out + 4 * i, &w, 4); }
                else memcpy(out + 8 * i, &word, 8);
            }
            return;
        }
    #endif
        for (Py_ssize_t i = 0; i < items; i++) {
            for (Py_ssize_t j = 0; j < planes; j++)
                out[i * itemsize + j] = source[j * items + i];
            for (Py_ssize_t j = planes; j < itemsize; j++)
                out[i * itemsize + j] = 0;
        }
    }
    #define BYTE_PLANES_CASE(size, kept) \
        case (size) * 16 + (kept): byte_planes_fixed(out, source, items, (size), (kept)); break;
    static void byte_planes_unshuffle(uint8_t *out, const uint8_t *source, Py_ssize_t items,
                                      Py_ssize_t itemsize, Py_ssize_t planes)
    {
        switch (itemsize <= 8 ? itemsize * 16 + planes : 0) {
            BYTE_PLANES_CASE(2, 0) BYTE_PLANES_CASE(2, 1) BYTE_PLANES_CASE(2, 2)
            BYTE_PLANES_CASE(4, 0) BYTE_PLANES_CASE(4, 1) BYTE_PLANES_CASE(4, 2) BYTE_PLANES_CASE(4, 3)
            BYTE_PLANES_CASE(4, 4)
            BYTE_PLANES_CASE(8, 0) BYTE_PLANES_CASE(8, 1) BYTE_PLANES_CASE(8, 2) BYTE_PLANES_CASE(8, 3)
            BYTE_PLANES_CASE(8, 4) BYTE_PLANES_CASE(8, 5) BYTE_PLANES_CASE(8, 6) BYTE_PLANES_CASE(8, 7)
            BYTE_PLANES_CASE(8, 8)
            default: byte_planes_fixed(out, source, items, itemsize, planes);
        }
    }

    /* The sparse layout: bit i of the bitmap (bit i % 8 of byte i / 8) says whether item i is
       nonzero; the nonzero items' byte planes follow, `nonzero` bytes each.  Eight items (a
       bitmap byte) at a time: a zero byte is eight zero items at once. */
    static inline __attribute__((always_inline)) void
    byte_planes_expand_fixed(uint8_t *out, const uint8_t *bitmap, const uint8_t *source, Py_ssize_t items,
                             Py_ssize_t nonzero, Py_ssize_t itemsize, Py_ssize_t planes)
    {
        Py_ssize_t next = 0;
        for (Py_ssize_t first = 0; first < items; first += 8) {
            Py_ssize_t stop = first + 8 < items ? first + 8 : items;
            uint8_t bits = bitmap[first >> 3];
            if (!bits) {
                memset(out + first * itemsize, 0, (stop - first) * itemsize);
                continue;
            }
            for (Py_ssize_t i = first; i < stop; i++, bits >>= 1) {
                uint8_t *item = out + i * itemsize;
                if (bits & 1) {
                    for (Py_ssize_t j = 0; j < planes; j++)
                        item[j] = source[j * nonzero + next];
                    for (Py_ssize_t j = planes; j < itemsize; j++)
                        item[j] = 0;
                    next++;
                } else {
                    memset(item, 0, itemsize);
                }
            }
        }
    }
    #define BYTE_PLANES_EXPAND_CASE(size, kept) \
        case (size) * 16 + (kept): \
            byte_planes_expand_fixed(out, bitmap, source, items, nonzero, (size), (kept)); break;
    static void byte_planes_expand(uint8_t *out, const uint8_t *bitmap, const uint8_t *source, Py_ssize_t items,
                                   Py_ssize_t nonzero, Py_ssize_t itemsize, Py_ssize_t planes)
    {
        switch (itemsize <= 8 ? itemsize * 16 + planes : 0) {
            BYTE_PLANES_EXPAND_CASE(1, 1)
            BYTE_PLANES_EXPAND_CASE(2, 1) BYTE_PLANES_EXPAND_CASE(2, 2)
            BYTE_PLANES_EXPAND_CASE(4, 1) BYTE_PLANES_EXPAND_CASE(4, 2) BYTE_PLANES_EXPAND_CASE(4, 3)
            BYTE_PLANES_EXPAND_CASE(4, 4)
            BYTE_PLANES_EXPAND_CASE(8, 1) BYTE_PLANES_EXPAND_CASE(8, 2) BYTE_PLANES_EXPAND_CASE(8, 3)
            BYTE_PLANES_EXPAND_CASE(8, 4) BYTE_PLANES_EXPAND_CASE(8, 5) BYTE_PLANES_EXPAND_CASE(8, 6)
            BYTE_PLANES_EXPAND_CASE(8, 7) BYTE_PLANES_EXPAND_CASE(8, 8)
            default: byte_planes_expand_fixed(out, bitmap, source, items, nonzero, itemsize, planes);
        }
    }

    static Py_ssize_t byte_planes_popcount(const uint8_t *bytes, Py_ssize_t n)
    {
        Py_ssize_t total = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            total += __builtin_popcount(bytes[i]);
        return total;
    }
    """
    void byte_planes_unshuffle(uint8_t *out, const uint8_t *source, Py_ssize_t items,
                               Py_ssize_t itemsize, Py_ssize_t planes) noexcept nogil
    void byte_planes_expand(uint8_t *out, const uint8_t *bitmap, const uint8_t *source, Py_ssize_t items,
                            Py_ssize_t nonzero, Py_ssize_t itemsize, Py_ssize_t planes) noexcept nogil
    Py_ssize_t byte_planes_popcount(const uint8_t *bytes, Py_ssize_t n) noexcept nogil


def unshuffle_into(uint8_t[::1] out, const uint8_t[::1] source, Py_ssize_t itemsize):
    """Write the items whose first byte planes are `source` into `out` (uint8; byte j of item i = plane j [i]).

    items = len(out) // itemsize; plane j is source[j * items:(j + 1) * items].  `source` may
    hold fewer than itemsize planes: the missing last planes are zero bytes (the cache does
    not store all-zero trailing planes).  Raises ValueError when len(out) is not a whole
    number of items or `source` not a whole number of at most itemsize planes.

    >>> import numpy as np
    >>> out = np.empty(6, dtype=np.uint8)
    >>> unshuffle_into(out, np.array([1, 2, 3, 10, 20, 30], dtype=np.uint8), 2)
    >>> out.tolist()
    [1, 10, 2, 20, 3, 30]
    >>> unshuffle_into(out, np.array([1, 2, 3], dtype=np.uint8), 2)
    >>> out.tolist()
    [1, 0, 2, 0, 3, 0]
    """
    cdef Py_ssize_t n = out.shape[0]
    if itemsize < 1 or n % itemsize:
        raise ValueError(f"{n} bytes are not a whole number of {itemsize}-byte items")
    cdef Py_ssize_t items = n // itemsize
    cdef Py_ssize_t planes = source.shape[0] // items if items else 0
    if (items and source.shape[0] % items) or planes > itemsize or (not items and source.shape[0]):
        raise ValueError(f"{source.shape[0]} bytes are not a whole number of at most {itemsize} planes of {items}")
    if items == 0:
        return
    cdef uint8_t *target = &out[0]
    cdef const uint8_t *stored = &source[0] if planes else NULL
    with nogil:
        byte_planes_unshuffle(target, stored, items, itemsize, planes)


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


def expand_into(uint8_t[::1] out, const uint8_t[::1] bitmap, const uint8_t[::1] source, Py_ssize_t itemsize):
    """Write the items of a sparse block into `out` (uint8): item i is the next nonzero item where bit i of
    `bitmap` is set (bit i % 8 of byte i // 8), else zero.  Returns how many bits are set.

    items = len(out) // itemsize; nonzero = the bits set; `source` holds the nonzero items' first
    byte planes, plane j = source[j * nonzero:(j + 1) * nonzero] (byte j of each), the missing
    last planes zero.  Raises ValueError when len(out) is not a whole number of items, the
    bitmap is not ceil(items / 8) bytes or sets a bit past the last item, or `source` is not a
    whole number of at most itemsize planes of the nonzero items.

    >>> import numpy as np
    >>> out = np.empty(8, dtype=np.uint8)
    >>> expand_into(out, np.array([0b1010], dtype=np.uint8), np.array([7, 9, 1, 0], dtype=np.uint8), 2)
    2
    >>> out.tolist()
    [0, 0, 7, 1, 0, 0, 9, 0]
    """
    cdef Py_ssize_t n = out.shape[0]
    if itemsize < 1 or n % itemsize:
        raise ValueError(f"{n} bytes are not a whole number of {itemsize}-byte items")
    cdef Py_ssize_t items = n // itemsize
    if bitmap.shape[0] != (items + 7) // 8:
        raise ValueError(f"a bitmap of {bitmap.shape[0]} bytes for {items} items")
    if items % 8 and bitmap[items // 8] >> (items % 8):
        raise ValueError("the bitmap sets a bit past the last item")
    cdef Py_ssize_t nonzero = byte_planes_popcount(&bitmap[0], bitmap.shape[0]) if items else 0
    cdef Py_ssize_t planes = source.shape[0] // nonzero if nonzero else 0
    if (nonzero and source.shape[0] % nonzero) or planes > itemsize or (not nonzero and source.shape[0]):
        raise ValueError(f"{source.shape[0]} bytes are not a whole number of at most {itemsize} planes of "
                         f"{nonzero} nonzero items")
    if items == 0:
        return 0
    cdef uint8_t *target = &out[0]
    cdef const uint8_t *stored = &source[0] if planes else NULL
    with nogil:
        byte_planes_expand(target, &bitmap[0], stored, items, nonzero, itemsize, planes)
    return nonzero
