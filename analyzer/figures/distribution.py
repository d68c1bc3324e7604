"""The exact statistics of one round: a joint distribution of its results and a wager's PAR figures.

`RoundOutcomes` holds rows of (values of named components, count) and gives exact moments;
`WagerStatistics` turns a net and a wagered component into a PAR sheet's figures, every one an
exact Fraction (a standard deviation: the exact variance under the root, rendered by integer roots).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from analyzer.core.roots import sqrt_decimal_str, surd_decimal_strs
from analyzer.core.exact import DECIMAL_PLACES, decimal_str, figure, fraction_str, to_fraction

#: How every figure here is to be read; outputs quote it beside the figures.
CONVENTION = ("per round, in units of the initial bet (ANTE; Baccarat: the stake); "
              "a fold counts -1 and a push 0; normal approximation")

#: Two-sided normal quantiles as exact rationals (46 significant digits; checked in the tests).
Z95 = Fraction(Decimal("1.959963984540054235524594430520551527955550078"))
Z99 = Fraction(Decimal("2.575829303548900760978576748603814117306017634"))
CONFIDENCE_LEVELS = {"95%": Z95, "99%": Z99}

#: How the settling figures are computed; the summary quotes it.
SETTLING_RULE = ("realised return per unit wagered over N rounds = sum(returned) / sum(wagered); "
                 "interval RTP -+ z * sigma_R / sqrt(N) with sigma_R^2 = Var(net - h*W) / E[W]^2, "
                 "h = E[net] / E[W] (delta method); rounds to settle = least N with z * sigma_R / sqrt(N) "
                 "<= tolerance, at 95%")
#: Round counts of the settling table.
SETTLING_ROUNDS = tuple(10**k for k in range(3, 9))
#: Tolerances on the realised house edge, in percentage points of the amount wagered.
SETTLING_TOLERANCES = {"0.1": Fraction(1, 1000), "0.01": Fraction(1, 10000)}


class RoundOutcomes:
    """The exact joint distribution of one round's named components, as counted rows (immutable).

    `rows`: {tuple of exact values (never float): count} or (values, count) pairs; equal rows merge, zero counts
    drop, rows sort ascending. Each component is kept as integer numerators over its least common denominator."""

    __slots__ = ("_names", "_denominators", "_counts", "_total", "_rows")

    def __init__(self, names: Sequence[str], rows: Mapping[tuple, int] | Iterable[tuple[tuple, int]]):
        names = _checked_names(names)
        counted = []
        for values, count in (rows.items() if isinstance(rows, Mapping) else rows):
            values = tuple(values)
            if len(values) != len(names):
                raise ValueError(f"row {values} has {len(values)} values for the components {names}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"row {values}: a count must be a non-negative int, not {count!r}")
            if count:
                counted.append((tuple(to_fraction(value) for value in values), count))
        denominators = tuple(math.lcm(*(values[i].denominator for values, _ in counted)) for i in range(len(names)))
        self._set(names, denominators, ((tuple(v.numerator * (d // v.denominator) for v, d in zip(values, denominators)),
                                         count) for values, count in counted))

    @classmethod
    def _of_integers(cls, names: tuple, denominators: tuple, rows: Iterable[tuple[tuple, int]]) -> "RoundOutcomes":
        """Outcomes from rows of integer numerators over `denominators` (each the least common one of its values)."""
        outcomes = cls.__new__(cls)
        outcomes._set(_checked_names(names), denominators, rows)
        return outcomes

    def _set(self, names: tuple, denominators: tuple, rows: Iterable[tuple[tuple, int]]) -> None:
        merged: dict[tuple[int, ...], int] = {}
        for key, count in rows:                   # counts > 0: __init__ drops zeros, derived rows are counted
            merged[key] = merged.get(key, 0) + count
        if not merged:
            raise ValueError("no round is counted")
        self._names, self._denominators = names, denominators
        # over positive denominators the integer tuples sort exactly as the values do
        self._counts = dict(sorted(merged.items()))
        self._total = sum(merged.values())
        self._rows = None

    @classmethod
    def single(cls, name: str, counts: Mapping) -> "RoundOutcomes":
        """Outcomes of one component from {value: count}."""
        return cls((name,), {(value,): count for value, count in counts.items()})

    @property
    def names(self) -> tuple[str, ...]:
        """The components' names, in row order."""
        return self._names

    @property
    def rows(self) -> Mapping[tuple[Fraction, ...], int]:
        """Read-only {values: count}, values as Fractions, in ascending order of values (made once, when asked)."""
        if self._rows is None:
            self._rows = MappingProxyType({tuple(Fraction(n, d) for n, d in zip(key, self._denominators)): count
                                           for key, count in self._counts.items()})
        return self._rows

    @property
    def total(self) -> int:
        """The number of counted rounds."""
        return self._total

    def __eq__(self, other):
        if not isinstance(other, RoundOutcomes):
            return NotImplemented
        return (self._names == other._names and self._denominators == other._denominators
                and self._counts == other._counts)

    def __hash__(self):
        return hash((self._names, self._denominators, tuple(self._counts.items())))

    def __repr__(self):
        return f"RoundOutcomes({self._names!r}, {dict(self.rows)!r})"

    def index(self, name: str) -> int:
        """The position of component `name`; KeyError naming the components if absent."""
        try:
            return self._names.index(name)
        except ValueError:
            raise KeyError(f"no component {name!r}; the components are {self._names}") from None

    def mean(self, name: str) -> Fraction:
        """E[name] over the counted rounds."""
        return self.moments(name, name)[0]

    def covariance(self, a: str, b: str) -> Fraction:
        """Cov(a, b) = E[ab] - E[a]E[b], counted from the joint rows (never assumed zero)."""
        return self.moments(a, b)[4]

    def variance(self, name: str) -> Fraction:
        """Var(name) = E[name^2] - E[name]^2 (population variance)."""
        return self.moments(name, name)[2]

    def moments(self, a: str, b: str) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
        """(E[a], E[b], Var(a), Var(b), Cov(a, b)) from one pass of integer sums."""
        i, j = self.index(a), self.index(b)
        sx = sy = sxx = syy = sxy = 0
        for key, count in self._counts.items():
            x, y = key[i], key[j]
            cx, cy = count * x, count * y
            sx, sy, sxx, syy, sxy = sx + cx, sy + cy, sxx + cx * x, syy + cy * y, sxy + cx * y
        n, dx, dy = self._total, self._denominators[i], self._denominators[j]
        return (Fraction(sx, n * dx), Fraction(sy, n * dy), Fraction(n * sxx - sx * sx, (n * dx) ** 2),
                Fraction(n * syy - sy * sy, (n * dy) ** 2), Fraction(n * sxy - sx * sy, n * n * dx * dy))

    def marginal(self, names: Sequence[str]) -> "RoundOutcomes":
        """The joint distribution of the components `names` alone (in that order), rows merged."""
        if isinstance(names, str):
            raise TypeError("marginal takes a sequence of component names, not one string")
        positions = [self.index(name) for name in names]
        # every row is kept, so each component keeps its values and their least common denominator
        return RoundOutcomes._of_integers(tuple(names), tuple(self._denominators[i] for i in positions),
                                          ((tuple(key[i] for i in positions), count)
                                           for key, count in self._counts.items()))

    def distribution(self, name: str) -> list[tuple[Fraction, int]]:
        """[(value, count)] of component `name`, ascending by value."""
        return [(values[0], count) for values, count in self.marginal([name]).rows.items()]

    def combine(self, name: str, coefficients: Mapping[str, object], constant=0,
                keep: Sequence[str] | None = None) -> "RoundOutcomes":
        """The outcomes with a new last component `name` = constant + sum(coefficient * component), after
        the components in `keep` (default: all); rows that become equal merge."""
        if isinstance(keep, str):
            raise TypeError("keep is a sequence of component names, not one string")
        keep = self._names if keep is None else tuple(keep)
        if name in keep:
            raise ValueError(f"component {name!r} already exists")
        terms = [(self.index(component), to_fraction(coefficient)) for component, coefficient in coefficients.items()]
        constant = to_fraction(constant)
        positions = [self.index(component) for component in keep]
        # over one denominator D: new = (c0 + sum(a_i * n_i)) / D, with n_i component i's numerators
        denominator = math.lcm(constant.denominator,
                               *(coefficient.denominator * self._denominators[i] for i, coefficient in terms))
        offset = constant.numerator * (denominator // constant.denominator)
        factors = [(i, coefficient.numerator * (denominator // (coefficient.denominator * self._denominators[i])))
                   for i, coefficient in terms]
        combined = [offset + sum(a * key[i] for i, a in factors) for key in self._counts]
        common = math.gcd(denominator, *combined)           # down to the values' least common denominator
        return RoundOutcomes._of_integers(
            keep + (name,), tuple(self._denominators[i] for i in positions) + (denominator // common,),
            ((tuple(key[i] for i in positions) + (value // common,), count)
             for (key, count), value in zip(self._counts.items(), combined)))

    def extend(self, name: str, arguments: Sequence[str], value_of) -> "RoundOutcomes":
        """The outcomes with a new last component `name` = value_of(*the row's values of `arguments`), called
        once per distinct combination of its (Fraction) arguments."""
        if name in self._names:
            raise ValueError(f"component {name!r} already exists")
        positions = [self.index(argument) for argument in arguments]
        values = {}
        for key in self._counts:
            point = tuple(key[i] for i in positions)
            if point not in values:
                values[point] = to_fraction(value_of(*(Fraction(key[i], self._denominators[i]) for i in positions)))
        denominator = math.lcm(*(v.denominator for v in values.values()))
        numerators = {point: v.numerator * (denominator // v.denominator) for point, v in values.items()}
        return RoundOutcomes._of_integers(
            self._names + (name,), self._denominators + (denominator,),
            ((key + (numerators[tuple(key[i] for i in positions)],), count) for key, count in self._counts.items()))


def _checked_names(names: Sequence[str]) -> tuple[str, ...]:
    """The component names as a tuple; ValueError unless they are distinct non-empty strings (at least one)."""
    names = tuple(names)
    if not names:
        raise ValueError("a round needs at least one component")
    for name in names:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a component name must be a non-empty string, not {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"component names repeat: {names}")
    return names


@dataclass(frozen=True)
class NetValue:
    """One distinct net result: its value, the rounds counted with it, and its probability."""

    value: Fraction
    count: int
    probability: Fraction


@dataclass(frozen=True)
class WagerStatistics:
    """The exact PAR statistics of one wager (or combined play), per round, by CONVENTION; build it with
    `from_outcomes`.  `ratio_variance` is sigma_R^2 = Var(net - h W) / E[W]^2, h = E[net] / E[W]: the
    per-round variance of the realised return per unit wagered (delta method; Var(net) when W = 1)."""

    net: str                          # the component names used (`wagered` None: every round stakes 1)
    wagered: str | None
    rounds: int
    distribution: tuple[NetValue, ...]    # every distinct net value, ascending
    mean: Fraction                    # E[net], the EV per initial bet
    variance: Fraction
    mean_wagered: Fraction            # E[W], Var(W), Cov(net, W)
    variance_wagered: Fraction
    covariance: Fraction
    ratio_variance: Fraction
    _intervals: dict = field(default_factory=dict, compare=False, repr=False)   # interval() renderings made

    @classmethod
    def from_outcomes(cls, outcomes: RoundOutcomes, net: str = "net",
                      wagered: str | None = "wagered") -> "WagerStatistics":
        """The statistics of component `net` against the total wagered `wagered` (None: every round stakes 1,
        as in Baccarat).  ValueError unless every counted round wagers a positive amount."""
        if wagered is None:
            wagered_name = "stake_" if net == "stake" else "stake"
            outcomes = outcomes.marginal([net]).combine(wagered_name, {}, constant=1)
        else:
            wagered_name = wagered
            stakes = outcomes.distribution(wagered)
            if stakes[0][0] <= 0:
                raise ValueError(f"component {wagered!r} must be positive in every round, not {stakes[0][0]}")
        total = outcomes.total
        distribution = tuple(NetValue(value, count, Fraction(count, total))
                             for value, count in outcomes.distribution(net))
        mean, mean_wagered, variance, variance_wagered, covariance = outcomes.moments(net, wagered_name)
        h = mean / mean_wagered
        residual_variance = variance - 2 * h * covariance + h * h * variance_wagered
        return cls(net=net, wagered=wagered, rounds=total, distribution=distribution, mean=mean,
                   variance=variance, mean_wagered=mean_wagered, variance_wagered=variance_wagered,
                   covariance=covariance, ratio_variance=residual_variance / (mean_wagered * mean_wagered))

    # --- probabilities of the net result -------------------------------------------------

    def _probability(self, sign: int) -> Fraction:
        """P(the net's sign is `sign`): 1 a win, 0 a push, -1 a loss."""
        return Fraction(sum(v.count for v in self.distribution if (v.value > 0) - (v.value < 0) == sign), self.rounds)

    hit_frequency = property(lambda self: self._probability(1), doc="P(net > 0).")
    push_probability = property(lambda self: self._probability(0), doc="P(net = 0).")
    loss_probability = property(lambda self: self._probability(-1), doc="P(net < 0).")

    @property
    def largest_win(self) -> NetValue | None:
        """The largest net result and its probability, or None if no round wins."""
        top = self.distribution[-1]
        return top if top.value > 0 else None

    # --- returns per unit wagered -----------------------------------------------------------

    @property
    def rtp(self) -> Fraction:
        """Return to player: total returned / total wagered = 1 + E[net] / E[W]."""
        return 1 + self.mean / self.mean_wagered

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit wagered (element of risk): 1 - RTP = -E[net] / E[W]."""
        return -self.mean / self.mean_wagered

    @property
    def house_edge_per_initial_bet(self) -> Fraction:
        """House edge per initial bet: -E[net]."""
        return -self.mean

    def standard_deviation(self, places: int = DECIMAL_PLACES) -> str:
        """sd(net) = sqrt(variance), rendered exactly to `places` decimals (half up)."""
        return sqrt_decimal_str(self.variance, places)

    def sd_per_unit_wagered(self, places: int = DECIMAL_PLACES) -> str:
        """sd(net) / E[W] = sqrt(variance / E[W]^2), rendered exactly to `places` decimals."""
        return sqrt_decimal_str(self.variance / (self.mean_wagered * self.mean_wagered), places)

    # --- settling of the realised return ----------------------------------------------------

    def half_width_squared(self, rounds: int, z: Fraction = Z95) -> Fraction:
        """The square of z * sigma_R / sqrt(rounds): z^2 sigma_R^2 / rounds, exactly."""
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"a number of rounds must be a positive int, not {rounds!r}")
        return to_fraction(z) ** 2 * self.ratio_variance / rounds

    def interval(self, rounds: int, z: Fraction = Z95, places: int = DECIMAL_PLACES) -> tuple[str, str, str]:
        """(half-width, low, high) of RTP -+ z sigma_R / sqrt(rounds), rendered exactly (once per arguments)."""
        key = (rounds, to_fraction(z), places)
        if key not in self._intervals:
            square = self.half_width_squared(rounds, z)
            self._intervals[key] = (sqrt_decimal_str(square, places), *surd_decimal_strs(self.rtp, square, places))
        return self._intervals[key]

    def rounds_to_settle(self, epsilon, z: Fraction = Z95) -> int:
        """The least N >= 1 with z sigma_R / sqrt(N) <= epsilon (a tolerance per unit wagered, e.g. 1/1000)."""
        epsilon, z = to_fraction(epsilon), to_fraction(z)
        if epsilon <= 0 or z <= 0:
            raise ValueError("epsilon and z must be positive")
        return max(1, math.ceil(z * z * self.ratio_variance / (epsilon * epsilon)))

    # --- outputs -------------------------------------------------------------------------------

    def as_summary(self, places: int = DECIMAL_PLACES, detail: bool = True, context: bool = True) -> dict:
        """JSON-ready figures: {"exact": "p/q", "decimal": ...}, roots as {"sqrt_of": "p/q", "decimal": ...},
        counts as strings.  detail=False leaves out the net distribution and settling intervals;
        context=False the texts every entry shares (`summary_context`)."""
        largest = self.largest_win
        summary = {
            "net_component": self.net, "wagered_component": self.wagered, "rounds_counted": str(self.rounds),
            "ev_per_initial_bet": figure(self.mean, places),
            "house_edge_per_initial_bet": figure(self.house_edge_per_initial_bet, places),
            "variance": figure(self.variance, places), "standard_deviation": _root(self.variance, places),
            "hit_frequency": figure(self.hit_frequency, places),
            "push_probability": figure(self.push_probability, places),
            "loss_probability": figure(self.loss_probability, places),
            "largest_win": None if largest is None else {"net": figure(largest.value, places),
                                                         "probability": figure(largest.probability, places)},
            "mean_wagered": figure(self.mean_wagered, places), "rtp": figure(self.rtp, places),
            "house_edge_per_unit_wagered": figure(self.house_edge, places),
            "sd_per_unit_wagered": _root(self.variance / self.mean_wagered ** 2, places),
            "ratio_variance": figure(self.ratio_variance, places),
            "rounds_to_settle": [{"tolerance_percentage_points": label, "confidence": "95%",
                                  "rounds": str(self.rounds_to_settle(epsilon, Z95))}
                                 for label, epsilon in SETTLING_TOLERANCES.items()]}
        if not detail:
            return summary
        summary["net_distribution"] = [{"net": figure(v.value, places), "count": str(v.count),
                                        "probability": figure(v.probability, places)} for v in self.distribution]
        summary["settling_intervals"] = [
            dict(zip(("rounds", "confidence", "half_width", "low", "high"),
                     (str(rounds), level, *self.interval(rounds, z, places))))
            for rounds in SETTLING_ROUNDS for level, z in CONFIDENCE_LEVELS.items()]
        return {**summary_context(), **summary} if context else summary


def _root(value: Fraction, places: int) -> dict:
    return {"sqrt_of": fraction_str(value), "decimal": sqrt_decimal_str(value, places)}


def summary_context() -> dict:
    """What every `as_summary` entry shares: the convention, the settling rule and the normal quantiles."""
    return {"convention": CONVENTION, "settling_rule": SETTLING_RULE,
            "z": {level: decimal_str(z, 45) for level, z in CONFIDENCE_LEVELS.items()}}


def summary_distribution(entry: dict) -> list[tuple[Fraction, Fraction]]:
    """[(net value, probability)] read back from an `as_summary` entry (its exact "p/q" texts)."""
    return [(to_fraction(row["net"]["exact"]), to_fraction(row["probability"]["exact"]))
            for row in entry["net_distribution"]]


def compare_summaries(pairs) -> tuple[bool, str]:
    """Whether re-derived `as_summary` entries equal the stored ones (`pairs`: label, derived, stored or
    None; exact, field by field), and a line saying what was compared."""
    differing, values = [], 0
    for label, derived, stored in pairs:
        if stored != derived:
            fields = sorted(key for key in set(derived) | set(stored or {})
                            if (stored or {}).get(key) != derived.get(key))
            differing.append(f"{label} ({', '.join(fields[:4])})")
        values += len(derived.get("net_distribution", ()))
    if differing:
        return False, f"{len(differing)} of {len(pairs)} differ from summary.json: {'; '.join(differing[:3])}"
    return True, (f"{len(pairs)} wagers: net distributions ({values} values), variance, standard deviation, "
                  "hit frequency and every other figure equal summary.json")
