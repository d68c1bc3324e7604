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


class Damaged(Exception):
    """A file section 1 says to refuse."""


def need(header, fields):
    """Section 1: a field a reader needs, missing or of another kind, is a damaged file."""
    for name, kind in fields.items():
        value = header.get(name)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise Damaged(f"header field {name}")


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


def read(path, needed=()):
    """Section 1: (header, columns), the header agreeing with the magic line, holding the fields `needed`
    (name -> kind) and naming the columns `needed` lists by name."""
    raw = gzip.decompress(open(path, "rb").read())
    magic, rest = raw.split(b"\n", 1)
    if magic != b"TGA-STRATEGY 1":
        raise Damaged("magic line")
    header_line, body = rest.split(b"\n", 1)
    header = json.loads(header_line)
    if not isinstance(header, dict):
        raise Damaged("header")
    if header.get("format") != "tga-strategy" or header.get("version") != 1 or isinstance(header.get("version"), bool):
        raise Damaged("the header's format and version disagree with the magic line")
    need(header, {"rows": int, "columns": list, "game": str, "rule_set": str, "rule_sha256": str,
                  **{name: kind for name, kind in needed if isinstance(kind, type)}})
    columns, offset = {}, 0
    for c in header["columns"]:
        columns[c["name"]] = Column(body, offset, header["rows"], c["dtype"], c["width"])
        offset += header["rows"] * c["width"] * SIZES[c["dtype"]]
    if offset != len(body) or any(name not in columns for name, kind in needed if kind == "column"):
        raise Damaged("columns")
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


POKER_NEEDS = [("groups", list), ("actions", list), ("denominator", int), ("ev_fold", int), ("ev_column", str),
               ("key", "column"), ("decision", "column")]


class Reader:
    def __init__(self, path):
        self.header, self.columns = read(path, POKER_NEEDS)
        if self.header["ev_column"] not in self.columns:
            raise Damaged("ev column")
        keys = self.columns["key"]                                 # section 3, the deck: the cards in the keys
        start, end = keys.offset, keys.offset + keys.rows * keys.width
        present = {v for v in range(256) if keys.body.find(bytes([v]), start, end) != -1}
        ranks = {c // 4 for c in present}
        suits = max(c % 4 for c in present) + 1
        self.deck = {r * 4 + s for r in ranks for s in range(suits)}

    def decide(self, *texts):
        """Section 7's rules in the table's order, each over the whole input (a wrong number of groups first)."""
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


RULES_NEED = {"natural": list, "player_draws_on": list, "banker_draws_when_player_stands": list,
              "banker_draws_on_player_third_card": dict, "pays": dict, "banker_commission": str,
              "tie_pushes_player_and_banker": bool}
SHOE_COLUMNS = ("shoe", "banker_wins", "player_wins", "ties")


def exact(text):
    """Section 1: "p/q"."""
    p, q = text.split("/")
    return Fraction(int(p), int(q))


class ShoeReader:
    """Section 6: the shoe a user means, checked, and each bet's exact EV for it."""

    def __init__(self, path):
        self.header, self.columns = read(path, [("decks", int), ("rules", dict)]
                                         + [(name, "column") for name in SHOE_COLUMNS])
        need(self.header["rules"], RULES_NEED)
        shoes = self.columns["shoe"]
        rows = [[shoes.value(row, j) for j in range(10)] for row in range(len(shoes))]
        self.full = max(rows, key=sum)
        self.decks = self.header["decks"]
        self.stored = {tuple(shoe): [self.columns[name][row] for name in SHOE_COLUMNS[1:]]
                       for row, shoe in enumerate(rows)}

    def outcomes(self, shoe):
        """(banker_wins, player_wins, ties) over every ordered 6-card sequence of the shoe: counted by value."""
        r = self.header["rules"]
        natural, player_draws = set(r["natural"]), set(r["player_draws_on"])
        stands_draw = set(r["banker_draws_when_player_stands"])
        third = {int(total): set(values) for total, values in r["banker_draws_on_player_third_card"].items()}
        c, n = list(shoe), sum(shoe)
        fill = [1] * 7                                   # fill[k]: ways to fill the unused positions after k cards
        for k in range(6, -1, -1):
            fill[k] = 1
            for m in range(n - k, n - 6, -1):
                fill[k] *= m
        result = [0, 0, 0]

        def draw():
            for v in range(10):
                if c[v]:
                    ways = c[v]
                    c[v] -= 1
                    yield v, ways
                    c[v] += 1

        def settle(player, banker, ways, used):
            result[0 if banker > player else 1 if player > banker else 2] += ways * fill[used]

        for p1, w1 in draw():
            for b1, w2 in draw():
                for p2, w3 in draw():
                    for b2, w4 in draw():
                        ways = w1 * w2 * w3 * w4
                        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                        if player in natural or banker in natural:
                            settle(player, banker, ways, 4)
                        elif player in player_draws:
                            for p3, w5 in draw():
                                if p3 in third.get(banker, ()):
                                    for b3, w6 in draw():
                                        settle((player + p3) % 10, (banker + b3) % 10, ways * w5 * w6, 6)
                                else:
                                    settle((player + p3) % 10, banker, ways * w5, 5)
                        elif banker in stands_draw:
                            for b3, w5 in draw():
                                settle(player, (banker + b3) % 10, ways * w5, 5)
                        else:
                            settle(player, banker, ways, 4)
        return result

    def decide(self, shoe):
        """(best bet, each bet's EV, margin): the EV formulas of section 6, the first of equal bets in `actions`."""
        r = self.header["rules"]
        banker, player, ties = self.stored.get(tuple(shoe)) or self.outcomes(shoe)
        total, pays, commission = banker + player + ties, r["pays"], exact(r["banker_commission"])
        lose_on_tie = 0 if r["tie_pushes_player_and_banker"] else ties
        ev = {"banker": Fraction(banker * exact(pays["banker"]) * (1 - commission) - player - lose_on_tie, total),
              "player": Fraction(player * exact(pays["player"]) - banker - lose_on_tie, total),
              "tie": Fraction(ties * exact(pays["tie"]) - banker - player, total)}
        ranked = sorted(self.header["actions"], key=lambda bet: -ev[bet])       # stable: actions order among equals
        return ranked[0], ev, ev[ranked[0]] - ev[ranked[1]]

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
            read_first = [card(part) if len(part) >= 2 and part[-1].lower() in SUITS else None for part in parts]
            read_first = [(c // 4, c) if c is not None else (rank(part), None) for part, c in zip(parts, read_first)]
            for r, c in read_first:                     # section 7: every token read before any is counted
                if c is not None:
                    by_card[c] = by_card.get(c, 0) + 1
                    if by_card[c] > self.decks:
                        raise Refused("removed-too-often")
                by_rank[r] = by_rank.get(r, 0) + 1
                value = 1 if r == 12 else (r + 2 if r <= 7 else 0)
                if by_rank[r] > 4 * self.decks or shoe[value] == 0:
                    raise Refused("removed-too-often")
                shoe[value] -= 1
        if sum(shoe) < 6:
            raise Refused("too-few-cards")
        return shoe
