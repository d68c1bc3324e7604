"""Monte Carlo tools: deal rounds from shuffled decks and shoes, tally each bet's result exactly.

A second, independent method for every exact EV: each game's checks deal rounds with
these functions (a seeded numpy PCG64 generator), play the stored strategy, settle every
bet with the game's one settlement, and compare the tallies with the exact figures.
Means and variances are exact rationals; only the z-score's square root is decimal.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np

Z_999 = Decimal("3.290526731")          # two-sided 99.9% normal quantile
BATCH = 100_000


@dataclass
class Tally:
    """Exact running sums of a bet's per-round result (integers over a fixed denominator)."""

    denominator: int
    rounds: int = 0
    total: int = 0
    squares: int = 0

    def add(self, numerators: np.ndarray) -> None:
        values = numerators.astype(object)
        self.rounds += len(numerators)
        self.total += int(values.sum())
        self.squares += int((values * values).sum())

    @property
    def mean(self) -> Fraction:
        return Fraction(self.total, self.rounds * self.denominator)

    def variance(self) -> Fraction:
        n = self.rounds
        return Fraction(self.squares * n - self.total ** 2, n * (n - 1) * self.denominator ** 2)

    def compare(self, exact: Fraction) -> dict:
        """z-score of the exact value against the sample, and the 99.9% interval around the mean."""
        getcontext().prec = 40
        se = (Decimal(self.variance().numerator) / Decimal(self.variance().denominator) / self.rounds).sqrt()
        mean = Decimal(self.mean.numerator) / Decimal(self.mean.denominator)
        exact_d = Decimal(exact.numerator) / Decimal(exact.denominator)
        z = (mean - exact_d) / se if se else Decimal(0)
        return {"rounds": self.rounds, "mean": self.mean, "exact": exact, "z": z,
                "low": mean - Z_999 * se, "high": mean + Z_999 * se, "passed": abs(z) <= Z_999}


def integer_scale(values) -> int:
    """A common denominator for a set of exact payouts."""
    from math import lcm
    return lcm(*(Fraction(v).denominator for v in values))


def deal(rng: np.random.Generator, rounds: int, cards: tuple, k: int) -> np.ndarray:
    """(rounds, k) cards: the top k cards of a uniformly shuffled deck, in dealing order."""
    deck = np.array(cards, dtype=np.uint8)
    keys = rng.random((rounds, len(deck)))
    top = np.argpartition(keys, k - 1, axis=1)[:, :k]      # the k smallest keys (k may be the whole deck)
    order = np.take_along_axis(keys, top, axis=1).argsort(axis=1)
    return deck[np.take_along_axis(top, order, axis=1)]


def batches(rounds: int):
    while rounds > 0:
        size = min(BATCH, rounds)
        yield size
        rounds -= size


def deal_values(rng: np.random.Generator, rounds: int, shoe: tuple, k: int) -> np.ndarray:
    """(rounds, k) card values: the first k cards of a shuffled shoe, drawn one by one."""
    left = np.tile(np.array(shoe, dtype=np.int64), (rounds, 1))
    out = np.empty((rounds, k), dtype=np.int64)
    for position in range(k):
        pick = rng.integers(0, sum(shoe) - position, size=rounds)
        value = (np.cumsum(left, axis=1) <= pick[:, None]).sum(axis=1)
        out[:, position] = value
        left[np.arange(rounds), value] -= 1
    return out
