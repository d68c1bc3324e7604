"""Casino Hold'em with seen dealer cards, in process: K = 0..2 on the full deck of the built-in rule set.

Counts the honest situation classes once (timed apart), then times `protection.seen_dealer_cards` for
each K, wall and CPU time (targets, 2 cores: K = 1 in 60 s and 3 GB, K = 2 in 10 min) and prints the exact figures: the
house edge per ANTE (main game; the AA Bonus is unchanged by seen dealer cards), how often the exploit
calls and decides otherwise than the honest optimum, its gain and standard deviation.  Nothing is
published for Casino Hold'em; the nearest anchors are other games of the family with one dealer card
seen (Texas Hold'em Bonus 7.61%, Ultimate Texas Hold'em 13.5922% player edge) and both seen (Ultimate
Texas Hold'em 38.5816%), printed for orientation only.  The process's peak memory is read after each K.
Run: python benchmarks/bench_protection_holdem.py [--runs N] [--jobs N] [--k K ...];
writes benchmarks/results/protection_holdem.json.
"""
import argparse
import resource
import time

from _timing import machine, median_seconds, save

from analyzer.core.exact import decimal_str
from analyzer.core.execution import LocalExecutor, SerialExecutor, default_jobs
from analyzer.games import registry
from analyzer.games.casino_holdem.protection import seen_dealer_cards

TARGET_S = {1: 60, 2: 600}
TARGET_MB = {1: 3072}
FAMILY_ANCHORS = {1: "Texas Hold'em Bonus 7.61%, Ultimate Texas Hold'em 13.5922% (player edges)",
                  2: "Ultimate Texas Hold'em 38.5816% (player edge)"}


def cpu_seconds() -> float:
    """This process's CPU time, every thread (the work done, whatever else shares the cores)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None,
                        help="local worker processes (default: this process, every core as kernel threads)")
    parser.add_argument("--k", type=int, nargs="*", default=[0, 1, 2])
    args = parser.parse_args()
    print(machine())
    game = registry.game("casino-holdem")
    rule_file, rules = game.load_rules(game.builtin_rule_paths[0])
    executor = LocalExecutor(args.jobs) if args.jobs else SerialExecutor(default_jobs())
    started = time.perf_counter()
    table = game.module.count(rules, executor)
    print(f"honest count (once, shared): {time.perf_counter() - started:.2f} s")
    rows = []
    for k in args.k:
        result, cpu_before = {}, cpu_seconds()
        median, times = median_seconds(lambda: result.update(r=seen_dealer_cards(rules, table, k, executor)),
                                       args.runs)
        r, peak_mb = result["r"], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        cpu = (cpu_seconds() - cpu_before) / args.runs
        edge = decimal_str(100 * r.house_edge, 4)
        print(f"K={k} {rule_file.name}: median {median:6.2f} s (min {min(times):.2f}, max {max(times):.2f}), "
              f"CPU {cpu:.1f} s a run, peak {peak_mb:,.0f} MB; house edge {r.house_edge} = {edge}%, RTP {decimal_str(100 * r.rtp, 4)}%, "
              f"P(call) {decimal_str(r.play_probability, 6)}, differs from honest {decimal_str(r.disagreement, 6)}, "
              f"gain {decimal_str(r.gain, 6)} per ANTE, SD {r.statistics.standard_deviation(4)}"
              + (f"; nearest published (other games): {FAMILY_ANCHORS[k]}" if k in FAMILY_ANCHORS else ""), flush=True)
        rows.append({"what": f"casino hold'em: {k} seen hole cards, {rule_file.name} rules, in process",
                     "seconds": median, "cpu_seconds": round(cpu, 1), "target_s": TARGET_S.get(k), "peak_rss_mb": round(peak_mb, 1),
                     "target_mb": TARGET_MB.get(k), "house_edge": str(r.house_edge), "house_edge_percent": edge})
    save("protection_holdem", args.runs, rows)


if __name__ == "__main__":
    main()
