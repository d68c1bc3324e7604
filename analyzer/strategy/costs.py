"""The exact cost of a rule list against optimal play, for any game.

`rule_costs` says of each rule (and the default) which situations it decides, where it disagrees
with optimal play, the EV it gives up there (adding up to the whole gap) and the change in EV and
RTP when it is struck.  `Losses` prices whole decisions of groups of classes decided alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.exact import INT64_MAX, exact_group_sums, percent_str
from analyzer.figures.tables import markdown_table
from analyzer.poker.decision_table import DecisionTable, SignSums
from analyzer.strategy.language import Strategy
from cython_ext import group_sums

CHUNK_ROWS = 1 << 20            # classes whose rule masks are made at once


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


@dataclass(frozen=True)
class Losses:
    """Per group of classes decided alike: the gains given up against optimal by playing, or folding, all of it."""

    if_played: np.ndarray          # the sum of -gain over its classes of gain < 0
    if_folded: np.ndarray          # the sum of gain over its classes of gain > 0

    @classmethod
    def of(cls, groups: SignSums) -> "Losses":
        return cls(-groups.gains[:, 0], groups.gains[:, 2].copy())

    def take(self, index: np.ndarray) -> "Losses":
        return Losses(self.if_played[index], self.if_folded[index])

    def lost(self, plays: np.ndarray) -> np.ndarray:
        """Per group, what deciding it as `plays` says (True: play) gives up."""
        return np.where(plays, self.if_played, self.if_folded)

    def least(self) -> np.ndarray:
        """Per group, the least any one decision of the whole group gives up."""
        return np.minimum(self.if_played, self.if_folded)


def rule_costs(strategy: Strategy, values: dict, decisions: DecisionTable,
               groups: SignSums | None = None) -> list[RuleCost]:
    """Per rule and for the default: exact situations decided, disagreements, EV lost, value of the rule.

    `values`: the strategy's features per class; `decisions`: the game's decision table.  Every
    figure is a sum over classes grouped by their deciding rule, whether the next rule that holds
    plays, and the sign of their gain, so the table is summed once.  `groups`: classes already
    summed by groups every feature decides alike (`SignSums`); `values` are then per group.
    """
    rules, n = strategy.rules, len(decisions) if groups is None else len(groups)
    actions = [r.action for r in rules] + [strategy.default]
    plays = np.array([strategy.features.actions.index(a) == 1 for a in actions])     # by rule, the default last
    weight_sums = gain_sums = np.zeros(6 * len(actions), dtype=np.int64)
    read = {condition.feature for rule in rules for condition in rule.conditions}   # only these are sliced
    for start in range(0, n, CHUNK_ROWS):                     # a chunk of classes at a time: small masks
        rows = slice(start, min(n, start + CHUNK_ROWS))
        part = {name: values[name][rows] for name in read}
        first, second = _first_two_rules([rule.holds(part, strategy.features) for rule in rules], rows.stop - start)
        weights, gains = _sums_by_rule(first, second, plays, decisions, rows) if groups is None \
            else _group_sums_by_rule(first, second, plays, groups.take(rows))
        weight_sums, gain_sums = weight_sums + weights, gain_sums + gains
    weight_sums, gain_sums = (sums.reshape(len(actions), 2, 3).tolist() for sums in (weight_sums, gain_sums))

    def total(sums, rule, next_plays=(0, 1), signs=(0, 1, 2)):
        return sum(int(sums[rule][a][b]) for a in next_plays for b in signs)
    played = np.flatnonzero(plays).tolist()
    base_weight, base_gain = sum(total(weight_sums, i) for i in played), sum(total(gain_sums, i) for i in played)
    base = decisions.figures_of_sums(base_weight, base_gain)
    out = []
    for index, (words, action) in enumerate(zip(strategy.lines(), actions)):
        ev_if = rtp_if = None
        if index < len(rules):
            # the list without this rule: its classes take the next rule that holds (the default if none)
            weight, gain_sum = base_weight + total(weight_sums, index, (1,)), base_gain + total(gain_sums, index, (1,))
            if plays[index]:
                weight, gain_sum = weight - total(weight_sums, index), gain_sum - total(gain_sums, index)
            struck = decisions.figures_of_sums(weight, gain_sum)
            ev_if, rtp_if = struck.ev - base.ev, struck.rtp - base.rtp
        # a rule's classes all take its action: playing gives up -gain where gain < 0, folding gain where gain > 0
        worse = (0,) if plays[index] else (2,)
        decided, lost = total(weight_sums, index), total(gain_sums, index, signs=worse)
        out.append(RuleCost(
            number=index + 1 if index < len(rules) else None, words=words, action=action,
            situations=decided, share=Fraction(decided, decisions.total_weight),
            disagreements=total(weight_sums, index, signs=worse),
            ev_lost=Fraction(-lost if plays[index] else lost, decisions.total_weight * decisions.denominator),
            ev_if_struck=ev_if, rtp_if_struck=rtp_if))
    return out


def _first_two_rules(held: list, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per class, the index of the first rule of `held` (None: holds everywhere) that holds and of the next
    one; len(held) (the default) where there is none."""
    first = np.full(n, len(held), dtype=np.int16)
    second = first.copy()
    for index in range(len(held) - 1, -1, -1):           # later rules first: earlier ones push them back
        where = True if held[index] is None else held[index]
        np.copyto(second, first, where=where)
        np.copyto(first, index, where=where)
    return first, second


def _sums_by_rule(first: np.ndarray, second: np.ndarray, plays: np.ndarray, decisions: DecisionTable,
                  rows: slice) -> tuple:
    """(weights, gains) of the classes `rows` summed exactly by (deciding rule, whether the next rule plays,
    sign of the gain): 6 sums per rule.  One compiled pass when a bound proves int64 sums fit, else
    `exact_group_sums`."""
    gain, weights, cells = decisions.gain[rows], decisions.weights[rows], 6 * len(plays)
    if gain.dtype == np.int64 and weights.dtype in (np.uint8, np.int64) \
            and max(decisions.gain_bound, decisions.weight_bound) * len(decisions) <= INT64_MAX:
        weight_sums, gain_sums = np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64)
        group_sums.add_rule_sums(first, second, plays.astype(np.uint8), weights, gain, weight_sums, gain_sums)
        return weight_sums, gain_sums
    groups = first.astype(np.int64) * 6 + 1
    groups += 3 * plays[second]                  # in place: no temporary of the chunk's size per term
    groups += gain > 0
    groups -= gain < 0
    return exact_group_sums(groups, weights, cells), exact_group_sums(groups, gain, cells)


def _group_sums_by_rule(first: np.ndarray, second: np.ndarray, plays: np.ndarray, groups: SignSums) -> tuple:
    """`_sums_by_rule` of groups of classes (`SignSums`), in Python integers."""
    cells = 6 * len(plays)
    cell = (first.astype(np.int64) * 6 + 3 * plays[second])[:, None] + np.arange(3)     # by group and sign
    return (exact_group_sums(cell.ravel(), groups.weights.ravel(), cells).astype(object),
            exact_group_sums(cell.ravel(), groups.gains.ravel(), cells).astype(object))


def rule_costs_markdown(costs: list[RuleCost]) -> str:
    rows = [[str(c.number) if c.number else "default", c.words, percent_str(c.share, 3),
             percent_str(Fraction(c.disagreements, c.situations) if c.situations else Fraction(0), 2),
             percent_str(c.ev_lost, 4), "" if c.ev_if_struck is None else percent_str(c.ev_if_struck, 4),
             "" if c.rtp_if_struck is None else percent_str(c.rtp_if_struck, 4)] for c in costs]
    rows.append(["**total**", "", "100.000%", "", f"**{percent_str(sum((c.ev_lost for c in costs), Fraction(0)), 4)}**",
                 "", ""])
    return markdown_table(["rule", "words", "situations decided", "of which against optimal",
                           "EV lost vs optimal (per ANTE)", "EV change if struck", "RTP change if struck"],
                          rows, "llrrrrr")
