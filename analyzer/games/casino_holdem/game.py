"""Casino Hold'em as the pipeline sees it: rules -> count -> analyse (price, decide) -> outputs, and checks.

Every game folder has a `game` module with these names; `analyzer.games.registry` lists
the games and `analyzer.publish.pipeline` drives them.
"""
from __future__ import annotations

from analyzer.games.casino_holdem.analysis import analyse
from analyzer.games.casino_holdem.checks import check
from analyzer.games.casino_holdem.design import problem as design_problem
from analyzer.games.casino_holdem.count import SituationTable, count_situations
from analyzer.games.casino_holdem.outputs import key_figures, outputs
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules

__all__ = ["load_rules", "count_fields", "count", "table_arrays", "table_from_arrays", "analyse", "outputs",
           "key_figures", "check", "design_problem"]


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

