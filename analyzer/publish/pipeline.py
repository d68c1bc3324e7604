"""The one path every game follows: rule files -> count -> analyse -> outputs -> verified, published folder.

Rule sets that share the fields their counts depend on (`game.count_fields`: the deck,
the qualifier, the shoe and tableau) are counted once; each rule set is then priced and
analysed on that count, its outputs are written into a staging folder, verified there,
given their report, and published atomically.  One rule set is analysed and published
before the next is analysed, so that only one analysis is held at a time (a count is
held while a rule set still needs it).
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
    """One analysed rule set: where its folder was published (and its analysis, if the run kept it)."""

    game: Game
    rule_file: object
    analysis: object             # None unless Run.keep_analyses
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
    keep_analyses: bool = False                     # run_game returns each analysis (held in memory)


def analyse(game: Game, rule_paths, run: Run):
    """(rule file, analysis) of every rule file (default: the game's built-in ones), one at a time as each
    is asked for, counting once per count key.  Every rule file is loaded (and a bad one refused)
    before anything is counted."""
    loaded = [game.load_rules(path) for path in (rule_paths or game.builtin_rule_paths)]   # refuse bad files first
    keys = [json.dumps(game.module.count_fields(rules), sort_keys=True) for _, rules in loaded]
    counts = {}
    for index, ((rule_file, rules), key) in enumerate(zip(loaded, keys)):
        if key not in counts:
            with timing.stage(f"{game.name} count"):
                counts[key] = game.module.count(rules, run.executor, run.progress)
        count = counts[key] if key in keys[index + 1:] else counts.pop(key)     # held while still needed
        with timing.stage(f"{game.name} {rule_file.name} analyse"):
            analysis = game.module.analyse(rule_file, rules, count, **run.options)
        del count
        yield rule_file, analysis
        del analysis                                   # not held while the next rule set is analysed


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
    published = []
    try:
        for rule_file, analysis in analyse(game, rule_paths, run):
            folder = publish(game, rule_file, analysis, run)
            published.append(Published(game, rule_file, analysis if run.keep_analyses else None, folder))
            del analysis                               # the next rule set's analysis does not meet this one
        return published
    finally:
        timing.write()
