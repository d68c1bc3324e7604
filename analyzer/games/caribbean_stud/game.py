"""Caribbean Stud's face (`analyzer.games.interface`): rules -> count -> analyse (price, decide) -> outputs,
checks, the count cache's arrays, payout design, the basic strategy's derivation and the README's figures."""
from __future__ import annotations

import math

from analyzer.games.caribbean_stud import basic
from analyzer.games.caribbean_stud.analysis import analyse
from analyzer.games.caribbean_stud.checks import check, check_statistics
from analyzer.games.caribbean_stud.count import SituationCounts, consistent, count_classes
from analyzer.games.caribbean_stud.outputs import key_figures, outputs
from analyzer.games.caribbean_stud.price import price
from analyzer.games.caribbean_stud.rules import StudRules, load_rules
from analyzer.games.interface import on_first_use
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check",
           "table_arrays", "table_from_arrays", "check_statistics", "derive_basic", "spec_deals",
           "spec_refusals"]

__getattr__ = on_first_use(__package__)      # the rest of the face (interface.ON_FIRST_USE), on use

# The test vectors' deals (docs/strategy-test-vectors.json): raises, folds, a suit renaming of the same
# situation, and strong hands on both rule sets (their raise paytables differ: their EVs tell them apart).
STRONG_HANDS = [{"hand": "As Ks Qs Js Ts", "up": "2d"}, {"hand": "5c 6c 7c 8c 9c", "up": "Ad"},
                {"hand": "9h 9d 9s 9c Kd", "up": "Qc"}, {"hand": "Kc Kd Ks 4h 4d", "up": "7s"},
                {"hand": "Ah Jh 8h 6h 3h", "up": "Kd"}]
spec_deals = {"operator": [{"hand": "Ah Kd 9s 5c 2h", "up": "Qd"},
                           {"hand": "Ac Kh 9d 5s 2c", "up": "Qh"},       # the same situation, suits renamed
                           {"hand": "Ah Kd Qs 5c 2h", "up": "9d"}, {"hand": "Ah Kd 8s 5c 2h", "up": "Ad"},
                           {"hand": "3h 3d 9s 5c 2h", "up": "Kc"}, {"hand": "Kh Qd Js 9c 7h", "up": "2s"},
                           *STRONG_HANDS],
              "standard": STRONG_HANDS}
spec_refusals = [("operator", {"hand": "Ah Kd 9s 5c 2h", "up": "Ah"}, "repeated-card")]


def check_limits(rule_file, rules: StudRules) -> None:
    """Refuse, before counting, a paytable whose EVs the strategy file's 64-bit EV column cannot hold (the
    progressive is not in that file: any progressive paytable stays exact)."""
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
    """The counts back from the cache, or None when they do not fit these rules or break the totals every
    true count keeps (`count.consistent`): then they are recounted."""
    if meta["cards"] != list(rules.cards) or meta["qualifier_rank"] != rules.qualifier_rank:
        return None
    table = SituationCounts(cards=tuple(meta["cards"]), qualifier_rank=meta["qualifier_rank"], keys=arrays["keys"],
                            weights=arrays["weights"], counts=arrays["counts_by_outcome"].T,
                            player_rank=arrays["player_rank"], player_category=arrays["player_category"],
                            completions=meta["completions"])
    return table if consistent(table) else None


def derive_basic(rule_file, rules: StudRules, log=None) -> tuple:
    """(the basic strategy derived from these rules' exact raise margins, how its search was seeded, its
    parameters)."""
    return basic.derive(price(count(rules), rules), rule_file.name, log=log), basic.SEEDED, basic.DERIVATION_PARAMETERS
