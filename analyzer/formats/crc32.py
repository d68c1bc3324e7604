"""The CRC-32 of a concatenation from its parts' CRC-32s, as zlib's `crc32_combine` (which Python's zlib lacks).

A strategy file's pieces are compressed on threads, each with its own CRC-32 taken there; a
piece several files hold (a shared column) is read once, and each file's CRC is combined
from its pieces'.  The CRC of A + B is the CRC of A carried over len(B) zero bytes, then
xored with the CRC of B; carrying over n bytes is a multiplication by x^(8n) modulo the
CRC polynomial, over GF(2) (zlib 1.2.12's method: a table of x^(2^k), one product per set
bit of n).
"""
from __future__ import annotations

from functools import lru_cache

POLYNOMIAL = 0xEDB88320        # CRC-32 (IEEE 802.3), bit-reflected: bit 31 is x^0
ONE = 1 << 31                  # the polynomial 1 in this reflected order


def _times(a: int, b: int) -> int:
    """a(x) b(x) modulo the CRC polynomial (both reflected)."""
    product = 0
    mask = ONE
    while a:
        if a & mask:
            product ^= b
            a ^= mask
        mask >>= 1
        b = (b >> 1) ^ POLYNOMIAL if b & 1 else b >> 1
    return product


def _powers() -> list:
    """x^(2^k) modulo the polynomial, k = 0..31 (beyond, they repeat: x^(2^32) = x, the polynomial being primitive)."""
    powers = [ONE >> 1]                           # x^1
    for _ in range(31):
        powers.append(_times(powers[-1], powers[-1]))
    return powers


_X_TO_2_TO = _powers()


@lru_cache(maxsize=256)
def _carry(length: int) -> int:
    """x^(8 length) modulo the polynomial: what carrying a CRC over `length` zero bytes multiplies it by
    (cached: a file's pieces have few distinct lengths)."""
    product, k = ONE, 3                           # 8 length = length << 3
    while length:
        if length & 1:
            product = _times(_X_TO_2_TO[k & 31], product)
        length >>= 1
        k += 1
    return product


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """zlib.crc32(A + B) from crc1 = zlib.crc32(A), crc2 = zlib.crc32(B) and length2 = len(B).

    >>> import zlib
    >>> crc32_combine(zlib.crc32(b"strategy "), zlib.crc32(b"file"), 4) == zlib.crc32(b"strategy file")
    True
    """
    if length2 < 0:
        raise ValueError("crc32_combine: a negative length")
    return _times(_carry(length2), crc1) ^ crc2
