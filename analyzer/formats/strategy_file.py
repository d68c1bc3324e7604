"""Strategy files: one documented, versioned binary layout shared by every game.

A reproducible gzip stream (mtime 0, no name) holding the line "TGA-STRATEGY 1", a JSON header
line, then each column little-endian (width w > 1 as w planes), rows sorted by key bytes;
docs/strategy-format.md is the specification.  Its deflate stream is one segment per header and
column, each ending on a byte boundary, so a column several files hold is deflated once.
"""
from __future__ import annotations

import itertools
import json
import struct
import sys
import zlib

import numpy as np
from isal import isal_zlib

MAGIC = "TGA-STRATEGY"
VERSION = 1
FORMAT = "tga-strategy"          # the header's "format"; its "version" is the magic line's

# dtype names in the header (numpy spellings, little-endian).
DTYPES = {"u1": np.dtype("u1"), "<u4": np.dtype("<u4"), "<i8": np.dtype("<i8"), "<i4": np.dtype("<i4")}


class StrategyFileError(ValueError):
    """A strategy file that is not of this format, of another version, or damaged."""


def pack_keys(keys: np.ndarray) -> np.ndarray:
    """Key rows (n, k <= 8 bytes) as unsigned integers ordered like their bytes (big-endian).

    >>> pack_keys(np.array([[1, 2], [0, 255]], dtype=np.uint8)).tolist()
    [258, 255]
    """
    keys = np.asarray(keys, dtype=np.uint8)
    if keys.ndim != 2 or keys.shape[1] > 8:
        raise ValueError("pack_keys: key rows of at most 8 bytes")
    packed = np.zeros(len(keys), dtype=np.uint64)
    packed.view(np.uint8).reshape(len(keys), 8)[:, 8 - keys.shape[1]:] = keys   # the key bytes big-endian
    if sys.byteorder == "little":
        packed.byteswap(inplace=True)                       # ... read as a native word
    return packed


def encode(header: dict, columns: dict[str, np.ndarray], levels: dict | None = None, level: int = 6,
           deflated: dict | None = None) -> bytes:
    """The file's bytes for `columns` (name -> array, keys first), the header's "columns" filled in.
    `levels`: a column's gzip level by name (default `level`); `deflated`: {name: `deflate(...)`} made before.
    """
    described = _described(header, columns)
    deflated = deflated or {}
    segments = [deflate(described, level)] + [
        deflated[name] if name in deflated else deflate(array, (levels or {}).get(name, level))
        for name, array in columns.items()]
    crc, size = zlib.crc32(described), len(described)
    for array in columns.values():
        for plane in _planes(array):
            crc, size = zlib.crc32(plane, crc), size + len(plane)
    return b"".join([GZIP_HEADER, *segments, FINAL_BLOCK, struct.pack("<II", crc, size & 0xFFFFFFFF)])


def deflate(column, level: int) -> bytes:
    """A column's (or the header's) segment: raw deflate of its bytes in file order, ending on a byte boundary."""
    deflater = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    planes = (column,) if isinstance(column, bytes) else _planes(column)
    return b"".join([*(deflater.compress(plane) for plane in planes), deflater.flush(zlib.Z_SYNC_FLUSH)])


def _planes(array: np.ndarray):
    """A column's bytes in file order: the array's, or for width w > 1 its w planes (copied one at a time)."""
    for plane in (array,) if array.ndim == 1 else (array[:, j] for j in range(array.shape[1])):
        yield memoryview(np.ascontiguousarray(plane)).cast("B")


# The gzip member's header as `gzip.GzipFile(filename="", mtime=0)` writes it, and the empty final block.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
FINAL_BLOCK = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS).flush()


def _described(header: dict, columns: dict[str, np.ndarray]) -> bytes:
    """The magic line and the header line (with rows and columns filled in)."""
    rows = {len(array) for array in columns.values()}
    if len(rows) != 1:
        raise ValueError("strategy columns differ in length")
    described = []
    for name, array in columns.items():
        dtype = next((k for k, v in DTYPES.items() if v == array.dtype), None)
        if dtype is None:
            raise ValueError(f"column {name}: dtype {array.dtype} is not a strategy-file type")
        width = array.shape[1] if array.ndim == 2 else 1
        described.append({"name": name, "dtype": dtype, "width": width})
    header = dict(header, format=FORMAT, version=VERSION, rows=rows.pop(), columns=described)
    return (f"{MAGIC} {VERSION}\n".encode()
            + json.dumps(header, sort_keys=True, separators=(",", ":")).encode() + b"\n")


def decode(data: bytes, source: str = "strategy file", columns=None,
           matching: dict | None = None) -> tuple[dict, dict[str, np.ndarray]]:
    """(header, columns) from a strategy file's bytes; StrategyFileError if it is not one.

    The whole stream is inflated and checked; only the `columns` named (None: all) are kept, each
    a read-only array filled piece by piece (width w > 1: a (rows, w) view of its planes).
    `matching`: {name: an array the caller holds}; such a column is compared as it inflates and
    comes back as that very array when every byte agrees, else as None.
    """
    pieces = inflated(data, source)
    head = bytearray()                                  # the stream until its two text lines are in
    try:
        for piece in pieces:
            head += piece
            if (found := _header(head, source, final=False)) is not None:
                break
        else:
            found = _header(head, source, final=True)
    except StrategyFileError:
        for _ in pieces:        # a header's fault is raised once the stream is known complete (or not)
            pass
        raise
    header, rows, layout, used = found
    keep = None if columns is None else set(columns)
    matching = {name: array for name, array in (matching or {}).items() if keep is None or name in keep}
    arrays, agrees = {}, {}     # kept column -> its (width, rows) array; compared one -> every byte agreed so far
    end, bound = 0, MAX_DEFLATE_RATIO * len(data)       # the most the stream inflates to: no column is larger
    for name, dtype, width, size in layout:
        end += size
        if name in matching:
            expected = matching[name]                   # comparable byte for byte (`_agrees`)?
            shape = (rows, width) if width > 1 else (rows,)
            agrees[name] = (expected.dtype == dtype and expected.shape == shape
                            and (dtype.itemsize == 1 or expected.flags.c_contiguous and width == 1))
        elif (keep is None or name in keep) and end <= bound:
            arrays[name] = np.empty((width, rows), dtype=dtype)
    column = filled = body = 0          # the column being filled, its bytes so far; the bytes after the header
    for piece in itertools.chain([memoryview(head)[used:]], pieces):
        body += len(piece)
        view = memoryview(piece)
        while len(view) and column < len(layout):
            name, _, _, size = layout[column]
            take = min(size - filled, len(view))
            if name in arrays:
                target = arrays[name].reshape(-1).view(np.uint8)
                target[filled:filled + take] = np.frombuffer(view[:take], dtype=np.uint8)
            elif agrees.get(name):
                agrees[name] = _agrees(matching[name], filled, view[:take])
            view, filled = view[take:], filled + take
            if filled == size:
                column, filled = column + 1, 0
    offset, decoded = 0, {}
    for name, dtype, width, size in layout:
        if offset + size > body:
            raise StrategyFileError(f"{source}: truncated in column {name!r}")
        offset += size
        if name in matching:
            decoded[name] = matching[name] if agrees[name] else None
        elif name in arrays:
            array = arrays.pop(name)
            array.flags.writeable = False
            decoded[name] = array.T if width > 1 else array.reshape(-1)
    if offset != body:
        raise StrategyFileError(f"{source}: {body - offset} unexpected bytes after the last column")
    return header, decoded


def _header(head: bytearray, source: str, final: bool) -> tuple | None:
    """(header, rows, layout, bytes taken) from the stream's two text lines, or None while they are not all in
    (`final`: the stream has ended); StrategyFileError for a fault."""
    magic_end = head.find(b"\n")
    if magic_end < 0 and not final:
        return None
    magic = head[:magic_end if magic_end >= 0 else len(MAGIC) + 8].decode("ascii", "replace").split(" ")
    if len(magic) != 2 or magic[0] != MAGIC:
        raise StrategyFileError(f"{source}: not a strategy file (no {MAGIC} line)")
    if magic[1] != str(VERSION):
        raise StrategyFileError(f"{source}: format version {magic[1]}, this reader reads version {VERSION}")
    header_end = head.find(b"\n", magic_end + 1)
    if header_end < 0:
        if final:
            raise StrategyFileError(f"{source}: damaged header (no header line)")
        return None
    try:
        header = json.loads(bytes(head[magic_end + 1:header_end]))
    except (ValueError, RecursionError):
        raise StrategyFileError(f"{source}: damaged header (not JSON)") from None
    return (header, *_layout(header, source), header_end + 1)


def _agrees(expected: np.ndarray, offset: int, piece) -> bool:
    """Whether a piece of a column's stored bytes (from `offset`) equals `expected`'s bytes there (a contiguous
    column, or one-byte values stored plane after plane)."""
    got = np.frombuffer(piece, dtype=np.uint8)
    if expected.ndim == 1 and expected.flags.c_contiguous:
        return np.array_equal(expected.view(np.uint8)[offset:offset + len(got)], got)
    rows = len(expected)
    planes = expected.reshape(rows, -1)
    while len(got):
        plane, start = divmod(offset, rows)
        take = min(rows - start, len(got))
        if not np.array_equal(planes[start:start + take, plane].view(np.uint8), got[:take]):
            return False
        got, offset = got[take:], offset + take
    return True


INFLATE_PIECE = 1 << 20         # compressed bytes handed to zlib at a time
INFLATED_PIECE = 1 << 20        # decompressed bytes made at once (a piece stays in cache while it is copied out)
MAX_DEFLATE_RATIO = 1032        # deflate expands a byte to at most this many: bounds what a header may claim


def inflated(data, source: str = "gzip stream"):
    """The decompressed bytes of a gzip stream (one member or several) in pieces of at most INFLATED_PIECE
    bytes, CRCs checked; StrategyFileError when it is damaged or incomplete.  ISA-L inflates (twice as
    fast as zlib, the same bytes) and releases the GIL, so files inflate in parallel on threads.
    """
    view = memoryview(data).cast("B")
    start = 0
    try:
        while True:                                   # one gzip member a turn
            inflater = isal_zlib.decompressobj(16 + zlib.MAX_WBITS)
            while not inflater.eof:
                if start >= len(view):
                    raise EOFError("the stream ends before its end-of-stream marker")
                piece, start = view[start:start + INFLATE_PIECE], start + INFLATE_PIECE
                while piece and not inflater.eof:
                    chunk = inflater.decompress(piece, INFLATED_PIECE)
                    if chunk:
                        yield chunk
                    piece = inflater.unconsumed_tail
            start = min(start, len(view)) - len(inflater.unused_data)
            while start < len(view) and view[start] == 0:       # zero padding between members
                start += 1
            if start >= len(view):
                break
    except (isal_zlib.error, EOFError) as error:
        raise StrategyFileError(f"{source}: not a complete gzip stream ({error})") from None


def _layout(header, source: str) -> tuple[int, list]:
    """(rows, (name, dtype, width, bytes) of every column) of a header, checked: StrategyFileError naming the
    field that is wrong."""
    if not isinstance(header, dict):
        raise StrategyFileError(f"{source}: damaged header (not a JSON object)")
    for field, expected in (("format", FORMAT), ("version", VERSION)):
        value = header.get(field)
        if value != expected or type(value) is not type(expected):
            raise StrategyFileError(f"{source}: header field {field!r} is "
                                    f"{'missing' if value is None else repr(value)}, not {expected!r} "
                                    f"(the magic line says {MAGIC} {VERSION})")
    rows = header.get("rows")
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 0:
        raise StrategyFileError(f"{source}: header field 'rows' is {'missing' if rows is None else repr(rows)}, "
                                "not a row count")
    described = header.get("columns")
    if not isinstance(described, list) or not described:
        raise StrategyFileError(f"{source}: header field 'columns' is missing or not a list of columns")
    names = set()
    for i, column in enumerate(described):
        if not isinstance(column, dict) or not isinstance(column.get("name"), str) or column["name"] in names:
            raise StrategyFileError(f"{source}: header field 'columns[{i}]' is not a column with a new name")
        names.add(column["name"])
        if column.get("dtype") not in DTYPES:
            raise StrategyFileError(f"{source}: column {column['name']!r} has dtype {column.get('dtype')!r}, "
                                    f"not one of {', '.join(DTYPES)}")
        width = column.get("width")
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= 64:
            raise StrategyFileError(f"{source}: column {column['name']!r} has width {width!r}, not 1..64")
    return rows, [(c["name"], DTYPES[c["dtype"]], c["width"], rows * c["width"] * DTYPES[c["dtype"]].itemsize)
                  for c in described]
