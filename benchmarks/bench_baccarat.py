"""Baccarat speed: the full 8-deck analysis (target < 0.1 s) and one depleted-shoe query (target < 1 ms).

Run: python benchmarks/bench_baccarat.py [--runs N]; writes benchmarks/results/baccarat.json.
"""
import argparse
import random

from _timing import machine, median_seconds, save

from analyzer.games import registry
from analyzer.games.baccarat import advice


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    game = registry.game("baccarat")
    rule_file, rules = game.load_rules()
    print(machine())

    full, _ = median_seconds(lambda: game.module.analyse(rule_file, rules, game.module.count(rules)), args.runs)
    print(f"full 8-deck analysis (11 shoe enumerations, figures, stake table): median {full * 1e3:.1f} ms "
          f"over {args.runs} runs (target < 100 ms)")

    rng = random.Random(1)
    shoes = []
    for _ in range(200):
        shoe = list(rules.full_shoe())
        for _ in range(rng.randrange(0, 300)):
            value = rng.choice([v for v in range(10) if shoe[v]])
            shoe[value] -= 1
        shoes.append(tuple(shoe))
    it = iter(shoes * args.runs)
    per_query, _ = median_seconds(lambda: advice.shoe_query(next(it), rules), len(shoes) * args.runs)
    print(f"depleted-shoe query (EV of all three bets, exact): median {per_query * 1e6:.0f} us "
          f"over {len(shoes) * args.runs} random shoes (target < 1000 us)")
    save("baccarat", args.runs, [
        {"what": "baccarat: full 8-deck analysis in the process", "seconds": full, "target_s": 0.1},
        {"what": "baccarat: EV of all three bets for a depleted shoe", "seconds": per_query, "target_s": 1e-3}])


if __name__ == "__main__":
    main()
