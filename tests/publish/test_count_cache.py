"""The count cache: exact round trips, identical bytes, damage never trusted, bounded, atomic."""
import hashlib
import json
import os
import tracemalloc
import zlib
from fractions import Fraction

import numpy as np
import pytest
from isal import isal_zlib

from analyzer.publish import count_cache
from analyzer.publish.count_cache import cache_key, expand_reference, load, store, unshuffle_reference
from cython_ext.byte_planes import expand_into, unshuffle_into


def sample_arrays(seed: int = 0, rows: int = 5000) -> dict:
    rng = np.random.default_rng(seed)
    keys = np.sort(rng.integers(0, 52, size=(rows, 5), dtype=np.uint8), axis=0)
    counts = np.where(rng.random((rows, 10, 4)) < 0.5, 0,
                      np.minimum(rng.lognormal(8, 2.5, (rows, 10, 4)), 1_070_190)).astype(np.uint32)
    return {"keys": keys, "counts": counts, "weights": rng.integers(1, 25, rows).astype(np.int64),
            "signed": rng.integers(-2**63, 2**63 - 1, size=(7, 3), dtype=np.int64, endpoint=True),
            "small": np.arange(-5, 5, dtype=np.int16)[::-1],            # not contiguous
            "wide": (rng.integers(0, 2**63, 40, dtype=np.uint64) * 2).astype(np.uint64),
            "flags": rng.random(33) < 0.3, "big_endian": np.arange(9, dtype=">u4").reshape(3, 3),
            "empty": np.zeros((0, 40), dtype=np.uint32), "scalar": np.array(7, dtype=np.int32)}


KEY = cache_key("demo", {"deck": tuple(range(52)), "qualifier": Fraction(1, 2)}, "1")


def assert_same(back: dict, arrays: dict) -> None:
    assert sorted(back) == sorted(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and back[name].shape == array.shape, name
        assert np.array_equal(back[name], array), name
        assert back[name].flags.writeable and back[name].flags.c_contiguous


def stored_file(folder):
    files = count_cache.cache_files(folder)
    assert len(files) == 1
    return files[0]


# --- keys ----------------------------------------------------------------------------------

def test_cache_key_is_canonical_and_exact():
    base = cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "4")
    assert base == cache_key("holdem", {"rules": {"a": [2, 3], "b": 1}, "ratio": Fraction(6, 4), "deck": (0, 1, 2)}, "4")
    assert len(base) == 64 and int(base, 16) >= 0
    assert base != cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "5")
    assert base != cache_key("stud", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "4")
    assert base != cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2) + Fraction(1, 10**30),
                                        "rules": {"b": 1, "a": (2, 3)}}, "4")
    with pytest.raises(TypeError):
        cache_key("holdem", {"ratio": 1.5}, "1")
    with pytest.raises(TypeError):
        cache_key("holdem", {1: "no"}, "1")


# --- round trips and identical bytes -------------------------------------------------------

def test_round_trip(tmp_path):
    arrays = sample_arrays()
    meta = {"kind": "demo", "rows": 5000, "ratio": Fraction(1, 3), "note": "café"}
    path = store(tmp_path, KEY, arrays, meta)
    assert path.name == f"demo-{KEY[:16]}.tgacache" and path.exists()
    back, back_meta = load(tmp_path, KEY)
    assert_same(back, arrays)
    assert back_meta == {"kind": "demo", "rows": 5000, "ratio": "1/3", "note": "café"}
    assert load(tmp_path, cache_key("demo", {}, "1")) is None           # another key: absent


@pytest.mark.parametrize("kernels", [(unshuffle_reference, expand_reference), (unshuffle_into, expand_into)],
                         ids=["reference", "compiled"])
@pytest.mark.parametrize("threads", [1, 3])
def test_many_blocks_round_trip(tmp_path, monkeypatch, threads, kernels):
    monkeypatch.setattr(count_cache, "BLOCK_BYTES", 4096)               # many blocks, odd last block
    arrays = sample_arrays(1)
    path = store(tmp_path, KEY, arrays, {"kind": "demo"}, threads=threads)
    header = json.loads(path.read_bytes().split(b"\n")[1])
    assert max(len(a["blocks"]) for a in header["arrays"]) > 100
    layouts = {b["layout"] for a in header["arrays"] for b in a["blocks"]}
    codecs = {codec for a in header["arrays"] for b in a["blocks"] for codec, _ in b["streams"]}
    assert layouts == {"planes", "sparse"} and codecs == {"raw", "zlib"}     # every path is taken
    back, _ = load(tmp_path, KEY, threads=threads, unshuffle=kernels[0], expand=kernels[1])
    assert_same(back, arrays)


def test_without_the_shuffle_every_block_is_its_bytes(tmp_path):
    arrays = sample_arrays(2)
    path = store(tmp_path, KEY, arrays, {"kind": "demo"}, shuffle=False)
    header = json.loads(path.read_bytes().split(b"\n")[1])
    assert {b["layout"] for a in header["arrays"] for b in a["blocks"]} == {"raw"}
    assert_same(load(tmp_path, KEY, unshuffle=unshuffle_into, expand=expand_into)[0], arrays)


def test_layouts_and_codecs_are_chosen_by_size(tmp_path):
    """Mostly zero items: sparse; no zero item: planes.  A stream zlib makes 4x smaller is deflated, one it
    shrinks less (random bytes) is stored as it is."""
    rng = np.random.default_rng(4)
    noisy = rng.integers(1, 2**32, 50_000, dtype=np.uint64).astype(np.uint32)       # no zero item
    arrays = {"mostly_zero": np.where(rng.random(50_000) < 0.7, 0, noisy), "noisy": noisy,
              "runs": np.repeat(np.arange(50, dtype=np.uint32), 1000)}
    path = store(tmp_path, KEY, arrays, {})
    blocks = {a["name"]: a["blocks"][0] for a in json.loads(path.read_bytes().split(b"\n")[1])["arrays"]}
    assert blocks["mostly_zero"]["layout"] == "sparse" and blocks["noisy"]["layout"] == "planes"
    assert blocks["mostly_zero"]["nonzero"] == int(np.count_nonzero(arrays["mostly_zero"]))
    assert [codec for codec, _ in blocks["noisy"]["streams"]] == ["raw"] * 4
    assert blocks["runs"]["layout"] == "planes" and [c for c, _ in blocks["runs"]["streams"]] == ["zlib"]
    assert_same(load(tmp_path, KEY, unshuffle=unshuffle_into, expand=expand_into)[0], arrays)


def encoded_reference(block: np.ndarray, itemsize: int, level: int) -> tuple[dict, list]:
    """A block's encoding as the store first made it: the nonzero items picked by boolean indexing of the
    (n, itemsize) bytes, the planes transposed from them, and every whole stream deflated (kept when 4x
    smaller).  Each deflated stream must be a plain zlib stream: zlib itself inflates it to the plane."""
    words = block.view(f"<u{itemsize}")
    kept = (int(np.bitwise_or.reduce(words)).bit_length() + 7) // 8 if words.size else 0
    nonzero, items = words != 0, block.reshape(-1, itemsize)
    stored = int(nonzero.sum())
    if (len(items) - stored) * kept > -(-len(items) // 8):
        layout = {"layout": "sparse", "planes": kept, "nonzero": stored}
        streams = [np.packbits(nonzero, bitorder="little"), *items[nonzero][:, :kept].T]
    else:
        layout, streams = {"layout": "planes", "planes": kept}, list(items[:, :kept].T)
    stored_streams = []
    for data in streams:
        data = np.ascontiguousarray(data).tobytes()
        packed = isal_zlib.compress(data, level)
        assert zlib.decompress(packed) == data
        stored_streams.append(("zlib", packed) if len(packed) * 4 <= len(data) else ("raw", data))
    digest = hashlib.sha256(b"".join(data for _, data in stored_streams)).hexdigest()
    return ({**layout, "streams": [[codec, len(data)] for codec, data in stored_streams], "sha256": digest},
            [data for _, data in stored_streams])


@pytest.mark.parametrize("itemsize", [1, 2, 4, 8])
def test_encoding_matches_the_reference(itemsize):
    """Every layout, codec and byte as the plain encoding gives them, on blocks whose bytes look alike
    throughout (where a sample of a stream shrinks as the whole does): empty, one item, all zero, mostly
    zero, counts, random, sorted runs, values at the top of the range."""
    rng = np.random.default_rng(100 + itemsize)
    top = 2 ** (8 * itemsize)
    for items in (0, 1, 7, 4096, 100_003, 300_000):
        random = rng.integers(0, top, size=items, dtype=np.uint64, endpoint=False) if itemsize < 8 \
            else rng.integers(0, 2**64, size=items, dtype=np.uint64, endpoint=False)
        counts = np.minimum(rng.lognormal(8, 2.5, items), top - 1).astype(np.uint64)
        for words in (np.zeros(items, np.uint64), random, counts, np.sort(random),
                      np.where(rng.random(items) < 0.97, 0, counts), np.where(rng.random(items) < 0.56, 0, counts),
                      np.where(rng.random(items) < 0.5, 0, random), np.full(items, top - 1, np.uint64)):
            block = words.astype(f"<u{itemsize}").view(np.uint8)
            expected = encoded_reference(block, itemsize, count_cache.DEFAULT_LEVEL)
            description, streams = count_cache._encoded(block, itemsize, count_cache.DEFAULT_LEVEL, True)
            assert description == expected[0], (itemsize, items)
            assert [bytes(data) for data in streams] == expected[1], (itemsize, items)


def test_zlib_is_tried_whole_only_where_a_sample_shrinks(monkeypatch):
    """A near-random stream costs one compression of its 64 KiB sample and is stored as it is; a stream whose
    sample shrinks is compressed whole; a short one is compressed once, whole.  The sample decides: a stream
    random only where the sample lies is stored raw though zlib would make it 4x smaller (a larger file,
    the same bytes back)."""
    calls = []
    compress = isal_zlib.compress
    monkeypatch.setattr(count_cache.isal_zlib, "compress",
                        lambda data, level: calls.append(len(data)) or compress(data, level))
    rng = np.random.default_rng(5)
    sample_bytes = count_cache.SAMPLE_PIECES * count_cache.SAMPLE_PIECE_BYTES
    random = rng.integers(0, 256, 1 << 20, dtype=np.uint8)
    codec, stored = count_cache._stream(random, 3)
    assert codec == "raw" and stored is random and calls == [sample_bytes]
    calls.clear()
    zeros = np.zeros(1 << 20, np.uint8)
    codec, packed = count_cache._stream(zeros, 3)
    assert codec == "zlib" and zlib.decompress(packed) == zeros.tobytes() and calls == [sample_bytes, 1 << 20]
    calls.clear()
    short = np.zeros(sample_bytes, np.uint8)
    assert count_cache._stream(short, 3)[0] == "zlib" and calls == [sample_bytes]
    decoy = np.zeros(1 << 20, np.uint8)
    step = decoy.size // count_cache.SAMPLE_PIECES
    for at in range(0, decoy.size, step):
        decoy[at:at + count_cache.SAMPLE_PIECE_BYTES] = rng.integers(0, 256, count_cache.SAMPLE_PIECE_BYTES)
    assert len(compress(decoy, 3)) * count_cache.ZLIB_SHRINKS <= decoy.size
    assert count_cache._stream(decoy, 3)[0] == "raw"


@pytest.mark.parametrize("itemsize", [1, 2, 3, 4, 8, 16])
def test_compiled_unshuffle_matches_the_reference(itemsize):
    """On random blocks of every item size and every number of stored planes (the rest zero)."""
    rng = np.random.default_rng(itemsize)
    for items in (0, 1, 7, 4096, 100_003):
        for planes in range(itemsize + 1):
            source = rng.integers(0, 256, size=items * planes, dtype=np.uint8)
            source[: source.size // 3] = 0                                # runs of zeros, as in real counts
            expected = np.zeros((items, itemsize), dtype=np.uint8)          # the definition itself
            expected[:, :planes] = source.reshape(planes, items).T
            expected = expected.reshape(-1)
            if itemsize in (1, 2, 4, 8):                                  # the reference works on words
                reference = np.full(expected.size, 0xAB, dtype=np.uint8)
                unshuffle_reference(reference, source, itemsize)
                assert np.array_equal(reference, expected)
            got = np.full(expected.size, 0xCD, dtype=np.uint8)
            unshuffle_into(got, source, itemsize)
            assert np.array_equal(got, expected), (itemsize, items, planes)
            stored = count_cache._planes(got.reshape(-1, itemsize), planes)
            assert np.array_equal(np.concatenate([np.empty(0, np.uint8), *stored]), source)   # it inverts the planes
            if itemsize in (1, 2, 4, 8):
                assert count_cache._kept_planes(got.view(f"<u{itemsize}")) <= planes
    with pytest.raises(ValueError):
        unshuffle_into(np.empty(8, np.uint8), np.empty(6, np.uint8), 2)
    with pytest.raises(ValueError):
        unshuffle_into(np.empty(9, np.uint8), np.empty(9, np.uint8), 2)
    with pytest.raises(ValueError):
        unshuffle_into(np.empty(8, np.uint8), np.empty(10, np.uint8), 2)     # more planes than bytes per item
    with pytest.raises(ValueError):
        unshuffle_into(np.empty(0, np.uint8), np.empty(1, np.uint8), 2)


@pytest.mark.parametrize("itemsize", [1, 2, 3, 4, 8, 16])
def test_compiled_expand_matches_the_reference(itemsize):
    """On random sparse blocks of every item size, number of stored planes and share of zero items."""
    rng = np.random.default_rng(100 + itemsize)
    for items in (0, 1, 7, 8, 9, 4096, 100_003):
        for planes in range(itemsize + 1):
            for zeros in (0.0, 0.6, 1.0):
                nonzero = rng.random(items) >= zeros
                stored = int(nonzero.sum())
                bitmap = np.packbits(nonzero, bitorder="little")
                source = rng.integers(0, 256, size=stored * planes, dtype=np.uint8)
                expected = np.zeros((items, itemsize), dtype=np.uint8)        # the definition itself
                expected[nonzero, :planes] = source.reshape(planes, stored).T
                expected = expected.reshape(-1)
                for expand in (expand_reference, expand_into):
                    got = np.full(expected.size, 0xCD, dtype=np.uint8)
                    assert expand(got, bitmap, source, itemsize) == stored
                    assert np.array_equal(got, expected), (expand, itemsize, items, planes, zeros)


@pytest.mark.parametrize("expand", [expand_reference, expand_into], ids=["reference", "compiled"])
def test_expand_refuses_blocks_that_do_not_fit(expand):
    out = np.empty(32, np.uint8)                                                  # 16 items of 2 bytes
    for bitmap, source in [(np.array([1], np.uint8), np.empty(1, np.uint8)),       # 1 bitmap byte for 16 items
                           (np.array([3, 0], np.uint8), np.empty(3, np.uint8)),    # 3 bytes for 2 items
                           (np.array([3, 0], np.uint8), np.empty(6, np.uint8)),    # 3 planes of 2-byte items
                           (np.array([0, 0], np.uint8), np.empty(2, np.uint8))]:   # bytes, no stored item
        with pytest.raises(ValueError):
            expand(out, bitmap, source, 2)
    with pytest.raises(ValueError):
        expand(np.empty(10, np.uint8), np.array([0b100000], np.uint8), np.empty(1, np.uint8), 2)  # past item 5


def test_identical_inputs_give_identical_bytes(tmp_path):
    first = store(tmp_path / "a", KEY, sample_arrays(2), {"kind": "demo", "x": [1, 2]}).read_bytes()
    again = store(tmp_path / "b", KEY, sample_arrays(2), {"x": (1, 2), "kind": "demo"}, threads=1).read_bytes()
    assert first == again
    assert first.startswith(b"TGACACHE 3\n")


def test_empty_set_and_refused_dtypes(tmp_path):
    store(tmp_path, KEY, {}, {})
    assert load(tmp_path, KEY) == ({}, {})
    with pytest.raises(TypeError):
        store(tmp_path, KEY, {"x": np.zeros(3, dtype=np.float64)}, {})
    with pytest.raises(TypeError):
        store(tmp_path, KEY, {"x": np.array([1, 2], dtype=object)}, {})
    with pytest.raises(ValueError):
        store(tmp_path, "not-a-key", {}, {})


def test_every_isal_level_round_trips_and_no_other_is_taken(tmp_path):
    arrays = sample_arrays(10)
    sizes = []
    for level in range(4):
        path = store(tmp_path / str(level), KEY, arrays, {}, level=np.int64(level) if level == 1 else level)
        assert json.loads(path.read_bytes().split(b"\n")[1])["level"] == level
        assert_same(load(tmp_path / str(level), KEY)[0], arrays)
        sizes.append(path.stat().st_size)
    assert len(set(sizes)) > 1                                              # the level is used
    for level in (-1, 4, 9, True, 2.0, "2"):
        with pytest.raises(ValueError, match="ISA-L level"):
            store(tmp_path / "refused", KEY, arrays, {}, level=level)
    assert count_cache.cache_files(tmp_path / "refused") == []


def test_files_deflated_by_zlib_still_load(tmp_path, monkeypatch):
    """The streams of files written before the store used ISA-L are zlib's: a zlib stream whoever wrote it,
    read by the same format (3), so they load to the same arrays."""
    arrays = sample_arrays(11)
    ours = store(tmp_path / "isal", KEY, arrays, {}).read_bytes()
    monkeypatch.setattr(count_cache.isal_zlib, "compress", lambda data, level: zlib.compress(data, 3))
    theirs = store(tmp_path / "zlib", KEY, arrays, {}).read_bytes()
    monkeypatch.undo()
    assert theirs != ours and theirs.startswith(b"TGACACHE 3\n")
    for unshuffle, expand in ((unshuffle_reference, expand_reference), (unshuffle_into, expand_into)):
        assert_same(load(tmp_path / "zlib", KEY, unshuffle=unshuffle, expand=expand)[0], arrays)


# --- damage is detected, never trusted -----------------------------------------------------

def damaged(tmp_path, capsys, change, reason: str = "") -> None:
    """Store, damage the file with `change(bytes) -> bytes`, expect None, a warning (naming `reason`) and no file."""
    arrays = sample_arrays(3)
    path = store(tmp_path, KEY, arrays, {"kind": "demo"})
    path.write_bytes(change(path.read_bytes()))
    capsys.readouterr()
    assert load(tmp_path, KEY) is None
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1 and "count_cache" in warning and path.name in warning and reason in warning
    assert not path.exists()
    assert load(tmp_path, KEY) is None                 # now simply absent: no second warning
    assert capsys.readouterr().err == ""


def flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]


def test_flipped_byte_in_the_middle(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: flip(data, len(data) // 2))


def test_flipped_byte_in_the_last_block(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: flip(data, len(data) - 3))


def test_flipped_byte_in_the_header(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: flip(data, data.index(b'"shape"') + 2))


def test_changed_meta_in_the_header(tmp_path, capsys):
    # only the header's own sha256 covers the caller's meta
    damaged(tmp_path, capsys, lambda data: data.replace(b'"kind":"demo"', b'"kind":"dema"', 1))


def test_truncated_file(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: data[:len(data) - 100])


def test_an_empty_file(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: b"")


def test_truncated_inside_the_header(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: data[:40])


def test_extra_bytes_after_the_last_block(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: data + b"\0")


def test_other_format_version(tmp_path, capsys):
    damaged(tmp_path, capsys, lambda data: data.replace(b"TGACACHE 3\n", b"TGACACHE 4\n", 1))


def rewritten(data: bytes, change) -> bytes:
    """The file with its header changed by `change(fields)` and made self-consistent again (a new header_sha256)."""
    magic, header, rest = data.split(b"\n", 2)
    fields = json.loads(header)
    rest = change(fields, rest) or rest
    fields["header_sha256"] = count_cache._header_digest(fields)
    return magic + b"\n" + count_cache._dumps(fields).encode() + b"\n" + rest


def test_an_old_format_file_is_a_miss(tmp_path, capsys):
    """A format-2 file (one deflated stream per block, one digest per array) is recounted, never read as this
    format."""
    def old(fields, rest):
        fields["format"] = 2
        for array in fields["arrays"]:
            array["filter"] = "shuffle"
            array["planes"] = [block["planes"] for block in array["blocks"]]
            array["blocks"] = [sum(length for _, length in block["streams"]) for block in array["blocks"]]
            array["blocks_sha256"] = "0" * 64
    damaged(tmp_path, capsys, lambda data: rewritten(data, old).replace(b"TGACACHE 3\n", b"TGACACHE 2\n", 1))
    damaged(tmp_path, capsys, lambda data: rewritten(data, old))          # the magic line says 3, the header 2


def stream_of(fields, name, codec):
    """(array, block, stream index, offset in the blocks' bytes) of the first `codec` stream of array `name`."""
    offset = 0
    for array in fields["arrays"]:
        for block in array["blocks"]:
            for index, (kind, length) in enumerate(block["streams"]):
                if array["name"] == name and kind == codec:
                    return array, block, index, offset
                offset += length


def block_start(fields, wanted) -> int:
    """Offset of a block's first stream in the blocks' bytes."""
    offset = 0
    for array in fields["arrays"]:
        for block in array["blocks"]:
            if block is wanted:
                return offset
            offset += sum(length for _, length in block["streams"])


def test_a_valid_stream_of_other_content_fails_the_digest(tmp_path, capsys):
    def swap(fields, rest):
        _, block, index, at = stream_of(fields, "keys", "zlib")
        length = block["streams"][index][1]
        other = zlib.compress(bytes(len(zlib.decompress(rest[at:at + length]))), count_cache.DEFAULT_LEVEL)
        block["streams"][index][1] = len(other)
        return rest[:at] + other + rest[at + length:]
    damaged(tmp_path, capsys, lambda data: rewritten(data, swap))


@pytest.mark.parametrize("change", [
    lambda stream: stream + b"\0",                                                 # a byte after the stream
    lambda stream: stream + stream,                                                # a second stream after it
    lambda stream: stream[:-1],                                                    # its end cut off
    lambda stream: stream[:-1] + bytes([stream[-1] ^ 1]),                          # its adler32 wrong
    lambda stream: stream[:len(stream) // 2] + bytes([stream[len(stream) // 2] ^ 0x10]) + stream[len(stream) // 2 + 1:],
    lambda stream: isal_zlib.compress(zlib.decompress(stream) + b"\0", 2),          # one byte too many
    lambda stream: zlib.compress(zlib.decompress(stream)[:-1], 6),                  # one byte too few
    lambda stream: isal_zlib.compress(zlib.decompress(stream), 2, wbits=-15),       # bare deflate, no zlib wrapper
    lambda stream: isal_zlib.compress(zlib.decompress(stream), 2, wbits=31),        # a gzip member
], ids=["trailing byte", "two streams", "truncated", "adler32", "flipped bit", "longer", "shorter", "bare deflate",
        "gzip"])
def test_a_bad_deflated_stream_is_refused_even_with_a_matching_digest(tmp_path, capsys, change):
    """Whatever the inflater finds wrong (ISA-L's errors are not zlib's), or a stream that does not inflate
    to exactly its length, with the block's sha256 made to match: refused by the inflating."""
    def replace(fields, rest):
        _, block, index, at = stream_of(fields, "counts", "zlib")
        length = block["streams"][index][1]
        other = change(rest[at:at + length])
        rest = rest[:at] + other + rest[at + length:]
        block["streams"][index][1] = len(other)
        start = block_start(fields, block)
        block["sha256"] = hashlib.sha256(rest[start:start + sum(n for _, n in block["streams"])]).hexdigest()
        return rest
    damaged(tmp_path, capsys, lambda data: rewritten(data, replace), reason="decompress")


@pytest.mark.parametrize("expand", [expand_reference, expand_into], ids=["reference", "compiled"])
def test_a_sparse_block_whose_bitmap_disagrees_with_its_count_is_refused(tmp_path, capsys, expand):
    """A consistent header and digest whose sparse block claims its 3 planes of k items to be 1 plane of 3k
    items: the bytes expand (3k bytes are 3 planes of the k items the bitmap sets), but the count of
    nonzero items does not match the bitmap's: refused."""
    rng = np.random.default_rng(8)
    values = np.where(rng.random(4000) < 0.8, 0, rng.integers(1, 2**24, 4000)).astype(np.uint32)
    path = store(tmp_path, KEY, {"counts": values}, {})
    magic, header, rest = path.read_bytes().split(b"\n", 2)
    fields = json.loads(header)
    block = fields["arrays"][0]["blocks"][0]
    assert block["layout"] == "sparse" and block["planes"] == 3
    streams, at = [], 0
    for codec, length in block["streams"]:                   # the bitmap, then the three planes
        streams.append(zlib.decompress(rest[at:at + length]) if codec == "zlib" else rest[at:at + length])
        at += length
    (bitmap_codec, bitmap_length), k = block["streams"][0], block["nonzero"]
    body = rest[:bitmap_length] + b"".join(streams[1:])
    block.update(planes=1, nonzero=3 * k, streams=[[bitmap_codec, bitmap_length], ["raw", 3 * k]],
                 sha256=hashlib.sha256(body).hexdigest())
    fields["header_sha256"] = count_cache._header_digest(fields)
    path.write_bytes(magic + b"\n" + count_cache._dumps(fields).encode() + b"\n" + body)
    capsys.readouterr()
    assert load(tmp_path, KEY, expand=expand) is None
    assert "does not match its count of nonzero items" in capsys.readouterr().err and not path.exists()


@pytest.mark.parametrize("planes", [0, 4, 5])
def test_a_header_that_lies_about_the_stored_planes(tmp_path, capsys, planes):
    def lie(fields, rest):
        counts = next(a for a in fields["arrays"] if a["name"] == "counts")
        assert counts["blocks"][0]["planes"] == 3                         # counts < 2**24: the top plane is zero
        counts["blocks"][0]["planes"] = planes
    damaged(tmp_path, capsys, lambda data: rewritten(data, lie))


def test_a_raw_stream_of_the_wrong_length_is_refused(tmp_path, capsys):
    def lie(fields, rest):
        _, block, index, _ = stream_of(fields, "counts", "raw")
        block["streams"][index][1] -= 1
    damaged(tmp_path, capsys, lambda data: rewritten(data, lie))


def test_all_zero_planes_are_not_stored(tmp_path):
    arrays = {"zeros": np.zeros((300, 7), dtype=np.uint32), "small": np.arange(1000, dtype=np.int64),
              "negative": -np.arange(1000, dtype=np.int64), "wide": np.full(5, 2**63, dtype=np.uint64),
              "big_endian": np.arange(9, dtype=">u4")}
    path = store(tmp_path, KEY, arrays, {})
    header = json.loads(path.read_bytes().split(b"\n")[1])
    planes = {a["name"]: [b["planes"] for b in a["blocks"]] for a in header["arrays"]}
    assert planes == {"zeros": [0], "small": [2], "negative": [8], "wide": [8], "big_endian": [4]}
    for unshuffle, expand in ((unshuffle_reference, expand_reference), (unshuffle_into, expand_into)):
        assert_same(load(tmp_path, KEY, unshuffle=unshuffle, expand=expand)[0], arrays)


def test_header_that_lies_about_a_sha256(tmp_path, capsys):
    def lie(data: bytes) -> bytes:
        magic, header, rest = data.split(b"\n", 2)
        fields = json.loads(header)
        fields["arrays"][0]["blocks"][0]["sha256"] = "0" * 64
        fields["header_sha256"] = count_cache._header_digest(fields)   # a consistent header, wrong data hash
        return magic + b"\n" + count_cache._dumps(fields).encode() + b"\n" + rest
    damaged(tmp_path, capsys, lie)


def test_header_that_lies_about_a_shape(tmp_path, capsys):
    def lie(data: bytes) -> bytes:
        magic, header, rest = data.split(b"\n", 2)
        fields = json.loads(header)
        counts = next(a for a in fields["arrays"] if a["name"] == "counts")
        counts["shape"] = [counts["shape"][0] // 2, 20, 4]                # same bytes, other shape
        fields["header_sha256"] = count_cache._header_digest(fields)
        return magic + b"\n" + count_cache._dumps(fields).encode() + b"\n" + rest
    arrays = sample_arrays(3)
    path = store(tmp_path, KEY, arrays, {"kind": "demo"})
    path.write_bytes(lie(path.read_bytes()))
    back = load(tmp_path, KEY)        # the header is self-consistent and the bytes match: loads as described
    assert back is not None and back[0]["counts"].shape == (2500, 20, 4)
    assert np.array_equal(back[0]["counts"].reshape(-1), arrays["counts"].reshape(-1))


def test_another_key_with_the_same_prefix_is_not_ours(tmp_path, capsys):
    path = store(tmp_path, KEY, sample_arrays(4), {"kind": "demo"})
    other = KEY[:16] + ("0" if KEY[16] != "0" else "1") + KEY[17:]
    assert load(tmp_path, other) is None
    assert path.exists() and capsys.readouterr().err == ""


# --- bounded size --------------------------------------------------------------------------

def test_eviction_keeps_the_folder_bounded_and_the_most_recent(tmp_path):
    rng = np.random.default_rng(5)
    keys = [cache_key("demo", {"n": n}, "1") for n in range(6)]
    payload = lambda: {"noise": rng.integers(0, 2**32, 20_000, dtype=np.uint32)}  # ~80 kB, incompressible
    size = store(tmp_path, keys[0], payload(), {"kind": "demo"}).stat().st_size
    bound = int(3.5 * size)                                            # room for three files

    def age(n):                       # distinct old mtimes, in storing order (a load touches with now)
        for path in tmp_path.glob(f"*-{keys[n][:16]}.tgacache"):
            os.utime(path, ns=(10**18 + n * 10**9,) * 2)

    age(0)
    for n in range(1, 6):
        if n == 4:
            assert load(tmp_path, keys[1]) is not None                  # reading makes keys[1] recent
        store(tmp_path, keys[n], payload(), {"kind": "demo"}, max_bytes=bound)
        assert sum(path.stat().st_size for path in count_cache.cache_files(tmp_path)) <= bound
        assert count_cache.cache_files(tmp_path)[0].exists()
        assert any(path.name.endswith(f"-{keys[n][:16]}.tgacache") for path in count_cache.cache_files(tmp_path))
        age(n)
    kept = {path.name.split("-")[1].split(".")[0] for path in count_cache.cache_files(tmp_path)}
    assert kept == {keys[1][:16], keys[4][:16], keys[5][:16]}          # 0, 2, 3 were least recently used


def test_a_file_larger_than_the_bound_is_not_kept(tmp_path, capsys):
    assert store(tmp_path, KEY, sample_arrays(6), {"kind": "demo"}, max_bytes=1000) is None
    assert list(tmp_path.iterdir()) == [] and "exceed" in capsys.readouterr().err        # no temporary file left


def test_the_streams_are_written_as_encoded_not_all_held(tmp_path):
    """Storing 64 MiB of incompressible blocks holds a few blocks' streams at a time, not the whole file's."""
    values = np.random.default_rng(5).integers(0, 2**63, 8 << 20, dtype=np.int64)
    tracemalloc.start()
    try:
        path = store(tmp_path, KEY, {"values": values}, {"kind": "demo"}, threads=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert path.stat().st_size > values.nbytes
    assert peak < values.nbytes // 2, peak
    assert np.array_equal(load(tmp_path, KEY)[0]["values"], values)


# --- atomic writes -------------------------------------------------------------------------

def test_a_failure_mid_write_leaves_no_partial_file(tmp_path, monkeypatch):
    arrays = sample_arrays(7)
    good = store(tmp_path, KEY, arrays, {"kind": "demo"})
    before = good.read_bytes()
    seen = []

    class FillsUp:
        """The temporary file, on a disk that is full after 100 kB."""
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *problem):
            self.handle.close()

        def write(self, data):
            if self.handle.tell() + len(memoryview(data).cast("B")) > 100_000:
                self.handle.flush()
                seen.extend((p.name, p.stat().st_size) for p in tmp_path.iterdir())
                raise OSError("disk full")
            return self.handle.write(data)

        def __getattr__(self, name):
            return getattr(self.handle, name)

    monkeypatch.setattr(count_cache, "open", lambda *args: FillsUp(open(*args)), raising=False)
    with pytest.raises(OSError, match="disk full"):
        store(tmp_path, KEY, sample_arrays(8), {"kind": "demo"})
    assert [size for name, size in seen if name.endswith(".partial")][0] > 0      # streams were written into it
    assert [p.name for p in tmp_path.iterdir()] == [good.name]            # and removed; the old file intact
    assert good.read_bytes() == before
    monkeypatch.undo()
    assert_same(load(tmp_path, KEY)[0], arrays)


def test_a_header_longer_than_its_room_is_never_written_over_the_streams(tmp_path, monkeypatch):
    good = store(tmp_path, KEY, sample_arrays(7), {"kind": "demo"})
    before = good.read_bytes()
    monkeypatch.setattr(count_cache, "_head_room", lambda *args: 100)
    with pytest.raises(RuntimeError, match="were kept for it"):
        store(tmp_path, KEY, sample_arrays(8), {"kind": "demo"})
    assert [p.name for p in tmp_path.iterdir()] == [good.name] and good.read_bytes() == before


@pytest.mark.parametrize("block_bytes", [8, 64, 4096])
def test_the_header_fits_its_room_and_the_streams_follow_it(tmp_path, monkeypatch, block_bytes):
    """Tiny blocks of every item size (the header's widest case: its numbers as long as the blocks'): the
    header, canonical JSON padded to the room kept for it with spaces, is followed by the streams."""
    monkeypatch.setattr(count_cache, "BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(block_bytes)
    arrays = {}
    for itemsize in (1, 2, 4, 8):
        values = rng.integers(0, 2 ** (8 * itemsize) - 1, 600, dtype=np.uint64, endpoint=True)
        arrays[f"random{itemsize}"] = values.astype(f"<u{itemsize}")
        arrays[f"sparse{itemsize}"] = np.where(rng.random(600) < 0.9, 0, values).astype(f"<u{itemsize}")
        arrays[f"runs{itemsize}"] = np.repeat(values[:6], 100).astype(f"<u{itemsize}")
    path = store(tmp_path, KEY, arrays, {"kind": "demo"})
    data = path.read_bytes()
    magic, header, rest = data.split(b"\n", 2)
    fields = json.loads(header)
    assert header == count_cache._dumps(fields).encode() and set(fields["pad"]) <= {" "}
    assert len(rest) == sum(length for a in fields["arrays"] for b in a["blocks"] for _, length in b["streams"])
    assert len(magic) + len(header) + 2 == count_cache._head_room(
        {name: fields[name] for name in ("format", "key", "meta", "level", "block_bytes")},
        [(name, arrays[name], arrays[name].view(np.uint8)) for name in sorted(arrays)], block_bytes)
    assert_same(load(tmp_path, KEY, unshuffle=unshuffle_into, expand=expand_into)[0], arrays)


def test_a_failure_at_fsync_leaves_no_file(tmp_path, monkeypatch):
    def fail(fd):
        raise OSError("fsync failed")
    monkeypatch.setattr(count_cache.os, "fsync", fail)
    with pytest.raises(OSError, match="fsync failed"):
        store(tmp_path, KEY, sample_arrays(9), {"kind": "demo"})
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []
    assert load(tmp_path, KEY) is None
