"""The decision table of a poker game: every situation class, its weight, and the exact EV of playing.

A game's counting gives, per situation class, how many continuations end in each final
category x outcome; its paytable gives the net of each.  Their product is the EV of
playing the class as an integer numerator over one denominator for the whole table
(continuations x the paytable's scale); folding is worth -1 ANTE, i.e. -denominator.
Every strategy (a play/fold decision per class) is then priced exactly here, the same
way for both games.
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

    counts_by_outcome: either (m, categories, outcomes) counts (the final category varies,
    Casino Hold'em) or (m, outcomes) counts with `category` (m,) the class's fixed
    category (Caribbean Stud).  nets: (categories, outcomes) Python integers.  row_total:
    what every class's counts should add up to (a situation's continuations); when they
    do, largest |net| x row_total bounds every numerator and partial sum, the bound
    `analyzer.poker.strategy_file.check_ev_column` checked before counting (checked here
    only where count x cells proves too little).  Returns int64 when a bound proves every
    numerator fits (see `analyzer.core.exact`), else Python integers.
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
    """EV of playing minus EV of folding per class, in ANTEs, as floats for a plot only (never a figure):
    ev_play / denominator + 1, the addition made in place (one array)."""
    margins = ev_play / denominator
    margins += 1
    return margins


def margin_histogram(ev_play: np.ndarray, denominator: int, weights: np.ndarray, total: int):
    """(heights, edges) of the play-minus-fold margin over the classes, each weighted by its share of
    situations: `np.histogram`'s 120 bins of equal width from the least margin to the greatest, and its
    placement of each class by its float margin; a bin's height is the exact sum of its classes'
    weights, over `total`.  The floats place the classes and draw the report's figure, which states
    no figure.  Made where the table is, so that the figure's drawing gets 120 bars, not one value
    per class.

    The float margin grows with the EV numerator, so each bin begins at an EV numerator, found
    once per edge (`margin_thresholds`), and the classes are summed into bins by their integer
    EVs in one compiled pass (`cython_ext.group_sums.add_threshold_bins`), with no float per
    class; `margin_bin_sums` (the float margins placed by NumPy) is the reference it is tested
    against, and the path for EVs beyond int64 or weights wider than a byte.
    """
    edges = margin_edges(ev_play, denominator)
    if ev_play.dtype == np.int64 and weights.dtype == np.uint8 and total <= INT64_MAX and len(ev_play):
        thresholds = margin_thresholds(int(ev_play.min()), int(ev_play.max()), denominator, edges)
        sums = np.zeros(MARGIN_BINS, dtype=np.int64)         # every partial sum is at most the total weight
        group_sums.add_threshold_bins(ev_play, weights, thresholds, sums[:len(thresholds) + 1])
    else:
        sums = margin_bin_sums(float_margins(ev_play, denominator), weights, edges)
    return np.asarray(sums, dtype=float) / total, edges


def margin_edges(ev_play: np.ndarray, denominator: int) -> np.ndarray:
    """The bin edges `np.histogram` makes for the float margins: from the least to the greatest margin
    (the margin grows with the EV, so those of the least and greatest EV), as it widens an empty range."""
    if not len(ev_play):
        return np.histogram_bin_edges(np.empty(0), MARGIN_BINS)
    ends = float_margins(np.array([ev_play.min(), ev_play.max()], dtype=ev_play.dtype), denominator)
    return np.histogram_bin_edges(ends.astype(float), MARGIN_BINS)


def margin_thresholds(low: int, high: int, denominator: int, edges: np.ndarray) -> np.ndarray:
    """For each inner edge that an EV numerator in low..high reaches, the least one whose float margin
    (`float_margins`, the very operations) does: a class is in the bin of the number of these at or
    below its EV (the bins past them hold no class).  Found by bisection, every edge at once, in
    Python integers (no overflow)."""
    inner = edges[1:-1]
    lo, hi = np.full(len(inner), low, dtype=object), np.full(len(inner), high + 1, dtype=object)
    while (lo < hi).any():
        mid = np.minimum((lo + hi) // 2, high)               # below hi wherever lo < hi
        reached = float_margins(mid.astype(np.int64), denominator) >= inner
        searching = lo < hi
        hi = np.where(searching & reached, mid, hi)
        lo = np.where(searching & ~reached, mid + 1, lo)
    return np.array([t for t in hi.tolist() if t <= high], dtype=np.int64)


def margin_bin_sums(margins: np.ndarray, weights: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Exact sums of the weights by bin (`np.histogram`'s placement: a bin holds its left edge, the last
    one its right edge too), in plain NumPy."""
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
    """Classes summed by groups that a strategy decides alike (e.g. Caribbean Stud's rank patterns): per
    group, the weight and the gain (weight x (EV of playing - EV of folding)) of its classes whose gain is
    < 0, = 0, > 0, each (g, 3) exact integers (int64 or Python integers; the gains' middle column 0).
    Every figure of such a strategy, and of the optimal one, is a sum of these (`DecisionTable.figures_of_groups`,
    `optimal_figures_of_groups`).
    """

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
        """Per group, the weight and the gain of all its classes (made once: a strategy that plays whole
        groups sums these).  Exact in int64 when the parts are: a group's weights are >= 0 and add up to
        at most the table's, its gains' two parts have opposite signs."""
        return self.weights.sum(axis=1), self.gains.sum(axis=1)


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
    def gain_bound(self) -> int:
        """A bound of |gain| over the classes (found with the gains)."""
        if self._gain is None:
            self._make_gain()
        return self._gain_bound

    @property
    def gain(self) -> np.ndarray:
        """weight x (EV of playing - EV of folding) per class: what each decision is worth (made once)."""
        if self._gain is None:
            self._make_gain()
        return self._gain

    def _make_gain(self) -> None:
        self._gain_bound = (abs_bound(self.ev_play) + self.denominator) * int(self.weights.max(initial=0))
        self._gain = self._gains(self.ev_play, self.weights, self._gain_bound)

    def gains_at(self, rows: np.ndarray) -> np.ndarray:
        """The gains of the classes `rows` only (of `gain` when it is made; else these alone, without it)."""
        if self._gain is not None:
            return self._gain[rows]
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
        """The exact figures of playing where `play` holds (folding elsewhere).

        The EV summed over every situation is sum(weight x EV of playing) over the played
        classes plus (unplayed weight) x the fold numerator, which is the played classes'
        gains plus (all the weight) x the fold numerator: one masked sum of `gain`.
        """
        gain = self.gain
        return self.figures_of_sums(exact_masked_sum(self.weights, play, self.weight_bound),
                                    exact_masked_sum(gain, play, self._gain_bound if gain.dtype != object else None),
                                    name, description, play)

    def figures_of_groups(self, sums: "SignSums", play: np.ndarray, name: str = "", description: str = "",
                          classes: np.ndarray | None = None) -> StrategyFigures:
        """The exact figures of a strategy that plays the groups where `play` holds, from the classes' sums
        by group (`SignSums`); `classes`: its decisions per class, when the caller has them."""
        weights, gains = sums.totals
        return self.figures_of_sums(exact_masked_sum(weights, play), exact_masked_sum(gains, play), name, description,
                                    classes)

    def optimal_figures_of_groups(self, sums: "SignSums", name: str = "", description: str = "") -> StrategyFigures:
        """The exact figures of the optimal strategy (play where the gain is > 0) from the classes' sums by
        group (`SignSums`), with its decisions per class (`optimal`)."""
        return self.figures_of_sums(exact_sum(sums.weights[:, 2]), exact_sum(sums.gains[:, 2]), name, description,
                                    self.optimal()[0])

    def figures_of_sums(self, played_weight: int, played_gain: int, name: str = "", description: str = "",
                        play: np.ndarray | None = None) -> StrategyFigures:
        """The exact figures of a strategy from its two sums over the classes it plays: their weight and
        their gain (`play`: its decisions, when the caller has them)."""
        total = self.total_weight
        return StrategyFigures(name=name, description=description, play=play,
                               p_play=Fraction(played_weight, total),
                               ev=Fraction(played_gain + total * self.fold_numerator, total * self.denominator),
                               play_size=self.play_size)
