"""Casino Hold'em verification: random situations dealt out directly, and a Monte Carlo of whole rounds.

Both play the stored strategy (the advisor's reader, handed in by `analyzer.publish.verify`)
and settle with the game's one settlement (`rules.paytable`, `price.aa_bonus_hands`),
never with the enumeration's arithmetic.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from analyzer.core.exact import integer_array, parse_fraction_str
from analyzer.core.sampling import Tally, batches, deal
from analyzer.games.casino_holdem.price import aa_bonus_hands
from analyzer.games.casino_holdem.rules import AA_HANDS, HoldemRules
from analyzer.poker.checks import check_decision_table, spot_check
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES, outcomes
from cython_ext import handeval, holdem_enum


def settle(rules: HoldemRules, cards: np.ndarray, call: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-round net of ANTE + CALL (per ANTE) and of a 1-unit AA Bonus, as integers over `scale`.

    cards: hole (2), flop (3), turn and river (2), dealer hole (2) per round; `scale` a
    multiple of the paytable's and the AA Bonus's denominators.
    """
    board = cards[:, 2:7]
    player = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, :2], board])))
    dealer = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, 7:9], board])))
    nets, net_scale = rules.paytable.net_matrix()
    nets = integer_array(nets * (scale // net_scale))       # int64 unless a payout needs more
    main = nets[handeval.categories(player), outcomes(player, dealer, rules.qualifier_value)]
    main = np.where(call, main, -scale)
    aa_nets = integer_array([int((rules.aa_return(name) - 1) * scale) for name in AA_HANDS])
    aa = np.where(call, aa_nets[aa_bonus_hands(cards[:, :5])], -scale)     # lost on a fold
    return main, aa


def simulate(strategy, rules: HoldemRules, rounds: int, seed: int, progress=None) -> dict:
    """Play the stored strategy; tallies of the main game (per ANTE) and the AA Bonus (per unit)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    scale = math.lcm(rules.paytable.net_matrix()[1], *(rules.aa_return(name).denominator for name in AA_HANDS))
    tallies = {"ante_and_call": Tally(scale), "aa_bonus": Tally(scale)}
    bar = progress(total=rounds, desc="monte carlo: casino hold'em", unit="round") if progress else None
    for size in batches(rounds):
        cards = deal(rng, size, rules.cards, 9)
        call = strategy.decide_many(cards[:, :5])["decision"] == 1
        main, aa = settle(rules, cards, call, scale)
        tallies["ante_and_call"].add(main)
        tallies["aa_bonus"].add(aa)
        bar and bar.update(size)
    bar and bar.close()
    return tallies


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
    return {bet: (tally, exact[bet]) for bet, tally in tallies.items()}
