"""Exact decimals of square roots (a standard deviation, a confidence interval) for rational a, b, x: by
`math.isqrt` alone, rounded half away from zero like `decimal_str`."""
from __future__ import annotations

import math
from fractions import Fraction

from analyzer.core.exact import DECIMAL_PLACES, decimal_str, to_fraction


def sqrt_decimal_str(value, places: int = DECIMAL_PLACES) -> str:
    """sqrt(value) to `places` decimals, rounded half up: floor(sqrt(Y) + 1/2) = (isqrt(floor(4Y)) + 1) // 2
    with Y = value * 10^(2 places).

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
    """(a - sqrt(x), a + sqrt(x)) to `places` decimals, rounded half away from zero, by one integer square
    root: with S = 10^places, a = n/d, x = u/v, 2S(a -+ sqrt(x)) = (2Snv -+ sqrt(4 S^2 d^2 u v)) / (dv).

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
    """a + b * sqrt(x) to `places` decimals, rounded half away from zero (one end of `surd_decimal_strs`).

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
