"""The strategy-file reader: `inflated` gives the bytes `gzip.decompress` gives, damaged streams refused; `decode`
splits them into columns, keeping the ones asked for."""
import gzip
import json
import zlib

import numpy as np
import pytest

from analyzer.formats import strategy_file
from analyzer.formats.strategy_file import StrategyFileError, inflated


def gunzip(data) -> bytes:
    return b"".join(inflated(data))


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
    assert all(len(piece) <= strategy_file.INFLATED_PIECE for piece in inflated(data))
    assert gunzip(data) == gzip.decompress(data)


@pytest.mark.parametrize("size", [0, 1, 5_000, 300_000])
def test_gunzip_sizes_with_the_default_pieces(size):
    data = gzip.compress(payload(np.random.default_rng(size), size))
    assert gunzip(data) == gzip.decompress(data)


def test_a_trailer_that_claims_the_wrong_size_is_refused_not_trusted(small_pieces):
    data = bytearray(gzip.compress(b"x" * 5_000))
    data[-4:] = (10).to_bytes(4, "little")            # too small: zlib's length check fails
    with pytest.raises(StrategyFileError, match="not a complete gzip stream"):
        gunzip(bytes(data))
    data[-4:] = (2**32 - 1).to_bytes(4, "little")     # absurd: nothing is sized by it, the length check fails
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


def test_decoded_columns_are_read_only():
    columns = {"key": np.arange(12, dtype=np.uint8).reshape(6, 2), "ev": np.arange(6, dtype="<i8") - 3}
    header, decoded = strategy_file.decode(strategy_file.encode({"game": "test"}, columns))
    assert header["rows"] == 6
    assert all(np.array_equal(decoded[name], columns[name]) and not decoded[name].flags.writeable for name in columns)


def table_columns(rows: int) -> dict:
    rng = np.random.default_rng(rows)
    return {"key": rng.integers(0, 52, (rows, 6)).astype(np.uint8), "weight": rng.integers(1, 25, rows).astype(np.uint8),
            "decision": rng.integers(0, 3, rows).astype(np.uint8), "ev": rng.integers(-2**40, 2**40, rows).astype("<i8")}


@pytest.mark.parametrize("rows", [0, 1, 7, 3_000])
@pytest.mark.parametrize("keep", [None, ("key", "decision"), ("ev",), ()])
def test_decode_keeps_the_columns_asked_for(rows, keep, small_pieces):
    """Against the plain reading: the whole stream decompressed, each column cut out of it."""
    columns = table_columns(rows)
    data = strategy_file.encode({"game": "test"}, columns)
    header, decoded = strategy_file.decode(data, columns=keep)
    raw = gzip.decompress(data)
    body = raw[raw.index(b"\n", raw.index(b"\n") + 1) + 1:]
    assert header == json.loads(raw.split(b"\n")[1]) and header["rows"] == rows
    assert set(decoded) == set(columns if keep is None else keep)
    offset = 0
    for name, array in columns.items():
        size = array.nbytes
        plain = np.frombuffer(body[offset:offset + size], dtype=array.dtype)
        offset += size
        if name in decoded:
            expected = plain.reshape(array.shape[1], rows).T if array.ndim == 2 else plain
            assert decoded[name].dtype == array.dtype and not decoded[name].flags.writeable
            assert np.array_equal(decoded[name], expected) and np.array_equal(decoded[name], array)


@pytest.mark.parametrize("rows", [0, 1, 7, 3_000])
@pytest.mark.parametrize("change", [None, "first", "middle", "last", "shape", "dtype"])
def test_a_matching_column_is_the_callers_array_exactly_when_every_byte_agrees(rows, change, small_pieces):
    """Against the plain comparison: the column as decoded, compared whole with the caller's array."""
    columns = table_columns(rows)
    data = strategy_file.encode({"game": "test"}, columns)
    expected = columns["key"].copy()
    if change in ("first", "middle", "last") and rows:
        row = {"first": 0, "middle": rows // 2, "last": rows - 1}[change]
        expected[row, {"first": 0, "middle": 3, "last": 5}[change]] ^= 1
    elif change == "shape":
        expected = expected[:, :5]
    elif change == "dtype":
        expected = expected.astype(np.uint16)
    _, plain = strategy_file.decode(data)
    agrees = plain["key"].shape == expected.shape and plain["key"].dtype == expected.dtype and \
        np.array_equal(plain["key"], expected)
    _, decoded = strategy_file.decode(data, matching={"key": expected})
    assert (decoded["key"] is expected) if agrees else (decoded["key"] is None)
    assert all(np.array_equal(decoded[name], plain[name]) for name in ("weight", "decision", "ev"))
    _, only = strategy_file.decode(data, columns=("decision",), matching={"key": expected})
    assert set(only) == {"decision"}


@pytest.mark.parametrize("rows", [0, 1, 7, 3_000])
@pytest.mark.parametrize("column", ["weight", "ev"])
@pytest.mark.parametrize("change", [None, "first", "high byte", "last", "dtype", "strided"])
def test_a_matching_column_of_one_value_a_row_is_compared_whole(rows, column, change, small_pieces):
    """A one-byte or an int64 column matched as the key column is: the caller's array exactly when it is
    the decoded column, byte for byte (a contiguous array; a strided int64 one is not compared)."""
    columns = table_columns(rows)
    data = strategy_file.encode({"game": "test"}, columns)
    expected = columns[column].copy()
    if change in ("first", "high byte", "last") and rows:
        row = {"first": 0, "high byte": rows // 2, "last": rows - 1}[change]
        expected[row] ^= expected.dtype.type(1 << (8 * (expected.itemsize - 1)) if change == "high byte" else 1)
    elif change == "dtype":
        expected = expected.astype(np.uint16 if column == "weight" else np.int32)
    elif change == "strided":
        expected = np.repeat(expected, 2)[::2]
    _, plain = strategy_file.decode(data)
    agrees = plain[column].dtype == expected.dtype and np.array_equal(plain[column], expected) and \
        (expected.flags.c_contiguous or expected.itemsize == 1)
    _, decoded = strategy_file.decode(data, matching={column: expected, "key": columns["key"]})
    assert (decoded[column] is expected) if agrees else (decoded[column] is None)
    assert decoded["key"] is columns["key"] and np.array_equal(decoded["decision"], plain["decision"])
    assert agrees or change is not None          # the array the column was written from always agrees


def test_a_matching_column_may_be_a_strided_view(small_pieces):
    columns = table_columns(500)
    planes = np.ascontiguousarray(columns["key"].T)           # the layout a decoded key column views
    _, decoded = strategy_file.decode(strategy_file.encode({"game": "test"}, columns), matching={"key": planes.T})
    assert decoded["key"] is not None and decoded["key"].base is planes


def raw_file(text: bytes) -> bytes:
    return gzip.compress(text)


HEAD = b'TGA-STRATEGY 1\n{"format": "tga-strategy", "version": 1, '       # a header that agrees with its magic line


@pytest.mark.parametrize("raw, message", [
    (b"", "not a strategy file"),
    (b"TGA-STRATEGY 1", "no header line"),
    (b"TGA-STRATEGY", "not a strategy file"),
    (b"SOMETHING ELSE\n{}\n", "not a strategy file"),
    (b"TGA-STRATEGY 2\n{}\n", "format version 2"),
    (b"TGA-STRATEGY 1\n{\"rows\": 2", "no header line"),
    (b"TGA-STRATEGY 1\n{not json}\n", "not JSON"),
    (b'TGA-STRATEGY 1\n{"rows": 2, "columns": []}\n', "'format' is missing"),
    (b'TGA-STRATEGY 1\n{"format": "tga-strategy", "version": 2, "rows": 0, "columns": []}\n',
     "'version' is 2, not 1 .the magic line says TGA-STRATEGY 1"),
    (b'TGA-STRATEGY 1\n{"format": "tga-strategy", "version": true, "rows": 0, "columns": []}\n', "'version' is True"),
    (b'TGA-STRATEGY 1\n{"format": "other", "version": 1, "rows": 0, "columns": []}\n', "'format' is 'other'"),
    (HEAD + b'"rows": 2}\n', "'columns'"),
    (HEAD + b'"rows": 2, "columns": [{"name": "a", "dtype": "<i8", "width": 1}]}\n' + bytes(15),
     "truncated in column 'a'"),
    (HEAD + b'"rows": 2, "columns": [{"name": "a", "dtype": "<i8", "width": 1}]}\n' + bytes(17),
     "1 unexpected bytes"),
    (HEAD + b'"rows": 1000000000000, "columns": [{"name": "a", "dtype": "<i8", "width": 1}]}\n',
     "truncated in column 'a'"),                      # a claim no stream of this size holds: nothing allocated
])
def test_damaged_contents_are_refused(raw, message, small_pieces):
    with pytest.raises(StrategyFileError, match=message):
        strategy_file.decode(raw_file(raw))


def test_a_damaged_stream_is_reported_before_its_header():
    data = raw_file(b"TGA-STRATEGY 2\n{}\n" + bytes(100))
    with pytest.raises(StrategyFileError, match="not a complete gzip stream"):
        strategy_file.decode(data[:-4] + bytes(4))        # a wrong length in the trailer
