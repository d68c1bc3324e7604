"""A strategy-file reader written only from docs/strategy-format.md: no analyzer imports.

Used by the tests to show that the specification alone is enough to answer deals.
"""
import bisect
import gzip
import json
from fractions import Fraction

RANKS, SUITS = "23456789TJQKA", "cdhs"
SIZES = {"u1": 1, "<u4": 4, "<i4": 4, "<i8": 8}


class Column:
    """Row i of a column, read straight from the decompressed bytes (section 1)."""

    def __init__(self, body, offset, rows, dtype, width):
        self.body, self.offset, self.rows, self.width = body, offset, rows, width
        self.size, self.signed = SIZES[dtype], dtype.startswith("<i")

    def __len__(self):
        return self.rows

    def value(self, row, j=0):
        start = self.offset + (j * self.rows + row) * self.size        # width > 1: planes
        return int.from_bytes(self.body[start:start + self.size], "little", signed=self.signed)

    def __getitem__(self, row):
        if self.width > 1:                   # keys: the row's bytes
            return bytes(self.value(row, j) for j in range(self.width))
        return self.value(row)


def read(path):
    raw = gzip.decompress(open(path, "rb").read())
    magic, rest = raw.split(b"\n", 1)
    assert magic == b"TGA-STRATEGY 1", magic
    header_line, body = rest.split(b"\n", 1)
    header = json.loads(header_line)
    columns, offset = {}, 0
    for c in header["columns"]:
        columns[c["name"]] = Column(body, offset, header["rows"], c["dtype"], c["width"])
        offset += header["rows"] * c["width"] * SIZES[c["dtype"]]
    assert offset == len(body)
    return header, columns


def card(text):
    return RANKS.index(text[0].upper()) * 4 + SUITS.index(text[1].lower())


def canonical(groups):
    """Section 3, step by step."""
    signature = [0, 0, 0, 0]
    for group in groups:
        signature = [s << 13 for s in signature]
        for c in group:
            signature[c % 4] |= 1 << (c // 4)
    order = sorted(range(4), key=lambda s: (-signature[s], s))
    new = {old: i for i, old in enumerate(order)}
    return [sorted(((c // 4) * 4 + new[c % 4] for c in group), reverse=True) for group in groups]


class Reader:
    def __init__(self, path):
        self.header, self.columns = read(path)

    def decide(self, *texts):
        groups = [[card(t) for t in text.split()] for text in texts]
        key = bytes(c for group in canonical(groups) for c in group)
        keys = self.columns["key"]
        row = bisect.bisect_left(keys, key)
        assert keys[row] == key
        d = self.header["denominator"]
        play = Fraction(self.columns[self.header["ev_column"]][row], d)
        fold = Fraction(self.header["ev_fold"], d)
        names = self.header["actions"]
        code = self.columns["decision"][row]
        return key, "either" if code == 2 else names[code], {names[1]: play, names[0]: fold}
