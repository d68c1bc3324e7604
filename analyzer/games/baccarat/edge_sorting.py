"""Edge-sorted Baccarat: what a player gains who tells two groups of card values apart by their backs, exactly.

Before betting he knows, for each of the first K cards dealt (K = 0..4; dealt Player 1st, Banker 1st,
Player 2nd, Banker 2nd), whether its value is in a group VALUES, and for each pattern of the 2^K he
bets the bet of largest exact EV (an exact tie goes to the first of BANKER, PLAYER, TIE).  Two policies:
he always bets it (the main figure), or he bets only when its EV is positive.  Every round is dealt
from the full shoe; BANKER is priced with the nominal commission taken exactly, as summary.json's bets.

Every ordered 6-card sequence of the shoe is counted once, by the values of its first four cards and its
outcome (`count_first_cards`: 10^4 cells x 3 outcomes); every K and every grouping is a sum of these
cells, so the shoe is counted once and the 511 splits of the ten values are searched by regrouping.
`tests/plain_baccarat.first_cards_every_sequence` deals the same card by card.
"""
from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.cards import split_tokens
from analyzer.core.errors import InputError, InvariantError
from analyzer.core.exact import INT64_MAX
from analyzer.games.baccarat.price import OUTCOMES, bet_returns
from analyzer.games.baccarat.rules import BETS, N_VALUES, BaccaratRules
from analyzer.games.baccarat.shoe import check_shoe

FIRST_CARDS = 4                  # the cards dealt before any third card: the most whose backs are read
DEFAULT_VALUES = frozenset({6, 7, 8, 9})


def outcome_index(player: int, banker: int) -> int:
    """The index in OUTCOMES (banker wins, player wins, tie) of a round's final totals."""
    return 0 if banker > player else 1 if player > banker else 2


def round_outcomes(rules: BaccaratRules) -> np.ndarray:
    """Outcome index of every round by [Player's two-card total][Banker's][5th card's value][6th card's value],
    played by `rules.play_round` (which reads the 5th and 6th cards only where the tableau draws them)."""
    outcomes = np.zeros((N_VALUES,) * 4, dtype=np.int8)
    for player, banker, fifth, sixth in itertools.product(range(N_VALUES), repeat=4):
        final_player, final_banker, _ = rules.play_round((player, banker, 0, 0, fifth, sixth))
        outcomes[player, banker, fifth, sixth] = outcome_index(final_player, final_banker)
    return outcomes


def count_first_cards(counts, rules: BaccaratRules) -> np.ndarray:
    """Ordered 6-card sequences of the shoe `counts` (10 counts by value) by the values of the first four cards
    and the outcome: shape (10, 10, 10, 10, 3), [Player 1st][Banker 1st][Player 2nd][Banker 2nd][OUTCOMES].

    The 5th and 6th positions are counted whether the tableau draws them or not (every way to fill them),
    so the cells add up to n(n-1)...(n-5).  int64 where every count fits in 63 bits (a shoe of at most
    1,448 cards), Python integers beyond.  Raises ShoeError for a shoe that cannot deal a round.
    """
    counts = check_shoe(counts)
    n = sum(counts)
    dtype = np.int64 if n ** 6 <= INT64_MAX else object
    first = np.array(list(itertools.product(range(N_VALUES), repeat=FIRST_CARDS)))
    rows = np.arange(len(first))
    left = np.tile(np.array(counts, dtype=dtype), (len(first), 1))
    ways = np.ones(len(first), dtype=dtype)
    for position in range(FIRST_CARDS):            # 0 ways (and no matter what is left) where a value runs out
        ways *= left[rows, first[:, position]]
        left[rows, first[:, position]] -= 1
    fill = left[:, :, None] * left[:, None, :] - np.eye(N_VALUES, dtype=dtype) * left[:, :, None]
    by_round = round_outcomes(rules)[(first[:, 0] + first[:, 2]) % N_VALUES, (first[:, 1] + first[:, 3]) % N_VALUES]
    cells = np.stack([ways * np.where(by_round == o, fill, 0).sum(axis=(1, 2)) for o in range(len(OUTCOMES))], -1)
    if int(cells.sum()) != math.perm(n, 6):
        raise InvariantError("edge sorting: the first-card counts do not cover every ordered 6-card sequence once")
    return cells.reshape((N_VALUES,) * FIRST_CARDS + (len(OUTCOMES),))


@dataclass(frozen=True)
class Pattern:
    """One pattern of the first K cards (for each, whether its value is in the group) and its best bet."""

    known: tuple                 # K booleans in dealing order: True where the card's value is in the group
    outcomes: tuple              # ordered sequences by OUTCOMES (banker wins, player wins, tie)
    probability: Fraction
    evs: dict                    # bet -> EV per unit staked, given the pattern

    @property
    def best(self) -> str:
        """The bet of largest EV; an exact tie goes to the first in BETS (BANKER, PLAYER, TIE)."""
        return max(BETS, key=self.evs.__getitem__)

    @property
    def best_ev(self) -> Fraction:
        return self.evs[self.best]


def pattern_of(known, outcomes, total: int, rules: BaccaratRules) -> Pattern:
    """The pattern `known` with its sequences by outcome, of `total` in all, priced by the rules' settlement."""
    outcomes = tuple(int(n) for n in outcomes)
    returns = bet_returns(rules)
    evs = {bet: sum(n * (returns[bet][o] - 1) for o, n in zip(OUTCOMES, outcomes)) / sum(outcomes) for bet in BETS}
    return Pattern(tuple(known), outcomes, Fraction(sum(outcomes), total), evs)


@dataclass(frozen=True)
class EdgeSorting:
    """The exact figures of one group of values read on the first K cards, beside honest play."""

    values: frozenset            # the group told apart (its complement is the same knowledge)
    k: int
    patterns: tuple              # every pattern that occurs (False before True, card by card)
    honest: Pattern              # the whole shoe, nothing known: the best single bet (BANKER on standard rules)

    @property
    def edge(self) -> Fraction:
        """The player's edge per round (= per unit staked) always betting each pattern's best bet."""
        return sum(p.probability * p.best_ev for p in self.patterns)

    @property
    def gain(self) -> Fraction:
        """What reading the backs is worth per round: the edge less the best single bet's EV."""
        return self.edge - self.honest.best_ev

    @property
    def bet_patterns(self) -> tuple:
        """The patterns bet by a player who bets only when the best EV is positive (an EV of 0 is not bet)."""
        return tuple(p for p in self.patterns if p.best_ev > 0)

    @property
    def bet_fraction(self) -> Fraction:
        """The fraction of rounds that player bets."""
        return sum((p.probability for p in self.bet_patterns), Fraction(0))

    @property
    def selective_edge(self) -> Fraction:
        """That player's edge per round dealt (the rounds he sits out count 0)."""
        return sum((p.probability * p.best_ev for p in self.bet_patterns), Fraction(0))

    @property
    def selective_edge_per_bet(self) -> Fraction | None:
        """That player's edge per round bet (= per unit staked); None when no pattern is worth a bet."""
        return self.selective_edge / self.bet_fraction if self.bet_fraction else None

    def pattern(self, known) -> Pattern:
        """The pattern of `known` (K booleans in dealing order): the exploit's bet for what was seen."""
        return next(p for p in self.patterns if p.known == tuple(known))


def check_k(k) -> int:
    """K, refused unless a whole number 0..4 (0: nothing known, honest play)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= FIRST_CARDS:
        raise InputError(f"edge sorting: --cards {k!r}; the backs are read on the first 1..{FIRST_CARDS} cards "
                         f"dealt (0: none)")
    return k


def check_values(values) -> frozenset:
    """The group as a frozenset, refused unless some but not all of the values 0..9."""
    values = frozenset(values)
    if not values <= frozenset(range(N_VALUES)):
        raise InputError(f"edge sorting: --edge-sort values are 0..9, got {sorted(values)}")
    if not 0 < len(values) < N_VALUES:
        raise InputError(f"edge sorting: --edge-sort needs some but not all of the ten values, got "
                         f"{''.join(map(str, sorted(values))) or 'none'}")
    return values


def parse_values(text: str) -> frozenset:
    """'6789' or '6,7,8,9' (digits 0..9, 0 = ten, jack, queen, king) -> a checked group of values."""
    tokens = split_tokens(text)
    digits = list(tokens[0]) if len(tokens) == 1 else tokens
    if not digits or not all(len(d) == 1 and d in "0123456789" for d in digits):
        raise InputError(f"edge sorting: --edge-sort takes card values as digits 0..9 (0: T J Q K), "
                         f"e.g. 6789; got {text!r}")
    if len(set(digits)) < len(digits):
        raise InputError(f"edge sorting: --edge-sort names a value twice in {text!r}")
    return check_values(int(d) for d in digits)


def pattern_counts(cells: np.ndarray, values: frozenset, k: int) -> np.ndarray:
    """The cells summed by pattern of the first k cards: shape (2,) * k + (3,), index 1 where the value is in
    `values`."""
    member = np.array([v in values for v in range(N_VALUES)])
    grouped = cells.sum(axis=tuple(range(k, FIRST_CARDS)))
    for axis in range(k):
        grouped = np.stack([grouped.compress(~member, axis).sum(axis), grouped.compress(member, axis).sum(axis)], axis)
    return grouped


def edge_sort(cells: np.ndarray, rules: BaccaratRules, values=DEFAULT_VALUES, k: int = 1) -> EdgeSorting:
    """The exploit of reading `values` on the first k cards, from `count_first_cards`' cells of the shoe.
    Raises InputError for k out of 0..4 or a group that is empty or everything."""
    values, k = check_values(values), check_k(k)
    grouped = pattern_counts(cells, values, k)
    total = int(cells.sum())
    rows = zip(itertools.product((False, True), repeat=k), grouped.reshape(-1, len(OUTCOMES)))   # C order
    patterns = tuple(pattern_of(known, row, total, rules) for known, row in rows if row.any())
    return EdgeSorting(values, k, patterns, pattern_of((), cells.sum(axis=tuple(range(FIRST_CARDS))), total, rules))


def splits() -> list[frozenset]:
    """The splits of the ten values into two non-empty groups, each named by its group without value 0.

    >>> groups = splits()
    >>> len(groups), groups[0], frozenset({6, 7, 8, 9}) in groups
    (511, frozenset({1}), True)
    """
    return [frozenset(group) for size in range(1, N_VALUES)
            for group in itertools.combinations(range(1, N_VALUES), size)]


def best_groupings(cells: np.ndarray, rules: BaccaratRules, k: int, by: str = "edge") -> list[EdgeSorting]:
    """Every split of the ten values read on the first k cards, the largest `by` first: "edge" (always
    betting) or "selective_edge" (betting only when positive, per round dealt); equal figures keep the
    order of `splits`."""
    figure = operator.attrgetter(by)
    return sorted((edge_sort(cells, rules, group, k) for group in splits()), key=lambda e: -figure(e))
