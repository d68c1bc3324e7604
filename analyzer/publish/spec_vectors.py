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


def games() -> list:
    """The games with strategy files, in the order of docs/strategy-format.md: the decision tables, then the
    shoes; each face gives its deals and refusals (`analyzer.games.interface.StrategyFiles`)."""
    return [game for kind in (DecisionTable, LiveShoe) for game in registry.GAMES if game.has(kind)]


def build(results: str | Path, names=None) -> list[dict]:
    """Every vector whose game is in `names` (default all), from the strategy files under `results`:
    game by game (`games()`), its answers then its refusals."""
    strategies = cache(lambda game, rule_set: advisor.load_strategy(advisor.strategy_path(results, game, rule_set)))
    return [vector for game in games() if names is None or game.name in names
            for vector in _answers(game, strategies) + _refusals(game, strategies)]


def _deal(game, strategy, deal: dict) -> dict:
    """A vector's input: a shoe's `removed` or `counts` as given (neither: the full shoe), or a poker deal's
    card groups as text beside the header's names of the groups."""
    if game.has(LiveShoe):
        return dict(deal)
    return {"deal": list(deal.values()), "groups": [name for name, _ in strategy.groups]}


def _answers(game, strategies) -> list[dict]:
    vectors = []
    for rule_set, deals in game.module.spec_deals.items():
        strategy = strategies(game.name, rule_set)
        for deal in deals:
            entry = _deal(game, strategy, deal)
            if game.has(LiveShoe):
                shoe = strategy.shoe(remove=deal.get("removed"), counts=deal.get("counts"))
                answer = strategy.decide(shoe)
                entry["shoe"] = list(shoe)
            else:
                answer = strategy.decide(*deal.values())
                entry.update(key=answer.key, key_hex=bytes(c for group in answer.canonical for c in group).hex())
            vectors.append({"game": game.name, "rule_set": strategy.rule_set, **entry, **answer.as_json()})
    return vectors


def _refusals(game, strategies) -> list[dict]:
    vectors = []
    for rule_set, deal, rule in game.module.spec_refusals:
        strategy = strategies(game.name, rule_set)
        entry = _deal(game, strategy, deal)
        try:
            strategy.shoe(remove=deal.get("removed"), counts=deal.get("counts")) if game.has(LiveShoe) \
                else strategy.decide(*deal.values())
        except InputError as error:
            vectors.append({"game": game.name, "rule_set": rule_set, **entry, "refused": rule, "message": str(error)})
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
