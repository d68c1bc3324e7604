"""Caribbean Stud colluders: N seats pool their five-card hands before raising or folding (an estimate).

A deal is N hands and the dealer's up card; the colluders' EVs count every 4-card
completion of the dealer's hand from the cards no seat holds (`cython_ext.collusion`),
and `analyzer.poker.collusion` samples the deals and estimates what the pooling is worth
over honest play, whose decisions and exact EV come from the honest analysis (`Priced`).
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.execution import default_jobs
from analyzer.games.caribbean_stud.price import Priced
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.poker import collusion
from analyzer.poker.decision_table import play_ev_numerators
from cython_ext import collusion as kernel

HAND, DEALER_HOLE = 5, 4
MAX_COLLUDERS = 7                # a full Caribbean Stud table


def denominator(rules: StudRules, colluders: int) -> int:
    """The denominator of every pooled EV: the dealer's completions x the paytable's scale."""
    return math.comb(len(rules.cards) - HAND * colluders - 1, DEALER_HOLE) * rules.paytable.net_matrix()[1]


def pooled_evs(rules: StudRules, dealt: np.ndarray, colluders: int, threads: int | None = None) -> np.ndarray:
    """(n, colluders) exact EVs of raising per ANTE, numerators over `denominator`: each seat's, given every
    seat's hand (dealt: rows of the seats' hands, then the up card)."""
    nets, _ = rules.paytable.net_matrix()
    counts, categories = kernel.stud_outcomes(rules.cards, dealt, colluders, rules.qualifier_rank,
                                              threads or default_jobs())
    return play_ev_numerators(counts.reshape(-1, 4), nets, categories.reshape(-1)).reshape(len(dealt), colluders)


def estimate(priced: Priced, colluders: int, deals: int, seed: int, threads: int | None = None,
             progress=None) -> collusion.CollusionFigures:
    """The figures of `colluders` pooling seats (1 .. 7; 1 is honest play) over `deals` deals drawn by
    PCG64(seed), under the priced rules; the kernel runs on `threads` (default: every core), which
    changes no figure.  Raises InputError for a number of colluders out of range or that the deck
    cannot deal."""
    rules = priced.rules
    if not 1 <= colluders <= MAX_COLLUDERS or len(rules.cards) < HAND * colluders + 1 + DEALER_HOLE:
        raise InputError(f"colluders: {colluders} Caribbean Stud seats cannot pool at one table of this deck "
                         f"(1 to {min(MAX_COLLUDERS, (len(rules.cards) - DEALER_HOLE - 1) // HAND)} seats of "
                         f"{HAND} cards, the dealer's up card and {DEALER_HOLE} to complete his hand)")
    honest = collusion.HonestPlays.of(priced.table.keys, priced.optimal()[0], (HAND, 1))
    over = denominator(rules, colluders)
    return collusion.estimate(rules.cards, colluders, lambda dealt: pooled_evs(rules, dealt, colluders, threads),
                              over, int(rules.paytable.largest_net * over), honest,
                              priced.optimal_figures("optimal", "").ev, deals, seed, progress)
