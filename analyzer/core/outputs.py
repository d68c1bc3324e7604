"""What a game's analysis hands to publishing: its summary, its files, its report content, as data.

Games describe their outputs; `analyzer.publish` writes, renders and verifies them.  A
figure is described by its data and the name of a renderer in `analyzer.publish.plots`,
so no game module imports matplotlib.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

MANIFEST_NAME = "manifest.json"       # in every results folder: the sha256 of every file (analyzer.publish.folder)
RULES_COPY_NAME = "rules.toml"        # the rule file analysed, byte for byte
WORKBOOK_NAME = "par_sheet.xlsx"      # the PAR workbook: the game's sheets, then the rules analysed


@dataclass(frozen=True)
class Figure:
    """A report figure: its file name, caption, and the data `analyzer.publish.plots.render` draws."""

    file: str
    caption: str
    kind: str                    # the renderer's name in analyzer.publish.plots.RENDERERS
    data: dict


@dataclass(frozen=True)
class KeyFigure:
    """One headline figure: what it is, its exact value, and how to read it (e.g. the published one)."""

    label: str
    value: Fraction
    note: str = ""


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
    """One rule set's results: summary.json's content, the other files (name -> bytes or text), the report,
    and the PAR workbook's sheets ((name, analyzer.core.tables.Table), in order; the publisher adds the rules)."""

    summary: dict
    files: dict
    report: ReportContent
    sheets: list = field(default_factory=list)
