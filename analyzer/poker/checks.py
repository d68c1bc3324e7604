"""Verification shared by the poker games: a strategy file's decisions and totals, from its own rows."""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np

from analyzer.core.exact import decimal_str, exact_dot, exact_sum, fraction_str, parse_fraction_str
from analyzer.core.execution import default_jobs
from analyzer.core.sampling import Tally, batches, deal
from analyzer.poker.strategy_file import EITHER, PLAY


def check_decision_table(report, strategy, summary: dict, p_play_key: str, always_play: str) -> None:
    """Every decision against its EVs, and the summary's figures recomputed from the file's rows.

    `report.add(name, passed, detail)` records each check; `p_play_key` names the optimal
    strategy's probability of playing in the summary and `always_play` the strategy that
    plays every hand.  The always-play EV weighs every stored EV, so no single value can
    change unseen.
    """
    weights = strategy.weights                  # the exact sums below widen it as they go
    play, fold = strategy.ev_play, strategy.ev_fold
    plays = play > fold
    expected_codes = np.where(play == fold, EITHER, plays.astype(np.uint8))
    flipped = int((strategy.decisions != expected_codes).sum())
    report.add("decisions match EVs", flipped == 0,
               "every decision is the better action" if not flipped else f"{flipped} decisions contradict their EVs")
    total = exact_sum(weights)
    ev = Fraction(exact_dot(weights, np.maximum(play, fold)), total * strategy.denominator)
    ev_always = Fraction(exact_dot(weights, play), total * strategy.denominator)
    p_play = Fraction(exact_sum(weights[plays]), total)
    strategies = summary["strategies"]
    action = strategy.actions[1]
    report.add("totals from strategy file",
               ev == parse_fraction_str(strategies["optimal"]["ev_per_ante"]["exact"])
               and p_play == parse_fraction_str(strategies["optimal"][p_play_key]["exact"])
               and total == int(summary["enumeration"]["situations"])
               and ev_always == parse_fraction_str(strategies[always_play]["ev_per_ante"]["exact"]),
               f"optimal EV per ANTE {fraction_str(ev)}, P({action}) {decimal_str(p_play, 8)}, always-{action} EV "
               f"{fraction_str(ev_always)}, over {total:,} situations")


def spot_check(report, strategy, cards, group_sizes: tuple, direct_ev, samples: int, seed: int, dealt_over: str) -> None:
    """`samples` seeded random raw situations, each dealt out directly: its EV must equal the strategy file's.

    direct_ev(*groups) is the EV of playing the situation (its card groups), computed by
    dealing every continuation and evaluating each hand directly.
    """
    rng = random.Random(seed)
    action = strategy.actions[1]
    deals = []
    for _ in range(samples):
        dealt = rng.sample(cards, sum(group_sizes))
        groups, start = [], 0
        for size in group_sizes:
            groups.append(dealt[start:start + size])
            start += size
        deals.append((dealt, groups))
    # The direct dealing runs in compiled code without the GIL: the situations share the cores.
    with ThreadPoolExecutor(default_jobs()) as pool:
        direct = list(pool.map(lambda deal: direct_ev(*deal[1]), deals))
    mismatches = [dealt for (dealt, groups), ev in zip(deals, direct)
                  if ev != strategy.decide_cards(groups).ev[action]]
    report.add("spot re-enumeration", not mismatches,
               f"{samples} random situations (seed {seed}), each dealt out over {dealt_over}"
               + ("" if not mismatches else f"; {len(mismatches)} differ, e.g. cards {mismatches[0]}"))


def simulate(strategy, cards, rounds: int, seed: int, dealt: int, seen: int, settle, scale: int, bets: tuple,
             label: str, progress=None) -> dict:
    """A seeded Monte Carlo of whole rounds of a poker game, played with the stored strategy.

    Each round deals the top `dealt` cards of a shuffled deck (`cards`); the strategy file
    decides on the first `seen`; settle(dealt cards, play mask, scale) returns one array of
    nets (integers over `scale`) per bet, in the order of `bets`.  Returns {bet: Tally}.
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    tallies = {bet: Tally(scale) for bet in bets}
    bar = progress(total=rounds, desc=f"monte carlo: {label}", unit="round") if progress else None
    for size in batches(rounds):
        round_cards = deal(rng, size, cards, dealt)
        play = strategy.decide_many(np.ascontiguousarray(round_cards[:, :seen]))["decision"] == PLAY
        for bet, nets in zip(bets, settle(round_cards, play, scale)):
            tallies[bet].add(nets)
        bar and bar.update(size)
    bar and bar.close()
    return tallies
