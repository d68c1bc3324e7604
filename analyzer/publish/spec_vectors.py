"""Test vectors for docs/strategy-format.md: concrete deals -> canonical key -> decision and exact EV, and refusals.

`python -m analyzer.publish.spec_vectors [RESULTS] [OUT]` writes docs/strategy-test-vectors.json from
the strategy files under RESULTS (default results/); the test suite rebuilds the vectors
from a fresh analysis and compares, and checks that a reader written from the
specification alone (tests/spec_reader.py) reproduces every answer and every refusal.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from analyzer import advisor
from analyzer.core.errors import InputError

# Deals chosen to cover calls, folds, a suit renaming of the same situation, flush draws and
# made hands, a class whose two EVs are exactly equal ("either"), strong Caribbean Stud hands
# on both rule sets (their raise paytables differ, so their EVs tell the rule sets apart);
# Baccarat shoes by the cards already dealt.
DEALS = {
    ("casino-holdem", "operator"): [
        {"hole": "Ah Kd", "flop": "Qs 9h 2c"},
        {"hole": "Ac Ks", "flop": "Qd 9c 2h"},        # the same situation, suits renamed
        {"hole": "7c 2d", "flop": "Ks Qs 9h"},
        {"hole": "5h 5d", "flop": "5s Ah Kc"},
        {"hole": "Ah 2h", "flop": "Kh 7h 3c"},
        {"hole": "9d 8d", "flop": "Tc 7s 2h"},
        {"hole": "Jc 3s", "flop": "Qd 8h 4c"},
        {"hole": "3s 3h", "flop": "Ac Jc 9c"},        # calling and folding are worth exactly -1: "either"
    ],
    ("caribbean-stud", "operator"): [
        {"hand": "Ah Kd 9s 5c 2h", "up": "Qd"},
        {"hand": "Ac Kh 9d 5s 2c", "up": "Qh"},       # the same situation, suits renamed
        {"hand": "Ah Kd Qs 5c 2h", "up": "9d"},
        {"hand": "Ah Kd 8s 5c 2h", "up": "Ad"},
        {"hand": "3h 3d 9s 5c 2h", "up": "Kc"},
        {"hand": "Kh Qd Js 9c 7h", "up": "2s"},
    ],
}
STRONG_STUD_HANDS = [                                  # both Caribbean Stud rule sets: different EVs
    {"hand": "As Ks Qs Js Ts", "up": "2d"},
    {"hand": "5c 6c 7c 8c 9c", "up": "Ad"},
    {"hand": "9h 9d 9s 9c Kd", "up": "Qc"},
    {"hand": "Kc Kd Ks 4h 4d", "up": "7s"},
    {"hand": "Ah Jh 8h 6h 3h", "up": "Kd"},
]
DEALS[("caribbean-stud", "operator")] += STRONG_STUD_HANDS
DEALS[("caribbean-stud", "standard")] = list(STRONG_STUD_HANDS)
DEALS[("baccarat", "operator")] = ["", "5,5,9,K", "T,T,T,T,T,T,T,T", "9,9,9,9,8,8,8,8"]

# One input per refusal rule of docs/strategy-format.md, section 7 (a reduced deck's
# "outside-deck" needs such a rule set; the test suite covers it).
REFUSALS = [
    ("casino-holdem", "operator", {"hole": "Ah Kx", "flop": "Qs 7h 2c"}, "malformed-card"),
    ("casino-holdem", "operator", {"hole": "Ah", "flop": "Qs 7h 2c"}, "wrong-count"),
    ("casino-holdem", "operator", {"hole": "Ah Ah", "flop": "Qs 7h 2c"}, "repeated-card"),
    ("caribbean-stud", "operator", {"hand": "Ah Kd 9s 5c 2h", "up": "Ah"}, "repeated-card"),
    ("baccarat", "operator", {"removed": "5,X"}, "malformed-card"),
    ("baccarat", "operator", {"removed": ",".join(["Ah"] * 9)}, "removed-too-often"),
    ("baccarat", "operator", {"removed": ",".join(["A"] * 33)}, "removed-too-often"),
    ("baccarat", "operator", {"counts": "12_8,32,32,32,32,32,32,32,32,32"}, "not-counts"),
    ("baccarat", "operator", {"counts": "129,32,32,32,32,32,32,32,32,32"}, "above-full-shoe"),
    ("baccarat", "operator", {"counts": "0,0,0,0,0,0,0,0,0,5"}, "too-few-cards"),
]


def _strategy(results, game: str, rule_set: str, cache: dict):
    if (game, rule_set) not in cache:
        cache[(game, rule_set)] = advisor.load_strategy(advisor.strategy_path(results, game, rule_set))
    return cache[(game, rule_set)]


def build(results: str | Path, games=None) -> list[dict]:
    """Every vector whose game is in `games` (default all), from the strategy files under `results`:
    game by game (Casino Hold'em, Caribbean Stud, Baccarat), its answers then its refusals."""
    vectors, cache = [], {}
    for name in dict.fromkeys(game for game, _ in DEALS):
        if games is None or name in games:
            vectors += _answers(results, name, cache) + _refusals(results, name, cache)
    return vectors


def _answers(results, name: str, cache: dict) -> list[dict]:
    vectors = []
    for (game, rule_set), deals in DEALS.items():
        if game != name:
            continue
        strategy = _strategy(results, game, rule_set, cache)
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


def _refusals(results, name: str, cache: dict) -> list[dict]:
    vectors = []
    for game, rule_set, deal, rule in REFUSALS:
        if game != name:
            continue
        strategy = _strategy(results, game, rule_set, cache)
        shoe = "removed" in deal or "counts" in deal
        entry = dict(deal) if shoe else {"deal": list(deal.values()), "groups": list(deal)}
        try:
            strategy.shoe(remove=deal.get("removed"), counts=deal.get("counts")) if shoe else strategy.decide(*deal.values())
        except InputError as error:
            vectors.append({"game": game, "rule_set": rule_set, **entry, "refused": rule, "message": str(error)})
        else:
            raise AssertionError(f"the reference reader answered {entry}, which must be refused ({rule})")
    return vectors


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    results = argv[0] if argv else "results"
    out = Path(argv[1] if len(argv) > 1 else "docs/strategy-test-vectors.json")
    out.write_text(json.dumps(build(results), indent=2, sort_keys=True) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
