"""The decision table of a poker game: every situation class, its weight, and the exact EV of playing (an
integer numerator over one denominator for the table; folding is -denominator), and each strategy's price.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.core.execution import default_jobs
from analyzer.core.exact import (INT64_MAX, abs_bound, as_int64_or_object, dtype_bound, exact_group_sums,
                                 exact_masked_sum, exact_sum)
from cython_ext import group_sums, row_dot

CHUNK_ROWS = 1 << 16
DOT_COUNTS = (np.uint8, np.uint16, np.uint32, np.int64)   # the count dtypes cython_ext.row_dot reads as they are


def play_ev_numerators(counts_by_outcome, nets: np.ndarray, category=None, row_total: int | None = None) -> np.ndarray:
    """EV numerators of playing each class: sum over outcomes of count x net (exact).

    counts_by_outcome: (m, categories, outcomes) (Casino Hold'em) or (m, outcomes) with `category` the
    class's fixed category (Caribbean Stud); nets: (categories, outcomes) integers.  int64 when a bound proves
    every numerator fits (with `row_total`, what every class's counts add up to: largest |net| x row_total).
    """
    largest = max(abs(int(x)) for x in np.asarray(nets).ravel())
    counts = np.asarray(counts_by_outcome)
    per_class = counts.shape[1] * (counts.shape[2] if counts.ndim == 3 else 1)
    count_bound = dtype_bound(counts)                    # uint32 counts: no pass over them
    if count_bound is None or largest * count_bound * per_class > INT64_MAX:
        count_bound = int(counts.max(initial=0))         # the dtype alone proves too little: look
    bound = largest * count_bound * per_class
    if bound > INT64_MAX and row_total is not None and largest * row_total <= INT64_MAX and \
            (counts.reshape(len(counts), per_class).sum(axis=1, dtype=np.uint64) == row_total).all():
        bound = largest * row_total
    if bound > INT64_MAX:
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
    """EV of playing minus EV of folding per class in ANTEs, as floats for a plot only (never a figure)."""
    return ev_play / denominator + 1


def margin_histogram(ev_play: np.ndarray, denominator: int, weights: np.ndarray, total: int):
    """(heights, edges) of the play-minus-fold margin over the classes weighted by situations, in
    `np.histogram`'s 120 bins (a bin's height its classes' exact weight over `total`), for the report's plot.
    The compiled pass bins the integer EVs by `margin_thresholds`; `margin_bin_sums` is its NumPy fallback."""
    edges = margin_edges(ev_play, denominator)
    if ev_play.dtype == np.int64 and weights.dtype == np.uint8 and total <= INT64_MAX and len(ev_play):
        thresholds = margin_thresholds(int(ev_play.min()), int(ev_play.max()), denominator, edges)
        sums = np.zeros(MARGIN_BINS, dtype=np.int64)         # every partial sum is at most the total weight
        group_sums.add_threshold_bins(ev_play, weights, thresholds, sums[:len(thresholds) + 1])
    else:
        sums = margin_bin_sums(float_margins(ev_play, denominator), weights, edges)
    return np.asarray(sums, dtype=float) / total, edges


def margin_edges(ev_play: np.ndarray, denominator: int) -> np.ndarray:
    """The bin edges `np.histogram` makes for the float margins (from those of the least and greatest EV)."""
    if not len(ev_play):
        return np.histogram_bin_edges(np.empty(0), MARGIN_BINS)
    ends = float_margins(np.array([ev_play.min(), ev_play.max()], dtype=ev_play.dtype), denominator)
    return np.histogram_bin_edges(ends.astype(float), MARGIN_BINS)


def margin_thresholds(low: int, high: int, denominator: int, edges: np.ndarray) -> np.ndarray:
    """For each inner edge reached in low..high, the least EV numerator whose float margin reaches it (by
    bisection over every edge at once, in Python integers): a class's bin is how many lie at or below its EV."""
    inner = edges[1:-1]
    lo, hi = np.full(len(inner), low, dtype=object), np.full(len(inner), high + 1, dtype=object)
    while (searching := lo < hi).any():
        mid = np.minimum((lo + hi) // 2, high)               # below hi wherever lo < hi
        reached = float_margins(mid.astype(np.int64), denominator) >= inner
        hi = np.where(searching & reached, mid, hi)
        lo = np.where(searching & ~reached, mid + 1, lo)
    return np.array([t for t in hi.tolist() if t <= high], dtype=np.int64)


def margin_bin_sums(margins: np.ndarray, weights: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Exact sums of the weights by bin, placed as `np.histogram` places them, in plain NumPy."""
    bins = np.clip(np.searchsorted(edges, np.asarray(margins, dtype=float), side="right") - 1, 0, len(edges) - 2)
    return exact_group_sums(bins, weights, len(edges) - 1)


@dataclass
class StrategyFigures:
    """Exact figures of one play/fold strategy, per ANTE unless said otherwise."""

    name: str
    description: str
    play: np.ndarray | None      # bool per class: plays (calls, raises); None when priced from sums alone
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


@dataclass(frozen=True)
class SignSums:
    """Per group of classes a strategy decides alike (Caribbean Stud's rank patterns): the weight and the
    gain (weight x (EV play - EV fold)) of its classes whose gain is < 0, = 0, > 0, each (g, 3) exact integers."""

    weights: np.ndarray
    gains: np.ndarray

    @classmethod
    def of(cls, groups: np.ndarray, n_groups: int, weights: np.ndarray, gain: np.ndarray) -> "SignSums":
        """The sums of classes in groups 0..n_groups-1 (`groups`: one per class), by NumPy (exact)."""
        cell = np.multiply(groups, 3, dtype=np.int64)
        cell += 1 + (gain > 0)
        cell -= gain < 0
        return cls(exact_group_sums(cell, weights, 3 * n_groups).reshape(n_groups, 3),
                   exact_group_sums(cell, gain, 3 * n_groups).reshape(n_groups, 3))

    def __len__(self) -> int:
        return len(self.weights)

    def take(self, rows: np.ndarray) -> "SignSums":
        return SignSums(self.weights[rows], self.gains[rows])

    @functools.cached_property
    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Per group, the weight and the gain of all its classes (exact in int64 when the parts are)."""
        return self.weights.sum(axis=1), self.gains.sum(axis=1)


@dataclass
class DecisionTable:
    """Per situation class: its weight and the exact EV of playing over one denominator (int64 when its
    bound fits, else Python integers); folding is -1."""

    weights: np.ndarray          # raw situations each class stands for
    ev_play: np.ndarray          # EV of playing per ANTE, numerators over `denominator`
    denominator: int
    play_size: Fraction          # the play bet per ANTE (figures' average wager)
    _optimal: tuple | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.weights)

    @property
    def fold_numerator(self) -> int:
        return -self.denominator

    @functools.cached_property
    def total_weight(self) -> int:
        return exact_sum(self.weights)

    @functools.cached_property
    def weight_bound(self) -> int:
        """max |weight| (it bounds every masked sum of the weights)."""
        return abs_bound(self.weights)

    def optimal(self) -> tuple[np.ndarray, np.ndarray]:
        """(play, tie): play where playing is strictly better than folding; tie where equal (made once, shared)."""
        if self._optimal is None:
            self._optimal = (self.ev_play > self.fold_numerator, self.ev_play == self.fold_numerator)
        return self._optimal

    @functools.cached_property
    def gain_bound(self) -> int:
        """A bound of |gain| over the classes."""
        return (abs_bound(self.ev_play) + self.denominator) * int(self.weights.max(initial=0))

    @functools.cached_property
    def gain(self) -> np.ndarray:
        """weight x (EV of playing - EV of folding) per class: what each decision is worth."""
        return self._gains(self.ev_play, self.weights, self.gain_bound)

    def gains_at(self, rows: np.ndarray) -> np.ndarray:
        """The gains of the classes `rows` only (without making `gain`)."""
        if "gain" in self.__dict__:
            return self.gain[rows]
        ev, weights = self.ev_play[rows], self.weights[rows]
        return self._gains(ev, weights, (abs_bound(ev) + self.denominator) * int(weights.max(initial=0)))

    def _gains(self, ev: np.ndarray, weights: np.ndarray, bound: int) -> np.ndarray:
        """weight x (EV + denominator), int64 when `bound` (of every |gain|) fits, else Python integers."""
        gain = np.add(as_int64_or_object(ev, bound), self.denominator)
        if gain.dtype == object:
            gain *= weights.astype(object)
        else:
            np.multiply(gain, weights, out=gain)          # the weights widened a buffer at a time
        return gain

    def figures(self, name: str, description: str, play: np.ndarray) -> StrategyFigures:
        """The exact figures of playing where `play` holds (one masked sum of `gain`)."""
        gain = self.gain
        return self.figures_of_sums(exact_masked_sum(self.weights, play, self.weight_bound),
                                    exact_masked_sum(gain, play, self.gain_bound if gain.dtype != object else None),
                                    name, description, play)

    def figures_of_groups(self, sums: "SignSums", play: np.ndarray, name: str = "", description: str = "",
                          classes: np.ndarray | None = None) -> StrategyFigures:
        """The exact figures of playing the groups where `play` holds, from `SignSums` (`classes`: the
        decisions per class, if known)."""
        weights, gains = sums.totals
        return self.figures_of_sums(exact_masked_sum(weights, play), exact_masked_sum(gains, play), name, description,
                                    classes)

    def optimal_figures_of_groups(self, sums: "SignSums", name: str = "", description: str = "") -> StrategyFigures:
        """The exact figures of the optimal strategy (play where the gain is > 0) from `SignSums`."""
        return self.figures_of_sums(exact_sum(sums.weights[:, 2]), exact_sum(sums.gains[:, 2]), name, description,
                                    self.optimal()[0])

    def figures_of_sums(self, played_weight: int, played_gain: int, name: str = "", description: str = "",
                        play: np.ndarray | None = None) -> StrategyFigures:
        """The exact figures of a strategy from the weight and the gain of the classes it plays."""
        total = self.total_weight
        return StrategyFigures(name=name, description=description, play=play,
                               p_play=Fraction(played_weight, total),
                               ev=Fraction(played_gain + total * self.fold_numerator, total * self.denominator),
                               play_size=self.play_size)
