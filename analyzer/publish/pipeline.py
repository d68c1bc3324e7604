"""The one path every game follows: rule files -> count -> analyse -> outputs -> verified, published folder.

Rule sets that share the fields their counts depend on (`game.count_fields`: the deck,
the qualifier, the shoe and tableau) are counted once; each rule set is then priced and
analysed on that count, its outputs are written into a staging folder, verified there,
given their report, and published atomically.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.core import timing
from analyzer.core.errors import InvariantError
from analyzer.games.registry import Game
from analyzer.publish import report, verify
from analyzer.publish.folder import ResultFolder, json_bytes
from analyzer.publish.options import CheckOptions


@dataclass
class Published:
    """One analysed rule set: its analysis (in memory) and where its folder was published."""

    game: Game
    rule_file: object
    analysis: object
    folder: Path


@dataclass
class Run:
    """What `run` was asked to do: where, how hard to check, on which executor, with which game options."""

    out_root: Path
    argv: list | None = None
    checks: CheckOptions = field(default_factory=CheckOptions)
    executor: object = None
    progress: object = None
    options: dict = field(default_factory=dict)     # the game's own options (e.g. aa_ratio)


def analyse(game: Game, rule_paths, run: Run) -> list:
    """(rule file, analysis) of every rule file (default: the game's built-in ones), counting once per count key."""
    loaded = [game.load_rules(path) for path in (rule_paths or game.builtin_rule_paths)]   # refuse bad files first
    counts = {}
    analyses = []
    for rule_file, rules in loaded:
        key = json.dumps(game.module.count_fields(rules), sort_keys=True)
        if key not in counts:
            with timing.stage(f"{game.name} count"):
                counts[key] = game.module.count(rules, run.executor, run.progress)
        with timing.stage(f"{game.name} {rule_file.name} analyse"):
            analyses.append((rule_file, game.module.analyse(rule_file, rules, counts[key], **run.options)))
    return analyses


def publish(game: Game, rule_file, analysis, run: Run) -> Path:
    """Write one analysis's results folder: staged, verified, reported, then swapped in."""
    where = f"{game.name} {rule_file.name}"
    with timing.stage(f"{where} outputs"):
        outputs = game.module.outputs(analysis)
        folder = ResultFolder(run.out_root, game.name, game.folder, rule_file, run.argv)
        folder.add("summary.json", json_bytes(outputs.summary))
        for name, data in outputs.files.items():
            with timing.stage(name):
                folder.add(name, data() if callable(data) else data)

    def finish(staging: Path) -> dict:
        with timing.stage("verify"):
            verification = verify.verify_folder(staging, run.checks, run.progress)
        if not verification.passed:
            failures = "; ".join(c.line() for c in verification.checks if not c.passed)
            raise InvariantError(f"verification failed before publishing {folder.target}: {failures}")
        with timing.stage("report"):
            return report.build(outputs.report, folder, outputs.summary, verification)
    with timing.stage(f"{where} publish"):
        return folder.publish(finish)


def run_game(game: Game, rule_paths, run: Run) -> list[Published]:
    """Analyse and publish every rule file (default: the game's built-in rule sets)."""
    try:
        return [Published(game, rule_file, analysis, publish(game, rule_file, analysis, run))
                for rule_file, analysis in analyse(game, rule_paths, run)]
    finally:
        timing.write()
