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


def qualifier_value(qualifier: dict, file: str, key: str = "qualifier") -> int:
    """The smallest hand value that qualifies, from {category, ranks} (ranks as letters)."""
    try:
        ranks = [RANKS.index(r.upper().replace("10", "T")) for r in qualifier["ranks"]]
    except ValueError:
        raise RuleError(file, f"{key}.ranks", f"{qualifier['ranks']!r}: ranks are A K Q J T 9 .. 2") from None
    return handeval.threshold_value(CATEGORIES.index(qualifier["category"]), ranks)


def qualifier_words(qualifier: dict) -> str:
    """'a pair of 4s or better', 'A K or better (high card)'."""
    category = CATEGORIES.index(qualifier["category"])
    ranks = " ".join(qualifier["ranks"])
    if category == ONE_PAIR and len(qualifier["ranks"]) == 1:
        return f"a pair of {ranks}s or better"
    return f"{CATEGORY_WORDS[category]} {ranks} or better".replace("  ", " ")
