"""Count cache speed and size: store and load of a game's real count (format 4: plain arrays, HMAC-SHA256).

    python benchmarks/bench_count_cache.py [--game caribbean-stud|casino-holdem] [--runs N]

Counts the game's operator rules once, then stores and loads that count `--runs` times in a
temporary folder (signed with a temporary key) and prints the file's size and the medians of
wall and CPU seconds of `count_cache.store` and of a cached load (`count_cache.load` and the
game's `table_from_arrays`, whose totals check is part of trusting a file); the load is with the
file in the page cache, the usual case (it was just written, or recently read).

Measured 2026-12-03 on 2 shared cores (AMD EPYC, load average 10-14: CPU seconds are the figure
to read), Caribbean Stud, median of 3: a 146.9 MB file (format 3: 55.2 MB), stored in 0.97 s
(0.44 s of CPU, on the pipeline's background thread), loaded and checked in 0.34 s (0.16 s of
CPU; format 3's load: 0.15 s of CPU).  A whole cached `analyzer caribbean-stud --rules <another
paytable> --check-samples 0 --check-rounds 0`, 3 runs each, interleaved with format 3's: 5.3-5.4 s
of CPU (format 3: 5.0-5.4 s), peak 345 MB either format (`/usr/bin/time`).
"""
import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from _timing import machine

from analyzer.games import registry
from analyzer.publish import count_cache


def timed(function, runs: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of `runs` calls: CPU time is the work, whatever else the cores do."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="caribbean-stud", choices=["caribbean-stud", "casino-holdem"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    game = registry.game(args.game)
    _, rules = game.load_rules()
    arrays, meta = game.module.table_arrays(game.module.count(rules))
    key = count_cache.cache_key(game.name, game.module.count_fields(rules), "bench")
    print(machine())
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} before the run")
    with tempfile.TemporaryDirectory() as folder:
        os.environ[count_cache.KEY_ENV] = str(Path(folder) / "key")
        cache = Path(folder) / "cache"
        count_cache.open_folder(cache)
        stored = timed(lambda: count_cache.store(cache, key, arrays, meta, prefix=game.folder), args.runs)
        loaded = timed(lambda: game.module.table_from_arrays(rules, *count_cache.load(cache, key)), args.runs)
        size = sum(path.stat().st_size for path in count_cache.cache_files(cache))
    raw = sum(array.nbytes for array in arrays.values())
    print(f"{args.game}: raw {raw / 1e6:.1f} MB, file {size / 1e6:.1f} MB; store {stored[0]:.3f} s "
          f"({stored[1]:.3f} s CPU), load {loaded[0]:.3f} s ({loaded[1]:.3f} s CPU), median of {args.runs}")


if __name__ == "__main__":
    main()
