"""Caribbean Stud as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.caribbean_stud.analysis import analyse
from analyzer.games.caribbean_stud.checks import check
from analyzer.games.caribbean_stud.design import problem as design_problem
from analyzer.games.caribbean_stud.count import SituationCounts, count_classes
from analyzer.games.caribbean_stud.outputs import key_figures, outputs
from analyzer.games.caribbean_stud.rules import StudRules, load_rules

__all__ = ["load_rules", "count_fields", "count", "table_arrays", "table_from_arrays", "analyse", "outputs",
           "key_figures", "check", "design_problem"]


def count_fields(rules: StudRules) -> dict:
    """Exactly the rule fields the counts depend on: the deck and the dealer's qualifier."""
    return {"cards": list(rules.cards), "qualifier_rank": rules.qualifier_rank}


def count(rules: StudRules, executor=None, progress=None) -> SituationCounts:
    """The paytable-free counts of every (hand, up card) class (the kernel's card-removal sweep)."""
    return count_classes(rules.cards, rules.qualifier_rank, executor)


def table_arrays(table: SituationCounts) -> tuple[dict, dict]:
    """The counts as the count cache stores them: integer arrays and a little JSON."""
    return ({"keys": table.keys, "weights": table.weights, "counts_by_outcome": table.counts.T,
             "player_rank": table.player_rank, "player_category": table.player_category},
            {"cards": list(table.cards), "qualifier_rank": table.qualifier_rank, "completions": table.completions})


def table_from_arrays(rules: StudRules, arrays: dict, meta: dict) -> SituationCounts | None:
    """The counts back from the cache, or None when they do not fit these rules (then they are recounted)."""
    if meta["cards"] != list(rules.cards) or meta["qualifier_rank"] != rules.qualifier_rank:
        return None
    return SituationCounts(cards=tuple(meta["cards"]), qualifier_rank=meta["qualifier_rank"], keys=arrays["keys"],
                           weights=arrays["weights"], counts=arrays["counts_by_outcome"].T,
                           player_rank=arrays["player_rank"], player_category=arrays["player_category"],
                           completions=meta["completions"])

