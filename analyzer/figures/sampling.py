"""Monte Carlo tools, a second method for every exact EV: deal rounds from shuffled shoes, settle batches
on threads, tally each bet's result exactly (only the z-score's square root is decimal).
"""
from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal, getcontext, localcontext
from fractions import Fraction

import numpy as np

from analyzer.core.execution import default_jobs

Z_999 = Decimal("3.290526731")          # two-sided 99.9% normal quantile
BATCH = 100_000
#: Net values expected fewer times than this are "rare" in the variance test (Tally.compare_variance).
RARE_EXPECTED = 10


@dataclass
class Tally:
    """Exact running sums of a bet's per-round result (integers over a fixed denominator), and how many
    rounds gave each distinct result."""

    denominator: int
    rounds: int = 0
    total: int = 0
    squares: int = 0
    values: dict = field(default_factory=dict)       # numerator -> rounds with that result
    keep_values: bool = True                         # fill `values` (compare_variance reads it)

    def add(self, numerators: np.ndarray) -> None:
        distinct, counts = np.unique(numerators, return_counts=True)
        self.rounds += len(numerators)
        for value, count in zip(distinct.tolist(), counts.tolist()):      # Python integers: exact sums
            self.total += value * count
            self.squares += value * value * count
            if self.keep_values:
                self.values[value] = self.values.get(value, 0) + count

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

    def compare_variance(self, variance: Fraction, distribution) -> dict:
        """z-score of the sample variance about the exact mean against a claimed exact variance, given the
        wager's exact [(net value, probability)]: rare values' part is taken at its exact expectation (one
        rare big win cannot fail an honest result); fails outright on a net value the distribution lacks."""
        n = self.rounds
        exact = Fraction(variance)
        merged: dict = {}
        for v, p in distribution:             # one entry per net value: categories that net alike are one value
            merged[Fraction(v)] = merged.get(Fraction(v), Fraction(0)) + Fraction(p)
        distribution = sorted(merged.items())
        mean = sum((p * v for v, p in distribution), Fraction(0))
        observed = {Fraction(numerator, self.denominator): count for numerator, count in self.values.items()}
        impossible = sorted(v for v in observed if v not in merged)
        rare = [(v, p) for v, p in distribution if p * n < RARE_EXPECTED]
        bulk = [(v, p) for v, p in distribution if p * n >= RARE_EXPECTED]
        sample_bulk = sum((observed.get(v, 0) * (v - mean) ** 2 for v, _ in bulk), Fraction(0)) / n
        rare_part = sum((p * (v - mean) ** 2 for v, p in rare), Fraction(0))    # taken at its expectation
        first = sum((p * (v - mean) ** 2 for v, p in bulk), Fraction(0))
        second = sum((p * (v - mean) ** 4 for v, p in bulk), Fraction(0))
        sampling_variance = (second - first * first) / n
        difference = sample_bulk - (exact - rare_part)
        with localcontext() as context:
            context.prec = 40
            se = (Decimal(sampling_variance.numerator) / Decimal(sampling_variance.denominator)).sqrt() \
                if sampling_variance > 0 else Decimal(0)
            z = Decimal(difference.numerator) / Decimal(difference.denominator) / se if se else \
                Decimal(0 if difference == 0 else 10**9)
        return {"rounds": n, "variance": self.variance(), "tested": sample_bulk + rare_part, "exact": exact,
                "z": z, "se": se, "rare_values": len(rare), "impossible": impossible,
                "passed": not impossible and abs(z) <= Z_999}


@dataclass
class Target:
    """A Monte Carlo tally and the exact figures it is compared with: the mean, and (when known) the
    variance and the net distribution [(value, probability)] of the same wager."""

    tally: Tally
    mean: Fraction
    variance: Fraction | None = None
    distribution: list | None = None


def batches(rounds: int):
    for start in range(0, rounds, BATCH):
        yield min(BATCH, rounds - start)


def tally_rounds(deal_batch, settle_batch, rounds: int, tallies: dict, bar=None) -> None:
    """Deal `rounds` rounds a batch at a time (deal_batch(size), on this thread) and add each bet's nets
    (settle_batch(dealt) -> {bet: nets}, on worker threads) to tallies[bet] in dealing order."""
    jobs = default_jobs()
    pending = deque()

    def add_oldest():
        size, settled = pending.popleft()
        for bet, nets in settled.result().items():
            tallies[bet].add(nets)
        bar and bar.update(size)

    with ThreadPoolExecutor(jobs) as pool:
        for size in batches(rounds):
            pending.append((size, pool.submit(settle_batch, deal_batch(size))))
            if len(pending) > 2 * jobs:                 # a bounded number of batches held at once
                add_oldest()
        while pending:
            add_oldest()


def draw_positions(rng: np.random.Generator, rounds: int, shoe: tuple, k: int) -> np.ndarray:
    """(k, rounds): the i-th draw of each round, a uniform position among the sum(shoe) - i cards left."""
    total = sum(shoe)
    return np.stack([rng.integers(0, total - position, size=rounds) for position in range(k)])


def values_at(positions: np.ndarray, shoe: tuple) -> np.ndarray:
    """(rounds, k) card values of the draws `positions` (from `draw_positions`), by running counts."""
    k, rounds = positions.shape
    total = sum(shoe)
    counter = np.int32 if total < 2 ** 31 else np.int64        # a running count never exceeds the shoe
    at_most = np.tile(np.cumsum(np.array(shoe, dtype=np.int64)).astype(counter), (rounds, 1))
    values = np.arange(len(shoe))
    out = np.empty((rounds, k), dtype=np.int64)
    for position in range(k):
        value = np.count_nonzero(at_most <= positions[position].astype(counter)[:, None], axis=1)
        out[:, position] = value
        at_most -= values >= value[:, None]                    # one card fewer of every value >= the one drawn
    return out
