"""Test vectors for docs/strategy-format.md: concrete deals -> canonical key -> decision and exact EV.

`python -m analyzer.publish.spec_vectors [RESULTS] [OUT]` writes docs/strategy-test-vectors.json from
the strategy files under RESULTS (default results/); the test suite rebuilds the vectors
from a fresh analysis and compares.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from analyzer import advisor

# Deals chosen to cover calls, folds, a suit renaming of the same situation, flush draws and
# made hands; Baccarat shoes by the cards already dealt.
DEALS = {
    "casino-holdem": [
        {"hole": "Ah Kd", "flop": "Qs 9h 2c"},
        {"hole": "Ac Ks", "flop": "Qd 9c 2h"},        # the same situation, suits renamed
        {"hole": "7c 2d", "flop": "Ks Qs 9h"},
        {"hole": "5h 5d", "flop": "5s Ah Kc"},
        {"hole": "Ah 2h", "flop": "Kh 7h 3c"},
        {"hole": "9d 8d", "flop": "Tc 7s 2h"},
        {"hole": "Jc 3s", "flop": "Qd 8h 4c"},
    ],
    "caribbean-stud": [
        {"hand": "Ah Kd 9s 5c 2h", "up": "Qd"},
        {"hand": "Ac Kh 9d 5s 2c", "up": "Qh"},       # the same situation, suits renamed
        {"hand": "Ah Kd Qs 5c 2h", "up": "9d"},
        {"hand": "Ah Kd 8s 5c 2h", "up": "Ad"},
        {"hand": "3h 3d 9s 5c 2h", "up": "Kc"},
        {"hand": "Kh Qd Js 9c 7h", "up": "2s"},
    ],
    "baccarat": ["", "5,5,9,K", "T,T,T,T,T,T,T,T", "9,9,9,9,8,8,8,8"],
}


def build(results: str | Path, games=None) -> list[dict]:
    vectors = []
    for game, deals in DEALS.items():
        if games is not None and game not in games:
            continue
        strategy = advisor.load_strategy(advisor.strategy_path(results, game, "operator"))
        for deal in deals:
            if isinstance(deal, str):                     # a shoe, by the cards already dealt
                shoe = strategy.shoe(remove=deal or None)
                answer = strategy.decide(shoe)
                entry = {"removed": deal, "shoe": list(shoe)}
            else:
                answer = strategy.decide(*deal.values())
                entry = {"deal": list(deal.values()), "groups": list(deal), "key": answer.key,
                         "key_hex": bytes(c for group in answer.canonical for c in group).hex()}
            vectors.append({"game": game, "rule_set": strategy.rule_set, **entry, **answer.as_json()})
    return vectors


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    results = argv[0] if argv else "results"
    out = Path(argv[1] if len(argv) > 1 else "docs/strategy-test-vectors.json")
    out.write_text(json.dumps(build(results), indent=2, sort_keys=True) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
