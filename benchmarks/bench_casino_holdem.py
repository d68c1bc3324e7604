"""Casino Hold'em speed in process: the count and the analysis (no outputs), median of runs.

Times the count (board classes, situation classes, both kernel passes, the class order)
and `analyse()` (pricing, every strategy) of the built-in rule set, from nothing; prints
the median wall times and the work rates.  --jobs N runs the passes' chunks on N local
processes; the default runs them in this process on every core (OpenMP threads).  The
whole command as a user runs it is measured by bench_commands.py.
Run: python benchmarks/bench_casino_holdem.py [--runs N] [--jobs N]
"""
import argparse
import time

from _timing import machine, median_seconds

from analyzer.core.execution import LocalExecutor, SerialExecutor, default_jobs
from analyzer.games import registry
from analyzer.games.casino_holdem import count


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="local processes (default: threads in-process)")
    args = parser.parse_args()
    game = registry.game("casino-holdem")
    rule_file, rules = game.load_rules()
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(default_jobs())
    print(machine(), f"executor: {type(executor).__name__}, {args.jobs or default_jobs()} workers/threads")
    split = {}

    def whole():
        started = time.perf_counter()
        table = count.count_situations(rules, None, executor)
        split["count"] = time.perf_counter() - started
        game.module.analyse(rule_file, rules, table)
        split["analyse"] = time.perf_counter() - started - split["count"]
    median, times = median_seconds(whole, args.runs)
    evaluations = 134_459 * 1_081                      # pass 1: one 7-card evaluation per board class x hole pair
    updates = count.FULL_DECK_CLASSES * 1_176          # pass 2: situation class x turn/river pair
    deals = 25_989_600 * 1_070_190
    print(f"count and analysis: median {median:.2f} s over {args.runs} runs ({', '.join(f'{t:.2f}' for t in times)}); "
          f"last run: count {split['count']:.2f} s, analyse {split['analyse']:.2f} s")
    print(f"  pass 1: {evaluations / 1e6:.0f} M seven-card evaluations; pass 2: {updates / 1e9:.2f} G "
          f"situation updates; {deals / median / 1e12:.2f} T deals settled per second")


if __name__ == "__main__":
    main()
