"""Writing a results folder atomically, with a manifest that proves where every file came from.

Files are written into a hidden staging folder beside the target (`.<name>.partial-<pid>`, its
manifest marked `"published": false`), then swapped in whole: a run that stops early leaves the
previous results as they were, and the next run clears what a killed one left.  The tool replaces
only folders it wrote (`check_ours`), and results of another rule file only with `--replace`.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager, suppress
from pathlib import Path

import analyzer
from analyzer.core.errors import InputError, OutputError
from analyzer.core.files import read_regular_file
from analyzer.formats.manifest import (MANIFEST_FORMAT, MANIFEST_NAME, MAX_MANIFEST_BYTES, RULES_COPY_NAME, SHA256,
                                       ManifestError, is_published, read_manifest)
from analyzer.core.rules import RuleFile

STAGING_NAME = re.compile(r"\.(?P<name>.+)\.(?P<kind>partial|old)-(?P<pid>[0-9]{1,10})\Z")
FINAL_MANIFEST = ".manifest.json.final"    # the final manifest, staged hidden, renamed over manifest.json last
MOVE_AWAY = "move it away or choose another --out"
SUMS_NAME = "SHA256SUMS"                   # in the tool's other folders: each file's sha256, as sha256sum writes it
RESULTS_PATH_ROOM = 200                    # what a results path adds below --out: <game>/.<rule set>.partial-<pid>/<file>


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
        return {"commit": git("rev-parse", "HEAD"),
                "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!results"))}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


class ResultFolder:
    """The files of one analysis, published together in results/<game>/<rule set>/: `add()` each file, then
    `publish()` once; a file's bytes are let go once staged (its sha256 kept)."""

    def __init__(self, root: str | Path, game: str, folder: str, rules: RuleFile, argv: list[str] | None = None,
                 replace: bool = False, counts: dict | None = None, source: str | None = None):
        self.root = Path(root)
        self.counts = counts                   # {"from_cache": True, "key": ...} for counts read from the count cache
        self.source = source                   # the built-in rule file of these bytes, if they are one
        self.game, self.folder, self.rules, self.replace = game, folder, rules, replace
        self.command = " ".join(["analyzer", *(sys.argv[1:] if argv is None else argv)])
        self.files: dict[str, bytes] = {}      # name -> its bytes, until written into the staging folder
        self.hashes: dict[str, str] = {}       # name -> sha256 of every file added
        self.add(RULES_COPY_NAME, rules.raw)

    @property
    def target(self) -> Path:
        return self.root / self.folder / self.rules.name

    def add(self, name: str, content: bytes | str) -> None:
        if name == MANIFEST_NAME or name in self.hashes:
            raise ValueError(f"results file {name!r} written twice")
        self.files[name] = content.encode("utf-8") if isinstance(content, str) else content
        self.hashes[name] = hashlib.sha256(self.files[name]).hexdigest()

    def manifest(self, published: bool = True) -> dict:
        """The manifest; a staged folder's says "published": false (the published one carries no such key)."""
        return {
            "format": MANIFEST_FORMAT, "game": self.game, "rule_set": self.rules.name,
            "rule_file": {"name": RULES_COPY_NAME, **({"source": self.source} if self.source else {}),
                          "sha256": self.rules.sha256},
            "package": {"name": "table-game-analyzer", "version": analyzer.__version__},
            "git": git_commit(),
            "command": self.command,
            "files": dict(sorted(self.hashes.items())),
            **({} if self.counts is None else {"counts": self.counts}),
            **({} if published else {"published": False}),
        }

    def check_target(self) -> None:
        """Refuse (InputError) to replace what this tool did not write (`check_ours`), another game's results,
        or published results of another rule file (sha256) unless `replace`."""
        target, rules = self.target, self.rules
        manifest = check_ours(target, "a results folder", MANIFEST_NAME, read_manifest, _written)
        if manifest is None:
            return
        if manifest["game"] != self.game:
            raise InputError(f"{target} holds {manifest['game']} results, not {self.game}: {MOVE_AWAY}")
        old = manifest["rule_file"]["sha256"]
        if is_published(manifest) and old != rules.sha256 and not self.replace:  # an unpublished one is ours
            source = manifest["rule_file"].get("source")
            raise InputError(f"{target} holds results of another rule file (sha256 {old[:12]}..."
                             + (f", from {source}" if isinstance(source, str) else "")
                             + f"); {rules.path} (sha256 {rules.sha256[:12]}...) has the same rule set "
                             f"{rules.name!r}: give it its own [game].rule_set, or pass --replace to "
                             "replace them")

    def publish(self, finish=None) -> Path:
        """Write every file into a staging folder, add the files finish(staging) returns (the report on its
        verification), then swap it in for the target.  InputError for a target it must not replace,
        OutputError when the files cannot be written; either way the previous results stay."""
        target = self.target
        make_folder(target.parent)
        remove_stale(target.parent)
        self.check_target()
        with _staging(target, f"cannot write the results to {target.parent}",
                      "the previous results are unchanged") as (staging, swap):
            self._stage(staging, {})
            if finish is not None:
                self._stage(staging, finish(staging))
            _write_file(staging / FINAL_MANIFEST, json_bytes(self.manifest()))
            swap(self.check_target)                # nothing of the user's appeared there meanwhile
            os.replace(target / FINAL_MANIFEST, target / MANIFEST_NAME)
        return target

    def _stage(self, staging: Path, more: dict) -> None:
        """Add `more` files, write every file not yet staged, and the manifest marked unpublished."""
        for name, data in sorted(more.items()):
            self.add(name, data)
        for name in sorted(self.files):
            _write_file(staging / name, self.files.pop(name))
        _write_file(staging / MANIFEST_NAME, json_bytes(self.manifest(published=False)))


def _reason(error: OSError) -> str:
    return f"{error.strerror or error}" + (f" ({error.filename})" if error.filename else "")


def make_folder(path: Path) -> None:
    """mkdir -p, refused in one line (InputError) when a part of the path is a file, OutputError otherwise."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"{path} is a file, not a folder; {MOVE_AWAY}") from None
    except NotADirectoryError:
        raise InputError(f"a part of {path} is a file, not a folder; {MOVE_AWAY}") from None
    except OSError as error:
        raise OutputError(f"cannot create {path}: {_reason(error)}") from None


def check_out_root(root: str | Path) -> None:
    """Refuse, before any work, an --out that results cannot be written under (InputError naming it): its
    names and length must fit, and its deepest existing part must be a folder a probe folder can be made in."""
    existing = root = Path(root)
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    try:
        longest_name, longest_path = os.pathconf(existing, "PC_NAME_MAX"), os.pathconf(existing, "PC_PATH_MAX")
    except (OSError, ValueError):
        longest_name, longest_path = 255, 4096    # where the system does not say: Linux's limits
    too_long = [part for part in root.parts if len(os.fsencode(part)) > longest_name]
    if too_long:
        raise InputError(f"--out {str(root)[:60]}...: the name {too_long[0][:20]!r}... is longer than the "
                         f"{longest_name} bytes a file name may have here")
    room = longest_path - RESULTS_PATH_ROOM
    if len(os.fsencode(os.path.abspath(root))) > room:
        raise InputError(f"--out {str(root)[:60]}...: the path is too long to hold results below it "
                         f"(at most {room} bytes here)")
    if not existing.is_dir():
        what = "a file" if existing.is_file() else "not a folder"
        raise InputError(f"--out {root}: {existing} is {what}; results need a folder")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".analyzer-probe-", dir=existing))
    except OSError as error:
        raise InputError(f"--out {root}: cannot write in {existing} ({error.strerror or error})") from None


def check_folder(target: Path) -> None:
    """Refuse (InputError) to replace anything at `target` but a folder `write_folder_atomically` wrote,
    or to write below a file."""
    above = next(path for path in Path(target).parents if os.path.lexists(path))
    if not above.is_dir():
        raise InputError(f"{above} is a file, not a folder; {MOVE_AWAY}")
    check_ours(target, "a folder", SUMS_NAME, read_sums, lambda names: names | {SUMS_NAME})


def check_ours(target: Path, what: str, record: str, read, listed):
    """The one rule for every folder the tool replaces: None when nothing is at `target`, else what read(target)
    makes of the tool's `record` file there.  InputError for a file, a link, a folder without the record, or
    one holding an entry that listed(what read made) does not name."""
    if not os.path.lexists(target):
        return None
    if target.is_symlink() or not target.is_dir():
        kind = "a link" if target.is_symlink() else "a file"
        raise InputError(f"{target} exists and is {kind}, not {what} the analyzer wrote; the analyzer only replaces "
                         f"folders it wrote: {MOVE_AWAY}")
    try:
        made = read(target)
    except InputError as error:
        raise InputError(f"{target} is not {what} the analyzer wrote ({error}), so it is left as it is: "
                         f"{MOVE_AWAY}") from None
    stranger = _unlisted(target, listed(made))
    if stranger is not None:
        raise InputError(f"{target} holds {stranger!r}, which its {record} does not list (not written by "
                         f"the analyzer), so the folder is left as it is: {MOVE_AWAY}")
    return made


def read_sums(folder: Path) -> set:
    """The file names a folder's SHA256SUMS lists (`sha256sum` lines: 64 hex digits, two spaces, the name)."""
    path = Path(folder) / SUMS_NAME
    try:
        text = read_regular_file(path, MAX_MANIFEST_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: missing") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot be read ({getattr(error, 'strerror', None) or error})") from None
    names = set()
    for number, line in enumerate(text.splitlines(), 1):
        digest, _, name = line.partition("  ")
        if not SHA256.match(digest) or name in ("", ".", "..", SUMS_NAME) or "/" in name:
            raise InputError(f"{path}: line {number} is not a sha256 and a file name")
        names.add(name)
    return names


def _written(manifest: dict) -> set:
    """The files the tool wrote in a results folder: those its manifest lists, and the manifest."""
    return set(manifest["files"]) | {MANIFEST_NAME, FINAL_MANIFEST}


def _unlisted(folder: Path, names: set) -> str | None:
    """The first entry of a folder that is not one of the files `names` (None: all are the tool's)."""
    return next((entry.name for entry in sorted(os.scandir(folder), key=lambda e: e.name)
                 if entry.name not in names or not entry.is_file(follow_symlinks=False)), None)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (OverflowError, OSError) as error:
        return isinstance(error, PermissionError)      # someone else's process: alive
    return True


def remove_stale(parent: Path) -> None:
    """Clear what killed runs left in a game's results folder: staging folders are removed, the previous
    results set aside (`.<rule set>.old-<pid>`) put back where the swap did not finish.  Live runs' are kept."""
    try:
        entries = sorted(os.scandir(parent), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        match = STAGING_NAME.match(entry.name)
        if not match or not entry.is_dir(follow_symlinks=False) or _alive(int(match["pid"])):
            continue                      # not a staging folder, or a live run's (this one's too)
        path, target = Path(entry.path), parent / match["name"]
        if match["kind"] == "old" and _unfinished(target):      # no target, or an unpublished folder
            shutil.rmtree(target, ignore_errors=True)
            path.rename(target)
        else:
            shutil.rmtree(path, ignore_errors=True)


def _unfinished(target: Path) -> bool:
    """No target, or one whose swap was cut short (its manifest still marked unpublished)."""
    if not os.path.lexists(target):
        return True
    try:
        manifest = read_manifest(target) if target.is_dir() and not target.is_symlink() else None
    except ManifestError:
        return False
    return manifest is not None and not is_published(manifest) and _unlisted(target, _written(manifest)) is None


def _write_file(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


@contextmanager
def _staging(target: Path, failure: str, unchanged: str):
    """A fresh staging folder beside `target` and `swap(check)`, which runs check() and swaps the folder in.
    Whatever stops the body (an exception, a generator closed) removes the staging folder and puts the
    previous folder back; an OSError becomes OutputError "<failure>: <reason>; <unchanged>"."""
    staging = target.with_name(f".{target.name}.partial-{os.getpid()}")
    retired = target.with_name(f".{target.name}.old-{os.getpid()}")
    swapped = False

    def swap(check) -> None:
        nonlocal swapped
        check()
        if os.path.lexists(target):
            target.rename(retired)
        staging.rename(target)
        swapped = True
    try:
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        yield staging, swap
    except BaseException as error:
        if swapped:
            with suppress(OSError):
                target.rename(staging)
        shutil.rmtree(staging, ignore_errors=True)
        if os.path.lexists(retired) and not os.path.lexists(target):
            retired.rename(target)
        if isinstance(error, OSError):
            raise OutputError(f"{failure}: {_reason(error)}; {unchanged}") from None
        raise
    for folder in (target, target.parent):   # fsynced, so that the renames survive a crash (best effort)
        with suppress(OSError):
            handle = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(handle)
            finally:
                os.close(handle)
    shutil.rmtree(retired, ignore_errors=True)


def write_folder_atomically(target: str | Path, files: dict) -> Path:
    """A folder of files {name: bytes} (a design's, a sweep's) with their SHA256SUMS, swapped in whole for
    `target` (nothing there, or such a folder: `check_folder`).  InputError for a target it must not
    replace, OutputError when it cannot be written."""
    target = Path(target)
    check_folder(target)
    make_folder(target.parent)
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items()))
    with _staging(target, f"cannot write {target}", "the previous folder is unchanged") as (staging, swap):
        for name, data in sorted({**files, SUMS_NAME: sums.encode()}.items()):
            _write_file(staging / name, data)
        swap(lambda: check_folder(target))      # nothing of the user's appeared there meanwhile
    return target
