"""The stage recorder: nothing when off; when on, every stage (nested ones named outer / inner) in a JSON file."""
import json

from analyzer.core import timing


def test_off_by_default():
    assert timing.PATH is None or timing.PATH                      # the suite runs without ANALYZER_TIMINGS ...
    if timing.PATH is None:
        assert timing.stage("x") is timing.stage("y")             # ... one shared do-nothing context


def test_on_records_nested_stages(tmp_path, monkeypatch):
    path = tmp_path / "timings.json"
    monkeypatch.setattr(timing, "PATH", str(path))
    monkeypatch.setattr(timing, "_records", [])
    with timing.stage("outer"):
        with timing.stage("inner"):
            pass
    timing.write()
    stages = json.loads(path.read_text())["stages"]
    assert [s["stage"] for s in stages] == ["outer / inner", "outer"]
    assert all(s["seconds"] >= 0 and s["peak_rss_mb"] > 0 for s in stages)
