"""A strategy-file reader written only from docs/strategy-format.md: no analyzer imports.

Used by the tests to show that the specification alone is enough to answer deals.
"""
import bisect
import gzip
import json
from fractions import Fraction

RANKS, SUITS = "23456789TJQKA", "cdhs"
SIZES = {"u1": 1, "<u4": 4, "<i4": 4, "<i8": 8}


class Refused(Exception):
    """An input section 7 says to refuse; .rule is the rule's name."""

    def __init__(self, rule):
        super().__init__(rule)
        self.rule = rule


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


def tokens(text):
    return text.replace(",", " ").split()


def rank(text):
    """Section 7: a rank letter (any case) or 10."""
    text = "T" if text == "10" else text.upper()
    if len(text) != 1 or text not in RANKS:
        raise Refused("malformed-card")
    return RANKS.index(text)


def card(text):
    if len(text) < 2 or text[-1].lower() not in SUITS:
        raise Refused("malformed-card")
    return rank(text[:-1]) * 4 + SUITS.index(text[-1].lower())


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
        keys = self.columns["key"]                                 # section 3, the deck: the cards in the keys
        start, end = keys.offset, keys.offset + keys.rows * keys.width
        present = {v for v in range(256) if keys.body.find(bytes([v]), start, end) != -1}
        ranks = {c // 4 for c in present}
        suits = max(c % 4 for c in present) + 1
        self.deck = {r * 4 + s for r in ranks for s in range(suits)}

    def decide(self, *texts):
        groups = self.header["groups"]
        if len(texts) != len(groups):
            raise Refused("wrong-count")
        cards = [[card(t) for t in tokens(text)] for text in texts]
        if any(len(group) != g["cards"] for group, g in zip(cards, groups)):
            raise Refused("wrong-count")
        flat = [c for group in cards for c in group]
        if len(set(flat)) != len(flat):
            raise Refused("repeated-card")
        if not set(flat) <= self.deck:
            raise Refused("outside-deck")
        key = bytes(c for group in canonical(cards) for c in group)
        keys = self.columns["key"]
        row = bisect.bisect_left(keys, key)
        assert keys[row] == key, "damaged file"
        d = self.header["denominator"]
        play = Fraction(self.columns[self.header["ev_column"]][row], d)
        fold = Fraction(self.header["ev_fold"], d)
        names = self.header["actions"]
        code = self.columns["decision"][row]
        return key, "either" if code == 2 else names[code], {names[1]: play, names[0]: fold}


class ShoeReader:
    """Section 6: the shoe a user means, checked (the EVs themselves are not needed by the tests)."""

    def __init__(self, path):
        self.header, self.columns = read(path)
        shoes = self.columns["shoe"]
        rows = [[shoes.value(row, j) for j in range(10)] for row in range(len(shoes))]
        self.full = max(rows, key=sum)
        self.decks = self.header["decks"]

    def shoe(self, removed=None, counts=None):
        if counts is not None:
            parts = tokens(counts)
            if len(parts) != 10 or not all(p and all(ch in "0123456789" for ch in p) for p in parts):
                raise Refused("not-counts")
            shoe = [int(p) for p in parts]
            if any(n > full for n, full in zip(shoe, self.full)):
                raise Refused("above-full-shoe")
        else:
            shoe, by_rank, by_card = list(self.full), {}, {}
            parts = tokens(removed or "")
            if removed is not None and not parts:
                raise Refused("malformed-card")
            for part in parts:
                if len(part) >= 2 and part[-1].lower() in SUITS:
                    c = card(part)
                    r = c // 4
                    by_card[c] = by_card.get(c, 0) + 1
                    if by_card[c] > self.decks:
                        raise Refused("removed-too-often")
                else:
                    r = rank(part)
                by_rank[r] = by_rank.get(r, 0) + 1
                value = 1 if r == 12 else (r + 2 if r <= 7 else 0)
                if by_rank[r] > 4 * self.decks or shoe[value] == 0:
                    raise Refused("removed-too-often")
                shoe[value] -= 1
        if sum(shoe) < 6:
            raise Refused("too-few-cards")
        return shoe
