"""Colluders: deals and time for a 99.9% interval of half-width <= 0.1 percentage point, for each N.

Per game, the honest analysis is counted once; then for each number of colluders a pilot
estimate (seed 1) gives the per-seat gain's standard deviation, hence the deals that bring
a seat's 99.9% half-width to 0.1 pp (times 1.25, and at least the game's least), and the
estimate with that many deals (seed 2) is timed (run again with more deals if its
half-width is still wider).  Each row: the deals, the seconds (target
600), the half-widths of one seat's, the seats' average and the table's edge, and the
estimates.  Half-widths are exact renderings; the standard deviation that sizes the run is
a float, as it decides no figure.  Writes benchmarks/results/collusion.json.
Run: python benchmarks/bench_collusion.py [--games caribbean-stud,casino-holdem] [--rule-sets 0,1] [--colluders 2,7]
"""
import argparse
import math
import time

from _timing import machine, save

from analyzer.games import registry
from analyzer.games.caribbean_stud import collusion as stud_collusion
from analyzer.games.caribbean_stud import count as stud_count
from analyzer.games.caribbean_stud import price as stud_price
from analyzer.games.casino_holdem import collusion as holdem_collusion
from analyzer.games.casino_holdem import count as holdem_count
from analyzer.games.casino_holdem import price as holdem_price
from analyzer.poker.collusion import Z

TARGET_HALF_WIDTH = 0.001          # 0.1 percentage point of an ANTE
TARGET_S = 600


def honest_analysis(game: str, rule_set: int):
    path = registry.game(game).builtin_rule_paths[rule_set]
    _, rules = registry.game(game).load_rules(path)
    if game == "caribbean-stud":
        return path, stud_price.price(stud_count.count_classes(rules.cards, rules.qualifier_rank), rules)
    return path, holdem_price.price(holdem_count.count_situations(rules), rules)


GAMES = {"caribbean-stud": (stud_collusion, range(2, 8), 20_000, 100_000),
         "casino-holdem": (holdem_collusion, range(2, 7), 2_000, 10_000)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="caribbean-stud,casino-holdem")
    parser.add_argument("--rule-sets", default=None, help="indices of the built-in rule files, e.g. 0 (default: all)")
    parser.add_argument("--colluders", default=None, help="e.g. 2,4 (default: every N of the game)")
    args = parser.parse_args()
    print(machine())
    rows = []
    for game, rule_set in [(game, rule_set) for game in args.games.split(",")
                           for rule_set in (map(int, args.rule_sets.split(",")) if args.rule_sets
                                            else range(len(registry.game(game).builtin_rule_paths)))]:
        module, every_n, pilot, least = GAMES[game]
        start = time.perf_counter()
        path, priced = honest_analysis(game, rule_set)
        print(f"{game} ({path.name}): honest analysis {time.perf_counter() - start:.1f} s")
        for n in map(int, args.colluders.split(",")) if args.colluders else every_n:
            sd = math.sqrt(float(module.estimate(priced, n, pilot, seed=1).gains[0].variance) * pilot)
            deals = max(least, math.ceil(1.25 * (float(Z) * sd / TARGET_HALF_WIDTH) ** 2))
            while True:                 # a pilot can miss the gain's rare large values: then a longer run
                start = time.perf_counter()
                figures = module.estimate(priced, n, deals, seed=2)
                seconds = time.perf_counter() - start
                width = float(figures.seats[0].half_width(places=9))
                if width <= TARGET_HALF_WIDTH:
                    break
                deals = math.ceil(1.1 * deals * (width / TARGET_HALF_WIDTH) ** 2)
            widths = {name: figures_of.half_width(places=6) for name, figures_of in
                      (("seat", figures.seats[0]), ("seat_average", figures.seat_average), ("table", figures.table))}
            estimates = {name: figures_of.interval(places=6) for name, figures_of in
                         (("seat", figures.seats[0]), ("seat_average", figures.seat_average), ("table", figures.table),
                          ("differs", figures.differs_average))}
            print(f"  N={n}: {deals:,} deals in {seconds:.1f} s; half-widths {widths}; 99.9% intervals {estimates}")
            rows.append({"what": f"{game} {path.stem}: {n} colluders, {deals:,} deals", "seconds": seconds,
                         "target_s": TARGET_S, "deals": deals, "half_widths": widths, "intervals": estimates,
                         "honest_ev": str(figures.honest_ev)})
    save("collusion", 1, rows)


if __name__ == "__main__":
    main()
