"""A rule set's folder is published (verified, reported, swapped in) before the next rule set is analysed;
a failure or an interrupt of that analysis leaves the published folder and no staging folder."""
import pytest

import support
from analyzer.games import registry
from analyzer.publish import pipeline


def hidden(parent):
    return sorted(p.name for p in parent.iterdir() if p.name.startswith(".")) if parent.exists() else []


@pytest.fixture
def two_rule_sets(tmp_path):
    return [support.variant(tmp_path, "baccarat", [("tie = 8 ", f"tie = {tie} ")], name=f"tie{tie}")
            for tie in (8, 9)]


@pytest.fixture
def events(monkeypatch):
    """What happens, in order: ("analyse", rule set), ("report", rule set)."""
    happened = []
    game = registry.game("baccarat").module
    analyse, build = game.analyse, pipeline.report.build
    monkeypatch.setattr(game, "analyse", lambda rule_file, *args, **kw: happened.append(("analyse", rule_file.name))
                        or analyse(rule_file, *args, **kw))
    monkeypatch.setattr(pipeline.report, "build", lambda content, folder, *args: happened.append(
        ("report", folder.rules.name)) or build(content, folder, *args))
    return happened


def run(root, paths, quick_checks):
    return pipeline.run_game(registry.game("baccarat"), paths, pipeline.Run(root, ["baccarat"], quick_checks))


def test_a_folder_is_published_before_the_next_analysis(tmp_path, two_rule_sets, events, quick_checks):
    published = run(tmp_path / "out", two_rule_sets, quick_checks)
    assert events == [("analyse", "tie8"), ("report", "tie8"), ("analyse", "tie9"), ("report", "tie9")]
    assert [p.folder.name for p in published] == ["tie8", "tie9"]
    assert all((p.folder / "manifest.json").is_file() and (p.folder / "report.md").is_file() for p in published)
    assert hidden(tmp_path / "out" / "baccarat") == []


@pytest.mark.parametrize("failure", [RuntimeError, KeyboardInterrupt])
def test_a_failing_next_analysis(tmp_path, two_rule_sets, events, quick_checks, monkeypatch, failure):
    """An error or an interrupt there: the folder published before stays, and no staging folder is left."""
    game = registry.game("baccarat").module
    analyse = game.analyse

    def second_fails(rule_file, *args, **kw):
        if rule_file.name == "tie9":
            raise failure("the second analysis")
        return analyse(rule_file, *args, **kw)
    monkeypatch.setattr(game, "analyse", second_fails)
    with pytest.raises(failure):
        run(tmp_path / "out", two_rule_sets, quick_checks)
    out = tmp_path / "out" / "baccarat"
    assert hidden(out) == []
    assert sorted(p.name for p in out.iterdir()) == ["tie8"]
    assert (out / "tie8" / "report.md").is_file() and (out / "tie8" / "manifest.json").is_file()
