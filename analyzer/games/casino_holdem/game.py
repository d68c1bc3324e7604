"""Casino Hold'em as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.casino_holdem.analysis import analyse
from analyzer.games.casino_holdem.checks import check, check_statistics
from analyzer.games.casino_holdem.design import problem as design_problem
from analyzer.games.casino_holdem.count import SituationTable, count_situations
from analyzer.games.casino_holdem.outputs import key_figures, outputs
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check",
           "table_arrays", "table_from_arrays", "design_problem", "check_statistics"]


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


def table_arrays(table: SituationTable) -> tuple[dict, dict]:
    """The counts as the count cache stores them: integer arrays and a little JSON."""
    return ({"keys": table.keys, "weights": table.weights, "counts": table.counts},
            {"continuations": table.continuations, "n_flops": table.n_flops, "n_boards": table.n_boards})


def table_from_arrays(rules: HoldemRules, arrays: dict, meta: dict) -> SituationTable | None:
    """The counts back from the cache, or None when they do not fit these rules (then they are recounted)."""
    table = SituationTable(keys=arrays["keys"], weights=arrays["weights"], counts=arrays["counts"],
                           continuations=meta["continuations"], n_flops=meta["n_flops"], n_boards=meta["n_boards"])
    if table.continuations != rules.continuations or table.counts.shape[1:] != (10, 4) \
            or int(table.weights.sum()) != rules.raw_situations:
        return None
    return table

