"""What a game-protection scenario hands to publishing: its figures (exact, or estimates with an interval), its
tables and its method, as data; and the published anchors a leak's figures are set beside.

A game's `protect` describes one leak as a `Leak`; `analyzer.publish.protect` writes its folder and the rule
set's protection report from it.  An exact figure is a Fraction; an estimate (sampled deals) is any object
with `mean`, `interval()` and `half_width()` (`analyzer.poker.collusion.Estimate`), never shown as exact.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from analyzer.core.errors import InvariantError
from analyzer.core.exact import to_fraction

EDGE = "player_edge"             # the headline figure every leak reports: the player's edge per unit (ANTE, bet)


@dataclass(frozen=True)
class LeakFigure:
    """One figure of a leak: its JSON key, its words, and either an exact value or an estimate."""

    key: str
    label: str
    exact: Fraction | None = None
    estimate: object = None      # an estimate: mean, interval(), half_width() (99.9%)
    headline: bool = False       # listed in the rule set's table of leaks (beside its anchor, if any)

    def __post_init__(self):
        if (self.exact is None) == (self.estimate is None):
            raise InvariantError(f"figure {self.key!r}: give an exact value or an estimate, one of them")
        if self.exact is not None and type(self.exact) is not Fraction:
            object.__setattr__(self, "exact", Fraction(self.exact))


@dataclass(frozen=True)
class Leak:
    """One scenario of one rule set: what leaks, what it is worth, how it was computed."""

    game: str                    # the registry name
    scenario: str                # its folder name, e.g. "dealer-cards-1", "colluders-4", "best-grouping"
    kind: str                    # the report's group: "dealer-cards", "colluders", "edge-sort", "best-grouping"
    title: str                   # one line, e.g. "1 dealer hole card seen besides the up card"
    parameters: dict             # the scenario's options as given (JSON values)
    figures: tuple               # LeakFigure
    method: str                  # Markdown: how it was counted or sampled
    notes: tuple = ()            # lines the reader must know (e.g. "the AA Bonus is unchanged")
    tables: tuple = ()           # (title, analyzer.figures.tables.Table): the scenario's detail


@dataclass(frozen=True)
class Anchor:
    """A published figure (rounded, from a simulation or an unstated method) to set an exact one beside."""

    scenario: str                # the scenario folder it belongs to
    figure: str                  # the figure's key, e.g. EDGE
    published: Fraction          # as a fraction of one unit (5.23% -> 523/10000)
    text: str                    # as published, e.g. "-5.23%"
    source: str
    note: str = ""


@dataclass(frozen=True)
class Anchors:
    """A game's published anchors, what they were published for, and lines of context where nothing is
    published for its leaks."""

    entries: tuple = ()
    about: str = ""
    context: tuple = ()


def load_anchors(path: Path) -> Anchors:
    """The anchors of a game's `protection_anchors.toml`: [[anchor]] tables (scenario, figure (default the
    player's edge), published as a percentage, source, note), `about` and a `context` list.  No file: none."""
    if not path.is_file():
        return Anchors()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = tuple(Anchor(entry["scenario"], entry.get("figure", EDGE),
                           to_fraction(entry["published"].rstrip("%")) / 100, entry["published"], entry["source"],
                           entry.get("note", "")) for entry in data.get("anchor", ()))
    return Anchors(entries, data.get("about", ""), tuple(data.get("context", ())))
