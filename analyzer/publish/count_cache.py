"""The count cache: paytable-free integer counts kept between runs, signed, in a folder of the tool's own.

The expensive enumerations (Casino Hold'em's 1.29 million x 40 continuation counts, Caribbean
Stud's 5.6 million situation classes) produce integer arrays that do not depend on the paytable.
They are kept under a key that hashes exactly the rule fields that change them (`cache_key`), so
another paytable on the same deck and qualifier is priced without enumerating.

One file per entry, ``<prefix>-<key[:16]>.tgacache``: the line ``TGACACHE 4``, one line of canonical
JSON (the key, the caller's meta, each array's name, dtype, shape and byte length) padded with spaces
to a multiple of `ALIGN` bytes, each array's bytes from a multiple of `ALIGN`, zeros between, and
last 32 bytes, the HMAC-SHA256 of everything before them keyed by a secret kept outside the folder
(`signing_key`).  A file is trusted only when that HMAC matches; it is read through a private
memory map (no copy: its arrays are writable, copy on write).  The folder holds `TAG_NAME`
(CACHEDIR.TAG); the tool deletes only the names it makes.  Format, folder and threat model:
docs/count-cache.md.
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
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np

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
        return sorted((canonical(item) for item in value), key=_dumps)
    if isinstance(value, dict):
        if any(not isinstance(name, str) for name in value):
            raise TypeError(f"cache key field names must be strings: {sorted(map(repr, value))}")
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


def _is_key(key) -> bool:
    return isinstance(key, str) and re.fullmatch("[0-9a-f]{64}", key) is not None


# --- the signing key and the folder ------------------------------------------------------

def key_path() -> Path:
    """The file holding the secret the cache files are signed with: $ANALYZER_CACHE_KEY, else DEFAULT_KEY_PATH."""
    return Path(os.environ.get(KEY_ENV) or DEFAULT_KEY_PATH.expanduser())


def signing_key() -> bytes:
    """The secret of `key_path()` (64 hex digits in the file), made on first use readable by the user only.

    Raises Unusable naming the file when it cannot be made or read, or does not hold a key.
    """
    path = key_path()
    try:
        if not path.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temp = path.with_name(f".{path.name}.{os.getpid()}")
            with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="ascii") as handle:
                handle.write(secrets.token_hex(DIGEST_BYTES) + "\n")
            try:
                os.link(temp, path)             # the whole key appears at once, or another run's stays
            except FileExistsError:
                pass
            finally:
                temp.unlink()
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise Unusable(f"its key file {path} ({KEY_ENV}) cannot be made or read "
                       f"({getattr(error, 'strerror', None) or error})") from None
    if re.fullmatch("[0-9a-f]{64}", text) is None:
        raise Unusable(f"its key file {path} ({KEY_ENV}) does not hold a key (64 hex digits)")
    return bytes.fromhex(text)


def open_folder(folder) -> None:
    """Make `folder` ready to be the cache, before any work, or raise Unusable saying why.

    A missing folder is made, with its CACHEDIR.TAG; an existing one must be a writable folder
    that is empty (it is then tagged) or already tagged; a plain file, a folder holding anything
    else, a read-only one and one that cannot be made are refused.  Temporary files of writers
    no longer running are removed.  The signing key is made or read (`signing_key`).
    """
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
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if ENTRY.fullmatch(path.name) and path.is_file())


# --- store -------------------------------------------------------------------------------

def _head(header: dict) -> bytes:
    """The magic line and the header line, padded with spaces so that the first array starts aligned."""
    line = MAGIC + b" " + str(FORMAT_VERSION).encode("ascii") + b"\n" + _dumps(header).encode("ascii")
    return line + b" " * (-(len(line) + 1) % ALIGN) + b"\n"


def store(folder, key: str, arrays: dict, meta: dict | None = None, *, prefix: str | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES) -> Path | None:
    """Write `arrays` (name -> integer or bool ndarray) and `meta` (JSON-able) under `key`; the file's path.

    The file is ``<prefix>-<key[:16]>.tgacache`` (prefix: `prefix`, else ``meta["kind"]``, else
    "cache"), written atomically (a temporary file named with this process's id, fsynced, renamed);
    then the least recently used cache files are deleted until the folder holds at most `max_bytes`.
    A file system that fails (a full disk, a read-only one) or a file larger than `max_bytes` is
    not fatal: one line "count not cached: <path>: <reason>" on stderr, and None.
    Raises TypeError for arrays of other dtypes or a meta that is not JSON-able, ValueError for a
    malformed key.
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    meta = canonical(dict(meta or {}))
    prepared = []
    for name in sorted(arrays):
        array = np.asarray(arrays[name])
        array = array if array.flags.c_contiguous else array.copy(order="C")   # keeps 0-d arrays 0-d
        if not isinstance(name, str):
            raise TypeError(f"array names must be strings, not {name!r}")
        if array.dtype.kind not in STORABLE_KINDS:
            raise TypeError(f"array {name!r} has dtype {array.dtype}: only integer and bool arrays are cached")
        prepared.append((name, array))
    head = _head({"key": key, "meta": meta, "arrays": [
        {"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "nbytes": array.nbytes}
        for name, array in prepared]})
    text = prefix if prefix is not None else str(meta.get("kind", "cache"))
    path = Path(folder) / f"{re.sub('[^A-Za-z0-9_.]', '_', text).strip('._')[:64] or 'cache'}-{key[:16]}{SUFFIX}"
    *starts, end = _layout(len(head), [array.nbytes for _, array in prepared])
    pieces, at = [head], len(head)
    for (_, array), start in zip(prepared, starts):
        pieces += [bytes(start - at), array.reshape(-1).view(np.uint8)]
        at = start + array.nbytes
    size = end + DIGEST_BYTES
    if size > max_bytes:
        print(f"count not cached: {path}: {size} bytes exceed the cache's bound of {max_bytes} bytes",
              file=sys.stderr)
        return None
    temp = None
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
    """Delete least recently used cache files (by mtime) until they total <= max_bytes; `keep` is kept.

    Only the names the cache makes are considered (`cache_files`).  Returns the deleted paths.
    """
    entries = []
    for path in cache_files(folder):
        try:
            status = path.stat()
        except FileNotFoundError:
            continue
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
    """(arrays, meta) cached under `key` in `folder`, or None.

    None when there is no such file; also when it fails a check (its format, its HMAC under
    `signing_key()`, its length): then it is deleted and one line says so on stderr (the caller
    recounts).  Arrays come back writable (copy on write), of the stored dtype and shape; meta in
    its JSON form (Fractions as "p/q" strings).  A file read becomes the most recently used.
    """
    if not _is_key(key):
        raise ValueError(f"{key!r} is not a cache key (64 lowercase hex digits from cache_key)")
    for path in cache_files(folder):
        if not path.name.endswith(f"-{key[:16]}{SUFFIX}"):
            continue
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
