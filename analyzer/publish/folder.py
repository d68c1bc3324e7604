"""Writing a results folder atomically, with a manifest that proves where every file came from.

All files of one analysis are first written into a hidden staging folder beside the
target, `.<rule set>.partial-<pid>`, whose manifest says `"published": false` (so no
reader, `analyzer verify` included, takes it for results); only when every file is
complete and verified is the staging folder swapped in for the target and its final
manifest (without that mark) renamed into place.  A run that stops early leaves the
previous results untouched (or no folder at all), never a half-written or complete-looking
one; the hidden folders of a run that was killed are removed (or, for the previous
results set aside as `.<rule set>.old-<pid>`, put back) by the next run in that folder.

The tool replaces only what it wrote, by one rule for every folder (`check_ours`): a target
that is a file, a link, a folder without the tool's record of its files (a results folder's
manifest, the SHA256SUMS of a design's or a sweep's folder) or one holding anything that
record does not list is refused, never renamed or deleted; results of another rule file
(another rule sha256) are replaced only when the user says so (`--replace`).
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

    Use `add()` for each file, then `publish()` (once): each file's bytes are let go as they are
    written into the staging folder, its sha256 kept for the manifest, so a large file (a strategy
    file) is not held through the verification.  Nothing is visible in the target folder
    before `publish()` completes.  `check_target()` refuses, before any work, a target that
    `publish()` would refuse.
    """

    def __init__(self, root: str | Path, game: str, folder: str, rules: RuleFile, argv: list[str] | None = None,
                 replace: bool = False):
        self.root = Path(root)
        self.game = game
        self.folder = folder
        self.rules = rules
        self.replace = replace
        self.command = command_line(argv)
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
        self.hashes[name] = sha256_bytes(self.files[name])

    def manifest(self, published: bool = True) -> dict:
        """The manifest; a staged folder's says "published": false (the published one carries no such key)."""
        manifest = {
            "format": MANIFEST_FORMAT,
            "game": self.game,
            "rule_set": self.rules.name,
            "rule_file": {"name": RULES_COPY_NAME, "source": self.rules.path.name,
                          "sha256": self.rules.sha256},
            "package": {"name": "table-game-analyzer", "version": analyzer.__version__},
            "git": git_commit(),
            "command": self.command,
            "files": dict(sorted(self.hashes.items())),
        }
        if not published:
            manifest["published"] = False
        return manifest

    def check_target(self) -> None:
        """Refuse (InputError, one line) a target this run must not replace; see `check_replaceable`."""
        check_replaceable(self.target, self.game, self.rules, self.replace)

    def publish(self, finish=None) -> Path:
        """Write every file into a staging folder, then swap it in for the target folder.

        finish(staging) may inspect the complete staged folder (its manifest included) and
        return more files {name: bytes or str}, e.g. a report on its verification; they are
        added and the manifest rewritten before the swap.  Raises InputError for a target it
        must not replace, OutputError when the files cannot be written (a full disk); either
        way the previous results stay as they were and no staging folder is left.
        """
        target = self.target
        parent = target.parent
        make_folder(parent)
        remove_stale(parent)
        self.check_target()
        staging = parent / f".{target.name}.partial-{os.getpid()}"
        retired = parent / f".{target.name}.old-{os.getpid()}"
        swapped = published = False
        try:
            if os.path.lexists(staging):
                shutil.rmtree(staging)
            staging.mkdir()
            for name in sorted(self.files):
                _write_file(staging / name, self.files.pop(name))
            _write_file(staging / MANIFEST_NAME, json_bytes(self.manifest(published=False)))
            if finish is not None:
                more = finish(staging)
                for name, data in sorted(more.items()):
                    self.add(name, data)
                    _write_file(staging / name, self.files.pop(name))
                _write_file(staging / MANIFEST_NAME, json_bytes(self.manifest(published=False)))
            _write_file(staging / FINAL_MANIFEST, json_bytes(self.manifest()))
            self.check_target()                   # nothing of the user's appeared there meanwhile
            if os.path.lexists(target):
                target.rename(retired)
            staging.rename(target)
            swapped = True
            os.replace(target / FINAL_MANIFEST, target / MANIFEST_NAME)
            published = True
            _sync_folder(target)
            _sync_folder(parent)
        except BaseException as error:
            if swapped and not published:
                try:
                    target.rename(staging)
                except OSError:
                    pass
            shutil.rmtree(staging, ignore_errors=True)
            if os.path.lexists(retired) and not os.path.lexists(target):
                retired.rename(target)
            if isinstance(error, OSError):
                raise OutputError(f"cannot write the results to {parent}: {_reason(error)}; "
                                  "the previous results are unchanged") from None
            raise
        shutil.rmtree(retired, ignore_errors=True)
        return target


def _reason(error: OSError) -> str:
    where = f" ({error.filename})" if error.filename else ""
    return f"{error.strerror or error}{where}"


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
    """Refuse, before any work, an --out that results cannot be written under (InputError naming it).

    The deepest part of the path that exists must be a folder this process can create
    folders in (a probe folder is made and removed): a file, /dev/null, /proc/..., a
    read-only file system and a folder without write permission are refused.
    """
    root = Path(root)
    existing = root
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    longest_name = _limit(existing, "PC_NAME_MAX", 255)
    too_long = [part for part in root.parts if len(os.fsencode(part)) > longest_name]
    if too_long:
        raise InputError(f"--out {str(root)[:60]}...: the name {too_long[0][:20]!r}... is longer than the "
                         f"{longest_name} bytes a file name may have here")
    room = _limit(existing, "PC_PATH_MAX", 4096) - RESULTS_PATH_ROOM
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


# What a results path adds below --out: <game folder>/.<rule set (<= 64)>.partial-<pid>/<file name>.
RESULTS_PATH_ROOM = 200


def _limit(path: Path, name: str, default: int) -> int:
    try:
        return os.pathconf(path, name)
    except (OSError, ValueError):
        return default


def check_replaceable(target: Path, game: str, rules: RuleFile, replace: bool = False) -> None:
    """Refuse (InputError) to replace what this tool did not write, or results of another rule file.

    Nothing at `target`, or a results folder of the analyzer's (`check_ours`: its manifest lists
    every entry) for the same game: fine; if its manifest names another rule file (sha256) it
    is replaced only with `replace`.  A folder an interrupted run left unpublished is the
    tool's own and always replaceable.
    """
    manifest = check_ours(target, "a results folder", MANIFEST_NAME, read_manifest, _written)
    if manifest is None:
        return
    if manifest["game"] != game:
        raise InputError(f"{target} holds {manifest['game']} results, not {game}: {MOVE_AWAY}")
    if not is_published(manifest):
        return
    old = manifest["rule_file"]["sha256"]
    if old != rules.sha256 and not replace:
        source = manifest["rule_file"].get("source")
        raise InputError(f"{target} holds results of another rule file (sha256 {old[:12]}..."
                         + (f", from {source}" if isinstance(source, str) else "")
                         + f"); {rules.path} (sha256 {rules.sha256[:12]}...) has the same rule set "
                         f"{rules.name!r}: give it its own [game].rule_set, or pass --replace to replace them")


def check_folder(target: Path) -> None:
    """Refuse (InputError) to replace anything at `target` but a folder `write_folder_atomically` wrote,
    or to write below a file."""
    above = next(path for path in Path(target).parents if os.path.lexists(path))
    if not above.is_dir():
        raise InputError(f"{above} is a file, not a folder; {MOVE_AWAY}")
    check_ours(target, "a folder", SUMS_NAME, read_sums, lambda names: names | {SUMS_NAME})


def check_ours(target: Path, what: str, record: str, read, listed):
    """The one rule for every folder the tool replaces: None when nothing is at `target`, else what
    read(target) makes of the tool's `record` file there (read raises InputError without one).
    InputError, naming it, for a file, a link, a folder without the record, or one holding an
    entry that listed(what read made) does not name (the files the tool wrote there)."""
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
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name not in names or not entry.is_file(follow_symlinks=False):
            return entry.name
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True                       # someone else's process: alive
    except (OverflowError, OSError):
        return False
    return True


def remove_stale(parent: Path) -> list[Path]:
    """Clear what killed runs left in a game's results folder; returns what was removed or restored.

    A `.<rule set>.partial-<pid>` staging folder of a process that is gone is removed; a
    `.<rule set>.old-<pid>` (the previous results, set aside for the swap) is put back when
    the swap did not finish (no target, or a target still marked unpublished), else removed.
    Folders of live processes (another run in progress) are left alone.
    """
    touched = []
    try:
        entries = sorted(os.scandir(parent), key=lambda e: e.name)
    except OSError:
        return touched
    for entry in entries:
        match = STAGING_NAME.match(entry.name)
        if not match or not entry.is_dir(follow_symlinks=False):
            continue
        pid = int(match["pid"])
        if pid == os.getpid() or _alive(pid):
            continue
        path, target = Path(entry.path), parent / match["name"]
        if match["kind"] == "old" and _unfinished(target):
            if os.path.lexists(target):
                shutil.rmtree(target, ignore_errors=True)
            path.rename(target)
        else:
            shutil.rmtree(path, ignore_errors=True)
        touched.append(path)
    return touched


def _unfinished(target: Path) -> bool:
    """No target, or one whose swap was cut short (its manifest still marked unpublished)."""
    if not os.path.lexists(target):
        return True
    try:
        manifest = read_manifest(target) if target.is_dir() and not target.is_symlink() else None
    except ManifestError:
        return False
    return manifest is not None and not is_published(manifest) and _unlisted(target, _written(manifest)) is None


def _sync_folder(path: Path) -> None:
    """fsync a folder, so a rename into it survives a crash (best effort where not supported)."""
    try:
        handle = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _write_file(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_folder_atomically(target: str | Path, files: dict) -> Path:
    """A folder of files {name: bytes} (outside the results tree: a design's, a sweep's) with their
    SHA256SUMS, swapped in whole for `target`: only for nothing or such a folder (`check_folder`).

    The files are written and synced in a staging folder beside it, then the previous folder
    (if any) is moved aside, the staging folder renamed into place and the previous one
    removed: a reader sees the old folder or the new one, never a mixture, and a run that
    stops early leaves the old one as it was.  InputError for a target it must not replace,
    OutputError when it cannot be written.
    """
    target = Path(target)
    check_folder(target)
    make_folder(target.parent)
    sums = "".join(f"{sha256_bytes(data)}  {name}\n" for name, data in sorted(files.items()))
    files = {**files, SUMS_NAME: sums.encode()}
    staging = target.with_name(f".{target.name}.partial-{os.getpid()}")
    retired = target.with_name(f".{target.name}.old-{os.getpid()}")
    try:
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        for name, data in sorted(files.items()):
            _write_file(staging / name, data)
        check_folder(target)                      # nothing of the user's appeared there meanwhile
        if os.path.lexists(target):
            target.rename(retired)
        staging.rename(target)
        _sync_folder(target.parent)
    except BaseException as error:
        shutil.rmtree(staging, ignore_errors=True)
        if os.path.lexists(retired) and not os.path.lexists(target):
            retired.rename(target)
        if isinstance(error, OSError):
            raise OutputError(f"cannot write {target}: {_reason(error)}; the previous folder is unchanged") from None
        raise
    shutil.rmtree(retired, ignore_errors=True)
    return target
