"""Reproducible .xlsx workbooks of exact tables (`analyzer.figures.tables.Table`): same sheets, same bytes.

An int is a number cell below 10^15, else text.  An exact column "EV" becomes "EV (exact)", the text
"p/q", and "EV", a number cell rounded to 15 significant digits (a root column: "sqrt(p/q)" and its
rounded root).  The document date is fixed (FIXED_CREATED).
"""
from __future__ import annotations

import io
import math
import re
from datetime import datetime, timezone
from fractions import Fraction
from typing import Iterable, Mapping

import xlsxwriter

from analyzer.figures.tables import EXACT, ROOT, Column, Table, root_str
from analyzer.core.exact import fraction_str

EXACT_INT_LIMIT = 10**15            # integers below this magnitude are number cells, exact in 15 digits
NUMBER_DIGITS = 15                  # significant digits of an exact column's number cell
FIXED_CREATED = datetime(2000, 1, 1, tzinfo=timezone.utc)     # every workbook's created and modified date

MAX_SHEET_NAME = 31
_FORBIDDEN_IN_NAME = re.compile(r"[\[\]:*?/\\]")
_MIN_WIDTH, _MAX_WIDTH, _NUMBER_WIDTH = 8, 60, 14


class SheetNameError(ValueError):
    """A worksheet name a spreadsheet refuses."""


class Sheet:
    """A worksheet: a name and a Table (given as one, or as its columns and rows)."""

    def __init__(self, name: str, columns, rows=None):
        check_sheet_name(name)
        self.name = name
        self.table = columns if isinstance(columns, Table) and rows is None else Table(columns, rows or ())


def check_sheet_name(name: str) -> None:
    """Raise SheetNameError unless Excel accepts `name` as a worksheet name: 1 to 31 characters (UTF-16
    units), none of [ ] : * ? / \\, no apostrophe first or last, and not "History"."""
    if not isinstance(name, str) or not name:
        raise SheetNameError(f"a sheet name must be a non-empty string, not {name!r}")
    length = len(name.encode("utf-16-le")) // 2
    if length > MAX_SHEET_NAME:
        raise SheetNameError(f"sheet name {name!r} has {length} characters: at most {MAX_SHEET_NAME} are allowed")
    bad = _FORBIDDEN_IN_NAME.search(name)
    if bad:
        raise SheetNameError(f"sheet name {name!r} contains {bad.group()!r}: "
                             "a sheet name may not contain any of [ ] : * ? / \\")
    if name.startswith("'") or name.endswith("'"):
        raise SheetNameError(f"sheet name {name!r} may not begin or end with an apostrophe")
    if name.lower() == "history":
        raise SheetNameError(f"sheet name {name!r} is reserved by Excel")


def spreadsheet_number(value) -> float | None:
    """The exact value rounded half away from zero to 15 significant digits (in integers), as the nearest
    float; None outside a spreadsheet's range.

    >>> spreadsheet_number(Fraction(2, 3))
    0.666666666666667
    >>> spreadsheet_number(Fraction(-1, 8)), spreadsheet_number(0)
    (-0.125, 0.0)
    """
    value = Fraction(value)
    number = _rounded(abs(value), root=False)
    return None if number is None else -number if value < 0 else number


def spreadsheet_root(value) -> float | None:
    """sqrt(value) rounded half up to 15 significant digits (by integer square roots), as a float.

    >>> spreadsheet_root(Fraction(2)), spreadsheet_root(Fraction(1, 4)), spreadsheet_root(0)
    (1.4142135623731, 0.5, 0.0)
    >>> spreadsheet_root(Fraction(10**30))
    1000000000000000.0
    """
    value = Fraction(value)
    if value < 0:
        raise ValueError(f"the square root of {value} is not real")
    return _rounded(value, root=True)


def _rounded(value: Fraction, root: bool) -> float | None:
    """A value >= 0, or its square root, rounded half up to NUMBER_DIGITS significant digits in integers,
    as the nearest float (one correctly rounded division); None from 1e308 or below 1e-307 (but 0)."""
    if value == 0:
        return 0.0
    exponent = _decimal_exponent(value.numerator, value.denominator) // (2 if root else 1)  # 10^e <= result
    if not -307 <= exponent < 308:
        return None
    shift = NUMBER_DIGITS - 1 - exponent
    power = 10 ** abs(shift * (2 if root else 1))          # Y in integers, not reduced: no gcd to take
    numerator, denominator = (value.numerator * power, value.denominator) if shift >= 0 else \
        (value.numerator, value.denominator * power)
    # Y = value x 10^shift (10^(2 shift) for a root): floor(Y + 1/2), or floor(sqrt(Y) + 1/2) = (isqrt(floor(4Y)) + 1) // 2
    digits = (math.isqrt(4 * numerator // denominator) + 1) // 2 if root else \
        (2 * numerator + denominator) // (2 * denominator)
    if shift >= 0:
        return None if digits >= 10 ** (308 + shift) else digits / 10 ** shift
    digits *= 10 ** -shift
    return None if digits >= 10 ** 308 else float(digits)


def _decimal_exponent(numerator: int, denominator: int) -> int:
    """e with 10^e <= numerator / denominator < 10^(e+1) (both positive), found exactly."""
    exponent = len(str(numerator)) - len(str(denominator))
    if (numerator * 10 ** -exponent < denominator) if exponent < 0 else (numerator < denominator * 10 ** exponent):
        exponent -= 1
    return exponent


def workbook_bytes(sheets: Iterable[Sheet | tuple], properties: Mapping[str, object] | None = None) -> bytes:
    """The .xlsx file of `sheets` (Sheet objects or (name, Table) / (name, columns, rows) tuples), in order.
    `properties`: xlsxwriter's document properties ("created", a datetime, replaces FIXED_CREATED).
    SheetNameError for a name refused or repeated (case ignored), ValueError / TypeError for a bad table."""
    sheets = [sheet if isinstance(sheet, Sheet) else Sheet(*sheet) for sheet in sheets]
    if not sheets:
        raise ValueError("a workbook needs at least one sheet")
    seen = {}
    for sheet in sheets:
        if sheet.name.lower() in seen:
            raise SheetNameError(f"sheet name {sheet.name!r} repeats {seen[sheet.name.lower()]!r} (case is ignored)")
        seen[sheet.name.lower()] = sheet.name
    document = {"created": FIXED_CREATED, **(properties or {})}
    if not isinstance(document["created"], datetime):
        raise TypeError("the 'created' property must be a datetime")

    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True})
    try:
        workbook.set_properties(document)
        header_format = workbook.add_format({"bold": True})
        for sheet in sheets:
            _write_sheet(workbook.add_worksheet(sheet.name), sheet.table, header_format)
    finally:
        workbook.close()
    return buffer.getvalue()


def rules_table(data: Mapping) -> Table:
    """A rule file's tables as rows: section, key (nested keys dotted), the value as written, and a number's exact value.

    >>> rules_table({"game": {"game": "x"}, "pays": {"tie": Fraction(8), "push": True, "hands": ["a", "b"]}}).rows
    (('game', 'game', 'x', None), ('pays', 'tie', '8', Fraction(8, 1)), ('pays', 'push', 'true', None), ('pays', 'hands', 'a, b', None))
    """
    def exact(value):
        return Fraction(value) if isinstance(value, (int, Fraction)) and not isinstance(value, bool) else None
    rows = []
    for section, values in data.items():
        if isinstance(values, Mapping):
            rows += [[section, key, rule_value_text(value), exact(value)] for key, value in flat_items(values)]
        else:
            rows.append([section, "", rule_value_text(values), None])
    return Table(["Section", "Key", "Value", ("Number", EXACT)], rows)


def rule_value_text(value, true: str = "true", false: str = "false", empty: str = "") -> str:
    """A rule file's value as written: a fraction p/q (an integer plainly), a list comma-separated, None "lose"."""
    if isinstance(value, bool):
        return true if value else false
    if isinstance(value, Fraction):
        return fraction_str(value).removesuffix("/1")
    if isinstance(value, (list, tuple)):
        return ", ".join(rule_value_text(v, true, false, empty) for v in value) or empty
    return "lose" if value is None else str(value)


def flat_items(table: Mapping, prefix: str = ""):
    """The (dotted key, value) leaves of a rule file's table, nested tables flattened in order."""
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from flat_items(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _write_sheet(worksheet, table: Table, header_format) -> None:
    headers = table.headers()
    widths = [len(title) for title in headers]
    numeric = [False] * len(headers)
    for col, title in enumerate(headers):
        _check(worksheet.write_string(0, col, title, header_format), 0, col)
    for row_number, row in enumerate(table.rows, start=1):
        cells = [written for column, cell in zip(table.columns, row) for written in _cells(column, cell)]
        for col, (kind, value) in enumerate(cells):
            if kind == "number":
                _check(worksheet.write_number(row_number, col, value), row_number, col)
                numeric[col] = True
            elif kind == "text":
                _check(worksheet.write_string(row_number, col, value), row_number, col)
                widths[col] = max(widths[col], len(value))
    for col, width in enumerate(widths):
        worksheet.set_column(col, col, min(max(width, _MIN_WIDTH, _NUMBER_WIDTH if numeric[col] else 0), _MAX_WIDTH) + 2)
    worksheet.freeze_panes(1, 0)


def _cells(column: Column, cell):
    """The (kind, value) written for one table cell: one, or two for an exact or root column."""
    if column.kind in (ROOT, EXACT):
        if cell is None:
            return [("blank", None), ("blank", None)]
        text, number = (root_str(cell), spreadsheet_root(cell)) if column.kind == ROOT else \
            (fraction_str(cell), spreadsheet_number(cell))
        return [("text", text), ("blank", None) if number is None else ("number", number)]
    if cell is None:
        return [("blank", None)]
    if isinstance(cell, str):
        return [("text", cell)]
    return [("number", cell) if abs(cell) < EXACT_INT_LIMIT else ("text", str(cell))]


def _check(status: int, row: int, col: int) -> None:
    if status == -1:
        raise ValueError(f"cell ({row}, {col}) is beyond a worksheet's 1,048,576 rows or 16,384 columns")
    if status == -2:
        raise ValueError(f"cell ({row}, {col}): text over 32,767 characters does not fit a cell")
