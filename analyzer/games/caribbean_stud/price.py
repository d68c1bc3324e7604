"""Caribbean Stud pricing: a paytable turns the counts into exact EVs of raising, decisions and figures.

Everything is the shared poker decision table (`analyzer.poker`); what is Caribbean
Stud's own here is the class's fixed hand category (the player's five cards are all he
will hold) and the simple strategies it is compared with.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.poker.decision_table import DecisionTable, StrategyFigures, play_ev_numerators
from analyzer.poker.hands import qualifier_value
from cython_ext import handeval

# Simple strategies to compare with the optimal one: raise with this hand or better
# (the qualifier's vocabulary: a category and its leading ranks), and how to say so.
SIMPLE_STRATEGIES = {
    "raise_pair_or_better": ({"category": "one_pair", "ranks": []}, "raise with a pair or better"),
    "raise_ace_king_or_better": ({"category": "high_card", "ranks": ["A", "K"]}, "raise with ace-king or better"),
    "raise_everything": ({"category": "high_card", "ranks": []}, "raise every hand"),
}


@dataclass
class Priced:
    """Every class's exact EV of raising, per ANTE, as an integer numerator over one denominator."""

    table: SituationCounts
    rules: StudRules
    decisions: DecisionTable
    derived: dict = field(default_factory=dict, repr=False)   # what this rule set computes once from the
                                                                # count (features, rule lists' decisions)

    @property
    def ev_raise(self) -> np.ndarray:
        return self.decisions.ev_play

    @property
    def denominator(self) -> int:
        return self.decisions.denominator

    @property
    def gain(self) -> np.ndarray:
        """weight x (EV raise - EV fold) numerators: what each decision is worth."""
        return self.decisions.gain

    def optimal(self) -> tuple[np.ndarray, np.ndarray]:
        """(raise, tie): raise where raising is strictly better than folding; tie where exactly equal."""
        return self.decisions.optimal()

    def figures(self, name: str, description: str, raise_: np.ndarray) -> StrategyFigures:
        """The exact figures of raising where `raise_` holds."""
        return self.decisions.figures(name, description, raise_)


def price(table: SituationCounts, rules: StudRules) -> Priced:
    """EV numerators of raising: sum over outcomes of count x net, the class's category fixed."""
    nets, scale = rules.paytable.net_matrix()
    ev = play_ev_numerators(table.counts, nets, table.player_category)
    return Priced(table, rules, DecisionTable(table.weights, ev, table.completions * scale, rules.raise_size))


def hand_at_least(table: SituationCounts, hand: dict) -> np.ndarray:
    """Classes whose player hand is this {category, ranks} hand or better."""
    return table.player_rank >= handeval.dense_at_least(qualifier_value(hand, "built-in strategy"))


def simple_strategies(priced: Priced) -> dict:
    """The optimal strategy and the simple ones it is compared with."""
    raise_, _ = priced.optimal()
    out = {"optimal": priced.figures("optimal", "raise exactly when raising beats folding (exact ties fold)", raise_)}
    for name, (hand, words) in SIMPLE_STRATEGIES.items():
        out[name] = priced.figures(name, words, hand_at_least(priced.table, hand))
    return out
