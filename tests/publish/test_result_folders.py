"""Results folders: manifest hashes, byte-identical reruns, atomic publication."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import support
from analyzer.games import registry
from analyzer.publish import folder as output


def run_cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, **kwargs)


def test_manifest_hashes_every_file(tmp_path, quick_checks):
    folder, = support.run_game("baccarat", tmp_path, checks=quick_checks)
    manifest = json.loads((folder / "manifest.json").read_text())
    files = {p.name for p in folder.iterdir()} - {"manifest.json"}
    assert set(manifest["files"]) == files
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    assert manifest["rule_file"]["sha256"] == manifest["files"]["rules.toml"]
    assert manifest["package"]["version"] and manifest["command"] == "analyzer baccarat"
    assert {"report.md", "report.html", "figure_effect_of_removal.svg"} <= files


def test_a_published_files_bytes_are_let_go_once_staged(tmp_path):
    """While the staged folder is verified, the folder holds no file's bytes, only their hashes."""
    rule_file = registry.game("baccarat").load_rules()[0]
    folder = output.ResultFolder(tmp_path, "baccarat", "baccarat", rule_file, ["baccarat"])
    big = bytes(range(256)) * 4096
    folder.add("strategy.bin.gz", big)
    held = []

    def finish(staging):
        held.append(dict(folder.files))
        assert (staging / "strategy.bin.gz").read_bytes() == big
        return {"report.md": "checked"}

    target = folder.publish(finish)
    assert held == [{}] and folder.files == {}
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["files"] == {name: hashlib.sha256((target / name).read_bytes()).hexdigest()
                                 for name in ("report.md", "rules.toml", "strategy.bin.gz")}


def test_two_runs_are_byte_identical(tmp_path, quick_checks):
    first, = support.run_game("baccarat", tmp_path / "a", checks=quick_checks)
    second, = support.run_game("baccarat", tmp_path / "b", checks=quick_checks)
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_interrupted_publication_keeps_previous_results(tmp_path, monkeypatch, quick_checks):
    folder, = support.run_game("baccarat", tmp_path, checks=quick_checks)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    written = []

    def dying_write(path, data):
        written.append(path)
        if len(written) == 3:
            raise KeyboardInterrupt
        real_write(path, data)

    real_write = output._write_file
    monkeypatch.setattr(output, "_write_file", dying_write)
    with pytest.raises(KeyboardInterrupt):
        support.run_game("baccarat", tmp_path, checks=quick_checks)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in folder.parent.iterdir()) == ["operator"]     # no staging left


def test_killed_run_leaves_no_complete_looking_folder(tmp_path):
    """SIGKILL mid-write: the target folder never appears; only a hidden staging folder may remain."""
    script = (
        "import time, analyzer.publish.folder as o\n"
        "real = o._write_file\n"
        "def slow(path, data):\n"
        "    real(path, data); time.sleep(0.4)\n"
        "o._write_file = slow\n"
        "from analyzer.cli import main\n"
        f"main(['baccarat', '--out', {str(tmp_path)!r}, '--check-rounds', '1000', '--check-samples', '1'])\n")
    process = subprocess.Popen([sys.executable, "-c", script])
    staging_seen = False
    for _ in range(100):
        time.sleep(0.05)
        parent = tmp_path / "baccarat"
        if parent.exists() and any(p.name.startswith(".operator.partial") for p in parent.iterdir()):
            staging_seen = True
            break
    time.sleep(0.5)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert staging_seen
    assert not (tmp_path / "baccarat" / "operator").exists()
    for leftover in (tmp_path / "baccarat").iterdir():
        assert leftover.name.startswith(".") and not (leftover / "manifest.json").exists()


def test_folder_written_atomically_replaces_whole_or_not_at_all(tmp_path, monkeypatch):
    target = tmp_path / "designs" / "one"
    output.write_folder_atomically(target, {"a.txt": b"old a", "b.txt": b"old b"})
    output.write_folder_atomically(target, {"a.txt": b"new a"})
    assert sorted(p.name for p in target.iterdir()) == ["SHA256SUMS", "a.txt"]
    assert (target / "a.txt").read_bytes() == b"new a"

    written = []
    real = output._write_file

    def failing(path, data):
        if written:
            raise OSError(28, "No space left on device")
        written.append(path)
        real(path, data)
    monkeypatch.setattr(output, "_write_file", failing)
    with pytest.raises(output.OutputError, match="No space left on device.*previous folder is unchanged"):
        output.write_folder_atomically(target, {"a.txt": b"newer a", "c.txt": b"c"})
    assert sorted(p.name for p in target.parent.iterdir()) == ["one"]        # no staging folder left
    assert sorted(p.name for p in target.iterdir()) == ["SHA256SUMS", "a.txt"]
    assert (target / "a.txt").read_bytes() == b"new a"
