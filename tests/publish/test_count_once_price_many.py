"""Count once, price many: cache hits are byte-identical to fresh counts, a damaged cache is recounted,
a paytable variant is priced from the cache without enumerating, and `sweep` works for every game."""
import csv
import io
from pathlib import Path

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
    assert fresh == missed == hit
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
    assert priced == files_of(publish(game, variant, tmp_path / "fresh", None))


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
    assert files_of(publish(game, path, tmp_path / "b", tmp_path / "cache")) == first
    assert counted.calls == 0


def test_a_failed_cache_write_is_reported_in_one_line(tmp_path, monkeypatch, capsys):
    """A full disk while the cache is written: exit 1, one line naming the path."""
    from analyzer.cli import main
    game = "caribbean-stud"
    path = support.reduced_deck(tmp_path, game, *SMALL[game])

    def full(folder, *args, **kwargs):
        raise OSError(28, "No space left on device", str(folder))
    monkeypatch.setattr(count_cache, "store", full)
    assert main([game, "--rules", str(path), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache"),
                 "--check-rounds", "0", "--check-samples", "0", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and str(tmp_path / "cache") in err
