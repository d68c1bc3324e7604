"""Punto banco by brute force: every ordered 6-card sequence of individual cards, played out
(`BaccaratRules.play_round`) and settled."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations


def count_every_sequence(deck_values: list[int], rules) -> Counter:
    """Outcome -> number of ordered 6-card sequences of the deck's individual cards (one value a card)."""
    outcomes = Counter()
    for sequence in permutations(deck_values, 6):
        outcomes[rules.play_round(sequence)] += 1
    return outcomes


def settle_every_sequence(outcomes: Counter, rules, stake=None) -> Counter:
    """(BANKER, PLAYER, TIE net per unit staked) -> ordered sequences, each round settled from the rule file
    (with a `stake`, BANKER's total returned rounded down to the commission unit).
    """
    banker_win = rules.pays["banker"] * (1 - rules.commission)
    if stake is not None and rules.rounding == "down":
        stake = Fraction(stake)
        banker_win = Fraction(int((stake * (1 + banker_win)) // rules.unit)) * rules.unit / stake - 1
    push = Fraction(0) if rules.tie_pushes else Fraction(-1)
    rounds = Counter()
    for (player, banker, _), n in outcomes.items():
        if banker > player:
            nets = (banker_win, Fraction(-1), Fraction(-1))
        elif player > banker:
            nets = (Fraction(-1), Fraction(rules.pays["player"]), Fraction(-1))
        else:
            nets = (push, push, Fraction(rules.pays["tie"]))
        rounds[nets] += n
    return rounds


def first_cards_every_sequence(deck_values: list[int], rules) -> Counter:
    """(values of the first four cards, play_round's result) -> number of ordered 6-card sequences of the deck's
    individual cards: what edge sorting's fast count is checked against."""
    outcomes = Counter()
    for sequence in permutations(deck_values, 6):
        outcomes[sequence[:4], rules.play_round(sequence)] += 1
    return outcomes
