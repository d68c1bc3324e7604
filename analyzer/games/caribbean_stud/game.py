"""Caribbean Stud as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

import math

from analyzer.games.caribbean_stud.analysis import analyse
from analyzer.games.caribbean_stud.checks import check
from analyzer.games.caribbean_stud.count import SituationCounts, count_classes
from analyzer.games.caribbean_stud.outputs import key_figures, outputs
from analyzer.games.caribbean_stud.rules import StudRules, load_rules
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check"]


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
