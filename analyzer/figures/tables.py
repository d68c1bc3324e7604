"""Tables of figures: plain Markdown and CSV text, and `Table`, one definition of exact columns rendered alike.

A `Table` is columns and rows of raw cells.  A *value* column holds int, str or None; an
*exact* column "EV" (Fraction, int or None) renders as "EV (exact)" ("p/q") beside "EV" (its
decimal); a *root* column holds x >= 0 standing for sqrt(x), rendered "sqrt(p/q)" beside the
root's decimal.  Floats are refused everywhere.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from analyzer.core.exact import DECIMAL_PLACES, decimal_str, fraction_str
from analyzer.core.roots import sqrt_decimal_str


def markdown_table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    """A GitHub-flavoured Markdown table; `align` is one letter per column (l, r)."""
    align = align or "l" + "r" * (len(headers) - 1)
    marks = {"l": "---", "r": "---:"}
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def csv_text(headers: list[str], rows: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([headers, *rows])
    return buffer.getvalue()


def thousands(n: int) -> str:
    """An integer with thousands separators: 4,998,398,275,503,360."""
    return f"{n:,}"


def demote(markdown: str) -> str:
    """A sheet's body under a level-2 heading: its title line dropped, its headings one level down.

    >>> demote("# Title\\n## Part\\ntext")
    '### Part\\ntext'
    """
    lines = markdown.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join("#" + line if line.startswith("#") else line for line in lines)


# --- exact tables ---------------------------------------------------------------------------

VALUE = "value"
EXACT = "exact"
ROOT = "root"                 # an exact x >= 0 standing for sqrt(x)
KINDS = (VALUE, EXACT, ROOT)
EXPANDED = (EXACT, ROOT)      # kinds rendered as two columns: the exact text, then the decimal


@dataclass(frozen=True)
class Column:
    """One column of a table: a title and a kind (VALUE, EXACT or ROOT)."""

    title: str
    kind: str = VALUE

    def __post_init__(self):
        if not isinstance(self.title, str) or not self.title:
            raise ValueError(f"a column title must be a non-empty string, not {self.title!r}")
        if self.kind not in KINDS:
            raise ValueError(f"column {self.title!r}: kind must be one of {KINDS}, not {self.kind!r}")

    @classmethod
    def of(cls, spec) -> "Column":
        """A Column from its spec: "Title" (a value column), ("Title", kind) or a Column."""
        if isinstance(spec, Column):
            return spec
        if isinstance(spec, str):
            return cls(spec)
        if isinstance(spec, tuple) and len(spec) == 2:
            return cls(*spec)
        raise ValueError(f"a column is a title or a (title, kind) pair, not {spec!r}")

    def headers(self) -> list[str]:
        """The rendered column titles: one, or for an exact or root column "T (exact)" then "T"."""
        return [f"{self.title} (exact)", self.title] if self.kind in EXPANDED else [self.title]

    def check(self, cell) -> None:
        """Raise TypeError unless `cell` may stand in this column (ValueError for a negative root)."""
        if self.kind == ROOT and isinstance(cell, (int, Fraction)) and not isinstance(cell, bool) and cell < 0:
            raise ValueError(f"column {self.title!r}: the square root of {cell} is not real")
        allowed = (int, str) if self.kind == VALUE else (int, Fraction)
        if cell is None or isinstance(cell, allowed) and not isinstance(cell, bool):
            return
        if self.kind == VALUE and isinstance(cell, Fraction):
            raise TypeError(f"column {self.title!r}: a Fraction needs an exact column, "
                            f"({self.title!r}, {EXACT!r})")
        raise TypeError(f"column {self.title!r} ({self.kind}): {cell!r} is not an exact cell "
                        f"(int, {'str' if self.kind == VALUE else 'Fraction'} or None)")


@dataclass(frozen=True, init=False)
class Table:
    """Columns (specs for Column.of) and rows of raw cells, checked on construction: ValueError for a row
    of the wrong length, TypeError for a cell its column does not take."""

    columns: tuple[Column, ...]
    rows: tuple[tuple, ...]

    def __init__(self, columns: Iterable, rows: Iterable[Sequence]):
        columns = tuple(Column.of(spec) for spec in columns)
        if not columns:
            raise ValueError("a table needs at least one column")
        titles = [title for column in columns for title in column.headers()]
        if len(set(titles)) != len(titles):
            raise ValueError(f"column titles repeat: {titles}")
        checked = []
        for number, row in enumerate(rows, start=1):
            row = tuple(row)
            if len(row) != len(columns):
                raise ValueError(f"row {number} has {len(row)} cells for {len(columns)} columns")
            for column, cell in zip(columns, row):
                column.check(cell)
            checked.append(row)
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "rows", tuple(checked))

    def headers(self) -> list[str]:
        """The rendered header row (exact columns expanded to two)."""
        return [title for column in self.columns for title in column.headers()]

    def text_rows(self, places: int = DECIMAL_PLACES) -> list[list[str]]:
        """Every cell as text: ints in full, exact values as "p/q" then a decimal to `places`."""
        return [[text for column, cell in zip(self.columns, row) for text in _texts(column, cell, places)]
                for row in self.rows]

    def markdown(self, places: int = DECIMAL_PLACES) -> str:
        """A GitHub-flavoured Markdown table (markdown_table above)."""
        return markdown_table(self.headers(), self.text_rows(places))

    def csv(self, places: int = DECIMAL_PLACES) -> str:
        """CSV text with a header line (csv_text above)."""
        return csv_text(self.headers(), self.text_rows(places))


def root_str(value) -> str:
    """The exact text of a root cell: "sqrt(p/q)"."""
    return f"sqrt({fraction_str(value)})"


def _texts(column: Column, cell, places: int) -> list[str]:
    if cell is None:
        return [""] * len(column.headers())
    if column.kind == EXACT:
        return [fraction_str(cell), decimal_str(cell, places)]
    if column.kind == ROOT:
        return [root_str(cell), sqrt_decimal_str(Fraction(cell), places)]
    return [str(cell)]
