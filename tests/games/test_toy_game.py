"""A toy game added through the interface: its folder (tests/toy_game/) and one registry entry are all it takes
to be analysed, published, verified and swept from the command line."""
import json
from pathlib import Path

import pytest

import support
from analyzer.cli import main
from analyzer.games import interface, registry

TOY_FOLDER = Path(__file__).resolve().parent.parent / "toy_game"
TOY = registry.Game(name="high-card", folder="high_card", package="toy_game", title="High card",
                    rule_files=("high_card.toml",), help="high card: one card each, the higher rank wins",
                    description="High card, a toy game.", epilog="", monte_carlo_rounds=0)


@pytest.fixture
def registered(monkeypatch):
    """The one registry entry, for this test only."""
    monkeypatch.setattr(registry, "GAMES", registry.GAMES + (TOY,))
    return TOY


def test_the_toy_game_is_a_face_with_no_capabilities(registered):
    assert support.satisfies(registered.module, interface.Face)
    assert not any(support.satisfies(registered.module, capability) for capability in interface.CAPABILITIES)
    assert {p.relative_to(TOY_FOLDER).as_posix() for p in TOY_FOLDER.rglob("*") if p.is_file()
            and "__pycache__" not in p.parts} == {"__init__.py", "game.py", "rules/high_card.toml"}


def test_the_toy_game_runs_through_the_pipeline(registered, tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["high-card", "--out", str(out), "--quiet"]) == 0
    folder = out / "high_card" / "operator"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["game"] == "high-card" and {"summary.json", "par_sheet.md", "rules.toml", "report.md",
                                                "report.html", "outcomes.json"} <= set(manifest["files"])
    summary = json.loads((folder / "summary.json").read_text())
    # 52 cards: 156 ties of 2,652 ordered pairs (each returns half the stake), the rest split evenly
    assert summary["ev_per_unit"]["exact"] == "-1/34" and summary["pairs"]["tie"] == "156"
    capsys.readouterr()
    assert main(["verify", str(out), "--quiet"]) == 0
    verified = capsys.readouterr().out
    assert "PASS  folder place" in verified and "PASS  brute force" in verified and "FAIL" not in verified
    assert main(["sweep", str(folder / "rules.toml"), "--out", str(out), "--name", "toy", "--quiet"]) == 0
    assert "-1/34" in (out / "sweeps" / "toy" / "comparison.md").read_text()


def test_without_its_entry_the_toy_game_is_unknown(tmp_path, capsys):
    assert main(["high-card", "--out", str(tmp_path)]) == 2
    assert main(["sweep", str(TOY_FOLDER / "rules" / "high_card.toml"), "--out", str(tmp_path)]) == 2
    assert "unknown game 'high-card'" in capsys.readouterr().err
