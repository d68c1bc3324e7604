"""Count once, price many: cache hits are byte-identical to fresh counts, a damaged cache is recounted,
a paytable variant is priced from the cache without enumerating, and `sweep` works for every game."""
import csv
import hashlib
import hmac
import errno
import os
import io
import json
import re
from pathlib import Path

import numpy as np
import openpyxl
import pytest

import support
from analyzer.publish import count_cache
from analyzer.games import registry
from analyzer.publish import pipeline, sweep

SMALL = {"casino-holdem": ("23456A", "cd"), "caribbean-stud": ("9TJQKA", "cd")}
PAYOUT = {"casino-holdem": ("four_of_a_kind = 10", "four_of_a_kind = 12"),
          "caribbean-stud": ("\nflush = 6\n", "\nflush = 7\n")}


def files_of(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


REPORTS = ("report.md", "report.html")


def as_if_counted(files: dict) -> dict:
    """The files of a folder priced from the count cache, less what says so: the manifest's "counts" (and
    the reports' sha256 there) and the report's line; the files of one counted afresh, less the same."""
    manifest = json.loads(files["manifest.json"])
    if "counts" in files["manifest.json"].decode():
        assert manifest.pop("counts")["from_cache"] is True
        for name in REPORTS:
            line = re.search(rb"(<p>)?The counts were read from the count cache[^\n]*\n\n?", files[name])
            assert line, name
            files = {**files, name: files[name].replace(line.group(0), b"", 1)}
    for name in REPORTS:
        manifest["files"].pop(name)
    return {**files, "manifest.json": json.dumps(manifest, sort_keys=True).encode()}


def publish(game, path, root, cache):
    run = pipeline.Run(Path(root), [game], support.QUICK_CHECKS, cache=cache)
    return pipeline.run_game(registry.game(game), [path], run)[0].folder


class Counted:
    """Counts how often the game's kernel count runs."""

    def __init__(self, monkeypatch, game):
        module = registry.game(game).module
        self.calls, real = 0, module.count

        def counting(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(module, "count", counting)


@pytest.mark.parametrize("game", list(SMALL))
def test_cache_hits_are_byte_identical_to_fresh_counts(tmp_path, monkeypatch, game):
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    counted = Counted(monkeypatch, game)
    fresh = files_of(publish(game, path, tmp_path / "fresh", None))
    cache = tmp_path / "cache"
    missed = files_of(publish(game, path, tmp_path / "miss", cache))
    hit = files_of(publish(game, path, tmp_path / "hit", cache))
    assert counted.calls == 2                          # fresh and the miss count; the hit reads the cache
    assert fresh == missed and hit != fresh            # the hit says it was priced from the cache ...
    assert "counts" not in json.loads(fresh["manifest.json"])
    assert json.loads(hit["manifest.json"])["counts"]["from_cache"] is True
    assert as_if_counted(hit) == as_if_counted(fresh)  # ... and is otherwise the same, byte for byte
    assert len(count_cache.cache_files(cache)) == 1


@pytest.mark.parametrize("game", list(SMALL))
def test_a_paytable_variant_is_priced_from_the_cache(tmp_path, monkeypatch, game):
    ranks, suits = SMALL[game]
    base = support.reduced_deck(tmp_path, game, ranks, suits)
    variant = support.reduced_deck(tmp_path, game, ranks, suits, name="variant", more=[PAYOUT[game]])
    cache = tmp_path / "cache"
    publish(game, base, tmp_path / "out", cache)
    counted = Counted(monkeypatch, game)
    priced = files_of(publish(game, variant, tmp_path / "out", cache))
    assert counted.calls == 0
    assert as_if_counted(priced) == as_if_counted(files_of(publish(game, variant, tmp_path / "fresh", None)))


def test_a_damaged_cache_is_recounted_never_trusted(tmp_path, monkeypatch, capsys):
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    cache = tmp_path / "cache"
    first = files_of(publish(game, path, tmp_path / "a", cache))
    cached, = count_cache.cache_files(cache)
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0x40
    cached.write_bytes(bytes(data))
    counted = Counted(monkeypatch, game)
    again = files_of(publish(game, path, tmp_path / "b", cache))
    assert counted.calls == 1 and again == first
    assert "cache" in capsys.readouterr().err


@pytest.mark.parametrize("signer", ["forger", "user"])
def test_a_forged_count_is_recounted_never_published(tmp_path, monkeypatch, capsys, signer):
    """The cached counts with one deal moved between two outcomes of one class (every class's total kept),
    written in the cache's format and signed by someone without the user's key (the HMAC fails), or with it
    (the totals every true count keeps fail): recounted, one line."""
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    cache = tmp_path / "cache"
    first = files_of(publish(game, path, tmp_path / "a", cache))
    cached, = count_cache.cache_files(cache)
    header = json.loads(cached.read_bytes().split(b"\n")[1])
    arrays, meta = count_cache.load(cache, header["key"])
    counts = arrays["counts_by_outcome"].copy()
    column = int(np.flatnonzero(counts[0] > 0)[0])
    counts[0, column] -= 1
    counts[1, column] += 1
    forger = tmp_path / "forger"
    forger.mkdir()
    forged = count_cache.store(forger, header["key"], {**arrays, "counts_by_outcome": counts}, meta,
                               prefix=cached.name.split("-")[0]).read_bytes()[:-count_cache.DIGEST_BYTES]
    secret = b"the forger's key" if signer == "forger" else count_cache.signing_key()
    cached.write_bytes(forged + hmac.new(secret, forged, hashlib.sha256).digest())
    capsys.readouterr()
    counted = Counted(monkeypatch, game)
    again = files_of(publish(game, path, tmp_path / "b", cache))
    assert counted.calls == 1 and again == first
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not trusting" in err, err
    assert ("HMAC" in err and str(cached) in err) if signer == "forger" else "break their totals" in err


def test_a_folder_priced_from_the_cache_says_so_and_verify_recounts_it(tmp_path, capsys):
    from analyzer.cli import main
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    publish(game, path, tmp_path / "a", tmp_path / "cache")
    folder = publish(game, path, tmp_path / "b", tmp_path / "cache")
    key = json.loads((folder / "manifest.json").read_text())["counts"]["key"]
    assert f"The counts were read from the count cache (key `{key}`)" in (folder / "report.md").read_text()
    assert count_cache.cache_files(tmp_path / "cache")[0].name.endswith(f"-{key[:16]}.tgacache")
    capsys.readouterr()
    assert main(["verify", str(folder), "--quiet"]) == 0, capsys.readouterr()
    assert "every counted deal" in capsys.readouterr().out            # counted afresh by verify, not read


def test_a_rebuilt_kernel_never_reads_an_old_cache(monkeypatch):
    game = registry.game("caribbean-stud")
    before = pipeline.kernel_digest(game)
    monkeypatch.setattr(registry.Game, "kernels", property(lambda self: ("handeval",)))
    assert pipeline.kernel_digest(game) != before


@pytest.mark.parametrize("game", ["baccarat", "casino-holdem", "caribbean-stud"])
def test_sweep_works_for_every_game(tmp_path, game):
    if game == "baccarat":
        paths = [support.variant(tmp_path, game, [("tie = 8 ", f"tie = {tie} ")], name=f"tie{tie}") for tie in (8, 9)]
    else:
        ranks, suits = SMALL[game]
        paths = [support.reduced_deck(tmp_path, game, ranks, suits, name="base"),
                 support.reduced_deck(tmp_path, game, ranks, suits, name="more", more=[PAYOUT[game]])]
    publish = game == "baccarat"                      # one game writes every results folder too
    folder = sweep.run(paths, "grid", pipeline.Run(tmp_path / "out", checks=support.QUICK_CHECKS,
                                                    cache=tmp_path / "cache"), publish=publish)
    folders = tmp_path / "out" / registry.game(game).folder
    assert folders.is_dir() == publish and (not publish or {p.name for p in folders.iterdir()} == {"tie8", "tie9"})
    rows = list(csv.DictReader(io.StringIO((folder / "comparison.csv").read_text())))
    assert {row["rule set"] for row in rows} == {p.stem for p in paths}
    sheet = openpyxl.load_workbook(folder / "comparison.xlsx")["comparison"]
    exact = [row[4] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert exact == [row["exact"] for row in rows]
    assert "| game | rule set |" in (folder / "comparison.md").read_text()


def test_a_stored_count_is_complete_for_the_next_run(tmp_path, monkeypatch):
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    first = files_of(publish(game, path, tmp_path / "a", tmp_path / "cache"))
    assert len(count_cache.cache_files(tmp_path / "cache")) == 1
    counted = Counted(monkeypatch, game)
    assert as_if_counted(files_of(publish(game, path, tmp_path / "b", tmp_path / "cache"))) == as_if_counted(first)
    assert counted.calls == 0                          # the file stored is complete


class FullDisk:
    """A file on a disk that fills up after its first write."""

    def __init__(self, handle):
        self.handle, self.writes = handle, 0

    def __enter__(self):
        return self

    def __exit__(self, *problem):
        self.handle.close()

    def write(self, data):
        self.writes += 1
        if self.writes > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


@pytest.mark.parametrize("command", ["analysis", "design"])
def test_a_full_disk_under_the_cache_is_one_line_and_the_run_succeeds(tmp_path, monkeypatch, capsys, command):
    """The disk fills up while the count is cached: one line says the count was not cached, the results are
    published, exit 0, and no temporary file is left in the cache."""
    from analyzer.cli import main
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])
    monkeypatch.setattr(count_cache, "open", lambda *args: FullDisk(open(*args)), raising=False)
    cache, out = tmp_path / "cache", tmp_path / "out"
    argv = [game, "--rules", str(path), "--check-rounds", "0", "--check-samples", "0"] if command == "analysis" \
        else ["design", game, "--rules", str(path), "--vary", "raise_pays.flush", "--range", "4", "8"]
    assert main([*argv, "--out", str(out), "--cache", str(cache), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"count not cached: {cache}{os.sep}caribbean_stud-"), err
    assert err.endswith(": No space left on device\n")
    published = out / "caribbean_stud" / "small" if command == "analysis" else out / "designs"
    assert published.is_dir() and any(published.iterdir())
    assert sorted(p.name for p in cache.iterdir()) == ["CACHEDIR.TAG"]
