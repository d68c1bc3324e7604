"""Baccarat counting: ordered 6-card sequences of a shoe by final (player total, banker total, cards dealt).

The kernel (`cython_ext.baccarat_enum`) walks the cards by value, each draw weighted by how many of that value
are left; the same walk in Python integers is its reference and the path beyond 64-bit counts.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from analyzer.core.exact import INT64_MAX
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals
from analyzer.games.baccarat.rules import N_VALUES, BaccaratRules
from analyzer.games.baccarat.shoe import check_shoe
from cython_ext.baccarat_enum import count_outcomes as _kernel_count_outcomes

CARDS_DEALT = (4, 5, 6)


def count_outcomes(counts, rules: BaccaratRules) -> np.ndarray:
    """Ordered 6-card sequence counts, (10, 10, 3): [player total, banker total, dealt - 4], by the kernel when
    every count fits 63 bits (at most 1,448 cards), else in Python integers."""
    counts = check_shoe(counts)
    if sum(counts) ** 6 > INT64_MAX:
        return count_outcomes_python(counts, rules)
    out = np.zeros(N_VALUES * N_VALUES * len(CARDS_DEALT), dtype=np.int64)
    _kernel_count_outcomes(np.array(counts, dtype=np.int64), *rules.flags(), out)
    return out.reshape(N_VALUES, N_VALUES, len(CARDS_DEALT)).astype(object)


def count_outcomes_python(counts, rules: BaccaratRules) -> np.ndarray:
    """The kernel's count in plain Python integers, each round played by `rules.play_round` (a sixth card
    drawn adds to the banker's total); a round of k < 6 cards is weighted by the (n-k)...(n-5) ways to fill
    the rest of the sequence."""
    c = list(counts)
    n = sum(c)
    out = {}                               # (player, banker, cards dealt - 4) -> sequences
    play = rules.play_round                # reads only the cards drawn: the others are placeholders (0)
    values = range(N_VALUES)

    def add(player, banker, dealt, ways):
        out[player, banker, dealt] = out.get((player, banker, dealt), 0) + ways

    def draw(value):                       # the ways to draw `value`, which is then removed
        c[value] -= 1
        return c[value] + 1

    for first in itertools.product(values, repeat=4):
        ways = math.prod(draw(value) for value in first)     # 0 when the shoe lacks one of them
        player, banker, used = play(first + (0, 0))
        if ways and used == 4:
            add(player, banker, 0, ways * (n - 4) * (n - 5))
        for fifth in values if ways and used > 4 else ():
            more = ways * draw(fifth)
            player, banker, used = play(first + (fifth, 0))
            if more and used == 5:
                add(player, banker, 1, more * (n - 5))
            for sixth in values if more and used == 6 else ():    # the banker's third card, added to his total
                add(player, (banker + sixth) % 10, 2, more * c[sixth])
            c[fifth] += 1
        for value in first:
            c[value] += 1
    counted = np.zeros((N_VALUES, N_VALUES, len(CARDS_DEALT)), dtype=object)
    for where, ways in out.items():
        counted[where] = ways
    return counted


def analysis_shoes(rules: BaccaratRules) -> list[tuple]:
    """The shoes an analysis counts: the full shoe, then one card of each value removed."""
    full = rules.full_shoe()
    return [full] + [tuple(n - (v == value) for v, n in enumerate(full)) for value in range(N_VALUES)]


def _shoe_chunk(shared, rules: BaccaratRules, index: int, shoe: tuple) -> list:
    counts = count_outcomes(shoe, rules).reshape(1, -1)
    return [Part("counts", counts if sum(shoe) ** 6 > INT64_MAX else counts.astype(np.int64), index)]


def count_shoes(shoes: list, rules: BaccaratRules, executor: Executor | None = None, progress=None) -> list:
    """Outcome counts (10, 10, 3) of each shoe, one chunk per shoe."""
    exact_python = any(sum(shoe) ** 6 > INT64_MAX for shoe in shoes)     # beyond int64: Python integers
    totals = Totals({"counts": ((len(shoes), N_VALUES * N_VALUES * len(CARDS_DEALT)),
                                object if exact_python else np.int64)})
    executor = SerialExecutor() if exact_python or executor is None else executor
    executor.run([Chunk(_shoe_chunk, (rules, i, shoe)) for i, shoe in enumerate(shoes)], totals, None, progress,
                 "baccarat: shoes")
    return [row.reshape(N_VALUES, N_VALUES, len(CARDS_DEALT)).astype(object) for row in totals["counts"]]
