"""The two strategy-file writers make one format: same decompressed bytes, one gzip member, any reader."""
import gzip
import time
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


def test_compressor_and_encode_hold_the_same_bytes(columns):
    one = strategy_file.encode({"game": "test"}, columns)
    other = strategy_file.Compressor().encode({"game": "test"}, columns, levels={"ev": 1}).result()
    assert gzip.decompress(one) == gzip.decompress(other)
    header, decoded = strategy_file.decode(other)
    assert header["rows"] == 20_000 and header["version"] == strategy_file.VERSION
    assert all(np.array_equal(decoded[name], array) for name, array in columns.items())


def test_a_compressor_file_is_one_gzip_member_in_pieces(columns, monkeypatch):
    monkeypatch.setattr(strategy_file, "PIECE_BYTES", 4096)        # many deflate segments per column
    data = strategy_file.Compressor().encode({"game": "test"}, columns).result()
    inflater = zlib.decompressobj(31)                                # a reader of a single gzip member
    raw = inflater.decompress(data)
    assert inflater.eof and not inflater.unused_data
    assert raw == gzip.decompress(strategy_file.encode({"game": "test"}, columns))


def test_a_shared_column_is_compressed_once(columns):
    compressor = strategy_file.Compressor()
    first = compressor.encode({"game": "test"}, columns)
    other = dict(columns, decision=np.zeros(20_000, dtype=np.uint8))
    second = compressor.encode({"game": "test"}, other)
    assert len(compressor._columns) == len(columns) + 1             # only the new decision column is added
    assert strategy_file.decode(second.result())[1]["decision"].sum() == 0
    assert np.array_equal(strategy_file.decode(first.result())[1]["decision"], columns["decision"])


def test_empty_table(columns):
    empty = {name: array[:0] for name, array in columns.items()}
    header, decoded = strategy_file.decode(strategy_file.Compressor().encode({}, empty).result())
    assert header["rows"] == 0 and all(len(a) == 0 for a in decoded.values())


def test_pack_keys_orders_like_the_key_bytes():
    keys = np.random.default_rng(1).integers(0, 256, (5_000, 6)).astype(np.uint8)
    packed = strategy_file.pack_keys(keys)
    expected = [int.from_bytes(bytes(row), "big") for row in keys.tolist()]
    assert packed.dtype == np.uint64 and packed.tolist() == expected


def test_a_column_is_forgotten_when_its_array_goes(columns):
    # the compressor holds no array: an array's pieces are dropped with it, and a new array that happens
    # to get the dead one's id is compressed afresh, never taken for it
    compressor = strategy_file.Compressor()
    compressor.encode({"game": "test"}, columns).result()
    decision = np.ones(20_000, dtype=np.uint8)
    compressor.encode({"game": "test"}, dict(columns, decision=decision)).result()
    assert len(compressor._columns) == len(columns) + 1
    del decision                                    # (the pool's thread lets go of its last piece just after)
    deadline = time.monotonic() + 30
    while len(compressor._columns) > len(columns) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(compressor._columns) == len(columns)
    for value in range(3):                          # ids of freed arrays are often reused at once
        data = compressor.encode({"game": "test"}, dict(columns, decision=np.full(20_000, value, np.uint8))).result()
        assert (strategy_file.decode(data)[1]["decision"] == value).all()


def test_one_compressor_for_two_tables_gives_each_table_its_own_bytes(columns, monkeypatch):
    monkeypatch.setattr(strategy_file, "PIECE_BYTES", 4096)
    other = dict(columns, ev=columns["ev"][::-1].copy())                 # shares the keys, weights, decisions
    shared = strategy_file.Compressor()
    pending = [shared.encode({"game": "test", "n": n}, table) for n, table in enumerate((columns, other))]
    alone = [strategy_file.Compressor().encode({"game": "test", "n": n}, table).result()
             for n, table in enumerate((columns, other))]
    assert [p.result() for p in pending] == alone


def test_equal_one_byte_pieces_in_other_arrays_are_compressed_once(columns, monkeypatch):
    # rule sets on one count often decide alike, each in an array of its own: such a piece is deflated
    # once, and every file still holds exactly the bytes a compressor of its own writes
    monkeypatch.setattr(strategy_file, "PIECE_BYTES", 4096)
    deflated = []
    real = strategy_file._deflate
    def counted(piece, *args):
        deflated.append(bytes(piece.data() if isinstance(piece, strategy_file._Piece) else piece))
        return real(piece, *args)
    monkeypatch.setattr(strategy_file, "_deflate", counted)
    decisions = np.zeros(20_000, dtype=np.uint8)
    decisions[::7] = 2
    tables = [dict(columns, decision=decisions.copy(), ev=columns["ev"] + n) for n in range(2)]
    shared = strategy_file.Compressor()
    files = [shared.encode({"game": "test", "n": n}, table).result() for n, table in enumerate(tables)]
    pieces = [piece for piece in deflated if piece in {bytes(decisions[i:i + 4096]) for i in range(0, 20_000, 4096)}]
    assert len(pieces) == 5                                       # 20,000 one-byte rows: five pieces, each once
    assert files == [strategy_file.Compressor().encode({"game": "test", "n": n}, table).result()
                     for n, table in enumerate(tables)]


def test_a_piece_that_compresses_poorly_is_not_kept(columns):
    compressor = strategy_file.Compressor()
    noise = np.random.default_rng(3).integers(0, 256, 20_000).astype(np.uint8)
    compressor.encode({}, {"decision": noise}).result()
    compressor.encode({}, {"decision": np.zeros(20_000, dtype=np.uint8)}).result()
    assert len(compressor._by_content) == 1                        # the zeros' piece only
