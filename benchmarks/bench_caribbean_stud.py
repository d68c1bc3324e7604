"""Caribbean Stud speed: both built-in rule sets from nothing (target < 10 s, aim 3 s on two cores).

Each run forgets every count, then does the whole job of `analyzer caribbean-stud`: the
5,649,150 situation classes, the kernel's counts over every dealer completion, pricing,
strategies, the rule in words, the progressive, and every results file (written to a
temporary folder).  Prints the median wall time, the split of the last run, and the work
rate in deals (situation x dealer completion) per second.

Run: python benchmarks/bench_caribbean_stud.py [--runs N] [--threads N]
"""
import argparse
import tempfile
import time

from _timing import machine, median_seconds

from analyzer import caribbean_stud, stud_situations
from analyzer.rules import builtin_rule_paths

DEALS = 122_151_120 * 163_185          # (hand, up card) situations x dealer completions


def whole_job(out_root, threads, split):
    stud_situations.clear_cache()
    started = time.perf_counter()
    loaded = [caribbean_stud.load_rules(path) for path in builtin_rule_paths(caribbean_stud.GAME)]
    stud_situations.count_classes(loaded[0][1].cards, loaded[0][1].qualifier_rank, threads)
    split["count (classes + kernel)"] = time.perf_counter() - started
    caribbean_stud.run(None, out_root, ["caribbean-stud"], None, threads=threads)
    split["price, figures, rule, files"] = time.perf_counter() - started - split["count (classes + kernel)"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None, help="kernel threads (default: every core)")
    args = parser.parse_args()
    print(machine())
    split = {}
    with tempfile.TemporaryDirectory() as out_root:
        median, times = median_seconds(lambda: whole_job(out_root, args.threads, split), args.runs)
    print(f"both rule sets from nothing, files included: median {median:.2f} s over {args.runs} runs "
          f"(min {min(times):.2f}, max {max(times):.2f}; target < 10 s, aim 3 s)")
    print("last run: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in split.items()))
    print(f"work rate: {DEALS / median:.3e} deals/s ({DEALS:,} deals per rule set, counted once for both); "
          f"{5_649_150 / split['count (classes + kernel)']:,.0f} situation classes/s in the count")


if __name__ == "__main__":
    main()
