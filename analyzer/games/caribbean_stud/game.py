"""Caribbean Stud as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

import math

from analyzer.games.caribbean_stud.analysis import analyse
from analyzer.games.caribbean_stud.checks import check, check_statistics
from analyzer.games.caribbean_stud.design import problem as design_problem
from analyzer.games.caribbean_stud.count import SituationCounts, count_classes
from analyzer.games.caribbean_stud.outputs import key_figures, outputs
from analyzer.games.caribbean_stud.rules import StudRules, load_rules
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check",
           "table_arrays", "table_from_arrays", "design_problem", "check_statistics"]


def check_limits(rule_file, rules: StudRules) -> None:
    """Refuse, before counting, a paytable whose EVs the strategy file's 64-bit EV column cannot hold.

    The progressive is not in that file: any progressive paytable stays exact.
    """
    contributions = {"raise.size": rules.raise_size,
                     "ante_pays.dealer_does_not_qualify": rules.ante_not_qualified,
                     "ante_pays.player_wins": rules.ante_wins,
                     **{f"raise_pays.{name}": pay for name, pay in zip(CATEGORIES, rules.raise_pays)},
                     **{f"raise_pays_dealer_not_qualified.{name}": pay
                        for name, pay in zip(CATEGORIES, rules.raise_pays_not_qualified)}}
    check_ev_column(rule_file, rules.paytable, math.comb(len(rules.cards) - 6, 4), contributions)


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

