"""Caribbean Stud rule lists priced exactly on the rank patterns: figures, each rule's cost, the check on every
class, and the strategies side by side."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.exact import decimal_str, exact_sum, fraction_str, percent_str
from analyzer.figures.tables import markdown_table
from analyzer.games.caribbean_stud import features
from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.price import Priced
from analyzer.games.caribbean_stud.patterns import patterns_of
from analyzer.poker.decision_table import StrategyFigures
from analyzer.strategy.costs import Losses, RuleCost, rule_costs, rule_costs_markdown
from analyzer.strategy.language import Strategy, strategy_card_markdown
from analyzer.strategy.search import derive_basic

def stud_rule_costs(priced: Priced, strategy: Strategy) -> list[RuleCost]:
    """rule_costs of a Caribbean Stud rule list, on the rank patterns."""
    return rule_costs(strategy, pattern_features(priced.table), priced.decisions, priced.sums)


@dataclass(frozen=True)
class StudRow:
    name: str
    description: str
    rules: int | None               # rules in the list (None: not a rule list)
    figures: StrategyFigures
    ev_gap: Fraction                # EV per ANTE below optimal (>= 0)
    rtp_gap: Fraction               # optimal RTP minus this RTP (may be negative: RTP is not what optimal maximises)


def stud_strategy_table(priced: Priced, strategies: dict, priced_figures: dict | None = None) -> list[StudRow]:
    """Optimal play beside rule lists ({name: Strategy}), exact, with the gaps to optimal (`priced_figures`:
    figures the analysis already has, by name)."""
    known = priced_figures or {}
    optimal = known.get("optimal") or priced.optimal_figures("optimal", "raise exactly when raising beats folding")
    rows = [StudRow("optimal", optimal.description, None, optimal, Fraction(0), Fraction(0))]
    for name, strategy in strategies.items():
        f = known.get(name) or strategy_figures(name, strategy, priced)
        rows.append(StudRow(name, strategy.title, len(strategy.rules), f, optimal.ev - f.ev, optimal.rtp - f.rtp))
    return rows


def stud_strategy_table_markdown(rows: list[StudRow]) -> str:
    body = [[r.name, "" if r.rules is None else str(r.rules), percent_str(r.figures.p_play, 4),
             percent_str(r.figures.house_edge, 6), percent_str(r.figures.rtp, 6), percent_str(r.ev_gap, 6),
             ("+" if r.rtp_gap < 0 else "") + decimal_str(-r.rtp_gap * 100, 6) + " pp"] for r in rows]
    return markdown_table(["strategy", "rules", "raises", "house edge / ANTE", "RTP (returned / wagered)",
                           "EV below optimal", "RTP minus optimal"], body, "lrrrrrr")


def stud_basic_strategy_markdown(priced: Priced, strategy: Strategy, others: dict | None = None,
                                 priced_figures: dict | None = None) -> str:
    """The Stud card, its figures beside optimal (and `others`), and each rule's cost."""
    rows = stud_strategy_table(priced, {"basic": strategy, **(others or {})}, priced_figures)
    basic = rows[1]
    out = [strategy_card_markdown(strategy), "",
           "## Exact figures against optimal play\n",
           stud_strategy_table_markdown(rows),
           f"\nExact house edge of the basic strategy: {fraction_str(basic.figures.house_edge)} per ANTE; "
           f"EV below optimal: {fraction_str(basic.ev_gap)} per ANTE.\n",
           "## What each rule costs\n",
           rule_costs_markdown(stud_rule_costs(priced, strategy))]
    return "\n".join(out)


def _kept(derived: dict, key, make):
    """derived[key], made by make() the first time it is asked for."""
    if key not in derived:
        derived[key] = make()
    return derived[key]


def pattern_features(table: SituationCounts) -> dict:
    """The features of each pattern, read off one class of each (no feature reads suits); kept with the count."""
    return _kept(table.derived, "basic pattern features", lambda: features.compute(patterns_of(table).keys))


class ClassFeatures(Mapping):
    """Every class's features, each spread from the patterns' values when first read."""

    def __init__(self, table: SituationCounts):
        self._patterns, self._by_pattern, self._spread = patterns_of(table), pattern_features(table), {}

    def __getitem__(self, name: str) -> np.ndarray:
        return _kept(self._spread, name, lambda: self._patterns.spread(self._by_pattern[name]))

    def __iter__(self):
        return iter(self._by_pattern)

    def __len__(self) -> int:
        return len(self._by_pattern)


def features_of(priced: Priced) -> ClassFeatures:
    """The features of every class, kept with the rule set's pricing."""
    return _kept(priced.derived, "basic_features", lambda: ClassFeatures(priced.table))


def pattern_raises(strategy: Strategy, priced: Priced) -> np.ndarray:
    """Where a rule list raises, per pattern (kept with the rule list, once per rule set)."""
    return _kept(priced.derived, ("pattern raises", id(strategy)),
                 lambda: (strategy, features.decisions(strategy, pattern_features(priced.table))))[1]


def raises_of(strategy: Strategy, priced: Priced) -> np.ndarray:
    """Where a rule list raises, on every class (its pattern decisions spread, once per rule set)."""
    return _kept(priced.derived, ("raises", id(strategy)),
                 lambda: (strategy, priced.patterns.spread(pattern_raises(strategy, priced))))[1]


def strategy_figures(name: str, strategy: Strategy, priced: Priced, description: str | None = None,
                     classes: bool = False) -> StrategyFigures:
    """The exact figures of a rule list, from the pattern sums; `classes`: with its decisions per class."""
    return priced.pattern_figures(name, strategy.title if description is None else description,
                                  pattern_raises(strategy, priced), raises_of(strategy, priced) if classes else None)


@dataclass(frozen=True)
class RuleCheck:
    """A rule list checked on every situation class against the optimal decisions."""

    strategy: Strategy
    raises: np.ndarray           # its decision per class
    exceptions: np.ndarray       # indices of classes where its decision loses EV
    exception_gains: np.ndarray  # their gains (weight x (EV raise - EV fold)): what it loses is |gain|
    cost: Fraction               # EV per ANTE it gives up against optimal play
    best_rank_only_cost: Fraction  # the least any rule blind to suits (hand value + up rank) gives up
    mixed_rank_patterns: int     # patterns (hand value + up rank) whose best play depends on suits


def check(strategy: Strategy, priced: Priced) -> RuleCheck:
    """`strategy` on every class against the optimal decisions: its exact cost from the pattern losses, and its
    exceptions among the classes of the patterns where it loses anything."""
    losses, patterns = Losses.of(priced.sums), priced.patterns
    lost = losses.lost(pattern_raises(strategy, priced))
    raises = raises_of(strategy, priced)
    suspects = patterns.classes_in(lost > 0)
    gains = priced.decisions.gains_at(suspects)
    wrong = np.where(raises[suspects], gains < 0, gains > 0)
    # a rule that reads the hand's value and the up card's rank decides alike all classes of a pattern
    least, scale = losses.least(), priced.table.raw_situations * priced.denominator
    return RuleCheck(strategy, raises, suspects[wrong], gains[wrong], Fraction(exact_sum(lost), scale),
                     Fraction(exact_sum(least), scale), int((least > 0).sum()))


# --- deriving it -----------------------------------------------------------------------------------------

SEEDED = "from no rules"
DERIVATION_PARAMETERS = {"max_rules": 4, "max_conditions": 4, "beam": 8, "penalty": 1e-7, "features": None, "seed": None}


def derive(priced: Priced, rule_set: str, log=None) -> Strategy:
    """A Caribbean Stud basic strategy derived from exact raise margins (`analyzer.strategy.search`)."""
    return derive_basic(features.FEATURE_SET, features_of(priced), priced.gain,
                        priced.denominator * priced.table.raw_situations,
                        f"Caribbean Stud basic strategy ({rule_set} rule set)", DERIVATION_PARAMETERS, log)
