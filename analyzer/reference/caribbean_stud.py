"""Caribbean Stud by brute force: every dealer completion dealt and compared, in plain Python.

Slow and obvious on purpose; the card-removal kernel (`cython_ext.stud_enum`) and the
whole analysis are checked against it, to the integer, on reduced decks and on random
situations of the full deck.  A qualifier is a value tuple of `analyzer.reference.poker`
(e.g. (0, 12, 11) = ace-king high): a dealer hand qualifies when its value is at least
that (a prefix tuple sorts below all its extensions).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from analyzer.reference.poker import five_card_value

NOT_QUALIFIED, PLAYER_WINS, TIE, DEALER_WINS = range(4)


def settle(player_value: tuple, dealer_value: tuple, qualifier: tuple) -> int:
    """The outcome of a raised hand against one dealer hand."""
    if dealer_value < qualifier:
        return NOT_QUALIFIED
    if player_value > dealer_value:
        return PLAYER_WINS
    if player_value == dealer_value:
        return TIE
    return DEALER_WINS


def deal_every_completion(hand, up, deck, qualifier: tuple, value_of=five_card_value) -> tuple:
    """(not qualified, player wins, tie, dealer wins) over every 4-card completion of the dealer.

    `value_of` maps five cards to a comparable value (the plain evaluator by default; any
    evaluator that orders hands as poker does, e.g. the compiled one, may stand in).
    """
    counts = [0, 0, 0, 0]
    player = value_of(list(hand))
    rest = [c for c in deck if c not in hand and c != up]
    for completion in combinations(rest, 4):
        counts[settle(player, value_of([up, *completion]), qualifier)] += 1
    return tuple(counts)


def whole_game(deck, qualifier: tuple) -> dict:
    """{(hand, up): outcome counts} for every hand (sorted tuple) and up card of a small deck."""
    deck = sorted(deck)
    values = {five: five_card_value(five) for five in combinations(deck, 5)}
    result = {}
    for hand in combinations(deck, 5):
        player = values[hand]
        for up in deck:
            if up in hand:
                continue
            counts = [0, 0, 0, 0]
            rest = [c for c in deck if c not in hand and c != up]
            for completion in combinations(rest, 4):
                dealer = values[tuple(sorted((up, *completion)))]
                counts[settle(player, dealer, qualifier)] += 1
            result[hand, up] = tuple(counts)
    return result


def optimal_ev(game: dict, net) -> tuple[Fraction, Fraction]:
    """(EV per ANTE, probability of raising) of optimal play over every situation of `game`.

    net(category, outcome) is the raised hand's net result per ANTE; folding is -1.
    Raises exactly when raising is strictly better.
    """
    total_ev, raises = Fraction(0), 0
    for (hand, _), counts in game.items():
        category = five_card_value(hand)[0]
        ev_raise = sum(Fraction(n, sum(counts)) * net(category, o) for o, n in enumerate(counts))
        if ev_raise > -1:
            total_ev += ev_raise
            raises += 1
        else:
            total_ev -= 1
    return total_ev / len(game), Fraction(raises, len(game))
