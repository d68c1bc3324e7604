"""Reproducible workbooks (analyzer.publish.workbook) and the tables they print (analyzer.figures.tables).

Workbooks are read back with openpyxl, an independent reader.
"""
import hashlib
import io
import os
import subprocess
import sys
import zipfile
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from analyzer.core.exact import fraction_str
from analyzer.figures.tables import EXACT, Column, Table
from analyzer.publish.workbook import (EXACT_INT_LIMIT, Sheet, SheetNameError, check_sheet_name,
                                       spreadsheet_number, workbook_bytes)

openpyxl = pytest.importorskip("openpyxl")
xlsxwriter = pytest.importorskip("xlsxwriter")

ROOT = Path(__file__).resolve().parents[2]
EXACT_VALUES = [F(1, 3), F(-7, 9), F(0), F(5), F(1, 10**12), F(123456789, 1000), F(2, 3) * 10**20,
                F(-1, 2598960), F(10**15 + 1, 7)]
INTS = [0, 1, -1, 42, EXACT_INT_LIMIT - 1, -(EXACT_INT_LIMIT - 1), EXACT_INT_LIMIT, -EXACT_INT_LIMIT,
        4998398275503360, 2**70]


def sample_sheets():
    values = Table(["Label", ("EV", EXACT), "Count"],
                   [[f"row {i}", value, n] for i, (value, n) in enumerate(zip(EXACT_VALUES, INTS))])
    texts = Table(["Text", "Number"], [["=1+1", 1], ["007", None], ["http://example.com", 2],
                                       ["p/q", -3], [None, None], ["Ünïcødé ♠♥", 5]])
    return [Sheet("Values", values), ("Texts", texts.columns, texts.rows)]


def read(data: bytes):
    return openpyxl.load_workbook(io.BytesIO(data))


def rounded_15(value: F) -> Decimal:
    """The exact value rounded half away from zero to 15 significant digits (a Decimal reference)."""
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        if exact == 0:
            return Decimal(0)
        return exact.quantize(Decimal(1).scaleb(exact.adjusted() - 14), rounding=ROUND_HALF_UP)


def test_two_runs_are_byte_identical():
    assert workbook_bytes(sample_sheets()) == workbook_bytes(sample_sheets())


def test_bytes_do_not_depend_on_the_process():
    """Two fresh interpreters with different hash seeds write the same bytes as this one."""
    script = ("import hashlib, sys; sys.path.insert(0, sys.argv[1]); import tests.publish.test_workbook as t; "
              "from analyzer.publish.workbook import workbook_bytes; "
              "print(hashlib.sha256(workbook_bytes(t.sample_sheets())).hexdigest())")
    digests = {hashlib.sha256(workbook_bytes(sample_sheets())).hexdigest()}
    for seed in ("1", "2"):
        result = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True,
                                env=dict(os.environ, PYTHONHASHSEED=seed), cwd=ROOT, check=True)
        digests.add(result.stdout.strip())
    assert len(digests) == 1


def test_document_date_fixed_and_overridable():
    data = workbook_bytes(sample_sheets())
    core = zipfile.ZipFile(io.BytesIO(data)).read("docProps/core.xml").decode()
    assert core.count("2000-01-01T00:00:00Z") == 2            # created and modified, not "now"
    assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in zipfile.ZipFile(io.BytesIO(data)).infolist())
    assert read(data).properties.created.year == 2000
    titled = workbook_bytes(sample_sheets(), {"title": "PAR sheet"})
    assert read(titled).properties.title == "PAR sheet"
    assert titled != workbook_bytes(sample_sheets())
    with pytest.raises(TypeError):
        workbook_bytes(sample_sheets(), {"created": "today"})


def test_exact_columns_read_back():
    sheet = read(workbook_bytes(sample_sheets()))["Values"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("Label", "EV (exact)", "EV", "Count")
    for (label, text, number, count), value, n in zip(rows[1:], EXACT_VALUES, INTS):
        assert text == fraction_str(value)                 # the exact value, as text
        assert isinstance(number, (int, float))
        assert number == spreadsheet_number(value) == float(rounded_15(value))
        assert abs(F(number) - value) <= abs(value) * F(1, 10**14)
        if abs(n) < EXACT_INT_LIMIT:
            assert count == n and isinstance(count, int)   # a number cell, exact
        else:
            assert count == str(n)                         # too long for 15 digits: text


def test_cell_types_in_the_file():
    sheet = read(workbook_bytes(sample_sheets()))["Values"]
    for row in sheet.iter_rows(min_row=2):
        assert row[1].data_type == "s" and row[2].data_type == "n"
        assert row[3].data_type == ("n" if isinstance(row[3].value, int) else "s")


def test_text_is_never_a_formula_number_or_link():
    sheet = read(workbook_bytes(sample_sheets()))["Texts"]
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert [row[0] for row in rows] == ["=1+1", "007", "http://example.com", "p/q", None, "Ünïcødé ♠♥"]
    assert all(cell.data_type == "s" for cell in sheet["A"][1:5])
    assert not sheet._hyperlinks
    assert rows[1][1] is None and rows[4] == (None, None)


def test_none_in_an_exact_column_leaves_both_cells_empty():
    data = workbook_bytes([Sheet("S", [("P", EXACT)], [[None], [F(1, 2)]])])
    assert list(read(data)["S"].iter_rows(values_only=True)) == [("P (exact)", "P"), (None, None), ("1/2", 0.5)]


def test_layout_header_bold_frozen_widths():
    sheet = read(workbook_bytes(sample_sheets()))["Values"]
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.b for cell in sheet[1])
    assert not sheet["A2"].font.b
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABCD"}
    assert all(width >= 8 for width in widths.values())
    assert widths["B"] > widths["A"]                      # "10000000000000000000/..." is wider than "row 1"


def test_sheet_names_and_order_kept():
    names = ["Summary", "Net distribution", "x" * 31, "Ünïcødé", "Settling (95%)"]
    data = workbook_bytes([Sheet(name, ["A"], [[1]]) for name in names])
    assert read(data).sheetnames == names


@pytest.mark.parametrize("name", ["x" * 32, "a[b", "a]b", "a:b", "a*b", "a?b", "a/b", "a\\b", "'quoted", "end'", ""])
def test_sheet_names_a_spreadsheet_refuses(name):
    with pytest.raises(SheetNameError):
        check_sheet_name(name)
    with pytest.raises(SheetNameError):
        workbook_bytes([(name, ["A"], [[1]])])
    if name:                                               # xlsxwriter itself refuses each one too
        with pytest.raises(Exception):
            book = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
            try:
                book.add_worksheet(name)
            finally:
                book.close()


def test_sheet_name_errors_say_why():
    with pytest.raises(SheetNameError, match="32 characters: at most 31"):
        check_sheet_name("y" * 32)
    with pytest.raises(SheetNameError, match=r"contains '\?'"):
        check_sheet_name("EV?")
    with pytest.raises(SheetNameError, match="repeats 'Summary'"):
        workbook_bytes([("Summary", ["A"], []), ("SUMMARY", ["A"], [])])
    with pytest.raises(ValueError, match="at least one sheet"):
        workbook_bytes([])


@pytest.mark.parametrize("columns, row, error", [
    (["A"], [0.5], TypeError),                  # a float anywhere
    ([("A", EXACT)], [0.5], TypeError),
    (["A"], [F(1, 2)], TypeError),              # a Fraction needs an exact column
    ([("A", EXACT)], ["1/2"], TypeError),       # text in an exact column
    (["A"], [True], TypeError),
    (["A", "B"], [1], ValueError),              # wrong length
])
def test_bad_cells_refused(columns, row, error):
    with pytest.raises(error):
        Table(columns, [row])


def test_bad_columns_refused():
    with pytest.raises(ValueError, match="kind"):
        Column("A", "decimal")
    with pytest.raises(ValueError, match="repeat"):
        Table([("EV", EXACT), "EV"], [])
    with pytest.raises(ValueError):
        Table([], [])


def test_huge_and_tiny_values_get_text_only():
    assert spreadsheet_number(F(10**400)) is None and spreadsheet_number(F(1, 10**400)) is None
    data = workbook_bytes([Sheet("S", [("V", EXACT)], [[F(10**400)], [F(-1, 10**400)]])])
    rows = list(read(data)["S"].iter_rows(min_row=2, values_only=True))
    assert rows == [(fraction_str(F(10**400)), None), (fraction_str(F(-1, 10**400)), None)]


@settings(max_examples=300, deadline=None, database=None)
@given(st.fractions(min_value=-10**18, max_value=10**18, max_denominator=10**18))
def test_spreadsheet_number_is_the_15_digit_rounding(value):
    number = spreadsheet_number(value)
    assert number == float(rounded_15(value))
    # what xlsxwriter writes (16 significant digits) reads back as the same float
    assert float(f"{number:.16G}") == number


def test_table_text_renderings():
    table = Table(["Outcome", ("P", EXACT), "Count"], [["win", F(1, 3), 10**16], ["none", None, None]])
    assert table.headers() == ["Outcome", "P (exact)", "P", "Count"]
    assert table.text_rows(3) == [["win", "1/3", "0.333", "10000000000000000"], ["none", "", "", ""]]
    assert table.markdown(3).splitlines()[2] == "| win | 1/3 | 0.333 | 10000000000000000 |"
    assert table.csv(3).splitlines() == ["Outcome,P (exact),P,Count", "win,1/3,0.333,10000000000000000",
                                         "none,,,"]


def spreadsheet_number_reference(value):
    """spreadsheet_number as first written, in Fractions (the integer version is tested against it)."""
    value = F(value)
    if value == 0:
        return 0.0
    magnitude = abs(value)
    exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))
    if magnitude < F(10) ** exponent:
        exponent -= 1
    if not -307 <= exponent < 308:
        return None
    shift = F(10) ** (14 - exponent)
    digits, remainder = divmod(magnitude * shift, 1)
    if 2 * remainder >= 1:
        digits += 1
    rounded = F(int(digits)) / shift
    if rounded >= F(10) ** 308:
        return None
    number = float(rounded)
    return -number if value < 0 else number


def spreadsheet_root_reference(value):
    """spreadsheet_root as first written, in Fractions."""
    import math
    value = F(value)
    if value == 0:
        return 0.0
    exponent = len(str(value.numerator)) - len(str(value.denominator))
    if value < F(10) ** exponent:
        exponent -= 1
    root_exponent = exponent // 2
    if not -307 <= root_exponent < 308:
        return None
    shift = F(10) ** (14 - root_exponent)
    scaled = 4 * value * shift * shift
    digits = (math.isqrt(scaled.numerator // scaled.denominator) + 1) // 2
    rounded = F(digits) / shift
    if rounded >= F(10) ** 308:
        return None
    return float(rounded)


EDGE_VALUES = [F(1), F(10**15), F(10**15 - 1), F(10**308), F(10**308 - 1), F(10**307), F(1, 10**307), F(1, 10**308),
               F(999999999999999949, 10**17), F(9999999999999995, 10**16), F(99999999999999995, 10**16) * 10**307,
               F(10**400), F(1, 10**400), F(2), F(1, 4), F(10**30), F(10**616 - 1), F(10**615)]


@settings(max_examples=2000, deadline=None, database=None)
@given(st.integers(1, 10**40), st.integers(1, 10**40), st.integers(-330, 330), st.booleans())
def test_spreadsheet_numbers_equal_the_fraction_reference(numerator, denominator, exponent, negative):
    from analyzer.publish.workbook import spreadsheet_root
    value = F(numerator, denominator) * F(10) ** exponent
    assert spreadsheet_root(value) == spreadsheet_root_reference(value)
    value = -value if negative else value
    assert spreadsheet_number(value) == spreadsheet_number_reference(value)


@pytest.mark.parametrize("value", EDGE_VALUES)
def test_spreadsheet_numbers_at_the_edges(value):
    from analyzer.publish.workbook import spreadsheet_root
    assert spreadsheet_number(value) == spreadsheet_number_reference(value)
    assert spreadsheet_number(-value) == spreadsheet_number_reference(-value)
    assert spreadsheet_root(value) == spreadsheet_root_reference(value)
