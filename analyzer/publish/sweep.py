"""`analyzer sweep`: analyse a list of rule files (e.g. a paytable grid) and write one comparison table.

Each rule file goes through the pipeline: rule sets of one game that share a count are
counted once (or read from the count cache) and priced each.  The comparison table puts
every rule set's key figures, read from the analyses in memory, side by side as exact
fractions with their decimals (Markdown, CSV and a workbook sheet).  With `publish`, each
rule set's full results folder is written too (verified, with its report and strategy
files); without it a sweep costs one enumeration and one pricing per rule file.
"""
from __future__ import annotations

from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, fraction_str
from analyzer.core.rules import RuleError, check_folder_name, read_toml
from analyzer.figures.tables import Table, csv_text, markdown_table
from analyzer.games import registry
from analyzer.publish import pipeline
from analyzer.publish.folder import check_folder, write_folder_atomically
from analyzer.publish.workbook import Sheet, workbook_bytes

HEADERS = ["game", "rule set", "rule file", "figure", "exact", "decimal", "note"]


def game_of(path: Path) -> registry.Game:
    """The game a rule file is for (its [game].game), refused with a clear error when unknown."""
    _, document = read_toml(path, RuleError)
    header = document.get("game")
    name = header.get("game") if isinstance(header, dict) else None
    if not isinstance(name, str):
        raise RuleError(str(path), "game.game", "cannot tell which game this rule file is for")
    if name not in registry.names():
        raise RuleError(str(path), "game.game", f"unknown game {name!r} (one of {', '.join(registry.names())})")
    return registry.game(name)


def run(paths, name: str, run: pipeline.Run, publish: bool = False) -> Path:
    """Analyse every rule file; write <out>/sweeps/<name>/comparison.{md,csv,xlsx} (the folder swapped in
    whole: a sweep stopped early leaves the previous one as it was); return that folder.

    Everything is checked before any work (`pipeline.prepare`): each rule file, the same
    file given twice, two files naming one rule set, the output folders, the sweep's own
    (`folder.check_folder`).  Rule files of one game that share a deck and qualifier are
    counted once (and the count cache serves later sweeps): a grid of paytables costs one
    enumeration and one pricing each.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("sweep needs at least one rule file")
    check_folder_name(name, lambda problem: InputError(f"--name {problem}"))
    folder = Path(run.out_root) / "sweeps" / name
    check_folder(folder)
    by_game: dict = {}
    for path in paths:
        by_game.setdefault(game_of(path).name, []).append(path)
    rows, figures = [], []
    for game, loaded in pipeline.prepare([(registry.game(g), ps) for g, ps in by_game.items()], run):
        for rule_file, analysis in pipeline.analyse(game, None, run, loaded, publishing=publish):
            if publish:
                pipeline.publish(game, rule_file, analysis, run)
            for k in game.module.key_figures(analysis):
                rows.append([game.name, rule_file.name, rule_file.path.name, k.label, fraction_str(k.value),
                             decimal_str(k.value), k.note])
                figures.append([game.name, rule_file.name, rule_file.path.name, k.label, k.value, k.note])
    table = Table(["game", "rule set", "rule file", "figure", ("value", "exact"), "note"], figures)
    return write_folder_atomically(folder, {
        "comparison.csv": csv_text(HEADERS, rows).encode(),
        "comparison.md": (f"# Sweep {name}: {len(paths)} rule files\n\n" + markdown_table(HEADERS, rows, "lllllrl")).encode(),
        "comparison.xlsx": workbook_bytes([Sheet("comparison", table)])})
