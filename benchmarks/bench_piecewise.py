"""Paytable design speed: breakpoints, pieces and solve on 5,649,150 random situation classes.

Two random instances of Caribbean Stud's size (seeded):
  "ties"      realistic magnitudes (denominator 163,185 dealer completions, weights 1..24,
              numerators below 2**40): every class's breakpoint a multiple of 1/64 in
              [0, 200], so half fall in the range [0, 100] on its 6,401 multiples of 1/64
              (big groups of equal fractions in different terms); int64 throughout.
  "distinct"  numerators up to 10**12, slopes up to 10**9: almost every breakpoint in
              [-10**6, 10**6] is distinct, and the piece sums pass 2**63 (Python integers).
The target is the figure at one theta (37, resp. 1234), so it is reachable.  Prints the
median wall time of each step over `--runs` (the model is rebuilt each run, so nothing is
cached between them) and writes benchmarks/results/piecewise.json.

Run: python benchmarks/bench_piecewise.py [--runs N]
"""
import argparse
import time
from fractions import Fraction

import numpy as np
from _timing import machine, save

from analyzer.design.piecewise import PayoutModel

CLASSES = 5_649_150
COMPLETIONS = 163_185


def ties(rng):
    w = rng.integers(1, 25, CLASSES)
    f = np.full(CLASSES, -COMPLETIONS, dtype=np.int64)
    slope = rng.integers(-COMPLETIONS // 6400, COMPLETIONS // 640, CLASSES)
    a = f - slope * rng.integers(0, 200 * 64, CLASSES)           # breakpoint (f - a) / b = k / 64
    b = 64 * slope
    return PayoutModel(w, f, a, b, COMPLETIONS, wager=2), (0, 100), Fraction(37), "rtp"


def distinct(rng):
    w = rng.integers(1, 25, CLASSES)
    a, f = rng.integers(-10**12, 10**12, CLASSES), rng.integers(-10**12, 10**12, CLASSES)
    b = rng.integers(1, 10**9, CLASSES) * rng.choice([-1, 1], CLASSES)
    return PayoutModel(w, f, a, b, COMPLETIONS, wager=2), (-10**6, 10**6), Fraction(1234), "house_edge"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(machine())
    rows = []
    for make in (ties, distinct):
        times = {"model": [], "breakpoints": [], "pieces": [], "solve": [], "printable": []}
        for run in range(args.runs):
            rng = np.random.default_rng(20240611)
            started = time.perf_counter()
            model, (lo, hi), at, kind = make(rng)
            times["model"].append(time.perf_counter() - started)
            point = PayoutModel(model.w, model.f, model.a, model.b, model.D, wager=model.wager).point(at)
            target = point.rtp if kind == "rtp" else point.house_edge        # reachable: the figure at `at`
            started = time.perf_counter()
            found = model.breakpoints(lo, hi)
            times["breakpoints"].append(time.perf_counter() - started)
            started = time.perf_counter()
            pieces = model.pieces(lo, hi)
            times["pieces"].append(time.perf_counter() - started)
            started = time.perf_counter()
            solution = model.solve(target, kind, lo, hi)
            times["solve"].append(time.perf_counter() - started)
            started = time.perf_counter()
            theta = solution.solutions[0].start if solution.reachable else Fraction(lo + hi, 2)
            model.printable_neighbours(theta, "1/2")
            times["printable"].append(time.perf_counter() - started)
        switching = int(found.to_play.sum() + found.to_fold.sum())
        print(f"{make.__name__}: {len(model):,} classes, {switching:,} switching in [{lo}, {hi}] at "
              f"{len(found):,} distinct breakpoints, {len(pieces):,} pieces; {solution.describe()}")
        print("  median s: " + ", ".join(f"{name} {np.median(values):.2f}" for name, values in times.items()))
        rows += [{"what": f"{make.__name__}: {name}", "seconds": round(float(np.median(values)), 3), "target_s": None}
                 for name, values in times.items()]
    save("piecewise", args.runs, rows)


if __name__ == "__main__":
    main()
