"""Verification shared by the poker games: a strategy file's decisions and totals, from its own rows."""
from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.exact import CHUNK, INT64_MAX, abs_bound, decimal_str, fraction_str, integer_array, parse_fraction_str
from analyzer.core.execution import default_jobs
from analyzer.figures.distribution import compare_summaries
from analyzer.figures.sampling import Tally, tally_rounds
from analyzer.poker.settlement import outcomes
from analyzer.poker.strategy_file import EITHER, PLAY, played_masks
from cython_ext import group_sums, handeval
from cython_ext.shuffle import first_cards

DEAL_ROWS = 8_192            # rounds shuffled at a time by `deal` (their sort keys: 3.4 MB on 52 cards)


def check_decision_table(report, strategy, summary: dict, p_play_key: str, always_play: str) -> None:
    """Every decision against its EVs, and the summary's figures recomputed from the file's rows (the
    `always_play` strategy's EV weighs every stored EV, so no single value can change unseen)."""
    totals = decision_totals(strategy.weights, strategy.ev_play, strategy.ev_fold, strategy.decisions)
    flipped, total = totals["flipped"], totals["weight"]
    report.add("decisions match EVs", flipped == 0,
               "every decision is the better action" if not flipped else f"{flipped} decisions contradict their EVs")
    ev = Fraction(totals["best"], total * strategy.denominator)
    ev_always = Fraction(totals["play"], total * strategy.denominator)
    p_play = Fraction(totals["played_weight"], total)
    strategies = summary["strategies"]
    action = strategy.actions[1]
    report.add("totals from strategy file",
               ev == parse_fraction_str(strategies["optimal"]["ev_per_ante"]["exact"])
               and p_play == parse_fraction_str(strategies["optimal"][p_play_key]["exact"])
               and total == int(summary["enumeration"]["situations"])
               and ev_always == parse_fraction_str(strategies[always_play]["ev_per_ante"]["exact"]),
               f"optimal EV per ANTE {fraction_str(ev)}, P({action}) {decimal_str(p_play, 8)}, always-{action} EV "
               f"{fraction_str(ev_always)}, over {total:,} situations")


TOTALS = ("weight", "best", "play", "played_weight", "flipped")


def decision_totals(weights: np.ndarray, play: np.ndarray, fold: int, decisions: np.ndarray) -> dict:
    """The exact totals of a decision table's rows: "weight", "best" (weight x the better EV), "play"
    (weight x play EV), "played_weight" (where playing is strictly better) and "flipped" (rows whose code
    is not the one their EVs give).  int64 when max weight x max |EV| x rows fits (the compiled pass for
    the files' column types), else Python integers."""
    bound = abs_bound(weights) * max(abs_bound(play), abs(fold)) * len(play)
    fits = bound <= INT64_MAX and play.dtype != object and weights.dtype != object
    if fits and play.dtype == np.int64 and weights.dtype in (np.uint8, np.int64) and decisions.dtype == np.uint8:
        return dict(zip(TOTALS, group_sums.decision_sums(weights, play, fold, decisions)))
    return chunked_decision_totals(weights, play, fold, decisions, np.int64 if fits else object)


def chunked_decision_totals(weights: np.ndarray, play: np.ndarray, fold: int, decisions: np.ndarray, dtype) -> dict:
    """`decision_totals` in NumPy a chunk of rows at a time, summed in `dtype` (int64 or object)."""
    totals = dict.fromkeys(TOTALS, 0)
    for start in range(0, len(play), CHUNK):
        rows = slice(start, start + CHUNK)
        w, p = weights[rows].astype(dtype), play[rows].astype(dtype, copy=False)
        plays = p > fold
        expected = plays.astype(np.uint8)
        expected[p == fold] = EITHER
        totals["flipped"] += int(np.count_nonzero(decisions[rows] != expected))
        totals["weight"] += int(w.sum())
        totals["play"] += int(w @ p)
        totals["best"] += int(w @ np.maximum(p, fold))
        totals["played_weight"] += int(w[plays].sum())
    return totals


def settle_main(paytable, qualifier, player: np.ndarray, dealer: np.ndarray, play: np.ndarray,
                scale: int) -> np.ndarray:
    """Per-round net of ANTE + play (per ANTE, integers over `scale`) of hands of these values; -scale on a fold."""
    nets, net_scale = paytable.net_matrix()
    nets = integer_array(nets * (scale // net_scale))       # int64 unless a payout needs more
    return np.where(play, nets[handeval.categories(player), outcomes(player, dealer, qualifier)], -scale)


def strategy_masks(report, folder, keys: np.ndarray, strategies) -> dict | None:
    """The play masks of the folder's strategy files (`played_masks`), or None with the round statistics'
    check failed when their keys are not the counted classes."""
    try:
        return played_masks(folder, keys, strategies)
    except InputError as error:
        report.add("round statistics re-derived", False, str(error))
        return None


def report_statistics(report, masks: dict, pairs: list) -> None:
    """The round statistics' check: every (name, derived, stored) figure of `pairs` equal."""
    passed, detail = compare_summaries(pairs)
    report.add("round statistics re-derived", passed and bool(masks),
               f"from {', '.join(masks) or 'no'} strategy file decisions and every counted deal: {detail}")


def spot_check(report, strategy, cards, group_sizes: tuple, direct_ev, samples: int, seed: int, dealt_over: str) -> None:
    """`samples` seeded random situations: the EV of playing each, by direct_ev(*card groups) dealing every
    continuation, must equal the strategy file's."""
    rng = random.Random(seed)
    action = strategy.actions[1]
    ends = list(itertools.pairwise(itertools.accumulate(group_sizes, initial=0)))
    deals = []
    for _ in range(samples):
        dealt = rng.sample(cards, sum(group_sizes))
        deals.append((dealt, [dealt[a:b] for a, b in ends]))
    # The direct dealing runs in compiled code without the GIL: the situations share the cores.
    with ThreadPoolExecutor(default_jobs()) as pool:
        direct = list(pool.map(lambda deal: direct_ev(*deal[1]), deals))
    mismatches = [dealt for (dealt, groups), ev in zip(deals, direct)
                  if ev != strategy.decide_cards(groups).ev[action]]
    report.add("spot re-enumeration", not mismatches,
               f"{samples} random situations (seed {seed}), each dealt out over {dealt_over}"
               + ("" if not mismatches else f"; {len(mismatches)} differ, e.g. cards {mismatches[0]}"))


def deal(rng: np.random.Generator, rounds: int, cards: tuple, k: int) -> np.ndarray:
    """(rounds, k) cards: the top k cards of a uniformly shuffled deck, in dealing order (the k smallest of
    a random key per card, by `cython_ext.shuffle.first_cards`), DEAL_ROWS rounds at a time."""
    deck = np.array(cards, dtype=np.uint8)
    dealt = np.empty((rounds, k), dtype=np.uint8)
    for start in range(0, rounds, DEAL_ROWS):
        keys = rng.random((min(DEAL_ROWS, rounds - start), len(deck)))
        first_cards(keys, deck, dealt[start:start + len(keys)])
    return dealt


def simulate(strategy, cards, rounds: int, seed: int, dealt: int, seen: int, settle, scale: int, bets: tuple,
             label: str, progress=None) -> dict:
    """A seeded Monte Carlo of whole rounds played with the stored strategy: {bet: Tally}.  Each round deals
    `dealt` cards, the strategy decides on the first `seen`, and settle(cards, play, scale) gives one
    array of integer nets over `scale` per bet of `bets`."""
    rng = np.random.Generator(np.random.PCG64(seed))
    tallies = {bet: Tally(scale) for bet in bets}
    bar = progress(total=rounds, desc=f"monte carlo: {label}", unit="round") if progress else None

    def played(round_cards):
        play = strategy.decide_many(np.ascontiguousarray(round_cards[:, :seen]))["decision"] == PLAY
        return dict(zip(bets, settle(round_cards, play, scale)))

    tally_rounds(lambda size: deal(rng, size, cards, dealt), played, rounds, tallies, bar)
    bar and bar.close()
    return tallies
