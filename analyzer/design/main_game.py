"""A poker game's main-game payout as a design problem: each class plays max(fold, a + b theta).

Every net of the paytable is linear in any one payout theta, so each class's EV of playing
is a_i + b_i theta over one denominator: priced once at theta = 0 and once at theta = 1
(integer payouts keep the paytable's scale, hence the denominator, unchanged).
"""
from __future__ import annotations

import numpy as np

from analyzer.core.errors import InputError
from analyzer.design.piecewise import PayoutModel, Problem


def main_game_problem(key: str, wager: str, current, decisions_at) -> Problem:
    """decisions_at(theta) -> the DecisionTable priced with the payout at theta (0 and 1 are asked)."""
    at0, at1 = decisions_at(0), decisions_at(1)
    if at0.denominator != at1.denominator:
        raise InputError(f"{key}: the paytable's scale changes with the payout; give the other payouts in "
                         "lowest common terms")
    if at0.ev_play.dtype == object or at1.ev_play.dtype == object:
        const, slope = at0.ev_play.astype(object), at1.ev_play.astype(object) - at0.ev_play.astype(object)
    else:
        const, slope = at0.ev_play, at1.ev_play - at0.ev_play
    model = PayoutModel(at0.weights, np.full(len(at0), at0.fold_numerator, dtype=np.int64), const, slope,
                        at0.denominator, wager=at0.play_size, python_ints=const.dtype == object)
    return Problem(key, wager, current, model, optimal=True)
