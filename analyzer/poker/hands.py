"""Poker hands as the rule files speak of them: category names and words, qualifiers, decks."""
from __future__ import annotations

from analyzer.core.cards import RANKS, SUITS, make_card
from analyzer.core.rules import RuleError, list_of, table, text
from cython_ext import handeval

CATEGORIES = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
              "full_house", "four_of_a_kind", "straight_flush", "royal_flush")
CATEGORY_WORDS = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush", "royal flush")
ONE_PAIR = CATEGORIES.index("one_pair")
# How a player reads hands and ranks on a strategy card.
HAND_WORDS = ("no pair", "a pair", "two pair", "three of a kind", "a straight", "a flush", "a full house",
              "four of a kind", "a straight flush", "a royal flush")
RANK_LETTERS = tuple(RANKS)
RANK_PLURAL = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces")
RANK_SINGULAR = ("a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "an 8", "a 9", "a 10", "a jack", "a queen", "a king",
                 "an ace")

QUALIFIER_SCHEMA = table({"category": text(choices=CATEGORIES), "ranks": list_of(text(), unique=False)})
DECK_SCHEMA = table({"ranks": text(), "suits": text()})


def deck_cards(deck: dict, file: str) -> list[int]:
    """The cards of a [deck] table: every listed rank in every listed suit (a full deck by default)."""
    ranks, suits = deck["ranks"], deck["suits"]
    for key, letters, alphabet in (("deck.ranks", ranks, RANKS), ("deck.suits", suits, SUITS)):
        bad = [ch for ch in letters if ch not in alphabet]
        if bad or len(set(letters)) != len(letters) or not letters:
            raise RuleError(file, key, f"{letters!r} must list distinct letters from {alphabet!r}")
    if suits != SUITS[:len(suits)]:
        # situations are keyed by renaming suits onto c, d, h, s in that order
        raise RuleError(file, "deck.suits", f"{suits!r}: a reduced deck uses the first suits in the order "
                                            f"c d h s (e.g. 'cd'), got {suits!r}")
    return sorted(make_card(RANKS.index(r), SUITS.index(s)) for r in ranks for s in suits)


# A qualifier's ranks by category: (names of the defining ranks, as the hand is read; most kickers).  A
# qualifier may give a prefix of them: ["4"] for "a pair of fours or better".
QUALIFIER_RANKS = {
    "high_card": ((), 5),
    "one_pair": (("pair",), 3),
    "two_pair": (("high pair", "low pair"), 1),
    "three_of_a_kind": (("three",), 2),
    "straight": (("high card",), 0),
    "flush": ((), 5),
    "full_house": (("three", "pair"), 0),
    "four_of_a_kind": (("four",), 1),
    "straight_flush": (("high card",), 0),
    "royal_flush": ((), 0),
}
FIVE_HIGH = RANKS.index("5")          # the lowest straight's high card (A 2 3 4 5)
STRAIGHTS = [{(high - i) % 13 for i in range(5)} for high in range(FIVE_HIGH, 13)]


def qualifier_value(qualifier: dict, file: str, key: str = "qualifier") -> int:
    """The smallest hand value that qualifies, from {category, ranks}: ranks as letters, read strictly (a
    category's defining ranks, then at most QUALIFIER_RANKS' kickers, descending where the hand reads so);
    RuleError naming the key otherwise."""
    category = qualifier["category"]
    entries = qualifier["ranks"]
    where = f"{key}.ranks"
    ranks = []
    for i, entry in enumerate(entries):
        token = entry.strip().upper()
        if token == "10":
            token = "T"
        if len(token) != 1 or token not in RANKS:
            raise RuleError(file, f"{where}[{i}]", f"{entry!r} is not one rank (each entry is one of "
                                                   "A K Q J T 9 8 7 6 5 4 3 2, e.g. ranks = [\"A\", \"K\"])")
        ranks.append(RANKS.index(token))
    defining, kickers = QUALIFIER_RANKS[category]
    most = len(defining) + kickers
    words = CATEGORY_WORDS[CATEGORIES.index(category)]
    if len(ranks) > most:
        allowed = ", then ".join(p for p in (" and ".join(f"the {d}" for d in defining),
                                              f"{kickers} kicker(s)" if kickers else "") if p)
        raise RuleError(file, where, f"{entries!r}: {words} takes at most {most} rank(s)"
                                     + (f" ({allowed})" if allowed else ""))
    head, tail = ranks[:len(defining)], ranks[len(defining):]
    if category in ("high_card", "flush", "two_pair"):
        head, tail = [], ranks               # every rank strictly descends
    if len(set(head)) != len(head):
        raise RuleError(file, where, f"{entries!r}: the {' and the '.join(defining)} of {words} must differ")
    if any(a <= b for a, b in zip(tail, tail[1:])):
        what = "the ranks" if not head else "the kickers"
        raise RuleError(file, where, f"{entries!r}: {what} of {words} must strictly descend, each rank once "
                                     "(e.g. [\"A\", \"K\"])")
    if set(tail) & set(head):
        raise RuleError(file, where, f"{entries!r}: a kicker cannot repeat the {' or the '.join(defining)}")
    if category in ("straight", "straight_flush") and ranks and ranks[0] < FIVE_HIGH:
        raise RuleError(file, where, f"{entries!r}: no {words} is {RANKS[ranks[0]]}-high (the lowest is 5-high)")
    if category in ("high_card", "flush") and len(ranks) == 5 and set(ranks) in STRAIGHTS:
        raise RuleError(file, where, f"{entries!r}: five ranks in sequence are a straight, not {words}")
    return handeval.threshold_value(CATEGORIES.index(category), ranks)


def qualifier_words(qualifier: dict) -> str:
    """'a pair of 4s or better', 'A K or better (high card)'."""
    category = CATEGORIES.index(qualifier["category"])
    ranks = " ".join(qualifier["ranks"])
    if category == ONE_PAIR and len(qualifier["ranks"]) == 1:
        return f"a pair of {ranks}s or better"
    return f"{CATEGORY_WORDS[category]} {ranks} or better".replace("  ", " ")
