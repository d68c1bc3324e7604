"""Caribbean Stud as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.caribbean_stud.analysis import analyse
from analyzer.games.caribbean_stud.checks import check, check_statistics
from analyzer.games.caribbean_stud.count import SituationCounts, count_classes
from analyzer.games.caribbean_stud.outputs import key_figures, outputs
from analyzer.games.caribbean_stud.rules import StudRules, load_rules

__all__ = ["load_rules", "count_fields", "count", "analyse", "outputs", "key_figures", "check", "check_statistics"]


def count_fields(rules: StudRules) -> dict:
    """Exactly the rule fields the counts depend on: the deck and the dealer's qualifier."""
    return {"cards": list(rules.cards), "qualifier_rank": rules.qualifier_rank}


def count(rules: StudRules, executor=None, progress=None) -> SituationCounts:
    """The paytable-free counts of every (hand, up card) class (the kernel's card-removal sweep)."""
    return count_classes(rules.cards, rules.qualifier_rank, executor)
