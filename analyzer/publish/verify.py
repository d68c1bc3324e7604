"""`analyzer verify`: re-check a results folder by independent means, pass or fail.

For each results folder: its provenance against the manifest, the game's own checks (re-counting by
plain means), the round statistics re-derived from the counts and the strategy files, and Monte Carlo
rounds played through the advisor (docs/verification.md).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from analyzer import advisor
from analyzer.core.errors import InputError, one_line
from analyzer.core.exact import decimal_str
from analyzer.formats.manifest import MANIFEST_NAME, is_published, read_manifest
from analyzer.figures.sampling import RARE_EXPECTED
from analyzer.games import registry
from analyzer.games.interface import DecisionTable, LiveShoe
from analyzer.publish.options import CheckOptions


@dataclass
class Check:
    name: str
    passed: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'}  {self.name}: {self.detail}"


@dataclass
class FolderReport:
    """The checks run on one results folder."""

    folder: Path
    game: str
    checks: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def add(self, name: str, passed: bool, detail: str) -> None:
        self.checks.append(Check(name, bool(passed), detail))


def find_folders(paths) -> list[Path]:
    """Results folders (holding a manifest) at or below each path; InputError, before any check, for a
    path that does not exist or holds none.  Hidden folders (a run's staging) are not results."""
    folders = []
    for path in map(Path, paths):
        if (path / MANIFEST_NAME).is_file():
            folders.append(path)
        elif path.is_dir():
            for pattern in (f"*/*/{MANIFEST_NAME}", f"*/{MANIFEST_NAME}"):
                folders += sorted(p.parent for p in path.glob(pattern) if not p.parent.name.startswith("."))
        else:
            raise InputError(f"{path}: no such results folder")
    if not folders:
        raise InputError(f"no results folders (with {MANIFEST_NAME}) under {', '.join(map(str, paths))}")
    return folders


def check_place(report: FolderReport, manifest: dict, game: registry.Game) -> None:
    """The folder sits where its manifest's game and rule set put it, <game folder>/<rule set>, so that no
    reader takes it for another rule set's."""
    rule_set = manifest["rule_set"]
    here, there = f"{report.folder.parent.name}/{report.folder.name}", f"{game.folder}/{rule_set}"
    report.add("folder place", here == there,
               f"{game.name} rule set {rule_set!r} (manifest), in {here}" + ("" if here == there else f", not {there}"))


def check_provenance(report: FolderReport, manifest: dict) -> None:
    """The files are those the manifest lists, with its sha256 each, and the rule file the one it names."""
    folder, listed, rule_file = report.folder, manifest.get("files", {}), manifest["rule_file"]

    def sha256(name: str) -> str:
        return hashlib.sha256((folder / name).read_bytes()).hexdigest()
    present = {p.name for p in folder.iterdir() if p.is_file()} - {MANIFEST_NAME}
    missing, unlisted = sorted(set(listed) - present), sorted(present - set(listed))
    report.add("files listed", not (missing or unlisted), f"{len(listed)} in the manifest"
               + (f"; missing {missing}, unlisted {unlisted}" if missing or unlisted else ""))
    bad = [name for name, digest in listed.items() if name in present and sha256(name) != digest]
    report.add("sha256 of every file", not bad, "all match" if not bad else f"differ: {', '.join(bad)}")
    report.add("rule file", (folder / rule_file["name"]).is_file() and sha256(rule_file["name"]) == rule_file["sha256"],
               f"{rule_file['name']} sha256 {rule_file['sha256'][:16]}...")


def monte_carlo_checks(report: FolderReport, targets: dict, seed: int) -> None:
    """Two checks per bet: the exact EV inside the 99.9% interval of the Monte Carlo mean, and the sample
    variance against the exact variance (when the game gives it)."""
    for bet, target in targets.items():
        result = target.tally.compare(target.mean)
        report.add(f"monte carlo {bet}", result["passed"],
                   f"seed {seed}, {result['rounds']:,} rounds: mean {decimal_str(result['mean'], 6)}, exact "
                   f"{decimal_str(result['exact'], 6)}, z = {result['z']:.3f}, 99.9% interval "
                   f"[{result['low']:.6f}, {result['high']:.6f}]")
        if target.variance is None:
            continue
        result = target.tally.compare_variance(target.variance, target.distribution)
        rare = result["rare_values"]
        rare = (f"; {decimal_str(result['tested'], 6)} with the {rare} net value{'s' * (rare > 1)} expected fewer "
                f"than {RARE_EXPECTED} times taken at {'their' if rare > 1 else 'its'} exact share" if rare else "")
        impossible = (f"; results the exact distribution does not have: "
                      f"{', '.join(decimal_str(v, 4) for v in result['impossible'][:5])}" if result["impossible"] else "")
        report.add(f"monte carlo variance {bet}", result["passed"],
                   f"seed {seed}, {result['rounds']:,} rounds: sample variance {decimal_str(result['variance'], 6)}, "
                   f"exact {decimal_str(result['exact'], 6)}, z = {result['z']:.3f} (99.9% two-sided, normal "
                   f"approximation{rare}){impossible}")


def verify_folder(folder: Path, options: CheckOptions = CheckOptions(), progress=None,
                  staged: bool = False, counts=None, columns: dict | None = None) -> FolderReport:
    """Every check on one results folder: a published one, or (staged=True) the pipeline's staging folder;
    InputError (a damaged manifest) when it cannot be checked at all.  The publishing run passes its
    `counts` (else re-counted unless options.recount is off) and the `columns` its strategy files were
    written from: each file is compared with its array as it is read back, and the checks read the array."""
    manifest = read_manifest(folder)
    game = registry.game(manifest["game"])
    report = FolderReport(folder, game.name)
    if not staged and not is_published(manifest):
        report.add("published", False, "the manifest says \"published\": false: the staging folder of a run "
                                        "that did not finish, never published")
        return report
    if not staged:                        # (the pipeline's staging folder is where it made it)
        check_place(report, manifest, game)
    check_provenance(report, manifest)
    if not report.passed:
        return report                     # nothing else is worth checking on a damaged folder
    _, rules = game.load_rules(folder / manifest["rule_file"]["name"])
    summary = json.loads((folder / "summary.json").read_text())
    # a poker game's counts carry its classes' key rows, what its strategy files' key columns must be
    expected = {**({"key": counts.keys} if hasattr(counts, "keys") else {}), **(columns or {})}
    strategies = advisor.load_folder_strategies(folder, staged=staged, expected=expected or None) \
        if game.has(DecisionTable) or game.has(LiveShoe) else {}
    rounds = game.monte_carlo_rounds if options.rounds is None else options.rounds
    targets = game.module.check(report, rules, summary, strategies.get("optimal"), options.samples, rounds,
                                options.seed, progress)
    if counts is None and options.recount:
        counts = game.module.count(rules, None, progress)
    if counts is not None:
        # a poker game takes each file out of `strategies` once its decisions are read: the files'
        # columns are let go before the statistics are re-derived
        game.module.check_statistics(report, rules, summary, folder, counts, strategies)
    del strategies
    monte_carlo_checks(report, targets, options.seed)
    return report


def run(paths, options: CheckOptions = CheckOptions(), progress=None, out=print) -> bool:
    """Verify every results folder under paths, printing what was checked; True when all pass.
    A folder that cannot be checked at all is reported as FAIL, and the next one is checked."""
    all_passed = True
    for folder in find_folders(paths):
        out(f"== {folder}")
        try:
            report = verify_folder(folder, options, progress)
        except Exception as error:            # any folder that cannot be checked fails; the next is checked
            report = FolderReport(folder, "?")
            report.add("readable", False, one_line(error, named=True))
        for check in report.checks:
            out("  " + check.line())
        all_passed &= report.passed
    out("verify: " + ("all checks passed" if all_passed else "FAILED"))
    return all_passed
