"""crc32_combine: the CRC-32 of a concatenation from its parts', against zlib.crc32 of the concatenation."""
import os
import random
import zlib

import pytest

from analyzer.formats.crc32 import _X_TO_2_TO, _times, crc32_combine


@pytest.mark.parametrize("first, second", [(0, 0), (0, 1), (1, 0), (1, 1), (7, 13), (1000, 4097),
                                           (3, (3 << 20) + 5), ((8 << 20) + 1, 1), (0, 8 << 20)])
def test_combine_is_the_crc_of_the_concatenation(first, second):
    rng = random.Random(first * 31 + second)
    a, b = rng.randbytes(first), rng.randbytes(second)
    assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)


def test_combined_over_many_pieces_in_order():
    rng = random.Random(5)
    pieces = [rng.randbytes(rng.choice([0, 1, rng.randrange(1, 70_000), 1 << 16])) for _ in range(60)]
    crc = 0
    for piece in pieces:
        crc = crc32_combine(crc, zlib.crc32(piece), len(piece))
    assert crc == zlib.crc32(b"".join(pieces))


def test_combine_with_random_crcs_and_zero_bytes():
    # carrying a CRC over n bytes of B is what zlib does feeding B after A, whatever A's CRC was
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randrange(0, 5_000)
        b = os.urandom(n)
        a = rng.randbytes(rng.randrange(1, 40))
        assert crc32_combine(zlib.crc32(a), zlib.crc32(b), n) == zlib.crc32(b, zlib.crc32(a))


def test_the_power_table_wraps_after_32_squarings():
    assert _times(_X_TO_2_TO[31], _X_TO_2_TO[31]) == _X_TO_2_TO[0]


def test_a_negative_length_is_refused():
    with pytest.raises(ValueError):
        crc32_combine(0, 0, -1)
