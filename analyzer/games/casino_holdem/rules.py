"""Casino Hold'em rule files: the schema and the typed rules of one variant."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.rules import (GAME_HEADER, RuleError, RuleFile, load_rule_file, number,
                                 published_percent, table)
from analyzer.poker.hands import CATEGORIES, DECK_SCHEMA, QUALIFIER_SCHEMA, deck_cards, qualifier_value
from analyzer.poker.settlement import Paytable

GAME = "casino-holdem"
AA_HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
            "three_of_a_kind", "two_pair", "pair_of_aces", "other_pair", "high_card")
PUBLISHED_KEYS = ("optimal_main_rtp", "optimal_aa_bonus_rtp", "call_on_aa_win_main_rtp", "call_on_aa_win_aa_bonus_rtp",
                  "every_hand_calls_aa_bonus_rtp", "basic_main_rtp", "basic_aa_bonus_rtp", "optimal_house_edge")
MIN_DECK_CARDS = 9                    # 2 + 2 hole cards and 5 on the board


def payout_or_lose():
    """A "to 1" payout, or the word "lose" (the stake is lost)."""
    amount = number()

    def check(value, file, key):
        return None if value == "lose" else amount(value, file, key)
    check.bounds = amount.bounds
    return check


SCHEMA = table({
    "game": GAME_HEADER,
    "deck": DECK_SCHEMA,
    "qualifier": QUALIFIER_SCHEMA,
    "call": table({"size": number(minimum=Fraction(1, 10**6)), "pays": number()}),
    "ante_pays": table({name: number() for name in CATEGORIES}),
    "aa_bonus": table({"ratio": number(), "pays": table({name: payout_or_lose() for name in AA_HANDS})}),
    "published": table({key: published_percent() for key in PUBLISHED_KEYS}, optional=PUBLISHED_KEYS),
}, optional=("published",))


@dataclass(frozen=True)
class HoldemRules:
    """The checked rules of one Casino Hold'em variant."""

    cards: tuple                 # the deck's card indices
    qualifier: dict              # {category, ranks} as written
    qualifier_value: int         # smallest qualifying hand value
    call_size: Fraction          # CALL = call_size x ANTE
    call_pays: Fraction          # CALL paid this "to 1" on a win against a qualifying dealer
    ante_pays: tuple             # by category, "to 1"
    aa_pays: dict                # AA Bonus hand -> Fraction "to 1", or None (lose)
    aa_ratio: Fraction           # AA Bonus stake per ANTE for the jointly optimal strategy
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "HoldemRules":
        data, file = rule_file.data, str(rule_file.path)
        cards = deck_cards(data["deck"], file)
        if len(cards) < MIN_DECK_CARDS:
            raise RuleError(file, "deck", f"{len(cards)} cards cannot deal a round (2 + 2 hole cards and 5 on the board)")
        return cls(cards=tuple(cards), qualifier=data["qualifier"],
                   qualifier_value=qualifier_value(data["qualifier"], file),
                   call_size=data["call"]["size"], call_pays=data["call"]["pays"],
                   ante_pays=tuple(data["ante_pays"][name] for name in CATEGORIES),
                   aa_pays=dict(data["aa_bonus"]["pays"]), aa_ratio=data["aa_bonus"]["ratio"],
                   published=data.get("published", {}))

    @property
    def deck_mask(self) -> int:
        return sum(1 << c for c in self.cards)

    @property
    def continuations(self) -> int:
        """Turn/river pairs x dealer hole pairs after the 5 cards a situation shows."""
        n = len(self.cards)
        return math.comb(n - 5, 2) * math.comb(n - 7, 2)

    @property
    def raw_situations(self) -> int:
        n = len(self.cards)
        return math.comb(n, 2) * math.comb(n - 2, 3)

    @property
    def paytable(self) -> Paytable:
        """ANTE + CALL settled by the one poker settlement: against a dealer who does not qualify the
        ANTE is paid by the ANTE paytable and the CALL pushes; a win pays the ANTE paytable and the CALL."""
        no_call = (Fraction(0),) * len(CATEGORIES)
        return Paytable(play_size=self.call_size, ante_not_qualified=self.ante_pays, ante_wins=self.ante_pays,
                        play_not_qualified=no_call, play_wins=(self.call_pays,) * len(CATEGORIES))

    def aa_return(self, hand: str) -> Fraction:
        """Total returned per unit on the AA Bonus by this AA hand when the player calls."""
        pay = self.aa_pays[hand]
        return Fraction(0) if pay is None else 1 + pay


def load_rules(path) -> tuple[RuleFile, HoldemRules]:
    """The rule file at `path`, checked, and its typed rules."""
    rule_file = load_rule_file(path, GAME, SCHEMA)
    return rule_file, HoldemRules.from_rule_file(rule_file)
