"""The count cache: paytable-free integer counts kept between runs, signed, in a folder of the tool's own.

Counts are kept under a key hashing exactly the rule fields that change them (`cache_key`), one file
``<prefix>-<key[:16]>.tgacache`` each: a header line, the arrays (each from a multiple of `ALIGN`) and
an HMAC-SHA256 keyed by a secret kept outside the folder (`signing_key`).  A file is trusted only when
its HMAC matches, and read through a private memory map.  The folder holds CACHEDIR.TAG; the tool
deletes only the names it makes.  Format, folder and threat model: docs/count-cache.md.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import mmap
import os
import re
import secrets
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer.formats.manifest import SHA256
from analyzer.publish.folder import _alive

MAGIC = b"TGACACHE"
FORMAT_VERSION = 4
SUFFIX = ".tgacache"
ALIGN = 64                             # the header and every array start at a multiple of this
TAG_NAME = "CACHEDIR.TAG"              # https://bford.info/cachedir/: backup tools skip the folder
TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n# This folder is the count cache of table-game-analyzer (docs/count-cache.md).\n"
       "# Everything in it may be deleted; the analyzer makes it again.\n")
KEY_ENV = "ANALYZER_CACHE_KEY"         # names the key file; else DEFAULT_KEY_PATH
DEFAULT_KEY_PATH = Path("~/.config/table-game-analyzer/count-cache.key")
DIGEST_BYTES = 32
DEFAULT_MAX_BYTES = 2 << 30            # 2 GiB of cache files per folder
STORABLE_KINDS = "biu"                 # bool, signed and unsigned integers
ENTRY = re.compile(r"[A-Za-z0-9_.]{1,64}-[0-9a-f]{16}" + re.escape(SUFFIX))
TEMPORARY = re.compile(r"\.(" + ENTRY.pattern + r")\.([0-9]{1,10})\.[a-z0-9_]+\.partial")


class Unusable(Exception):
    """The cache folder (or its key) cannot be used; the message says why."""


class _Damaged(Exception):
    """A cache file failed a check."""


# --- keys --------------------------------------------------------------------------------

def canonical(value):
    """A JSON-ready canonical form of a key field, exact: Fractions as "p/q", tuples as lists, NumPy integers
    as ints; floats are refused (a binary float is not the rule it meant).

    >>> canonical({"payout": Fraction(3, 2), "cards": (1, 2)})
    {'cards': [1, 2], 'payout': '3/2'}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, (float, np.floating)):
        raise TypeError(f"{value!r} is a float: give cache key fields as ints, Fractions or strings")
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, dict):
        if any(not isinstance(name, str) for name in value):
            raise TypeError(f"cache key field names must be strings: {sorted(map(repr, value))}")
        return {name: canonical(value[name]) for name in sorted(value)}
    raise TypeError(f"{type(value).__name__} {value!r} cannot be part of a cache key")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def cache_key(kind: str, fields: dict, version: str) -> str:
    """sha256 hex of the canonical JSON of (kind, fields: exactly the rule fields that change the arrays,
    version: the code that computes them)."""
    if not isinstance(kind, str) or not kind:
        raise ValueError("kind must be a non-empty string")
    return hashlib.sha256(_dumps({"kind": kind, "fields": canonical(fields), "version": str(version)})
                          .encode("ascii")).hexdigest()


def _check_key(key) -> None:
    if not isinstance(key, str) or SHA256.match(key) is None:
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")


# --- the signing key and the folder ------------------------------------------------------

def key_path() -> Path:
    """The file holding the secret the cache files are signed with: $ANALYZER_CACHE_KEY, else DEFAULT_KEY_PATH."""
    return Path(os.environ.get(KEY_ENV) or DEFAULT_KEY_PATH.expanduser())


def signing_key() -> bytes:
    """The secret of `key_path()` (64 hex digits), made on first use readable by the user only; Unusable
    naming the file when it cannot be made or read, or does not hold a key."""
    path = key_path()
    try:
        if not path.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temp = path.with_name(f".{path.name}.{os.getpid()}")
            with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="ascii") as handle:
                handle.write(secrets.token_hex(DIGEST_BYTES) + "\n")
            try:
                with contextlib.suppress(FileExistsError):
                    os.link(temp, path)         # the whole key appears at once, or another run's stays
            finally:
                temp.unlink()
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise Unusable(f"its key file {path} ({KEY_ENV}) cannot be made or read "
                       f"({getattr(error, 'strerror', None) or error})") from None
    if SHA256.match(text) is None:
        raise Unusable(f"its key file {path} ({KEY_ENV}) does not hold a key (64 hex digits)")
    return bytes.fromhex(text)


def open_folder(folder) -> None:
    """Make `folder` ready to be the cache, before any work, or raise Unusable saying why: a writable folder,
    made or empty (then tagged CACHEDIR.TAG) or already tagged.  Dead writers' temporary files are removed;
    the signing key is made or read."""
    folder = Path(folder)
    tag = folder / TAG_NAME
    try:
        if os.path.lexists(folder) and not folder.is_dir():
            raise Unusable("is a file, not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
            raise Unusable("is on a read-only file system" if os.statvfs(folder).f_flag & os.ST_RDONLY
                           else "is not writable (permission denied)")
        if not tag.is_file():
            if any(entry.name != TAG_NAME for entry in folder.iterdir()):      # (another run's tag being written)
                raise Unusable(f"holds files and no {TAG_NAME}: it is not a count cache (the cache deletes what "
                               "it makes, so it needs a folder of its own)")
            tag.write_text(TAG, encoding="ascii")
        for entry in folder.iterdir():
            match = TEMPORARY.fullmatch(entry.name)
            if match and not _alive(int(match.group(2))):
                entry.unlink(missing_ok=True)
    except OSError as error:
        raise Unusable(f"cannot be made or written ({error.strerror or error})") from None
    signing_key()


def cache_files(folder) -> list[Path]:
    """The cache files of a folder: the names the cache makes (not temporary files, nothing else)."""
    folder = Path(folder)
    return sorted(path for path in folder.iterdir() if ENTRY.fullmatch(path.name) and path.is_file()) \
        if folder.is_dir() else []


# --- store -------------------------------------------------------------------------------

def store(folder, key: str, arrays: dict, meta: dict | None = None, *, prefix: str | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES) -> Path | None:
    """Write `arrays` (name -> integer or bool ndarray) and `meta` (JSON-able) under `key`; the file's path.
    Written atomically (a temporary file named with this process's id, fsynced, renamed), then `evict`.
    A failing file system or a file over `max_bytes` costs one line "count not cached: <path>: <reason>"
    on stderr, and None.  TypeError for arrays of other dtypes or a meta not JSON-able."""
    _check_key(key)
    meta = canonical(dict(meta or {}))
    prepared = []
    for name in sorted(arrays):
        array = np.asarray(arrays[name], order="C")           # (ascontiguousarray makes 0-d arrays 1-d)
        if not isinstance(name, str):
            raise TypeError(f"array names must be strings, not {name!r}")
        if array.dtype.kind not in STORABLE_KINDS:
            raise TypeError(f"array {name!r} has dtype {array.dtype}: only integer and bool arrays are cached")
        prepared.append((name, array))
    head = MAGIC + b" " + str(FORMAT_VERSION).encode("ascii") + b"\n" + _dumps({
        "key": key, "meta": meta, "arrays": [{"name": name, "dtype": array.dtype.str, "shape": list(array.shape),
                                              "nbytes": array.nbytes} for name, array in prepared]}).encode("ascii")
    head += b" " * (-(len(head) + 1) % ALIGN) + b"\n"       # padded: the first array starts aligned
    text = prefix if prefix is not None else str(meta.get("kind", "cache"))
    path = Path(folder) / f"{re.sub('[^A-Za-z0-9_.]', '_', text).strip('._')[:64] or 'cache'}-{key[:16]}{SUFFIX}"
    *starts, end = _layout(len(head), [array.nbytes for _, array in prepared])
    pieces, at = [head], len(head)
    for (_, array), start in zip(prepared, starts):
        pieces += [bytes(start - at), array.reshape(-1).view(np.uint8)]
        at = start + array.nbytes
    size, temp = end + DIGEST_BYTES, None
    if size > max_bytes:
        print(f"count not cached: {path}: {size} bytes exceed the cache's bound of {max_bytes} bytes", file=sys.stderr)
        return None
    try:
        mac = hmac.new(signing_key(), digestmod=hashlib.sha256)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".partial")
        with open(fd, "wb") as handle:
            for piece in pieces:
                mac.update(piece)
                handle.write(piece)
            handle.write(mac.digest())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)                  # (readable by the user only, as mkstemp made it)
    except (OSError, Unusable) as error:
        if temp is not None:
            Path(temp).unlink(missing_ok=True)
        print(f"count not cached: {path}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
        return None
    evict(path.parent, max_bytes, keep=path)
    return path


def _layout(head_bytes: int, sizes: list[int]) -> list[int]:
    """Where each array starts (aligned, after the head), and last where the arrays end."""
    starts, at = [], head_bytes
    for nbytes in sizes:
        starts.append(at + -at % ALIGN)
        at = starts[-1] + nbytes
    return starts + [at]


def evict(folder, max_bytes: int = DEFAULT_MAX_BYTES, keep: Path | None = None) -> list[Path]:
    """Delete least recently used cache files (`cache_files`, by mtime) until they total <= max_bytes, never
    `keep`; the deleted paths."""
    entries = []
    for path in cache_files(folder):
        with contextlib.suppress(FileNotFoundError):
            status = path.stat()
            entries.append((status.st_mtime_ns, path.name, path, status.st_size))
    entries.sort()                      # oldest first; the name breaks mtime ties deterministically
    total, deleted = sum(size for *_, size in entries), []
    for _, _, path, size in entries:
        if total <= max_bytes:
            break
        if path != keep:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            total -= size
            deleted.append(path)
    return deleted


# --- load --------------------------------------------------------------------------------

def _arrays(data, header: dict, head_bytes: int) -> dict:
    """The arrays a verified file's header describes, as views of its mapped bytes."""
    try:
        descriptions = header["arrays"]
        dtypes = [np.dtype(d["dtype"]) for d in descriptions]
        shapes = [tuple(d["shape"]) for d in descriptions]
        sizes = [d["nbytes"] for d in descriptions]
        if any(dtype.kind not in STORABLE_KINDS for dtype in dtypes) or any(
                type(n) is not int or n < 0 for shape, size in zip(shapes, sizes) for n in (*shape, size)) or any(
                int(np.prod(shape, dtype=object)) * dtype.itemsize != size
                for dtype, shape, size in zip(dtypes, shapes, sizes)):
            raise _Damaged("bad array description")
        *starts, end = _layout(head_bytes, sizes)
        if end + DIGEST_BYTES != len(data):
            raise _Damaged(f"file is {len(data)} bytes, its header describes {end + DIGEST_BYTES}")
        return {d["name"]: np.frombuffer(data, dtype, size // dtype.itemsize, start).reshape(shape)
                for d, dtype, shape, size, start in zip(descriptions, dtypes, shapes, sizes, starts)}
    except (KeyError, TypeError, ValueError):
        raise _Damaged("malformed header") from None


def _read(path: Path, key: str, secret: bytes) -> tuple[dict, dict] | None:
    """(arrays, meta) of one cache file, None if it holds another key; _Damaged if it fails a check."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY) if size else b""
    first = data.find(b"\n")
    version = data[len(MAGIC) + 1:first] if data[:len(MAGIC) + 1] == MAGIC + b" " and first > 0 else None
    if version != str(FORMAT_VERSION).encode("ascii"):
        raise _Damaged("not a cache file" if version is None else
                       f"format version {version[:16]!r}, this code reads {FORMAT_VERSION}")
    if size < DIGEST_BYTES or not hmac.compare_digest(
            hmac.new(secret, memoryview(data)[:size - DIGEST_BYTES], hashlib.sha256).digest(), data[-DIGEST_BYTES:]):
        raise _Damaged(f"its HMAC does not match this user's key ({key_path()}): forged, damaged or "
                       "written with another key")
    second = data.find(b"\n", first + 1)
    try:
        header = json.loads(data[first + 1:second].decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise _Damaged("unreadable header") from None
    if not isinstance(header, dict) or header.get("key") != key:
        return None                     # another key sharing the name's 16 digits: not ours, not damaged
    return _arrays(data, header, second + 1), header.get("meta", {})


def load(folder, key: str) -> tuple[dict, dict] | None:
    """(arrays, meta) cached under `key` in `folder` (arrays copy on write, meta in its JSON form), or None.
    A file that fails a check (format, HMAC, length) is deleted with one line on stderr, and None.
    A file read becomes the most recently used."""
    _check_key(key)
    for path in [path for path in cache_files(folder) if path.name.endswith(f"-{key[:16]}{SUFFIX}")]:
        try:
            loaded = _read(path, key, signing_key())
        except FileNotFoundError:       # evicted by another process meanwhile
            continue
        except (_Damaged, OSError) as problem:
            print(f"count cache: not trusting {path}: {problem}; it is recounted", file=sys.stderr)
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            return None
        if loaded is not None:
            with contextlib.suppress(OSError):
                os.utime(path)
            return loaded
    return None
