"""Test vectors for docs/strategy-format.md: concrete deals -> canonical key -> decision and exact EV, and refusals.

`python -m analyzer.publish.spec_vectors [RESULTS] [OUT]` writes docs/strategy-test-vectors.json from the
strategy files under RESULTS (default results/); the tests rebuild them and replay them with a reader
written from the specification alone (tests/spec_reader.py).
"""
from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

from analyzer import advisor
from analyzer.core.errors import InputError
from analyzer.games import registry
from analyzer.games.interface import DecisionTable, LiveShoe


def build(results: str | Path, names=None) -> list[dict]:
    """Every vector whose game is in `names` (default all), from the strategy files under `results`, game by
    game in the order of docs/strategy-format.md (the decision tables, then the shoes; each face gives its
    deals and refusals: `analyzer.games.interface.StrategyFiles`), its answers then its refusals."""
    strategies = cache(lambda game, rule_set: advisor.load_strategy(advisor.strategy_path(results, game, rule_set)))
    return [vector for kind in (DecisionTable, LiveShoe) for game in registry.GAMES
            if game.has(kind) and (names is None or game.name in names) for vector in _vectors(game, strategies)]


def _vectors(game, strategies) -> list[dict]:
    """A game's vectors, its answers then its refusals.  The input is a shoe's `removed` or `counts` as
    given (neither: the full shoe), or a poker deal's card groups as text beside the header's group names."""
    shoe = game.has(LiveShoe)
    answers = [(rule_set, deal, None) for rule_set, deals in game.module.spec_deals.items() for deal in deals]
    vectors = []
    for rule_set, deal, refused in answers + list(game.module.spec_refusals):
        strategy = strategies(game.name, rule_set)
        vector = {"game": game.name, "rule_set": strategy.rule_set, **(dict(deal) if shoe else {
            "deal": list(deal.values()), "groups": [name for name, _ in strategy.groups]})}
        try:
            if shoe:
                live = strategy.shoe(remove=deal.get("removed"), counts=deal.get("counts"))
                answer, vector["shoe"] = strategy.decide(live), list(live)
            else:
                answer = strategy.decide(*deal.values())
                key = bytes(card for group in answer.canonical for card in group)
                vector.update(key=answer.key, key_hex=key.hex())
        except InputError as error:
            if refused is None:
                raise
            vectors.append({**vector, "refused": refused, "message": str(error)})
            continue
        if refused is not None:
            raise AssertionError(f"the reference reader answered {vector}, which must be refused ({refused})")
        vectors.append({**vector, **answer.as_json()})
    return vectors


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    results = argv[0] if argv else "results"
    out = Path(argv[1] if len(argv) > 1 else "docs/strategy-test-vectors.json")
    out.write_text(json.dumps(build(results), indent=2, sort_keys=True) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
