"""The exact cost of each rule of a basic strategy against optimal play, for any game.

A basic strategy (`analyzer.strategy.language.Strategy`) decides every situation class;
given the exact per-class gain of playing over folding, `rule_costs` says for each rule
(and the default) which situations it decides, where it disagrees with the optimal
decision, the EV it gives up there (these add up exactly to the whole gap) and the change
in EV and RTP when the rule is struck from the list.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.exact import exact_sum, percent_str
from analyzer.core.tables import markdown_table
from analyzer.strategy.language import Strategy


@dataclass(frozen=True)
class RuleCost:
    """What one rule (or the default) of a basic strategy decides, and what it costs against optimal."""

    number: int | None            # 1-based rule number; None for the default
    words: str
    action: str
    situations: int               # raw situations this rule decides (the first rule that holds)
    share: Fraction               # of all situations
    disagreements: int            # raw situations where its action is strictly worse than the other
    ev_lost: Fraction             # EV per ANTE given up against optimal on its situations (>= 0)
    ev_if_struck: Fraction | None       # EV per ANTE of the list without this rule, minus the list's
    rtp_if_struck: Fraction | None      # main RTP (returned / wagered) without it, minus the list's


def rule_costs(strategy: Strategy, values: dict, gain: np.ndarray, weights: np.ndarray, scale: int,
               figures_of) -> list[RuleCost]:
    """Per rule and for the default: exact situations decided, disagreements, EV lost, value of the rule.

    Any game: `values` are the strategy's features per class, `gain` per class is weight x
    (EV of the playing action (actions[1]: call, raise) - EV of folding) as exact integers,
    `scale` turns a sum of gains into EV per ANTE, and `figures_of(play)` returns the
    exact (EV per ANTE, RTP) of a decision array.  The EV lost sums, over the situations a
    rule decides, by how much the better action beats the rule's (0 where they agree or
    tie); the losses of every rule and the default add up to the optimal EV minus the
    strategy's EV exactly.
    """
    n = len(weights)
    held = [np.ones(n, dtype=bool) if h is None else h                         # each rule tested once
            for h in (rule.holds(values, strategy.features) for rule in strategy.rules)]
    which = _first_rule(held, n)
    codes = [strategy.features.actions.index(r.action) for r in strategy.rules] \
        + [strategy.features.actions.index(strategy.default)]
    plays = np.array([code == 1 for code in codes])           # by rule (the default last)
    play = plays[which]
    total = exact_sum(weights)
    base_ev, base_rtp = figures_of(play)
    # A rule's classes all take its action: playing gives up -gain where gain < 0, folding gain where
    # gain > 0 (sums of `gain` itself: no array of losses is made)
    worse = {True: gain < 0, False: gain > 0}
    # each rule's classes, in class order: the rules partition the classes, so every per-rule sum
    # below reads that rule's rows only (all of them together, the table once)
    order = np.argsort(which, kind="stable")
    starts = np.searchsorted(which[order], np.arange(len(codes) + 1))
    out = []
    entries = [(i, r.words(strategy.features), r.action) for i, r in enumerate(strategy.rules)]
    entries.append((len(strategy.rules), strategy.default_words(), strategy.default))
    for index, words, action in entries:
        mine = order[starts[index]:starts[index + 1]]
        ev_if = rtp_if = None
        if index < len(strategy.rules):
            # the list without this rule: only the classes it decides change, to the next rule that holds
            struck = play.copy()
            struck[mine] = plays[index + 1:][_first_rule([h[mine] for h in held[index + 1:]], len(mine))]
            ev, rtp = figures_of(struck)
            ev_if, rtp_if = ev - base_ev, rtp - base_rtp
        decided = exact_sum(weights[mine])
        against = mine[worse[bool(plays[index])][mine]]
        lost = exact_sum(gain[against])
        out.append(RuleCost(
            number=index + 1 if index < len(strategy.rules) else None, words=words, action=action,
            situations=decided, share=Fraction(decided, total), disagreements=exact_sum(weights[against]),
            ev_lost=Fraction(-lost if plays[index] else lost, scale), ev_if_struck=ev_if, rtp_if_struck=rtp_if))
    return out


def _first_rule(held: list, n: int) -> np.ndarray:
    """Per class (n of them), the index of the first rule (of the tests `held`) that holds; len(held) where
    none does."""
    which = np.full(n, len(held), dtype=np.int16)
    for index in range(len(held) - 1, -1, -1):           # later rules first: earlier ones overwrite them
        which[held[index]] = index
    return which


def rule_costs_markdown(costs: list[RuleCost]) -> str:
    rows = []
    for c in costs:
        rows.append([str(c.number) if c.number else "default", c.words, percent_str(c.share, 3),
                     percent_str(Fraction(c.disagreements, c.situations) if c.situations else Fraction(0), 2),
                     percent_str(c.ev_lost, 4),
                     "" if c.ev_if_struck is None else percent_str(c.ev_if_struck, 4),
                     "" if c.rtp_if_struck is None else percent_str(c.rtp_if_struck, 4)])
    rows.append(["**total**", "", "100.000%", "", f"**{percent_str(sum((c.ev_lost for c in costs), Fraction(0)), 4)}**",
                 "", ""])
    return markdown_table(["rule", "words", "situations decided", "of which against optimal",
                           "EV lost vs optimal (per ANTE)", "EV change if struck", "RTP change if struck"],
                          rows, "llrrrrr")
