"""The one path every game follows: rule files -> count -> analyse -> outputs -> verified, published folder.

Everything that could refuse the run is checked before any counting (`prepare`).  Rule sets sharing
their `count_fields` are counted once, the count kept in the count cache (`count_cache`).  Each rule
set is analysed, staged, verified, reported and published atomically before the next is analysed, so
that only one analysis is held at a time.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

import analyzer
from analyzer.publish import count_cache, memory, timing
from analyzer.core.errors import InputError, InvariantError
from analyzer.figures.outputs import WORKBOOK_NAME
from analyzer.games.interface import CachedCount, DecisionTable
from analyzer.games.registry import Game
from analyzer.publish import report, verify
from analyzer.publish.drawing import Drawing
from analyzer.publish.folder import ResultFolder, check_out_root, json_bytes
from analyzer.publish.options import CheckOptions
from analyzer.publish.workbook import rules_table, workbook_bytes

RULES_SHEET = "Rules analysed"


@dataclass
class Published:
    """One analysed rule set and where its folder was published."""

    game: Game
    rule_file: object
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
    from_cache: dict = field(default_factory=dict)  # (game, rule set) -> the cache key its counts were read under
    replace: bool = False                           # replace results of another rule file of the same rule set
    drawer: object = None                           # a drawing.Drawer: figures drawn by that child process, else here


def kernel_digest(game: Game) -> str:
    """sha256 of the compiled kernels the game's count runs: a rebuilt kernel never reads an old cache."""
    digest = hashlib.sha256()
    for name in game.kernels:
        digest.update(Path(import_module(f"cython_ext.{name}").__file__).read_bytes())
    return digest.hexdigest()


def count(game: Game, rules, run: Run):
    """The game's paytable-free counts for these rules: from the cache when it holds them, else counted (and kept)."""
    return counted(game, rules, run)[0]


def counted(game: Game, rules, run: Run, storing: list | None = None) -> tuple:
    """(the counts, the cache key they were read under, or None when they were counted here).  A cache that
    cannot be written costs a line on stderr, never the run (`count_cache.store`).  With `storing`, the cache
    file is written on a thread of its own (its future appended): hashing and fsyncing ~200 MB overlaps the
    analysis."""
    if run.cache is None or not game.has(CachedCount):
        return game.module.count(rules, run.executor, run.progress), None
    key = count_cache.cache_key(game.name, game.module.count_fields(rules),
                                f"{analyzer.__version__} {kernel_digest(game)}")
    loaded = count_cache.load(run.cache, key)
    if loaded is not None:
        table = game.module.table_from_arrays(rules, *loaded)
        if table is not None:
            return table, key
        print(f"count cache: not trusting the counts of {run.cache} under key {key[:16]}: they do not fit these "
              "rules or break their totals; they are recounted", file=sys.stderr)
    table = game.module.count(rules, run.executor, run.progress)
    arguments = (run.cache, key, *game.module.table_arrays(table))
    if storing is None:
        count_cache.store(*arguments, prefix=game.folder)
    else:
        writer = ThreadPoolExecutor(1, thread_name_prefix="count-cache")
        storing.append(writer.submit(count_cache.store, *arguments, prefix=game.folder))
        writer.shutdown(wait=False)                   # its thread ends with its one task
    return table, None


def check_cache(run: Run, games) -> None:
    """Refuse (InputError naming --cache), before any work, a count cache the run cannot use when one of
    `games` counts through it; make it ready (`count_cache.open_folder`)."""
    if run.cache is None or not any(game.has(CachedCount) for game in games):
        return
    try:
        count_cache.open_folder(run.cache)
    except count_cache.Unusable as problem:
        raise InputError(f"--cache {run.cache}: the count cache {problem}; name another folder, or give "
                         "--no-cache") from None


def load(game: Game, rule_paths=None) -> list:
    """(rule file, typed rules) of every rule file (default: the game's built-in ones), each checked,
    with the limits of the files its results are written in (`game.check_limits`)."""
    loaded = [game.load_rules(path) for path in (rule_paths or game.builtin_rule_paths)]
    for rule_file, rules in loaded:
        game.module.check_limits(rule_file, rules)
    return loaded


def result_folder(game: Game, rule_file, run: Run) -> ResultFolder:
    key = run.from_cache.get((game.name, rule_file.name))
    return ResultFolder(run.out_root, game.name, game.folder, rule_file, run.argv, replace=run.replace,
                        counts=None if key is None else {"from_cache": True, "key": key},
                        source=game.builtin_rule_name(rule_file.sha256))


def prepare(jobs: list, run: Run) -> list:
    """[(game, loaded rule files)] for jobs [(game, paths)], after refusing (InputError) before any work a bad
    rule file, a value its files cannot hold, two rule files of one rule set, an --out that cannot be
    written, a target folder that must not be replaced and an unusable count cache."""
    prepared = [(game, load(game, paths)) for game, paths in jobs]
    seen: dict = {}
    for game, loaded in prepared:
        for rule_file, _ in loaded:
            key = (game.name, rule_file.name)
            if key in seen:
                first = seen[key]
                if first.path.resolve() == rule_file.path.resolve():
                    raise InputError(f"rule file {rule_file.path} is given twice")
                raise InputError(f"rule files {first.path} and {rule_file.path} both name {game.name} rule set "
                                 f"{rule_file.name!r} ([game].rule_set): one results folder would replace the "
                                 "other; give each its own rule_set")
            seen[key] = rule_file
    check_out_root(run.out_root)
    for game, loaded in prepared:
        for rule_file, _ in loaded:
            result_folder(game, rule_file, run).check_target()
    check_cache(run, [game for game, _ in prepared])
    return prepared


def analyse(game: Game, rule_paths, run: Run, loaded=None, publishing: bool = False):
    """(rule file, analysis) of every rule file (default: the game's built-in ones; `loaded`: as `load`
    returned them), one at a time as each is asked for, counting once per count key.  `publishing`: a
    decision-table game starts compressing its strategy files on other threads while it analyses."""
    loaded = load(game, rule_paths) if loaded is None else loaded
    options = dict(run.options, start_files=True) if publishing and game.has(DecisionTable) else run.options
    keys = [json.dumps(game.module.count_fields(rules), sort_keys=True) for _, rules in loaded]
    counts, hits, storing = {}, {}, []
    try:
        for index, ((rule_file, rules), key) in enumerate(zip(loaded, keys)):
            if key not in counts:
                with timing.stage(f"{game.name} count"):
                    counts[key], hits[key] = counted(game, rules, run, storing)
                    memory.release()
            if hits[key] is not None:
                run.from_cache[game.name, rule_file.name] = hits[key]
            # This frame keeps neither the analysis nor (after the last rule set that needs it) the count:
            # both go when the caller lets go of the analysis.
            yield rule_file, _analysed(game, rule_file, rules,
                                       counts[key] if key in keys[index + 1:] else counts.pop(key), options)
    finally:
        wait(storing)                                 # a cache file being written is finished, or removed
    for future in storing:
        future.result()                               # what the write raised (not an OSError: that is a line)


def _analysed(game: Game, rule_file, rules, count, options: dict):
    with timing.stage(f"{game.name} {rule_file.name} analyse"):
        analysis = game.module.analyse(rule_file, rules, count, **options)
        memory.release()
        return analysis


@dataclass
class Staged:
    """One analysis's results, made and held without the analysis: files, report content, its
    figures (being drawn)."""

    game: Game
    folder: ResultFolder
    report: object               # the game's ReportContent
    drawing: Drawing             # its figures (file -> SVG text) and the HTML of its tables (report.tables_markdown)
    count: object                # what game.count returned (the verification re-derives the statistics on it)
    strategy_columns: dict       # the arrays its strategy files were written from (compared as they are read back)


def stage(game: Game, rule_file, analysis, run: Run) -> Staged:
    """Everything of an analysis's results folder that needs the analysis: its files and figures (drawn
    by `run.drawer`, if there is one, while the files are made and verified)."""
    with timing.stage(f"{game.name} {rule_file.name} outputs"):
        outputs = game.module.outputs(analysis)
        drawing = Drawing(outputs.report, run.drawer)      # the figures first: drawn while the rest is made
        try:
            folder = result_folder(game, rule_file, run)
            summary = _made(outputs.summary)
            folder.add("summary.json", json_bytes(summary))
            drawing.render(report.tables_markdown(outputs.report, summary))
            for name, data in outputs.files.items():
                folder.add(name, _made(data))
            sheets = _made(outputs.sheets)
            if sheets:
                folder.add(WORKBOOK_NAME, par_workbook(sheets, rule_file))
            memory.release()
        except BaseException:
            drawing.close()
            raise
    # the report needs the figures' names and captions, no longer their data (which would hold the analysis)
    content = dataclasses.replace(outputs.report, figures=[dataclasses.replace(figure, data={})
                                                           for figure in outputs.report.figures])
    return Staged(game, folder, content, drawing, analysis.count, outputs.strategy_columns)


def _made(value):
    """An output given as a function of no arguments, made now; any other value as it is."""
    return value() if callable(value) else value


def finish(staged: Staged, run: Run) -> Path:
    """Verify the staged folder, add its report (its figures waited for), and swap it in; on any failure
    the staging folder is removed and the drawing stopped."""
    folder = staged.folder

    def verified_report(staging: Path):
        with timing.stage("verify"):
            memory.release()              # what the analysis let go of, before the files are read back
            verification = verify.verify_folder(staging, run.checks, run.progress, staged=True, counts=staged.count,
                                                columns=staged.strategy_columns)
            staged.strategy_columns = None
            memory.release()
        if not verification.passed:
            failures = "; ".join(c.line() for c in verification.checks if not c.passed)
            raise InvariantError(f"verification failed before publishing {folder.target}: {failures}")
        with timing.stage("report"):
            return report.build(staged.report, folder, verification, staged.drawing)
    try:
        with timing.stage(f"{staged.game.name} {folder.rules.name} publish"):
            return folder.publish(verified_report)
    finally:
        staged.drawing.close()


def publish(game: Game, rule_file, analysis, run: Run) -> Path:
    """Write one analysis's results folder: staged, verified, reported, then swapped in."""
    return finish(stage(game, rule_file, analysis, run), run)


def par_workbook(sheets: list, rule_file) -> bytes:
    """par_sheet.xlsx: the game's sheets, then the rule file's tables; the same analysis gives the same bytes."""
    return workbook_bytes(list(sheets) + [(RULES_SHEET, rules_table(rule_file.data))],
                          {"title": f"PAR sheet: {rule_file.title}", "subject": f"rule set {rule_file.name}, rule "
                                                                                f"file sha256 {rule_file.sha256}"})


def publish_prepared(game: Game, loaded: list, run: Run) -> list[Published]:
    """Analyse and publish one game's rule files, already loaded and checked by `prepare`, one after the
    other.  Each analysis is let go once its files and figures are made, before its folder is verified
    (the verification reads the files and the count, not the analysis)."""
    published = []
    try:
        for rule_file, analysis in analyse(game, None, run, loaded, publishing=True):
            staged = stage(game, rule_file, analysis, run)
            del analysis
            published.append(Published(game, rule_file, finish(staged, run)))
            del staged                    # not held (with its count) while the next rule set is analysed
        return published
    finally:
        timing.write()


def run_games(jobs: list, run: Run, options=None, done=None) -> list[Published]:
    """Analyse and publish every (game, rule paths) job (paths None: the game's built-in rule sets), after
    `prepare`.  `options(game)`: that game's own options for its analyses (default: the run's);
    `done(game, published, seconds)`: called as each game's folders are published (the CLI's line)."""
    prepared = prepare(jobs, run)
    published = []
    for game, loaded in prepared:
        started = time.perf_counter()
        if options is not None:
            run.options = options(game)
        ours = publish_prepared(game, loaded, run)
        if done is not None:
            done(game, ours, time.perf_counter() - started)
        published += ours
    return published


def run_game(game: Game, rule_paths, run: Run) -> list[Published]:
    """Analyse and publish every rule file (default: the game's built-in rule sets)."""
    return run_games([(game, rule_paths)], run)
