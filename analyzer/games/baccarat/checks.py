"""Baccarat verification: the strategy file's answer for the full shoe, the plain walk, and a Monte Carlo that
plays shuffled shoes through the rule file's tableau (`BaccaratRules.play_round`) and settles by `bet_returns`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from analyzer.figures.distribution import compare_summaries, summary_distribution, WagerStatistics
from analyzer.core.exact import decimal_str, figure, integer_array, parse_fraction_str
from analyzer.figures.sampling import draw_positions, tally_rounds, values_at, Tally, Target
from analyzer.games.baccarat.analysis import pair_name, pair_statistics, PAIRS
from analyzer.games.baccarat.count import count_outcomes, count_outcomes_python
from analyzer.games.baccarat.price import (OUTCOMES, MainOutcomes, banker_win_return, bet_lines, bet_outcomes,
                                           bet_returns, commission_stakes, rtp_of)
from analyzer.games.baccarat.rules import BETS, N_VALUES, BaccaratRules


def final_totals(rules: BaccaratRules) -> np.ndarray:
    """[hand (player, banker), player's two-card total, banker's, 5th card, 6th card] -> that hand's final
    total, as `rules.play_round` plays a round with those totals and cards."""
    final = np.zeros((2,) + (N_VALUES,) * 4, dtype=np.int64)
    for player, banker, fifth, sixth in itertools.product(range(N_VALUES), repeat=4):
        final[:, player, banker, fifth, sixth] = rules.play_round((player, banker, 0, 0, fifth, sixth))[:2]
    return final


def play_rounds(values: np.ndarray, final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(player, banker) final totals of each round dealt from a row of (at least) six card values, looked up
    in `final_totals`."""
    values = np.asarray(values, dtype=np.int64)
    at = ((values[:, 0] + values[:, 2]) % 10, (values[:, 1] + values[:, 3]) % 10, values[:, 4], values[:, 5])
    return final[0][at], final[1][at]


def settle(rules: BaccaratRules, final: np.ndarray, values: np.ndarray, scale: int) -> dict:
    """Per-round net of a 1-unit bet on each of BANKER, PLAYER and TIE (integers over `scale`)."""
    player, banker = play_rounds(values, final)
    outcome = np.where(banker > player, 0, np.where(player > banker, 1, 2))      # the index in OUTCOMES
    return {bet: integer_array([int((returns[name] - 1) * scale) for name in OUTCOMES])[outcome]
            for bet, returns in bet_returns(rules).items()}


def simulate(rules: BaccaratRules, rounds: int, seed: int, progress=None) -> dict:
    """Tallies of each bet's net per unit over `rounds` rounds from shuffled full shoes."""
    rng = np.random.Generator(np.random.PCG64(seed))
    scale = math.lcm(*(r.denominator for returns in bet_returns(rules).values() for r in returns.values()))
    tallies = {bet: Tally(scale) for bet in BETS}
    bar = progress(total=rounds, desc="monte carlo: baccarat", unit="round") if progress else None
    shoe, final = rules.full_shoe(), final_totals(rules)
    tally_rounds(lambda size: draw_positions(rng, size, shoe, 6),
                 lambda positions: settle(rules, final, values_at(positions, shoe), scale), rounds, tallies, bar)
    bar and bar.close()
    return tallies


def check(report, rules: BaccaratRules, summary: dict, strategy, samples: int, rounds: int, seed: int,
          progress=None) -> dict:
    """Add the game's checks to `report`; returns the Monte Carlo tallies and their exact values."""
    answer = strategy.decide(rules.full_shoe())
    stored = {bet: parse_fraction_str(summary["bets"][bet]["ev_per_unit"]["exact"]) for bet in BETS}
    header = strategy.answers          # its reference shoes' counts must be what its header's rules count
    recounted = all(MainOutcomes.from_counts(count_outcomes(shoe, header.rules)) == main
                    for shoe, main in header.reference.items())
    report.add("totals from strategy file", answer.ev == stored and recounted,
               "EV of each bet on the full shoe, from the strategy file's rules and reference shoes")
    main = MainOutcomes.from_counts(count_outcomes_python(rules.full_shoe(), rules))
    replayed = {bet: rtp_of(lines) - 1 for bet, lines in bet_lines(main, rules).items()}
    report.add("spot re-enumeration", replayed == stored,
               f"full shoe re-walked in plain Python integers: {main.total:,} ordered sequences")
    if not rounds:
        return {}
    tallies = simulate(rules, rounds, seed, progress)
    statistics = summary["round_statistics"]["bets"]
    return {bet: Target(tally, stored[bet], parse_fraction_str(statistics[bet]["variance"]["exact"]),
                        summary_distribution(statistics[bet])) for bet, tally in tallies.items()}


def check_statistics(report, rules: BaccaratRules, summary: dict, folder, shoe_counts: list, strategies=None) -> None:
    """Every bet's round statistics, re-derived from the full shoe's counts settled by the rule file,
    against summary.json: each bet, the pairs of one round, BANKER at every stake (Baccarat has no
    decisions: `strategies` are not needed)."""
    stored = summary["round_statistics"]
    main = MainOutcomes.from_counts(shoe_counts[0])
    joint = bet_outcomes(main, rules)
    pairs = [(bet, WagerStatistics.from_outcomes(joint, bet, None).as_summary(context=False), stored["bets"].get(bet))
             for bet in BETS]
    pairs += [(pair_name(pair), pair_statistics(joint, pair).as_summary(context=False), stored["combined"].get(pair_name(pair)))
              for pair in PAIRS]
    pairs.append(("covariance", {pair_name(pair): figure(joint.covariance(*pair)) for pair in PAIRS},
                  stored["covariance"]))
    for stake in commission_stakes(rules):
        banker = bet_outcomes(main, rules, banker_win_return(rules, stake))
        key = decimal_str(stake, 2)
        pairs.append((f"banker at {key}", WagerStatistics.from_outcomes(banker, "banker", None).as_summary(context=False, detail=False),
                      stored["banker_by_stake"].get(key)))
    passed, detail = compare_summaries(pairs)
    report.add("round statistics re-derived", passed, f"from the full shoe's counts: {detail}")
