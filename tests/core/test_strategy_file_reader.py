"""The strategy-file reader's gunzip: the bytes `gzip.decompress` gives, damaged streams refused."""
import gzip
import zlib

import numpy as np
import pytest

from analyzer.core import strategy_file
from analyzer.core.strategy_file import StrategyFileError, gunzip


def payload(rng, size: int) -> bytes:
    """Bytes that compress a little (runs and noise), like a strategy file's columns."""
    runs = rng.integers(0, 4, size, dtype=np.uint8).cumsum(dtype=np.uint8) // 8
    noise = rng.integers(0, 256, size, dtype=np.uint8) * (rng.random(size) < 0.2)
    return (runs + noise).astype(np.uint8).tobytes()


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces far smaller than the streams: every boundary case of the piece loop is crossed."""
    monkeypatch.setattr(strategy_file, "INFLATE_PIECE", 97)
    monkeypatch.setattr(strategy_file, "INFLATED_PIECE", 1000)


@pytest.mark.parametrize("seed", range(6))
def test_gunzip_equals_gzip_decompress_on_random_streams(seed, small_pieces):
    rng = np.random.default_rng(seed)
    members = [gzip.compress(payload(rng, int(rng.integers(0, 20_000))), compresslevel=int(rng.integers(1, 10)))
               for _ in range(int(rng.integers(1, 4)))]
    padding = b"\0" * int(rng.integers(0, 3))
    data = padding.join(members) + padding
    out = gunzip(data)
    assert out.dtype == np.uint8 and not out.flags.writeable
    assert out.tobytes() == gzip.decompress(data)


@pytest.mark.parametrize("size", [0, 1, 5_000, 300_000])
def test_gunzip_sizes_with_the_default_pieces(size):
    data = gzip.compress(payload(np.random.default_rng(size), size))
    assert gunzip(data).tobytes() == gzip.decompress(data)


def test_a_trailer_that_claims_the_wrong_size_is_refused_not_trusted(small_pieces):
    data = bytearray(gzip.compress(b"x" * 5_000))
    data[-4:] = (10).to_bytes(4, "little")            # too small: the buffer grows, then zlib's length check fails
    with pytest.raises(StrategyFileError, match="not a complete gzip stream"):
        gunzip(bytes(data))
    data[-4:] = (2**32 - 1).to_bytes(4, "little")     # absurd: the allocation is bounded, the length check fails
    with pytest.raises(StrategyFileError, match="not a complete gzip stream"):
        gunzip(bytes(data))


@pytest.mark.parametrize("damage", ["truncated", "crc", "garbage after", "not gzip", "empty"])
def test_damaged_streams_are_refused(damage, small_pieces):
    data = gzip.compress(payload(np.random.default_rng(3), 20_000))
    damaged = {"truncated": data[:-30], "crc": data[:-8] + bytes([data[-8] ^ 1]) + data[-7:],
               "garbage after": data + b"junk", "not gzip": zlib.compress(b"abc"), "empty": b""}[damage]
    with pytest.raises(StrategyFileError, match="not a complete gzip stream"):
        gunzip(damaged)
    if damaged:                                               # (gzip.decompress reads no bytes as no members)
        with pytest.raises((OSError, EOFError, zlib.error)):  # gzip.decompress refuses each of them too
            gzip.decompress(damaged)


def test_decoded_columns_are_read_only_views():
    columns = {"key": np.arange(12, dtype=np.uint8).reshape(6, 2), "ev": np.arange(6, dtype="<i8") - 3}
    header, decoded = strategy_file.decode(strategy_file.encode({"game": "test"}, columns))
    assert header["rows"] == 6
    assert all(np.array_equal(decoded[name], columns[name]) and not decoded[name].flags.writeable for name in columns)
