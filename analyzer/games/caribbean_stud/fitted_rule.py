"""The Caribbean Stud rule in words: a chained rule list of the strategy language, fitted to the optimal table.

The rule has a fixed shape: raise every category from the lowest that never folds; within each lower category
but high card raise from a fitted level and fold the rest; fold the high cards below the lowest worth raising;
in between, thresholds on the third and fourth cards by how the up card pairs the hand.  Each choice is the
candidate of least exact cost (`Losses`) on the rank patterns it decides."""
from __future__ import annotations

import numpy as np

from analyzer.core.cards import RANKS
from analyzer.games.caribbean_stud.features import (ACTIONS, FEATURE_SET, GAME, HIGH_CARD, LEVELS, PAIR_LEVEL,
                                                    PLACES)
from analyzer.poker.hands import ONE_PAIR
from analyzer.strategy.costs import Losses
from analyzer.strategy.language import Condition, Rule, Strategy

RAISE, FOLD = "raise", "fold"
NAME, TITLE = "rule_in_words", "Caribbean Stud rule in words"
TOP, OTHERS, NONE = (Condition("up_pairs", "in", (1, 2)), Condition("up_pairs", "in", (3, 4, 5)),
                     Condition("up_pairs_any", "eq", 0))     # the up card pairs your highest or second card, ...
N_RANKS = len(RANKS)                 # a rank no card reaches: the threshold of a rule left out


def rule_list(rules) -> Strategy:
    """The rule in words of these rules, folding what none of them decides."""
    return Strategy(GAME, NAME, TITLE, tuple(rules), FOLD, FEATURE_SET, chained=True)


def fit(values: dict, losses: Losses) -> Strategy:
    """The least-cost rule of the shape above, from the features of each group of classes and what raising
    and folding each group gives up against optimal (`losses`)."""
    hand = values["hand"]

    def best(candidates: list, region: np.ndarray) -> list:
        """The candidate (a list of rules, before the final fold) of least exact cost on the groups in `region`."""
        if not region.any():
            return candidates[0]
        index = np.flatnonzero(region)
        within, lost = {name: v[index] for name, v in values.items()}, losses.take(index)
        raise_code = ACTIONS.index(RAISE)
        costs = [int(lost.lost(rule_list(c).decide(within) == raise_code).sum()) for c in candidates]
        return candidates[int(np.argmin(costs))]

    def at_least(category: int, action: str) -> Rule:
        return Rule((Condition("hand", "min", category),), action)

    # the lowest category from which nothing folds: one above the highest where something does
    always = int(hand[losses.if_played > 0].max()) + 1 if (losses.if_played > 0).any() else HIGH_CARD
    lower = []
    for c in range(always - 1, HIGH_CARD, -1):
        levels = [[at_least(c, RAISE)], []]
        if c == ONE_PAIR:
            levels += [[Rule((Condition("level", "min", PAIR_LEVEL + r),), RAISE)] for r in range(1, N_RANKS)]
        level = best(levels, hand == c)
        if level == levels[0] and not lower:
            always = c                                  # the whole category raises too
        else:
            lower += level + [at_least(c, FOLD)]
    rules = ([at_least(always, RAISE)] if always <= int(hand.max()) else []) + lower
    raised = (hand == HIGH_CARD) & (losses.if_folded > 0)          # high cards with a class worth raising
    if always == HIGH_CARD or not raised.any():
        return pruned(rules, values)
    # Every high card below the lowest one worth raising folds (ace-king: everything below it).
    floor = Condition("level", "below", int(values["level"][raised].min()))
    rules.append(Rule((floor,), FOLD))
    band = (hand == HIGH_CARD) & ~floor.holds(values, FEATURE_SET)
    top = band & TOP.holds(values, FEATURE_SET)
    rules += best([[Rule((TOP, Condition("third", "min", t)), RAISE)] if t < N_RANKS else []
                   for t in range(N_RANKS + 1)], top) + [Rule((TOP,), FOLD)]
    rules += best([[Rule((OTHERS,), RAISE)], []], band & OTHERS.holds(values, FEATURE_SET))
    shapes = [[]]
    for third in range(N_RANKS):
        for fourth in range(N_RANKS + 1):
            at = (NONE, Condition("third", "min", third))
            shapes.append(([Rule(at + (Condition("fourth", "min", fourth), Condition("up_below_fourth", "min", 1)),
                                 RAISE)] if fourth < N_RANKS else [])
                          + [Rule(at + (Condition("up_below_fourth", "min", 2),), RAISE)])
    rules += best(shapes, band & NONE.holds(values, FEATURE_SET))
    return pruned(rules, values)


def pruned(rules: list, values: dict) -> Strategy:
    """The rule list without the rules that decide no group (the same decisions, fewer words)."""
    deciding = set(np.unique(rule_list(rules).first_rule(values)).tolist())
    return rule_list(rule for index, rule in enumerate(rules) if index in deciding)


def clauses(strategy: Strategy) -> list[dict]:
    """summary.json's `rule_in_words.clauses`: each rule, then the default, as data (the condition kinds of
    docs/summary-fields.md)."""
    def data(c: Condition) -> dict:
        if (c.feature, c.op) == ("hand", "min"):
            return {"kind": "CategoryAtLeast", "category": c.value}
        if c.feature == "level" and c.op in ("min", "below"):
            category, ranks = LEVELS[c.value]
            return {"kind": "HandAtLeast" if c.op == "min" else "HandBelow", "category": category, "ranks": list(ranks)}
        if c.feature == "up_pairs" and c.op in ("eq", "in"):
            return {"kind": "UpPairs", "places": [p - 1 for p in (c.value if c.op == "in" else (c.value,))]}
        if (c.feature, c.op, c.value) == ("up_pairs_any", "eq", 0):
            return {"kind": "UpPairs", "places": []}
        if c.feature in PLACES and c.op == "min":
            return {"kind": "CardAtLeast", "place": PLACES.index(c.feature), "rank": c.value}
        if c.feature.startswith("up_below_") and c.op == "min":
            return {"kind": "UpBelowCard", "place": PLACES.index(c.feature.removeprefix("up_below_")), "gap": c.value}
        raise ValueError(f"summary.json names no condition {c.words(FEATURE_SET)!r}")
    return [{"action": r.action, "conditions": [data(c) for c in r.conditions]} for r in strategy.rules] \
        + [{"action": strategy.default, "conditions": []}]
