"""The one path every game follows: rule files -> count -> analyse -> outputs -> verified, published folder.

Rule sets that share the fields their counts depend on (`game.count_fields`: the deck,
the qualifier, the shoe and tableau) are counted once; each rule set is then priced and
analysed on that count, its outputs are written into a staging folder, verified there,
given their report, and published atomically.  One rule set is analysed and published
before the next is analysed, so that only one analysis is held at a time (a count is
held while a rule set still needs it).
"""
from __future__ import annotations

import dataclasses
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
        # This frame keeps neither the analysis nor (after the last rule set that needs it) the count:
        # both go when the caller lets go of the analysis.
        yield rule_file, _analysed(game, rule_file, rules,
                                   counts[key] if key in keys[index + 1:] else counts.pop(key), run)


def _analysed(game: Game, rule_file, rules, count, run: Run):
    with timing.stage(f"{game.name} {rule_file.name} analyse"):
        return game.module.analyse(rule_file, rules, count, **run.options)


@dataclass
class Staged:
    """One analysis's results, made and held without the analysis: files, summary, report content with
    its figures drawn."""

    game: Game
    folder: ResultFolder
    summary: dict
    report: object               # the game's ReportContent
    svgs: dict                   # figure file -> SVG text


def stage(game: Game, rule_file, analysis, run: Run) -> Staged:
    """Everything of an analysis's results folder that needs the analysis: its files and figures."""
    where = f"{game.name} {rule_file.name}"
    with timing.stage(f"{where} outputs"):
        outputs = game.module.outputs(analysis)
        folder = ResultFolder(run.out_root, game.name, game.folder, rule_file, run.argv)
        folder.add("summary.json", json_bytes(outputs.summary))
        for name, data in outputs.files.items():
            with timing.stage(name):
                folder.add(name, data() if callable(data) else data)
        with timing.stage("figures"):
            svgs = report.figures(outputs.report)
    # drawn: the report needs the figures' names and captions, no longer their data (which would hold the analysis)
    content = dataclasses.replace(outputs.report, figures=[dataclasses.replace(figure, data={})
                                                           for figure in outputs.report.figures])
    return Staged(game, folder, outputs.summary, content, svgs)


def finish(staged: Staged, run: Run) -> Path:
    """Verify the staged folder, add its report, and swap it in."""
    folder = staged.folder

    def verified_report(staging: Path) -> dict:
        with timing.stage("verify"):
            verification = verify.verify_folder(staging, run.checks, run.progress)
        if not verification.passed:
            failures = "; ".join(c.line() for c in verification.checks if not c.passed)
            raise InvariantError(f"verification failed before publishing {folder.target}: {failures}")
        with timing.stage("report"):
            return report.build(staged.report, folder, staged.summary, verification, staged.svgs)
    with timing.stage(f"{staged.game.name} {folder.rules.name} publish"):
        return folder.publish(verified_report)


def publish(game: Game, rule_file, analysis, run: Run) -> Path:
    """Write one analysis's results folder: staged, verified, reported, then swapped in."""
    return finish(stage(game, rule_file, analysis, run), run)


def run_game(game: Game, rule_paths, run: Run) -> list[Published]:
    """Analyse and publish every rule file (default: the game's built-in rule sets).

    Each analysis is let go once its files and figures are made, before its folder is
    verified (the verification reads the files, not the analysis) and before the next
    rule set is analysed, unless the run keeps analyses.
    """
    published = []
    try:
        for rule_file, analysis in analyse(game, rule_paths, run):
            staged = stage(game, rule_file, analysis, run)
            kept = analysis if run.keep_analyses else None
            del analysis
            published.append(Published(game, rule_file, kept, finish(staged, run)))
        return published
    finally:
        timing.write()
