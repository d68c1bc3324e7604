"""Caribbean Stud speed in process: the count and both built-in rule sets' analyses (no outputs).

Each run counts from nothing: the 5,649,150 situation classes and the kernel's counts
over every dealer completion (once, shared by both rule sets), then analyses each rule set
(pricing, strategies, the rule in words and its proof on every class, the progressive).
Prints the median wall time, the split of the last run, and the work rate in deals
(situation x dealer completion) per second.  The whole command as a user runs it
(outputs, verification, report) is measured by bench_commands.py.
Run: python benchmarks/bench_caribbean_stud.py [--runs N] [--jobs N]
"""
import argparse
import time

from _timing import machine, median_seconds

from analyzer.core.execution import LocalExecutor, SerialExecutor, default_jobs
from analyzer.games import registry

DEALS = 122_151_120 * 163_185          # (hand, up card) situations x dealer completions


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None,
                        help="local worker processes (default: this process, every core as kernel threads)")
    args = parser.parse_args()
    print(machine())
    game = registry.game("caribbean-stud")
    loaded = [game.load_rules(path) for path in game.builtin_rule_paths]
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(default_jobs())
    split = {}

    def whole():
        started = time.perf_counter()
        table = game.module.count(loaded[0][1], executor)
        split["count (classes + kernel)"] = time.perf_counter() - started
        for rule_file, rules in loaded:
            game.module.analyse(rule_file, rules, table)
        split["both analyses"] = time.perf_counter() - started - split["count (classes + kernel)"]
    median, times = median_seconds(whole, args.runs)
    print(f"both rule sets from nothing: median {median:.2f} s over {args.runs} runs "
          f"(min {min(times):.2f}, max {max(times):.2f})")
    print("last run: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in split.items()))
    print(f"work rate: {DEALS / median:.3e} deals/s ({DEALS:,} deals per rule set, counted once for both); "
          f"{5_649_150 / split['count (classes + kernel)']:,.0f} situation classes/s in the count")


if __name__ == "__main__":
    main()
