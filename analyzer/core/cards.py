"""Cards as text and as integers: "Ah" <-> 50 (card = rank * 4 + suit, rank 0 = deuce, suit c d h s).  All
user-supplied card text goes through here, so malformed and duplicate cards are refused with one message."""
from __future__ import annotations

import re

from analyzer.core.errors import InputError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_RANKS, N_SUITS = len(RANKS), len(SUITS)
N_CARDS = N_RANKS * N_SUITS


class CardError(InputError):
    """Card text that cannot be read: malformed, duplicated, or the wrong number of cards."""


def rank_of(card: int) -> int:
    return card // N_SUITS


def suit_of(card: int) -> int:
    return card % N_SUITS


def make_card(rank: int, suit: int) -> int:
    return rank * N_SUITS + suit


def card_str(card: int) -> str:
    """The two-letter text of a card.

    >>> card_str(50)
    'Ah'
    """
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def cards_str(cards) -> str:
    return " ".join(card_str(c) for c in cards)


def parse_rank(text: str) -> int:
    """A rank letter (A K Q J T 9..2, also '10'), case-insensitive -> 0 (deuce) .. 12 (ace)."""
    token = text.strip().upper()
    if token == "10":
        token = "T"
    if len(token) != 1 or token not in RANKS:
        raise CardError(f"{text.strip()!r} is not a card rank (use A K Q J T 9 8 7 6 5 4 3 2)")
    return RANKS.index(token)


def parse_card(text: str) -> int:
    """'Ah', 'td', '10s' -> card index.

    >>> parse_card("Ah")
    50
    """
    known = CARD_INDEX.get(text)
    if known is not None:
        return known
    token = text.strip()
    if len(token) < 2:
        raise CardError(f"{token!r} is not a card (write rank then suit, e.g. Ah, Td, 7c)")
    rank_text, suit_text = token[:-1], token[-1].lower()
    if suit_text not in SUITS:
        raise CardError(f"{token!r} is not a card: suit {token[-1]!r} is not one of c d h s")
    try:
        rank = parse_rank(rank_text)
    except CardError:
        raise CardError(f"{token!r} is not a card: rank {rank_text!r} is not one of "
                        "A K Q J T 9 8 7 6 5 4 3 2") from None
    return make_card(rank, SUITS.index(suit_text))


CARD_INDEX = {rank_text + suit_text: make_card(rank, suit)
              for rank, rank_letter in enumerate(RANKS) for suit, suit_letter in enumerate(SUITS)
              for rank_text in {rank_letter, rank_letter.lower()} for suit_text in {suit_letter, suit_letter.upper()}}


def split_tokens(text: str) -> list[str]:
    if "," not in text:
        return text.split()
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def parse_cards(text: str, count: int | None = None, what: str = "cards") -> list[int]:
    """Parse space- or comma-separated cards, refusing duplicates and a wrong count."""
    cards = [parse_card(t) for t in split_tokens(text)]
    _check_count(cards, count, what, text)
    _check_repeats(cards, what)
    return cards


def parse_groups(texts, groups) -> list[list[int]]:
    """Card groups as text, one per (distinct name, number of cards) of `groups`; each rule checked over the
    whole input before the next (docs/strategy-format.md, section 7: the first rule broken names the
    refusal): every token a card, then every group's count, then no card twice, in one group or in two."""
    cards = [[parse_card(t) for t in split_tokens(text)] for text in texts]
    for (name, count), text, group in zip(groups, texts, cards):
        _check_count(group, count, f"the {name}", text)
    for (name, _), group in zip(groups, cards):
        _check_repeats(group, f"the {name}")
    check_disjoint({name: group for (name, _), group in zip(groups, cards)})
    return cards


def _check_count(cards: list[int], count: int | None, what: str, text: str) -> None:
    if count is not None and len(cards) != count:
        raise CardError(f"{what} needs {count} card(s), got {len(cards)}: {text.strip()!r}")


def _check_repeats(cards: list[int], what: str) -> None:
    seen = set()
    for card in cards:
        if card in seen:
            raise CardError(f"card {card_str(card)} appears twice in {what}")
        seen.add(card)


def check_disjoint(groups: dict[str, list[int]]) -> None:
    """Refuse a card that appears in two groups (e.g. the hole cards and the flop)."""
    owner: dict[int, str] = {}
    for name, cards in groups.items():
        for card in cards:
            if card in owner:
                raise CardError(f"card {card_str(card)} appears in both {owner[card]} and {name}")
            owner[card] = name
