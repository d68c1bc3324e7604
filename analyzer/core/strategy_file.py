"""Strategy files: one documented, versioned binary layout shared by every game.

A strategy file is a gzip stream (written with mtime 0 and no file name, so the same
content gives the same bytes).  Decompressed it holds:

    line 1   the magic text "TGA-STRATEGY" and the format version, e.g. "TGA-STRATEGY 1\\n"
    line 2   one line of JSON, the header (game, rule set, rule-file sha256, row count,
             the common denominator of every EV numerator, and the columns)
    then     each column in header order, little-endian; a column of width w > 1 is
             stored as w planes (every row's first value, then every row's second ...),
             which lets sorted keys compress about twenty-fold

Rows are sorted by their key bytes, ascending, so a reader can binary-search a key.
docs/strategy-format.md is the full specification; this module is one reader and the
writer.
"""
from __future__ import annotations

import gzip
import io
import json

import numpy as np

MAGIC = "TGA-STRATEGY"
VERSION = 1

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
    padded = np.zeros((len(keys), 8), dtype=np.uint8)      # the key bytes at the end: one big-endian word
    padded[:, 8 - keys.shape[1]:] = keys
    return padded.view(">u8").reshape(len(keys)).astype(np.uint64)


def encode(header: dict, columns: dict[str, np.ndarray], compresslevel: int = 6) -> bytes:
    """The file's bytes for `columns` (name -> array, keys first), with `header` completed.

    The header's "columns" entry is built here: name, dtype and width of each column.
    `compresslevel` (gzip, 1..9) trades size for time; readers do not depend on it.
    """
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
    header = dict(header, format="tga-strategy", version=VERSION, rows=rows.pop(), columns=described)
    body = io.BytesIO()
    body.write(f"{MAGIC} {VERSION}\n".encode())
    body.write(json.dumps(header, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    for name, array in columns.items():
        body.write(np.ascontiguousarray(array.T if array.ndim == 2 else array).tobytes())
    compressed = io.BytesIO()
    with gzip.GzipFile(fileobj=compressed, mode="wb", compresslevel=compresslevel, mtime=0, filename="") as stream:
        stream.write(body.getvalue())
    return compressed.getvalue()


def decode(data: bytes, source: str = "strategy file") -> tuple[dict, dict[str, np.ndarray]]:
    """(header, columns) from a strategy file's bytes; StrategyFileError if it is not one."""
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError) as error:
        raise StrategyFileError(f"{source}: not a complete gzip stream ({error})") from None
    magic_end = raw.find(b"\n")
    magic = raw[:magic_end].decode("ascii", "replace").split(" ")
    if len(magic) != 2 or magic[0] != MAGIC:
        raise StrategyFileError(f"{source}: not a strategy file (no {MAGIC} line)")
    if magic[1] != str(VERSION):
        raise StrategyFileError(f"{source}: format version {magic[1]}, this reader reads version {VERSION}")
    header_end = raw.find(b"\n", magic_end + 1)
    try:
        header = json.loads(raw[magic_end + 1:header_end])
    except ValueError:
        raise StrategyFileError(f"{source}: damaged header") from None
    rows, offset, columns = header["rows"], header_end + 1, {}
    for column in header["columns"]:
        dtype = DTYPES[column["dtype"]]
        size = rows * column["width"] * dtype.itemsize
        if offset + size > len(raw):
            raise StrategyFileError(f"{source}: truncated in column {column['name']!r}")
        array = np.frombuffer(raw, dtype=dtype, count=rows * column["width"], offset=offset)
        columns[column["name"]] = array.reshape(column["width"], rows).T if column["width"] > 1 else array
        offset += size
    if offset != len(raw):
        raise StrategyFileError(f"{source}: {len(raw) - offset} unexpected bytes after the last column")
    return header, columns
