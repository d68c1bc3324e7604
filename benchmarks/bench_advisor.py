"""Strategy advisor speed: load a strategy file (< 1 s), one lookup (< 20 us), 1,000,000 deals (< 5 s).

Reads the strategy files under --results (default ./results); writes benchmarks/results/advisor.json.
Run: python benchmarks/bench_advisor.py [--results DIR] [--runs N]
"""
import argparse
import random

import numpy as np
from _timing import machine, median_seconds, save

from analyzer import advisor

GAMES = {"casino-holdem": (2, 3), "caribbean-stud": (5, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", default="results")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(machine())
    rows = []
    for game, sizes in GAMES.items():
        try:
            path = advisor.strategy_path(args.results, game, "operator")
        except advisor.InputError as error:
            print(f"{game}: skipped ({error})")
            continue
        load, _ = median_seconds(lambda: advisor.load_strategy(path), args.runs)
        strategy = advisor.load_strategy(path)
        rng = random.Random(1)
        deals = [rng.sample(range(52), sum(sizes)) for _ in range(20_000)]
        groups = [[d[:sizes[0]], d[sizes[0]:]] for d in deals]
        it = iter(groups * args.runs)
        single, _ = median_seconds(lambda: strategy.decide_cards(next(it)), len(groups) * args.runs)
        batch_deals = np.array([rng.sample(range(52), sum(sizes)) for _ in range(1_000_000)], dtype=np.uint8)
        batch, _ = median_seconds(lambda: strategy.decide_many(batch_deals), args.runs)
        print(f"{game}: load {load * 1e3:.0f} ms (target < 1000), one lookup {single * 1e6:.1f} us "
              f"(target < 20), 1,000,000 deals {batch:.2f} s (target < 5); {len(strategy.packed):,} classes")
        rows += [{"what": f"{game}: load the strategy file", "seconds": load, "target_s": 1.0},
                 {"what": f"{game}: one lookup (cards to decision and EVs)", "seconds": single, "target_s": 20e-6},
                 {"what": f"{game}: 1,000,000 deals in one batch", "seconds": batch, "target_s": 5.0}]
    save("advisor", args.runs, rows)


if __name__ == "__main__":
    main()
