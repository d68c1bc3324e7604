"""Casino Hold'em as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.casino_holdem.analysis import analyse
from analyzer.games.casino_holdem.checks import check
from analyzer.games.casino_holdem.count import SituationTable, count_situations
from analyzer.games.casino_holdem.outputs import key_figures, outputs
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check"]


def check_limits(rule_file, rules: HoldemRules) -> None:
    """Refuse, before counting, a paytable whose EVs the strategy file's 64-bit EV column cannot hold.

    The AA Bonus is not in that file: any AA Bonus paytable stays exact (Python integers).
    """
    contributions = {"call.size": rules.call_size, "call.pays": rules.call_pays,
                     **{f"ante_pays.{name}": pay for name, pay in zip(CATEGORIES, rules.ante_pays)}}
    check_ev_column(rule_file, rules.paytable, rules.continuations, contributions)


def count_fields(rules: HoldemRules) -> dict:
    """Exactly the rule fields the counts depend on: the deck and the dealer's qualifier."""
    return {"cards": list(rules.cards), "qualifier_value": rules.qualifier_value}


def count(rules: HoldemRules, executor=None, progress=None) -> SituationTable:
    """The paytable-free counts of every situation class (the kernel's two passes)."""
    return count_situations(rules, progress, executor)
