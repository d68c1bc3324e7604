"""Bad rule files are refused with the file, the key and the problem named, exit 2, nothing written."""
import subprocess
import sys

import pytest

from analyzer.core.rules import RuleError
from analyzer.games import registry

BACCARAT = registry.game("baccarat")


def variant(tmp_path, old, new, name="bad.toml"):
    text = BACCARAT.builtin_rule_paths[0].read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


BAD = [
    ("unknown key", "decks = 8", "decks = 8\nshuffle = true", "shoe.shuffle", "unknown key"),
    ("missing table", "[payouts]\n", "[payoffs]\n", "payoffs", "unknown key"),
    ("wrong type", "decks = 8", 'decks = "eight"', "shoe.decks", "must be an integer"),
    ("negative payout", "tie = 8 ", "tie = -8 ", "payouts.tie", "must not be below 0"),
    ("non-numeric payout", "tie = 8 ", 'tie = "eight" ', "payouts.tie", "must be a number"),
    ("deck cannot deal", "decks = 8", "decks = 0", "shoe.decks", "must be at least 1"),
    ("bad total", "natural = [8, 9]", "natural = [8, 10]", "drawing.natural[1]", "at most 9"),
    ("float commission above 1", "banker = 0.05", "banker = 1.5", "commission.banker", "above 1"),
    ("not toml", "[shoe]", "[shoe", "", "not valid TOML"),
    ("wrong game", 'game = "baccarat"', 'game = "casino-holdem"', "game.game", "needs a 'baccarat' rule file"),
]


@pytest.mark.parametrize("case,old,new,key,problem", BAD, ids=[b[0] for b in BAD])
def test_bad_rule_file_is_refused(tmp_path, case, old, new, key, problem):
    path = variant(tmp_path, old, new)
    with pytest.raises(RuleError) as caught:
        BACCARAT.load_rules(path)
    message = str(caught.value)
    assert str(path) in message and problem in message
    if key:
        assert f"key '{key}'" in message


def test_missing_table_is_named(tmp_path):
    text = BACCARAT.builtin_rule_paths[0].read_text()
    start = text.index("[limits]")
    end = text.index("[published]")
    path = tmp_path / "nolimits.toml"
    path.write_text(text[:start] + text[end:])
    with pytest.raises(RuleError, match="key 'limits': missing table"):
        BACCARAT.load_rules(path)


def test_cli_refuses_bad_rule_file_and_writes_nothing(tmp_path):
    path = variant(tmp_path, "tie = 8 ", "tie = -1 ")
    out = tmp_path / "results"
    run = subprocess.run([sys.executable, "-m", "analyzer", "baccarat", "--rules", str(path), "--out", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "payouts.tie" in run.stderr and str(path) in run.stderr
    assert run.stderr.count("\n") == 1                       # one line, no traceback
    assert not out.exists()


def test_exact_numbers_are_never_binary_floats(baccarat_rules):
    _, rules = baccarat_rules
    from fractions import Fraction
    assert rules.commission == Fraction(1, 20) and rules.unit == Fraction(1, 100)
