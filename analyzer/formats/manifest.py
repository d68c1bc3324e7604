"""The manifest of a results folder: the sha256 of every file, the rule file, and whether it is published.

Written by `analyzer.publish.folder`, read by `analyzer verify`, the advisor and the next run.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.files import read_regular_file

MANIFEST_NAME = "manifest.json"       # in every results folder: the sha256 of every file (analyzer.publish.folder)
MANIFEST_FORMAT = "analyzer-manifest/1"
RULES_COPY_NAME = "rules.toml"        # the rule file analysed, byte for byte
SHA256 = re.compile(r"[0-9a-f]{64}\Z")
MAX_MANIFEST_BYTES = 1 << 20


class ManifestError(InputError):
    """A results folder whose manifest.json is missing, unreadable or not an analyzer manifest."""


def _plain_name(name) -> bool:
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name \
        and "\0" not in name


def read_manifest(folder: str | Path) -> dict:
    """The checked manifest of a results folder (docs/strategy-format.md, section 1); ManifestError naming
    the file and what is wrong."""
    path = Path(folder) / MANIFEST_NAME
    try:
        raw = read_regular_file(path, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        raise ManifestError(f"{path}: missing (not a results folder written by the analyzer)") from None
    except OSError as error:
        raise ManifestError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{path}: larger than {MAX_MANIFEST_BYTES:,} bytes (not a manifest)")
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ManifestError(f"{path}: not valid JSON (damaged manifest)") from None
    if not isinstance(manifest, dict):
        raise ManifestError(f"{path}: not a JSON object (damaged manifest)")

    def need(key, check, what):
        value = manifest
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None or not check(value):
            raise ManifestError(f"{path}: key '{key}' {'is missing' if value is None else 'is not ' + what}")
        return value
    need("format", lambda v: v == MANIFEST_FORMAT, repr(MANIFEST_FORMAT))
    need("game", lambda v: isinstance(v, str) and v, "a game name")
    need("rule_set", lambda v: isinstance(v, str) and v, "a rule-set name")
    need("rule_file.name", _plain_name, "a file name in the folder")
    need("rule_file.sha256", lambda v: isinstance(v, str) and SHA256.match(v), "a sha256 (64 hex digits)")
    files = need("files", lambda v: isinstance(v, dict), "a table of file names and sha256")
    for name, digest in files.items():
        if not _plain_name(name) or name == MANIFEST_NAME or not (isinstance(digest, str) and SHA256.match(digest)):
            raise ManifestError(f"{path}: key 'files' lists {name!r}: {digest!r}, not a file name and a sha256")
    if "published" in manifest and not isinstance(manifest["published"], bool):
        raise ManifestError(f"{path}: key 'published' is not true or false")
    return manifest


def is_published(manifest: dict) -> bool:
    """False while a run stages the folder (its manifest says "published": false), true once it is swapped in."""
    return manifest.get("published", True) is not False
