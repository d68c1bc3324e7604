"""Caribbean Stud analysis: price the counts, decide, derive and prove the rule in words, price the progressive."""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.core import timing
from analyzer.core.rules import RuleFile
from analyzer.games.caribbean_stud import features
from analyzer.games.caribbean_stud.basic import raises_of
from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.price import Priced, price, simple_strategies
from analyzer.games.caribbean_stud.progressive import ProgressiveFigures, progressive_figures
from analyzer.games.caribbean_stud.rule_in_words import Features, RuleCheck, check_rule, derive_rule
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.strategy.language import Strategy


@dataclass
class StudAnalysis:
    """One rule set analysed: its counts priced, the strategies, the rule in words, the progressive."""

    rule_file: RuleFile
    rules: StudRules
    priced: Priced
    rule_check: RuleCheck
    strategies: dict             # name -> StrategyFigures
    progressive: ProgressiveFigures
    basic: Strategy | None       # the committed basic strategy of this rule set, if any

    @property
    def table(self) -> SituationCounts:
        return self.priced.table

    @property
    def total_deals(self) -> int:
        return self.table.raw_situations * self.table.completions


def rule_features(table: SituationCounts) -> Features:
    """What the rule in words reads of each class.

    Made for each rule set and not kept: it is only read while the rule is derived and
    checked, and holding it (about 60 MB on the full deck) for the next rule set would cost
    more memory than making it again costs time.
    """
    return Features.of(table.keys, table.player_category, table.player_rank)


def analyse(rule_file: RuleFile, rules: StudRules, table: SituationCounts, progress=None) -> StudAnalysis:
    """Prices, the rule in words (derived and checked on every class), the strategies and the progressive."""
    with timing.stage("price"):
        priced = price(table, rules)
    with timing.stage("rule in words"):
        seen = rule_features(table)
        rule_check = check_rule(derive_rule(seen, priced.gain), seen, priced.gain,
                                table.raw_situations * priced.denominator)
        del seen
    with timing.stage("strategies"):
        st = simple_strategies(priced)
        st["rule_in_words"] = priced.figures("rule_in_words", "the derived rule in words (strategy_rule.md)",
                                             rule_check.raises)
    with timing.stage("basic strategy"):
        basic = features.basic_strategy(rule_file.name)
        if basic is not None:
            st["basic"] = priced.figures("basic", "the basic strategy card (basic_strategy.md)",
                                         raises_of(basic, priced))
    key = ("progressive", rules.progressive)                 # rule sets often share the side bet
    if key not in table.derived:
        with timing.stage("progressive"):
            table.derived[key] = progressive_figures(table, rules.progressive)
    return StudAnalysis(rule_file, rules, priced, rule_check, st, table.derived[key], basic)
