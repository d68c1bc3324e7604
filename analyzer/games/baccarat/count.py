"""Baccarat counting: ordered 6-card sequences of a shoe by final (player total, banker total, cards dealt).

The kernel (`cython_ext.baccarat_enum`) walks the cards by value, each draw weighted by
how many cards of that value are left, through the rule file's tableau; the same walk in
plain Python integers stands beside it for shoes too large for 64-bit counts (and for the
tests).  The counts depend on the shoe and the tableau only, never on a payout.
"""
from __future__ import annotations

import numpy as np

from analyzer.core.exact import INT64_MAX
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals
from analyzer.games.baccarat.rules import N_VALUES, BaccaratRules
from analyzer.games.baccarat.shoe import check_shoe
from cython_ext.baccarat_enum import count_outcomes as _kernel_count_outcomes

CARDS_DEALT = (4, 5, 6)

def count_outcomes(counts, rules: BaccaratRules) -> np.ndarray:
    """Ordered 6-card sequence counts, shape (10, 10, 3): [player total, banker total, dealt-4].

    Uses the compiled kernel when every count fits in 63 bits (a shoe of at most 1,448
    cards); larger shoes are counted by the same walk in Python integers.
    """
    counts = check_shoe(counts)
    if sum(counts) ** 6 > INT64_MAX:
        return count_outcomes_python(counts, rules)
    out = np.zeros(N_VALUES * N_VALUES * len(CARDS_DEALT), dtype=np.int64)
    _kernel_count_outcomes(np.array(counts, dtype=np.int64), *rules.flags(), out)
    return out.reshape(N_VALUES, N_VALUES, len(CARDS_DEALT)).astype(object)


def count_outcomes_python(counts, rules: BaccaratRules) -> np.ndarray:
    """The kernel's walk in plain Python integers (the fallback for very large shoes)."""
    c = list(counts)
    n = sum(c)
    out = np.zeros((N_VALUES, N_VALUES, len(CARDS_DEALT)), dtype=object)
    tail4, tail5 = (n - 4) * (n - 5), n - 5

    def draw(value):                      # multiplicity of drawing `value`, then remove it
        m = c[value]
        c[value] -= 1
        return m

    for p1 in range(N_VALUES):
        m1 = draw(p1)
        for b1 in range(N_VALUES):
            m2 = m1 * draw(b1)
            for p2 in range(N_VALUES):
                m3 = m2 * draw(p2)
                for b2 in range(N_VALUES):
                    m4 = m3 * draw(b2)
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if m4 == 0:
                        pass
                    elif pt in rules.natural or bt in rules.natural:
                        out[pt, bt, 0] += m4 * tail4
                    elif pt in rules.player_draws_on:
                        for p3 in range(N_VALUES):
                            m5 = m4 * draw(p3)
                            if p3 in rules.banker_draws[bt]:
                                for b3 in range(N_VALUES):
                                    out[(pt + p3) % 10, (bt + b3) % 10, 2] += m5 * c[b3]
                            else:
                                out[(pt + p3) % 10, bt, 1] += m5 * tail5
                            c[p3] += 1
                    elif bt in rules.banker_draws_when_player_stands:
                        for b3 in range(N_VALUES):
                            out[pt, (bt + b3) % 10, 1] += m4 * c[b3] * tail5
                    else:
                        out[pt, bt, 0] += m4 * tail4
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out


def analysis_shoes(rules: BaccaratRules) -> list[tuple]:
    """The shoes an analysis counts: the full shoe, then one card of each value removed."""
    shoes = [rules.full_shoe()]
    for value in range(N_VALUES):
        shoe = list(rules.full_shoe())
        shoe[value] -= 1
        shoes.append(tuple(shoe))
    return shoes


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
