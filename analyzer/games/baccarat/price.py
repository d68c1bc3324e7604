"""Baccarat pricing: what each bet returns on each outcome, exactly, and the BANKER commission's rounding.

`bet_returns` is the settlement of the three bets, written once: pricing, the live-shoe
answers and the Monte Carlo all read it.  Nothing here counts: the counts come in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.figures.distribution import RoundOutcomes
from analyzer.games.baccarat.rules import BETS, N_VALUES, BaccaratRules

OUTCOMES = ("banker wins", "player wins", "tie")
ROUND_STAKES = (Fraction(5, 2), 3, 5, 7, Fraction(15, 2), 10, 15, 20, 25, 50, 75, 100, 250, 500, 1000, 2500, 5000, 10000)


@dataclass(frozen=True)
class MainOutcomes:
    """Sequence counts of the three main outcomes of a shoe."""

    banker: int
    player: int
    tie: int

    @property
    def total(self) -> int:
        return self.banker + self.player + self.tie

    @property
    def by_outcome(self) -> dict:
        """{outcome of OUTCOMES: its sequence count}."""
        return dict(zip(OUTCOMES, (self.banker, self.player, self.tie)))

    @classmethod
    def from_counts(cls, counts: np.ndarray) -> "MainOutcomes":
        by_totals = counts.sum(axis=2)          # [player total, banker total]
        return cls(banker=int(np.triu(by_totals, 1).sum()), player=int(np.tril(by_totals, -1).sum()),
                   tie=int(np.trace(by_totals)))


def banker_win_return(rules: BaccaratRules, stake: Fraction | None = None) -> Fraction:
    """Total returned per unit staked on a winning BANKER bet: nominal (commission exact), or at a `stake`
    rounded as the rules say."""
    nominal = 1 + rules.pays["banker"] * (1 - rules.commission)
    if stake is None or rules.rounding == "none":
        return nominal
    units = math.floor(stake * nominal / rules.unit)
    return units * rules.unit / stake


@dataclass(frozen=True)
class BetLine:
    """One line of a bet's PAR table: an outcome, its count and what it returns per unit."""

    outcome: str
    combinations: int
    returned: Fraction          # total returned per unit staked (stake included)


def bet_returns(rules: BaccaratRules, banker_return: Fraction | None = None) -> dict:
    """{bet: {outcome: total returned per unit staked}}: the settlement of the three bets, written once (a tie
    returns PLAYER and BANKER stakes when the rules say it pushes)."""
    push = Fraction(1) if rules.tie_pushes else Fraction(0)
    return {
        "banker": {"banker wins": banker_win_return(rules) if banker_return is None else banker_return,
                   "tie": push, "player wins": Fraction(0)},
        "player": {"player wins": 1 + rules.pays["player"], "tie": push, "banker wins": Fraction(0)},
        "tie": {"tie": 1 + rules.pays["tie"], "banker wins": Fraction(0), "player wins": Fraction(0)},
    }


def bet_lines(main: MainOutcomes, rules: BaccaratRules, banker_return: Fraction | None = None) -> dict:
    """PAR lines of each bet: {bet: [BetLine, ...]} covering every outcome once (the bet's win first)."""
    return {bet: [BetLine(o, main.by_outcome[o], returned) for o, returned in returns.items()]
            for bet, returns in bet_returns(rules, banker_return).items()}


def bet_outcomes(main: MainOutcomes, rules: BaccaratRules, banker_return: Fraction | None = None) -> RoundOutcomes:
    """The joint net result of a 1-unit bet on each of BANKER, PLAYER and TIE in one round (components named
    by BETS), counted over the shoe's ordered sequences: what the bets' variances and covariances come from."""
    returns = bet_returns(rules, banker_return)
    return RoundOutcomes(BETS, [(tuple(returns[bet][outcome] - 1 for bet in BETS), count)
                                for outcome, count in main.by_outcome.items()])


def rtp_of(lines: list[BetLine]) -> Fraction:
    """Total returned / total staked over a bet's lines."""
    total = sum(line.combinations for line in lines)
    return sum(Fraction(line.combinations, total) * line.returned for line in lines)


def effect_of_removal(rules: BaccaratRules, counts: list) -> dict:
    """Change of each bet's EV when one card of each value is removed from the full shoe (`counts`: those
    of `count.analysis_shoes`, the full shoe first)."""
    rtps = [{bet: rtp_of(lines) for bet, lines in bet_lines(MainOutcomes.from_counts(c), rules).items()}
            for c in counts]
    return {value: {bet: rtps[value + 1][bet] - rtps[0][bet] for bet in BETS} for value in range(N_VALUES)}


def commission_stakes(rules: BaccaratRules) -> list[Fraction]:
    """Stakes for the rounding table: every unit step to 2.00, then round amounts to the maximum."""
    steps = math.floor((min(rules.max_bet, 2) - rules.min_bet) * 10)        # EUR 0.10 steps up to 2.00
    stakes = {rules.min_bet + Fraction(i, 10) for i in range(steps + 1)}
    stakes |= {Fraction(amount) for amount in ROUND_STAKES if rules.min_bet <= amount <= rules.max_bet}
    return sorted(stakes | {rules.max_bet})
