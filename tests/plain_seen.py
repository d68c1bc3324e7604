"""Plain brute forces of one poker deal with cards seen (the tests of `analyzer advise --seen` and `analyzer audit`):
every completion of what the player does not see dealt out and settled in plain Python."""
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np

from analyzer.core.cards import RANKS
from analyzer.poker.hands import CATEGORIES
from plain_poker import best_value, five_card_value
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES, outcome


def plain_qualifier(rules) -> tuple:
    """The rule file's qualifier as a value of the plain evaluator (a prefix sorts below its extensions)."""
    return (CATEGORIES.index(rules.qualifier["category"]), *(RANKS.index(r) for r in rules.qualifier["ranks"]))


def as_array(counts: Counter) -> np.ndarray:
    table = np.zeros((N_CATEGORIES, N_OUTCOMES), dtype=np.int64)
    for (category, result), n in counts.items():
        table[category, result] = n
    return table


def stud_counts(rules, hand, up, seen=(), dead=()) -> np.ndarray:
    """Caribbean Stud: every completion of the dealer's hand, by (category, outcome)."""
    rest = [c for c in rules.cards if c not in {*hand, *up, *seen, *dead}]
    player, counts = five_card_value(hand), Counter()
    for completion in combinations(rest, 4 - len(seen)):
        counts[player[0], outcome(player, five_card_value([*up, *seen, *completion]), plain_qualifier(rules))] += 1
    return as_array(counts)


def holdem_counts(rules, hole, flop, seen=(), dead=()) -> np.ndarray:
    """Casino Hold'em: every turn, river and unseen dealer card, by (category, outcome)."""
    rest = [c for c in rules.cards if c not in {*hole, *flop, *seen, *dead}]
    counts = Counter()
    for turn_river in combinations(rest, 2):
        board = [*flop, *turn_river]
        player = best_value([*hole, *board])
        for dealt in combinations([c for c in rest if c not in turn_river], 2 - len(seen)):
            counts[player[0], outcome(player, best_value([*seen, *dealt, *board]), plain_qualifier(rules))] += 1
    return as_array(counts)


COUNTS = {"caribbean-stud": stud_counts, "casino-holdem": holdem_counts}


def play_ev(game: str, rules, groups, seen=(), dead=()) -> Fraction:
    """The exact EV per ANTE of playing, from the plain counts."""
    counts = COUNTS[game](rules, *groups, seen, dead)
    return sum(int(counts[c, o]) * rules.paytable.net(c, o) for c in range(N_CATEGORIES)
               for o in range(N_OUTCOMES)) / int(counts.sum())
