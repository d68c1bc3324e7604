"""Casino Hold'em as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.casino_holdem.analysis import analyse
from analyzer.games.casino_holdem.checks import check, check_statistics
from analyzer.games.casino_holdem.count import SituationTable, count_situations
from analyzer.games.casino_holdem.outputs import key_figures, outputs
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules

__all__ = ["load_rules", "count_fields", "count", "analyse", "outputs", "key_figures", "check", "check_statistics"]


def count_fields(rules: HoldemRules) -> dict:
    """Exactly the rule fields the counts depend on: the deck and the dealer's qualifier."""
    return {"cards": list(rules.cards), "qualifier_value": rules.qualifier_value}


def count(rules: HoldemRules, executor=None, progress=None) -> SituationTable:
    """The paytable-free counts of every situation class (the kernel's two passes)."""
    return count_situations(rules, progress, executor)
