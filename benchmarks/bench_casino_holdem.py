"""Casino Hold'em speed: the whole analysis from nothing (target <= 60 s on 2 cores, aim ~15 s).

Times `analyse()` (board classes, both kernel passes, class collection, pricing and every
strategy) with no cache; prints the median wall time and the work rates.  --jobs N runs the
passes' chunks on N local processes; the default runs them in this process on every core
(OpenMP threads).
Run: python benchmarks/bench_casino_holdem.py [--runs N] [--jobs N]
"""
import argparse

from _timing import machine, median_seconds

from analyzer import casino_holdem
from analyzer.execution import LocalExecutor, SerialExecutor, default_jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="local processes (default: threads in-process)")
    args = parser.parse_args()
    rule_file, rules = casino_holdem.load_rules()
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(default_jobs())
    print(machine(), f"executor: {type(executor).__name__}, {args.jobs or default_jobs()} workers/threads")
    median, times = median_seconds(lambda: casino_holdem.analyse(rule_file, rules, executor=executor), args.runs)
    evaluations = 134_459 * 1_081                      # pass 1: one 7-card evaluation per board class x hole pair
    gathers = 1_755 * 1_176 * 1_081                    # pass 2: canonical flop x turn/river x hole pair
    deals = 25_989_600 * 1_070_190
    print(f"whole analysis: median {median:.2f} s over {args.runs} runs ({', '.join(f'{t:.2f}' for t in times)}) "
          f"(target <= 60 s)")
    print(f"  pass 1: {evaluations / 1e6:.0f} M seven-card evaluations; pass 2: {gathers / 1e9:.2f} G "
          f"situation updates; {deals / median / 1e12:.2f} T deals settled per second")


if __name__ == "__main__":
    main()
