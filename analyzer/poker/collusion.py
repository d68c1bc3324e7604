"""Colluding players, for both poker games: what pooling hands is worth, estimated with a 99.9% interval.

N seats at one table show each other their cards, and each plays (raises, calls) exactly
when playing beats folding given every pooled card (exact ties fold, as in honest play).
Every sampled deal is priced exactly (the game's kernel counts every completion of the
dealer's hand from the cards no seat holds); the deals are drawn from a seeded PCG64
generator, so the figures are estimates, never exact.  What is sampled is each seat's
*gain* over honest play: the pooled EV of his decision minus the pooled EV of the honest
optimal decision for his own cards.  The latter averages, over every deal, to the exact
honest EV, so a seat's edge is that exact EV plus his mean gain, and its interval is the
gain's, far narrower than the edge's own would be.  Sums are exact integers (`Tally`);
only an interval's square root is a decimal, rendered exactly (`analyzer.core.roots`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.exact import DECIMAL_PLACES, INT64_MAX
from analyzer.core.roots import sqrt_decimal_str, surd_decimal_strs
from analyzer.figures.sampling import Z_999, Tally
from analyzer.formats.strategy_file import pack_keys
from analyzer.poker.checks import DEAL_ROWS, deal
from cython_ext.isomorphism import canonical_keys

Z = Fraction(Z_999)              # the two-sided 99.9% normal quantile, as the exact rational of its decimal


@dataclass(frozen=True)
class Estimate:
    """A sample mean and the variance of that mean (the sample variance over the deals): an estimate, its
    interval mean -+ z sqrt(variance) rendered exactly from the two rationals.

    >>> Estimate(Fraction(1, 100), Fraction(1, 10**6)).interval(places=4)      # 0.01 -+ 3.2905 x 0.001
    ('0.0067', '0.0133')
    """

    mean: Fraction
    variance: Fraction

    def interval(self, z: Fraction = Z, places: int = DECIMAL_PLACES) -> tuple[str, str]:
        return surd_decimal_strs(self.mean, z * z * self.variance, places)

    def half_width(self, z: Fraction = Z, places: int = DECIMAL_PLACES) -> str:
        return sqrt_decimal_str(z * z * self.variance, places)

    def covers(self, value, z: Fraction = Z) -> bool:
        """Whether the interval (exactly, not its decimals) holds `value`."""
        return (Fraction(value) - self.mean) ** 2 <= z * z * self.variance


def _estimate(tally: Tally, shift: Fraction = Fraction(0), scale: Fraction = Fraction(1)) -> Estimate:
    """shift + scale x the tally's mean, and the variance of that mean."""
    return Estimate(shift + scale * tally.mean, scale * scale * tally.variance() / tally.rounds)


@dataclass
class CollusionFigures:
    """What N pooling seats gain, per ANTE, estimated from `deals` sampled deals (seats are exchangeable:
    their figures estimate one value)."""

    colluders: int
    deals: int
    seed: int
    honest_ev: Fraction          # exact: the honest optimal strategy's EV per ANTE
    seats: list                  # per seat, Estimate of his EV per ANTE, the player's edge (honest EV + his
                                 # mean gain; the house edge is its negative)
    gains: list                  # per seat, Estimate of his gain per ANTE over honest play
    seat_average: Estimate       # the seats' average EV per ANTE: the table's EV per ANTE wagered (its sum
                                 # over its N ANTEs)
    table: Estimate              # the table's combined EV per round, in ANTEs (sum over the seats)
    differs: list                # per seat, Estimate of how often his decision is not the honest one
    differs_average: Estimate    # the same over every seat's decision


@dataclass(frozen=True)
class HonestPlays:
    """The honest optimal decision of every situation class, found by a situation's canonical key."""

    packed: np.ndarray           # the classes' keys packed (`pack_keys`), ascending
    plays: np.ndarray            # bool per class: the honest optimal decision plays
    groups: tuple                # card groups of a situation (e.g. (5, 1): hand, up card)

    @classmethod
    def of(cls, keys: np.ndarray, plays: np.ndarray, groups: tuple) -> "HonestPlays":
        return cls(pack_keys(keys), plays, groups)

    def of_seats(self, dealt: np.ndarray, colluders: int) -> np.ndarray:
        """(n, colluders) bool: whether honest play plays each seat's situation, his own cards (the first
        group; the seats' blocks first in each row) and the cards all seats see (the rest of the row)."""
        own = self.groups[0]
        hands = dealt[:, :own * colluders].reshape(len(dealt), colluders, own)
        shared = np.repeat(dealt[:, None, own * colluders:], colluders, axis=1)
        situations = np.concatenate((hands, shared), axis=2).reshape(len(dealt) * colluders, -1)
        packed = pack_keys(canonical_keys(np.ascontiguousarray(situations, dtype=np.uint8), self.groups))
        order = np.argsort(packed)                  # searched in key order: each search near the last one
        rows = np.empty(len(packed), dtype=np.intp)
        rows[order] = np.minimum(np.searchsorted(self.packed, packed[order]), len(self.packed) - 1)
        if not (self.packed[rows] == packed).all():
            raise ValueError("a dealt situation is not among the honest analysis's classes")
        return self.plays[rows].reshape(len(dealt), colluders)


def estimate(cards: tuple, colluders: int, play_evs: Callable, denominator: int, bound: int, honest: HonestPlays,
             honest_ev: Fraction, deals: int, seed: int, progress=None) -> CollusionFigures:
    """The colluders' figures over `deals` deals from `cards`, drawn by PCG64(seed): each deal is every
    seat's cards, seat after seat, then the cards all see (`honest.groups`' sizes).

    play_evs(dealt) -> (n, colluders) EV numerators of each seat's playing, over `denominator`
    (folding is -denominator), given the pooled cards; `bound` bounds every |numerator|.
    `honest` gives each seat's honest optimal decision, worth `honest_ev` per ANTE.  The deals are
    drawn DEAL_ROWS at a time, in one sequence: the figures depend on the seed and the number
    of deals only.  Raises InputError for fewer than 2 deals (no variance).
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 2:
        raise InputError(f"deals: an estimate needs a whole number of at least 2 deals, not {deals!r}")
    rng = np.random.Generator(np.random.PCG64(seed))
    width = honest.groups[0] * colluders + sum(honest.groups[1:])
    fold = -denominator
    wide = 2 * colluders * max(bound, denominator) > INT64_MAX    # a table's gain may need Python integers
    # a deal's gains take as many values as there are deals: only their sums are kept
    gains = [Tally(denominator, keep_values=False) for _ in range(colluders)]
    differs = [Tally(1, keep_values=False) for _ in range(colluders)]
    table, differs_total = Tally(denominator, keep_values=False), Tally(1, keep_values=False)
    bar = progress(total=deals, desc=f"collusion: {colluders} seats", unit="deal") if progress else None
    for start in range(0, deals, DEAL_ROWS):
        dealt = deal(rng, min(DEAL_ROWS, deals - start), cards, width)
        ev = play_evs(dealt)
        ev = ev.astype(object) if wide else ev.astype(np.int64, copy=False)
        pooled_plays, honest_plays = ev > fold, honest.of_seats(dealt, colluders)
        gain = np.where(pooled_plays, ev, fold) - np.where(honest_plays, ev, fold)
        differ = (pooled_plays != honest_plays).astype(np.int64)
        for seat in range(colluders):
            gains[seat].add(gain[:, seat])
            differs[seat].add(differ[:, seat])
        table.add(gain.sum(axis=1))
        differs_total.add(differ.sum(axis=1))
        bar and bar.update(len(dealt))
    bar and bar.close()
    per_seat = Fraction(1, colluders)
    return CollusionFigures(
        colluders=colluders, deals=deals, seed=seed, honest_ev=honest_ev,
        seats=[_estimate(t, honest_ev) for t in gains], gains=[_estimate(t) for t in gains],
        seat_average=_estimate(table, honest_ev, per_seat), table=_estimate(table, colluders * honest_ev),
        differs=[_estimate(t) for t in differs], differs_average=_estimate(differs_total, scale=per_seat))
