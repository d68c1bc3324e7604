"""Casino Hold'em, one deal, with dealer cards seen: calling's outcomes when the player sees K = 0..2 of the
dealer's hole cards at the flop (and, for colluders, other seats' hole cards), every turn, river and unseen
dealer card counted.

What `analyzer advise casino-holdem --seen` and `analyzer audit casino-holdem` ask, by deal: light to import
(the rules and the evaluator, no counting), reached through the registry (`registry.Game.seen`).  The main
game only (ANTE and CALL): the AA Bonus is settled on the player's own five cards.  The plain brute force it
is checked against is in tests/test_advise_seen.py.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from analyzer.games.casino_holdem.features import ACTIONS
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules
from analyzer.poker.seen import (LoggedDeal, check_seen, column_cards, combinations_of, outcome_counts,
                                 unseen_cards)
from cython_ext import handeval

__all__ = ["ACTIONS", "SEEN_LIMIT", "LOG_COLUMNS", "load_rules", "seen_counts", "log_deal"]

HOLE, FLOP, BOARD = 2, 3, 5
TURN_RIVER = BOARD - FLOP
SEEN_LIMIT = HOLE
LOG_COLUMNS = {"hole": "the player's 2 hole cards", "board": "the flop, or the whole board (3 or 5 cards)",
               "dealer": "the dealer's 2 hole cards"}


def seen_counts(rules: HoldemRules, groups, seen=(), dead=()) -> np.ndarray:
    """(categories, outcomes) counts of a call over every turn and river and every unseen dealer hole card: groups =
    (the hole cards, the flop), `seen` 0..2 of the dealer's hole cards, `dead` cards known to be elsewhere (other
    seats').  Raises CardError for a card outside the deck or given twice, or more seen cards than the dealer
    holds."""
    hole, flop = (list(group) for group in groups)
    check_seen(seen, SEEN_LIMIT, f"the dealer has {HOLE} hole cards")
    unseen = HOLE - len(seen)
    rest = unseen_cards(rules.cards, {"the hole cards": hole, "the flop": flop, "the seen cards": list(seen),
                                      "the other seats' cards": list(dead)}, TURN_RIVER + unseen)
    pairs = combinations_of(len(rest), TURN_RIVER)
    player_rows = np.empty((len(pairs), HOLE + BOARD), dtype=np.uint8)
    player_rows[:, :HOLE + FLOP] = hole + flop
    player_rows[:, HOLE + FLOP:] = rest[pairs]
    board_at, dealer_at, pair_of = layout(len(rest), unseen)
    rows = np.empty((len(board_at), HOLE + BOARD), dtype=np.uint8)
    rows[:, :len(seen)] = seen
    rows[:, len(seen):HOLE] = rest[dealer_at]
    rows[:, HOLE:HOLE + FLOP] = flop
    rows[:, HOLE + FLOP:] = rest[board_at]
    return outcome_counts(handeval.evaluate_many(player_rows)[pair_of], handeval.evaluate_many(rows),
                          rules.qualifier_value)


@lru_cache(maxsize=8)
def layout(n: int, unseen: int) -> tuple:
    """Every continuation of n cards left, as positions among them: (the turn and river (c, 2), the dealer's unseen
    hole cards (c, unseen), the index of the turn and river among combinations_of(n, 2) (c,)); kept, as the same
    few shapes come back deal after deal."""
    picks = combinations_of(n, TURN_RIVER + unseen)
    boards, dealers = [], []
    for board_at in itertools.combinations(range(TURN_RIVER + unseen), TURN_RIVER):
        boards.append(picks[:, board_at])
        dealers.append(picks[:, [i for i in range(TURN_RIVER + unseen) if i not in board_at]])
    board, dealer = np.concatenate(boards), np.concatenate(dealers)
    first, second = board[:, 0].astype(np.int64), board[:, 1].astype(np.int64)
    arrays = board, dealer, first * (2 * n - first - 1) // 2 + second - first - 1
    for array in arrays:
        array.flags.writeable = False
    return arrays


def log_deal(fields: dict) -> LoggedDeal:
    """A decision log's row {column: text}: the hole cards, the board (the flop first) and the dealer's hole cards.
    Raises ColumnError naming the column."""
    hole, _ = column_cards(fields, "hole", (HOLE,))
    board, _ = column_cards(fields, "board", (FLOP, BOARD))
    dealer, _ = column_cards(fields, "dealer", (HOLE,))
    return LoggedDeal(groups=(tuple(hole), tuple(board[:FLOP])), dealer_hole=tuple(dealer), own=tuple(hole),
                      shared={"board": (frozenset(board[:FLOP]), frozenset(board[FLOP:])), "dealer": frozenset(dealer)},
                      cards={"hole": hole, "board": board, "dealer": dealer})
