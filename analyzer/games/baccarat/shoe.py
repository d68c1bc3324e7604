"""Baccarat shoes as a user gives them: ten counts by card value, or the cards already dealt from the full shoe."""
from __future__ import annotations

from analyzer.core import cards as cardtext
from analyzer.core.errors import InputError
from analyzer.games.baccarat.rules import N_VALUES, VALUE_NAMES

class ShoeError(InputError):
    """A shoe that cannot be dealt: negative counts, too few cards, removing absent cards."""


def check_shoe(counts) -> tuple:
    counts = tuple(counts)
    if len(counts) != N_VALUES:
        raise ShoeError(f"a shoe is 10 counts (values 0..9), got {len(counts)}")
    for value, n in enumerate(counts):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ShoeError(f"count of value {VALUE_NAMES[value]} must be a whole number >= 0, got {n!r}")
    if sum(counts) < 6:
        raise ShoeError(f"a round may need 6 cards; this shoe holds {sum(counts)}")
    return counts


def parse_counts(text_counts: str) -> tuple:
    """'128,32,32,...' (ten counts, values 0..9) -> a checked shoe."""
    parts = cardtext.split_tokens(text_counts)
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        raise ShoeError(f"--counts takes 10 whole numbers (values 0..9), got {text_counts!r}") from None
    return check_shoe(counts)


def card_value(rank: int) -> int:
    """Baccarat value of a rank index (0 = deuce .. 12 = ace)."""
    return 1 if rank == 12 else (rank + 2 if rank <= 7 else 0)


def remove_cards(counts, removed_text: str) -> tuple:
    """The shoe after removing cards given by rank ('5,5,9,K' or with suits '5h 9c')."""
    counts = list(counts)
    for token in cardtext.split_tokens(removed_text):
        rank_text = token[:-1] if len(token) >= 2 and token[-1].lower() in cardtext.SUITS \
            and token.upper() != "10" else token
        value = card_value(cardtext.parse_rank(rank_text))
        if counts[value] == 0:
            raise ShoeError(f"cannot remove {token!r}: no card of value {VALUE_NAMES[value]} is left in the shoe")
        counts[value] -= 1
    return check_shoe(counts)
