"""Exact rationals and their renderings, and the one overflow policy for integer arrays.

Every reported figure passes through here, so no float feeds a decimal.  Integer arrays are
summed in int64 only when a bound proves the sum fits, else in Python integers.
"""
from decimal import Decimal
from fractions import Fraction

import numpy as np

DECIMAL_PLACES = 12
INT64_MAX = 2**63 - 1


def to_fraction(value) -> Fraction:
    """An exact Fraction from an int, Fraction, Decimal or a "p/q" / "1.95" string (floats are refused).

    >>> to_fraction("195/100")
    Fraction(39, 20)
    >>> to_fraction(Decimal("0.05"))
    Fraction(1, 20)
    """
    if type(value) is Fraction:                # the common case: already exact (and immutable)
        return value
    if isinstance(value, (bool, float)):
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
    if type(value) is not Fraction:                # (a Fraction is already in lowest terms)
        value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def decimal_str(value: Fraction, places: int = DECIMAL_PLACES) -> str:
    """Decimal rendering of an exact value, rounded half away from zero.

    >>> decimal_str(Fraction(2, 3), 4)
    '0.6667'
    >>> decimal_str(Fraction(-1, 8), 2)
    '-0.13'
    """
    if type(value) is not Fraction:
        value = Fraction(value)
    numerator, denominator = value.numerator, value.denominator
    scaled, remainder = divmod(abs(numerator) * 10**places, denominator)
    if 2 * remainder >= denominator:
        scaled += 1
    digits = str(scaled).rjust(places + 1, "0")
    text = digits[:-places] + "." + digits[-places:] if places else digits
    return "-" + text if numerator < 0 and scaled else text


def percent_str(value: Fraction, places: int = 4) -> str:
    """A value as a percentage string, e.g. Fraction(9894, 10000) -> '98.9400%'."""
    return decimal_str(Fraction(value) * 100, places) + "%"


def figure(value: Fraction, places: int = DECIMAL_PLACES) -> dict:
    """A reported figure: its exact value and the decimal derived from it."""
    return {"exact": fraction_str(value), "decimal": decimal_str(value, places)}


def published_check(published: str | None, exact: Fraction) -> dict | None:
    """An exact figure beside a published percentage ("98.94%"), rounded to its precision, and the difference.

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


def exact_value(entry: dict) -> Fraction:
    """The exact value of a reported `figure` (its "exact" "p/q")."""
    return parse_fraction_str(entry["exact"])


# --- exact integer sums: one overflow policy --------------------------------------------------

CHUNK = 1 << 18               # elements per chunk where int64 copies of a chunk are made (2 MiB)


def abs_bound(values: np.ndarray) -> int:
    """An upper bound of |v| over an integer array (exact, as a Python integer)."""
    if values.size == 0:
        return 0
    return max(abs(int(values.max())), abs(int(values.min())))


def exact_sum(values) -> int:
    """The exact integer sum of an integer array (any dtype, object arrays of Python ints too): in int64
    over chunks that max|v| x chunk proves fit, else in Python integers.

    >>> exact_sum(np.array([2**62, 2**62, -1], dtype=np.int64))
    9223372036854775807
    """
    values = np.asarray(values)
    if values.size == 0:
        return 0
    flat = values.ravel()
    bound = abs_bound(flat) if values.dtype != object else None
    if bound is None or bound > INT64_MAX:
        return sum(int(v) for v in flat.tolist())
    chunk = max(1, INT64_MAX // max(bound, 1))
    if chunk >= flat.size:
        return int(flat.sum(dtype=np.int64))
    return sum(int(flat[i:i + chunk].sum(dtype=np.int64)) for i in range(0, flat.size, chunk))


def dtype_bound(values: np.ndarray) -> int | None:
    """A bound of |v| from the dtype alone, for integer dtypes of at most 32 bits (no pass over the data)."""
    if values.dtype.kind in "iub" and values.dtype.itemsize <= 4:
        info = np.iinfo(values.dtype) if values.dtype.kind != "b" else None
        return 1 if info is None else max(abs(int(info.min)), int(info.max))
    return None


def exact_masked_sum(values, mask, bound: int | None = None) -> int:
    """The exact integer sum of values[mask]: in int64 without a copy when `bound` (of every |value|; by
    default from a small dtype, else found) times the size proves it fits, else in Python integers.

    >>> exact_masked_sum(np.array([5, 7, 2**62], dtype=np.int64), np.array([True, True, False]))
    12
    """
    values = np.asarray(values)
    if values.dtype != object:
        if bound is None:
            bound = dtype_bound(values)
        if bound is None:
            bound = abs_bound(values)
        if bound * values.size <= INT64_MAX:
            return int(np.sum(values, where=np.asarray(mask, dtype=bool), dtype=np.int64))
    return exact_sum(values[mask])


def exact_group_sums(groups: np.ndarray, values, n_groups: int) -> np.ndarray:
    """Exact sums of integer values (either sign) by group: int64 when it provably fits, else Python ints.

    >>> exact_group_sums(np.array([0, 1, 0]), np.array([5, 7, -2]), 2).tolist()
    [3, 7]
    """
    values = np.asarray(values)
    if values.dtype == object or abs_bound(values) * values.size > INT64_MAX:
        sums = [0] * n_groups
        for g, v in zip(groups.tolist(), values.tolist()):
            sums[g] += int(v)
        return np.array(sums, dtype=object)
    sums = np.zeros(n_groups, dtype=np.int64)
    for start in range(0, values.size, CHUNK):           # a chunk at a time: no whole int64 copy
        np.add.at(sums, groups[start:start + CHUNK], values[start:start + CHUNK].astype(np.int64, copy=False))
    return sums


NARROW_INTEGERS = (np.int8, np.int16, np.int32, np.int64)


def as_narrowest_int(values: np.ndarray, bound: int) -> np.ndarray:
    """The array in the narrowest signed integer dtype that `bound` (of every |value|) fits, else as Python
    integers (a per-class table kept for sums need not take 8 bytes a class).

    >>> as_narrowest_int(np.array([300, -2]), 300).dtype, as_narrowest_int(np.array([1]), 2**70).dtype
    (dtype('int16'), dtype('O'))
    """
    for dtype in NARROW_INTEGERS:
        if bound <= np.iinfo(dtype).max:
            return np.asarray(values).astype(dtype)
    return np.asarray(values).astype(object)


def as_int64_or_object(values: np.ndarray, bound: int) -> np.ndarray:
    """The array as int64 when `bound` (a proven bound of every |value|) fits, else as Python integers."""
    if bound <= INT64_MAX:
        return np.asarray(values).astype(np.int64, copy=False)
    return np.asarray(values).astype(object)


def integer_array(values) -> np.ndarray:
    """Exact integers as an array: int64 when every value fits, else Python integers (object), never wrapped.

    >>> integer_array([1, -2]).dtype, integer_array([10**30, 1]).dtype
    (dtype('int64'), dtype('O'))
    """
    values = np.asarray(values, dtype=object)
    if values.size and max(abs(int(v)) for v in values.ravel().tolist()) > INT64_MAX:
        return values
    return values.astype(np.int64)


def exact_terms(*terms) -> np.ndarray:
    """sum_k prod(terms[k]) elementwise, exactly; a term is a tuple of integer arrays (one shape) and ints.
    In int64 when sum_k prod max(1, max|factor|) fits, else in Python integers.

    >>> exact_terms((np.array([3, -2]), 2**61), (np.array([1, 1]), -1)).tolist()
    [6917529027641081855, -4611686018427387905]
    """
    bound, machine = 0, True
    for term in terms:
        product = 1
        for factor in term:
            if isinstance(factor, np.ndarray):
                machine = machine and factor.dtype != object
                product *= max(1, abs_bound(factor))
            else:
                product *= max(1, abs(factor))
        bound += product
    dtype = np.int64 if machine and bound <= INT64_MAX else object
    total = None
    for term in terms:
        product = None
        for factor in term:
            factor = factor.astype(dtype, copy=False) if isinstance(factor, np.ndarray) else factor
            product = factor if product is None else product * factor
        total = product if total is None else total + product
    result = np.asarray(total, dtype=dtype)
    return result.copy() if any(result is factor for term in terms for factor in term) else result


def exact_cumsum(values) -> np.ndarray:
    """Running sums of an integer array, exactly: int64 when max|v| x size proves every partial sum fits.

    >>> exact_cumsum(np.array([2**62, 2**62, -1])).tolist()
    [4611686018427387904, 9223372036854775808, 9223372036854775807]
    """
    values = np.asarray(values)
    if values.dtype != object and abs_bound(values) * values.size <= INT64_MAX:
        return np.cumsum(values, dtype=np.int64)
    return np.cumsum(values.astype(object))
