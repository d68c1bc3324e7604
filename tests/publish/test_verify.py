"""`analyzer verify` catches planted errors and passes on honest results."""
import hashlib
import json
import shutil
from fractions import Fraction

import numpy as np

from analyzer.formats import strategy_file
from analyzer.games.baccarat import advice as baccarat_advice
from analyzer.games.baccarat import checks as baccarat_checks
from analyzer.games.baccarat import price as baccarat_price
from analyzer.publish import verify
from analyzer.publish.options import CheckOptions


def copy_folder(source, tmp_path):
    """A copy of a results folder in the same place (<game folder>/<rule set>) under tmp_path."""
    target = tmp_path / source.parent.name / source.name
    shutil.copytree(source, target)
    return target


def rewrite_strategy(folder, change):
    """Alter the strategy file's columns and re-sign the manifest, so only the meaning is wrong."""
    path = folder / "strategy.bin.gz"
    header, columns = strategy_file.decode(path.read_bytes())
    columns = {name: np.array(values) for name, values in columns.items()}
    change(columns)
    data = strategy_file.encode({k: v for k, v in header.items() if k not in ("columns", "rows", "format", "version")},
                                columns)
    path.write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["strategy.bin.gz"] = hashlib.sha256(data).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


def failed(folder, counts=None, columns=None, **options):
    """The checks that fail on a folder; the round statistics are re-derived only from `counts` when given."""
    report = verify.verify_folder(folder, CheckOptions(samples=options.get("samples", 5), rounds=options.get("rounds", 0),
                                                       recount=False), counts=counts, columns=columns)
    return {check.name for check in report.checks if not check.passed}


def test_honest_results_pass(holdem_results, holdem_analysis):
    assert failed(holdem_results, counts=holdem_analysis.count, rounds=100_000) == set()


def test_corrupted_value_is_caught(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)

    def corrupt(columns):
        folded = np.nonzero(columns["decision"] == 0)[0][0]      # a folded class: the optimal EV does not move
        columns["ev_call"][folded] -= 1
    rewrite_strategy(folder, corrupt)
    assert failed(folder) == {"totals from strategy file"}


def test_the_files_are_checked_not_the_arrays_they_were_written_from(holdem_results, holdem_analysis, tmp_path,
                                                                     monkeypatch):
    """Given the arrays the files were written from (the publishing run), the verification reads them in place
    of equal columns; a file that differs from them is read and checked as it is: the same failures."""
    written = holdem_analysis.files.columns()
    read = []
    load = verify.advisor.load_folder_strategies
    def recorded(*args, **kwargs):                # (the checks take each file out of the dict as they read it)
        loaded = load(*args, **kwargs)
        read.append(dict(loaded))
        return loaded
    monkeypatch.setattr(verify.advisor, "load_folder_strategies", recorded)
    assert failed(holdem_results, counts=holdem_analysis.count, columns=written) == set()
    optimal = read[-1]["optimal"]
    assert optimal.ev_play is written["ev_call"] and optimal.weights is written["weight"]
    folder = copy_folder(holdem_results, tmp_path)

    def corrupt(columns):
        folded = np.nonzero(columns["decision"] == 0)[0][0]      # a folded class: the optimal EV does not move
        columns["ev_call"][folded] -= 1
    rewrite_strategy(folder, corrupt)
    assert failed(folder, columns=written) == failed(folder) == {"totals from strategy file"}
    assert read[-2]["optimal"].ev_play is not written["ev_call"]


def test_flipped_decision_is_caught(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)

    def flip(columns):
        columns["decision"][12345] = 1 - columns["decision"][12345]
    rewrite_strategy(folder, flip)
    assert "decisions match EVs" in failed(folder)


def test_altered_file_is_caught(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    summary = folder / "summary.json"
    summary.write_text(summary.read_text().replace('"situation_classes": 1286792', '"situation_classes": 1286793'))
    assert failed(folder) == {"sha256 of every file"}


def test_monte_carlo_fails_for_a_wrong_exact_value(baccarat_rules):
    _, rules = baccarat_rules
    tallies = baccarat_checks.simulate(rules, 200_000, seed=3)
    exact = baccarat_advice.shoe_query(rules.full_shoe(), rules)["ev"]
    assert tallies["banker"].compare(exact["banker"])["passed"]
    assert not tallies["banker"].compare(exact["banker"] + Fraction(1, 50))["passed"]


def test_monte_carlo_is_reproducible(baccarat_rules):
    _, rules = baccarat_rules
    first = baccarat_checks.simulate(rules, 50_000, seed=9)["tie"]
    second = baccarat_checks.simulate(rules, 50_000, seed=9)["tie"]
    assert (first.total, first.squares) == (second.total, second.squares)


def test_verify_cli_exit_codes(holdem_results, tmp_path):
    import subprocess
    import sys
    ok = subprocess.run([sys.executable, "-m", "analyzer", "verify", str(holdem_results), "--samples", "3",
                         "--rounds", "20000", "--quiet", "--no-recount"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "PASS  spot re-enumeration" in ok.stdout
    folder = copy_folder(holdem_results, tmp_path)
    (folder / "par_sheet.md").write_text("tampered")
    bad = subprocess.run([sys.executable, "-m", "analyzer", "verify", str(folder), "--rounds", "0", "--quiet",
                          "--no-recount"], capture_output=True, text=True)
    assert bad.returncode == 1 and "FAIL  sha256 of every file" in bad.stdout


def rewrite_summary(folder, change):
    """Alter summary.json and re-sign the manifest, so only the meaning is wrong."""
    path = folder / "summary.json"
    summary = json.loads(path.read_text())
    change(summary)
    data = (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode()
    path.write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["summary.json"] = hashlib.sha256(data).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


def plant_variance(entry, factor):
    exact = Fraction(entry["variance"]["exact"]) * factor
    entry["variance"]["exact"] = f"{exact.numerator}/{exact.denominator}"


def test_planted_wrong_variance_is_caught_by_the_monte_carlo(baccarat_rules):
    """The sample variance of 200,000 rounds: the exact variance passes, one 5% too large fails."""
    from analyzer.figures.distribution import WagerStatistics
    from analyzer.figures.sampling import Target
    _, rules = baccarat_rules
    tallies = baccarat_checks.simulate(rules, 200_000, seed=3)
    main = baccarat_advice.counted(rules.full_shoe(), rules)
    joint = baccarat_price.bet_outcomes(main, rules)
    for bet in ("banker", "player", "tie"):
        stats = WagerStatistics.from_outcomes(joint, bet, None)
        distribution = [(v.value, v.probability) for v in stats.distribution]
        assert tallies[bet].compare_variance(stats.variance, distribution)["passed"], bet
        assert not tallies[bet].compare_variance(stats.variance * Fraction(105, 100), distribution)["passed"], bet
        assert not tallies[bet].compare_variance(stats.variance * Fraction(95, 100), distribution)["passed"], bet
    report = verify.FolderReport(None, "baccarat")
    verify.monte_carlo_checks(report, {"tie": Target(tallies["tie"], Fraction(0), Fraction(7), [(Fraction(0), 1)])}, 3)
    assert [c.passed for c in report.checks] == [False, False]            # a wrong mean, variance, distribution


def test_planted_wrong_variance_in_a_folder_is_caught(baccarat_results, tmp_path):
    """A summary.json whose TIE variance is 5% too large: the re-derivation and the Monte Carlo both fail."""
    folder = copy_folder(baccarat_results / "baccarat" / "operator", tmp_path)
    assert failed(folder, rounds=200_000, counts=None) == set()
    rewrite_summary(folder, lambda s: plant_variance(s["round_statistics"]["bets"]["tie"], Fraction(105, 100)))
    report = verify.verify_folder(folder, CheckOptions(samples=1, rounds=200_000))       # re-counts the shoe
    assert {c.name for c in report.checks if not c.passed} == {"round statistics re-derived",
                                                              "monte carlo variance tie"}


def test_planted_wrong_poker_variance_is_caught(holdem_results, holdem_analysis, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    rewrite_summary(folder, lambda s: plant_variance(s["round_statistics"]["strategies"]["optimal"]["main"],
                                                     Fraction(3, 2)))
    assert failed(folder, counts=holdem_analysis.count, rounds=100_000) == {"round statistics re-derived",
                                                                           "monte carlo variance ante_and_call"}


def test_a_flipped_decision_changes_the_statistics(holdem_results, holdem_analysis, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)

    def flip(columns):
        columns["decision"][12345] = 1 - columns["decision"][12345]
    rewrite_strategy(folder, flip)
    assert "round statistics re-derived" in failed(folder, counts=holdem_analysis.count)
