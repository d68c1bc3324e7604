"""A results folder is what its place says: verify and advise refuse one moved to another game's or rule set's
place, and advise refuses a folder whose rule file is gone (issue 27, item 8)."""
import json
import shutil

from analyzer.cli import main
from analyzer.publish import verify
from analyzer.publish.options import CheckOptions

QUICK = CheckOptions(samples=1, rounds=0, recount=False)
STUD_DEAL = ["--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"]


def placed(source, root, game_folder, rule_set):
    """A copy of the results folder `source` at root/game_folder/rule_set."""
    target = root / game_folder / rule_set
    shutil.copytree(source, target)
    return target


def place_check(folder):
    report = verify.verify_folder(folder, QUICK)
    return {check.name: check for check in report.checks}.get("folder place"), report


def test_verify_refuses_another_games_folder_in_its_place(holdem_results, tmp_path):
    check, report = place_check(placed(holdem_results, tmp_path, "caribbean_stud", "operator"))
    assert check is not None and not check.passed and not report.passed
    assert "casino-holdem" in check.detail and "casino_holdem/operator" in check.detail


def test_verify_refuses_another_rule_sets_folder_in_its_place(stud_results, tmp_path):
    check, report = place_check(placed(stud_results / "caribbean_stud" / "standard", tmp_path, "caribbean_stud",
                                       "operator"))
    assert check is not None and not check.passed and not report.passed
    assert "'standard'" in check.detail


def test_verify_passes_a_folder_in_its_own_place(stud_results, tmp_path):
    check, report = place_check(placed(stud_results / "caribbean_stud" / "standard", tmp_path, "caribbean_stud",
                                       "standard"))
    assert check.passed and report.passed


def test_advise_names_the_rule_set_and_refuses_another_in_its_place(stud_results, tmp_path, capsys):
    assert main(["advise", "caribbean-stud", "--results", str(stud_results), "--rule-set", "standard", *STUD_DEAL,
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rule_set"] == "standard"
    assert main(["advise", "caribbean-stud", "--results", str(stud_results), *STUD_DEAL]) == 0
    assert "(operator)" in capsys.readouterr().out
    placed(stud_results / "caribbean_stud" / "standard", tmp_path, "caribbean_stud", "operator")
    assert main(["advise", "caribbean-stud", "--results", str(tmp_path), *STUD_DEAL, "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'standard'" in err and "'operator'" in err


def test_advise_refuses_a_folder_whose_rule_file_was_deleted(stud_results, tmp_path, capsys):
    folder = placed(stud_results / "caribbean_stud" / "operator", tmp_path, "caribbean_stud", "operator")
    (folder / "rules.toml").unlink()
    assert main(["advise", "caribbean-stud", "--results", str(tmp_path), *STUD_DEAL]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules.toml" in err and "missing" in err
