"""Baccarat analysis: the full shoe and each one-card-removed shoe counted, every bet priced exactly."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.figures.distribution import RoundOutcomes, WagerStatistics
from analyzer.core.errors import InvariantError
from analyzer.core.rules import RuleFile
from analyzer.games.baccarat.price import MainOutcomes, banker_win_return, bet_lines, bet_outcomes, \
    commission_stakes, effect_of_removal, rtp_of
from analyzer.games.baccarat.rules import BETS, BaccaratRules

#: Bets played together in one round (1 unit each) for combined play: their covariance is counted.
PAIRS = (("banker", "tie"), ("player", "tie"), ("banker", "player"))


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
    joint: RoundOutcomes = None            # the three bets' nets per unit in one round (nominal commission)
    statistics: dict = None                # bet -> WagerStatistics per unit staked
    pairs: dict = None                     # (bet, bet) -> WagerStatistics of both, 1 unit each (wagered 2)
    stake_statistics: list = None          # [(stake, WagerStatistics of BANKER at that stake)]

    @property
    def count(self) -> list:
        """What `game.count` returned for this analysis."""
        return self.shoe_counts

    def covariance(self, a: str, b: str) -> Fraction:
        """Cov(net of bet a, net of bet b) per unit each, in one round: counted from the joint outcomes."""
        return self.joint.covariance(a, b)

    @property
    def shoe(self) -> tuple:
        return self.rules.full_shoe()

    def rtp(self, bet: str) -> Fraction:
        """The bet's exact RTP (total returned / total staked) on the full shoe."""
        return rtp_of(self.lines[bet])


def analyse(rule_file: RuleFile, rules: BaccaratRules, shoe_counts: list) -> BaccaratAnalysis:
    """Every bet priced on the counted shoes (`count.analysis_shoes`: the full shoe first)."""
    main = MainOutcomes.from_counts(shoe_counts[0])
    stake_rtps = [(stake, returned, rtp_of(bet_lines(main, rules, returned)["banker"]))
                  for stake in commission_stakes(rules) for returned in [banker_win_return(rules, stake)]]
    analysis = BaccaratAnalysis(rule_file, rules, shoe_counts[0], main, bet_lines(main, rules),
                                effect_of_removal(rules, shoe_counts), stake_rtps, shoe_counts)
    analysis.joint = bet_outcomes(main, rules)
    analysis.statistics = {bet: WagerStatistics.from_outcomes(analysis.joint, bet, None) for bet in BETS}
    analysis.pairs = {pair: pair_statistics(analysis.joint, pair) for pair in PAIRS}
    analysis.stake_statistics = [
        (stake, WagerStatistics.from_outcomes(bet_outcomes(main, rules, returned), "banker", None))
        for stake, returned, _ in stake_rtps]
    for bet in BETS:
        if analysis.statistics[bet].rtp != analysis.rtp(bet):
            raise InvariantError(f"Baccarat round statistics of {bet} disagree with its RTP")
    for (stake, _, rtp), (_, stats) in zip(stake_rtps, analysis.stake_statistics):
        if stats.rtp != rtp:
            raise InvariantError(f"Baccarat BANKER statistics at stake {stake} disagree with its RTP")
    return analysis


def pair_name(pair: tuple) -> str:
    """'banker_and_tie'."""
    return "_and_".join(pair)


def pair_statistics(joint: RoundOutcomes, pair: tuple) -> WagerStatistics:
    """Two bets of one round, 1 unit each: net = the sum of their nets, wagered 2."""
    both = joint.combine("net", {bet: 1 for bet in pair}, keep=[]).combine("wagered", {}, constant=2)
    return WagerStatistics.from_outcomes(both, "net", "wagered")
