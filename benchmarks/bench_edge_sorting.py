"""Edge-sorted Baccarat, in process: the default group {6, 7, 8, 9} for K = 1..4, then the search over every split.

Times the first-card count of the full shoe with each K's figures (target, 2 cores: 5 s each) and the whole
search for K = 1..4 with its count (target: 2 min), and prints the exact figures beside Jacobson's
published edges (rounded; exact minus published).  His figures match the player who bets only when the
best EV is positive, per round dealt (for K = 1 both policies agree): that is the policy compared.
Run: python benchmarks/bench_edge_sorting.py [--runs N]; writes benchmarks/results/edge_sorting.json.
"""
import argparse
from fractions import Fraction

from _timing import machine, median_seconds, save

from analyzer.core.exact import decimal_str
from analyzer.games import registry
from analyzer.games.baccarat.edge_sorting import DEFAULT_VALUES, best_groupings, count_first_cards, edge_sort

# Jacobson's player edges in percent: {6, 7, 8, 9} on the first card, on the first four, the best split on four.
PUBLISHED = {("6789", 1): "6.765", ("6789", 4): "20.928", ("best", 4): "30.291"}
TOP = 3


def percent(value: Fraction) -> str:
    return decimal_str(100 * value, 4) + "%"


def versus(key, value: Fraction) -> str:
    published = PUBLISHED.get(key)
    return f"; published {published}%, exact - published {decimal_str(100 * value - Fraction(published), 4)} pp" \
        if published else ""


def describe(result) -> str:
    return (f"always bet {percent(result.edge)} (gain {percent(result.gain)}); bet when positive "
            f"{percent(result.selective_edge)} per round dealt, {percent(result.bet_fraction)} of rounds bet, "
            f"{percent(result.selective_edge_per_bet) if result.selective_edge_per_bet is not None else '-'} per bet")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(machine())
    _, rules = registry.game("baccarat").load_rules()
    rows = []
    for k in range(1, 5):
        result = {}
        median, times = median_seconds(lambda: result.update(
            r=edge_sort(count_first_cards(rules.full_shoe(), rules), rules, DEFAULT_VALUES, k)), args.runs)
        r = result["r"]
        print(f"K={k} {{6,7,8,9}}: median {median:.3f} s (min {min(times):.3f}, max {max(times):.3f}); "
              f"{describe(r)}{versus(('6789', k), r.selective_edge)}", flush=True)
        rows.append({"what": f"baccarat edge sorting: {{6,7,8,9}} read on K = {k} cards, count included",
                     "seconds": median, "target_s": 5, "edge_percent": percent(r.edge)})
    found = {}

    def search():
        cells = count_first_cards(rules.full_shoe(), rules)
        found.update({k: best_groupings(cells, rules, k) for k in range(1, 5)})

    median, times = median_seconds(search, args.runs)
    print(f"every split, K = 1..4: median {median:.2f} s (min {min(times):.2f}, max {max(times):.2f})")
    for k, ranked in found.items():
        for r in ranked[:TOP]:
            print(f"  K={k} {''.join(map(str, sorted(r.values)))}: {describe(r)}"
                  f"{versus(('best', k), r.selective_edge) if r is ranked[0] else ''}")
    rows.append({"what": "baccarat edge sorting: the best of 511 splits for K = 1..4, count included",
                 "seconds": median, "target_s": 120,
                 "best": {k: "".join(map(str, sorted(ranked[0].values))) for k, ranked in found.items()}})
    save("edge_sorting", args.runs, rows)


if __name__ == "__main__":
    main()
