"""The exact distribution of one poker round under a play/fold strategy, from a counted table (both games).

`round_outcomes` gives `RoundOutcomes` over every deal with components "main" (net per ANTE), "wagered",
"played" (0/1) and "side" (a side bet's class, fixed per class: Hold'em's AA Bonus, Stud's progressive).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from analyzer.figures.distribution import RoundOutcomes, WagerStatistics
from analyzer.core.errors import InvariantError
from analyzer.core.exact import INT64_MAX, dtype_bound, exact_group_sums
from analyzer.poker.settlement import Paytable
from cython_ext import group_sums

MAIN, WAGERED, PLAYED, SIDE = "main", "wagered", "played", "side"
COMPONENTS = (MAIN, WAGERED, PLAYED, SIDE)


def grouped_counts(counts: np.ndarray, weights: np.ndarray, groups: np.ndarray, n_groups: int,
                   mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Exact sums by group of weight x counts over the rows where `mask` holds (default all), and of the
    weight alone over the other rows: (n_groups, *counts.shape[1:]) and (n_groups,).  int64 (by the compiled
    kernel) when weight.max() x max(count bound x cells, 1) x rows fits (no partial sum of non-negative
    values exceeds it), else Python integers."""
    counts, weights, groups = np.asarray(counts), np.asarray(weights), np.asarray(groups)
    m = len(weights)
    cells = int(np.prod(counts.shape[1:], dtype=np.int64))
    shape = (n_groups,) + counts.shape[1:]
    if m and ((weights.dtype.kind != "u" and int(weights.min()) < 0)
              or (counts.dtype.kind != "u" and int(counts.min()) < 0)):
        raise ValueError("grouped_counts sums non-negative counts and weights only")
    largest_weight = int(weights.max(initial=0))
    largest_count = dtype_bound(counts)                      # uint32 counts: no pass over them
    if largest_count is None or largest_weight * max(largest_count * cells, 1) * m > INT64_MAX:
        largest_count = int(counts.max(initial=0))           # the dtype alone proves too little: look
    bound = largest_weight * max(largest_count * cells, 1) * m
    if bound > INT64_MAX or counts.dtype == object or weights.dtype == object:
        inside = np.ones(m, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
        products = counts.reshape(m, cells)[inside].astype(object) * weights[inside].astype(object)[:, None]
        out = np.zeros((n_groups, cells), dtype=object)
        for column in range(cells):
            out[:, column] = exact_group_sums(groups[inside], products[:, column], n_groups)
        return out.reshape(shape), exact_group_sums(groups[~inside], weights[~inside].astype(object), n_groups)
    out, rest = np.zeros((n_groups, cells), dtype=np.int64), np.zeros(n_groups, dtype=np.int64)
    mask = None if mask is None else np.asarray(mask, dtype=bool).view(np.uint8)
    group_sums.add_weighted_rows(_kernel_input(counts.reshape(m, cells), KERNEL_COUNTS),
                                 _kernel_input(weights, KERNEL_WEIGHTS), _kernel_input(groups, KERNEL_GROUPS),
                                 mask, out, rest)            # int64: the bound above proves it exact
    return out.reshape(shape), rest


KERNEL_COUNTS = (np.uint8, np.uint16, np.uint32, np.int64)   # the dtypes cython_ext.group_sums reads as they are
KERNEL_WEIGHTS = KERNEL_GROUPS = (np.uint8, np.int64)


def _kernel_input(values: np.ndarray, dtypes: tuple) -> np.ndarray:
    """The array itself when the kernel reads its dtype, else an int64 copy (exact: its values fit, by the bound)."""
    return values if values.dtype in dtypes else values.astype(np.int64)


NEAR = 4         # a mask differing from one already summed in at most 1/NEAR of the rows is summed from it


def masked_counts(counts: np.ndarray, weights: np.ndarray, groups: np.ndarray, n_groups: int, mask: np.ndarray,
                  summed: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`grouped_counts(...)`, moved from the nearest int64 sums in `summed` ([(packed mask, sums, weights
    outside)], the new one added) when the masks differ in few rows: rows leaving first, so every partial
    sum stays within grouped_counts' bound."""
    mask = np.asarray(mask, dtype=bool)
    packed, m = np.packbits(mask), len(mask)
    distances = [group_sums.differing_bits(packed, other) for other, _, _ in summed or ()]
    best = int(np.argmin(distances)) if distances else None
    if best is None or distances[best] > m // NEAR or summed[best][1].dtype != np.int64:
        inside, outside = grouped_counts(counts, weights, groups, n_groups, mask)
    elif distances[best] == 0:
        return summed[best][1], summed[best][2]
    else:
        other, inside, outside = summed[best]
        inside, outside = inside.copy(), outside.copy()
        group_sums.move_changed_rows(_kernel_input(np.asarray(counts).reshape(m, -1), KERNEL_COUNTS),
                                     _kernel_input(np.asarray(weights), KERNEL_WEIGHTS),
                                     _kernel_input(np.asarray(groups), KERNEL_GROUPS), other, packed,
                                     inside.reshape(n_groups, -1), outside)
    if summed is not None and inside.dtype == np.int64:          # only int64 sums are ever reused
        summed.append((packed, inside, outside))
    return inside, outside


def joint_classes(side: np.ndarray, n_side: int, category: np.ndarray, n_categories: int) -> np.ndarray:
    """side x n_categories + category, one group per row (uint8 when the groups fit it)."""
    groups = _classes(side, n_side, "side class", _small(n_side * n_categories))
    groups *= n_categories
    groups += _classes(category, n_categories, "category", groups.dtype)
    return groups


def _classes(values: np.ndarray, n: int, name: str, dtype) -> np.ndarray:
    """The values as a new array of `dtype`, checked first to lie in 0..n-1 (so that no cast wraps one)."""
    values = np.asarray(values)
    if len(values) and (int(values.min()) < 0 or int(values.max()) >= n):
        raise ValueError(f"a {name} is outside 0..{n - 1}")
    return values.astype(dtype)


@dataclass(frozen=True)
class SideClasses:
    """A cache entry: the groups of one table's round statistics (side x n_categories + fixed category when
    `joint`, else the side class) and the masks summed by them (`masked_counts`)."""

    groups: np.ndarray
    n_side: int
    n_categories: int
    joint: bool
    summed: list
    made_of: tuple = ()          # the (side, category) arrays the groups were made of, when they cannot change

    @classmethod
    def of(cls, side: np.ndarray, n_side: int, category: np.ndarray | None, n_categories: int) -> "SideClasses":
        """The groups of these classes (checked to lie in range; a copy, whatever the arrays do next)."""
        made_of = (side, category) if unchangeable(side) and (category is None or unchangeable(category)) else ()
        if category is None:
            return cls(_classes(side, n_side, "side class", _small(n_side)), n_side, n_categories, False, [], made_of)
        return cls(joint_classes(side, n_side, category, n_categories), n_side, n_categories, True, [], made_of)

    def holds(self, side: np.ndarray, n_side: int, category: np.ndarray | None, n_categories: int) -> bool:
        """Whether these are the groups of exactly these classes."""
        if (n_side, n_categories, category is not None) != (self.n_side, self.n_categories, self.joint):
            return False
        if self.made_of and self.made_of[0] is side and self.made_of[1] is category:
            return True
        if not self.joint:
            return self.groups.shape == side.shape and bool(np.array_equal(self.groups, side))
        return side.ndim == category.ndim == 1 and group_sums.are_joint_classes(
            self.groups, np.ascontiguousarray(_kernel_input(side, KERNEL_GROUPS)), n_side,
            np.ascontiguousarray(_kernel_input(category, KERNEL_GROUPS)), n_categories)

    @property
    def n_groups(self) -> int:
        return self.n_side * self.n_categories if self.joint else self.n_side


def unchangeable(array) -> bool:
    """Whether an array's values cannot change in place: read-only, over data it owns."""
    return isinstance(array, np.ndarray) and not array.flags.writeable and array.base is None


def _small(n: int):
    """The smallest dtype the kernel reads that holds 0..n-1."""
    return np.uint8 if n <= 256 else np.int64


def side_classes(side: np.ndarray, n_side: int, category: np.ndarray | None, n_categories: int,
                 cache: dict | None) -> SideClasses:
    """The `SideClasses` of these classes: the one kept in `cache` when it holds them, else made (and kept there)."""
    kept = [] if cache is None else cache.setdefault("round_outcomes", [])
    entry = next((entry for entry in kept if entry.holds(side, n_side, category, n_categories)), None)
    if entry is None:
        entry = SideClasses.of(side, n_side, category, n_categories)
        kept.append(entry)
    return entry


def played_counts(weights: np.ndarray, counts: np.ndarray, play: np.ndarray, n_categories: int, *,
                  category: np.ndarray | None = None, side: np.ndarray | None = None, n_side: int = 1,
                  cache: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(played, folded weight): exact weight x counts of the played classes, (n_side, n_categories, outcomes),
    and the folded weight, (n_side,).  Arguments as `round_outcomes`; with one `cache` a mask is summed once."""
    weights, counts, play = np.asarray(weights), np.asarray(counts), np.asarray(play, dtype=bool)
    if counts.ndim == 2 and category is None:
        raise ValueError("(m, outcomes) counts need each class's fixed category")
    side = np.zeros(len(weights), dtype=np.uint8) if side is None else np.asarray(side)
    fixed = None if counts.ndim == 3 else np.asarray(category)
    classes = side_classes(side, n_side, fixed, n_categories, cache)
    played, folded_weight = masked_counts(counts, weights, classes.groups, classes.n_groups, play, classes.summed)
    if fixed is None:
        return played, folded_weight                                                        # (s, c, o), (s,)
    return (played.reshape(n_side, n_categories, counts.shape[1]),                          # (s, c, o)
            folded_weight.reshape(n_side, n_categories).sum(axis=1))


def played_weights(played: np.ndarray, continuations: int) -> list[int]:
    """Per side class, the played weight from `played_counts`' sums (each class's counts add up to
    `continuations`; checked)."""
    sums = [sum(int(x) for x in np.asarray(side).ravel()) for side in played]
    if any(total % continuations for total in sums):
        raise InvariantError("a class's counts do not add up to its continuations")
    return [total // continuations for total in sums]


def round_outcomes(weights: np.ndarray, counts: np.ndarray, continuations: int, play: np.ndarray,
                   paytable: Paytable, *, category: np.ndarray | None = None, side: np.ndarray | None = None,
                   n_side: int = 1, cache: dict | None = None) -> RoundOutcomes:
    """Every deal of the table under the play mask, as rows (main, wagered, played, side) with deal counts.

    counts: (m, categories, outcomes) (Casino Hold'em), or (m, outcomes) with `category` the class's
    fixed category (Caribbean Stud).  `side`: each class's side class in 0..n_side-1.  `cache`: a dict
    kept with the counts (the table's `derived`) where the grouped sums are kept.
    """
    n_categories = len(paytable.ante_wins)
    played, folded_weight = played_counts(weights, counts, play, n_categories, category=category, side=side,
                                          n_side=n_side, cache=cache)
    nets = paytable.nets()
    wagered_play = 1 + paytable.play_size
    rows = [((-1, 1, 0, s), int(folded_weight[s]) * continuations) for s in range(n_side)]
    rows += [((nets[c][o], wagered_play, 1, s), int(played[s, c, o])) for s, c, o in np.ndindex(played.shape)]
    return RoundOutcomes(COMPONENTS, rows)


def with_side_bet(outcomes: RoundOutcomes, name: str, net_of: Callable[[int, bool], object]) -> RoundOutcomes:
    """The outcomes with a component `name` = net_of(side class, played), an exact number per unit staked."""
    return outcomes.extend(name, (SIDE, PLAYED), lambda side, played: net_of(int(side), bool(played)))


COMBINED, WAGERED_COMBINED = "combined", "wagered_combined"


@dataclass(frozen=True)
class PlayStatistics:
    """One strategy's round statistics: `main` per ANTE, `side` per unit staked on the side bet, `combined`
    per ANTE with the side bet at `side_stake` x ANTE, `covariance` Cov(main, side) from the joint rows."""

    outcomes: RoundOutcomes
    main: WagerStatistics
    side: WagerStatistics | None = None
    combined: WagerStatistics | None = None
    side_stake: Fraction | None = None
    covariance: Fraction | None = None

    @classmethod
    def of(cls, outcomes: RoundOutcomes, side: str | None = None, stake=None,
           main: WagerStatistics | None = None) -> "PlayStatistics":
        """From rows of `round_outcomes` (the side bet's component `side` added by `with_side_bet`)."""
        main = main or WagerStatistics.from_outcomes(outcomes, MAIN, WAGERED)
        if side is None:
            return cls(outcomes, main)
        stake = Fraction(stake)
        # main and side bet together, the side bet staked `stake` x ANTE
        joint = outcomes.combine(COMBINED, {MAIN: 1, side: stake}, keep=[WAGERED])
        joint = joint.combine(WAGERED_COMBINED, {WAGERED: 1}, constant=stake, keep=[COMBINED])
        combined = WagerStatistics.from_outcomes(joint, COMBINED, WAGERED_COMBINED)
        return cls(outcomes, main, WagerStatistics.from_outcomes(outcomes, side, None), combined, stake,
                   outcomes.covariance(MAIN, side))
