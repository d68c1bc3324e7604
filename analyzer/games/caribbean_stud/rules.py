"""Caribbean Stud rule files: the schema and the typed rules of one variant, with its progressive side bet."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.rules import (GAME_HEADER, RuleError, RuleFile, boolean, list_of, load_rule_file, number,
                                 published_percent, table)
from analyzer.poker.hands import CATEGORIES, DECK_SCHEMA, QUALIFIER_SCHEMA, deck_cards, qualifier_value
from analyzer.poker.settlement import Paytable
from cython_ext import handeval, stud_enum

GAME = "caribbean-stud"
PUBLISHED_KEYS = ("house_edge", "raise_probability")

_optional_categories = table({name: number() for name in CATEGORIES}, optional=CATEGORIES)
SCHEMA = table({
    "game": GAME_HEADER,
    "deck": DECK_SCHEMA,
    "qualifier": QUALIFIER_SCHEMA,
    "raise": table({"size": number(minimum=Fraction(1, 10**6))}),
    "ante_pays": table({"dealer_does_not_qualify": number(), "player_wins": number()}),
    "raise_pays": table({name: number() for name in CATEGORIES}),
    "raise_pays_dealer_not_qualified": table({name: number() for name in CATEGORIES}),
    "progressive": table({
        "stake": number(minimum=Fraction(1, 10**6)),
        "stake_returned_with_win": boolean(),
        "jackpot_levels": list_of(number(minimum=Fraction(1, 10**6)), min_length=1),
        "jackpot_share": table({name: number(maximum=1) for name in CATEGORIES}, optional=CATEGORIES),
        "pays": _optional_categories,
    }),
    "published": table({key: published_percent() for key in PUBLISHED_KEYS}, optional=PUBLISHED_KEYS),
}, optional=("published",))


@dataclass(frozen=True)
class Progressive:
    """The progressive side bet: a fixed stake, paid on the player's own five cards."""

    stake: Fraction
    stake_returned: bool
    jackpot_share: tuple         # by category: share of the jackpot J paid
    pays: tuple                  # by category: fixed amount paid
    levels: tuple                # jackpot amounts to tabulate

    def returned(self, category: int, jackpot) -> object:
        """Total returned on one stake by a hand of this category (the side bet's settlement): its share of the
        jackpot (a number, or J as a sympy polynomial), its fixed amount and the stake if returned; 0 if it loses."""
        share, pays = self.jackpot_share[category], self.pays[category]
        if not (share or pays):
            return Fraction(0)
        return share * jackpot + pays + (self.stake if self.stake_returned else 0)

    def net(self, category: int, jackpot) -> Fraction:
        """Net result per unit staked of a hand of this category at jackpot J (exact; J in the stake's currency)."""
        return self.returned(category, Fraction(jackpot)) / self.stake - 1


@dataclass(frozen=True)
class StudRules:
    """The checked rules of one Caribbean Stud variant."""

    cards: tuple                 # the deck's card indices
    qualifier: dict              # {category, ranks} as written
    qualifier_value: int         # smallest qualifying hand value
    raise_size: Fraction         # BET (raise) = raise_size x ANTE
    ante_not_qualified: Fraction  # ANTE paid "to 1" when the dealer does not qualify
    ante_wins: Fraction          # ANTE paid "to 1" when the player beats a qualifying dealer
    raise_pays: tuple            # by category, "to 1", dealer qualifies and the player wins
    raise_pays_not_qualified: tuple  # by category, "to 1" (0 = push), dealer does not qualify
    progressive: Progressive
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "StudRules":
        data, file = rule_file.data, str(rule_file.path)
        cards = deck_cards(data["deck"], file)
        if len(cards) < stud_enum.MIN_DECK_CARDS:
            raise RuleError(file, "deck", f"{len(cards)} cards cannot deal a round (5 for the player, 5 for "
                                          "the dealer, and at least 4 left to complete the dealer's hand)")
        prog = data["progressive"]
        return cls(cards=tuple(cards), qualifier=data["qualifier"],
                   qualifier_value=qualifier_value(data["qualifier"], file),
                   raise_size=data["raise"]["size"],
                   ante_not_qualified=data["ante_pays"]["dealer_does_not_qualify"],
                   ante_wins=data["ante_pays"]["player_wins"],
                   raise_pays=tuple(data["raise_pays"][name] for name in CATEGORIES),
                   raise_pays_not_qualified=tuple(data["raise_pays_dealer_not_qualified"][name]
                                                  for name in CATEGORIES),
                   progressive=Progressive(
                       stake=prog["stake"], stake_returned=prog["stake_returned_with_win"],
                       jackpot_share=tuple(prog["jackpot_share"].get(name, Fraction(0)) for name in CATEGORIES),
                       pays=tuple(prog["pays"].get(name, Fraction(0)) for name in CATEGORIES),
                       levels=tuple(sorted(set(prog["jackpot_levels"])))),
                   published=data.get("published", {}))

    @property
    def qualifier_rank(self) -> int:
        return handeval.dense_at_least(self.qualifier_value)

    @property
    def paytable(self) -> Paytable:
        """ANTE + raise settled by the one poker settlement: the ANTE pays evenly (by the rule file)
        whatever the player holds; the raise by the two columns of the raise paytable."""
        n = len(CATEGORIES)
        return Paytable(play_size=self.raise_size, ante_not_qualified=(self.ante_not_qualified,) * n,
                        ante_wins=(self.ante_wins,) * n, play_not_qualified=self.raise_pays_not_qualified,
                        play_wins=self.raise_pays)


def load_rules(path) -> tuple[RuleFile, StudRules]:
    """The rule file at `path`, checked, and its typed rules."""
    rule_file = load_rule_file(path, GAME, SCHEMA)
    return rule_file, StudRules.from_rule_file(rule_file)
