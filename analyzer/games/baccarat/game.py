"""Baccarat's face (`analyzer.games.interface`): rules -> count -> analyse (price) -> outputs, checks, the live
shoe, payout design and the README's figures; the advisor reads its strategy file with `advice`."""
from __future__ import annotations

import math

from analyzer.core.exact import INT64_MAX
from analyzer.core.rules import RuleError
from analyzer.games.interface import on_first_use

from analyzer.games.baccarat.advice import shoe_query
from analyzer.games.baccarat.analysis import analyse
from analyzer.games.baccarat.checks import check, check_statistics
from analyzer.games.baccarat.count import analysis_shoes, count_shoes
from analyzer.games.baccarat.outputs import key_figures, outputs
from analyzer.games.baccarat.rules import CARDS_PER_DECK_BY_VALUE, BaccaratRules, load_rules
from analyzer.games.baccarat.shoe import parse_counts, remove_cards

__all__ = ["load_rules", "check_limits", "count_fields", "count", "analyse", "outputs", "key_figures", "check",
           "live_shoe", "check_statistics", "spec_deals", "spec_refusals"]

__getattr__ = on_first_use(__package__)      # the rest of the face (interface.ON_FIRST_USE), on use

# The test vectors (docs/strategy-test-vectors.json): the full shoe, shoes by the cards dealt, a small shoe
# where PLAYER and TIE are worth exactly the same, and one shoe per refusal of section 7 (the first rule broken
# names it: a malformed card after a rank removed too often is malformed).
spec_deals = {"operator": [{}, {"removed": "5,5,9,K"}, {"removed": "T,T,T,T,T,T,T,T"}, {"removed": "9,9,9,9,8,8,8,8"},
                           {"counts": "0,0,0,0,2,2,0,1,0,1"}]}
spec_refusals = [("operator", {"removed": "5,X"}, "malformed-card"),
                 ("operator", {"removed": ""}, "malformed-card"),
                 ("operator", {"removed": ",".join(["A"] * 33 + ["X"])}, "malformed-card"),
                 ("operator", {"removed": ",".join(["Ah"] * 9)}, "removed-too-often"),
                 ("operator", {"removed": ",".join(["A"] * 33)}, "removed-too-often"),
                 ("operator", {"counts": "12_8,32,32,32,32,32,32,32,32,32"}, "not-counts"),
                 ("operator", {"counts": "129,32,32,32,32,32,32,32,32,32"}, "above-full-shoe"),
                 ("operator", {"counts": "0,0,0,0,0,0,0,0,0,5"}, "too-few-cards")]


def _sequences(decks: int) -> int:
    n = decks * CARDS_PER_DECK
    return math.prod(range(n - 5, n + 1))


CARDS_PER_DECK = sum(CARDS_PER_DECK_BY_VALUE)

# The strategy file stores each reference shoe's outcome counts in signed 64-bit columns (docs/strategy-format.md,
# section 6): the full shoe's ordered 6-card sequences must fit.
MAX_DECKS = max(d for d in range(1, 100) if _sequences(d) <= INT64_MAX)     # 27 decks (1,404 cards)


def check_limits(rule_file, rules: BaccaratRules) -> None:
    """Refuse, before counting, a shoe whose counts the strategy file's 64-bit columns cannot hold (only a full
    analysis writes that file: `live_shoe` answers any shoe, in Python integers beyond 64 bits)."""
    if rules.decks > MAX_DECKS:
        raise RuleError(str(rule_file.path), "shoe.decks",
                        f"{rules.decks} decks: a full analysis stores the shoe's ordered 6-card sequence counts "
                        f"in the strategy file's signed 64-bit columns (at most 2^63-1), which hold at most "
                        f"{MAX_DECKS} decks ({_sequences(MAX_DECKS):,} sequences); a live-shoe question "
                        "(--remove/--counts) is answered for any shoe")


def count_fields(rules: BaccaratRules) -> dict:
    """Exactly the rule fields the counts depend on: the shoe and the drawing tableau."""
    return {"decks": rules.decks, "natural": sorted(rules.natural), "player_draws_on": sorted(rules.player_draws_on),
            "banker_draws_when_player_stands": sorted(rules.banker_draws_when_player_stands),
            "banker_draws": [sorted(values) for values in rules.banker_draws]}


def count(rules: BaccaratRules, executor=None, progress=None) -> list:
    """Outcome counts of the full shoe and of each shoe with one card of a value removed."""
    return count_shoes(analysis_shoes(rules), rules, executor, progress)


def live_shoe(rules: BaccaratRules, remove: str | None = None, counts: str | None = None) -> dict:
    """The live-shoe question for the cards already dealt (`remove`) or a shoe given by `counts`."""
    shoe = parse_counts(counts, rules.full_shoe()) if counts is not None else remove_cards(rules.full_shoe(), remove)
    return shoe_query(shoe, rules)
