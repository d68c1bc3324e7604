"""How a played poker hand is settled against the dealer (both games): outcome codes (the kernels' own,
`cython_ext/_types.pxd`; a test checks they agree), the net of each."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.poker.hands import CATEGORIES

OUTCOMES = ("dealer_not_qualified", "player_wins", "tie", "dealer_wins")
OUTCOME_WORDS = ("dealer does not qualify", "player wins", "tie", "dealer wins")
NOT_QUALIFIED, PLAYER_WINS, TIE, DEALER_WINS = range(len(OUTCOMES))
N_OUTCOMES = len(OUTCOMES)
N_CATEGORIES = len(CATEGORIES)


def outcome(player, dealer, qualifier) -> int:
    """The outcome of a played hand (comparable hand values): a dealer below `qualifier` does not qualify."""
    if dealer < qualifier:
        return NOT_QUALIFIED
    if player > dealer:
        return PLAYER_WINS
    if player == dealer:
        return TIE
    return DEALER_WINS


def outcomes(player: np.ndarray, dealer: np.ndarray, qualifier) -> np.ndarray:
    """`outcome` for arrays of hand values (one round per entry)."""
    return np.where(dealer < qualifier, NOT_QUALIFIED,
                    np.where(player > dealer, PLAYER_WINS, np.where(player == dealer, TIE, DEALER_WINS)))


@dataclass(frozen=True)
class Paytable:
    """The net result per ANTE of a played hand by final category and outcome; entries are "to 1" by
    category (0 pushes); a tie pushes both bets, a better qualifying dealer takes both."""

    play_size: Fraction                 # the play bet (CALL, raise) per ANTE
    ante_not_qualified: tuple           # ANTE pays when the dealer does not qualify
    ante_wins: tuple                    # ANTE pays when the player beats a qualifying dealer
    play_not_qualified: tuple           # play bet pays when the dealer does not qualify (0: push)
    play_wins: tuple                    # play bet pays when the player beats a qualifying dealer

    def net(self, category: int, result: int) -> Fraction:
        """Net result per ANTE of a played hand of this category with this outcome."""
        if result == NOT_QUALIFIED:
            return self.ante_not_qualified[category] + self.play_size * self.play_not_qualified[category]
        if result == PLAYER_WINS:
            return self.ante_wins[category] + self.play_size * self.play_wins[category]
        if result == TIE:
            return Fraction(0)
        return -(1 + self.play_size)

    def nets(self) -> list[list[Fraction]]:
        """net(category, outcome) for every category x outcome."""
        return [[self.net(c, o) for o in range(N_OUTCOMES)] for c in range(N_CATEGORIES)]

    def net_matrix(self) -> tuple[np.ndarray, int]:
        """(integer nets (categories x outcomes) as Python integers, scale: their least common denominator)."""
        nets = self.nets()
        scale = math.lcm(*(x.denominator for row in nets for x in row))
        return np.array([[int(x * scale) for x in row] for row in nets], dtype=object), scale

    @property
    def largest_net(self) -> Fraction:
        """The largest |net| of any category and outcome (bounds every EV numerator)."""
        return max(abs(x) for row in self.nets() for x in row)
