"""Casino Hold'em verification: random situations dealt out directly, and a Monte Carlo of whole rounds,
played with the stored strategy and settled by the rule file, never by the enumeration's arithmetic."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from analyzer.figures.distribution import summary_distribution
from analyzer.core.exact import integer_array, parse_fraction_str
from analyzer.figures.sampling import Target
from analyzer.games.casino_holdem.analysis import play_statistics
from analyzer.games.casino_holdem.count import SituationTable
from analyzer.games.casino_holdem.price import aa_bonus_hands, table_aa_bonus_hands
from analyzer.games.casino_holdem.rules import AA_HANDS, HoldemRules
from analyzer.poker.checks import (check_decision_table, report_statistics, settle_main,
                                   simulate as poker_simulate, spot_check, strategy_masks)
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from cython_ext import handeval, holdem_enum


def settle(rules: HoldemRules, cards: np.ndarray, call: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-round net of ANTE + CALL (per ANTE) and of a 1-unit AA Bonus, as integers over `scale`; cards: hole
    (2), flop (3), turn and river (2), dealer hole (2) per round."""
    board = cards[:, 2:7]
    player = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, :2], board])))
    dealer = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, 7:9], board])))
    main = settle_main(rules.paytable, rules.qualifier_value, player, dealer, call, scale)
    aa_nets = integer_array([int((rules.aa_return(name) - 1) * scale) for name in AA_HANDS])
    aa = np.where(call, aa_nets[aa_bonus_hands(cards[:, :5])], -scale)     # lost on a fold
    return main, aa


def simulate(strategy, rules: HoldemRules, rounds: int, seed: int, progress=None) -> dict:
    """Play the stored strategy; tallies of the main game (per ANTE) and the AA Bonus (per unit)."""
    scale = math.lcm(rules.paytable.net_matrix()[1], *(rules.aa_return(name).denominator for name in AA_HANDS))
    return poker_simulate(strategy, rules.cards, rounds, seed, 9, 5, lambda cards, call, s: settle(rules, cards, call, s),
                          scale, ("ante_and_call", "aa_bonus"), "casino hold'em", progress)


def direct_ev(rules: HoldemRules, hole, flop) -> Fraction:
    """The EV of calling one raw situation, every continuation dealt and evaluated directly."""
    counts = holdem_enum.deal_one_situation(np.array(hole, dtype=np.uint8), np.array(flop, dtype=np.uint8),
                                            rules.deck_mask, handeval.dense_at_least(rules.qualifier_value))
    paytable = rules.paytable
    return sum((int(counts[c, o]) * paytable.net(c, o) for c in range(N_CATEGORIES) for o in range(N_OUTCOMES)),
               Fraction(0)) / int(counts.sum())


def check(report, rules: HoldemRules, summary: dict, strategy, samples: int, rounds: int, seed: int,
          progress=None) -> dict:
    """Add the game's checks to `report`; returns the Monte Carlo tallies and their exact values."""
    stored = summary["strategies"]["optimal"]
    check_decision_table(report, strategy, summary, "probability_of_calling", "always_call")
    spot_check(report, strategy, rules.cards, (2, 3), lambda hole, flop: direct_ev(rules, hole, flop), samples, seed,
               f"{rules.continuations:,} continuations")
    if not rounds:
        return {}
    tallies = simulate(strategy, rules, rounds, seed, progress)
    exact = {"ante_and_call": parse_fraction_str(stored["ev_per_ante"]["exact"]),
             "aa_bonus": parse_fraction_str(stored["aa_bonus_rtp"]["exact"]) - 1}
    statistics = summary["round_statistics"]["strategies"]["optimal"]
    wager = {"ante_and_call": statistics["main"], "aa_bonus": statistics["aa_bonus"]}
    return {bet: Target(tally, exact[bet], parse_fraction_str(wager[bet]["variance"]["exact"]),
                        summary_distribution(wager[bet])) for bet, tally in tallies.items()}


def check_statistics(report, rules: HoldemRules, summary: dict, folder, table: SituationTable, strategies=None) -> None:
    """The round statistics of the strategy files' decisions (`strategies`: as the advisor loaded them),
    every deal of `table` settled by the rule file, against summary.json exactly."""
    stored = summary["round_statistics"]
    ratio = parse_fraction_str(stored["aa_bonus_stake_per_ante"]["exact"])
    masks = strategy_masks(report, folder, table.keys, strategies)
    if masks is None:
        return
    aa_hand = table_aa_bonus_hands(table)
    pairs = []
    for name, call in masks.items():
        stats = play_statistics(table, rules, aa_hand, call, ratio, table.derived)
        entry = stored["strategies"].get(name, {})
        for key, wager in (("main", stats.main), ("aa_bonus", stats.side), ("combined", stats.combined)):
            pairs.append((f"{name} {key}", wager.as_summary(context=False), entry.get(key)))
        covariance = {"exact": f"{stats.covariance.numerator}/{stats.covariance.denominator}"}
        if entry.get("covariance_main_aa_bonus", {}).get("exact") != covariance["exact"]:
            pairs.append((f"{name} covariance", covariance, entry.get("covariance_main_aa_bonus")))
    report_statistics(report, masks, pairs)
