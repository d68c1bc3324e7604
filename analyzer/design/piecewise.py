"""Exact paytable design under optimal play: EV as a convex piecewise-linear function of one payout.

The setting (no game knowledge): situation classes i = 1..m, each with an integer weight
w_i (the raw situations it stands for), a fold value f_i and a play value a_i + b_i*theta,
linear in one payout theta.  All values are integer numerators over one common positive
denominator D.  Under optimal play a class takes max(f_i, a_i + b_i*theta), so the total

    EV(theta) = sum_i w_i * max(f_i, a_i + b_i*theta) / (W * D),    W = sum_i w_i,

is convex and piecewise linear; a class with a fixed strategy (always fold, always play)
contributes a linear term.  EV is per initial bet; the house edge is -EV, and with s the
play wager per initial bet (2 for Casino Hold'em's CALL, s = 0 for a per-unit return)

    RTP(theta) = returned / wagered = 1 + EV(theta) / (1 + s * P(play)).

A class *switches* at theta_i = (f_i - a_i) / b_i (b_i != 0): rising through it, a class
with b_i > 0 turns from fold to play, one with b_i < 0 from play to fold.  Between
consecutive switch points (breakpoints) every decision is fixed, so EV, P(play) and RTP are
linear there.  At a breakpoint the classes that switch are exactly indifferent; the `tie`
rule ("fold", the project's convention, or "play") decides them, which matters for P(play)
and so for the RTP *at* that point only (with s > 0 the RTP can jump there; EV never does).

Everything is exact: counts and numerators are integers (NumPy int64 while the bounds,
checked before every operation, allow; object arrays of Python integers beyond), every
reported figure is a `Fraction`.  Floats appear in two places only, and never decide: a
float key orders candidate breakpoints before an exact repair and verification of every
neighbouring pair, and float estimates with generous error bounds pick which pieces to
examine exactly in `solve` (a piece is skipped only when its error bound proves it cannot
hold the target).

Use:

    model = PayoutModel(weight, fold, play_const, play_slope, denominator, wager=2)
    model.breakpoints(lo, hi)      # where classes switch, with counts and directions
    model.pieces(lo, hi)           # the linear EV / P(play) / RTP on each piece
    model.solve(target, "rtp", lo, hi)       # every theta meeting the target, or why none
    model.printable_neighbours(theta_star, step)   # the printable payouts either side
    model.point(theta)             # exact figures at one theta (vectorised)
    model.evaluate(theta)          # plain reference EV (a Fraction loop, for tests)
"""
from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.core.exact import INT64_MAX, abs_bound, decimal_str, exact_sum, figure, percent_str, to_fraction

FREE, FOLD, PLAY = -1, 0, 1            # values of the `fixed` array: optimal, always fold, always play
TIES = ("fold", "play")
KINDS = ("rtp", "house_edge", "ev")
CLOSE = 2.0**-40                       # relative gap under which two float keys may be misordered
TINY = 2.0**-1000                      # below this a float key's relative error is unbounded
SCREEN = 2.0**-40                      # relative error bound used when screening pieces with floats


# --- exact integer arrays: int64 while the bound allows, Python integers beyond ------------

def _obj(x: np.ndarray) -> np.ndarray:
    return x if x.dtype == object else x.astype(object)


def _machine(*arrays) -> bool:
    return all(not isinstance(x, np.ndarray) or x.dtype != object for x in arrays)


def _mul(x, y, bound: int):
    """x * y exactly; `bound` >= max |x * y| (int64 only when it fits)."""
    if bound <= INT64_MAX and _machine(x, y):
        return x * (np.int64(y) if isinstance(y, int) else y)
    return (_obj(x) if isinstance(x, np.ndarray) else x) * (_obj(y) if isinstance(y, np.ndarray) else y)


def _add(x, y, bound: int):
    """x + y exactly; `bound` >= max |x + y| and every operand's magnitude."""
    if bound <= INT64_MAX and _machine(x, y):
        return x + (np.int64(y) if isinstance(y, int) else y)
    return (_obj(x) if isinstance(x, np.ndarray) else x) + (_obj(y) if isinstance(y, np.ndarray) else y)


def _group_sums(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Exact sums of x over the groups beginning at `starts` (non-empty x)."""
    if _machine(x) and abs_bound(x) * x.size <= INT64_MAX:
        return np.add.reduceat(x, starts)
    return np.add.reduceat(_obj(x), starts)


def _cumulative(first: int, deltas: np.ndarray) -> np.ndarray:
    """[first, first + d0, first + d0 + d1, ...] exactly."""
    values = np.concatenate([np.array([first], dtype=object), _obj(deltas)])
    if _machine(deltas) and abs(first) + abs_bound(deltas) * deltas.size <= INT64_MAX:
        return np.cumsum(values.astype(np.int64))
    return np.cumsum(values)


def _join(*parts) -> np.ndarray:
    """Python ints and exact arrays end to end: int64 when every part is machine and fits, else object."""
    arrays = [np.array([part], dtype=object) if isinstance(part, int) else part for part in parts]
    machine = all(isinstance(part, int) or part.dtype != object for part in parts)
    if machine and max((abs_bound(x) for x in arrays), default=0) <= INT64_MAX:
        return np.concatenate([x.astype(np.int64) for x in arrays])
    return np.concatenate([_obj(x) for x in arrays])


def _exact_array(values, name: str, python_ints: bool) -> np.ndarray:
    """A 1-D exact integer array: int64 when every value fits (and not forced), else object."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional")
    if array.dtype == object:
        items = []
        for item in array.tolist():
            if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
                raise TypeError(f"{name} holds {item!r}: integer numerators only")
            items.append(int(item))
        array = np.empty(len(items), dtype=object)
        array[:] = items
    elif array.dtype.kind == "b" or array.dtype.kind not in "iu":
        raise TypeError(f"{name} has dtype {array.dtype}: integer numerators only (no floats)")
    if python_ints:
        return _obj(array) if array.dtype == object else np.array(array.tolist(), dtype=object)
    if array.dtype != object:
        if array.dtype == np.uint64 and array.size and int(array.max()) > INT64_MAX:
            return np.array(array.tolist(), dtype=object)
        return array.astype(np.int64)
    return array.astype(np.int64) if abs_bound(array) <= INT64_MAX else array


def _fraction_keys(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Float approximations of p/q (q > 0), each within 3 ulps; OverflowError past floats."""
    if _machine(p, q):
        return p.astype(np.float64) / q.astype(np.float64)
    return np.array([int(x) / int(y) for x, y in zip(p, q)], dtype=np.float64)


def _product128(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x * y as (high, low) uint64 words, exactly, for uint64 x, y < 2**63 (32-bit limbs)."""
    half, mask = np.uint64(32), np.uint64(0xFFFFFFFF)
    xh, xl, yh, yl = x >> half, x & mask, y >> half, y & mask
    low_low, middle = xl * yl, xl * yh + xh * yl            # each term < 2**64: no wrap
    low = low_low + (middle << half)                         # wraps modulo 2**64, as wanted
    carry = (low < low_low).astype(np.uint64)
    return xh * yh + (middle >> half) + carry, low


def compare_fractions(p1, q1, p2, q2) -> np.ndarray:
    """sign(p1/q1 - p2/q2) elementwise as int8 (-1, 0, 1), exactly, for denominators q > 0.

    Cross-multiplication: sign(p1*q2 - p2*q1).  On int64 the products are formed exactly
    in 128 bits from 32-bit limbs (`_product128`), after deciding opposite signs; on object
    arrays (or int64 holding -2**63) with Python integers.

    >>> compare_fractions(np.array([1, 2, 7]), np.array([3, 4, 3]), np.array([1, 1, 2]), np.array([2, 2, 1]))
    array([-1,  0,  1], dtype=int8)
    """
    p1, q1, p2, q2 = (np.asarray(x) for x in (p1, q1, p2, q2))
    if not _machine(p1, q1, p2, q2) or (p1.size and min(int(p1.min()), int(p2.min())) == -INT64_MAX - 1):
        difference = _obj(p1) * _obj(q2) - _obj(p2) * _obj(q1)
        return ((difference > 0).astype(np.int8) - (difference < 0).astype(np.int8))
    s1, s2 = np.sign(p1).astype(np.int8), np.sign(p2).astype(np.int8)
    high1, low1 = _product128(np.abs(p1).astype(np.uint64), q2.astype(np.uint64))   # |p1| q2
    high2, low2 = _product128(np.abs(p2).astype(np.uint64), q1.astype(np.uint64))   # |p2| q1
    magnitude = ((high1 > high2) | ((high1 == high2) & (low1 > low2))).astype(np.int8) \
        - ((high1 < high2) | ((high1 == high2) & (low1 < low2))).astype(np.int8)
    return np.where(s1 == s2, s1 * magnitude, np.sign(s1 - s2)).astype(np.int8)


def _exact_order(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(permutation sorting the fractions p/q (q > 0) exactly, sign of each neighbouring step).

    Sort by a float key; compare every neighbouring pair exactly (`compare_fractions`); should
    any pair be out of order, sort exactly each run of neighbours whose float keys are too
    close for the float to decide (the only place a misorder can be: the key is within 3 ulps
    of p/q), and verify again; should that ever fail, sort everything exactly.  The signs
    are 0 between equal fractions, which a verified order keeps side by side.
    """
    n = len(p)
    if n < 2:
        return np.arange(n), np.zeros(max(n - 1, 0), dtype=np.int8)
    try:
        keys = _fraction_keys(p, q)
    except OverflowError:
        keys = None
    if keys is not None and np.isfinite(keys).all():
        order = np.argsort(keys)                 # deterministic; equal keys in no promised order
        ps, qs = p[order], q[order]
        steps = compare_fractions(ps[:-1], qs[:-1], ps[1:], qs[1:])
        if (steps > 0).any():
            ks = keys[order]
            scale = np.maximum(np.abs(ks[1:]), np.abs(ks[:-1]))
            close = ~(np.abs(ks[1:] - ks[:-1]) > scale * CLOSE) | (scale < TINY)
            run = np.concatenate([[0], np.cumsum(~close)])       # run id of each sorted position
            for r in np.unique(run[1:][steps > 0]):
                start, stop = np.searchsorted(run, r, "left"), np.searchsorted(run, r, "right")
                segment = order[start:stop]
                values = [Fraction(int(x), int(y)) for x, y in zip(p[segment], q[segment])]
                rank = {value: i for i, value in enumerate(sorted(set(values)))}
                order[start:stop] = segment[np.argsort([rank[v] for v in values], kind="stable")]
            ps, qs = p[order], q[order]
            steps = compare_fractions(ps[:-1], qs[:-1], ps[1:], qs[1:])
        if not (steps > 0).any():
            return order, steps
    order = _sorted_by_fractions(p, q)
    ps, qs = p[order], q[order]
    return order, compare_fractions(ps[:-1], qs[:-1], ps[1:], qs[1:])


def _sorted_by_fractions(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The slow exact order (Python's sort on Fractions): past the float range, or a failed repair."""
    values = [Fraction(int(x), int(y)) for x, y in zip(p, q)]
    return np.array(sorted(range(len(values)), key=values.__getitem__), dtype=np.int64)


def _as_fraction(value, name: str) -> Fraction:
    try:
        return to_fraction(value)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{name}: {error}") from None


# --- results -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    """Exact figures at one payout theta (per initial bet)."""

    theta: Fraction
    ev: Fraction            # expected value per initial bet
    p_play: Fraction        # probability of playing (ties per the model's rule)
    rtp: Fraction           # returned / wagered = 1 + ev / (1 + s * p_play)

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    def as_dict(self) -> dict:
        return {"theta": figure(self.theta), "ev": figure(self.ev), "house_edge": figure(self.house_edge),
                "p_play": figure(self.p_play), "rtp": figure(self.rtp)}

    def describe(self) -> str:
        return (f"theta {decimal_str(self.theta, 6)}: house edge {percent_str(self.house_edge)}, "
                f"RTP {percent_str(self.rtp)}, P(play) {decimal_str(self.p_play, 6)}")


@dataclass(frozen=True)
class Breakpoint:
    """One theta where free classes switch, with how many (and how much weight) each way."""

    theta: Fraction
    classes_to_play: int    # b > 0: fold below theta, play above
    classes_to_fold: int    # b < 0: play below theta, fold above
    weight_to_play: int     # raw situations (sum of weights) of those classes
    weight_to_fold: int

    @property
    def classes(self) -> int:
        return self.classes_to_play + self.classes_to_fold

    @property
    def weight(self) -> int:
        return self.weight_to_play + self.weight_to_fold


@dataclass(frozen=True, eq=False)          # holds arrays: compare items, not objects
class Breakpoints:
    """Every breakpoint in [lo, hi], sorted exactly; arrays, with Breakpoint items on demand."""

    lo: Fraction
    hi: Fraction
    num: np.ndarray         # numerators (int64 or object; not necessarily in lowest terms)
    den: np.ndarray         # denominators > 0
    to_play: np.ndarray     # classes switching fold -> play, per breakpoint
    to_fold: np.ndarray
    weight_to_play: np.ndarray
    weight_to_fold: np.ndarray
    members: np.ndarray     # indices of the switching classes, grouped by breakpoint
    starts: np.ndarray      # where each breakpoint's group begins in `members`

    def __len__(self) -> int:
        return len(self.num)

    def __getitem__(self, j: int) -> Breakpoint:
        if not -len(self) <= j < len(self):
            raise IndexError(j)
        j %= len(self)
        return Breakpoint(Fraction(int(self.num[j]), int(self.den[j])), int(self.to_play[j]), int(self.to_fold[j]),
                          int(self.weight_to_play[j]), int(self.weight_to_fold[j]))

    def __iter__(self):
        return (self[j] for j in range(len(self)))

    def thetas(self) -> list[Fraction]:
        return [Fraction(int(p), int(q)) for p, q in zip(self.num, self.den)]

    def classes_at(self, j: int) -> np.ndarray:
        """Indices of the classes that switch at breakpoint j."""
        stop = self.starts[j + 1] if j + 1 < len(self.starts) else len(self.members)
        return self.members[self.starts[j]:stop]


@dataclass(frozen=True)
class Linear:
    """alpha + beta * theta, exactly."""

    alpha: Fraction
    beta: Fraction

    def __call__(self, theta) -> Fraction:
        return self.alpha + self.beta * Fraction(theta)


@dataclass(frozen=True)
class Piece:
    """The figures on [start, end] (decisions as on the open interval; at the ends see Pieces.point)."""

    start: Fraction
    end: Fraction
    ev: Linear
    p_play: Fraction
    rtp: Linear

    @property
    def house_edge(self) -> Linear:
        return Linear(-self.ev.alpha, -self.ev.beta)


@dataclass(frozen=True, eq=False)          # holds arrays: compare items, not objects
class Pieces:
    """The exact piecewise-linear figures on [lo, hi].

    Points 0..n are lo, the breakpoints strictly inside, hi; piece j lies between points j
    and j+1.  On piece j the total numerator is A[j] + B[j]*theta (EV = that / (W*D)) and
    Pw[j] is the playing weight; at point i, A_at/B_at/Pw_at hold the same with the tie rule.
    """

    num: np.ndarray
    den: np.ndarray
    A: np.ndarray
    B: np.ndarray
    Pw: np.ndarray
    A_at: np.ndarray
    B_at: np.ndarray
    Pw_at: np.ndarray
    total_weight: int
    denominator: int
    wager: Fraction

    def __len__(self) -> int:
        return len(self.A)

    def theta(self, i: int) -> Fraction:
        return Fraction(int(self.num[i]), int(self.den[i]))

    def _figures(self, A: int, B: int, Pw: int) -> tuple[Linear, Fraction, Linear]:
        W, D, s = self.total_weight, self.denominator, self.wager
        ev = Linear(Fraction(A, W * D), Fraction(B, W * D))
        p_play = Fraction(Pw, W)
        scale = 1 / (1 + s * p_play)
        return ev, p_play, Linear(1 + ev.alpha * scale, ev.beta * scale)

    def __getitem__(self, j: int) -> Piece:
        if not -len(self) <= j < len(self):
            raise IndexError(j)
        j %= len(self)
        ev, p_play, rtp = self._figures(int(self.A[j]), int(self.B[j]), int(self.Pw[j]))
        return Piece(self.theta(j), self.theta(j + 1), ev, p_play, rtp)

    def __iter__(self):
        return (self[j] for j in range(len(self)))

    def point(self, i: int) -> Point:
        """The exact figures at point i (lo, a breakpoint, or hi), ties per the tie rule."""
        theta = self.theta(i)
        ev, p_play, rtp = self._figures(int(self.A_at[i]), int(self.B_at[i]), int(self.Pw_at[i]))
        return Point(theta, ev(theta), p_play, rtp(theta))

    def at(self, theta) -> Point:
        """The exact figures at any theta in [lo, hi] (binary search over the points)."""
        theta = _as_fraction(theta, "theta")
        points = _FractionList(self.num, self.den)
        i = bisect.bisect_left(points, theta)
        if i < len(points) and points[i] == theta:
            return self.point(i)
        if i == 0 or i == len(points):
            raise ValueError(f"theta {theta} lies outside [{self.theta(0)}, {self.theta(len(points) - 1)}]")
        ev, p_play, rtp = self._figures(int(self.A[i - 1]), int(self.B[i - 1]), int(self.Pw[i - 1]))
        return Point(theta, ev(theta), p_play, rtp(theta))


class _FractionList:
    """A read-only sequence of Fractions over numerator/denominator arrays (for bisect)."""

    def __init__(self, num, den):
        self.num, self.den = num, den

    def __len__(self):
        return len(self.num)

    def __getitem__(self, i):
        return Fraction(int(self.num[i]), int(self.den[i]))


@dataclass(frozen=True)
class Interval:
    """A set of solutions: one theta (start == end) or a stretch where the figure is flat."""

    start: Fraction
    end: Fraction
    start_included: bool = True
    end_included: bool = True

    @property
    def is_point(self) -> bool:
        return self.start == self.end

    def __str__(self) -> str:
        if self.is_point:
            return f"{self.start}"
        return f"{'[' if self.start_included else '('}{self.start}, {self.end}{']' if self.end_included else ')'}"


@dataclass(frozen=True)
class Jump:
    """A breakpoint where the RTP jumps over the target: limits either side and the value there."""

    theta: Fraction
    left: Fraction
    value: Fraction
    right: Fraction


@dataclass(frozen=True)
class Solution:
    """Every theta in [lo, hi] where the figure equals the target, or why there is none."""

    kind: str
    target: Fraction
    lo: Fraction
    hi: Fraction
    solutions: list[Interval]
    at_lo: Fraction                     # the figure at lo and at hi
    at_hi: Fraction
    lowest: Fraction                    # inf and sup of the figure over [lo, hi]
    highest: Fraction
    jumps: list[Jump] = field(default_factory=list)   # where the target is jumped over (when unreachable)

    @property
    def reachable(self) -> bool:
        return bool(self.solutions)

    @property
    def theta(self) -> Fraction:
        """The one solution; ValueError when there is none, several, or a flat stretch."""
        if len(self.solutions) != 1 or not self.solutions[0].is_point:
            raise ValueError(self.describe())
        return self.solutions[0].start

    def describe(self) -> str:
        what = {"rtp": "RTP", "house_edge": "house edge", "ev": "EV"}[self.kind]
        if self.solutions:
            return f"{what} {decimal_str(self.target)} at theta = " + ", ".join(map(str, self.solutions))
        text = (f"{what} {decimal_str(self.target)} is unreachable for theta in [{self.lo}, {self.hi}]: "
                f"the {what} runs from {decimal_str(self.lowest)} to {decimal_str(self.highest)} there "
                f"({decimal_str(self.at_lo)} at {self.lo}, {decimal_str(self.at_hi)} at {self.hi})")
        if self.jumps:
            text += "; it jumps over the target at theta = " + ", ".join(str(j.theta) for j in self.jumps)
        return text


@dataclass(frozen=True)
class Neighbours:
    """The printable payouts either side of theta* (equal when theta* is printable)."""

    below: Point
    above: Point


# --- the model -----------------------------------------------------------------------------

class PayoutModel:
    """Situation classes whose play value is linear in one payout theta (see the module doc).

    weight: (m,) integers >= 0, not all 0; fold, play_const, play_slope: (m,) integer
    numerators of f_i, a_i, b_i over `denominator` (> 0).  Arrays may be any integer dtype
    or object arrays of Python ints; floats are refused.  fixed: None (every class plays
    optimally), "play"/"fold" (every class fixed), a bool array (each class fixed to
    play where True, fold where False), or an int array of FREE (-1), FOLD (0), PLAY (1).
    wager: s, the play wager per initial bet (RTP = 1 + EV / (1 + s P(play))).
    tie: how an exactly indifferent free class decides ("fold" or "play").
    Raises TypeError/ValueError on malformed input.
    """

    def __init__(self, weight, fold, play_const, play_slope, denominator: int, fixed=None, *,
                 wager=0, tie: str = "fold", python_ints: bool = False):
        self.w = _exact_array(weight, "weight", python_ints)
        self.f = _exact_array(fold, "fold", python_ints)
        self.a = _exact_array(play_const, "play_const", python_ints)
        self.b = _exact_array(play_slope, "play_slope", python_ints)
        m = len(self.w)
        if not len(self.f) == len(self.a) == len(self.b) == m or m == 0:
            raise ValueError("weight, fold, play_const and play_slope must have one common, non-zero length")
        if isinstance(denominator, bool) or not isinstance(denominator, (int, np.integer)) or denominator <= 0:
            raise ValueError(f"denominator must be a positive integer, not {denominator!r}")
        self.D = int(denominator)
        if m and int(self.w.min()) < 0:
            raise ValueError("weights must be >= 0")
        self.W = exact_sum(self.w)
        if self.W <= 0:
            raise ValueError("the weights must not all be 0")
        self.fixed = self._fixed(fixed, m)
        self.wager = _as_fraction(wager, "wager")
        if self.wager < 0:
            raise ValueError("wager must be >= 0")
        if tie not in TIES:
            raise ValueError(f"tie must be one of {TIES}, not {tie!r}")
        self.tie = tie
        self._bounds = {name: abs_bound(getattr(self, name)) for name in "wfab"}
        self._candidates = None
        self._cache_range, self._cache = None, {}

    @staticmethod
    def _fixed(fixed, m: int) -> np.ndarray:
        if fixed is None:
            return np.full(m, FREE, dtype=np.int8)
        if isinstance(fixed, str):
            if fixed not in ("play", "fold"):
                raise ValueError(f"fixed must be 'play', 'fold', or an array, not {fixed!r}")
            return np.full(m, PLAY if fixed == "play" else FOLD, dtype=np.int8)
        array = np.asarray(fixed)
        if array.shape != (m,):
            raise ValueError(f"fixed must have shape ({m},)")
        if array.dtype.kind == "b":
            return np.where(array, PLAY, FOLD).astype(np.int8)
        if array.dtype.kind not in "iu" or not np.isin(array, (FREE, FOLD, PLAY)).all():
            raise ValueError("fixed must hold FREE (-1), FOLD (0) or PLAY (1)")
        return array.astype(np.int8)

    def __len__(self) -> int:
        return len(self.w)

    def _cached(self, what: str, lo: Fraction, hi: Fraction, make):
        """The last range's breakpoints and pieces, kept while the range stays the same."""
        if self._cache_range != (lo, hi):
            self._cache_range, self._cache = (lo, hi), {}
        if what not in self._cache:
            self._cache[what] = make()
        return self._cache[what]

    # - switch points -

    def _switches(self):
        """(class indices, p, q > 0 with theta_i = p/q, up: b > 0) of every free class with b != 0."""
        if self._candidates is None:
            index = np.nonzero((self.fixed == FREE) & (self.b != 0))[0]
            f, a, b = self.f[index], self.a[index], self.b[index]
            bounds = self._bounds
            p = _add(f, -a, bounds["f"] + bounds["a"])
            up = b > 0
            p, q = np.where(up, p, -p), np.where(up, b, -b)
            self._candidates = (index, p, q, up)
        return self._candidates

    def breakpoints(self, lo, hi) -> Breakpoints:
        """Every theta in [lo, hi] where some free class switches, exactly sorted and grouped.

        lo, hi: exact numbers (int, Fraction, "p/q" or decimal strings), lo <= hi.
        """
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        if lo > hi:
            raise ValueError(f"lo {lo} > hi {hi}")
        return self._cached("breakpoints", lo, hi, lambda: self._breakpoints(lo, hi))

    def _breakpoints(self, lo: Fraction, hi: Fraction) -> Breakpoints:
        index, p, q, up = self._switches()
        bp, bq = abs_bound(p), abs_bound(q)
        above_lo = _mul(p, lo.denominator, bp * lo.denominator) >= _mul(q, lo.numerator, bq * abs(lo.numerator))
        below_hi = _mul(p, hi.denominator, bp * hi.denominator) <= _mul(q, hi.numerator, bq * abs(hi.numerator))
        chosen = np.nonzero(above_lo & below_hi)[0]
        p, q, up, index = p[chosen], q[chosen], up[chosen], index[chosen]
        order, steps = _exact_order(p, q)
        p, q, up, index = p[order], q[order], up[order], index[order]
        if len(p):
            starts = np.concatenate([[0], np.nonzero(steps)[0] + 1]).astype(np.int64)
            sizes = np.diff(np.append(starts, len(p)))
            to_play = np.add.reduceat(up.astype(np.int64), starts)
            w = self.w[index]
            weight_up = _group_sums(np.where(up, w, 0).astype(w.dtype), starts)
            weight_down = _group_sums(np.where(up, 0, w).astype(w.dtype), starts)
            result = Breakpoints(lo, hi, p[starts], q[starts], to_play, sizes - to_play, weight_up, weight_down,
                                 index, starts)
        else:
            empty = np.zeros(0, dtype=np.int64)
            result = Breakpoints(lo, hi, empty, empty, empty, empty, empty, empty, empty, empty)
        return result

    # - figures at one theta -

    @functools.cached_property
    def _theta_free(self) -> tuple:
        """(a - f, w a, w f, w b): what every `_state` reads that no theta changes, made once."""
        bd = self._bounds
        return (_add(self.a, -self.f, bd["a"] + bd["f"]), _mul(self.w, self.a, bd["w"] * bd["a"]),
                _mul(self.w, self.f, bd["w"] * bd["f"]), _mul(self.w, self.b, bd["w"] * bd["b"]))

    def _state(self, theta: Fraction, side: str) -> tuple[int, int, int]:
        """(A, B, Pw): total numerator A + B*theta and playing weight, at theta or just beside it.

        side "at": indifferent free classes decide by the tie rule; "right": as just above
        theta (an indifferent class with b > 0 plays there, one with b < 0 folds).
        """
        p, q = theta.numerator, theta.denominator
        bd = self._bounds
        diff, wa, wf, wb = self._theta_free
        gain = _add(_mul(diff, q, (bd["a"] + bd["f"]) * q), _mul(self.b, p, bd["b"] * abs(p)),
                    (bd["a"] + bd["f"]) * q + bd["b"] * abs(p))     # (a + b theta - f) * q
        tie_play = self.tie == "play"
        if side == "at":
            indifferent_plays = np.full(len(self), tie_play)
        else:
            indifferent_plays = (self.b > 0) | ((self.b == 0) & tie_play)
        free_plays = (gain > 0) | ((gain == 0) & indifferent_plays)
        plays = np.where(self.fixed == FREE, free_plays, self.fixed == PLAY)
        zero = np.zeros(1, dtype=wb.dtype)
        return (exact_sum(np.where(plays, wa, wf)), exact_sum(np.where(plays, wb, zero)),
                exact_sum(np.where(plays, self.w, np.zeros(1, dtype=self.w.dtype))))

    def _figures(self, theta: Fraction, A: int, B: int, Pw: int) -> Point:
        ev = Fraction(A * theta.denominator + B * theta.numerator, self.W * self.D * theta.denominator)
        p_play = Fraction(Pw, self.W)
        return Point(theta, ev, p_play, 1 + ev / (1 + self.wager * p_play))

    def point(self, theta) -> Point:
        """Exact EV, P(play) and RTP at theta (vectorised over the classes; any theta)."""
        theta = _as_fraction(theta, "theta")
        return self._figures(theta, *self._state(theta, "at"))

    def evaluate(self, theta) -> Fraction:
        """Plain reference: total EV at theta by summing max over classes with Fractions (slow)."""
        return self.reference_point(theta).ev

    def reference_point(self, theta) -> Point:
        """Plain reference for every figure at theta: a Fraction loop over the classes (slow)."""
        theta = _as_fraction(theta, "theta")
        total, playing = Fraction(0), 0
        for w, f, a, b, fixed in zip(self.w.tolist(), self.f.tolist(), self.a.tolist(), self.b.tolist(),
                                     self.fixed.tolist()):
            play_value, fold_value = Fraction(a) + b * theta, Fraction(f)
            if fixed == FREE:
                plays = play_value > fold_value or (play_value == fold_value and self.tie == "play")
            else:
                plays = fixed == PLAY
            total += w * (play_value if plays else fold_value)
            playing += w if plays else 0
        ev = total / (self.W * self.D)
        p_play = Fraction(playing, self.W)
        return Point(theta, ev, p_play, 1 + ev / (1 + self.wager * p_play))

    # - pieces -

    def pieces(self, lo, hi) -> Pieces:
        """The exact linear EV, P(play) and RTP on every piece of [lo, hi] (see `Pieces`)."""
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        points = self.breakpoints(lo, hi)
        return self._cached("pieces", lo, hi, lambda: self._pieces(lo, hi, points))

    def _pieces(self, lo: Fraction, hi: Fraction, points: Breakpoints) -> Pieces:
        n = len(points)
        first = 1 if n and Fraction(int(points.num[0]), int(points.den[0])) == lo else 0
        stop = n - 1 if n > first and Fraction(int(points.num[-1]), int(points.den[-1])) == hi else n
        at_lo = self._state(lo, "at")
        if lo == hi:
            none = np.zeros(0, dtype=np.int64)
            return Pieces(_join(lo.numerator), _join(lo.denominator), none, none, none,
                          _join(at_lo[0]), _join(at_lo[1]), _join(at_lo[2]), self.W, self.D, self.wager)
        A0, B0, P0 = self._state(lo, "right")
        at_hi = self._state(hi, "at")
        members, starts = points.members, points.starts
        bd = self._bounds
        if stop > first:
            begin = starts[first]
            end = starts[stop] if stop < n else len(members)
            index = members[begin:end]
            w, f, a, b = self.w[index], self.f[index], self.a[index], self.b[index]
            sign = np.where(b > 0, 1, -1).astype(np.int64)
            d_alpha = _mul(_mul(w, sign, bd["w"]), _add(a, -f, bd["a"] + bd["f"]), bd["w"] * (bd["a"] + bd["f"]))
            d_beta = _mul(w, np.abs(b), bd["w"] * bd["b"])
            d_weight = _mul(w, sign, bd["w"])
            group = starts[first:stop] - begin
            dA, dB, dP = (_group_sums(x, group) for x in (d_alpha, d_beta, d_weight))
        else:
            dA = dB = dP = np.zeros(0, dtype=np.int64)
        A, B, Pw = _cumulative(A0, dA), _cumulative(B0, dB), _cumulative(P0, dP)
        num = _join(lo.numerator, points.num[first:stop], hi.numerator)
        den = _join(lo.denominator, points.den[first:stop], hi.denominator)
        # at the inner points: A, B of the piece to the right; P with the switching classes tied
        # (the right piece's playing weight holds those turning to play, not those turning to fold)
        right = Pw[1:]
        if self.tie == "fold":
            switching = points.weight_to_play[first:stop]
            inner_P = _add(right, -switching, abs_bound(right) + abs_bound(switching))
        else:
            switching = points.weight_to_fold[first:stop]
            inner_P = _add(right, switching, abs_bound(right) + abs_bound(switching))
        return Pieces(num, den, A, B, Pw, _join(at_lo[0], A[1:], at_hi[0]), _join(at_lo[1], B[1:], at_hi[1]),
                      _join(at_lo[2], inner_P, at_hi[2]), self.W, self.D, self.wager)

    # - solving -

    def _linear_parts(self, kind: str, A, B, Pw):
        """(c0, N0, N1, E) with figure = c0 + (N0 + N1 theta) / E, as exact Python ints."""
        W, D = self.W, self.D
        if kind == "ev":
            return 0, A, B, W * D
        if kind == "house_edge":
            return 0, -A, -B, W * D
        sp, sq = self.wager.numerator, self.wager.denominator
        return 1, A * sq, B * sq, D * (W * sq + sp * Pw)

    def _float_parts(self, kind: str, A, B, Pw):
        """The same as float arrays (for screening only), or None past the float range."""
        try:
            Af, Bf, Pf = (x.astype(np.float64) for x in (A, B, Pw))
            W, D = float(self.W), float(self.D)
            sp, sq = float(self.wager.numerator), float(self.wager.denominator)
        except OverflowError:
            return None
        with np.errstate(all="ignore"):
            if kind == "ev":
                return 0.0, Af, Bf, np.full(len(Af), W * D)
            if kind == "house_edge":
                return 0.0, -Af, -Bf, np.full(len(Af), W * D)
            return 1.0, Af * sq, Bf * sq, D * (W * sq + sp * Pf)

    def solve(self, target, kind: str, lo, hi) -> Solution:
        """Every theta in [lo, hi] where the figure `kind` ("rtp", "house_edge", "ev") equals target.

        Normally one theta; a flat stretch comes back as an Interval; several when the
        figure is not monotone.  None at all: `Solution.reachable` is False and the
        Solution carries the figure at lo and hi, its inf and sup over the range, and any
        breakpoints where the RTP jumps over the target.  target: exact number
        (Fraction, int, "0.985", "197/200"); percentages are given as fractions (0.985).
        """
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        target = _as_fraction(target, "target")
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        pieces = self.pieces(lo, hi)
        n_pts = len(pieces.num)
        thetas = _FractionList(pieces.num, pieces.den)

        def exact(A, B, Pw, theta):
            c0, N0, N1, E = self._linear_parts(kind, int(A), int(B), int(Pw))
            return c0 + Fraction(N0 * theta.denominator + N1 * theta.numerator, E * theta.denominator)

        piece_value = lambda j, i: exact(pieces.A[j], pieces.B[j], pieces.Pw[j], thetas[i])
        point_value = lambda i: exact(pieces.A_at[i], pieces.B_at[i], pieces.Pw_at[i], thetas[i])

        screen = self._screen(kind, pieces, target)
        found = []                              # (position, Interval or atom marker)
        for i in screen["points"]:
            if point_value(i) == target:
                found.append((2 * i, "point"))
        for j in screen["pieces"]:
            c0, N0, N1, E = self._linear_parts(kind, int(pieces.A[j]), int(pieces.B[j]), int(pieces.Pw[j]))
            if N1 == 0:
                if c0 + Fraction(N0, E) == target:
                    found.append((2 * j + 1, "piece"))
                continue
            theta = ((target - c0) * E - N0) / N1
            if thetas[j] < theta < thetas[j + 1]:
                found.append((2 * j + 1, Interval(theta, theta)))
        found.sort(key=lambda item: item[0])
        solutions, run = [], []
        for position, atom in found + [(None, None)]:
            if run and (atom is None or isinstance(atom, Interval) or position != run[-1][0] + 1
                        or isinstance(run[-1][1], Interval)):
                solutions.append(self._merge(run, thetas))
                run = []
            if atom is not None:
                run.append((position, atom))
        at_lo, at_hi = point_value(0), point_value(n_pts - 1)
        lowest, highest = self._extremes(kind, pieces, piece_value, point_value)
        jumps = []
        if not solutions and lowest < target < highest:
            for i in self._jump_candidates(kind, pieces, target):
                value = point_value(i)
                left = piece_value(i - 1, i) if i > 0 else value
                right = piece_value(i, i) if i < n_pts - 1 else value
                if min(left, value) < target < max(left, value) or min(value, right) < target < max(value, right):
                    jumps.append(Jump(thetas[i], left, value, right))
        return Solution(kind, target, lo, hi, solutions, at_lo, at_hi, lowest, highest, jumps)

    @staticmethod
    def _merge(run, thetas) -> Interval:
        (first_position, first), (last_position, last) = run[0], run[-1]
        if isinstance(first, Interval):
            return first
        start = thetas[first_position // 2] if first == "point" else thetas[(first_position - 1) // 2]
        end = thetas[last_position // 2] if last == "point" else thetas[(last_position + 1) // 2]
        return Interval(start, end, first == "point", last == "point")

    def _screen(self, kind: str, pieces: Pieces, target: Fraction) -> dict:
        """Indices of the points and pieces that may hold the target (floats with error bounds)."""
        n_pts, n_pieces = len(pieces.num), len(pieces.A)
        everything = {"points": range(n_pts), "pieces": range(n_pieces)}
        values = self._float_values(kind, pieces)
        if values is None:
            return everything
        (point_v, point_e), (left_v, right_v, piece_e) = values
        t = float(target)
        t_err = abs(t) * SCREEN
        with np.errstate(invalid="ignore"):
            point_ok = ~(point_v - point_e - t_err > t) & ~(point_v + point_e + t_err < t)
            low, high = np.minimum(left_v, right_v), np.maximum(left_v, right_v)
            piece_ok = ~(low - piece_e - t_err > t) & ~(high + piece_e + t_err < t)
        return {"points": np.nonzero(point_ok)[0].tolist(), "pieces": np.nonzero(piece_ok)[0].tolist()}

    def _float_values(self, kind: str, pieces: Pieces):
        """Float estimates of the figure at every point and at both ends of every piece, with error bounds."""
        try:
            tf = _fraction_keys(pieces.num, pieces.den)
        except OverflowError:
            return None
        at = self._float_parts(kind, pieces.A_at, pieces.B_at, pieces.Pw_at)
        on = self._float_parts(kind, pieces.A, pieces.B, pieces.Pw)
        if at is None or on is None:
            return None
        with np.errstate(all="ignore"):
            def value(parts, theta):
                c0, N0, N1, E = parts
                scale = (np.abs(N0) + np.abs(N1 * theta)) / np.abs(E)
                v = c0 + (N0 + N1 * theta) / E
                return v, (scale + np.abs(v)) * SCREEN
            point_v, point_e = value(at, tf)
            left_v, left_e = value(on, tf[:-1])
            right_v, right_e = value(on, tf[1:])
        return (point_v, point_e), (left_v, right_v, np.maximum(left_e, right_e))

    def _jump_candidates(self, kind: str, pieces: Pieces, target: Fraction) -> list[int]:
        """Points whose neighbourhood (left limit, value, right limit) may straddle the target."""
        values = self._float_values(kind, pieces)
        if values is None:
            return list(range(len(pieces.num)))
        (point_v, point_e), (left_v, right_v, piece_e) = values
        before = np.concatenate([point_v[:1], right_v])     # left limit at each point (itself at lo)
        after = np.concatenate([left_v, point_v[-1:]])      # right limit (itself at hi)
        error = np.maximum(point_e, np.maximum(np.concatenate([point_e[:1], piece_e]),
                                               np.concatenate([piece_e, point_e[-1:]])))
        low = np.minimum(point_v, np.minimum(before, after)) - error
        high = np.maximum(point_v, np.maximum(before, after)) + error
        t = float(target)
        with np.errstate(invalid="ignore"):
            maybe = ~(low - abs(t) * SCREEN > t) & ~(high + abs(t) * SCREEN < t)
        return np.nonzero(maybe)[0].tolist()

    def _extremes(self, kind: str, pieces: Pieces, piece_value, point_value) -> tuple[Fraction, Fraction]:
        """Exact inf and sup of the figure over [lo, hi]: over piece ends (limits) and points."""
        n_pts, n_pieces = len(pieces.num), len(pieces.A)

        def exact(k: int) -> Fraction:       # k over points, then left ends, then right ends
            if k < n_pts:
                return point_value(k)
            j = (k - n_pts) % max(n_pieces, 1)
            return piece_value(j, j if k < n_pts + n_pieces else j + 1)

        values = self._float_values(kind, pieces)
        if values is not None:
            (point_v, point_e), (left_v, right_v, piece_e) = values
            v = np.concatenate([point_v, left_v, right_v])
            e = np.concatenate([point_e, piece_e, piece_e])
        if values is None or not np.isfinite(v).all() or not np.isfinite(e).all():
            every = [exact(k) for k in range(n_pts + 2 * n_pieces)]
            return min(every), max(every)
        low_candidates = np.nonzero(v - e <= np.min(v + e))[0]
        high_candidates = np.nonzero(v + e >= np.max(v - e))[0]
        return min(exact(int(k)) for k in low_candidates), max(exact(int(k)) for k in high_candidates)

    # - printing -

    def printable_neighbours(self, theta_star, step="1") -> Neighbours:
        """The nearest multiples of `step` at or below and at or above theta*, with exact figures.

        step: exact positive number (default 1: whole payouts; "1/2" for halves).
        """
        theta_star, step = _as_fraction(theta_star, "theta_star"), _as_fraction(step, "step")
        if step <= 0:
            raise ValueError("step must be positive")
        ratio = theta_star / step
        below, above = math.floor(ratio) * step, math.ceil(ratio) * step
        return Neighbours(self.point(below), self.point(above))


# --- a design problem: one payout of one game, and the figure it moves --------------------------

@dataclass(frozen=True)
class Problem:
    """One payout to vary (a dotted rule-file key), what its figures mean, and the exact model."""

    key: str                     # e.g. "ante_pays.flush"
    wager: str                   # whose RTP and house edge these are, e.g. "ANTE + CALL (main game)"
    current: Fraction            # the rule file's value
    model: PayoutModel
    optimal: bool                # True: every class plays optimally at each theta; False: a fixed strategy


def linear_problem(key: str, wager: str, current, ev_at) -> Problem:
    """A wager whose EV per unit is linear in theta under a fixed strategy: one class, played.

    ev_at(theta) gives the exact EV per unit staked (RTP - 1) at theta = 0 and 1; the figure
    is then exact at every theta.
    """
    ev0, ev1 = Fraction(ev_at(0)), Fraction(ev_at(1))
    denominator = math.lcm(ev0.denominator, ev1.denominator)
    model = PayoutModel([1], [0], [int(ev0 * denominator)], [int((ev1 - ev0) * denominator)], denominator,
                        fixed="play")
    return Problem(key, wager, Fraction(current), model, optimal=False)
