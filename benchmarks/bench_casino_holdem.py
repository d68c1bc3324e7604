"""Casino Hold'em speed: the whole analysis from nothing (target <= 60 s on 2 cores, aim ~15 s).

Times `analyse()` (board classes, both kernel passes, class collection, pricing and every
strategy) with no cache; prints the median wall time and the work rates.
Run: python benchmarks/bench_casino_holdem.py [--runs N] [--threads N]
"""
import argparse
import time

from _timing import machine, median_seconds

from analyzer import casino_holdem


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="default: every core")
    args = parser.parse_args()
    rule_file, rules = casino_holdem.load_rules()
    print(machine(), f"threads={args.threads or casino_holdem.default_threads()}")
    median, times = median_seconds(lambda: casino_holdem.analyse(rule_file, rules, threads=args.threads), args.runs)
    evaluations = 134_459 * 1_081                      # pass 1: one 7-card evaluation per board class x hole pair
    gathers = 1_755 * 1_176 * 1_081                    # pass 2: canonical flop x turn/river x hole pair
    deals = 25_989_600 * 1_070_190
    print(f"whole analysis: median {median:.2f} s over {args.runs} runs ({', '.join(f'{t:.2f}' for t in times)}) "
          f"(target <= 60 s)")
    print(f"  pass 1: {evaluations / 1e6:.0f} M seven-card evaluations; pass 2: {gathers / 1e9:.2f} G "
          f"situation updates; {deals / median / 1e12:.2f} T deals settled per second")


if __name__ == "__main__":
    main()
