"""Baccarat verification: the strategy file's answer for the full shoe, the plain walk, and a Monte Carlo.

The Monte Carlo deals card values from shuffled shoes, plays each round through the plain
tableau of `reference.play_round`, and settles every bet with `price.bet_returns`.
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.core.exact import integer_array, parse_fraction_str
from analyzer.core.sampling import Tally, batches, deal_values
from analyzer.games.baccarat.count import count_outcomes_python
from analyzer.games.baccarat.price import MainOutcomes, bet_lines, bet_returns, rtp_of
from analyzer.games.baccarat.reference import play_round
from analyzer.games.baccarat.rules import BETS, BaccaratRules


def settle(rules: BaccaratRules, values: np.ndarray, scale: int) -> dict:
    """Per-round net of a 1-unit bet on each of BANKER, PLAYER and TIE (integers over `scale`)."""
    player, banker = np.empty(len(values), dtype=np.int64), np.empty(len(values), dtype=np.int64)
    for i, row in enumerate(values.tolist()):
        player[i], banker[i], _ = play_round(row, rules)
    outcome = np.where(banker > player, 0, np.where(player > banker, 1, 2))
    names = ("banker wins", "player wins", "tie")
    return {bet: integer_array([int((returns[name] - 1) * scale) for name in names])[outcome]
            for bet, returns in bet_returns(rules).items()}


def simulate(rules: BaccaratRules, rounds: int, seed: int, progress=None) -> dict:
    """Tallies of each bet's net per unit over `rounds` rounds from shuffled full shoes."""
    rng = np.random.Generator(np.random.PCG64(seed))
    scale = math.lcm(*(r.denominator for returns in bet_returns(rules).values() for r in returns.values()))
    tallies = {bet: Tally(scale) for bet in BETS}
    bar = progress(total=rounds, desc="monte carlo: baccarat", unit="round") if progress else None
    for size in batches(rounds):
        values = deal_values(rng, size, rules.full_shoe(), 6)
        for bet, nets in settle(rules, values, scale).items():
            tallies[bet].add(nets)
        bar and bar.update(size)
    bar and bar.close()
    return tallies


def check(report, rules: BaccaratRules, summary: dict, strategy, samples: int, rounds: int, seed: int,
          progress=None) -> dict:
    """Add the game's checks to `report`; returns the Monte Carlo tallies and their exact values."""
    answer = strategy.decide(rules.full_shoe())
    stored = {bet: parse_fraction_str(summary["bets"][bet]["ev_per_unit"]["exact"]) for bet in BETS}
    report.add("totals from strategy file", answer.ev == stored,
               "EV of each bet on the full shoe, from the strategy file's rules and reference shoes")
    main = MainOutcomes.from_counts(count_outcomes_python(rules.full_shoe(), rules))
    replayed = {bet: rtp_of(lines) - 1 for bet, lines in bet_lines(main, rules).items()}
    report.add("spot re-enumeration", replayed == stored,
               f"full shoe re-walked in plain Python integers: {main.total:,} ordered sequences")
    if not rounds:
        return {}
    tallies = simulate(rules, rounds, seed, progress)
    return {bet: (tally, stored[bet]) for bet, tally in tallies.items()}
