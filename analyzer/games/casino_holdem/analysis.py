"""Casino Hold'em analysis: count the situations once, price them, evaluate every reported strategy."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core import timing
from analyzer.core.exact import exact_sum
from analyzer.core.rules import RuleFile
from analyzer.games.casino_holdem import features
from analyzer.games.casino_holdem.count import SituationTable
from analyzer.games.casino_holdem.price import Priced, figures, price, strategies
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.strategy.language import Strategy


@dataclass
class HoldemAnalysis:
    """One rule set analysed: its counts priced, and the figures of every strategy reported."""

    rule_file: RuleFile
    rules: HoldemRules
    priced: Priced
    strategies: dict             # name -> HoldemStrategy
    basic: Strategy              # the committed basic strategy (a rule list)

    @property
    def table(self) -> SituationTable:
        return self.priced.table

    @property
    def total_weight(self) -> int:
        return exact_sum(self.table.weights)

    @property
    def total_deals(self) -> int:
        return self.total_weight * self.table.continuations


def analyse(rule_file: RuleFile, rules: HoldemRules, table: SituationTable,
            aa_ratio: Fraction | None = None) -> HoldemAnalysis:
    """Price the counted table under one rule set and evaluate every reported strategy (no enumeration)."""
    with timing.stage("price"):
        priced = price(table, rules)
    with timing.stage("strategies"):
        st = strategies(priced, aa_ratio)
    with timing.stage("basic strategy"):
        basic = features.basic_strategy()
        basic_call = features.table_decisions(basic, table)
        st["basic"] = figures(priced, "basic", "the basic strategy card (basic_strategy.md)", basic_call)
        st["call_on_aa_win_basic"] = figures(priced, "call_on_aa_win_basic",
                                             "call whenever the AA Bonus wins, otherwise the basic strategy",
                                             basic_call | (priced.aa_return > 0))
    return HoldemAnalysis(rule_file, rules, priced, st, basic)
