"""Casino Hold'em analysis: count the situations once, price them, evaluate every reported strategy."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.rules import RuleFile
from analyzer.games.casino_holdem import features
from analyzer.games.casino_holdem.basic import holdem_rule_costs
from analyzer.games.casino_holdem.count import SituationTable
from analyzer.games.casino_holdem.price import HoldemStrategy, Priced, figures, price, strategies
from analyzer.games.casino_holdem.rules import AA_HANDS, GAME, HoldemRules
from analyzer.poker.statistics import PlayStatistics, round_outcomes, with_side_bet
from analyzer.poker.strategy_file import DecisionTableFiles, shared_columns
from analyzer.strategy.costs import RuleCost
from analyzer.strategy.language import Strategy

AA_BONUS = "aa_bonus"              # the side bet's component in the round statistics
STRATEGY_FILE = dict(game=GAME, groups=[("hole cards", 2), ("flop", 3)], actions=["fold", "call"], ev_column="ev_call",
                     key_text="canonical situation: 2 hole cards (descending) then 3 flop cards (descending), "
                              "card = rank * 4 + suit, suits renamed (docs/strategy-format.md)")
OPTIMAL_FILE, BASIC_FILE = "strategy.bin.gz", "strategy_basic.bin.gz"


@dataclass
class HoldemAnalysis:
    """One rule set analysed: its counts priced, and the figures of every strategy reported."""

    rule_file: RuleFile
    rules: HoldemRules
    priced: Priced
    strategies: dict             # name -> HoldemStrategy
    basic: Strategy              # the committed basic strategy (a rule list)
    statistics: dict             # name -> PlayStatistics: ANTE + CALL, the AA Bonus alone, both together
    aa_ratio: Fraction           # AA Bonus stake per ANTE in combined play (and the jointly optimal strategy)
    files: DecisionTableFiles = None        # strategy.bin.gz and strategy_basic.bin.gz
    basic_costs: list[RuleCost] | None = None    # what each rule of `basic` costs (basic_strategy.md)

    @property
    def count(self) -> SituationTable:
        """What `game.count` returned for this analysis (shared by rule sets on one deck and qualifier)."""
        return self.priced.table

    table = count                # the same counts, by the name the rest of the code reads

    @property
    def total_weight(self) -> int:
        return self.priced.decisions.total_weight          # summed once, with the decision table

    @property
    def total_deals(self) -> int:
        return self.total_weight * self.table.continuations


def analyse(rule_file: RuleFile, rules: HoldemRules, table: SituationTable,
            aa_ratio: Fraction | None = None, start_files: bool = False) -> HoldemAnalysis:
    """Price the counted table under one rule set and evaluate every reported strategy (`start_files`:
    compress the strategy files in the background as soon as their decisions are known)."""
    priced = price(table, rules)
    files = DecisionTableFiles(**STRATEGY_FILE, rule_file=rule_file, keys=table.keys, table=priced.decisions,
                               shared=shared_columns(table.derived))
    files.add(OPTIMAL_FILE, start=start_files)
    st = strategies(priced, aa_ratio)
    basic = features.basic_strategy()
    basic_call = features.decisions(basic, features.of_table(table))
    basic_costs = holdem_rule_costs(priced, basic)       # basic_strategy.md's, while the features are made
    features.let_go(table)       # nothing after this reads them: not held with the count through the publishing
    st["basic"] = figures(priced, "basic", "the basic strategy card (basic_strategy.md)", basic_call)
    files.add(BASIC_FILE, basic_call.astype(np.uint8), start=start_files)
    st["call_on_aa_win_basic"] = figures(priced, "call_on_aa_win_basic",
                                         "call whenever the AA Bonus wins, otherwise the basic strategy",
                                         basic_call | priced.aa_wins())
    ratio = st["joint_optimal"].aa_ratio
    statistics = {name: play_statistics(table, rules, priced.aa_hand, f.call, ratio, table.derived)
                  for name, f in st.items()}
    for name, f in st.items():
        check_statistics(f, statistics[name])
    return HoldemAnalysis(rule_file, rules, priced, st, basic, statistics, ratio, files=files, basic_costs=basic_costs)


def play_statistics(table: SituationTable, rules: HoldemRules, aa_hand: np.ndarray, call: np.ndarray,
                    ratio: Fraction, cache: dict | None = None) -> PlayStatistics:
    """Every deal under a call/fold mask: ANTE + CALL, the AA Bonus (lost on a fold) and both with the AA
    Bonus at `ratio` x ANTE (`aa_hand`: each class's AA hand; `cache`: where the grouped counts are kept)."""
    outcomes = round_outcomes(table.weights, table.counts, table.continuations, call, rules.paytable,
                              side=aa_hand, n_side=len(AA_HANDS), cache=cache)
    aa_net = [rules.aa_return(name) - 1 for name in AA_HANDS]
    outcomes = with_side_bet(outcomes, AA_BONUS, lambda hand, called: aa_net[hand] if called else -1)
    return PlayStatistics.of(outcomes, AA_BONUS, ratio)


def check_statistics(f: HoldemStrategy, stats: PlayStatistics) -> None:
    """The round statistics, counted deal by deal, must give the strategy's EV, RTP and AA Bonus RTP."""
    if stats.main.mean != f.ev or stats.main.rtp != f.rtp or stats.side.rtp != f.aa_rtp:
        raise InvariantError(f"Casino Hold'em round statistics of {f.name!r} disagree with its EV or RTPs")
