"""Count cache speed and size: store/load of a Casino Hold'em-shaped array set, by zlib level and filter.

The set: keys (1,286,792 x 5) uint8 sorted by row, weights (1,286,792,) int64 in 1..24,
counts (1,286,792 x 10 x 4) uint32 with 56% zeros and the rest log-normal (median 14,000,
about 88% of all counts under 65,536, a tail up to 1,070,190, the continuations of one
situation): 222.6 MB raw, like the real table.  `--real FILE.npz` (arrays keys, weights,
counts, e.g. saved from `casino_holdem.count_situations`) measures the real table too.
Load times are with the file in the page cache (the usual case: the file was just written
or recently read); each figure is the median of `--runs`.

Measurements (2 cores of an AMD EPYC shared with other jobs, zlib 1.2.13, numpy 2.4).
The choice of level and filter rests on single-thread CPU seconds for the 206 MB counts
array alone (min of 3; contention barely moves them), real table / synthetic set:

    zlib level, filter   file MB        inflate CPU s   compress, 2 threads, wall s (real, about)
    1 plain              43.8 / 83.3    0.36 / 0.63     0.4-0.5
    1 shuffle            35.2 / 78.5    0.29 / 0.61     0.4
    3 plain              42.2 / 80.2    0.31 / 0.54     0.7
    3 shuffle            33.3 / 76.4    0.25 / 0.56     0.7
    6 plain              38.8 / 76.3    0.28 / 0.53     1.9
    6 shuffle            30.3 / 73.1    0.32 / 0.62     0.9
    9 plain / shuffle    38.2 / -       -               9.5 / 11.7
    plus, per load: sha256 0.094 s, undoing the shuffle 0.05 s (shifts on words; 0.13 s as
    a strided byte copy), copying 0.01 s

Level 3 with the shuffle: the real table's file is a fifth smaller than without it (36.5
against 45.5 MB, 6.1x smaller than raw), and loads no slower; level 6 saves 8% more for
twice the store time and no faster load; level 9 takes 10x longer to write.  End to end
with the defaults (whole set, median of 5, at a quiet moment, load average 1.9):

    real       36.54 MB   store 0.65 s (1.2 s CPU)   load 0.29-0.30 s (0.52-0.55 s CPU)
    synthetic  81.54 MB   store 1.9-2.0 s (3.7 s CPU)  load 0.48-0.50 s (0.89 s CPU)

The synthetic counts have more entropy than the real ones (independent draws), hence twice
the file and inflate time; the real table loads in 0.3 s.  With the other core busy, wall
time rises to the CPU time.

Run: python benchmarks/bench_count_cache.py [--runs N] [--real FILE.npz] [--grid]
"""
import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from _timing import machine

from analyzer.core import count_cache
from cython_ext.byte_planes import unshuffle_into

CLASSES = 1_286_792
CONTINUATIONS = 1_070_190


def holdem_shaped(seed: int = 20240611) -> dict:
    """A random array set shaped and distributed like Casino Hold'em's situation table."""
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 52, size=(CLASSES, 5), dtype=np.uint8)
    keys = keys[np.lexsort(keys.T[::-1])]
    weights = rng.integers(1, 25, size=CLASSES, dtype=np.int64)
    tail = np.minimum(rng.lognormal(np.log(14_000), 2.5, size=(CLASSES, 10, 4)), CONTINUATIONS)
    counts = np.where(rng.random((CLASSES, 10, 4)) < 0.56, 0, tail.astype(np.uint32) + 1).astype(np.uint32)
    return {"keys": keys, "weights": weights, "counts": counts}


def timed(function, runs: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of `runs` calls: CPU time is the work, whatever else the cores do."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def measure(name: str, arrays: dict, level: int, shuffle: bool, runs: int, threads: int | None) -> None:
    key = count_cache.cache_key("bench", {"data": name, "level": level, "shuffle": shuffle}, "1")
    with tempfile.TemporaryDirectory() as folder:
        stored = timed(lambda: count_cache.store(folder, key, arrays, {"kind": "bench"}, level=level,
                                                 shuffle=shuffle, threads=threads), runs)
        size = sum(path.stat().st_size for path in Path(folder).iterdir())
        loaded = timed(lambda: count_cache.load(folder, key, threads=threads, unshuffle=unshuffle_into), runs)
        back, _ = count_cache.load(folder, key)
        assert all(np.array_equal(back[n], arrays[n]) for n in arrays)
    raw = sum(a.nbytes for a in arrays.values())
    print(f"{name:9s} {level:5d} {'yes' if shuffle else 'no':>7s} {raw / 1e6:7.1f} {size / 1e6:8.2f} "
          f"{stored[0]:8.3f} {stored[1]:6.3f} {loaded[0]:7.3f} {loaded[1]:6.3f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--real", type=Path, help="an .npz of the real table (keys, weights, counts)")
    parser.add_argument("--grid", action="store_true", help="levels 1, 3, 6 with and without shuffle")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: one per core, at most 8)")
    args = parser.parse_args()
    print(machine())
    sets = {"synthetic": holdem_shaped()}
    if args.real:
        with np.load(args.real) as data:
            sets["real"] = {name: np.ascontiguousarray(data[name]) for name in ("keys", "weights", "counts")}
    settings = [(level, shuffle) for level in (1, 3, 6) for shuffle in (False, True)] if args.grid \
        else [(count_cache.DEFAULT_LEVEL, True)]
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} before the run")
    print("data      level shuffle  raw MB  file MB  store s (cpu)   load s (cpu)")
    for name, arrays in sets.items():
        for level, shuffle in settings:
            measure(name, arrays, level, shuffle, args.runs, args.threads)


if __name__ == "__main__":
    main()
