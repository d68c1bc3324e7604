"""Baccarat analysis: the full shoe and each one-card-removed shoe counted, every bet priced exactly."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.rules import RuleFile
from analyzer.games.baccarat.price import MainOutcomes, banker_win_return, bet_lines, commission_stakes, \
    effect_of_removal, rtp_of
from analyzer.games.baccarat.rules import BaccaratRules


@dataclass
class BaccaratAnalysis:
    """One rule set analysed: the full shoe's outcome counts, every bet's lines, the stakes, the effects."""

    rule_file: RuleFile
    rules: BaccaratRules
    counts: np.ndarray
    main: MainOutcomes
    lines: dict
    effects: dict
    stake_rtps: list
    shoe_counts: list          # outcome counts of analysis_shoes(rules)

    @property
    def shoe(self) -> tuple:
        return self.rules.full_shoe()

    def rtp(self, bet: str) -> Fraction:
        """The bet's exact RTP (total returned / total staked) on the full shoe."""
        return rtp_of(self.lines[bet])


def analyse(rule_file: RuleFile, rules: BaccaratRules, shoe_counts: list) -> BaccaratAnalysis:
    """Every bet priced on the counted shoes (`count.analysis_shoes`: the full shoe first)."""
    main = MainOutcomes.from_counts(shoe_counts[0])
    stake_rtps = []
    for stake in commission_stakes(rules):
        returned = banker_win_return(rules, stake)
        stake_rtps.append((stake, returned, rtp_of(bet_lines(main, rules, returned)["banker"])))
    return BaccaratAnalysis(rule_file, rules, shoe_counts[0], main, bet_lines(main, rules),
                            effect_of_removal(rules, shoe_counts), stake_rtps, shoe_counts)
