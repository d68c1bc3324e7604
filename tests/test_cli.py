"""Command-line smoke tests: help, exit codes, the live-shoe query."""
import json
import subprocess
import sys

import pytest


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


@pytest.mark.parametrize("args", [["--help"], ["baccarat", "--help"], ["all", "--help"]])
def test_help(args):
    run = run_cli(*args)
    assert run.returncode == 0 and "usage: analyzer" in run.stdout


def test_console_script_is_installed():
    run = subprocess.run(["analyzer", "--version"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("analyzer ")


def test_baccarat_writes_results(tmp_path):
    run = run_cli("baccarat", "--out", str(tmp_path), "--check-rounds", "10000")
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "baccarat" / "operator" / "summary.json").read_text())
    assert summary["bets"]["banker"]["house_edge"]["exact"] == "114753351728/10847218479825"


def test_live_shoe_query_json():
    run = run_cli("baccarat", "--remove", "5,5,9,K", "--json")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["decision"] == "banker" and set(answer["ev"]) == {"banker", "player", "tie"}
    assert answer["shoe"] == [127, 32, 32, 32, 32, 30, 32, 32, 32, 31]


@pytest.mark.parametrize("args,problem", [
    (["baccarat", "--remove", "5,X"], "'X' is not a card rank"),
    (["baccarat", "--counts", "1,2,3"], "10 counts"),
    (["baccarat", "--counts", "0,0,0,0,0,0,0,0,0,5"], "holds 5"),
    (["baccarat", "--rules", "/nonexistent.toml"], "cannot be read"),
    (["baccarat", "--json"], "--remove or --counts"),
])
def test_bad_input_exits_2_with_one_line(args, problem):
    run = run_cli(*args)
    assert run.returncode == 2
    assert problem in run.stderr and run.stderr.count("\n") == 1


def test_unknown_game_exits_2():
    assert run_cli("roulette").returncode == 2


@pytest.mark.parametrize("args,problem", [
    (["advise", "roulette", "--hole", "Ah Kd"], "invalid choice: 'roulette'"),
    (["advise", "casino-holdem", "--hole", "Ah Kd"], "--flop"),
    (["advise", "casino-holdem", "--hole", "Ah Kd Qs", "--flop", "Qs 7h 2c"], "needs 2 card(s)"),
    (["advise", "casino-holdem", "--hole", "Ah Ah", "--flop", "Qs 7h 2c"], "appears twice"),
    (["advise", "casino-holdem", "--hole", "Ah Kx", "--flop", "Qs 7h 2c"], "suit 'x'"),
    (["advise", "caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd", "--rule-set", "nope"], "rule set 'nope'"),
])
def test_advise_bad_input_is_one_line(args, problem):
    run = run_cli(*args)
    assert run.returncode == 2 and problem in run.stderr and run.stderr.count("\n") == 1, run.stderr
