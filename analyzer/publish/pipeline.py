"""The one path every game follows: rule files -> count -> analyse -> outputs -> verified, published folder.

Rule sets that share the fields their counts depend on (`game.count_fields`: the deck,
the qualifier, the shoe and tableau) are counted once, and the count is kept in the count
cache (`analyzer.core.count_cache`, under `<out>/.cache/` unless told otherwise), keyed by
exactly those fields, the package version and the compiled kernels' own digests: another
paytable on the same deck is priced from the cache without enumerating.  Each rule set is
then priced and analysed on that count, its outputs are written into a staging folder,
verified there, given their report, and published atomically.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

import analyzer
from analyzer.core import count_cache
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
    cache: Path | None = None                       # the count cache's folder; None: count afresh, keep nothing


def kernel_digest(game: Game) -> str:
    """sha256 of the compiled kernels the game's count runs: a rebuilt kernel never reads an old cache."""
    digest = hashlib.sha256()
    for name in game.kernels:
        digest.update(Path(import_module(f"cython_ext.{name}").__file__).read_bytes())
    return digest.hexdigest()


def count(game: Game, rules, run: Run):
    """The game's paytable-free counts for these rules: from the cache when it holds them, else counted (and kept)."""
    cacheable = run.cache is not None and hasattr(game.module, "table_arrays")
    if not cacheable:
        return game.module.count(rules, run.executor, run.progress)
    key = count_cache.cache_key(game.name, game.module.count_fields(rules),
                                f"{analyzer.__version__} {kernel_digest(game)}")
    loaded = count_cache.load(run.cache, key)
    if loaded is not None:
        table = game.module.table_from_arrays(rules, *loaded)
        if table is not None:
            return table
    table = game.module.count(rules, run.executor, run.progress)
    arrays, meta = game.module.table_arrays(table)
    count_cache.store(run.cache, key, arrays, meta, prefix=game.folder)
    return table


def analyse(game: Game, rule_paths, run: Run) -> list:
    """(rule file, analysis) of every rule file (default: the game's built-in ones), counting once per count key."""
    loaded = [game.load_rules(path) for path in (rule_paths or game.builtin_rule_paths)]   # refuse bad files first
    counts = {}
    analyses = []
    for rule_file, rules in loaded:
        key = json.dumps(game.module.count_fields(rules), sort_keys=True)
        if key not in counts:
            counts[key] = count(game, rules, run)
        analyses.append((rule_file, game.module.analyse(rule_file, rules, counts[key], **run.options)))
    return analyses


def publish(game: Game, rule_file, analysis, run: Run) -> Path:
    """Write one analysis's results folder: staged, verified, reported, then swapped in."""
    outputs = game.module.outputs(analysis)
    folder = ResultFolder(run.out_root, game.name, game.folder, rule_file, run.argv)
    folder.add("summary.json", json_bytes(outputs.summary))
    for name, data in outputs.files.items():
        folder.add(name, data)

    def finish(staging: Path) -> dict:
        verification = verify.verify_folder(staging, run.checks, run.progress)
        if not verification.passed:
            failures = "; ".join(c.line() for c in verification.checks if not c.passed)
            raise InvariantError(f"verification failed before publishing {folder.target}: {failures}")
        return report.build(outputs.report, folder, outputs.summary, verification)
    return folder.publish(finish)


def run_game(game: Game, rule_paths, run: Run) -> list[Published]:
    """Analyse and publish every rule file (default: the game's built-in rule sets)."""
    return [Published(game, rule_file, analysis, publish(game, rule_file, analysis, run))
            for rule_file, analysis in analyse(game, rule_paths, run)]
