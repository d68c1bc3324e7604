"""The decision table of a poker game: every situation class, its weight, and the exact EV of playing.

A game's counting gives, per situation class, how many continuations end in each final
category x outcome; its paytable gives the net of each.  Their product is the EV of
playing the class as an integer numerator over one denominator for the whole table
(continuations x the paytable's scale); folding is worth -1 ANTE, i.e. -denominator.
Every strategy (a play/fold decision per class) is then priced exactly here, the same
way for both games.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.core.execution import default_jobs
from analyzer.core.exact import INT64_MAX, abs_bound, as_int64_or_object, dtype_bound, exact_masked_sum, exact_sum
from cython_ext import row_dot

CHUNK_ROWS = 1 << 16
DOT_COUNTS = (np.uint8, np.uint16, np.uint32, np.int64)   # the count dtypes cython_ext.row_dot reads as they are


def play_ev_numerators(counts_by_outcome, nets: np.ndarray, category=None) -> np.ndarray:
    """EV numerators of playing each class: sum over outcomes of count x net (exact).

    counts_by_outcome: either (m, categories, outcomes) counts (the final category varies,
    Casino Hold'em) or (m, outcomes) counts with `category` (m,) the class's fixed
    category (Caribbean Stud).  nets: (categories, outcomes) Python integers.  Returns
    int64 when a bound proves every numerator fits (see `analyzer.core.exact`), else
    Python integers.
    """
    largest = max(abs(int(x)) for x in np.asarray(nets).ravel())
    counts = np.asarray(counts_by_outcome)
    per_class = counts.shape[1] * (counts.shape[2] if counts.ndim == 3 else 1)
    count_bound = dtype_bound(counts)                    # uint32 counts: no pass over them
    if count_bound is None or largest * count_bound * per_class > INT64_MAX:
        count_bound = int(counts.max(initial=0))         # the dtype alone proves too little: look
    if largest * count_bound * per_class > INT64_MAX:
        nets_obj = np.asarray(nets, dtype=object)
        if category is None:
            return counts.reshape(len(counts), per_class).astype(object) @ nets_obj.reshape(-1)
        return sum(counts[:, o].astype(object) * nets_obj[category, o] for o in range(counts.shape[1]))
    nets64 = np.asarray(nets).astype(np.int64)
    if category is None:
        flat, ev = np.ascontiguousarray(counts.reshape(len(counts), per_class)), np.empty(len(counts), dtype=np.int64)
        if flat.dtype not in DOT_COUNTS:
            flat = flat.astype(np.int64)                 # exact: its values are within the bound
        row_dot.dot_rows(flat, np.ascontiguousarray(nets64.reshape(-1)), ev, default_jobs())
        return ev
    if len(category) and int(category.max()) >= len(nets64):
        raise ValueError("a class's category is outside the paytable's categories")
    ev = np.empty(len(counts), dtype=np.int64)
    term = np.empty(min(len(counts), CHUNK_ROWS), dtype=np.int64)      # scratch for one chunk of rows
    for start in range(0, len(counts), CHUNK_ROWS):
        rows = slice(start, start + CHUNK_ROWS)
        total, part = ev[rows], term[:len(ev[rows])]
        total[:] = 0
        for o in range(counts.shape[1]):
            column = nets64[:, o]
            if (column == column[0]).all():               # the same for every category: no lookup
                if column[0]:
                    np.multiply(counts[rows, o], column[0], out=part)
                    total += part
            else:
                np.take(column, category[rows], out=part, mode="clip")   # in range (checked): no buffered copy
                part *= counts[rows, o]
                total += part
    return ev


MARGIN_BINS = 120


def float_margins(ev_play: np.ndarray, denominator: int) -> np.ndarray:
    """EV of playing minus EV of folding per class, in ANTEs, as floats for a plot only (never a figure):
    ev_play / denominator + 1, the addition made in place (one array)."""
    margins = ev_play / denominator
    margins += 1
    return margins


def margin_histogram(ev_play: np.ndarray, denominator: int, weights: np.ndarray, total: int):
    """(heights, edges) of the play-minus-fold margin over the classes, each weighted by its share of
    situations (weights / total): floats for the report's figure only.  Made where the table is, so
    that the figure's drawing gets 120 bars, not one value per class."""
    return np.histogram(float_margins(ev_play, denominator), bins=MARGIN_BINS, weights=weights / total)


@dataclass
class StrategyFigures:
    """Exact figures of one play/fold strategy, per ANTE unless said otherwise."""

    name: str
    description: str
    play: np.ndarray             # bool per class: plays (calls, raises)
    p_play: Fraction             # probability of playing, over raw situations
    ev: Fraction                 # EV per ANTE (the house edge is -ev)
    play_size: Fraction          # the play bet per ANTE

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def average_wager(self) -> Fraction:
        """ANTE + play bet x P(play), per ANTE."""
        return 1 + self.play_size * self.p_play

    @property
    def element_of_risk(self) -> Fraction:
        """House edge over the average total wager."""
        return self.house_edge / self.average_wager

    @property
    def rtp(self) -> Fraction:
        """Total returned (stakes included) over total wagered."""
        return 1 + self.ev / self.average_wager

    @property
    def return_per_ante(self) -> Fraction:
        """Total returned over ANTEs placed (1 + EV per ANTE)."""
        return 1 + self.ev


@dataclass
class DecisionTable:
    """Per situation class: its weight and the exact EV of playing, over one denominator; folding is -1.

    ev_play and gain are int64 when their bounds fit, else Python integers (object
    arrays); every sum taken here is exact either way.
    """

    weights: np.ndarray          # raw situations each class stands for
    ev_play: np.ndarray          # EV of playing per ANTE, numerators over `denominator`
    denominator: int
    play_size: Fraction          # the play bet per ANTE (figures' average wager)
    _gain: np.ndarray | None = field(default=None, repr=False)
    _gain_bound: int = field(default=0, repr=False)
    _total_weight: int | None = field(default=None, repr=False)
    _weight_bound: int | None = field(default=None, repr=False)
    _optimal: tuple | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.weights)

    @property
    def fold_numerator(self) -> int:
        return -self.denominator

    @property
    def total_weight(self) -> int:
        if self._total_weight is None:
            self._total_weight = exact_sum(self.weights)
        return self._total_weight

    @property
    def weight_bound(self) -> int:
        """max |weight| (found once: every strategy's masked sums of the weights are proven in range by it)."""
        if self._weight_bound is None:
            self._weight_bound = abs_bound(self.weights)
        return self._weight_bound

    def optimal(self) -> tuple[np.ndarray, np.ndarray]:
        """(play, tie): play where playing is strictly better than folding; tie where exactly equal.

        Made once; the arrays are shared, not to be changed.
        """
        if self._optimal is None:
            self._optimal = (self.ev_play > self.fold_numerator, self.ev_play == self.fold_numerator)
        return self._optimal

    @property
    def gain(self) -> np.ndarray:
        """weight x (EV of playing - EV of folding) per class: what each decision is worth (made once)."""
        if self._gain is None:
            bound = (abs_bound(self.ev_play) + self.denominator) * int(self.weights.max(initial=0))
            ev = as_int64_or_object(self.ev_play, bound)
            gain = np.add(ev, self.denominator)
            if gain.dtype == object:
                gain *= self.weights.astype(object)
            else:
                np.multiply(gain, self.weights, out=gain)     # the weights widened a buffer at a time
            self._gain, self._gain_bound = gain, bound
        return self._gain

    def figures(self, name: str, description: str, play: np.ndarray) -> StrategyFigures:
        """The exact figures of playing where `play` holds (folding elsewhere).

        The EV summed over every situation is sum(weight x EV of playing) over the played
        classes plus (unplayed weight) x the fold numerator, which is the played classes'
        gains plus (all the weight) x the fold numerator: one masked sum of `gain`.
        """
        total = self.total_weight
        played_weight = exact_masked_sum(self.weights, play, self.weight_bound)
        gain = self.gain
        ev_sum = exact_masked_sum(gain, play, self._gain_bound if gain.dtype != object else None) \
            + total * self.fold_numerator
        return StrategyFigures(name=name, description=description, play=play,
                               p_play=Fraction(played_weight, total),
                               ev=Fraction(ev_sum, total * self.denominator), play_size=self.play_size)
