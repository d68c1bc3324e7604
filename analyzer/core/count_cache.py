"""A verified, compressed, size-bounded on-disk cache of paytable-free integer arrays.

The expensive enumerations (Casino Hold'em's 1.29 million x 40 continuation counts,
Caribbean Stud's 5.6 million situation classes) produce integer arrays that do not depend
on the paytable.  They are cached under a key that hashes exactly the rule fields that
change them (`cache_key`), so a new paytable is priced from the cache in well under a
second instead of recounted.

One file per entry, ``<folder>/<prefix>-<key[:16]>.tgacache``:

    line 1   MAGIC + b" " + format version, e.g. ``TGACACHE 2``
    line 2   one JSON header (canonical: sorted keys, no spaces, ASCII): the full key,
             the caller's meta, the zlib level and block size, and per array its name,
             dtype (``numpy.dtype.str``, byte order explicit), shape, byte length, its
             filter, its compressed block lengths, per block the number of byte planes
             stored, and ``blocks_sha256``, the sha256 of its compressed blocks as stored
             (in order); and ``header_sha256``, the sha256 of the canonical JSON of all
             of that (everything in the header but itself)
    then     the compressed blocks, array after array, nothing after the last

Each array's raw bytes are cut into blocks of `BLOCK_BYTES` (8 MiB); with the "shuffle"
filter (arrays of items wider than one byte) each block's bytes are regrouped by byte
position before compression (plane j: the j-th byte of every item), which turns the many
small counts into long runs of zero bytes, and the trailing planes that are all zero are
not stored at all (Hold'em's counts are under 2**24: their top plane; Stud's int64 weights:
seven of eight), so nothing inflates them.  Blocks are compressed and decompressed on
threads (zlib, hashlib and the compiled unshuffle release the GIL), and the output is
byte-identical for identical inputs (no timestamps; one zlib build).  `DEFAULT_LEVEL` and
the filter were chosen by measurement (`benchmarks/bench_count_cache.py`, recorded in its
docstring): for the real Casino Hold'em table (222.6 MB raw) level 3 with the shuffle
writes 36.3 MB, and `load` reads it back in about 0.25 s on two cores (0.41-0.46 s of
CPU: inflating 0.37, the unshuffle 0.04, sha256 of the compressed bytes 0.05).

Trust: `load` verifies the magic and format version, the header's own sha256, the key, the
exact file length, every array's blocks against their sha256, and that every block is one
complete zlib stream inflating to exactly the length its header entry implies (nothing
before or after it).  Hashing the compressed bytes rather than the inflated arrays (format
1 did that, at twice the hashing cost) is as strong a check of the file: the header, itself
hash-checked, fixes every block's bytes, so a file that passes holds exactly the bytes
`store` wrote, bit for bit; inflating and unshuffling them is deterministic and exact (zlib
is lossless and checks its own adler32 of the inflated bytes; the unshuffle is the exact
inverse of the shuffle, and the tests check the compiled one against the NumPy definition
on random blocks of every item size), so they decode to exactly the arrays that were
stored.  A file that fails any check is deleted and reported in one line on stderr, and
`load` returns None: the caller recomputes, a damaged cache is never trusted.  A file of
another format version (format 1 included) fails the first check: recounted, not read.

Bound: after writing, `store` deletes the least recently used ``*.tgacache`` files of the
folder (oldest mtime first; `load` touches what it reads) until the folder's cache files
total at most `max_bytes`, by default `DEFAULT_MAX_BYTES` = 2 GiB.  The file just written is
kept unless it alone exceeds the bound, in which case it is not kept (warning, None).

Writes are atomic: a temporary file in the same folder, fsync, rename over the cache name
(readers see the old file or the new one, never part of one).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer.core.execution import default_jobs

MAGIC = b"TGACACHE"
FORMAT_VERSION = 2
SUFFIX = ".tgacache"
TEMP_SUFFIX = ".partial"
BLOCK_BYTES = 8 << 20                  # raw bytes per compressed block (a multiple of every item size)
DEFAULT_LEVEL = 3                      # zlib level: see benchmarks/bench_count_cache.py
DEFAULT_MAX_BYTES = 2 << 30            # 2 GiB of cache files per folder
STALE_TEMP_SECONDS = 3600              # a temporary file older than this is a crashed writer's: removed
FILTERS = ("none", "shuffle")
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


def _shuffle(raw: np.ndarray, itemsize: int) -> np.ndarray:
    """A block's bytes regrouped by byte position: (items, itemsize) -> (itemsize, items)."""
    return np.ascontiguousarray(raw.reshape(-1, itemsize).T)


def _stored_planes(planes: np.ndarray) -> int:
    """How many of a shuffled block's planes (rows) are stored: trailing all-zero planes are not."""
    kept = planes.shape[0]
    while kept and not planes[kept - 1].any():
        kept -= 1
    return kept


def unshuffle_reference(out: np.ndarray, source: np.ndarray, itemsize: int) -> None:
    """Undo `_shuffle` into the uint8 slice `out`: item byte j is plane j (shifts on words, not strided bytes).

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

def _write_chunks(handle, chunks) -> None:
    """Write every chunk (a seam for the atomic-write test)."""
    for chunk in chunks:
        handle.write(chunk)


def _write_atomic(path: Path, chunks) -> None:
    """Write `chunks` to `path` atomically: a temporary file in the folder, fsync, rename."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".", suffix=TEMP_SUFFIX)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)            # as any file the user writes (mkstemp makes it private)
        with open(fd, "wb") as handle:
            _write_chunks(handle, chunks)
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
    `level` (zlib 0..9) and `shuffle` (the byte-regrouping filter for items wider than a
    byte) are recorded in the file; the defaults were chosen by measurement.
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    if not 0 <= int(level) <= 9:
        raise ValueError("zlib level must be 0..9")
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
        raw = array.reshape(-1).view(np.uint8)
        prepared.append((name, array, raw, "shuffle" if shuffle and array.dtype.itemsize > 1 else "none"))

    def compress(task):
        raw, start, stop, itemsize, flt = task
        block, planes = raw[start:stop], itemsize
        if flt == "shuffle":
            shuffled = _shuffle(block, itemsize)
            planes = _stored_planes(shuffled)
            block = shuffled[:planes]
        return zlib.compress(memoryview(block), level), planes

    block_bytes = BLOCK_BYTES
    tasks = [(raw, start, stop, array.dtype.itemsize, flt)
             for _, array, raw, flt in prepared for start, stop in _block_ranges(raw.size, block_bytes)]
    with ThreadPoolExecutor(_threads(threads)) as pool:
        compressed = list(pool.map(compress, tasks))
    blocks = [block for block, _ in compressed]
    descriptions, position = [], 0
    for name, array, raw, flt in prepared:
        mine = compressed[position:position + len(_block_ranges(raw.size, block_bytes))]
        position += len(mine)
        digest = hashlib.sha256()
        for block, _ in mine:
            digest.update(block)
        descriptions.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape),
                             "nbytes": int(raw.size), "filter": flt, "blocks": [len(block) for block, _ in mine],
                             "planes": [planes for _, planes in mine], "blocks_sha256": digest.hexdigest()})
    header = {"format": FORMAT_VERSION, "key": key, "meta": meta, "level": int(level),
              "block_bytes": block_bytes, "arrays": descriptions}
    header["header_sha256"] = _header_digest(header)
    head = MAGIC + b" " + str(FORMAT_VERSION).encode("ascii") + b"\n" + _dumps(header).encode("ascii") + b"\n"
    total = len(head) + sum(len(block) for block in blocks)
    path = folder / f"{_prefix_for(prefix, meta)}-{key[:16]}{SUFFIX}"
    if total > max_bytes:
        _warn(f"not caching {path.name}: {total} bytes exceed the folder bound of {max_bytes} bytes")
        return None
    _write_atomic(path, [head, *blocks])
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


def _parse(data: bytes, key: str) -> tuple[dict, int]:
    """The verified header of a cache file's bytes and the offset of its first block."""
    first = data.find(b"\n")
    if first < 0 or not data.startswith(MAGIC + b" "):
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
            if dtype.kind not in STORABLE_KINDS or description["filter"] not in FILTERS:
                raise _Damaged("unknown dtype or filter")
            shape, nbytes = description["shape"], description["nbytes"]
            if any(type(n) is not int or n < 0 for n in [*shape, nbytes]):
                raise _Damaged("bad shape or byte length")
            if int(np.prod(shape, dtype=object)) * dtype.itemsize != nbytes:
                raise _Damaged("shape and byte length disagree")
            blocks, planes = description["blocks"], description["planes"]
            if len(blocks) != -(-nbytes // block_bytes) or any(type(n) is not int or n < 0 for n in blocks):
                raise _Damaged("block list does not match the byte length")
            if len(planes) != len(blocks) or any(type(n) is not int or not 0 <= n <= dtype.itemsize for n in planes) \
                    or (description["filter"] == "none" and any(n != dtype.itemsize for n in planes)):
                raise _Damaged("plane counts do not match the blocks")
            if not _is_key(description["blocks_sha256"]):           # a sha256 hex digest, like a key
                raise _Damaged("bad block digest")
            total += sum(blocks)
    except (KeyError, TypeError, ValueError):
        raise _Damaged("malformed array description") from None
    if total != len(data):
        raise _Damaged(f"file is {len(data)} bytes, its header describes {total}")
    return header, second + 1


def _decode(data: bytes, header: dict, offset: int, threads: int | None, unshuffle) -> dict:
    """Decompress every block on threads into fresh arrays; verify each array's blocks' sha256 meanwhile."""
    block_bytes = header["block_bytes"]
    view = memoryview(data)
    outputs, tasks, spans = [], [], []
    for description in header["arrays"]:
        dtype = np.dtype(description["dtype"])
        out = np.empty(description["nbytes"], dtype=np.uint8)
        outputs.append((description, out, dtype))
        first = offset
        for (start, stop), length, planes in zip(_block_ranges(description["nbytes"], block_bytes),
                                                 description["blocks"], description["planes"]):
            stored = (stop - start) // dtype.itemsize * planes
            tasks.append((out, start, stop, view[offset:offset + length], stored, dtype.itemsize,
                          description["filter"]))
            offset += length
        spans.append((description, view[first:offset]))

    def inflate(task):
        out, start, stop, block, stored, itemsize, flt = task
        inflater = zlib.decompressobj()
        try:
            raw = inflater.decompress(block, max(stored, 1))     # never more than the block should hold
        except zlib.error as error:
            raise _Damaged(f"block does not decompress ({error})") from None
        if len(raw) != stored or not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
            raise _Damaged("block decompresses to the wrong length")
        source = np.frombuffer(raw, dtype=np.uint8)
        if flt == "shuffle":
            unshuffle(out[start:stop], source, itemsize)
        else:
            out[start:stop] = source

    with ThreadPoolExecutor(_threads(threads)) as pool:
        inflated = pool.map(inflate, tasks)                     # submitted at once: hashing overlaps inflating
        for description, span in spans:
            if hashlib.sha256(span).hexdigest() != description["blocks_sha256"]:
                raise _Damaged(f"array {description['name']!r} does not match its sha256")
        for _ in inflated:                                      # re-raises a block's failure
            pass
    return {description["name"]: out.view(dtype).reshape(tuple(description["shape"]))
            for description, out, dtype in outputs}


def load(folder, key: str, *, threads: int | None = None,
         unshuffle=unshuffle_reference) -> tuple[dict, dict] | None:
    """(arrays, meta) cached under `key` in `folder`, or None.

    None when there is no such file; also when the file is damaged, truncated, of another
    format version, or its key or a sha256 does not match: then it is deleted and one line
    says so on stderr (the caller recomputes).  Arrays come back writable, of the stored
    dtype and shape; meta comes back in its JSON form (Fractions as "p/q" strings).
    A successful load touches the file (it becomes the most recently used).
    `unshuffle(out, source, itemsize)` undoes the shuffle filter of a block: by default
    `unshuffle_reference`; `cython_ext.byte_planes.unshuffle_into` does the same in one pass
    (the tests check that the two agree on every item size and number of stored planes).
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    for path in cache_files(folder):
        if not path.name.endswith(f"-{key[:16]}{SUFFIX}"):
            continue
        try:
            data = path.read_bytes()
        except FileNotFoundError:      # evicted by another process meanwhile
            continue
        try:
            header, offset = _parse(data, key)
            arrays = _decode(data, header, offset, threads, unshuffle)
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
