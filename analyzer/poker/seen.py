"""One deal, for a player who knows more than his own cards: every completion of what he does not see, counted.

Both poker games' `seen` modules (`analyzer advise --seen`, `analyzer audit`) price one deal
for a player who sees some of the dealer's hole cards (a flashed card) or other seats' cards
(colluders): the cards still unseen are completed in every way at once, as index arrays
(`combinations_of`), evaluated together by the compiled evaluator and settled by the one
poker settlement into integer counts by (final category, outcome), so that one deal takes
milliseconds and its EV is an exact Fraction.  Here too: the decision log's card columns
(`LoggedDeal`, `column_cards`).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from analyzer.core.cards import CardError, card_str, check_disjoint, parse_card, split_tokens
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES, Paytable, outcomes
from cython_ext import handeval

MARK = "*"                       # after a card of a log's card column: the card dealt face up


@lru_cache(maxsize=32)
def combinations_of(n: int, r: int) -> np.ndarray:
    """Every r-subset of range(n) as a (C(n, r), r) uint8 array, in itertools.combinations' order (read-only,
    kept: the same few shapes come back deal after deal).

    >>> combinations_of(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), r)), dtype=np.uint8,
                       count=math.comb(n, r) * r)
    subsets = flat.reshape(math.comb(n, r), r)
    subsets.flags.writeable = False
    return subsets


def unseen_cards(deck, groups: dict, needed: int) -> np.ndarray:
    """The deck's cards outside every group {name: cards} (ascending, uint8), after refusing (CardError, naming
    it) a card outside the deck or in two groups, or fewer than `needed` cards left to deal."""
    check_disjoint(groups)
    known = {card for cards in groups.values() for card in cards}
    outside = sorted(known - set(deck))
    if outside:
        raise CardError(f"card {card_str(outside[0])} is not in the deck of these rules")
    if len(deck) - len(known) < needed:
        raise CardError(f"{len(known)} cards known leave {len(deck) - len(known)} of the deck's {len(deck)}: "
                        f"too few to deal the {needed} still to come")
    return np.array([card for card in sorted(deck) if card not in known], dtype=np.uint8)


def outcome_counts(player: np.ndarray, dealer: np.ndarray, qualifier_value: int) -> np.ndarray:
    """(categories, outcomes) int64 counts of equally likely completions, from the player's and the dealer's
    hand values (uint32, one pair per completion)."""
    cells = handeval.categories(player).astype(np.int64) * N_OUTCOMES + outcomes(player, dealer, qualifier_value)
    return np.bincount(cells, minlength=N_CATEGORIES * N_OUTCOMES).reshape(N_CATEGORIES, N_OUTCOMES)


def play_ev(paytable: Paytable, counts: np.ndarray) -> Fraction:
    """The exact EV per ANTE of playing (raising, calling) over the completions `counts` counts."""
    nets = paytable.nets()
    total = sum(int(counts[c, o]) * nets[c][o] for c in range(N_CATEGORIES) for o in range(N_OUTCOMES))
    return total / int(counts.sum())


def check_seen(seen, limit: int, what: str) -> None:
    """Refuse (CardError) more seen dealer cards than the `limit` a leak can show."""
    if len(seen) > limit:
        raise CardError(f"{len(seen)} seen dealer cards: {what} (at most {limit})")


class ColumnError(CardError):
    """A card column of a decision log that cannot be read; `column` names it."""

    def __init__(self, column: str, message: str):
        super().__init__(message)
        self.column = column


def column_cards(fields: dict, column: str, counts: tuple, marked: int = 0) -> tuple[list, list]:
    """(cards, the cards marked with MARK) of a log's card column, refused (ColumnError) unless it holds one of
    `counts` cards, none twice, exactly `marked` of them marked."""
    tokens = split_tokens(fields[column])
    try:
        cards = [parse_card(token.removesuffix(MARK)) for token in tokens]
    except CardError as error:
        raise ColumnError(column, str(error)) from None
    marks = [card for card, token in zip(cards, tokens) if token.endswith(MARK)]
    if len(cards) not in counts:
        raise ColumnError(column, f"{' or '.join(map(str, counts))} cards needed, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ColumnError(column, f"card {card_str(next(c for c in cards if cards.count(c) > 1))} appears twice")
    if len(marks) != marked:
        wanted = f"one card marked {MARK} (the up card)" if marked else f"no card marked {MARK}"
        raise ColumnError(column, f"{wanted} needed, got {len(marks)} marked")
    return cards, marks


@dataclass(frozen=True)
class LoggedDeal:
    """One row of a decision log, read: what the player saw and what the dealer held."""

    groups: tuple                # the player's situation, in the strategy file's card groups
    dealer_hole: tuple           # the dealer's hole cards: those a leak may show
    own: tuple                   # the player's own cards: what colluders pool
    shared: dict                 # {column: its cards}: what every seat of a round shares, the same on each of its rows
    cards: dict                  # {column: cards}, every card of the row
