"""A verified, compressed, size-bounded on-disk cache of paytable-free integer arrays.

The expensive enumerations (Casino Hold'em's 1.29 million x 40 continuation counts,
Caribbean Stud's 5.6 million situation classes) produce integer arrays that do not depend
on the paytable.  They are cached under a key that hashes exactly the rule fields that
change them (`cache_key`), so a new paytable is priced from the cache in well under a
second instead of recounted.

One file per entry, ``<folder>/<prefix>-<key[:16]>.tgacache``:

    line 1   MAGIC + b" " + format version, e.g. ``TGACACHE 3``
    line 2   one JSON header (canonical: sorted keys, no spaces between tokens, ASCII): the
             full key, the caller's meta, the deflate level and block size, and per array its
             name, dtype (``numpy.dtype.str``, byte order explicit), shape, byte length and
             blocks; per block its layout, the number of byte planes stored (and for the
             sparse layout the number of nonzero items), its streams as [codec, stored
             length] and ``sha256``, the sha256 of its streams as stored (in order); ``pad``,
             a string of spaces (below); and ``header_sha256``, the sha256 of the canonical
             JSON of all of that (everything in the header but itself)
    then     the streams, block after block, array after array, nothing after the last

Each array's raw bytes are cut into blocks of `BLOCK_BYTES` (8 MiB), and each block is
stored in one of three layouts (`LAYOUTS`), as one or more streams:
- "planes" (the default): the block's bytes regrouped by byte position, one stream per
  plane (plane j: the j-th byte of every item, in memory order), which turns the many small
  counts into long runs of zero bytes; the trailing planes that are zero in every item are
  not stored at all (Hold'em's counts are under 2**24: their top plane; int64 weights:
  seven of eight), so nothing inflates them;
- "sparse", where it stores fewer bytes than "planes": a bitmap of the items that are not
  zero (bit i % 8 of byte i // 8 for item i), then the planes of those items only
  (Hold'em's counts are 56% zeros: 69 MB of streams instead of 154 MB);
- "raw" (only with ``shuffle=False``): the block's bytes as they are, one stream.
A stream is stored deflated (codec "zlib": a zlib stream, RFC 1950, which any inflater
reads) only when that makes it at least `ZLIB_SHRINKS` (4) times smaller, else as it is
(codec "raw"): a stream that shrinks less saves too little reading and hashing to pay for
deflating and inflating it (measured with zlib, and again with ISA-L, whose inflating is twice
zlib's speed: a bar of 3x or 2x made Stud's store 0.07-0.08 s slower and its load no faster).
Whether a stream does is first asked of a sample of it (`SAMPLE_PIECES` evenly spaced
pieces of `SAMPLE_PIECE_BYTES`, or the whole of a short stream): only a stream whose sample
shrinks `SAMPLE_SHRINKS` (3) times is compressed whole, so the near-random planes (most of
the bytes: Stud's keys, the counts' low planes) cost the store a 64 KiB trial, not a
compression thrown away.  Streams are deflated and inflated by ISA-L (`isal.isal_zlib`,
levels 0..3, `DEFAULT_LEVEL` 2), which deflates them about six times faster than zlib at
level 3 did (Stud's: 0.205 -> 0.032 s), for files 1-7% larger (format 3 files that zlib deflated
read the same: the streams are zlib streams whoever made them).
Blocks are encoded (and hashed) and decoded on threads (ISA-L, hashlib and the compiled kernels
release the GIL); the file is read through a read-only memory map (no copy of its bytes), and the
output is byte-identical for identical inputs (no timestamps; one ISA-L build on one kind of
CPU: ISA-L picks its code by the CPU's features, and may deflate to other, equally valid, bytes
on another).  The layouts, the codec rule and `DEFAULT_LEVEL` were chosen by measurement
(`benchmarks/bench_count_cache.py`, recorded in its docstring): the real Casino Hold'em
table (222.6 MB raw) is a 55.1 MB file, which `load` reads back in 0.17 s of CPU (format 2:
0.43-0.51 s), Caribbean Stud's (152 MB) 55.2 MB in 0.15 s (format 2: 0.29-0.31 s).

Trust: `load` verifies the magic and format version, the header's own sha256, the key, the
exact file length, every block's streams against its sha256 before decoding it, that every
raw stream has exactly its implied length, that every deflated stream is one complete zlib
stream inflating to exactly the length its layout implies (nothing before or after it), and that
a sparse block's bitmap sets exactly as many items as its header says.  Hashing the stored
bytes rather than the decoded arrays (format 1 did that, at twice the hashing cost) is as
strong a check of the file: the header, itself hash-checked, fixes every block's bytes, so
a file that passes holds exactly the bytes `store` wrote, bit for bit; decoding them is
deterministic and exact (deflate is lossless and the inflater checks the adler32 of the inflated
bytes; the unshuffle and the expansion are the exact inverses of the planes and the sparse
layout, and the tests check the compiled ones against the NumPy definitions on random
blocks of every item size), so they decode to exactly the arrays that were stored.  A file
that fails any check is deleted and reported in one line on stderr, and `load` returns
None: the caller recomputes, a damaged cache is never trusted.  A file of another format
version (formats 1 and 2 included) fails the first check: recounted, not read.

Bound: after writing, `store` deletes the least recently used ``*.tgacache`` files of the
folder (oldest mtime first; `load` touches what it reads) until the folder's cache files
total at most `max_bytes`, by default `DEFAULT_MAX_BYTES` = 2 GiB.  The file just written is
kept unless it alone exceeds the bound, in which case it is not kept (warning, None).

Writes are atomic: a temporary file in the same folder, fsync, rename over the cache name
(readers see the old file or the new one, never part of one).  The streams go into it once, as
each block is encoded (they are never all held), after room for the header at its longest (known
from the arrays' shapes alone: `_head_room`); the header is written last, into that room, its
``pad`` making up the difference (under a kilobyte for the real tables).  Before, the streams
were written aside and copied after the header: 55 MB more through the page cache for a Stud
entry, 0.01-0.03 s of the store's system time.  Files without a ``pad`` (written before it) read
the same, and code that predates it reads files with one: the field is covered by the header's
sha256 like any other, and the format is still 3.
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
from isal import isal_zlib

from analyzer.core.errors import InvariantError
from analyzer.core.execution import default_jobs

MAGIC = b"TGACACHE"
FORMAT_VERSION = 3
SUFFIX = ".tgacache"
TEMP_SUFFIX = ".partial"
BLOCK_BYTES = 8 << 20                  # raw bytes per block (a multiple of every item size)
DEFAULT_LEVEL = 2                      # ISA-L level (0..3): see benchmarks/bench_count_cache.py
ZLIB_SHRINKS = 4                       # a stream is stored deflated only when zlib makes it 4x smaller or more
SAMPLE_SHRINKS = 3                     # ... and is tried whole only when zlib makes a sample of it 3x smaller
SAMPLE_PIECES, SAMPLE_PIECE_BYTES = 4, 16 << 10   # the sample: 4 evenly spaced pieces of 16 KiB
DEFAULT_MAX_BYTES = 2 << 30            # 2 GiB of cache files per folder
STALE_TEMP_SECONDS = 3600              # a temporary file older than this is a crashed writer's: removed
LAYOUTS = ("raw", "planes", "sparse")
CODECS = ("raw", "zlib")
STORABLE_KINDS = "biu"                 # bool, signed and unsigned integers


# --- keys --------------------------------------------------------------------------------

def canonical(value):
    """A JSON-ready canonical form of a key field, exact: no float ever enters a key.

    Fractions (and Decimals, ints inside them) become "p/q" strings in lowest terms; tuples
    and lists become lists; sets become sorted lists; dict keys must be strings; NumPy
    integers become ints.  Floats are refused: a binary float is not the rule it meant.

    >>> canonical({"payout": Fraction(3, 2), "cards": (1, 2)})
    {'cards': [1, 2], 'payout': '3/2'}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (Fraction, Decimal)):
        if isinstance(value, Decimal) and not value.is_finite():
            raise ValueError(f"{value} is not a finite number")
        exact = Fraction(value)
        return f"{exact.numerator}/{exact.denominator}"
    if isinstance(value, (float, np.floating)):
        raise TypeError(f"{value!r} is a float: give cache key fields as ints, Fractions or strings")
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        items = [canonical(item) for item in value]
        return sorted(items, key=lambda item: _dumps(item))
    if isinstance(value, dict):
        for name in value:
            if not isinstance(name, str):
                raise TypeError(f"cache key field names must be strings, not {name!r}")
        return {name: canonical(value[name]) for name in sorted(value)}
    if isinstance(value, np.ndarray) and value.dtype.kind in STORABLE_KINDS:
        return canonical(value.tolist())
    raise TypeError(f"{type(value).__name__} {value!r} cannot be part of a cache key")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def cache_key(kind: str, fields: dict, version: str) -> str:
    """sha256 hex of the canonical JSON of (kind, fields, version).

    `fields` holds exactly the rule fields that change the cached arrays; `version` names
    the code that computes them (bump it when the kernel changes its output).

    >>> cache_key("demo", {"deck": (1, 2), "q": Fraction(1, 2)}, "1") == cache_key("demo", {"q": Fraction(2, 4), "deck": [1, 2]}, "1")
    True
    """
    if not isinstance(kind, str) or not kind:
        raise ValueError("kind must be a non-empty string")
    return hashlib.sha256(_dumps({"kind": kind, "fields": canonical(fields), "version": str(version)})
                          .encode("ascii")).hexdigest()


# --- helpers -----------------------------------------------------------------------------

def _warn(message: str) -> None:
    """One line on stderr: the cache is an optimisation, its trouble is never fatal."""
    print(f"count_cache: {message}", file=sys.stderr)


def _threads(threads: int | None) -> int:
    if threads:
        return max(1, int(threads))
    return max(1, min(default_jobs(), 8))


def _block_ranges(nbytes: int, block_bytes: int) -> list[tuple[int, int]]:
    return [(start, min(start + block_bytes, nbytes)) for start in range(0, nbytes, block_bytes)]


def _kept_planes(words: np.ndarray) -> int:
    """How many byte planes of a block's items (as little-endian words: plane j is byte j in memory) are
    stored: trailing planes that are zero in every item are not (found from the OR of the items)."""
    return (int(np.bitwise_or.reduce(words)).bit_length() + 7) // 8 if words.size else 0


def _planes(items: np.ndarray, kept: int) -> list[np.ndarray]:
    """The first `kept` byte planes of (n, itemsize) item bytes, each its own contiguous array (a raw plane
    kept for the file holds no other plane's bytes; one byte items are their own plane: no copy)."""
    return [np.ascontiguousarray(items[:, j]) for j in range(kept)]


def _sample(data: np.ndarray) -> np.ndarray:
    """What zlib is tried on first: `SAMPLE_PIECES` evenly spaced pieces of a stream, or the whole of a short one."""
    if data.size <= SAMPLE_PIECES * SAMPLE_PIECE_BYTES:
        return data
    step = data.size // SAMPLE_PIECES
    return np.concatenate([data[at:at + SAMPLE_PIECE_BYTES] for at in range(0, step * SAMPLE_PIECES, step)])


def _stream(data: np.ndarray, level: int) -> tuple[str, object]:
    """A stream (contiguous uint8) as stored: deflated (a zlib stream, by ISA-L) when that makes it
    `ZLIB_SHRINKS` times smaller, else as it is.  It is tried on a sample first (`_sample`), and on the whole
    stream only when the sample shrinks `SAMPLE_SHRINKS` times or more: near-random planes, most of the bytes,
    are not compressed only to be thrown away.  The same bytes always give the same choice and the same
    stored bytes."""
    sample = _sample(data)
    packed = isal_zlib.compress(sample, level)
    if sample is not data:
        if len(packed) * SAMPLE_SHRINKS > sample.size:
            return "raw", data
        packed = isal_zlib.compress(data, level)
    return ("zlib", packed) if len(packed) * ZLIB_SHRINKS <= data.size else ("raw", data)


def _encoded(block: np.ndarray, itemsize: int, level: int, shuffle: bool) -> tuple[dict, list]:
    """(description, streams) of a block's bytes (uint8), the description with its sha256 of the streams."""
    if not shuffle:
        layout, streams = {"layout": "raw", "planes": itemsize}, [block]
    else:
        words = block.view(np.dtype(f"<u{itemsize}"))
        kept, nonzero = _kept_planes(words), words != 0
        stored = int(np.count_nonzero(nonzero))
        # the same planes are kept either way; the sparse layout drops the zero items' bytes for a bitmap
        if (words.size - stored) * kept > -(-words.size // 8):
            # a boolean index of the words: half np.compress's time, which builds an int64 array of the
            # indices first (16 MB of fresh pages for a block of 4-byte items), and a fifth of indexing the
            # (n, itemsize) bytes
            nonzero_items = words[nonzero].view(np.uint8).reshape(-1, itemsize)
            layout = {"layout": "sparse", "planes": kept, "nonzero": stored}
            streams = [np.packbits(nonzero, bitorder="little"), *_planes(nonzero_items, kept)]
        else:
            layout, streams = {"layout": "planes", "planes": kept}, [*_planes(block.reshape(-1, itemsize), kept)]
    streams = [_stream(data, level) for data in streams]
    digest = hashlib.sha256()
    for _, data in streams:
        digest.update(data)
    return ({**layout, "streams": [[codec, len(data)] for codec, data in streams], "sha256": digest.hexdigest()},
            [data for _, data in streams])


def expand_reference(out: np.ndarray, bitmap: np.ndarray, source: np.ndarray, itemsize: int) -> int:
    """Undo the sparse layout into the uint8 slice `out` (bitmap: bit i, bit i % 8 of byte i // 8, set
    where item i is nonzero; source: the first byte planes of the nonzero items, plane j = byte j of
    each): the items whose bit is set are the stored ones, in order
    (their first planes in `source`, the planes past them zero), the others zero.  Returns how many
    bits are set (the caller checks it against the header).  The plain definition (and `load`'s
    default); `cython_ext.byte_planes.expand_into` is it compiled, which the publisher passes."""
    items = out.size // itemsize
    nonzero = np.unpackbits(bitmap, count=items, bitorder="little").view(bool)
    stored = int(nonzero.sum())
    if len(bitmap) != -(-items // 8) or int(np.unpackbits(bitmap, bitorder="little").sum()) != stored:
        raise ValueError("the bitmap does not fit the block")
    if stored == 0 and source.size:
        raise ValueError("stored bytes without a stored item")
    planes = source.size // stored if stored else 0
    if (stored and source.size % stored) or planes > itemsize:
        raise ValueError("the stored bytes are not whole planes of the stored items")
    block = out.reshape(items, itemsize)
    block[...] = 0
    block[nonzero, :planes] = source.reshape(planes, stored).T
    return stored


def unshuffle_reference(out: np.ndarray, source: np.ndarray, itemsize: int) -> None:
    """Undo the planes layout into the uint8 slice `out`: item byte j is plane j (shifts on words, not strided bytes).

    `source` holds the block's first planes (len(out) // itemsize bytes each); the planes
    past them are zero (`store` does not keep trailing all-zero planes).  Writing
    sum_j plane_j << 8j through a little-endian word view puts plane j at byte offset j of
    every item, on any machine and for any stored byte order.  The plain definition (and
    `load`'s default); `cython_ext.byte_planes.unshuffle_into` is it compiled, which the
    publisher passes to `load` (this layer imports no kernel).
    """
    items = out.size // itemsize
    words = out.view(np.dtype(f"<u{itemsize}"))
    words[...] = 0
    if not items:
        return
    for j, plane in enumerate(source.reshape(-1, items)):
        shifted = plane.astype(words.dtype)
        shifted <<= np.array(8 * j, dtype=words.dtype)
        words |= shifted


def _prefix_for(prefix: str | None, meta: dict) -> str:
    text = prefix if prefix is not None else str(meta.get("kind", "cache"))
    safe = "".join(c if c.isalnum() or c in "_." else "_" for c in text).strip("._") or "cache"
    return safe[:64]


def _is_key(key) -> bool:
    return isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)


def _header_digest(header: dict) -> str:
    body = {name: value for name, value in header.items() if name != "header_sha256"}
    return hashlib.sha256(_dumps(body).encode("ascii")).hexdigest()


def cache_files(folder) -> list[Path]:
    """The cache files of a folder (not temporary files)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*" + SUFFIX) if path.is_file())


# --- store -------------------------------------------------------------------------------

class _TooLarge(Exception):
    """The file being written would exceed the folder's bound: it is not kept."""


def _head(header: dict) -> bytes:
    """The file's first two lines: the magic and format version, then the header."""
    return MAGIC + b" " + str(FORMAT_VERSION).encode("ascii") + b"\n" + _dumps(header).encode("ascii") + b"\n"


def _described(name: str, array: np.ndarray, raw: np.ndarray, blocks: list) -> dict:
    return {"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "nbytes": int(raw.size),
            "blocks": blocks}


def _head_room(header: dict, prepared: list, block_bytes: int) -> int:
    """The longest the head (`_head`) of these arrays can be, known before any block is encoded: every block
    described at its widest (the sparse layout, every plane kept and all its items nonzero, a bitmap and every
    plane stored, each stream deflated and as long as the block's bytes: a stream never is longer)."""
    widest = []
    for name, array, raw in prepared:
        itemsize = array.dtype.itemsize
        widest.append(_described(name, array, raw, [
            {"layout": "sparse", "planes": itemsize, "nonzero": (stop - start) // itemsize,
             "streams": [["zlib", stop - start]] * (itemsize + 1), "sha256": "0" * 64}
            for start, stop in _block_ranges(raw.size, block_bytes)]))
    return len(_head({**header, "arrays": widest, "pad": "", "header_sha256": "0" * 64}))


def _padded_head(header: dict, room: int) -> bytes:
    """The head of `header` (without its "pad" and sha256 yet) made exactly `room` bytes long by its "pad" of
    spaces; InvariantError if it does not fit (it would overwrite the first streams)."""
    header = {**header, "pad": ""}
    header["pad"] = " " * (room - len(_head({**header, "header_sha256": "0" * 64})))
    header["header_sha256"] = _header_digest(header)
    head = _head(header)
    if len(head) != room:
        raise InvariantError(f"the cache header is {len(head)} bytes, {room} were kept for it")
    return head


def _write_atomic(path: Path, fill) -> None:
    """Write the file `path` atomically: `fill(handle)` writes its bytes into a temporary file in the folder
    (opened for writing and seeking), which is fsynced and renamed over `path`; if `fill` raises, the
    temporary file is removed and the exception passes on."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".", suffix=TEMP_SUFFIX)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)            # as any file the user writes (mkstemp makes it private)
        with open(fd, "wb") as handle:
            fill(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    try:                                # make the rename itself durable; not every system allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def store(folder, key: str, arrays: dict, meta: dict | None = None, *, prefix: str | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES, level: int = DEFAULT_LEVEL, shuffle: bool = True,
          threads: int | None = None) -> Path | None:
    """Write `arrays` (name -> integer or bool ndarray) and `meta` (JSON-able) under `key`.

    Returns the file's path, or None when the file alone would exceed `max_bytes` (then it
    is not kept).  The file is named ``<prefix>-<key[:16]>.tgacache`` (prefix: `prefix`,
    else ``meta["kind"]``, else "cache").  Afterwards the least recently used cache files
    of the folder are deleted until the folder holds at most `max_bytes` of them.
    Raises TypeError for arrays of other dtypes (floats, objects) or a meta that is not
    JSON-able, ValueError for a malformed key; OSError from the file system passes through.
    `level` (ISA-L's deflate level, an integer 0..3, else ValueError; 3 the smallest) and
    `shuffle` (byte planes, or the sparse layout where it stores fewer bytes; without it every
    block is stored as its bytes) are recorded in the file; the defaults were chosen by
    measurement.
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)) \
            or not isal_zlib.ISAL_BEST_SPEED <= level <= isal_zlib.ISAL_BEST_COMPRESSION:
        raise ValueError(f"level must be an ISA-L level, an integer 0..3, not {level!r}")
    level = int(level)
    meta = canonical(dict(meta or {}))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    prepared = []
    for name in sorted(arrays):
        array = np.asarray(arrays[name])
        if not isinstance(name, str):
            raise TypeError(f"array names must be strings, not {name!r}")
        if array.dtype.kind not in STORABLE_KINDS:
            raise TypeError(f"array {name!r} has dtype {array.dtype}: only integer and bool arrays are cached")
        array = array if array.flags.c_contiguous else array.copy(order="C")   # keeps 0-d arrays 0-d
        prepared.append((name, array, array.reshape(-1).view(np.uint8)))

    block_bytes = BLOCK_BYTES
    tasks = [(raw[start:stop], array.dtype.itemsize)
             for _, array, raw in prepared for start, stop in _block_ranges(raw.size, block_bytes)]
    path = folder / f"{_prefix_for(prefix, meta)}-{key[:16]}{SUFFIX}"
    header = {"format": FORMAT_VERSION, "key": key, "meta": meta, "level": level, "block_bytes": block_bytes}
    room = _head_room(header, prepared, block_bytes)

    def fill(handle) -> None:
        # The header, which comes first, describes every block's streams: they are written after room for it
        # (at its longest), in order as each block is encoded, rather than all held (or written aside and
        # copied) until it is known; it is written last, padded to fill its room.
        handle.seek(room)
        with ThreadPoolExecutor(_threads(threads)) as pool:
            encoded = pool.map(lambda task: _encoded(*task, level, shuffle), tasks)
            descriptions, total = [], room
            for name, array, raw in prepared:
                blocks = []
                for _ in _block_ranges(raw.size, block_bytes):
                    description, streams = next(encoded)
                    blocks.append(description)
                    for stream in streams:
                        total += handle.write(stream)
                descriptions.append(_described(name, array, raw, blocks))
        if total > max_bytes:
            raise _TooLarge(f"not caching {path.name}: {total} bytes exceed the folder bound of {max_bytes} bytes")
        handle.seek(0)
        handle.write(_padded_head({**header, "arrays": descriptions}, room))

    try:
        _write_atomic(path, fill)
    except _TooLarge as refused:
        _warn(str(refused))
        return None
    evict(folder, max_bytes, keep=path)
    return path


def evict(folder, max_bytes: int = DEFAULT_MAX_BYTES, keep: Path | None = None) -> list[Path]:
    """Delete least recently used cache files (by mtime) until the folder holds <= max_bytes.

    `keep` (the file just written) is never deleted.  Temporary files of writers that
    crashed more than `STALE_TEMP_SECONDS` ago are removed too.  Returns the deleted paths.
    """
    folder = Path(folder)
    now = time.time()
    for temp in folder.glob(".*" + TEMP_SUFFIX):
        try:
            if now - temp.stat().st_mtime > STALE_TEMP_SECONDS:
                temp.unlink()
        except OSError:
            pass
    entries = []
    for path in cache_files(folder):
        try:
            status = path.stat()
        except FileNotFoundError:
            continue
        entries.append((status.st_mtime_ns, path.name, path, status.st_size))
    entries.sort()                      # oldest first; the name breaks mtime ties deterministically
    total = sum(size for *_, size in entries)
    deleted = []
    for _, _, path, size in entries:
        if total <= max_bytes:
            break
        if keep is not None and path == keep:
            continue
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        total -= size
        deleted.append(path)
    return deleted


# --- load --------------------------------------------------------------------------------

class _Damaged(Exception):
    """A cache file failed a check."""


class _OtherKey(_Damaged):
    """A sound cache file of another key that shares the file name's 16-digit prefix (kept, not deleted)."""


def _stream_lengths(block: dict, items: int, itemsize: int) -> list[int]:
    """The inflated length of each stream of a block of `items` items, from its layout (checked first)."""
    layout, planes = block["layout"], block["planes"]
    if layout not in LAYOUTS or type(planes) is not int or not 0 <= planes <= itemsize \
            or (layout == "raw" and planes != itemsize):
        raise _Damaged("unknown layout or bad plane count")
    if layout == "raw":
        return [items * itemsize]
    if layout == "planes":
        return [items] * planes
    nonzero = block["nonzero"]
    if type(nonzero) is not int or not 0 <= nonzero <= items:
        raise _Damaged("bad count of nonzero items")
    return [-(-items // 8)] + [nonzero] * planes


def _mapped(path: Path):
    """The file's bytes, mapped read-only (the page cache's pages themselves: no copy to read them), or b""
    for an empty file.  A writer never changes a cache file in place (it renames a new one over it),
    so the mapped bytes stay those of the file opened."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return b""
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def _parse(data, key: str) -> tuple[dict, int]:
    """The verified header of a cache file's bytes and the offset of its first block."""
    first = data.find(b"\n")
    if first < 0 or data[:len(MAGIC) + 1] != MAGIC + b" ":
        raise _Damaged("not a cache file")
    version = data[len(MAGIC) + 1:first]
    if version != str(FORMAT_VERSION).encode("ascii"):
        raise _Damaged(f"format version {version[:16]!r}, this code reads {FORMAT_VERSION}")
    second = data.find(b"\n", first + 1)
    if second < 0:
        raise _Damaged("truncated header")
    try:
        header = json.loads(data[first + 1:second].decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise _Damaged("unreadable header") from None
    if not isinstance(header, dict) or header.get("header_sha256") != _header_digest(header):
        raise _Damaged("header sha256 does not match")
    if header.get("format") != FORMAT_VERSION:
        raise _Damaged("format version in the header does not match")
    if header.get("key") != key:
        raise _OtherKey("key does not match")
    try:
        block_bytes = header["block_bytes"]
        if type(block_bytes) is not int or block_bytes <= 0 or block_bytes % 8:
            raise _Damaged("bad block size")
        total = second + 1
        for description in header["arrays"]:
            dtype = np.dtype(description["dtype"])
            if dtype.kind not in STORABLE_KINDS:
                raise _Damaged("unknown dtype")
            shape, nbytes = description["shape"], description["nbytes"]
            if any(type(n) is not int or n < 0 for n in [*shape, nbytes]):
                raise _Damaged("bad shape or byte length")
            if int(np.prod(shape, dtype=object)) * dtype.itemsize != nbytes:
                raise _Damaged("shape and byte length disagree")
            blocks = description["blocks"]
            if len(blocks) != -(-nbytes // block_bytes):
                raise _Damaged("block list does not match the byte length")
            for block, (start, stop) in zip(blocks, _block_ranges(nbytes, block_bytes)):
                lengths = _stream_lengths(block, (stop - start) // dtype.itemsize, dtype.itemsize)
                streams = block["streams"]
                if len(streams) != len(lengths):
                    raise _Damaged("stream list does not match the layout")
                for (codec, length), expected in zip(streams, lengths):
                    if codec not in CODECS or type(length) is not int or length < 0 \
                            or (codec == "raw" and length != expected):
                        raise _Damaged("bad stream")
                    total += length
                if not _is_key(block["sha256"]):                    # a sha256 hex digest, like a key
                    raise _Damaged("bad block digest")
    except (KeyError, TypeError, ValueError):
        raise _Damaged("malformed array description") from None
    if total != len(data):
        raise _Damaged(f"file is {len(data)} bytes, its header describes {total}")
    return header, second + 1


def _decode(data, header: dict, offset: int, threads: int | None, unshuffle, expand) -> dict:
    """Decode every block on threads into fresh arrays, each after its stored bytes match their sha256."""
    block_bytes = header["block_bytes"]
    view = memoryview(data)
    outputs, tasks = [], []
    for description in header["arrays"]:
        dtype = np.dtype(description["dtype"])
        out = np.empty(description["nbytes"], dtype=np.uint8)
        outputs.append((description, out, dtype))
        for (start, stop), block in zip(_block_ranges(description["nbytes"], block_bytes), description["blocks"]):
            lengths = _stream_lengths(block, (stop - start) // dtype.itemsize, dtype.itemsize)
            streams, first = [], offset
            for (codec, length), expected in zip(block["streams"], lengths):
                streams.append((codec, offset, length, expected))
                offset += length
            tasks.append((description["name"], out[start:stop], block, view[first:offset], streams, dtype.itemsize))

    def inflated(stream) -> memoryview | bytes:
        codec, at, length, expected = stream
        if codec == "raw":
            return view[at:at + length]
        inflater = isal_zlib.decompressobj()
        try:
            raw = inflater.decompress(view[at:at + length], max(expected, 1))   # never more than it should hold
        except isal_zlib.error as error:
            raise _Damaged(f"stream does not decompress ({error})") from None
        if len(raw) != expected or not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
            raise _Damaged("stream decompresses to the wrong length")
        return raw

    def planes_of(streams: list) -> np.ndarray:
        """A block's byte planes as one buffer: the stored bytes themselves when every plane is raw (they lie
        side by side in the file), else the planes inflated and joined."""
        if all(codec == "raw" for codec, *_ in streams):
            at = streams[0][1] if streams else 0
            return np.frombuffer(view[at:at + sum(length for _, _, length, _ in streams)], dtype=np.uint8)
        return np.frombuffer(b"".join(inflated(stream) for stream in streams), dtype=np.uint8)

    def decode(task):
        name, out, block, stored_bytes, streams, itemsize = task
        if hashlib.sha256(stored_bytes).hexdigest() != block["sha256"]:
            raise _Damaged(f"a block of array {name!r} does not match its sha256")
        if block["layout"] == "raw":
            out[:] = np.frombuffer(inflated(streams[0]), dtype=np.uint8)
        elif block["layout"] == "planes":
            unshuffle(out, planes_of(streams), itemsize)
        else:
            bitmap = np.frombuffer(inflated(streams[0]), dtype=np.uint8)
            try:
                stored = expand(out, bitmap, planes_of(streams[1:]), itemsize)
            except ValueError as problem:
                raise _Damaged(f"sparse block does not fit its header ({problem})") from None
            if stored != block["nonzero"]:
                raise _Damaged("sparse block's bitmap does not match its count of nonzero items")

    with ThreadPoolExecutor(_threads(threads)) as pool:
        for _ in pool.map(decode, tasks):                       # re-raises a block's failure
            pass
    return {description["name"]: out.view(dtype).reshape(tuple(description["shape"]))
            for description, out, dtype in outputs}


def load(folder, key: str, *, threads: int | None = None,
         unshuffle=unshuffle_reference, expand=expand_reference) -> tuple[dict, dict] | None:
    """(arrays, meta) cached under `key` in `folder`, or None.

    None when there is no such file; also when the file is damaged, truncated, of another
    format version, or its key or a sha256 does not match: then it is deleted and one line
    says so on stderr (the caller recomputes).  Arrays come back writable, of the stored
    dtype and shape; meta comes back in its JSON form (Fractions as "p/q" strings).
    A successful load touches the file (it becomes the most recently used).
    `unshuffle(out, source, itemsize)` undoes the planes layout of a block and `expand(out, bitmap,
    source, itemsize)` the sparse one: by default `unshuffle_reference` and `expand_reference`;
    `cython_ext.byte_planes.unshuffle_into` and `expand_into` do the same in one pass each (the
    tests check that they agree with the references on every item size and number of stored planes).
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    for path in cache_files(folder):
        if not path.name.endswith(f"-{key[:16]}{SUFFIX}"):
            continue
        try:
            data = _mapped(path)
        except FileNotFoundError:      # evicted by another process meanwhile
            continue
        try:
            header, offset = _parse(data, key)
            arrays = _decode(data, header, offset, threads, unshuffle, expand)
        except _Damaged as problem:
            if isinstance(problem, _OtherKey):
                continue               # another key with the same 16-digit prefix: not ours, not damaged
            _warn(f"ignoring and deleting {path}: {problem}; it will be recomputed")
            try:
                path.unlink()
            except OSError:
                pass
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return arrays, header["meta"]
    return None
