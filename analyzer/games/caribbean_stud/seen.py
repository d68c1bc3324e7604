"""Caribbean Stud, one deal, with dealer cards seen: raising's outcomes when the player sees K = 0..4 of the
dealer's four hole cards besides the up card (and, for colluders, other seats' hands), every completion counted.

What `analyzer advise caribbean-stud --seen` and `analyzer audit caribbean-stud` ask, by deal: light to
import (the rules and the evaluator, no counting), reached through the registry (`registry.Game.seen`).
The plain brute force it is checked against is in tests/test_advise_seen.py; the whole game's figures
of the same leak are `protection.py`'s.
"""
from __future__ import annotations

import numpy as np

from analyzer.games.caribbean_stud.features import ACTIONS
from analyzer.games.caribbean_stud.rules import StudRules, load_rules
from analyzer.poker.seen import (LoggedDeal, check_seen, column_cards, combinations_of, outcome_counts,
                                 unseen_cards)
from cython_ext import handeval

__all__ = ["ACTIONS", "SEEN_LIMIT", "LOG_COLUMNS", "load_rules", "seen_counts", "log_deal"]

HAND, HOLE_CARDS = 5, 4
SEEN_LIMIT = HOLE_CARDS
LOG_COLUMNS = {"hand": "the player's 5 cards",
               "dealer": "the dealer's 5 cards, the up card marked * (e.g. Qd* 9c 7h 4s 2d)"}


def seen_counts(rules: StudRules, groups, seen=(), dead=()) -> np.ndarray:
    """(categories, outcomes) counts of a raise over every completion of the dealer's hand: groups = (the 5 cards,
    [the up card]), `seen` 0..4 of his hole cards, `dead` cards known to be elsewhere (other seats').  Raises
    CardError for a card outside the deck or given twice, or more seen cards than the dealer holds."""
    hand, up = (list(group) for group in groups)
    check_seen(seen, SEEN_LIMIT, f"the dealer has {HOLE_CARDS} hole cards besides the up card")
    rest = unseen_cards(rules.cards, {"the hand": hand, "the up card": up, "the seen cards": list(seen),
                                      "the other seats' cards": list(dead)}, HOLE_CARDS - len(seen))
    shown = [*up, *seen]
    picks = rest[combinations_of(len(rest), HAND - len(shown))]
    dealer = np.empty((len(picks), HAND), dtype=np.uint8)
    dealer[:, :len(shown)] = shown
    dealer[:, len(shown):] = picks
    player = handeval.evaluate_many(np.array([hand], dtype=np.uint8))
    return outcome_counts(np.repeat(player, len(dealer)), handeval.evaluate_many(dealer), rules.qualifier_value)


def log_deal(fields: dict) -> LoggedDeal:
    """A decision log's row {column: text}: the hand, and the dealer's five cards with the up card marked.  Raises
    ColumnError naming the column."""
    hand, _ = column_cards(fields, "hand", (HAND,))
    dealer, up = column_cards(fields, "dealer", (HAND,), marked=1)
    hole = tuple(card for card in dealer if card != up[0])
    return LoggedDeal(groups=(tuple(hand), tuple(up)), dealer_hole=hole, own=tuple(hand),
                      shared={"dealer": (up[0], frozenset(hole))}, cards={"hand": hand, "dealer": dealer})
