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
    """One rule set's results: summary.json's content, the other files, the report.

    `files` maps each name to its bytes or text, or to a function of no arguments that
    returns them: the pipeline calls it when it writes the file (so each output is
    rendered once, when needed, and timed on its own).
    """

    summary: dict
    files: dict
    report: ReportContent
