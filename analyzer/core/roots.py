"""Exact decimals of square roots: sqrt(x) and a + b*sqrt(x) for rational a, b, x.

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


def floor_fraction(value: Fraction) -> int:
    """The greatest integer <= value.

    >>> floor_fraction(Fraction(-7, 2)), floor_fraction(Fraction(7, 2))
    (-4, 3)
    """
    value = Fraction(value)
    return value.numerator // value.denominator


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
    scaled = value * 4 * 10 ** (2 * places)
    digits = (math.isqrt(floor_fraction(scaled)) + 1) // 2
    return decimal_str(Fraction(digits, 10**places), places)


def floor_surd(a, b, x) -> int:
    """floor(a + b * sqrt(x)) for rationals a, b and x >= 0, exactly, by one integer square root.

    With a = p/q and b*b*x = u/v (q, v > 0): a + b*sqrt(x) = (p*v + sign(b)*sqrt(m)) / (q*v) with
    m = q*q*u*v an integer.  floor(t / n) = floor(floor(t) / n) for an integer n > 0, and for the
    integer p*v, floor(p*v + sqrt(m)) = p*v + isqrt(m) while floor(p*v - sqrt(m)) = p*v - ceil(sqrt(m)).

    >>> floor_surd(Fraction(1, 2), 1, 2), floor_surd(0, -1, 2), floor_surd(3, -1, 4)
    (1, -2, 1)
    """
    a, b, x = to_fraction(a), to_fraction(b), _non_negative(x)
    root_square = b * b * x                        # b*sqrt(x) == sign * sqrt(root_square)
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


def surd_decimal_str(a, b, x, places: int = DECIMAL_PLACES) -> str:
    """a + b * sqrt(x) to `places` decimals, rounded half away from zero, exactly.

    This renders an interval end such as RTP - z*sigma/sqrt(N) = RTP - sqrt(z^2 sigma^2 / N).

    >>> surd_decimal_str(Fraction(98, 100), -1, Fraction(1, 10000), 4)
    '0.9700'
    >>> surd_decimal_str(0, -1, Fraction(1, 64), 2)   # -0.125: half rounds away from zero
    '-0.13'
    >>> surd_decimal_str(1, 1, 2, 10)
    '2.4142135624'
    """
    a, b, x = to_fraction(a), to_fraction(b), _non_negative(x)
    _check_places(places)
    scale = 10**places
    # value * scale == A + B*sqrt(x) with A = a*scale, B = b*scale; value >= 0 iff its floor is.
    big_a, big_b = a * scale, b * scale
    if floor_surd(big_a, big_b, x) >= 0:
        digits = floor_surd(big_a + Fraction(1, 2), big_b, x)
    else:
        digits = -floor_surd(-big_a + Fraction(1, 2), -big_b, x)
    return decimal_str(Fraction(digits, scale), places)


def _non_negative(value) -> Fraction:
    value = to_fraction(value)
    if value < 0:
        raise ValueError(f"the square root of {value} is not real")
    return value


def _check_places(places: int) -> None:
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise ValueError(f"decimal places must be a non-negative integer, not {places!r}")
