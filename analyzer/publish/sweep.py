"""`analyzer sweep`: analyse a list of rule files (e.g. a paytable grid) and write one comparison table.

Each rule file goes through the pipeline: rule sets of one game that share a count are
counted once (or read from the count cache) and priced each.  The comparison table puts
every rule set's key figures, read from the analyses in memory, side by side as exact
fractions with their decimals (Markdown, CSV and a workbook sheet).  With `publish`, each
rule set's full results folder is written too (verified, with its report and strategy
files); without it a sweep costs one enumeration and one pricing per rule file.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, fraction_str
from analyzer.core.rules import RuleError
from analyzer.core.tables import csv_text, markdown_table
from analyzer.games import registry
from analyzer.core.tables import Table
from analyzer.publish import pipeline
from analyzer.publish.folder import write_atomically
from analyzer.publish.workbook import Sheet, workbook_bytes

HEADERS = ["game", "rule set", "rule file", "figure", "exact", "decimal", "note"]


def game_of(path: Path) -> registry.Game:
    """The game a rule file is for (its [game].game), refused with a clear error when unknown."""
    try:
        name = tomllib.loads(path.read_text(encoding="utf-8-sig"))["game"]["game"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        raise RuleError(str(path), "game.game", "cannot tell which game this rule file is for") from None
    if name not in registry.BY_NAME:
        raise RuleError(str(path), "game.game", f"unknown game {name!r} (one of {', '.join(registry.names())})")
    return registry.game(name)


def run(paths, name: str, run: pipeline.Run, publish: bool = False) -> Path:
    """Analyse every rule file; write <out>/sweeps/<name>/comparison.{md,csv,xlsx}; return that folder.

    Rule files of one game that share a deck and qualifier are counted once (and the count
    cache serves later sweeps): a grid of paytables costs one enumeration and one pricing each.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("sweep needs at least one rule file")
    by_game: dict = {}
    for path in paths:                                        # refuse bad files before any work
        game = game_of(path)
        game.load_rules(path)
        by_game.setdefault(game.name, []).append(path)
    rows, figures = [], []
    for game_name, game_paths in by_game.items():
        game = registry.game(game_name)
        for rule_file, analysis in pipeline.analyse(game, game_paths, run):
            if publish:
                pipeline.publish(game, rule_file, analysis, run)
            for k in game.module.key_figures(analysis):
                rows.append([game.name, rule_file.name, rule_file.path.name, k.label, fraction_str(k.value),
                             decimal_str(k.value), k.note])
                figures.append([game.name, rule_file.name, rule_file.path.name, k.label, k.value, k.note])
    folder = Path(run.out_root) / "sweeps" / name
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / "comparison.csv", csv_text(HEADERS, rows).encode())
    write_atomically(folder / "comparison.md", (f"# Sweep {name}: {len(paths)} rule files\n\n"
                                                + markdown_table(HEADERS, rows, "lllllrl")).encode())
    table = Table(["game", "rule set", "rule file", "figure", ("value", "exact"), "note"], figures)
    write_atomically(folder / "comparison.xlsx", workbook_bytes([Sheet("comparison", table)]))
    return folder
