"""The stage recorder: nothing when off; when on, every stage (nested ones named outer / inner) in a JSON file."""
import json
import time

from analyzer.publish import timing


def test_off_records_nothing(tmp_path, monkeypatch):
    """Without ANALYZER_TIMINGS: one shared do-nothing context, and write() writes nothing."""
    monkeypatch.setattr(timing, "PATH", None)
    monkeypatch.setattr(timing, "_records", [])
    assert timing.stage("x") is timing.stage("y")
    with timing.stage("x"):
        pass
    timing.write()
    assert timing._records == [] and list(tmp_path.iterdir()) == []


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


def test_a_stage_records_the_cpu_its_thread_spent_not_the_time_it_waited(tmp_path, monkeypatch):
    monkeypatch.setattr(timing, "PATH", str(tmp_path / "timings.json"))
    monkeypatch.setattr(timing, "_records", [])
    with timing.stage("waits"):
        time.sleep(0.05)
    with timing.stage("works"):
        deadline = time.thread_time() + 0.05
        while time.thread_time() < deadline:
            pass
    waits, works = timing._records
    assert waits["seconds"] >= 0.05 > 0.02 > waits["cpu_s"]
    assert works["cpu_s"] >= 0.05
