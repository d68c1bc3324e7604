"""Caribbean Stud pricing: a paytable turns the counts into exact EVs of raising, decisions and figures.

A strategy that decides each rank pattern alike is priced from the weights and gains summed by pattern and
sign (`SignSums`), made with the EVs and the optimal decisions in one compiled pass.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.core.exact import INT64_MAX
from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.patterns import Patterns, patterns_of
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.poker.decision_table import DecisionTable, SignSums, StrategyFigures, play_ev_numerators
from analyzer.poker.hands import qualifier_value
from cython_ext import handeval, stud_patterns

# Simple strategies to compare with the optimal one: raise with this hand or better
# (the qualifier's vocabulary: a category and its leading ranks), and how to say so.
SIMPLE_STRATEGIES = {
    "raise_pair_or_better": ({"category": "one_pair", "ranks": []}, "raise with a pair or better"),
    "raise_ace_king_or_better": ({"category": "high_card", "ranks": ["A", "K"]}, "raise with ace-king or better"),
    "raise_everything": ({"category": "high_card", "ranks": []}, "raise every hand"),
}


@dataclass
class Priced:
    """Every class's exact EV of raising (numerators over one denominator) and the pattern sums."""

    table: SituationCounts
    rules: StudRules
    decisions: DecisionTable
    sums: SignSums               # per pattern (`patterns`' order): its classes' weights and gains by sign
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
        """weight x (EV raise - EV fold) numerators per class (made when first asked for)."""
        return self.decisions.gain

    @property
    def patterns(self) -> Patterns:
        return patterns_of(self.table)

    def optimal(self) -> tuple[np.ndarray, np.ndarray]:
        """(raise, tie): raise where raising is strictly better than folding; tie where exactly equal."""
        return self.decisions.optimal()

    def figures(self, name: str, description: str, raise_: np.ndarray) -> StrategyFigures:
        """The exact figures of raising where `raise_` holds (per class)."""
        return self.decisions.figures(name, description, raise_)

    def pattern_figures(self, name: str, description: str, by_pattern: np.ndarray,
                        raise_: np.ndarray | None = None) -> StrategyFigures:
        """The exact figures of raising the patterns where `by_pattern` holds (`raise_`: per class, if known)."""
        return self.decisions.figures_of_groups(self.sums, by_pattern, name, description, raise_)

    def optimal_figures(self, name: str, description: str) -> StrategyFigures:
        """The exact figures of the optimal strategy (raise where the gain is > 0), from the pattern sums."""
        return self.decisions.optimal_figures_of_groups(self.sums, name, description)


def price(table: SituationCounts, rules: StudRules) -> Priced:
    """EV numerators of raising and the gains summed by pattern: in one compiled pass when int64 provably holds
    every EV, gain and sum, else by NumPy in Python integers where needed."""
    nets, scale = rules.paytable.net_matrix()
    denominator = table.completions * scale
    patterns = patterns_of(table)
    largest = max(abs(int(x)) for x in nets.ravel())
    # The kernel checks that every class's counts add up to the completions: so |EV| <= largest x completions,
    # |gain| <= that + the denominator, times a weight (uint8), and every sum of gains that x the classes.
    if (largest * table.completions + denominator) * int(np.iinfo(np.uint8).max) * len(table) <= INT64_MAX \
            and (table.counts.dtype, table.weights.dtype, table.player_category.dtype) \
            == (np.uint32, np.uint8, np.uint8) and table.counts.ndim == 2:
        ev, raise_, tie, weights, gains = stud_patterns.price_classes(
            patterns.class_rank, patterns.class_up_rank, table.counts, table.player_category, table.weights,
            nets.astype(np.int64), table.completions, denominator)
        # the optimal decisions were made in the same pass: DecisionTable.optimal's, without its two passes
        decisions = DecisionTable(table.weights, ev, denominator, rules.raise_size, _optimal=(raise_, tie))
        sums = SignSums(weights, gains).take(patterns.numbers)
    else:
        ev = play_ev_numerators(table.counts, nets, table.player_category, row_total=table.completions)
        decisions = DecisionTable(table.weights, ev, denominator, rules.raise_size)
        sums = patterns.sign_sums(table.weights, decisions.gain)
    return Priced(table, rules, decisions, sums)


def hand_at_least(rank: np.ndarray, hand: dict) -> np.ndarray:
    """Where a dense rank (of classes, or of patterns) is that of this {category, ranks} hand or better."""
    return rank >= handeval.dense_at_least(qualifier_value(hand, "built-in strategy"))


def simple_strategies(priced: Priced) -> dict:
    """The optimal strategy and the simple ones it is compared with, priced from the pattern sums (their
    decisions per class made where needed, by `simple_raises`)."""
    out = {"optimal": priced.optimal_figures("optimal", "raise exactly when raising beats folding (exact ties fold)")}
    for name, (hand, words) in SIMPLE_STRATEGIES.items():
        out[name] = priced.pattern_figures(name, words, hand_at_least(priced.patterns.rank, hand))
    return out


def simple_raises(table: SituationCounts, name: str) -> np.ndarray:
    """Where the simple strategy `name` (of SIMPLE_STRATEGIES) raises, per class of the table."""
    return hand_at_least(table.player_rank, SIMPLE_STRATEGIES[name][0])
