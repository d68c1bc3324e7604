"""A plain poker hand evaluator: sort by rank counts, pick the best five of n cards; and the little more
the games' brute forces share.

Slow and obvious on purpose; the compiled evaluator and every reduced-deck brute
force are checked against it.  Cards are rank * 4 + suit (rank 0 = deuce, 12 = ace).
Hand categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
6 full house, 7 quads, 8 straight flush, 9 royal flush.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np

ROYAL, STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR, HIGH = 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
ACE = 12


def straight_top(ranks: set) -> int | None:
    """Top rank of the best straight among the ranks (the wheel A-2-3-4-5 tops at the five)."""
    for top in range(ACE, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if {ACE, 0, 1, 2, 3} <= ranks:
        return 3
    return None


def five_card_value(cards) -> tuple:
    """(category, tie-break ranks...) of exactly five cards; tuples compare as poker hands do."""
    ranks = [c // 4 for c in cards]
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    # ranks ordered by (how many, rank): the order kickers are compared in
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    top = straight_top(set(ranks)) if len(counts) == 5 else None
    flush = len(suits) == 1
    if flush and top is not None:
        return (ROYAL if top == ACE else STRAIGHT_FLUSH, top)
    if shape == [4, 1]:
        return (QUADS, *by_count)
    if shape == [3, 2]:
        return (FULL_HOUSE, *by_count)
    if flush:
        return (FLUSH, *sorted(ranks, reverse=True))
    if top is not None:
        return (STRAIGHT, top)
    if shape == [3, 1, 1]:
        return (TRIPS, *by_count)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *by_count)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *by_count)
    return (HIGH, *sorted(ranks, reverse=True))


def best_value(cards) -> tuple:
    """Best five-card value among 5 to 7 cards."""
    return max(five_card_value(five) for five in combinations(cards, 5))


def integer_nets(net) -> tuple[int, dict]:
    """(scale, {(category, outcome): net x scale}): every net(category, outcome) as an integer over one scale."""
    nets = {(c, o): Fraction(net(c, o)) for c in range(10) for o in range(4)}
    scale = math.lcm(*(x.denominator for x in nets.values()))
    if max(abs(x) for x in nets.values()) * scale > 2**40:
        raise ValueError("the brute force sums nets in int64: keep nets x scale below 2**40")
    return scale, {key: int(x * scale) for key, x in nets.items()}


def disjoint(completions: list, taken: int) -> np.ndarray:
    """(unions, completions) 0/1 int64 array: whether each completion (a tuple of positions) avoids each
    union of `taken` positions (all of them, in combinations' order) among the positions the completions use."""
    positions = sorted({p for completion in completions for p in completion})
    return np.array([[int(not set(union) & set(completion)) for completion in completions]
                     for union in combinations(positions, taken)], dtype=np.int64)
