"""Exact paytable design under optimal play: the EV as a convex piecewise-linear function of one payout.

Class i has weight w_i, fold value f_i and play value a_i + b_i theta (numerators over D); optimal
play takes max(f_i, a_i + b_i theta), so EV(theta) = sum_i w_i max(...) / (W D) is convex and
piecewise linear, and RTP(theta) = 1 + EV / (1 + s P(play)).  A free class switches at
(f_i - a_i) / b_i; at a breakpoint the `tie` rule decides the indifferent classes (moving only
P(play)).  Every figure is exact (`core.exact`'s overflow policy); floats only order breakpoints
(`_exact_order`) and spare exact work within a proven error bound (`_estimates`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.core.exact import (abs_bound, as_int64_or_object, decimal_str, exact_cumsum, exact_group_sums,
                                 exact_masked_sum, exact_sum, exact_terms, integer_array, to_fraction)

FREE, FOLD, PLAY = -1, 0, 1            # values of the `fixed` array: optimal, always fold, always play
TIES = ("fold", "play")
KINDS = ("rtp", "house_edge", "ev")
NAMES = {"rtp": "RTP", "house_edge": "house edge", "ev": "EV"}
FLOAT_INTEGERS = 2**53                 # integers up to this convert to floats exactly
SLACK = 2.0**-40                       # bounds a float estimate's relative error (a few roundings of 2**-53)


def _as_fraction(value, name: str) -> Fraction:
    try:
        return to_fraction(value)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{name}: {error}") from None


def _integers(values, name: str, python_ints: bool) -> np.ndarray:
    """A 1-D array of exact integers: int64 when every value fits (and not `python_ints`), else Python ints."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional")
    if array.dtype.kind not in "iu" and not (array.dtype == object and all(type(v) is int for v in array.tolist())):
        raise TypeError(f"{name} has {array.dtype} values: integer numerators only (no floats or booleans)")
    array = as_int64_or_object(array, abs_bound(array))
    return array.astype(object) if python_ints else array


def _join(*parts) -> np.ndarray:
    """Ints and exact integer arrays end to end (Python integers if any part needs them)."""
    return np.concatenate([integer_array([part]) if isinstance(part, int) else part for part in parts])


def _exact_order(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the permutation sorting p/q (q > 0) exactly, True where a sorted value differs from the one before).
    Sorted by correctly rounded float keys; runs of equal keys are checked, and sorted, exactly."""
    if p.dtype != object and max(abs_bound(p), abs_bound(q)) <= FLOAT_INTEGERS:
        keys = p.astype(np.float64) / q.astype(np.float64)        # exact operands, one rounding
    else:
        try:
            keys = np.array([x / y for x, y in zip(p.tolist(), q.tolist())], dtype=np.float64)  # Python rounds once
        except OverflowError:
            keys = np.zeros(len(p))
    order = np.argsort(keys)
    ps, qs, ks = p[order], q[order], keys[order]
    new = ks[1:] != ks[:-1]
    run_of = np.concatenate([[0], np.cumsum(new)])                  # the run of equal keys of each position
    same = np.flatnonzero(~new)
    steps = np.sign(exact_terms((ps[same + 1], qs[same]), (ps[same], qs[same + 1], -1)))
    new[same] = steps != 0
    for run in np.unique(run_of[same[steps < 0]]):
        start, stop = np.searchsorted(run_of, run), np.searchsorted(run_of, run, "right")
        values = [Fraction(int(p[i]), int(q[i])) for i in order[start:stop]]
        ranked = sorted(range(stop - start), key=values.__getitem__)
        order[start:stop] = order[start:stop][ranked]
        new[start:stop - 1] = [values[i] != values[j] for i, j in zip(ranked, ranked[1:])]
    return order, new


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


@dataclass(frozen=True)
class Breakpoint:
    """One theta where free classes switch, with how many (and how much weight) each way."""

    theta: Fraction
    classes_to_play: int    # b > 0: fold below theta, play above
    classes_to_fold: int    # b < 0: play below theta, fold above
    weight_to_play: int     # raw situations (sum of weights) of those classes
    weight_to_fold: int

    @property
    def weight(self) -> int:
        return self.weight_to_play + self.weight_to_fold


@dataclass(frozen=True, eq=False)          # holds arrays: compare items, not objects
class Breakpoints:
    """Every breakpoint in [lo, hi], sorted exactly; arrays, with Breakpoint items on demand."""

    num: np.ndarray         # theta = num / den (den > 0, not necessarily in lowest terms)
    den: np.ndarray
    to_play: np.ndarray     # classes switching fold -> play, per breakpoint
    to_fold: np.ndarray
    weight_to_play: np.ndarray
    weight_to_fold: np.ndarray
    members: np.ndarray     # indices of the switching classes, grouped by breakpoint
    starts: np.ndarray      # where each breakpoint's group begins in `members`

    def __len__(self) -> int:
        return len(self.num)

    def __getitem__(self, j: int) -> Breakpoint:
        j = range(len(self))[j]
        return Breakpoint(self.theta(j), int(self.to_play[j]), int(self.to_fold[j]),
                          int(self.weight_to_play[j]), int(self.weight_to_fold[j]))

    def theta(self, j: int) -> Fraction:
        return Fraction(int(self.num[j]), int(self.den[j]))

    def thetas(self) -> list[Fraction]:
        return [self.theta(j) for j in range(len(self))]


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


@dataclass(frozen=True, eq=False)          # holds arrays: compare items, not objects
class Pieces:
    """The exact piecewise-linear figures on [lo, hi]: points lo, the breakpoints inside, hi; on piece j
    (points j to j+1) the total numerator A[j] + B[j] theta and playing weight P[j]; at point i the
    same with the tie rule in A_at, B_at, P_at."""

    model: "PayoutModel"
    num: np.ndarray
    den: np.ndarray
    A: np.ndarray
    B: np.ndarray
    P: np.ndarray
    A_at: np.ndarray
    B_at: np.ndarray
    P_at: np.ndarray

    def __len__(self) -> int:
        return len(self.A)

    def theta(self, i: int) -> Fraction:
        return Fraction(int(self.num[i]), int(self.den[i]))

    def __getitem__(self, j: int) -> Piece:
        j = range(len(self))[j]
        return Piece(self.theta(j), self.theta(j + 1), *self.model.figures(self.A[j], self.B[j], self.P[j]))

    def point(self, i: int) -> Point:
        """The exact figures at point i (lo, a breakpoint, or hi), ties per the tie rule."""
        return self.model.point_of(self.theta(i), self.A_at[i], self.B_at[i], self.P_at[i])

    def at(self, theta) -> Point:
        """The exact figures at any theta in [lo, hi]."""
        theta = _as_fraction(theta, "theta")
        if not self.theta(0) <= theta <= self.theta(-1):
            raise ValueError(f"theta {theta} lies outside [{self.theta(0)}, {self.theta(-1)}]")
        return self.model.point(theta)


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
        what = NAMES[self.kind]
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

    weight (>= 0), fold, play_const, play_slope: (m,) integer numerators over `denominator`; fixed:
    None (optimal), "play"/"fold" or FREE/FOLD/PLAY per class; wager: s; tie: how an indifferent
    class decides; python_ints: Python integers throughout (the int64 path's reference).
    """

    def __init__(self, weight, fold, play_const, play_slope, denominator: int, fixed=None, *,
                 wager=0, tie: str = "fold", python_ints: bool = False):
        self.w, self.f, self.a, self.b = (_integers(values, name, python_ints) for values, name in (
            (weight, "weight"), (fold, "fold"), (play_const, "play_const"), (play_slope, "play_slope")))
        m = len(self.w)
        if not len(self.f) == len(self.a) == len(self.b) == m or m == 0:
            raise ValueError("weight, fold, play_const and play_slope must have one common, non-zero length")
        if isinstance(denominator, bool) or not isinstance(denominator, (int, np.integer)) or denominator <= 0:
            raise ValueError(f"denominator must be a positive integer, not {denominator!r}")
        self.D = int(denominator)
        if int(self.w.min()) < 0:
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
        self._gain = exact_terms((self.a,), (self.f, -1))            # a - f: what playing adds, at theta 0
        self._w_gain, self._wb = exact_terms((self.w, self._gain)), exact_terms((self.w, self.b))
        self._folded = exact_sum(exact_terms((self.w, self.f)))
        free = np.flatnonzero((self.fixed == FREE) & (self.b != 0))
        up = self.b[free] > 0                                        # theta_i = p / q, q = |b| > 0
        self._switches = (free, np.where(up, -self._gain[free], self._gain[free]), np.abs(self.b[free]), up)
        self._bounds = [abs_bound(x) for x in (self._w_gain, self._wb, self.w)]    # of what `_line` sums
        self._memo = {}

    @staticmethod
    def _fixed(fixed, m: int) -> np.ndarray:
        if isinstance(fixed, str) or fixed is None:
            if fixed not in (None, "play", "fold"):
                raise ValueError(f"fixed must be 'play', 'fold', or an array, not {fixed!r}")
            return np.full(m, {None: FREE, "play": PLAY, "fold": FOLD}[fixed], dtype=np.int8)
        array = np.asarray(fixed)
        if array.shape != (m,) or array.dtype.kind not in "iu" or not np.isin(array, (FREE, FOLD, PLAY)).all():
            raise ValueError(f"fixed must be an array of ({m},) values FREE (-1), FOLD (0) or PLAY (1)")
        return array.astype(np.int8)

    def __len__(self) -> int:
        return len(self.w)

    def _cached(self, key: tuple, make):
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    # - figures at one theta -

    def figures(self, A, B, P) -> tuple[Linear, Fraction, Linear]:
        """(EV, P(play), RTP) of the decisions whose total numerator is A + B theta and playing weight P."""
        ev = Linear(Fraction(int(A), self.W * self.D), Fraction(int(B), self.W * self.D))
        p_play = Fraction(int(P), self.W)
        scale = 1 / (1 + self.wager * p_play)
        return ev, p_play, Linear(1 + ev.alpha * scale, ev.beta * scale)

    def point_of(self, theta: Fraction, A, B, P) -> Point:
        ev, p_play, rtp = self.figures(A, B, P)
        return Point(theta, ev(theta), p_play, rtp(theta))

    def _line(self, theta: Fraction, side: str = "at") -> tuple[int, int, int]:
        """(A, B, P) at theta ("at": indifferent free classes decide by the tie rule) or just above it ("right")."""
        gain = exact_terms((self._gain, theta.denominator), (self.b, theta.numerator))   # (a + b theta - f) q
        tie_play = self.tie == "play"
        indifferent_plays = (self.b > 0) | ((self.b == 0) & tie_play) if side == "right" else tie_play
        plays = np.where(self.fixed == FREE, (gain > 0) | ((gain == 0) & indifferent_plays), self.fixed == PLAY)
        A, B, P = (exact_masked_sum(x, plays, bound)
                   for x, bound in zip((self._w_gain, self._wb, self.w), self._bounds))
        return self._folded + A, B, P

    def point(self, theta) -> Point:
        """Exact EV, P(play) and RTP at theta (vectorised over the classes; any theta)."""
        theta = _as_fraction(theta, "theta")
        return self.point_of(theta, *self._line(theta))

    def reference_point(self, theta) -> Point:
        """Plain reference for every figure at theta: a Fraction loop over the classes (slow)."""
        theta = _as_fraction(theta, "theta")
        total, playing = Fraction(0), 0
        for w, f, a, b, fixed in zip(self.w.tolist(), self.f.tolist(), self.a.tolist(), self.b.tolist(),
                                     self.fixed.tolist()):
            play_value = a + b * theta
            plays = fixed == PLAY if fixed != FREE else play_value > f or (play_value == f and self.tie == "play")
            total += w * (play_value if plays else f)
            playing += w if plays else 0
        ev, p_play = total / (self.W * self.D), Fraction(playing, self.W)
        return Point(theta, ev, p_play, 1 + ev / (1 + self.wager * p_play))

    # - breakpoints and pieces -

    def breakpoints(self, lo, hi) -> Breakpoints:
        """Every theta in [lo, hi] (exact numbers) where some free class switches, exactly sorted and grouped."""
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        if lo > hi:
            raise ValueError(f"lo {lo} > hi {hi}")
        return self._cached(("breakpoints", lo, hi), lambda: self._breakpoints(lo, hi))

    def _breakpoints(self, lo: Fraction, hi: Fraction) -> Breakpoints:
        index, p, q, up = self._switches
        inside = (exact_terms((p, lo.denominator), (q, -lo.numerator)) >= 0) \
            & (exact_terms((q, hi.numerator), (p, -hi.denominator)) >= 0)
        index, p, q, up = index[inside], p[inside], q[inside], up[inside]
        order, new = _exact_order(p, q)
        index, p, q, up = index[order], p[order], q[order], up[order]
        first = np.concatenate([[True], new])[:len(p)]                 # where each breakpoint's classes begin
        starts, group, w = np.flatnonzero(first), np.cumsum(first) - 1, self.w[index]
        per_class = (up.astype(np.int64), (~up).astype(np.int64), np.where(up, w, 0), np.where(up, 0, w))
        return Breakpoints(p[starts], q[starts], *(exact_group_sums(group, x, len(starts)) for x in per_class),
                           index, starts)

    def pieces(self, lo, hi) -> Pieces:
        """The exact linear EV, P(play) and RTP on every piece of [lo, hi] (see `Pieces`)."""
        points = self.breakpoints(lo, hi)
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        return self._cached(("pieces", lo, hi), lambda: self._pieces(lo, hi, points))

    def _pieces(self, lo: Fraction, hi: Fraction, points: Breakpoints) -> Pieces:
        n = len(points)
        first = 1 if n and points.theta(0) == lo else 0                   # breakpoints strictly inside:
        stop = n - 1 if n > first and points.theta(-1) == hi else n       # first .. stop - 1
        (A_lo, B_lo, P_lo), (A_hi, B_hi, P_hi) = self._line(lo), self._line(hi)
        bounds = np.append(points.starts, len(points.members))          # each breakpoint's classes in members
        index = points.members[bounds[first]:bounds[stop]]
        ends = np.concatenate([[0], bounds[first + 1:stop + 1] - bounds[first]]).astype(np.intp)
        sign = np.where(self.b[index] > 0, 1, -1)                # a class starting to play adds, one stopping takes
        A0, B0, P0 = self._line(lo, "right" if lo < hi else "at")        # [lo, lo]: one piece, of the point
        A, B, P = (exact_cumsum(_join(start, exact_terms((values[index], sign))))[ends]    # the running sums
                   for start, values in ((A0, self._w_gain), (B0, self._wb), (P0, self.w)))
        # at an inner point the switching classes are indifferent: those of the right piece minus those
        # turning to play (tie "fold"), or plus those turning to fold (tie "play")
        tied = (points.weight_to_play, -1) if self.tie == "fold" else (points.weight_to_fold, 1)
        P_inner = exact_terms((P[1:],), (tied[0][first:stop], tied[1]))
        return Pieces(self, _join(lo.numerator, points.num[first:stop], hi.numerator),
                      _join(lo.denominator, points.den[first:stop], hi.denominator), A, B, P,
                      _join(A_lo, A[1:], A_hi), _join(B_lo, B[1:], B_hi), _join(P_lo, P_inner, P_hi))

    # - solving -

    def _parts(self, kind: str, A, B, P, p, q) -> tuple[np.ndarray, np.ndarray]:
        """(N, E), E > 0: the figure `kind` of the lines (A, B, P) at theta = p/q is c + N/E (c: 1 for the RTP)."""
        sign = -1 if kind == "house_edge" else 1
        if kind != "rtp":
            return exact_terms((A, q, sign), (B, p, sign)), exact_terms((q, self.W * self.D))
        sp, sq = self.wager.numerator, self.wager.denominator        # RTP - 1 = sq (A + B theta) / (D (W sq + sp P))
        return exact_terms((A, q, sq), (B, p, sq)), exact_terms((P, q, self.D * sp), (q, self.D * self.W * sq))

    def _estimates(self, kind: str, target: Fraction, lines, thetas, n: int):
        """Float estimates of the figure minus the target at `solve`'s candidates, with a bound of each
        one's error (0 and inf past the floats); a sign is taken only where it lies beyond its bound."""
        unknown = np.zeros(3 * n + 1), np.full(3 * n + 1, np.inf)
        try:
            (a, b, playing), (p, q) = ([x.astype(float) for x in arrays] for arrays in (lines, thetas))
            t, W, D, s = float(target), float(self.W), float(self.D), float(self.wager)
        except OverflowError:
            return unknown
        sign, constant = -1 if kind == "house_edge" else 1, 1 if kind == "rtp" else 0

        def on(rows: slice, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            E = W * D if kind != "rtp" else D * (W + s * playing[rows])
            v = sign * (a[rows] + b[rows] * theta) / E + constant - t
            return v, SLACK * ((np.abs(a[rows]) + np.abs(b[rows] * theta)) / E + np.abs(v) + abs(t) + 1)
        with np.errstate(all="ignore"):
            theta = p / q
            v, error = (np.concatenate(x) for x in zip(on(slice(0, n + 1), theta), on(slice(n + 1, None), theta[:-1]),
                                                      on(slice(n + 1, None), theta[1:])))
        finite = np.isfinite(W * D * (1 + s)) and np.isfinite(v).all() and np.isfinite(error).all()  # E <= W D (1 + s)
        return (v, error) if finite else unknown

    def _root(self, kind: str, target: Fraction, A, B, P) -> Fraction:
        """The theta where the line (A, B, P) (B != 0) meets the target."""
        ev = target if kind == "ev" else -target if kind == "house_edge" else \
            (target - 1) * (1 + self.wager * Fraction(int(P), self.W))
        return (ev * self.W * self.D - int(A)) / int(B)

    def solve(self, target, kind: str, lo, hi) -> Solution:
        """Every theta in [lo, hi] where the figure `kind` ("rtp", "house_edge", "ev") equals the exact target:
        points and flat stretches; when none, the figure's range and where it jumps over the target."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        target = _as_fraction(target, "target")
        pieces = self.pieces(lo, hi)
        n = len(pieces)
        # the candidates: 0..n each point on its own line, n+1+j piece j's line at its start, 2n+1+j at its end
        lines = [_join(at, on) for at, on in ((pieces.A_at, pieces.A), (pieces.B_at, pieces.B),
                                              (pieces.P_at, pieces.P))]      # point i's line is i, piece j's n+1+j
        constant = 1 if kind == "rtp" else 0
        offset = target - constant

        def exact(index) -> tuple[np.ndarray, np.ndarray]:
            index = np.asarray(index, dtype=np.int64)
            piece = (index - n - 1) % n
            line = np.where(index <= n, index, n + 1 + piece)
            point = np.where(index <= n, index, piece + (index > 2 * n))
            return self._parts(kind, *(x[line] for x in lines), pieces.num[point], pieces.den[point])

        def value(k: int) -> Fraction:
            N, E = exact([k])
            return constant + Fraction(int(N[0]), int(E[0]))
        v, error = self._estimates(kind, target, lines, (pieces.num, pieces.den), n)
        side = np.sign(v) * (np.abs(v) > error)                        # sign(figure - target), exactly
        unsure = np.flatnonzero(side == 0)
        N, E = exact(unsure)
        side[unsure] = np.sign(exact_terms((N, offset.denominator), (E, -offset.numerator)))
        at, left, right = side[:n + 1], side[n + 1:2 * n + 1], side[2 * n + 1:]
        atoms = [(2 * i, "point") for i in np.flatnonzero(at == 0)]
        atoms += [(2 * j + 1, "piece") for j in np.flatnonzero((left == 0) & (right == 0))]
        atoms += [(2 * j + 1, self._root(kind, target, pieces.A[j], pieces.B[j], pieces.P[j]))
                  for j in np.flatnonzero(left * right < 0)]
        solutions = _intervals(sorted(atoms, key=lambda atom: atom[0]), pieces)

        def extreme(largest: bool) -> Fraction:
            field = np.flatnonzero(v + error >= np.max(v - error) if largest else v - error <= np.min(v + error))
            N, E = exact(field)
            return value(int(field[_exact_order(N, E)[0][-1 if largest else 0]]))
        lowest, highest = extreme(False), extreme(True)
        jumps = []
        if not solutions and lowest < target < highest:
            before = np.concatenate([at[:1], right])          # the limit from the left at each point
            after = np.concatenate([left, at[-1:]])           # and from the right
            straddles = (before * at < 0) | (at * after < 0)           # signs: -1, 0 or 1
            jumps = [Jump(pieces.theta(i), value(2 * n + i) if i else value(i), value(i),
                          value(n + 1 + i) if i < n else value(i)) for i in np.flatnonzero(straddles)]
        return Solution(kind, target, pieces.theta(0), pieces.theta(-1), solutions, value(0), value(n), lowest,
                        highest, jumps)

    def reach(self, target, kind: str, lo, hi, limit=None) -> Fraction | None:
        """The least hi * 2**k (k >= 0, from 1 if hi <= 0; at most `limit`) for which [lo, hi * 2**k] holds a
        theta meeting the target; None when none up to `limit` does (the figure is linear beyond the last
        breakpoint)."""
        lo, hi = _as_fraction(lo, "lo"), _as_fraction(hi, "hi")
        if self.solve(target, kind, lo, hi).reachable:
            return hi
        _, p, q, _ = self._switches
        last = hi
        if len(p):
            k = _exact_order(p, q)[0][-1]
            last = max(hi, Fraction(int(p[k]), int(q[k])))
        last = last if limit is None else min(last, Fraction(limit))
        found = self.solve(target, kind, lo, last).solutions
        first, included = (found[0].start, found[0].start_included) if found else (None, True)
        if not found and (limit is None or last < limit):
            A, B, P = self._line(last, "right")
            if B:
                first = self._root(kind, target, A, B, P)
                first = first if first > last else None
            elif getattr(self.point_of(last, A, B, P), kind) == target:
                first, included = last, False
        if first is None or limit is not None and first > limit:
            return None
        while hi < first or hi == first and not included:
            hi = 2 * hi if hi > 0 else Fraction(1)
        return hi if limit is None else min(hi, Fraction(limit))

    # - printing -

    def printable_neighbours(self, theta_star, step="1") -> Neighbours:
        """The nearest multiples of `step` (exact, > 0; "1/2" for halves) at or below and above theta*."""
        theta_star, step = _as_fraction(theta_star, "theta_star"), _as_fraction(step, "step")
        if step <= 0:
            raise ValueError("step must be positive")
        ratio = theta_star / step
        return Neighbours(self.point(math.floor(ratio) * step), self.point(math.ceil(ratio) * step))


def _intervals(atoms: list, pieces: Pieces) -> list[Interval]:
    """Solution atoms ((2i, "point"), (2j + 1, "piece"), (2j + 1, theta)) merged into intervals."""
    solutions, run = [], []
    for position, atom in atoms + [(None, None)]:
        if run and (position is None or not isinstance(atom, str) or position != run[-1][0] + 1):
            (start, first), (end, last) = run[0], run[-1]
            solutions.append(Interval(pieces.theta(start // 2), pieces.theta((end + 1) // 2),
                                      first == "point", last == "point"))
            run = []
        if isinstance(atom, str):
            run.append((position, atom))
        elif atom is not None:
            solutions.append(Interval(atom, atom))
    return solutions
