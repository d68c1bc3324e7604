"""One payout of a game as a design problem: every net is linear in one payout theta, so a game priced at
theta = 0 and theta = 1 gives each class's exact play value a_i + b_i theta.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.exact import INT64_MAX, exact_terms
from analyzer.design.piecewise import PayoutModel


@dataclass(frozen=True)
class Problem:
    """One payout to vary (a dotted rule-file key), stated before counting; `model_of(count)` builds its model."""

    key: str                       # e.g. "ante_pays.flush"
    wager: str                     # whose RTP and house edge these are, e.g. "ANTE + CALL (main game)"
    current: Fraction              # the rule file's value
    optimal: bool                  # True: every class plays optimally at each theta; False: a fixed strategy
    model_of: Callable             # the game's count -> PayoutModel
    allowed: tuple = (Fraction(0), None)   # the least and most the rule schema allows (None: no most)
    jackpot: Fraction | None = None        # the jackpot a progressive amount's RTP is taken at


def linear_problem(key: str, wager: str, current, ev_of, **more) -> Problem:
    """A wager whose EV per unit staked is linear in theta under a fixed strategy: one class, played
    (ev_of(count): theta -> the exact EV per unit, asked at 0 and 1)."""
    def model_of(count) -> PayoutModel:
        ev_at = ev_of(count)
        ev0, ev1 = Fraction(ev_at(0)), Fraction(ev_at(1))
        denominator = math.lcm(ev0.denominator, ev1.denominator)
        return PayoutModel([1], [0], [int(ev0 * denominator)], [int((ev1 - ev0) * denominator)], denominator,
                           fixed="play")
    return Problem(key, wager, Fraction(current), False, model_of, **more)


def main_game_problem(key: str, wager: str, current, decisions_at, **more) -> Problem:
    """A poker main-game payout under optimal play: decisions_at(count, theta) is the DecisionTable priced
    with the payout at theta (asked at 0 and 1); each class plays max(fold, a + b theta)."""
    def model_of(count) -> PayoutModel:
        at0, at1 = decisions_at(count, 0), decisions_at(count, 1)
        if at0.denominator != at1.denominator:
            raise InputError(f"{key}: the paytable's scale changes with the payout; give the other payouts in "
                             "lowest common terms")
        fold = at0.fold_numerator
        return PayoutModel(at0.weights, np.full(len(at0), fold, dtype=np.int64 if abs(fold) <= INT64_MAX else object),
                           at0.ev_play, exact_terms((at1.ev_play,), (at0.ev_play, -1)), at0.denominator,
                           wager=at0.play_size)
    return Problem(key, wager, Fraction(current), True, model_of, **more)
