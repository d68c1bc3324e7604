"""Baccarat as the pipeline sees it: rules -> count -> analyse (price) -> outputs, checks, and the live shoe.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.baccarat.analysis import analyse
from analyzer.games.baccarat.checks import check, check_statistics
from analyzer.games.baccarat.count import analysis_shoes, count_shoes
from analyzer.games.baccarat.outputs import key_figures, outputs
from analyzer.games.baccarat.price import shoe_query
from analyzer.games.baccarat.rules import BaccaratRules, load_rules
from analyzer.games.baccarat.shoe import parse_counts, remove_cards

__all__ = ["load_rules", "count_fields", "count", "analyse", "outputs", "key_figures", "check", "check_statistics",
           "live_shoe"]


def count_fields(rules: BaccaratRules) -> dict:
    """Exactly the rule fields the counts depend on: the shoe and the drawing tableau."""
    return {"decks": rules.decks, "natural": sorted(rules.natural), "player_draws_on": sorted(rules.player_draws_on),
            "banker_draws_when_player_stands": sorted(rules.banker_draws_when_player_stands),
            "banker_draws": [sorted(values) for values in rules.banker_draws]}


def count(rules: BaccaratRules, executor=None, progress=None) -> list:
    """Outcome counts of the full shoe and of each shoe with one card of a value removed."""
    return count_shoes(analysis_shoes(rules), rules, executor, progress)


def live_shoe(rules: BaccaratRules, remove: str | None = None, counts: str | None = None) -> dict:
    """The live-shoe question for the cards already dealt (`remove`) or a shoe given by `counts`."""
    shoe = parse_counts(counts) if counts is not None else remove_cards(rules.full_shoe(), remove)
    return shoe_query(shoe, rules)
