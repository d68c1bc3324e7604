"""Plain-text tables for PAR sheets: Markdown and CSV, deterministic byte for byte."""
from __future__ import annotations

import csv
import io


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
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buffer.getvalue()


def thousands(n: int) -> str:
    """An integer with thousands separators.

    >>> thousands(4998398275503360)
    '4,998,398,275,503,360'
    """
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
