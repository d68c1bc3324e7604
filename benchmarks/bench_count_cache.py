"""Count cache speed and size: store/load of a Casino Hold'em-shaped array set, by deflate level and filter.

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
    plus, per load (format 1): sha256 of the raw arrays 0.094 s, undoing the shuffle 0.05 s
    (NumPy shifts on words; 0.13 s as a strided byte copy), copying 0.01 s

Level 3 with the shuffle: the real table's file is a fifth smaller than without it (36.5
against 45.5 MB, 6.1x smaller than raw), and loads no slower; level 6 saves 8% more for
twice the store time and no faster load; level 9 takes 10x longer to write.  End to end
with the defaults (whole set, median of 5, at a quiet moment, load average 1.9), format 1:

    real       36.54 MB   store 0.65 s (1.2 s CPU)   load 0.29-0.30 s (0.52-0.55 s CPU)
    synthetic  81.54 MB   store 1.9-2.0 s (3.7 s CPU)  load 0.48-0.50 s (0.89 s CPU)

Format 2 (2026-12-01, 2 cores of an Intel Xeon shared with other jobs, load average 1.3-2.6,
so wall times wander; CPU seconds are the steadier figure).  Where a real Hold'em load's
single-thread time went in format 1: inflating 0.42 s (of it 0.07 s the counts' all-zero top
byte plane, 0.09 s the next, 88% zeros: zlib 1.2.13 copies even runs of zeros byte by
byte), NumPy's unshuffle 0.18 s (cold output pages), sha256 of the raw arrays 0.13 s.
Format 2 stores no all-zero trailing plane (inflating 0.37 s), hashes the compressed bytes
(0.05 s, overlapping the inflating threads) and the loader is given the compiled unshuffle
(`cython_ext.byte_planes`, 0.04 s).  The same table, format 1 -> format 2, this script
(median of 5) and a load-only loop (median of 9, `count_cache.load` of the real cache files):

    real       36.54 -> 36.25 MB   store CPU 1.48 -> 1.28 s   load CPU 0.85 -> 0.43 s
    synthetic  81.54 -> 81.26 MB   store CPU 4.1 -> 4.0 s     load CPU 1.28 -> 0.89 s
    real Hold'em entry, load 2 threads: wall 0.43-0.45 -> 0.22 s (quiet moments), CPU 0.81-0.87 -> 0.41-0.43 s
    real Hold'em entry, load 1 thread:  wall 0.62-0.71 -> 0.38-0.42 s
    real Stud entry (152 MB raw, 24.8 MB), 2 threads: wall 0.22-0.31 -> 0.20-0.22 s, CPU 0.41-0.46 -> 0.27-0.28 s

What is left is zlib's inflating (0.37 s of CPU for Hold'em); the synthetic counts have more
entropy than the real ones (independent draws), hence twice the file and inflate time.
With the other core busy, wall time rises to the CPU time.

Format 3 (2026-12-01, same machine, load average 3.8-5, so CPU seconds are the figure to
read).  Inflating cost 2 ns a byte of output for zero-rich streams (Hold'em's third count
plane, 88% zeros) and 4-5 ns for near-random ones (its two low planes), reading and hashing
a stored byte about 2 ns: so (1) a block whose items are mostly zero is stored sparse, a
bitmap of its nonzero items and the planes of those only (Hold'em's counts: 69 MB of
streams to decode instead of 154 MB; `cython_ext.byte_planes.expand_into` puts them back,
0.05 s), (2) each plane is its own stream, deflated only when zlib makes it 4x smaller
(where inflating is no slower than reading the bytes raw), else stored as it is, (3) each
block has its own sha256, checked by the decoding thread, and (4) the file is mapped, not
copied.  Format 2 -> format 3, this script (median of 5), and a load-only loop (min-median
of 9) on the real cache entries:

    real       36.25 -> 54.34 MB   store CPU 1.33 -> 1.29 s   load CPU 0.47 -> 0.18 s, wall 0.74 -> 0.23 s
    synthetic  81.26 -> 82.09 MB   store CPU 4.10 -> 2.28 s   load CPU 1.01 -> 0.33 s, wall 2.06 -> 0.67 s
    real Hold'em entry, load 2 threads: CPU 0.43-0.51 -> 0.17-0.18 s
    real Stud entry (152 MB raw), 2 threads: 24.8 -> 51.8 MB, CPU 0.29-0.31 -> 0.17 s, wall 0.39-0.45 -> 0.23-0.28 s

The files are larger (raw near-random planes: Stud's keys are 34 MB of its 52), well within
the folder's 2 GiB bound.

Format 3's store, made cheaper (2026-12-01, same machine, load average 7-9: CPU seconds are the
figure).  Of its CPU, zlib had taken three quarters, mostly compressing the near-random planes
(Stud's 34 MB of keys, the counts' low planes) only to store them raw; boolean indexing of the
sparse blocks' items most of the rest.  zlib is now tried on a 64 KiB sample of each stream first
and on the whole stream only when the sample shrinks 3x (no stream of the real tables is
decided otherwise: the files are byte for byte the same), the nonzero items are picked by
`np.compress`, and each plane is its own array (no `tobytes` copies; a raw plane held for the
file keeps no other plane alive).  Before -> after, this script (median of 5, two interleaved
rounds), `--entry` the analyzer's own cache files:

    synthetic        store CPU 2.25-2.33 -> 0.81-0.84 s   load CPU 0.29-0.33 -> 0.29-0.30 s
    caribbean_stud   store CPU 0.99-1.03 -> 0.39 s        load CPU 0.19 -> 0.18-0.22 s   (51.78 MB)
    casino_holdem    store CPU 1.31-1.34 -> 0.42 s        load CPU 0.18 -> 0.18 s        (54.34 MB)
    the store's peak allocation (tracemalloc, 2 threads): Stud 96 -> 60 MB, Hold'em 69 -> 65 MB

What is left of the store is zlib on the streams worth deflating (about 0.2 s for Stud, 0.12 s
for Hold'em, level 3; level 1 or Z_RLE save up to 0.13 s but leave 5-12 MB more raw), sha256,
the plane copies and the write.

ISA-L (2026-12-01, same machine, load average 2-6 from other jobs: CPU seconds are the figure).
The streams are deflated by ISA-L (`isal.isal_zlib`, levels 0..3; still zlib streams, so the
format stays 3 and files of either writer read with either code) and inflated by it.  On the 27
streams of the Stud entry worth deflating (31 MB, most of them counts planes of 2 MB), single
thread, best of 3: zlib level 3 deflates them in 0.205 s to 3.83 MB (zlib 1: 0.166 s, 4.57 MB),
ISA-L level 0 in 0.030 s to 5.36 MB, 1 and 2 in 0.032 s to 4.52 and 4.50 MB, 3 in 0.087 s to
4.52 MB; ISA-L inflates them in 0.022-0.029 s, zlib in 0.055-0.078 s.  A few planes that zlib
made 4x smaller no longer are (2.10 MB -> 472 KB by zlib, 544 KB by ISA-L) and are stored raw,
hence the larger Stud file.  The whole store and load by level (this script, `--grid --entry`,
median of 5; store CPU includes the sample trials, the layouts, sha256 and the write):

    level          caribbean_stud: file MB  store CPU s  load CPU s    casino_holdem: file MB  store CPU s  load CPU s
    zlib 3 (was)   51.78                    0.43-0.44    0.21-0.23     54.34                   0.45-0.46    0.19-0.23
    ISA-L 0        59.80                    0.160        0.148         55.80                   0.237        0.163
    ISA-L 1        56.67                    0.163        0.150         55.10                   0.235        0.218
    ISA-L 2        55.18                    0.173        0.148         55.10                   0.239        0.174
    ISA-L 3        54.16                    0.229        0.186         54.92                   0.308        0.205

Level 2 (`DEFAULT_LEVEL`): as fast as 0 and 1 and smaller; 3 costs a third more for 1-2% less.
Without the shuffle ISA-L makes Hold'em's file smaller (47.5 MB) but its store and load slower
(0.31 and 0.28-0.32 s).  A lower bar for deflating than 4x (inflating is now cheaper) was tried
on Stud: 3x gives 52.2 MB for 0.27 s of store CPU, 2x 32.2 MB (its keys deflated) for 0.26 s
and a slower load (0.18 s): the bar stays.  Besides: the sparse blocks' nonzero items are picked
by a boolean index of the words, not `np.compress` (which builds an int64 array of the indices
first, 16 MB of fresh pages per block of 4-byte items: Stud's eight sparse blocks 49 -> 26 ms,
and the Stud command's peak memory 360 -> 331 MB), and the streams are written once, into the
file after room for its header, rather than aside and copied.  One store in a fresh process
(as the analyzer makes it; median of 9, interleaved), before -> ISA-L -> ISA-L, written in place:

    caribbean_stud   CPU 0.447 -> 0.211 -> 0.188 s (system 0.108 -> 0.061 -> 0.048), wall 0.273 -> 0.148 -> 0.125 s
    casino_holdem    CPU 0.435 -> 0.268 -> 0.246 s (system 0.067 -> 0.072 -> 0.039), wall 0.264 -> 0.176 -> 0.160 s

and a load-only loop (median of 9, two rounds), the old file and the new one:

    caribbean_stud   zlib code, old file: CPU 0.184-0.196 s   ISA-L: old file 0.148-0.151 s, new file 0.149-0.156 s
    casino_holdem    zlib code, old file: CPU 0.179-0.180 s   ISA-L: old file 0.151-0.169 s, new file 0.157-0.164 s

What is left of Stud's store (per part, thread CPU, one thread): the sample trials and
deflating 0.044 s, sha256 0.033 s, the nonzero mask and count 0.032 s, copying the planes
0.024 s, picking the sparse items 0.018 s (np.compress: 0.065 s), the kept planes 0.010 s; and
the write, about 0.02 s of system time.  A compiled kernel splitting a block into its planes
(and bitmap) in one pass might save 0.03-0.05 s of it; not done.

Run: python benchmarks/bench_count_cache.py [--runs N] [--real FILE.npz] [--entry FILE.tgacache] [--grid]
"""
import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from _timing import machine

from analyzer.publish import count_cache
from cython_ext.byte_planes import expand_into, unshuffle_into

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
        loaded = timed(lambda: count_cache.load(folder, key, threads=threads, unshuffle=unshuffle_into,
                                                expand=expand_into), runs)
        back, _ = count_cache.load(folder, key)
        assert all(np.array_equal(back[n], arrays[n]) for n in arrays)
    raw = sum(a.nbytes for a in arrays.values())
    print(f"{name[:14]:14s} {level:5d} {'yes' if shuffle else 'no':>7s} {raw / 1e6:7.1f} {size / 1e6:8.2f} "
          f"{stored[0]:8.3f} {stored[1]:6.3f} {loaded[0]:7.3f} {loaded[1]:6.3f}", flush=True)


def entry_arrays(path: Path) -> dict:
    """The arrays of a cache file the analyzer wrote (e.g. OUT/.cache/caribbean_stud-*.tgacache), read back."""
    with open(path, "rb") as handle:
        handle.readline()
        key = json.loads(handle.readline())["key"]
    arrays, _ = count_cache.load(path.parent, key, unshuffle=unshuffle_into, expand=expand_into)
    return arrays


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--real", type=Path, help="an .npz of the real table (keys, weights, counts)")
    parser.add_argument("--entry", type=Path, action="append", default=[],
                        help="a cache file the analyzer wrote (its arrays are measured; repeatable)")
    parser.add_argument("--grid", action="store_true", help="every ISA-L level (0..3) with and without shuffle")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: one per core, at most 8)")
    args = parser.parse_args()
    print(machine())
    sets = {"synthetic": holdem_shaped()}
    if args.real:
        with np.load(args.real) as data:
            sets["real"] = {name: np.ascontiguousarray(data[name]) for name in ("keys", "weights", "counts")}
    for path in args.entry:
        sets[path.name.split("-")[0]] = entry_arrays(path)
    settings = [(level, shuffle) for level in range(4) for shuffle in (False, True)] if args.grid \
        else [(count_cache.DEFAULT_LEVEL, True)]
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} before the run")
    print("data           level shuffle  raw MB  file MB  store s (cpu)   load s (cpu)")
    for name, arrays in sets.items():
        for level, shuffle in settings:
            measure(name, arrays, level, shuffle, args.runs, args.threads)


if __name__ == "__main__":
    main()
