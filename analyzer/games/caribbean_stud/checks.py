"""Caribbean Stud verification: random situations dealt out directly, and a Monte Carlo of whole rounds,
played with the stored strategy and settled by the rule file, never by the count's card-removal arithmetic
(the Monte Carlo covers the progressive's fixed payouts; its jackpot share rests on the exact hand counts)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from analyzer.figures.distribution import summary_distribution
from analyzer.core.exact import decimal_str, figure, integer_array, parse_fraction_str
from analyzer.figures.sampling import Target
from analyzer.games.caribbean_stud.analysis import combined, play_statistics, progressive_alone
from analyzer.games.caribbean_stud.count import SituationCounts, hand_category_counts
from analyzer.games.caribbean_stud.progressive import progressive_moments, rtp_at
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.poker.checks import (check_decision_table, report_statistics, settle_main,
                                   simulate as poker_simulate, spot_check, strategy_masks)
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.settlement import N_CATEGORIES
from cython_ext import handeval, stud_enum


def progressive_fixed_nets(rules: StudRules) -> list[Fraction]:
    """Net result per unit staked on the progressive by category, the jackpot share left out (J = 0)."""
    return [rules.progressive.net(c, 0) for c in range(N_CATEGORIES)]


def settle(rules: StudRules, cards: np.ndarray, raise_: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-round net of ANTE + raise (per ANTE) and of the progressive with no jackpot share (per stake), as
    integers over `scale`; cards: the player's five, then the dealer's five (the up card first)."""
    player = handeval.evaluate_many(np.ascontiguousarray(cards[:, :5]))
    dealer = handeval.evaluate_many(np.ascontiguousarray(cards[:, 5:10]))
    main = settle_main(rules.paytable, rules.qualifier_value, player, dealer, raise_, scale)
    side = integer_array([int(x * scale) for x in progressive_fixed_nets(rules)])[handeval.categories(player)]
    return main, side


def simulate(strategy, rules: StudRules, rounds: int, seed: int, progress=None) -> dict:
    """Play the stored strategy; tallies of ANTE + raise and of the progressive's fixed payouts."""
    scale = math.lcm(rules.paytable.net_matrix()[1], *(x.denominator for x in progressive_fixed_nets(rules)))
    return poker_simulate(strategy, rules.cards, rounds, seed, 10, 6, lambda cards, play, s: settle(rules, cards, play, s),
                          scale, ("ante_and_raise", "progressive_fixed_payouts"), "caribbean stud", progress)


def direct_ev(rules: StudRules, hand, up: int) -> Fraction:
    """The EV of raising one raw situation, every dealer completion dealt and evaluated directly."""
    counts = stud_enum.brute_force_situation(np.array(rules.cards, dtype=np.uint8), hand, up, rules.qualifier_rank)
    category = handeval.category(handeval.evaluate(hand))
    return sum((n * rules.paytable.net(category, o) for o, n in enumerate(counts)), Fraction(0)) / sum(counts)


def check(report, rules: StudRules, summary: dict, strategy, samples: int, rounds: int, seed: int,
          progress=None) -> dict:
    """Add the game's checks to `report`; returns the Monte Carlo tallies and their exact values."""
    stored = summary["strategies"]["optimal"]
    check_decision_table(report, strategy, summary, "probability_of_raising", "raise_everything")
    spot_check(report, strategy, rules.cards, (5, 1), lambda hand, up: direct_ev(rules, hand, up[0]), samples, seed,
               "every dealer completion")
    if not rounds:
        return {}
    tallies = simulate(strategy, rules, rounds, seed, progress)
    exact = {"ante_and_raise": parse_fraction_str(stored["ev_per_ante"]["exact"]),
             "progressive_fixed_payouts": rtp_at(summary["progressive"]["rtp_as_function_of_jackpot"], 0) - 1}
    statistics = summary["round_statistics"]
    main = statistics["strategies"]["optimal"]["main"]
    hands = {CATEGORIES.index(name): int(n) for name, n in summary["progressive"]["hands"].items()}
    total = sum(hands.values())
    fixed = progressive_fixed_nets(rules)
    variance = {"ante_and_raise": parse_fraction_str(main["variance"]["exact"]),
                "progressive_fixed_payouts": rtp_at(statistics["progressive"]["variance_as_function_of_jackpot"], 0)}
    distribution = {"ante_and_raise": summary_distribution(main),
                    "progressive_fixed_payouts": [(fixed[c], Fraction(n, total)) for c, n in sorted(hands.items())]}
    return {bet: Target(tally, exact[bet], variance[bet], distribution[bet]) for bet, tally in tallies.items()}


def check_statistics(report, rules: StudRules, summary: dict, folder, table: SituationCounts, strategies=None) -> None:
    """The round statistics of the strategy files' decisions (`strategies`: as the advisor loaded them),
    every deal of `table` settled by the rule file (ANTE + raise, the progressive at each jackpot, both
    together), against summary.json exactly."""
    stored = summary["round_statistics"]
    ratio = parse_fraction_str(stored["combined"]["progressive_stake_per_ante"]["exact"])
    masks = strategy_masks(report, folder, table.keys, strategies)
    if masks is None:
        return
    counts = hand_category_counts(table)
    moments = progressive_moments(rules.progressive, counts)
    pairs = [(f"progressive at {decimal_str(level, 2)}", progressive_alone(rules.progressive, counts, level).as_summary(context=False),
              stored["progressive"]["at_jackpot"].get(decimal_str(level, 2))) for level in rules.progressive.levels]
    for name, raise_ in masks.items():
        stats = play_statistics(table, rules, raise_, table.derived)
        pairs.append((f"{name} ANTE + raise", stats.main.as_summary(context=False),
                      stored["strategies"].get(name, {}).get("main")))
        stored_combined = stored["combined"]["strategies"].get(name, {})
        levels = stored_combined.get("at_jackpot", {})
        both_at = combined(rules.progressive, moments, stats, ratio)
        functions = {f"{key}_as_function_of_jackpot": getattr(both_at.functions, key)
                     for key in ("covariance", "mean", "variance", "rtp")}
        pairs.append((f"{name} functions of J", functions, {key: stored_combined.get(key) for key in functions}))
        for level, both in both_at.at_levels:
            entry = levels.get(decimal_str(level, 2))
            derived = both.combined.as_summary(context=False, detail=entry is None or "net_distribution" in entry)
            derived["covariance_main_progressive"] = figure(both.covariance)
            pairs.append((f"{name} combined at {decimal_str(level, 2)}", derived, entry))
    report_statistics(report, masks, pairs)

