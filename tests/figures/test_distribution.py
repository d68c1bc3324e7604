"""Exact round statistics (analyzer.figures.distribution) and exact square roots (analyzer.core.roots).

Every expected value is computed by hand or by a plain reference (expanded samples, Decimal
at 200 digits, a brute-force search), never by the code under test.
"""
import json
import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from analyzer.figures.distribution import (CONFIDENCE_LEVELS, CONVENTION, SETTLING_ROUNDS, Z95, Z99,
                                        RoundOutcomes, WagerStatistics, summary_context)
from analyzer.core.roots import sqrt_decimal_str, surd_decimal_str, surd_decimal_strs
from analyzer.core.exact import decimal_str, parse_fraction_str

# A die decides a toy game, ante 1: 1-2 fold (net -1, wagered 1); else raise 2 (wagered 3):
# 3 pushes (net 0), 4-5 win 1:1 on both bets (net +3), 6 wins 2:1 ante + 1:1 raise (net +4).
DIE = RoundOutcomes(("net", "wagered"), {(-1, 1): 2, (0, 3): 1, (3, 3): 2, (4, 3): 1})


def reference_sqrt(value: F, places: int) -> str:
    """sqrt(value) to `places` decimals, half up, by Decimal at 200 significant digits."""
    with localcontext() as context:
        context.prec = 200
        root = (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
        return format(root.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")


def reference_surd(a: F, b: F, x: F, places: int) -> str:
    """a + b*sqrt(x) to `places` decimals, half away from zero, by Decimal at 200 digits."""
    with localcontext() as context:
        context.prec = 200
        value = (Decimal(a.numerator) / Decimal(a.denominator)
                 + Decimal(b.numerator) / Decimal(b.denominator)
                 * (Decimal(x.numerator) / Decimal(x.denominator)).sqrt())
        text = format(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")
        return text[1:] if text.startswith("-") and not text.strip("-0.") else text


# --- the hand-computed example -------------------------------------------------------------------

def test_die_moments_by_hand():
    assert DIE.total == 6
    assert DIE.mean("net") == F(4, 3)                    # (-2 + 0 + 6 + 4) / 6
    assert DIE.mean("wagered") == F(7, 3)                # (2 + 12) / 6
    assert DIE.variance("net") == F(38, 9)               # 36/6 - 16/9
    assert DIE.variance("wagered") == F(8, 9)            # 38/6 - 49/9
    assert DIE.covariance("net", "wagered") == F(14, 9)  # 28/6 - 28/9
    assert DIE.covariance("wagered", "net") == F(14, 9)


def test_die_wager_statistics_by_hand():
    stats = WagerStatistics.from_outcomes(DIE, "net", "wagered")
    assert [(v.value, v.count, v.probability) for v in stats.distribution] == [
        (-1, 2, F(1, 3)), (0, 1, F(1, 6)), (3, 2, F(1, 3)), (4, 1, F(1, 6))]
    assert stats.rounds == 6
    assert stats.mean == F(4, 3) and stats.variance == F(38, 9)
    assert (stats.hit_frequency, stats.push_probability, stats.loss_probability) == (F(1, 2), F(1, 6), F(1, 3))
    assert (stats.largest_win.value, stats.largest_win.probability) == (4, F(1, 6))
    assert stats.mean_wagered == F(7, 3)
    assert stats.rtp == F(11, 7)                        # 1 + (4/3) / (7/3)
    assert stats.house_edge == F(-4, 7) and stats.house_edge_per_initial_bet == F(-4, 3)
    # residuals net - (4/7) W: -11/7 (x2), -12/7, 9/7 (x2), 16/7; mean 0, mean square 134/49
    assert stats.ratio_variance == F(134, 49) / F(7, 3) ** 2 == F(1206, 2401)
    assert stats.standard_deviation(10) == "2.0548046677"   # sqrt(38)/3 = 2.05480466765633...
    assert stats.sd_per_unit_wagered(10) == "0.8806305719"  # sqrt(38)/7 = 0.88063057185271...


def test_no_win_has_no_largest_win():
    stats = WagerStatistics.from_outcomes(RoundOutcomes.single("net", {0: 1, -1: 3}), wagered=None)
    assert stats.largest_win is None and stats.hit_frequency == 0
    assert stats.as_summary()["largest_win"] is None


def test_unit_stakes_reduce_to_plain_figures():
    """Baccarat: every stake 1, so RTP = 1 + EV and sigma_R = sd(net)."""
    counts = {F(95, 100): 458597, -1: 446247, 0: 95156}
    plain = WagerStatistics.from_outcomes(RoundOutcomes.single("banker", counts), "banker", None)
    explicit = WagerStatistics.from_outcomes(
        RoundOutcomes(("banker", "wagered"), {(v, 1): c for v, c in counts.items()}), "banker", "wagered")
    assert plain.rtp == 1 + plain.mean and plain.ratio_variance == plain.variance
    assert plain.sd_per_unit_wagered() == plain.standard_deviation()
    assert (plain.mean, plain.variance, plain.ratio_variance, plain.rtp) == (
        explicit.mean, explicit.variance, explicit.ratio_variance, explicit.rtp)
    assert plain.variance_wagered == 0 and plain.covariance == 0


# --- covariance is counted, never assumed zero --------------------------------------------------

def test_variance_of_a_sum_counts_covariance():
    returned = DIE.combine("returned", {"net": 1, "wagered": 1})
    # returned per round: 0 (x2), 3, 6 (x2), 7; E = 11/3, E[x^2] = 65/3, Var = 74/9
    assert returned.variance("returned") == F(74, 9)
    without_covariance = DIE.variance("net") + DIE.variance("wagered")
    assert without_covariance == F(46, 9) != returned.variance("returned")
    assert returned.variance("returned") == without_covariance + 2 * DIE.covariance("net", "wagered")


def test_combined_play_main_plus_k_side_bet():
    """Side bet correlated with the main game: Var(main + k*aa) != Var(main) + k^2 Var(aa)."""
    play = RoundOutcomes(("main", "aa", "wagered"),
                         {(2, 7, 3): 1, (2, -1, 3): 3, (-1, -1, 1): 4, (0, -1, 3): 2})
    k = F(3, 2)
    combined = play.combine("net", {"main": 1, "aa": k}, keep=["wagered"])
    assert combined.names == ("wagered", "net")
    # expanded by hand: nets 25/2, 1/2 (x3), -5/2 (x4), -3/2 (x2)
    samples = [F(25, 2)] + [F(1, 2)] * 3 + [F(-5, 2)] * 4 + [F(-3, 2)] * 2
    mean = sum(samples) / 10
    assert combined.mean("net") == mean == F(1, 10)
    assert combined.variance("net") == sum((s - mean) ** 2 for s in samples) / 10
    independent = play.variance("main") + k * k * play.variance("aa")
    assert play.covariance("main", "aa") != 0
    assert combined.variance("net") == independent + 2 * k * play.covariance("main", "aa") != independent


def test_combine_merges_rows_and_keeps_order():
    play = RoundOutcomes(("a", "b"), {(1, 2): 3, (2, 1): 4, (0, 0): 1})
    assert play.combine("s", {"a": 1, "b": 1}, keep=[]).rows == {(F(3),): 7, (F(0),): 1}
    assert play.combine("s", {"a": 1}, constant=F(1, 2)).names == ("a", "b", "s")
    with pytest.raises(ValueError, match="already exists"):
        play.combine("a", {"b": 1})
    with pytest.raises(KeyError, match="no component 'c'"):
        play.combine("s", {"c": 1})
    with pytest.raises(TypeError):
        play.combine("s", {"a": 0.5})
    with pytest.raises(TypeError):
        play.combine("s", {"a": 1}, keep="a")


def test_marginal_and_distribution_merge_rows():
    assert DIE.marginal(["wagered"]).rows == {(F(1),): 2, (F(3),): 4}
    assert DIE.distribution("wagered") == [(1, 2), (3, 4)]
    assert DIE.marginal(["wagered", "net"]).total == 6
    with pytest.raises(TypeError):
        DIE.marginal("net")


def test_rows_normalised_equal_and_hashable():
    a = RoundOutcomes(("x",), [((1,), 2), (("1/1",), 3), ((2,), 0)])
    b = RoundOutcomes(("x",), {(F(1),): 5})
    assert a == b and hash(a) == hash(b) and list(a.rows) == [(F(1),)]
    with pytest.raises(TypeError):
        a.rows[(F(2),)] = 1


@pytest.mark.parametrize("names, rows, message", [
    ((), {}, "at least one component"),
    (("x", "x"), {(1, 1): 1}, "repeat"),
    (("x",), {(1, 2): 1}, "2 values"),
    (("x",), {(1,): -1}, "non-negative int"),
    (("x",), {(1,): True}, "non-negative int"),
    (("x",), {(1,): 0}, "no round"),
])
def test_bad_outcomes_refused(names, rows, message):
    with pytest.raises(ValueError, match=message):
        RoundOutcomes(names, rows)


def test_float_value_refused():
    with pytest.raises(TypeError):
        RoundOutcomes(("x",), {(0.5,): 1})


def test_non_positive_stake_refused():
    with pytest.raises(ValueError, match="positive in every round"):
        WagerStatistics.from_outcomes(RoundOutcomes(("net", "wagered"), {(1, 1): 1, (0, 0): 1}))


# --- exact square roots -------------------------------------------------------------------------

@pytest.mark.parametrize("value, places, expected", [
    (F(0), 3, "0.000"), (F(4), 3, "2.000"), (F(1, 4), 3, "0.500"), (F(9, 4), 0, "2"),   # 1.5 -> 2
    (F(10**40), 2, f"{10**20}.00"), (F(2), 0, "1"), (F(1, 100), 1, "0.1"),
    (F(1, 64), 2, "0.13"),                      # exactly 0.125: the half rounds up
    (F(1, 64) - F(1, 10**30), 2, "0.12"),       # just below the boundary
    (F(1, 64) + F(1, 10**30), 2, "0.13"),       # just above
    (F(1, 64), 3, "0.125"),
    (F(12345, 100) ** 2, 2, "123.45"),          # an exact square renders as decimal_str would
    (F(12345, 1000) ** 2, 2, "12.35"),          # 12.345: half up
    (F(12345, 1000) ** 2 - F(1, 10**40), 2, "12.34"),
])
def test_sqrt_rendering_at_squares_and_boundaries(value, places, expected):
    assert sqrt_decimal_str(value, places) == expected
    assert reference_sqrt(value, places) == expected


def test_sqrt_rendering_beyond_float_precision():
    """(k + 1/2)^2 / 10^40 minus a hair: the exact digits round down where doubles cannot tell."""
    k = 14142135623730950488                           # 20 digits: sqrt(2) to 19 places
    boundary = F(2 * k + 1, 2 * 10**19) ** 2           # sqrt = k.5 units of the 19th place
    assert sqrt_decimal_str(boundary, 19) == "1.4142135623730950489"
    assert sqrt_decimal_str(boundary - F(1, 10**60), 19) == "1.4142135623730950488"
    assert math.sqrt(float(boundary - F(1, 10**60))) == math.sqrt(float(boundary))


@pytest.mark.parametrize("value", [F(-1), F(-1, 10**30)])
def test_sqrt_of_negative_refused(value):
    with pytest.raises(ValueError):
        sqrt_decimal_str(value)


def floor_sqrt(value: F) -> int:
    """floor(sqrt(value)) for a rational value >= 0 (isqrt of its floor): a reference helper."""
    return math.isqrt(math.floor(value))


def compare_sqrt(value, bound) -> int:
    """The sign of sqrt(value) - bound, by comparing squares: a reference helper."""
    bound = F(bound)
    if bound < 0:
        return 1
    return (value > bound * bound) - (value < bound * bound)


def test_integer_helpers():
    assert [floor_sqrt(F(n)) for n in range(10)] == [math.isqrt(n) for n in range(10)]
    assert floor_sqrt(F(899, 100)) == 2 and floor_sqrt(F(9)) == 3
    assert compare_sqrt(F(1, 4), F(1, 2)) == 0 and compare_sqrt(F(1, 4), F(1, 3)) == 1
    assert floor_surd(F(0), F(-1), F(4)) == -2 and floor_surd(F(0), F(-1), F(4) + F(1, 10**20)) == -3


def floor_surd(a, b, x) -> int:
    """floor(a + b * sqrt(x)) by one integer square root: the reference the package's rendering had (checked
    against the candidates below).

    With a = p/q and b*b*x = u/v (q, v > 0): a + b*sqrt(x) = (p*v + sign(b)*sqrt(m)) / (q*v) with
    m = q*q*u*v an integer.  floor(t / n) = floor(floor(t) / n) for an integer n > 0, and for the
    integer p*v, floor(p*v + sqrt(m)) = p*v + isqrt(m) while floor(p*v - sqrt(m)) = p*v - ceil(sqrt(m)).
    """
    a, b, x = F(a), F(b), F(x)
    root_square = b * b * x
    p, q = a.numerator, a.denominator
    u, v = root_square.numerator, root_square.denominator
    m = q * q * u * v
    r = math.isqrt(m)
    if b > 0:
        top = p * v + r
    elif b < 0:
        top = p * v - (r if r * r == m else r + 1)
    else:
        top = p * v
    return top // (q * v)


def former_surd_decimal_str(a, b, x, places: int) -> str:
    """a + b*sqrt(x) rendered as the package did before `surd_decimal_strs` (two floor_surd a value): the
    reference of the one-square-root rendering."""
    a, b, x = F(a), F(b), F(x)
    scale = 10**places
    big_a, big_b = a * scale, b * scale
    if floor_surd(big_a, big_b, x) >= 0:
        digits = floor_surd(big_a + F(1, 2), big_b, x)
    else:
        digits = -floor_surd(-big_a + F(1, 2), -big_b, x)
    return decimal_str(F(digits, scale), places)


def floor_surd_by_candidates(a, b, x) -> int:
    """The former floor_surd (the reference): the greatest of a few candidates near floor(a +- r) that
    a + b*sqrt(x) reaches, each tested by an exact comparison of squares."""
    sign, root_square = (b > 0) - (b < 0), b * b * x
    start = math.floor(a + sign * floor_sqrt(root_square))
    for k in range(start + 2, start - 3, -1):
        gap = k - a
        if (compare_sqrt(root_square, gap) >= 0 if sign > 0 else compare_sqrt(root_square, -gap) <= 0
                if sign < 0 else gap <= 0):
            return k
    raise AssertionError("unreachable")


@settings(max_examples=500, deadline=None, database=None)
@given(a=st.fractions(max_denominator=10**40), b=st.fractions(max_denominator=10**9),
       x=st.fractions(min_value=0, max_denominator=10**30) | st.integers(0, 10**6).map(lambda n: F(n * n, 49)))
def test_floor_surd_by_one_isqrt_equals_the_candidates(a, b, x):
    assert floor_surd(a, b, x) == floor_surd_by_candidates(a, b, x)
    assert floor_surd(a, b, F(0)) == math.floor(a) and floor_surd(a, F(0), x) == math.floor(a)


@pytest.mark.parametrize("a, b, x, places, expected", [
    (F(0), F(-1), F(1, 64), 2, "-0.13"),          # -0.125: half away from zero
    (F(0), F(-1), F(1, 64) - F(1, 10**30), 2, "-0.12"),
    (F(1), F(-1), F(1, 64), 2, "0.88"),           # 0.875 -> 0.88
    (F(1), F(-1), F(1, 64) + F(1, 10**30), 2, "0.87"),
    (F(1, 1000), F(-1), F(1, 10**6), 3, "0.000"),  # exactly zero
    (F(1, 1000), F(-1), F(1, 10**6) + F(1, 10**30), 3, "0.000"),  # a hair below zero: no "-0.000"
])
def test_surd_rendering_at_boundaries(a, b, x, places, expected):
    assert surd_decimal_str(a, b, x, places) == expected
    assert reference_surd(a, b, x, places) == expected


fractions = st.fractions(min_value=-50, max_value=50, max_denominator=10**6)


@settings(max_examples=300, deadline=None, database=None)
@given(a=fractions, b=fractions, x=st.fractions(min_value=0, max_value=10**4, max_denominator=10**6),
       places=st.integers(0, 25))
def test_surd_matches_decimal_reference(a, b, x, places):
    assert surd_decimal_str(a, b, x, places) == reference_surd(a, b, x, places)
    assert sqrt_decimal_str(x, places) == reference_sqrt(x, places)


exact_squares = st.tuples(st.fractions(max_denominator=10**20), st.integers(0, 30)).map(lambda t: t[0] ** 2 / 10 ** t[1])
halves = st.tuples(st.integers(-10**6, 10**6), st.integers(0, 12)).map(lambda t: F(2 * t[0] + 1, 2 * 10 ** t[1]))


@settings(max_examples=1500, deadline=None, database=None)
@given(a=st.fractions(max_denominator=10**40) | halves | st.just(F(0)),
       x=st.fractions(min_value=0, max_denominator=10**60) | exact_squares | st.just(F(0)),
       places=st.integers(0, 25))
def test_both_ends_by_one_square_root_equal_the_former_rendering(a, x, places):
    """a -+ sqrt(x) from one isqrt: the former two-floor rendering of each end, on huge denominators,
    exact squares (ends that are decimals, ties at a half), a at a half, zero ends and negative ends."""
    low, high = surd_decimal_strs(a, x, places)
    assert low == former_surd_decimal_str(a, -1, x, places) and high == former_surd_decimal_str(a, 1, x, places)
    for b in (F(-3, 7), F(0), F(5, 2)):
        assert surd_decimal_str(a, b, x, places) == former_surd_decimal_str(a, b, x, places)
    assert sqrt_decimal_str(x, places) == former_sqrt_decimal_str(x, places)


def former_sqrt_decimal_str(value: F, places: int) -> str:
    """sqrt(value) as the package rendered it before (Fraction arithmetic): floor(4 Y) then isqrt."""
    return decimal_str(F((math.isqrt(math.floor(value * 4 * 10 ** (2 * places))) + 1) // 2, 10**places), places)


@pytest.mark.parametrize("a, x, places, expected", [
    (F(1), F(1, 64), 2, ("0.88", "1.13")),                  # 0.875 and 1.125: halves away from zero
    (F(0), F(1, 64), 2, ("-0.13", "0.13")),
    (F(1, 8), F(1, 64), 2, ("0.00", "0.25")),               # an end exactly zero
    (F(1, 8), F(1, 64) + F(1, 10**40), 2, ("0.00", "0.25")),  # a hair below zero: no "-0.00"
    (F(-5, 1), F(0), 0, ("-5", "-5")),
    (F(-1, 2), F(0), 0, ("-1", "-1")),
    (F(10**30 + 1, 3), F(10**50), 3, ("333323333333333333333333333333.667", "333343333333333333333333333333.667")),
])
def test_both_ends_at_boundaries(a, x, places, expected):
    assert surd_decimal_strs(a, x, places) == expected
    assert expected == (reference_surd(a, F(-1), x, places), reference_surd(a, F(1), x, places))


# --- settling -------------------------------------------------------------------------------------

def brute_force_rounds(ratio_variance: F, epsilon: F, z: F) -> int:
    """The least N with z * sigma_R / sqrt(N) <= epsilon, searched upward, by Decimal at 100 digits."""
    with localcontext() as context:
        context.prec = 100
        sigma = (Decimal(ratio_variance.numerator) / ratio_variance.denominator).sqrt()
        bound = Decimal(epsilon.numerator) / epsilon.denominator
        zd = Decimal(z.numerator) / z.denominator
        n = 1
        while zd * sigma / Decimal(n).sqrt() > bound:
            n += 1
        return n


@pytest.mark.parametrize("outcomes, wagered", [(DIE, "wagered"),
                                               (RoundOutcomes.single("net", {1: 18, -1: 19}), None),
                                               (RoundOutcomes.single("net", {35: 1, -1: 36}), None)])
@pytest.mark.parametrize("epsilon", [F(1, 5), F(1, 10), F(1, 7), F(1, 30)])
@pytest.mark.parametrize("z", [Z95, Z99])
def test_rounds_to_settle_against_brute_force(outcomes, wagered, epsilon, z):
    stats = WagerStatistics.from_outcomes(outcomes, "net", wagered)
    assert stats.rounds_to_settle(epsilon, z) == brute_force_rounds(stats.ratio_variance, epsilon, z)


def test_rounds_to_settle_exact_tie():
    """z^2 sigma^2 / epsilon^2 an integer: that N itself qualifies (<=), one fewer does not."""
    coin = WagerStatistics.from_outcomes(RoundOutcomes.single("net", {1: 1, -1: 1}), wagered=None)
    assert coin.ratio_variance == 1
    assert coin.rounds_to_settle(F(1, 10), z=2) == 400 == brute_force_rounds(F(1), F(1, 10), F(2))


def test_rounds_to_settle_published_tolerances_near_boundary():
    """Even-money coin at 95%: N = ceil(z95^2 * 10^6) = 3841459; N - 1 falls short."""
    coin = WagerStatistics.from_outcomes(RoundOutcomes.single("net", {1: 1, -1: 1}), wagered=None)
    n = coin.rounds_to_settle(F(1, 1000))
    assert n == 3841459
    assert coin.half_width_squared(n) <= F(1, 10**6) < coin.half_width_squared(n - 1)
    assert coin.as_summary()["rounds_to_settle"] == [
        {"tolerance_percentage_points": "0.1", "confidence": "95%", "rounds": "3841459"},
        {"tolerance_percentage_points": "0.01", "confidence": "95%", "rounds": "384145883"}]


def test_zero_ratio_variance_settles_at_once():
    """Net proportional to the stake: every round returns exactly the RTP per unit wagered."""
    stats = WagerStatistics.from_outcomes(RoundOutcomes(("net", "wagered"), {(-1, 2): 3, (F(-1, 2), 1): 5}))
    assert stats.ratio_variance == 0 and stats.rounds_to_settle(F(1, 10**6)) == 1
    assert stats.interval(1000)[0] == "0.000000000000"


def test_interval_bounds_against_reference():
    stats = WagerStatistics.from_outcomes(DIE)
    for rounds in SETTLING_ROUNDS:
        for level, z in CONFIDENCE_LEVELS.items():
            square = z * z * stats.ratio_variance / rounds
            half, low, high = stats.interval(rounds, z, 14)
            assert half == reference_sqrt(square, 14)
            assert low == reference_surd(stats.rtp, F(-1), square, 14)
            assert high == reference_surd(stats.rtp, F(1), square, 14)


def test_intervals_are_made_once_per_arguments_and_each_is_the_fresh_rendering():
    stats = WagerStatistics.from_outcomes(DIE)
    first = stats.interval(1000)
    assert stats.interval(1000) is first                                 # the rendering made once
    fresh = WagerStatistics.from_outcomes(DIE)                           # no rendering kept yet
    for rounds, z, places in [(1000, Z95, 12), (1000, Z95, 6), (10**6, Z95, 12), (1000, CONFIDENCE_LEVELS["99%"], 12)]:
        assert stats.interval(rounds, z, places) == fresh.interval(rounds, z, places) \
            == WagerStatistics.from_outcomes(DIE).interval(rounds, z, places)
    assert stats.interval(1000, Z95, 6) != first and stats == WagerStatistics.from_outcomes(DIE)   # kept apart from equality
    with pytest.raises(ValueError):
        stats.interval(0)


def test_normal_quantiles():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 80
    for z, p in ((Z95, "0.975"), (Z99, "0.995")):
        assert abs(mpmath.ncdf(mpmath.mpf(z.numerator) / z.denominator) - mpmath.mpf(p)) < mpmath.mpf(10) ** -45
    assert decimal_str(Z95, 45) == "1.959963984540054235524594430520551527955550078"   # 46 digits
    assert decimal_str(Z99, 45) == "2.575829303548900760978576748603814117306017634"


# --- property test against expanded samples --------------------------------------------------------

values = st.fractions(min_value=-20, max_value=20, max_denominator=12)
stakes = st.fractions(min_value=F(1, 2), max_value=6, max_denominator=4)
distributions = st.dictionaries(st.tuples(values, stakes), st.integers(1, 6), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None, database=None)
@given(rows=distributions, places=st.integers(0, 15))
def test_statistics_match_expanded_samples(rows, places):
    samples = [key for key, count in rows.items() for _ in range(count)]
    n = len(samples)
    nets, stakes_ = [s[0] for s in samples], [s[1] for s in samples]
    mean_x, mean_w = sum(nets) / n, sum(stakes_) / n
    var_x = sum((x - mean_x) ** 2 for x in nets) / n
    var_w = sum((w - mean_w) ** 2 for w in stakes_) / n
    cov = sum((x - mean_x) * (w - mean_w) for x, w in samples) / n
    h = mean_x / mean_w
    residuals = [x - h * w for x, w in samples]
    ratio_variance = sum(r * r for r in residuals) / n / mean_w ** 2     # residual mean is 0

    outcomes = RoundOutcomes(("net", "wagered"), rows)
    stats = WagerStatistics.from_outcomes(outcomes)
    assert outcomes.total == stats.rounds == n
    assert (stats.mean, stats.variance, stats.mean_wagered) == (mean_x, var_x, mean_w)
    assert (stats.variance_wagered, stats.covariance) == (var_w, cov)
    assert stats.ratio_variance == ratio_variance
    assert outcomes.combine("r", {"net": 1, "wagered": -h}).variance("r") / mean_w ** 2 == ratio_variance
    assert stats.rtp == sum(x + w for x, w in samples) / sum(stakes_)
    assert stats.hit_frequency == F(sum(x > 0 for x in nets), n)
    assert stats.push_probability == F(sum(x == 0 for x in nets), n)
    assert stats.loss_probability == F(sum(x < 0 for x in nets), n)
    assert [(v.value, v.count) for v in stats.distribution] == sorted(
        (x, nets.count(x)) for x in set(nets))
    assert sum(v.probability for v in stats.distribution) == 1
    assert stats.standard_deviation(places) == reference_sqrt(var_x, places)
    assert stats.sd_per_unit_wagered(places) == reference_sqrt(var_x / mean_w ** 2, places)


# --- outputs ----------------------------------------------------------------------------------------

def test_compact_summary_is_the_full_one_without_the_detail_in_the_same_order():
    stats = WagerStatistics.from_outcomes(DIE)
    for context in (True, False):
        full, compact = stats.as_summary(context=context), stats.as_summary(context=context, detail=False)
        left_out = ("net_distribution", "settling_intervals", *summary_context())     # a compact entry: no context
        expected = {k: v for k, v in full.items() if k not in left_out}
        assert list(compact.items()) == list(expected.items())


def test_summary_is_json_and_exact():
    stats = WagerStatistics.from_outcomes(DIE)
    summary = json.loads(json.dumps(stats.as_summary(8)))
    assert summary["convention"] == CONVENTION
    assert CONVENTION == ("per round, in units of the initial bet (ANTE; Baccarat: the stake); "
                          "a fold counts -1 and a push 0; normal approximation")
    assert parse_fraction_str(summary["rtp"]["exact"]) == F(11, 7) and summary["rtp"]["decimal"] == "1.57142857"
    assert summary["standard_deviation"] == {"sqrt_of": "38/9", "decimal": "2.05480467"}
    assert summary["rounds_counted"] == "6"
    assert [row["count"] for row in summary["net_distribution"]] == ["2", "1", "2", "1"]
    assert summary["z"]["95%"].startswith("1.95996398454005423552")
    assert len(summary["settling_intervals"]) == 12
    first = summary["settling_intervals"][0]
    assert (first["rounds"], first["confidence"]) == ("1000", "95%")
    assert (first["half_width"], first["low"], first["high"]) == stats.interval(1000, Z95, 8)


# --- integer rows over one denominator, against the plain Fraction-keyed rows ---------------------

def plain_rows(rows) -> dict:
    """The previous representation: rows keyed by Fraction tuples, merged, zero counts dropped, sorted."""
    merged = {}
    for values, count in rows:
        if count:
            key = tuple(F(v) for v in values)
            merged[key] = merged.get(key, 0) + count
    return dict(sorted(merged.items()))


def plain_moments(rows: dict, i: int, j: int) -> tuple:
    total = sum(rows.values())
    mean_i = sum(k[i] * n for k, n in rows.items()) / F(total)
    mean_j = sum(k[j] * n for k, n in rows.items()) / F(total)
    return mean_i, sum(k[i] * k[j] * n for k, n in rows.items()) / F(total) - mean_i * mean_j


values_strategy = st.fractions(min_value=-50, max_value=50, max_denominator=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.tuples(values_strategy, values_strategy, values_strategy),
                          st.integers(min_value=0, max_value=10**20)), min_size=1, max_size=25),
       values_strategy, values_strategy, values_strategy)
def test_integer_rows_equal_the_plain_fraction_rows(rows, a, b, constant):
    """Rows, moments, marginals, distributions, combinations and extensions equal the Fraction-keyed ones."""
    if not any(count for _, count in rows):
        rows = rows + [((F(0), F(0), F(0)), 1)]
    names = ("x", "y", "z")
    outcomes, plain = RoundOutcomes(names, rows), plain_rows(rows)
    assert dict(outcomes.rows) == plain and list(outcomes.rows) == list(plain)
    assert outcomes.total == sum(plain.values())
    for i in range(3):
        for j in range(3):
            mean, covariance = plain_moments(plain, i, j)
            assert outcomes.mean(names[i]) == mean and outcomes.covariance(names[i], names[j]) == covariance
            # all five in one pass of integer sums
            assert outcomes.moments(names[i], names[j]) == (mean, plain_moments(plain, j, j)[0],
                                                            plain_moments(plain, i, i)[1],
                                                            plain_moments(plain, j, j)[1], covariance)
    marginal = outcomes.marginal(["z", "x"])
    assert dict(marginal.rows) == plain_rows([((k[2], k[0]), n) for k, n in plain.items()])
    assert marginal == RoundOutcomes(("z", "x"), [((k[2], k[0]), n) for k, n in plain.items()])
    by_y = plain_rows([((k[1],), n) for k, n in plain.items()])
    assert outcomes.distribution("y") == [(k[0], n) for k, n in by_y.items()]
    combined = outcomes.combine("s", {"x": a, "z": b}, constant=constant, keep=["y"])
    expected = [((k[1], constant + a * k[0] + b * k[2]), n) for k, n in plain.items()]
    assert dict(combined.rows) == plain_rows(expected)
    assert combined == RoundOutcomes(("y", "s"), expected)
    assert hash(combined) == hash(RoundOutcomes(("y", "s"), expected))
    assert combined.mean("s") == plain_moments(plain_rows(expected), 1, 1)[0]
    extended = outcomes.extend("e", ["y", "x"], lambda y, x: y * a - x)
    expected = [((*k, k[1] * a - k[0]), n) for k, n in plain.items()]
    assert extended == RoundOutcomes(names + ("e",), expected)
    assert extended.variance("e") == plain_moments(plain_rows(expected), 3, 3)[1]


def test_integer_rows_are_canonical_whatever_the_route():
    """Equal distributions made by combine, extend or from values compare and hash equal (one denominator each)."""
    base = RoundOutcomes(("a",), {(F(1, 2),): 1, (F(3, 2),): 2})
    doubled = base.combine("b", {"a": 2}, keep=[])                     # values 1 and 3: denominator 1
    assert doubled == RoundOutcomes(("b",), {(1,): 1, (3,): 2})
    assert hash(doubled) == hash(RoundOutcomes(("b",), {(1,): 1, (3,): 2}))
    assert base.combine("z", {}, keep=[]).rows == {(F(0),): 3}
    assert base.extend("c", ["a"], lambda a: a * 2).marginal(["c"]) == doubled.combine("c", {"b": 1}, keep=[])
    with pytest.raises(ValueError, match="already exists"):
        base.extend("a", ["a"], lambda a: a)
    with pytest.raises(TypeError):
        base.extend("c", ["a"], lambda a: 0.5)
    with pytest.raises(ValueError, match="repeat"):
        base.marginal(["a", "a"])
