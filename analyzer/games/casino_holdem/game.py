"""Casino Hold'em's face (`analyzer.games.interface`): rules -> count -> analyse (price, decide) -> outputs,
checks, the count cache's arrays, payout design, the basic strategy's derivation and the README's figures."""
from __future__ import annotations

from analyzer.games.casino_holdem import basic
from analyzer.games.casino_holdem.analysis import analyse
from analyzer.games.casino_holdem.checks import check, check_statistics
from analyzer.games.casino_holdem.count import SituationTable, count_situations
from analyzer.games.casino_holdem.outputs import key_figures, outputs
from analyzer.games.casino_holdem.price import price
from analyzer.games.casino_holdem.rules import HoldemRules, load_rules
from analyzer.games.interface import on_first_use
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.strategy_file import check_ev_column

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check",
           "table_arrays", "table_from_arrays", "check_statistics", "derive_basic", "spec_deals",
           "spec_refusals"]

__getattr__ = on_first_use(__package__)      # the rest of the face (interface.ON_FIRST_USE), on use

# The test vectors' deals (docs/strategy-test-vectors.json): calls, folds, a suit renaming of the
# same situation, flush draws, made hands, and a class whose two EVs are exactly equal ("either").
spec_deals = {"operator": [
    {"hole": "Ah Kd", "flop": "Qs 9h 2c"},
    {"hole": "Ac Ks", "flop": "Qd 9c 2h"},        # the same situation, suits renamed
    {"hole": "7c 2d", "flop": "Ks Qs 9h"},
    {"hole": "5h 5d", "flop": "5s Ah Kc"},
    {"hole": "Ah 2h", "flop": "Kh 7h 3c"},
    {"hole": "9d 8d", "flop": "Tc 7s 2h"},
    {"hole": "Jc 3s", "flop": "Qd 8h 4c"},
    {"hole": "3s 3h", "flop": "Ac Jc 9c"},        # calling and folding are worth exactly -1: "either"
]}
spec_refusals = [("operator", {"hole": "Ah Kx", "flop": "Qs 7h 2c"}, "malformed-card"),
                 ("operator", {"hole": "Ah", "flop": "Qs 7h 2c"}, "wrong-count"),
                 ("operator", {"hole": "Ah Kd"}, "wrong-count"),                      # one group of two
                 ("operator", {"hole": "Ah Ah", "flop": "Qs 7h 2c"}, "repeated-card"),
                 # several rules broken: the first of section 7's table names the refusal
                 ("operator", {"hole": "Ah", "flop": "Qs 7h Kx"}, "malformed-card"),
                 ("operator", {"hole": "Ah Ah", "flop": "Qs 7h"}, "wrong-count")]


def check_limits(rule_file, rules: HoldemRules) -> None:
    """Refuse, before counting, a paytable whose EVs the strategy file's 64-bit EV column cannot hold (the AA
    Bonus is not in that file: any AA Bonus paytable stays exact)."""
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
    """The counts back from the cache, or None when they do not fit these rules or break the totals every true
    count keeps (every class's continuations, every situation once): then they are recounted."""
    table = SituationTable(keys=arrays["keys"], weights=arrays["weights"], counts=arrays["counts"],
                           continuations=meta["continuations"], n_flops=meta["n_flops"], n_boards=meta["n_boards"])
    if table.continuations != rules.continuations or table.counts.shape[1:] != (10, 4) \
            or int(table.weights.sum()) != rules.raw_situations \
            or not (table.counts.sum(axis=(1, 2)) == table.continuations).all():
        return None
    return table


def derive_basic(rule_file, rules: HoldemRules, log=None) -> tuple:
    """(the basic strategy derived from these rules' exact call margins, how its search was seeded, its
    parameters)."""
    return basic.derive(price(count(rules), rules), rule_file.name, log=log), basic.SEEDED, basic.DERIVATION_PARAMETERS
