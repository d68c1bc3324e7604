"""`analyzer sweep`: analyse a list of rule files (e.g. a paytable grid) and write one comparison table.

Each rule file is analysed with the same executor (local processes or a Dask cluster) and
written to its own results folder; the comparison table puts every rule set's key figures
side by side, as exact fractions with their decimals.
"""
from __future__ import annotations

import tomllib
from importlib import import_module
from pathlib import Path

from analyzer.errors import InputError
from analyzer.exact import decimal_str, fraction_str
from analyzer.output import write_atomically
from analyzer.rules import RuleError
from analyzer.tables import csv_text, markdown_table

GAME_MODULES = {"baccarat": "analyzer.baccarat", "casino-holdem": "analyzer.casino_holdem",
                "caribbean-stud": "analyzer.caribbean_stud"}


def game_of(path: Path) -> str:
    """The game a rule file is for (its [game].game), refused with a clear error when unknown."""
    try:
        game = tomllib.loads(path.read_text())["game"]["game"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        raise RuleError(str(path), "game.game", "cannot tell which game this rule file is for") from None
    if game not in GAME_MODULES:
        raise RuleError(str(path), "game.game", f"unknown game {game!r} (one of {', '.join(GAME_MODULES)})")
    return game


def run(paths, out_root="results", name="sweep", executor=None, progress=None, checks=None, argv=None) -> Path:
    """Analyse every rule file; write <out>/sweeps/<name>/comparison.{md,csv}; return that folder."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("sweep needs at least one rule file")
    games = [game_of(path) for path in paths]                     # refuse bad files before any work
    rows = []
    for path, game in zip(paths, games):
        module = import_module(GAME_MODULES[game])
        rule_file, rules = module.load_rules(path)
        analysis = module.analyse(rule_file, rules, executor=executor, progress=progress)
        options = {} if checks is None else {"checks": checks}
        module.write_results(analysis, out_root, argv, progress=progress, **options)
        for label, value, note in module.report_content(analysis).key_figures:
            rows.append([game, rule_file.name, path.name, label, fraction_str(value), decimal_str(value), note])
    folder = Path(out_root) / "sweeps" / name
    folder.mkdir(parents=True, exist_ok=True)
    headers = ["game", "rule set", "rule file", "figure", "exact", "decimal", "note"]
    write_atomically(folder / "comparison.csv", csv_text(headers, rows).encode())
    write_atomically(folder / "comparison.md", (f"# Sweep {name}: {len(paths)} rule files\n\n"
                                                + markdown_table(headers, rows, "lllllrl")).encode())
    return folder
