"""The strategy-file writer: one gzip member of deflate segments, any gzip reader reads it; a column deflated
before (for another file) gives the very bytes deflating it again gives; zlib's CRC-32 and length."""
import gzip
import zlib

import numpy as np
import pytest

from analyzer.formats import strategy_file


@pytest.fixture
def columns():
    """A poker-like table: sorted 6-byte keys (planes), weights, decisions and signed 64-bit EVs."""
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, 1 << 48, 20_500, dtype=np.uint64))[:20_000]
    key_bytes = keys[:, None] >> (np.arange(5, -1, -1, dtype=np.uint64) * np.uint64(8)) & np.uint64(255)
    return {"key": key_bytes.astype(np.uint8), "weight": rng.integers(1, 25, 20_000).astype(np.uint8),
            "decision": rng.integers(0, 3, 20_000).astype(np.uint8),
            "ev": rng.integers(-2**40, 2**40, 20_000).astype("<i8")}


def plain_body(header: dict, columns: dict) -> bytes:
    """The reference: the decompressed stream as docs/strategy-format.md lays it out, written plainly."""
    import json
    described = [{"name": name, "dtype": {1: "u1", 8: "<i8"}[a.itemsize], "width": a.shape[1] if a.ndim == 2 else 1}
                 for name, a in columns.items()]
    full = dict(header, format="tga-strategy", version=1, rows=len(next(iter(columns.values()))), columns=described)
    return (b"TGA-STRATEGY 1\n" + json.dumps(full, sort_keys=True, separators=(",", ":")).encode() + b"\n"
            + b"".join((a.T if a.ndim == 2 else a).tobytes() for a in columns.values()))


def test_a_file_is_one_gzip_member_of_the_documented_bytes(columns):
    data = strategy_file.encode({"game": "test"}, columns, levels={"ev": 1})
    inflater = zlib.decompressobj(31)                                # a reader of a single gzip member
    raw = inflater.decompress(data)
    assert inflater.eof and not inflater.unused_data
    assert raw == gzip.decompress(data) == plain_body({"game": "test"}, columns)
    assert data[-8:] == (zlib.crc32(raw).to_bytes(4, "little") + len(raw).to_bytes(4, "little"))
    header, decoded = strategy_file.decode(data)
    assert header["rows"] == 20_000 and header["version"] == strategy_file.VERSION
    assert all(np.array_equal(decoded[name], array) for name, array in columns.items())


def test_columns_deflated_before_give_the_same_bytes(columns):
    levels = {"ev": 4}
    deflated = {name: strategy_file.deflate(array, levels.get(name, 6)) for name, array in columns.items()
                if name != "decision"}
    assert strategy_file.encode({"game": "test"}, columns, levels, deflated=deflated) == \
        strategy_file.encode({"game": "test"}, columns, levels)
    other = dict(columns, decision=np.zeros(20_000, dtype=np.uint8))
    data = strategy_file.encode({"game": "test"}, other, levels, deflated=deflated)
    assert gzip.decompress(data) == plain_body({"game": "test"}, other)


def test_empty_table(columns):
    empty = {name: array[:0] for name, array in columns.items()}
    data = strategy_file.encode({}, empty)
    header, decoded = strategy_file.decode(data)
    assert header["rows"] == 0 and all(len(a) == 0 for a in decoded.values())
    assert gzip.decompress(data) == plain_body({}, empty)


def test_pack_keys_orders_like_the_key_bytes():
    keys = np.random.default_rng(1).integers(0, 256, (5_000, 6)).astype(np.uint8)
    packed = strategy_file.pack_keys(keys)
    expected = [int.from_bytes(bytes(row), "big") for row in keys.tolist()]
    assert packed.dtype == np.uint64 and packed.tolist() == expected
