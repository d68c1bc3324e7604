"""Faults survived: a run killed (SIGKILL, SIGTERM) while staging or verifying, a full disk, damaged folders.

After any of them the previous results are as they were, no hidden staging folder can pass
`verify`, and the next run clears what a killed one left behind.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import support
from analyzer.cli import main
from analyzer.core.errors import InputError, OutputError
from analyzer.games import registry
from analyzer.publish import folder as output
from analyzer.publish import verify
from analyzer.publish.options import CheckOptions

SLOW_STAGING = (
    "import time, analyzer.publish.folder as o\n"
    "real = o._write_file\n"
    "def slow(path, data):\n"
    "    real(path, data); time.sleep(0.3)\n"
    "o._write_file = slow\n")
SLOW_VERIFICATION = (
    "import time, pathlib, analyzer.publish.verify as v\n"
    "real = v.verify_folder\n"
    "def slow(folder, *args, **kwargs):\n"
    "    pathlib.Path(folder, '..', 'VERIFYING').resolve().touch(); time.sleep(30)\n"
    "    return real(folder, *args, **kwargs)\n"
    "v.verify_folder = slow\n")


def snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def hidden(parent: Path) -> list[Path]:
    return sorted(p for p in parent.iterdir() if p.name.startswith(".")) if parent.exists() else []


def start(out: Path, patch: str) -> subprocess.Popen:
    script = patch + ("import sys\nfrom analyzer.cli import main\n"
                      f"sys.exit(main(['baccarat', '--out', {str(out)!r}, '--check-rounds', '0', '--check-samples', '0',"
                      " '--quiet']))\n")
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition, timeout=60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def staging_of(parent: Path):
    return [p for p in hidden(parent) if ".partial-" in p.name]


@pytest.fixture
def published(tmp_path):
    """A results root with Baccarat published once (what a fault must not lose)."""
    root = tmp_path / "results"
    assert main(["baccarat", "--out", str(root), "--check-rounds", "0", "--check-samples", "0", "--quiet"]) == 0
    return root


@pytest.mark.parametrize("when", ["staging", "verification"])
def test_sigkill_leaves_nothing_verifiable_and_the_next_run_clears_it(published, capsys, when):
    parent = published / "baccarat"
    before = snapshot(published)
    process = start(published, SLOW_STAGING if when == "staging" else SLOW_VERIFICATION)
    if when == "staging":
        wait_for(lambda: staging_of(parent) and len(list(staging_of(parent)[0].iterdir())) >= 3)
    else:
        wait_for(lambda: (parent / "VERIFYING").exists())
    process.kill()
    process.wait()
    (parent / "VERIFYING").unlink(missing_ok=True)
    staged, = staging_of(parent)                        # what the killed run left: hidden, never published
    assert {k: v for k, v in snapshot(published).items() if not k.startswith("baccarat/.")} == before
    if (staged / "manifest.json").exists():
        assert json.loads((staged / "manifest.json").read_text())["published"] is False
        assert main(["verify", str(staged), "--rounds", "0", "--samples", "1", "--quiet"]) == 1
        assert "FAIL  published" in capsys.readouterr().out
    assert main(["verify", str(published), "--rounds", "0", "--samples", "1", "--quiet"]) == 0     # hidden: skipped
    capsys.readouterr()
    assert main(["baccarat", "--out", str(published), "--check-rounds", "0", "--quiet"]) == 0
    assert hidden(parent) == [] and snapshot(published).keys() == before.keys()


@pytest.mark.parametrize("when", ["staging", "verification"])
def test_sigterm_is_handled_like_ctrl_c(published, when):
    parent = published / "baccarat"
    before = snapshot(published)
    process = start(published, SLOW_STAGING if when == "staging" else SLOW_VERIFICATION)
    if when == "staging":
        wait_for(lambda: staging_of(parent))
    else:
        wait_for(lambda: (parent / "VERIFYING").exists())
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    (parent / "VERIFYING").unlink(missing_ok=True)
    assert process.returncode == 143 and stderr.count("\n") == 1 and "terminated" in stderr, stderr
    assert hidden(parent) == [] and snapshot(published) == before


def test_a_folder_killed_between_its_two_renames_gets_its_results_back(published):
    """Killed after setting the old results aside (.operator.old-PID) but before the swap finished."""
    parent = published / "baccarat"
    before = snapshot(published)
    dead = subprocess.Popen(["true"])
    dead.wait()
    (parent / "operator").rename(parent / f".operator.old-{dead.pid}")
    output.remove_stale(parent)
    assert snapshot(published) == before
    # ... or with the new folder already swapped in but its manifest still unpublished
    manifest = json.loads((parent / "operator" / "manifest.json").read_text())
    (parent / "operator").rename(parent / f".operator.old-{dead.pid}")
    (parent / "operator").mkdir()
    (parent / "operator" / "manifest.json").write_text(json.dumps({**manifest, "files": {}, "published": False}))
    output.remove_stale(parent)
    assert snapshot(published) == before


def test_a_live_runs_staging_is_left_alone(published):
    parent = published / "baccarat"
    mine = parent / f".operator.partial-{os.getppid()}"     # a live process (the test runner's parent)
    mine.mkdir()
    output.remove_stale(parent)
    assert mine.exists()


def test_full_disk_injected(published, capsys, monkeypatch):
    """ENOSPC while staging: one line, exit 1, the previous results unchanged, nothing hidden left."""
    before = snapshot(published)
    real = output._write_file
    calls = []

    def full(path, data):
        calls.append(path)
        if len(calls) == 4:
            raise OSError(28, "No space left on device", str(path))
        real(path, data)
    monkeypatch.setattr(output, "_write_file", full)
    assert main(["baccarat", "--out", str(published), "--check-rounds", "0", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and "unchanged" in err
    assert snapshot(published) == before


def test_full_disk_tmpfs(tmp_path, capsys):
    """The same on a real small file system, where the machine lets a test mount one."""
    quick = ["--check-rounds", "0", "--check-samples", "0", "--quiet"]
    assert main(["baccarat", "--out", str(tmp_path / "measure"), *quick]) == 0
    size = sum(p.stat().st_size for p in (tmp_path / "measure").rglob("*") if p.is_file())
    disk = tmp_path / "disk"
    disk.mkdir()
    kib = size * 3 // 2 // 1024 + 64                    # room for one results folder, not for two
    if os.system(f"mount -t tmpfs -o size={kib}k tmpfs {disk} 2>/dev/null") != 0:
        pytest.skip("cannot mount a tmpfs here (test_full_disk_injected covers the same path)")
    try:
        args = ["baccarat", "--out", str(disk), *quick]
        assert main(args) == 0                            # fits once, not twice (staging beside the old)
        capsys.readouterr()
        before = snapshot(disk)
        assert main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "No space left on device" in err, err
        assert snapshot(disk) == before
    finally:
        os.system(f"umount {disk}")


def test_publish_refuses_what_appeared_during_the_run(tmp_path, quick_checks, monkeypatch):
    """A user's folder created at the target while the analysis ran is not replaced either."""
    from analyzer.publish import pipeline
    analysis = support.analyse_one("baccarat")
    root = tmp_path / "results"
    real = output.ResultFolder.publish

    def meanwhile(self, finish=None):
        self.target.mkdir(parents=True)
        (self.target / "mine.txt").write_text("mine")
        return real(self, finish)
    monkeypatch.setattr(output.ResultFolder, "publish", meanwhile)
    with pytest.raises(InputError, match="not a results folder the analyzer wrote"):
        pipeline.publish(registry.game("baccarat"), analysis.rule_file, analysis,
                         pipeline.Run(root, ["baccarat"], quick_checks))
    assert (root / "baccarat" / "operator" / "mine.txt").read_text() == "mine"
    assert hidden(root / "baccarat") == []


def test_folder_written_atomically_reports_a_full_disk(tmp_path, monkeypatch):
    def full(path, data):
        raise OSError(28, "No space left on device", str(path))
    monkeypatch.setattr(output, "_write_file", full)
    with pytest.raises(OutputError, match="No space left"):
        output.write_folder_atomically(tmp_path / "sweep", {"comparison.csv": b"x"})
    assert list(tmp_path.iterdir()) == []


# --- damaged folders: advise and verify report them in one line, verify goes on ------------------

def damage_manifest(folder: Path, how: str) -> None:
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    text = {"not json": "{not json", "empty": "", "a list": "[1, 2]",
            "no game": json.dumps({k: v for k, v in manifest.items() if k != "game"}),
            "no rule file": json.dumps({k: v for k, v in manifest.items() if k != "rule_file"}),
            "unknown game": json.dumps({**manifest, "game": "roulette"}),
            "a path as a file name": json.dumps({**manifest, "rule_file": {**manifest["rule_file"],
                                                                          "name": "../../etc/passwd"}})}[how]
    path.write_text(text)


def resign(folder: Path, name: str, data: bytes) -> None:
    """Replace a file and re-sign it in the manifest: only its meaning is wrong."""
    import hashlib
    (folder / name).write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"][name] = hashlib.sha256(data).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


def damage_strategy_header(folder: Path, how: str) -> None:
    import gzip
    raw = gzip.decompress((folder / "strategy.bin.gz").read_bytes())
    magic, header, body = raw.split(b"\n", 2)
    header = json.loads(header)
    if how == "no rows":
        del header["rows"]
    elif how == "unknown dtype":
        header["columns"][0]["dtype"] = "<f16"
    elif how == "no decks":
        del header["decks"]
    resign(folder, "strategy.bin.gz", gzip.compress(magic + b"\n" + json.dumps(header).encode() + b"\n" + body))


DAMAGE = [("manifest", how) for how in ("not json", "empty", "a list", "no game", "no rule file", "unknown game",
                                        "a path as a file name")] \
    + [("strategy", how) for how in ("no rows", "unknown dtype", "no decks")] + [("summary", "not json")]


@pytest.mark.parametrize("part,how", DAMAGE, ids=[f"{p}: {h}" for p, h in DAMAGE])
def test_damaged_folders(published, tmp_path, capsys, part, how):
    import shutil
    second = published.parent / "second" / "baccarat" / "operator"        # an intact copy, in its own results root
    shutil.copytree(published / "baccarat" / "operator", second)
    damaged = published / "baccarat" / "operator"
    if part == "manifest":
        damage_manifest(damaged, how)
    elif part == "strategy":
        damage_strategy_header(damaged, how)
    else:
        resign(damaged, "summary.json", b"{not json")
    if part != "summary":
        status = main(["advise", "baccarat", "--results", str(published), "--remove", "5"])
        err = capsys.readouterr().err
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert main(["verify", str(published), str(second.parent.parent), "--rounds", "0", "--samples", "1", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out.split("== ")[1] and "verify: FAILED" in out
    assert f"== {second}" in out and "FAIL" not in out.split(f"== {second}")[1].split("verify:")[0]


def test_verify_folder_raises_nothing_for_the_pipeline_on_its_own_staging(published):
    """The pipeline's own check of its staging folder (staged=True) passes; a reader's does not."""
    folder = published / "baccarat" / "operator"
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "published": False}))
    assert verify.verify_folder(folder, CheckOptions(samples=1, rounds=0), staged=True).passed
    assert not verify.verify_folder(folder, CheckOptions(samples=1, rounds=0)).passed
