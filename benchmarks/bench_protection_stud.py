"""Caribbean Stud with seen dealer cards, in process: K = 0..4 on the full deck for both built-in rule sets.

Counts the honest situation classes once (timed apart), then times `protection.seen_dealer_cards` for
each K and rule set (targets, 2 cores: K = 1 and K = 4 in 20 s, K = 2 and K = 3 in 2 min) and prints
the exact figures beside the published anchors (Grosjean, *Beyond Counting*; his "n cards known"
counts the up card: his n is our K + 1), exact minus published.  The process's peak memory is read
after each K, in the order K = 0..4 (target for K = 1: 1.5 GB).
Run: python benchmarks/bench_protection_stud.py [--runs N] [--jobs N] [--k K ...];
writes benchmarks/results/protection_stud.json.
"""
import argparse
import resource
import time
from fractions import Fraction

from _timing import machine, median_seconds, save

from analyzer.core.exact import decimal_str
from analyzer.core.execution import LocalExecutor, SerialExecutor, default_jobs
from analyzer.games import registry
from analyzer.games.caribbean_stud.protection import seen_dealer_cards

# Grosjean's house edge per K (the standard paytable), in percent; negative: a player edge.
PUBLISHED_HOUSE_EDGE = {0: "5.23", 1: "1.74", 2: "-11.57", 3: "-35.21", 4: "-64.27"}
TARGET_S = {1: 20, 2: 120, 3: 120, 4: 20}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None,
                        help="local worker processes (default: this process, every core as kernel threads)")
    parser.add_argument("--k", type=int, nargs="*", default=[0, 1, 2, 3, 4])
    args = parser.parse_args()
    print(machine())
    game = registry.game("caribbean-stud")
    loaded = [game.load_rules(path) for path in game.builtin_rule_paths]
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(default_jobs())
    started = time.perf_counter()
    table = game.module.count(loaded[0][1], executor)
    print(f"honest count (once, shared): {time.perf_counter() - started:.2f} s")
    rows = []
    for k in args.k:
        for rule_file, rules in loaded:
            result = {}
            median, times = median_seconds(lambda: result.update(r=seen_dealer_cards(rules, table, k, executor)),
                                           args.runs)
            r, peak_mb = result["r"], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            edge = decimal_str(100 * r.house_edge, 4)
            line = (f"K={k} {rule_file.name:8}: median {median:6.2f} s (min {min(times):.2f}, max {max(times):.2f}), "
                    f"peak {peak_mb:,.0f} MB; house edge {edge}%, P(raise) {decimal_str(r.play_probability, 6)}, "
                    f"differs from honest {decimal_str(r.disagreement, 6)}, gain {decimal_str(r.gain, 6)} per ANTE, "
                    f"SD {r.statistics.standard_deviation(4)}")
            if rule_file.name == "standard":
                published = PUBLISHED_HOUSE_EDGE[k]
                line += f"; published {published}%, exact - published {decimal_str(100 * r.house_edge - Fraction(published), 4)} pp"
            print(line, flush=True)
            rows.append({"what": f"caribbean stud: {k} seen hole cards, {rule_file.name} rules, in process",
                         "seconds": median, "target_s": TARGET_S.get(k), "peak_rss_mb": round(peak_mb, 1),
                         "house_edge_percent": edge})
    save("protection_stud", args.runs, rows)


if __name__ == "__main__":
    main()
