"""Casino Hold'em by brute force on a (reduced) deck: every situation, every continuation, dealt out."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from analyzer.poker.reference import best_value
from analyzer.poker.settlement import outcome


def count_every_deal(cards, qualifier: tuple) -> dict:
    """(hole, flop) -> Counter of (player's final category, outcome) over every turn/river and dealer pair.

    qualifier: the smallest qualifying value as a tuple comparable with best_value(),
    e.g. (1, 2) for "a pair of fours or better".
    """
    value = lru_cache(maxsize=None)(lambda seven: best_value(seven))
    results = {}
    for hole in combinations(cards, 2):
        rest = [c for c in cards if c not in hole]
        for flop in combinations(rest, 3):
            counter = Counter()
            after_flop = [c for c in rest if c not in flop]
            for turn_river in combinations(after_flop, 2):
                board = flop + turn_river
                player = value(tuple(sorted(hole + board)))
                for dealer_hole in combinations([c for c in after_flop if c not in turn_river], 2):
                    dealer = value(tuple(sorted(dealer_hole + board)))
                    counter[player[0], outcome(player, dealer, qualifier)] += 1
            results[hole, flop] = counter
    return results
