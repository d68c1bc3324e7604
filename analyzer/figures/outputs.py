"""What a game's analysis hands to publishing: its summary, its files, its report content, as data.

Games describe their outputs; `analyzer.publish` writes, renders and verifies them.  A
figure is described by its data and the name of a renderer in `analyzer.publish.plots`,
so no game module imports matplotlib.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction


WORKBOOK_NAME = "par_sheet.xlsx"      # the PAR workbook: the game's sheets, then the rules analysed


@dataclass(frozen=True)
class Figure:
    """A report figure: its file name, caption, and the data `analyzer.publish.plots.render` draws."""

    file: str
    caption: str
    kind: str                    # the renderer's name in analyzer.publish.plots.RENDERERS
    data: dict                   # its arguments; a function of no arguments stands for a value made when drawn


@dataclass(frozen=True)
class KeyFigure:
    """One headline figure: what it is, its exact value, and how to read it (e.g. the published one)."""

    label: str
    value: Fraction
    note: str = ""


def summary_head(game: str, rule_file) -> dict:
    """What every summary.json opens with: its format, the game, the rule set and its title."""
    return {"format": "analyzer-summary/1", "game": game, "rule_set": rule_file.name, "title": rule_file.title}


def published_note(published: dict, key: str) -> str:
    """A key figure's note: the published value of `key` in the rule file's [published], if it gives one."""
    return f"published {published[key]}" if key in published else ""


@dataclass
class ReportContent:
    """What only the game knows of its report; the rest (rules, every summary figure,
    verification, provenance) is added by `analyzer.publish.report`."""

    key_figures: list            # KeyFigure
    method: str                  # Markdown
    strategy: str                # Markdown
    par_sheet: str               # Markdown (its own headings are demoted)
    figures: list = field(default_factory=list)    # Figure


@dataclass
class Outputs:
    """One rule set's results: summary.json's content, the other files, the report, the workbook's sheets.

    `files` maps each name to bytes, text or a function of no arguments making them (called when
    the file is written); `summary` and `sheets` ((name, Table) in order) may be such functions too.
    `strategy_columns`: the arrays the strategy files were written from, for the verification.
    """

    summary: dict | Callable[[], dict]
    files: dict
    report: ReportContent
    sheets: list | Callable[[], list] = field(default_factory=list)
    strategy_columns: dict = field(default_factory=dict)
