"""`analyzer derive-basic`: the subcommand of the games that declare a derivable basic strategy."""
import pytest

from analyzer.cli import main
from analyzer.games import interface, registry


class Derived:
    """A stand-in for the search's result (the search itself takes minutes: tests/strategy covers it)."""

    def to_toml(self, comment: str) -> str:
        return "".join(f"# {line}\n" for line in comment.splitlines()) + "[strategy]\n"


@pytest.fixture
def stub_search(monkeypatch):
    asked = []
    face = registry.game("caribbean-stud").module

    def derive_basic(rule_file, rules, log=None):
        asked.append(rule_file.name)
        log("1 rule: ...")
        return Derived(), "from no rules", {"max_rules": 4, "seed": None}
    monkeypatch.setattr(face, "derive_basic", derive_basic)
    return asked


def test_derive_basic_prints_the_rule_list_and_how_it_was_derived(stub_search, capsys):
    standard = registry.game("caribbean-stud").builtin_rule_paths[1]
    assert main(["derive-basic", "caribbean-stud", "--rules", str(standard)]) == 0
    out, err = capsys.readouterr()
    assert stub_search == ["standard"] and err == "1 rule: ...\n"
    assert out.startswith(f"# Derived by `analyzer derive-basic caribbean-stud --rules {standard}` from the exact "
                          "per-situation EVs of rule set 'standard' (rule file sha256 ")
    assert "# from no rules, with {'max_rules': 4}.\n# Edit by re-deriving" in out


def test_derive_basic_writes_the_file(stub_search, tmp_path, capsys):
    assert main(["derive-basic", "caribbean-stud", "--write", str(tmp_path / "basic.toml")]) == 0
    assert capsys.readouterr().out == "" and (tmp_path / "basic.toml").read_text().endswith("[strategy]\n")


def test_derive_basic_offers_only_the_games_that_can(capsys):
    assert registry.names(interface.DerivableBasic) == ["casino-holdem", "caribbean-stud"]
    assert main(["derive-basic", "baccarat"]) == 2
    assert "invalid choice: 'baccarat'" in capsys.readouterr().err
