"""Caribbean Stud analysis: price the counts, decide, derive and prove the rule in words, price the progressive."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.figures.distribution import RoundOutcomes, WagerStatistics
from analyzer.core.errors import InvariantError
from analyzer.core.rules import RuleFile
from analyzer.games.caribbean_stud import features, fitted_rule
from analyzer.games.caribbean_stud.basic import RuleCheck, check, pattern_features, strategy_figures
from analyzer.games.caribbean_stud.count import SituationCounts
from analyzer.games.caribbean_stud.price import Priced, price, simple_raises, simple_strategies
from analyzer.games.caribbean_stud.progressive import (CombinedFunctions, ProgressiveFigures, ProgressiveMoments,
                                                       combined_functions, progressive_figures, progressive_moments)
from analyzer.games.caribbean_stud.rules import GAME, Progressive, StudRules
from analyzer.poker.decision_table import StrategyFigures
from analyzer.poker.settlement import N_CATEGORIES
from analyzer.poker.statistics import MAIN, SIDE, PlayStatistics, round_outcomes, with_side_bet
from analyzer.poker.strategy_file import DecisionTableFiles, shared_columns
from analyzer.strategy.costs import Losses
from analyzer.strategy.language import Strategy

PROGRESSIVE = "progressive"        # the side bet's component in the round statistics
#: Combined play stakes the progressive at this many ANTEs (an ANTE equal to its stake); the summary's
#: functions of J give any other r: Var(main + r X) = Var(main) + r^2 Var(X) + 2 r Cov(main, X).
PROGRESSIVE_STAKE_PER_ANTE = Fraction(1)

STRATEGY_FILE = dict(game=GAME, groups=[("hand", 5), ("up card", 1)], actions=["fold", "raise"], ev_column="ev_raise",
                     key_text="canonical situation: the player's 5 cards (descending) then the dealer's up card, "
                              "card = rank * 4 + suit, suits renamed (docs/strategy-format.md)")
OPTIMAL_FILE, BASIC_FILE = "strategy.bin.gz", "strategy_basic.bin.gz"


@dataclass
class StudCombined:
    """One strategy's ANTE + raise with the progressive: exact functions of J, and the figures at each jackpot level."""

    functions: CombinedFunctions
    at_levels: list              # [(jackpot, PlayStatistics)] at the rule file's jackpot levels


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
    statistics: dict = None      # name -> PlayStatistics of ANTE + raise (joint rows by the player's category)
    moments: ProgressiveMoments = None      # the progressive's mean and variance per unit staked, functions of J
    progressive_at: list = None  # [(jackpot, WagerStatistics)]: the progressive alone at each jackpot level
    combined: dict = None        # name -> StudCombined
    progressive_ratio: Fraction = PROGRESSIVE_STAKE_PER_ANTE
    files: DecisionTableFiles = None        # strategy.bin.gz and, with a basic strategy, strategy_basic.bin.gz

    @property
    def count(self) -> SituationCounts:
        """What `game.count` returned for this analysis (shared by rule sets on one deck and qualifier)."""
        return self.priced.table

    table = count                # the same counts, by the name the rest of the code reads

    @property
    def total_deals(self) -> int:
        return self.table.raw_situations * self.table.completions

    def raises(self, name: str) -> np.ndarray:
        """Where the strategy `name` raises, per class (a simple strategy's made now)."""
        play = self.strategies[name].play
        return simple_raises(self.table, name) if play is None else play


def analyse(rule_file: RuleFile, rules: StudRules, table: SituationCounts, progress=None,
            start_files: bool = False) -> StudAnalysis:
    """Prices, the rule in words (derived and checked on every class), the strategies and the progressive
    (`start_files`: compress the strategy files in the background as soon as their decisions are known)."""
    priced = price(table, rules)
    files = DecisionTableFiles(**STRATEGY_FILE, rule_file=rule_file, keys=table.keys, table=priced.decisions,
                               shared=shared_columns(table.derived))
    files.add(OPTIMAL_FILE, start=start_files)
    rule = fitted_rule.fit(pattern_features(table), Losses.of(priced.sums))
    rule_check = check(rule, priced)
    st = simple_strategies(priced)
    st["rule_in_words"] = strategy_figures(rule.name, rule, priced, "the derived rule in words (strategy_rule.md)",
                                           classes=True)
    basic = features.basic_strategy(rule_file.name)
    if basic is not None:
        st["basic"] = strategy_figures("basic", basic, priced, "the basic strategy card (basic_strategy.md)",
                                       classes=True)
        files.add(BASIC_FILE, st["basic"].play.view(np.uint8), start=start_files)    # 0/1 codes, no copy
    key = ("progressive", rules.progressive)                 # rule sets often share the side bet
    if key not in table.derived:
        figures = progressive_figures(table, rules.progressive)
        table.derived[key] = figures, progressive_moments(rules.progressive, figures.counts)
    prog, moments = table.derived[key]
    analysis = StudAnalysis(rule_file, rules, priced, rule_check, st, prog, basic, files=files, moments=moments)
    analysis.statistics = {name: checked_statistics(priced, f, analysis.raises(name)) for name, f in st.items()}
    analysis.progressive_at = [(level, progressive_alone(rules.progressive, prog.counts, level))
                               for level in rules.progressive.levels]
    analysis.combined = {name: combined(rules.progressive, analysis.moments, stats, analysis.progressive_ratio)
                         for name, stats in analysis.statistics.items()}
    return analysis


def play_statistics(table: SituationCounts, rules: StudRules, raise_: np.ndarray,
                    cache: dict | None = None) -> PlayStatistics:
    """Every deal under a raise/fold mask: ANTE + raise, rows by the player's category (the progressive's
    class); `cache`: where the grouped counts are kept."""
    category = table.player_category
    outcomes = round_outcomes(table.weights, table.counts, table.completions, raise_, rules.paytable,
                              category=category, side=category, n_side=N_CATEGORIES, cache=cache)
    return PlayStatistics.of(outcomes)


def checked_statistics(priced: Priced, f: StrategyFigures, raise_: np.ndarray) -> PlayStatistics:
    """`play_statistics` of a priced strategy (raising where `raise_` holds), checked against its EV and RTP."""
    stats = play_statistics(priced.table, priced.rules, raise_, priced.table.derived)
    if stats.main.mean != f.ev or stats.main.rtp != f.rtp:
        raise InvariantError(f"Caribbean Stud round statistics of {f.name!r} disagree with its EV or RTP")
    return stats


def progressive_alone(prog: Progressive, counts: list, jackpot: Fraction) -> WagerStatistics:
    """The progressive per unit staked at one jackpot: paid on the player's five cards, whatever he decides."""
    return WagerStatistics.from_outcomes(
        RoundOutcomes((PROGRESSIVE,), [((prog.net(c, jackpot),), counts[c]) for c in range(N_CATEGORIES)]),
        PROGRESSIVE, None)


def combined(prog: Progressive, moments: ProgressiveMoments, stats: PlayStatistics, ratio: Fraction) -> StudCombined:
    """ANTE + raise with the progressive staked `ratio` x ANTE: functions of J, and the figures at each jackpot level."""
    outcomes, main = stats.outcomes, stats.main
    side_at, main_at = outcomes.index(SIDE), outcomes.index(MAIN)
    by_category = [Fraction(0)] * N_CATEGORIES
    for row, count in outcomes.rows.items():
        by_category[int(row[side_at])] += row[main_at] * count
    by_category = [x / outcomes.total for x in by_category]
    functions = combined_functions(moments, prog, by_category, main.mean, main.variance, main.mean_wagered, ratio)
    at_levels = []
    for level in prog.levels:
        nets = [prog.net(c, level) for c in range(N_CATEGORIES)]
        at_levels.append((level, PlayStatistics.of(with_side_bet(outcomes, PROGRESSIVE, lambda c, _: nets[c]),
                                                   PROGRESSIVE, ratio, main)))
    return StudCombined(functions, at_levels)
