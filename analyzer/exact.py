"""Exact rationals and their renderings: "p/q" strings and decimals derived from them.

Every reported figure passes through here, so no float ever feeds a decimal.
"""
from fractions import Fraction
from decimal import Decimal

DECIMAL_PLACES = 12


def to_fraction(value) -> Fraction:
    """An exact Fraction from an int, Fraction, Decimal or a "p/q" / "1.95" string.

    Floats are refused: a binary float is not the number a rule file meant.

    >>> to_fraction("195/100")
    Fraction(39, 20)
    >>> to_fraction(Decimal("0.05"))
    Fraction(1, 20)
    """
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"{value!r} is not an exact number")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not a finite number")
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            if "/" in text:
                num, den = text.split("/")
                return Fraction(int(num), int(den))
            number = Decimal(text)
            if not number.is_finite():
                raise ValueError(text)
            return Fraction(number)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            raise ValueError(f"{value!r} is not a number (write e.g. 8, 0.95 or 39/20)") from None
    raise TypeError(f"{value!r} is not a number")


def fraction_str(value: Fraction) -> str:
    """The exact "p/q" form (q > 0, lowest terms; integers as "n/1").

    >>> fraction_str(Fraction(-6, 4))
    '-3/2'
    """
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def decimal_str(value: Fraction, places: int = DECIMAL_PLACES) -> str:
    """Decimal rendering of an exact value, rounded half away from zero.

    >>> decimal_str(Fraction(2, 3), 4)
    '0.6667'
    >>> decimal_str(Fraction(-1, 8), 2)
    '-0.13'
    """
    value = Fraction(value)
    sign = "-" if value < 0 else ""
    scaled, remainder = divmod(abs(value.numerator) * 10**places, value.denominator)
    if 2 * remainder >= value.denominator:
        scaled += 1
    digits = str(scaled).rjust(places + 1, "0")
    text = digits[:-places] + "." + digits[-places:] if places else digits
    if scaled == 0:
        sign = ""
    return sign + text


def percent_str(value: Fraction, places: int = 4) -> str:
    """A value as a percentage string, e.g. Fraction(9894, 10000) -> '98.9400%'."""
    return decimal_str(Fraction(value) * 100, places) + "%"


def figure(value: Fraction, places: int = DECIMAL_PLACES) -> dict:
    """A reported figure: its exact value and the decimal derived from it."""
    return {"exact": fraction_str(value), "decimal": decimal_str(value, places)}


def published_check(published: str | None, exact: Fraction) -> dict | None:
    """An exact figure beside a published percentage ("98.94%"), rounded to the published precision.

    Published figures are rounded and sometimes wrong: this reports both and the difference,
    it never adjusts the exact value.

    >>> published_check("98.94%", Fraction(9894214, 10**7))["agrees"]
    True
    """
    if not published:
        return None
    text = published.strip().rstrip("%")
    places = len(text.partition(".")[2])
    shown = percent_str(exact, places)
    return {"published": published, "exact_rounded": shown, "agrees": shown == published.strip(),
            "exact_minus_published": percent_str(exact - to_fraction(text) / 100, 6)}


def parse_fraction_str(text: str) -> Fraction:
    """Inverse of fraction_str."""
    num, den = text.split("/")
    return Fraction(int(num), int(den))
