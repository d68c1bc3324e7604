"""High card's face (`analyzer.games.interface.Face`): one card each, the higher rank wins the bet.

Everything the pipeline, verify and sweep need, and no optional capability: no strategy file,
no count cache, no design.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.cards import RANKS, SUITS
from analyzer.core.exact import figure, parse_fraction_str
from analyzer.core.rules import GAME_HEADER, RuleError, load_rule_file, number, table, text
from analyzer.figures.outputs import KeyFigure, Outputs, ReportContent

SCHEMA = table({"game": GAME_HEADER, "deck": table({"ranks": text(), "suits": text()}),
                "pays": table({"win": number(), "tie_returns": number()})})


@dataclass(frozen=True)
class Rules:
    ranks: str
    suits: str
    win: Fraction
    tie_returns: Fraction

    @property
    def deck(self) -> list[int]:
        """The rank index of every card."""
        return [RANKS.index(rank) for rank in self.ranks for _ in self.suits]


@dataclass
class Analysis:
    rules: Rules
    count: dict            # outcome -> ordered (player card, dealer card) pairs

    @property
    def ev(self) -> Fraction:
        return ev_of(self.count, self.rules)


def ev_of(count: dict, rules: Rules) -> Fraction:
    nets = {"win": rules.win, "tie": rules.tie_returns - 1, "loss": Fraction(-1)}
    return sum(nets[outcome] * n for outcome, n in count.items()) / sum(count.values())


def load_rules(path):
    rule_file = load_rule_file(path, "high-card", SCHEMA)
    deck, pays = rule_file.data["deck"], rule_file.data["pays"]
    for key, letters, known in (("deck.ranks", deck["ranks"], RANKS), ("deck.suits", deck["suits"], SUITS)):
        if not letters or not set(letters) <= set(known) or len(set(letters)) != len(letters):
            raise RuleError(str(rule_file.path), key, f"{letters!r} is not a set of {known}")
    return rule_file, Rules(deck["ranks"], deck["suits"], pays["win"], pays["tie_returns"])


def check_limits(rule_file, rules: Rules) -> None:
    """Any deck fits: the counts are Python integers."""


def count_fields(rules: Rules) -> dict:
    return {"ranks": rules.ranks, "suits": rules.suits}


def count(rules: Rules, executor=None, progress=None) -> dict:
    """Ordered (player, dealer) pairs of cards by outcome, from the ranks: no card dealt twice."""
    ranks = [RANKS.index(rank) for rank in rules.ranks]
    suits = len(rules.suits)
    same = suits * (suits - 1)
    return {"win": sum(suits * suits for p, d in itertools.product(ranks, ranks) if p > d),
            "tie": len(ranks) * same,
            "loss": sum(suits * suits for p, d in itertools.product(ranks, ranks) if p < d)}


def analyse(rule_file, rules: Rules, count: dict) -> Analysis:
    return Analysis(rules, count)


def key_figures(analysis: Analysis) -> list:
    return [KeyFigure("EV per unit", analysis.ev), KeyFigure("RTP", analysis.ev + 1)]


def outputs(analysis: Analysis) -> Outputs:
    summary = {"game": "high-card", "ev_per_unit": figure(analysis.ev), "rtp": figure(analysis.ev + 1),
               "pairs": {outcome: str(n) for outcome, n in analysis.count.items()}}
    par = "| outcome | pairs |\n|---|---:|\n" + "".join(f"| {o} | {n} |\n" for o, n in analysis.count.items())
    return Outputs(summary=summary, files={"par_sheet.md": par, "outcomes.json": json.dumps(analysis.count)},
                   report=ReportContent(key_figures(analysis), "Every ordered pair of cards, counted.",
                                        "None: the bet is settled by the cards.", par))


def check(report, rules: Rules, summary: dict, strategy, samples, rounds, seed, progress=None) -> dict:
    """Every ordered pair of physical cards dealt and settled, against summary.json's EV."""
    settled = {"win": 0, "tie": 0, "loss": 0}
    for player, dealer in itertools.permutations(rules.deck, 2):
        settled["win" if player > dealer else "loss" if player < dealer else "tie"] += 1
    report.add("brute force", ev_of(settled, rules) == parse_fraction_str(summary["ev_per_unit"]["exact"]),
               f"{sum(settled.values())} ordered pairs dealt")
    return {}


def check_statistics(report, rules: Rules, summary: dict, folder, counts: dict, strategies=None) -> None:
    report.add("pairs re-counted", {o: str(n) for o, n in counts.items()} == summary["pairs"], "by outcome")
