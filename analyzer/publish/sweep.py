"""`analyzer sweep`: analyse a list of rule files (e.g. a paytable grid) and write one comparison table.

Rule sets of one game that share a count are counted once and priced each; their key figures
stand side by side as exact fractions with decimals (Markdown, CSV, a workbook sheet).  With
`publish`, each rule set's full results folder is written too.
"""
from __future__ import annotations

from pathlib import Path

from analyzer.core.errors import InputError
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
    """Analyse every rule file; write <out>/sweeps/<name>/comparison.{md,csv,xlsx}, swapped in whole; return
    that folder.  Everything (rule files, repeats, output folders) is checked before any work."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("sweep needs at least one rule file")
    check_folder_name(name, lambda problem: InputError(f"--name {problem}"))
    folder = Path(run.out_root) / "sweeps" / name
    check_folder(folder)
    by_game: dict = {}
    for path in paths:
        by_game.setdefault(game_of(path).name, []).append(path)
    figures = []
    for game, loaded in pipeline.prepare([(registry.game(g), ps) for g, ps in by_game.items()], run):
        for rule_file, analysis in pipeline.analyse(game, None, run, loaded, publishing=publish):
            if publish:
                pipeline.publish(game, rule_file, analysis, run)
            figures += [[game.name, rule_file.name, rule_file.path.name, k.label, k.value, k.note]
                        for k in game.module.key_figures(analysis)]
    table = Table(["game", "rule set", "rule file", "figure", ("value", "exact"), "note"], figures)
    rows = table.text_rows()               # under HEADERS: the value's "p/q", then its decimal
    return write_folder_atomically(folder, {
        "comparison.csv": csv_text(HEADERS, rows).encode(),
        "comparison.md": (f"# Sweep {name}: {len(paths)} rule files\n\n" + markdown_table(HEADERS, rows, "lllllrl")).encode(),
        "comparison.xlsx": workbook_bytes([Sheet("comparison", table)])})
