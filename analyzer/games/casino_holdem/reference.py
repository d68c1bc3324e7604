"""Casino Hold'em by brute force on a (reduced) deck: every situation, every continuation, dealt out, and every
round settled (ANTE + CALL and the AA Bonus) for the round statistics."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from analyzer.poker.reference import ACE, PAIR, best_value, five_card_value
from analyzer.poker.settlement import outcome


def count_every_deal(cards, qualifier: tuple) -> dict:
    """(hole, flop) -> Counter of (player's final category, outcome) over every turn/river and dealer pair.

    qualifier: the smallest qualifying value as a tuple comparable with best_value(),
    e.g. (1, 2) for "a pair of fours or better".
    """
    value = lru_cache(maxsize=None)(lambda seven: best_value(seven))
    results = {}
    for hole in combinations(cards, 2):
        rest = [c for c in cards if c not in hole]
        for flop in combinations(rest, 3):
            counter = Counter()
            after_flop = [c for c in rest if c not in flop]
            for turn_river in combinations(after_flop, 2):
                board = flop + turn_river
                player = value(tuple(sorted(hole + board)))
                for dealer_hole in combinations([c for c in after_flop if c not in turn_river], 2):
                    dealer = value(tuple(sorted(dealer_hole + board)))
                    counter[player[0], outcome(player, dealer, qualifier)] += 1
            results[hole, flop] = counter
    return results


def aa_hand(five) -> str:
    """The AA Bonus hand of five cards (a name of rules.AA_HANDS), read off the plain evaluator."""
    value = five_card_value(list(five))
    category = value[0]
    if category == PAIR:
        return "pair_of_aces" if value[1] == ACE else "other_pair"
    return ("high_card", None, "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
            "straight_flush", "royal_flush")[category]


def optimal_call(counter: Counter, net) -> bool:
    """Call exactly when calling beats folding (-1 ANTE) over the situation's dealt continuations."""
    total = sum(counter.values())
    return sum(Fraction(n, total) * net(c, o) for (c, o), n in counter.items()) > -1


def settle_every_round(deals: dict, rules, call) -> Counter:
    """(ANTE + CALL net per ANTE, AA Bonus net per unit) -> rounds, over every round of `deals`.

    `deals`: count_every_deal's output (every turn/river and dealer hole pair of every
    situation, dealt card by card); call(hole, flop, counter) decides.  A called round is settled
    by the rule file's ANTE and CALL pays (the one settlement) and its AA Bonus by the plain AA
    hand of hole + flop and the rule file's AA pays; a fold loses the ANTE and the AA Bonus.
    """
    rounds = Counter()
    for (hole, flop), counter in deals.items():
        if call(hole, flop, counter):
            pay = rules.aa_pays[aa_hand(hole + flop)]
            aa = Fraction(-1) if pay is None else Fraction(pay)
            for (category, result), n in counter.items():
                rounds[rules.paytable.net(category, result), aa] += n
        else:
            rounds[Fraction(-1), Fraction(-1)] += sum(counter.values())
    return rounds
