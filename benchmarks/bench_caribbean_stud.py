"""Caribbean Stud speed: both built-in rule sets from nothing (target < 10 s, aim 3 s on two cores).

Each run forgets every count, then does the whole analysis of `analyzer caribbean-stud`:
the 5,649,150 situation classes, the kernel's counts over every dealer completion (once,
shared by both rule sets), pricing, strategies, the rule in words and its proof on every
class, the progressive, the PAR lines and the encoded strategy files.  Not timed: the
pre-publication verification (Monte Carlo, re-enumeration) and the report, which
`analyzer verify` can also run apart.  Prints the median wall time, the split of the last
run, and the work rate in deals (situation x dealer completion) per second.

Run: python benchmarks/bench_caribbean_stud.py [--runs N] [--jobs N]
"""
import argparse
import time

from _timing import machine, median_seconds

from analyzer import caribbean_stud, stud_situations
from analyzer.execution import LocalExecutor, SerialExecutor
from analyzer.rules import builtin_rule_paths

DEALS = 122_151_120 * 163_185          # (hand, up card) situations x dealer completions


def whole_job(executor, split):
    stud_situations.clear_cache()
    started = time.perf_counter()
    loaded = [caribbean_stud.load_rules(path) for path in builtin_rule_paths(caribbean_stud.GAME)]
    stud_situations.count_classes(loaded[0][1].cards, loaded[0][1].qualifier_rank, executor)
    split["count (classes + kernel)"] = time.perf_counter() - started
    caribbean_stud.analyse_all(builtin_rule_paths(caribbean_stud.GAME), None, executor)
    split["price, figures, rule, strategy files"] = time.perf_counter() - started - split["count (classes + kernel)"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None,
                        help="local worker processes (default: this process, every core as kernel threads)")
    args = parser.parse_args()
    print(machine())
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(stud_situations.stud_enum.default_threads())
    split = {}
    median, times = median_seconds(lambda: whole_job(executor, split), args.runs)
    print(f"both rule sets from nothing, strategy files encoded: median {median:.2f} s over {args.runs} runs "
          f"(min {min(times):.2f}, max {max(times):.2f}; target < 10 s, aim 3 s)")
    print("last run: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in split.items()))
    print(f"work rate: {DEALS / median:.3e} deals/s ({DEALS:,} deals per rule set, counted once for both); "
          f"{5_649_150 / split['count (classes + kernel)']:,.0f} situation classes/s in the count")


if __name__ == "__main__":
    main()
