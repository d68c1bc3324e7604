"""Baccarat shoes as a user gives them: ten counts by card value, or the cards already dealt from the full shoe,
checked against the rule set's full shoe where one is known."""
from __future__ import annotations

from analyzer.core import cards as cardtext
from analyzer.core.errors import InputError
from analyzer.games.baccarat.rules import CARDS_PER_DECK_BY_VALUE, N_VALUES, VALUE_NAMES

ASCII_DIGITS = frozenset("0123456789")
CARDS_FOR_A_ROUND = 6


class ShoeError(InputError):
    """A shoe that cannot be dealt: negative counts, too few cards, removing absent cards."""


def check_shoe(counts, full_shoe=None) -> tuple:
    """The counts as a tuple, refused unless 10 whole numbers >= 0 with at least 6 cards (and within `full_shoe`)."""
    counts = tuple(counts)
    if len(counts) != N_VALUES:
        raise ShoeError(f"a shoe is 10 counts (values 0..9), got {len(counts)}")
    for value, n in enumerate(counts):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ShoeError(f"count of value {VALUE_NAMES[value]} must be a whole number >= 0, got {n!r}")
        if full_shoe is not None and n > full_shoe[value]:
            raise ShoeError(f"count of value {VALUE_NAMES[value]} is {n}, more than the rule set's full shoe "
                            f"holds ({full_shoe[value]}; full shoe {','.join(map(str, full_shoe))})")
    if sum(counts) < CARDS_FOR_A_ROUND:
        raise ShoeError(f"a round may need {CARDS_FOR_A_ROUND} cards; this shoe holds {sum(counts)}")
    return counts


def parse_counts(text_counts: str, full_shoe=None) -> tuple:
    """'128,32,32,...' (ten counts, values 0..9, ASCII digits only) -> a checked shoe, within `full_shoe` if given."""
    parts = cardtext.split_tokens(text_counts)
    if not parts:
        raise ShoeError("--counts needs 10 whole numbers (values 0 (T J Q K), 1 (A), 2, ..., 9), got nothing")
    for part in parts:
        if not set(part) <= ASCII_DIGITS:
            raise ShoeError(f"--counts takes 10 whole numbers written with the digits 0-9 (values 0..9); "
                            f"{part!r} is not one (in {text_counts!r})")
    return check_shoe([int(p) for p in parts], full_shoe)


def card_value(rank: int) -> int:
    """Baccarat value of a rank index (0 = deuce .. 12 = ace)."""
    return 1 if rank == 12 else (rank + 2 if rank <= 7 else 0)


def decks_of(counts) -> int | None:
    """The number of decks when `counts` is a full shoe, else None."""
    counts = tuple(counts)
    decks = counts[1] // CARDS_PER_DECK_BY_VALUE[1] if len(counts) == N_VALUES else 0
    return decks if decks and counts == tuple(decks * n for n in CARDS_PER_DECK_BY_VALUE) else None


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _read_removed(token: str) -> tuple[int, int | None]:
    """(rank, card) of a removed card given by rank and suit, (rank, None) of one given by rank alone."""
    if len(token) >= 2 and token[-1].lower() in cardtext.SUITS:
        card = cardtext.parse_card(token)
        return cardtext.rank_of(card), card
    return cardtext.parse_rank(token), None


def remove_cards(counts, removed_text: str) -> tuple:
    """The shoe after removing cards given by rank ('5,5,9,K') or by rank and suit ('5h 9c'); from a full shoe
    of d decks a rank is refused past 4d removals, a suited card past d."""
    tokens = cardtext.split_tokens(removed_text)
    if not tokens:
        raise ShoeError("--remove needs at least one card, e.g. 5,5,9,K or 5h,9c (without --remove: the full shoe)")
    read = [_read_removed(token) for token in tokens]     # every token first: a malformed one is refused first
    decks = decks_of(counts)
    counts = list(counts)
    by_rank, by_card = [0] * cardtext.N_RANKS, {}
    for token, (rank, card) in zip(tokens, read):
        if card is not None:
            by_card[card] = by_card.get(card, 0) + 1
            if decks is not None and by_card[card] > decks:
                raise ShoeError(f"cannot remove {cardtext.card_str(card)} a {_ordinal(by_card[card])} time: "
                                f"the {decks}-deck shoe holds {decks} of it")
        by_rank[rank] += 1
        if decks is not None and by_rank[rank] > decks * cardtext.N_SUITS:
            raise ShoeError(f"cannot remove a {_ordinal(by_rank[rank])} card of rank {cardtext.RANKS[rank]} "
                            f"({token!r}): the {decks}-deck shoe holds {decks * cardtext.N_SUITS}")
        value = card_value(rank)
        if counts[value] == 0:
            raise ShoeError(f"cannot remove {token!r}: no card of value {VALUE_NAMES[value]} is left in the shoe")
        counts[value] -= 1
    return check_shoe(counts)
