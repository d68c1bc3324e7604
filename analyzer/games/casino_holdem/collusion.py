"""Casino Hold'em colluders: N seats pool their hole cards before calling or folding at the flop (an estimate).

A deal is N hole pairs and the flop; the colluders' EVs count every turn and river and
every dealer hole pair from the cards no seat holds (`cython_ext.collusion`), and
`analyzer.poker.collusion` samples the deals and estimates what the pooling is worth over
honest play, whose decisions and exact EV come from the honest analysis (`Priced`).  The
main game only (ANTE and CALL): the AA Bonus is settled on a seat's own five cards.
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.execution import default_jobs
from analyzer.games.casino_holdem.price import Priced
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.poker import collusion
from analyzer.poker.decision_table import play_ev_numerators
from cython_ext import collusion as kernel
from cython_ext import handeval

HOLE, FLOP, DEALT_AFTER = 2, 3, 4          # the turn, the river and the dealer's hole pair come after
MAX_COLLUDERS = 6


def denominator(rules: HoldemRules, colluders: int) -> int:
    """The denominator of every pooled EV: the turn/river and dealer pairs x the paytable's scale."""
    left = len(rules.cards) - HOLE * colluders - FLOP
    return math.comb(left, 2) * math.comb(left - 2, 2) * rules.paytable.net_matrix()[1]


def pooled_evs(rules: HoldemRules, dealt: np.ndarray, colluders: int, threads: int | None = None) -> np.ndarray:
    """(n, colluders) exact EVs of calling per ANTE, numerators over `denominator`: each seat's, given every
    seat's hole cards (dealt: rows of the seats' hole cards, then the flop)."""
    nets, _ = rules.paytable.net_matrix()
    counts = kernel.holdem_outcomes(rules.cards, dealt, colluders, handeval.dense_at_least(rules.qualifier_value),
                                    threads or default_jobs())
    return play_ev_numerators(counts.reshape(-1, *counts.shape[2:]), nets).reshape(len(dealt), colluders)


def estimate(priced: Priced, colluders: int, deals: int, seed: int, threads: int | None = None,
             progress=None) -> collusion.CollusionFigures:
    """The figures of `colluders` pooling seats (1 .. 6; 1 is honest play) over `deals` deals drawn by
    PCG64(seed), under the priced rules; the kernel runs on `threads` (default: every core), which
    changes no figure.  Raises InputError for a number of colluders out of range or that the deck
    cannot deal."""
    rules = priced.rules
    if not 1 <= colluders <= MAX_COLLUDERS or len(rules.cards) < HOLE * colluders + FLOP + DEALT_AFTER:
        raise InputError(f"colluders: {colluders} Casino Hold'em seats cannot pool at one table of this deck "
                         f"(1 to {min(MAX_COLLUDERS, (len(rules.cards) - FLOP - DEALT_AFTER) // HOLE)} seats of "
                         f"{HOLE} cards, the flop, and the turn, river and dealer's {HOLE} after them)")
    honest = collusion.HonestPlays.of(priced.table.keys, priced.optimal_call()[0], (HOLE, FLOP))
    over = denominator(rules, colluders)
    return collusion.estimate(rules.cards, colluders, lambda dealt: pooled_evs(rules, dealt, colluders, threads),
                              over, int(rules.paytable.largest_net * over), honest,
                              priced.decisions.figures("optimal", "", priced.optimal_call()[0]).ev, deals, seed,
                              progress)
