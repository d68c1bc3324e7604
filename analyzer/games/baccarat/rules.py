"""Baccarat rule files: the schema, the typed rules of one variant, and the rules as a strategy file states them."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.exact import fraction_str, parse_fraction_str
from analyzer.core.rules import (GAME_HEADER, RuleError, RuleFile, boolean, integer, list_of, load_rule_file, number,
                                 published_percent, table, text)

GAME = "baccarat"
N_VALUES = 10
BETS = ("banker", "player", "tie")
CARDS_PER_DECK_BY_VALUE = (16,) + (4,) * 9     # value 0 = ten, jack, queen, king
VALUE_NAMES = ("0 (T J Q K)", "1 (A)", "2", "3", "4", "5", "6", "7", "8", "9")

_total = integer(minimum=0, maximum=9)
_totals = list_of(_total)
SCHEMA = table({
    "game": GAME_HEADER,
    "shoe": table({"decks": integer(minimum=1)}),
    "drawing": table({
        "natural": _totals,
        "player_draws_on": _totals,
        "banker_draws_when_player_stands": _totals,
        "banker_draws_on_player_third_card": table({str(t): _totals for t in range(8)}),
    }),
    "payouts": table({
        "player": number(),
        "banker": number(),
        "tie": number(),
        "tie_pushes_player_and_banker": boolean(),
    }),
    "commission": table({
        "banker": number(maximum=1),
        "rounding": text(choices=("down", "none")),
        "unit": number(minimum=Fraction(1, 10**6)),
    }),
    "limits": table({"min_bet": number(minimum=Fraction(1, 10**6)), "max_bet": number()}),
    "published": table({f"{bet}_rtp": published_percent() for bet in BETS}, optional=tuple(f"{b}_rtp" for b in BETS)),
}, optional=("published",))


@dataclass(frozen=True)
class BaccaratRules:
    """The checked rules of one punto banco variant."""

    decks: int
    natural: frozenset
    player_draws_on: frozenset
    banker_draws_when_player_stands: frozenset
    banker_draws: tuple          # banker_draws[banker total] = frozenset of player third-card values
    pays: dict                   # bet -> Fraction, "to 1" (banker before commission)
    tie_pushes: bool
    commission: Fraction
    rounding: str
    unit: Fraction
    min_bet: Fraction
    max_bet: Fraction
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "BaccaratRules":
        data, file = rule_file.data, str(rule_file.path)
        drawing, limits = data["drawing"], data["limits"]
        if limits["max_bet"] < limits["min_bet"]:
            raise RuleError(file, "limits.max_bet", "is below limits.min_bet")
        if limits["min_bet"] % data["commission"]["unit"]:
            raise RuleError(file, "limits.min_bet", "must be a whole number of commission.unit")
        return cls(
            decks=data["shoe"]["decks"],
            natural=frozenset(drawing["natural"]),
            player_draws_on=frozenset(drawing["player_draws_on"]),
            banker_draws_when_player_stands=frozenset(drawing["banker_draws_when_player_stands"]),
            banker_draws=tuple(frozenset(drawing["banker_draws_on_player_third_card"].get(str(t), ()))
                               for t in range(N_VALUES)),
            pays={bet: data["payouts"][bet] for bet in BETS},
            tie_pushes=data["payouts"]["tie_pushes_player_and_banker"],
            commission=data["commission"]["banker"],
            rounding=data["commission"]["rounding"],
            unit=data["commission"]["unit"],
            min_bet=limits["min_bet"],
            max_bet=limits["max_bet"],
            published=data.get("published", {}),
        )

    def full_shoe(self) -> tuple:
        return tuple(self.decks * n for n in CARDS_PER_DECK_BY_VALUE)

    def play_round(self, cards) -> tuple[int, int, int]:
        """The tableau played from the top of a sequence of card values: (player total, banker total, cards
        used), reading a card only once it is drawn; the one Python definition of who draws."""
        player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
        if player in self.natural or banker in self.natural:
            return player, banker, 4
        if player in self.player_draws_on:
            third = cards[4]
            if third in self.banker_draws[banker]:
                return (player + third) % 10, (banker + cards[5]) % 10, 6
            return (player + third) % 10, banker, 5
        if banker in self.banker_draws_when_player_stands:
            return player, (banker + cards[4]) % 10, 5
        return player, banker, 4

    def flags(self):
        """The tableau as the kernel's byte arrays."""
        def mask(values):
            return np.array([v in values for v in range(N_VALUES)], dtype=np.uint8)
        return (mask(self.natural), mask(self.player_draws_on), mask(self.banker_draws_when_player_stands),
                np.concatenate([mask(draws) for draws in self.banker_draws]))


def load_rules(path) -> tuple[RuleFile, BaccaratRules]:
    """The rule file at `path`, checked, and its typed rules."""
    rule_file = load_rule_file(path, GAME, SCHEMA)
    return rule_file, BaccaratRules.from_rule_file(rule_file)


def strategy_header_rules(rules: BaccaratRules) -> dict:
    """The rules an advisor needs, as plain JSON (exact numbers as "p/q")."""
    return {
        "natural": sorted(rules.natural),
        "player_draws_on": sorted(rules.player_draws_on),
        "banker_draws_when_player_stands": sorted(rules.banker_draws_when_player_stands),
        "banker_draws_on_player_third_card": {str(t): sorted(rules.banker_draws[t]) for t in range(8)},
        "pays": {bet: fraction_str(rules.pays[bet]) for bet in BETS},
        "banker_commission": fraction_str(rules.commission),
        "tie_pushes_player_and_banker": rules.tie_pushes,
    }


def rules_from_strategy_header(header: dict) -> BaccaratRules:
    """The BaccaratRules a strategy file's header describes (what the advisor plays by)."""
    r = header["rules"]
    return BaccaratRules(
        decks=header["decks"], natural=frozenset(r["natural"]), player_draws_on=frozenset(r["player_draws_on"]),
        banker_draws_when_player_stands=frozenset(r["banker_draws_when_player_stands"]),
        banker_draws=tuple(frozenset(r["banker_draws_on_player_third_card"].get(str(t), ())) for t in range(N_VALUES)),
        pays={bet: parse_fraction_str(r["pays"][bet]) for bet in BETS},
        tie_pushes=r["tie_pushes_player_and_banker"], commission=parse_fraction_str(r["banker_commission"]),
        rounding="none", unit=Fraction(1, 100), min_bet=Fraction(0), max_bet=Fraction(0), published={})
