"""Exact decimals of square roots: sqrt(x), a + b*sqrt(x) and a -+ sqrt(x) for rational a, b, x.

A standard deviation is the square root of an exact variance and is irrational in general,
so it has no "p/q" form; its decimal is derived here from the exact rational under the root
by integer arithmetic alone (`math.isqrt` and exact comparisons), never by a float sqrt.
Every rendering rounds half away from zero, like `analyzer.core.exact.decimal_str`, so a
square root that is rational renders exactly as `decimal_str` renders that rational.
"""
from __future__ import annotations

import math
from fractions import Fraction

from analyzer.core.exact import DECIMAL_PLACES, decimal_str, to_fraction


def ceil_fraction(value: Fraction) -> int:
    """The least integer >= value.

    >>> ceil_fraction(Fraction(-7, 2)), ceil_fraction(Fraction(7, 2)), ceil_fraction(Fraction(4))
    (-3, 4, 4)
    """
    value = Fraction(value)
    return -((-value.numerator) // value.denominator)


def sqrt_decimal_str(value, places: int = DECIMAL_PLACES) -> str:
    """sqrt(value) to `places` decimals, rounded half up, from the exact rational value.

    With Y = value * 10^(2*places) the digits are k = floor(sqrt(Y) + 1/2), and
    floor(sqrt(Y) + 1/2) = floor((floor(sqrt(4Y)) + 1) / 2) = (isqrt(floor(4Y)) + 1) // 2,
    because floor((t + 1) / 2) depends on t only through floor(t).

    Raises ValueError for a negative value and TypeError for a float.

    >>> sqrt_decimal_str(Fraction(2), 20)
    '1.41421356237309504880'
    >>> sqrt_decimal_str(Fraction(1, 64), 2)   # sqrt = 0.125 exactly: half rounds up
    '0.13'
    >>> sqrt_decimal_str(Fraction(9, 4), 3)
    '1.500'
    """
    value = _non_negative(value)
    _check_places(places)
    floor_4y = 4 * 10 ** (2 * places) * value.numerator // value.denominator     # in integers: no gcd
    digits = (math.isqrt(floor_4y) + 1) // 2
    return decimal_str(Fraction(digits, 10**places), places)


def surd_decimal_strs(a, x, places: int = DECIMAL_PLACES) -> tuple[str, str]:
    """(a - sqrt(x), a + sqrt(x)) to `places` decimals, rounded half away from zero, exactly, by one integer
    square root for both: the two ends of an interval such as RTP -+ z*sigma/sqrt(N) = RTP -+ sqrt(z^2 sigma^2 / N).

    With S = 10^places, a = n/d and x = u/v (d, v > 0): 2S(a -+ sqrt(x)) = (P -+ sqrt(m)) / D with the
    integers P = 2S n v, D = d v and m = 4 S^2 d^2 u v.  For an integer D > 0, floor(t / D) = floor(floor(t) / D)
    and likewise for ceil, and floor(P + sqrt(m)) = P + isqrt(m), floor(P - sqrt(m)) = P - ceil(sqrt(m)).
    A value w rounds half away from zero to floor((floor(2w) + 1) / 2) when w >= 0 (that is, floor(2w) >= 0),
    else to -floor((floor(-2w) + 1) / 2), with floor(-2w) = -ceil(2w).

    >>> surd_decimal_strs(Fraction(98, 100), Fraction(1, 10000), 4)
    ('0.9700', '0.9900')
    >>> surd_decimal_strs(0, Fraction(1, 64), 2)   # -+0.125: halves round away from zero
    ('-0.13', '0.13')
    """
    a, x = to_fraction(a), _non_negative(x)
    _check_places(places)
    scale = 10**places
    n, d, u, v = a.numerator, a.denominator, x.numerator, x.denominator
    top, bottom, m = 2 * scale * n * v, d * v, 4 * scale * scale * d * d * u * v
    root = math.isqrt(m)
    inexact = root * root != m
    ends = []
    for floor_top, ceil_top in ((top - root - inexact, top - root), (top + root, top + root + inexact)):
        twice_floor, twice_ceil = floor_top // bottom, -(-ceil_top // bottom)   # floor and ceil of 2S(a -+ sqrt(x))
        digits = (twice_floor + 1) // 2 if twice_floor >= 0 else -((1 - twice_ceil) // 2)
        ends.append(decimal_str(Fraction(digits, scale), places))
    return ends[0], ends[1]


def surd_decimal_str(a, b, x, places: int = DECIMAL_PLACES) -> str:
    """a + b * sqrt(x) to `places` decimals, rounded half away from zero, exactly (b * sqrt(x) is
    -+sqrt(b^2 x): one end of `surd_decimal_strs`).

    >>> surd_decimal_str(Fraction(98, 100), -1, Fraction(1, 10000), 4)
    '0.9700'
    >>> surd_decimal_str(0, -1, Fraction(1, 64), 2)   # -0.125: half rounds away from zero
    '-0.13'
    >>> surd_decimal_str(1, 1, 2, 10)
    '2.4142135624'
    """
    b = to_fraction(b)
    return surd_decimal_strs(a, b * b * _non_negative(x), places)[b > 0]


def _non_negative(value) -> Fraction:
    value = to_fraction(value)
    if value < 0:
        raise ValueError(f"the square root of {value} is not real")
    return value


def _check_places(places: int) -> None:
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise ValueError(f"decimal places must be a non-negative integer, not {places!r}")
