"""decimal_str and fraction_str (integer arithmetic on the numerator and denominator) against their first,
Fraction-arithmetic versions."""
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from analyzer.core.exact import decimal_str, fraction_str


def decimal_str_reference(value, places):
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


@settings(max_examples=1000, deadline=None, database=None)
@given(st.fractions(), st.integers(0, 20))
def test_decimal_str_equals_the_reference(value, places):
    assert decimal_str(value, places) == decimal_str_reference(value, places)
    assert fraction_str(value) == f"{Fraction(value).numerator}/{Fraction(value).denominator}"


def test_other_exact_types_and_halves():
    for value in (3, -7, True, Decimal("0.125"), Fraction(-1, 200), Fraction(1, 2), Fraction(-5, 2)):
        for places in (0, 1, 2, 12):
            assert decimal_str(value, places) == decimal_str_reference(value, places)
        assert fraction_str(value) == f"{Fraction(value).numerator}/{Fraction(value).denominator}"
    assert decimal_str(Fraction(-1, 10**9), 3) == "0.000"             # no "-0.000"
