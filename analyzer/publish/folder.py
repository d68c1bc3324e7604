"""Writing a results folder atomically, with a manifest that proves where every file came from.

All files of one analysis are first written into a hidden staging folder beside
the target; only when every file and the manifest are complete is the staging
folder swapped into place.  A run that stops early leaves the previous results
untouched (or no folder at all), never a half-written one.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import analyzer
from analyzer.core.outputs import MANIFEST_NAME, RULES_COPY_NAME
from analyzer.core.rules import RuleFile

MANIFEST_FORMAT = "analyzer-manifest/1"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def json_bytes(document) -> bytes:
    """Canonical JSON: sorted keys, two-space indent, trailing newline (diff-friendly, stable)."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def git_commit() -> dict:
    """The commit the package's sources were built from, when they live in a git work tree."""
    source = Path(analyzer.__file__).resolve().parent.parent
    def git(*args):
        return subprocess.run(["git", "-C", str(source), *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!results"))
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty}


def command_line(argv: list[str] | None = None) -> str:
    args = list(sys.argv[1:] if argv is None else argv)
    return " ".join(["analyzer", *args])


class ResultFolder:
    """Collects the files of one analysis and publishes them together: results/<game>/<rule set>/.

    Use `add()` for each file, then `publish()`.  Nothing is visible in the target folder
    before `publish()` completes.
    """

    def __init__(self, root: str | Path, game: str, folder: str, rules: RuleFile, argv: list[str] | None = None):
        self.root = Path(root)
        self.game = game
        self.folder = folder
        self.rules = rules
        self.command = command_line(argv)
        self.files: dict[str, bytes] = {}
        self.add(RULES_COPY_NAME, rules.raw)

    @property
    def target(self) -> Path:
        return self.root / self.folder / self.rules.name

    def add(self, name: str, content: bytes | str) -> None:
        if name == MANIFEST_NAME or name in self.files:
            raise ValueError(f"results file {name!r} written twice")
        self.files[name] = content.encode("utf-8") if isinstance(content, str) else content

    def manifest(self) -> dict:
        return {
            "format": MANIFEST_FORMAT,
            "game": self.game,
            "rule_set": self.rules.name,
            "rule_file": {"name": RULES_COPY_NAME, "source": self.rules.path.name,
                          "sha256": self.rules.sha256},
            "package": {"name": "table-game-analyzer", "version": analyzer.__version__},
            "git": git_commit(),
            "command": self.command,
            "files": {name: sha256_bytes(data) for name, data in sorted(self.files.items())},
        }

    def publish(self, finish=None) -> Path:
        """Write every file into a staging folder, then swap it in for the target folder.

        finish(staging) may inspect the complete staged folder (its manifest included) and
        return more files {name: bytes or str}, e.g. a report on its verification; they are
        added and the manifest rewritten before the swap.
        """
        target = self.target
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = target.parent / f".{target.name}.partial-{os.getpid()}"
        retired = target.parent / f".{target.name}.old-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        try:
            for name, data in sorted(self.files.items()):
                _write_file(staging / name, data)
            _write_file(staging / MANIFEST_NAME, json_bytes(self.manifest()))
            if finish is not None:
                for name, data in sorted(finish(staging).items()):
                    self.add(name, data)
                    _write_file(staging / name, self.files[name])
                _write_file(staging / MANIFEST_NAME, json_bytes(self.manifest()))
            if target.exists():
                target.rename(retired)
            staging.rename(target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            if retired.exists() and not target.exists():
                retired.rename(target)
            raise
        shutil.rmtree(retired, ignore_errors=True)
        return target


def _write_file(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write one file via a temporary file and a rename (for files outside a results folder)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        _write_file(temporary, data)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
