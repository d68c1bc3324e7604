"""Monte Carlo cross-check: deal real rounds from shuffled decks, play the stored strategy, settle.

A second, independent method for every exact EV: rounds are dealt from uniformly shuffled
decks (a seeded numpy PCG64 generator), decisions come from the strategy file through the
advisor, and every bet is settled by the routines below, written from the rule file
alone (hand values from the validated evaluator; no enumeration code).  Means and
variances are exact rationals; only the z-score's square root is decimal.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np

from cython_ext import handeval

Z_999 = Decimal("3.290526731")          # two-sided 99.9% normal quantile
BATCH = 100_000


@dataclass
class Tally:
    """Exact running sums of a bet's per-round result (integers over a fixed denominator)."""

    denominator: int
    rounds: int = 0
    total: int = 0
    squares: int = 0

    def add(self, numerators: np.ndarray) -> None:
        values = numerators.astype(object)
        self.rounds += len(numerators)
        self.total += int(values.sum())
        self.squares += int((values * values).sum())

    @property
    def mean(self) -> Fraction:
        return Fraction(self.total, self.rounds * self.denominator)

    def variance(self) -> Fraction:
        n = self.rounds
        return Fraction(self.squares * n - self.total ** 2, n * (n - 1) * self.denominator ** 2)

    def compare(self, exact: Fraction) -> dict:
        """z-score of the exact value against the sample, and the 99.9% interval around the mean."""
        getcontext().prec = 40
        se = (Decimal(self.variance().numerator) / Decimal(self.variance().denominator) / self.rounds).sqrt()
        mean = Decimal(self.mean.numerator) / Decimal(self.mean.denominator)
        exact_d = Decimal(exact.numerator) / Decimal(exact.denominator)
        z = (mean - exact_d) / se if se else Decimal(0)
        return {"rounds": self.rounds, "mean": self.mean, "exact": exact, "z": z,
                "low": mean - Z_999 * se, "high": mean + Z_999 * se, "passed": abs(z) <= Z_999}


def integer_scale(values) -> int:
    """A common denominator for a set of exact payouts."""
    from math import lcm
    return lcm(*(Fraction(v).denominator for v in values))


def deal(rng: np.random.Generator, rounds: int, cards: tuple, k: int) -> np.ndarray:
    """(rounds, k) cards: the top k cards of a uniformly shuffled deck, in dealing order."""
    deck = np.array(cards, dtype=np.uint8)
    keys = rng.random((rounds, len(deck)))
    top = np.argpartition(keys, k, axis=1)[:, :k]
    order = np.take_along_axis(keys, top, axis=1).argsort(axis=1)
    return deck[np.take_along_axis(top, order, axis=1)]


def _batches(rounds: int):
    while rounds > 0:
        size = min(BATCH, rounds)
        yield size
        rounds -= size


# --- Casino Hold'em ----------------------------------------------------------------------

def settle_holdem(rules, cards: np.ndarray, call: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-round net of ANTE + CALL and of a 1-unit AA Bonus, as integers over `scale`.

    cards: hole (2), flop (3), turn and river (2), dealer hole (2).
    """
    board = cards[:, 2:7]
    player = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, :2], board])))
    dealer = handeval.evaluate_many(np.ascontiguousarray(np.hstack([cards[:, 7:9], board])))
    category = handeval.categories(player)
    ante = np.array([int(p * scale) for p in rules.ante_pays], dtype=np.int64)[category]
    call_win = int(rules.call_size * rules.call_pays * scale)
    lose = int((1 + rules.call_size) * scale)
    qualifies = dealer >= rules.qualifier_value
    main = np.where(~qualifies, ante,                                  # CALL pushes
                    np.where(player > dealer, ante + call_win, np.where(player == dealer, 0, -lose)))
    main = np.where(call, main, -scale)
    first_five = handeval.evaluate_many(np.ascontiguousarray(cards[:, :5]))
    names = np.array(["high_card", "other_pair", "two_pair", "three_of_a_kind", "straight", "flush",
                      "full_house", "four_of_a_kind", "straight_flush", "royal_flush"], dtype=object)
    hand = names[handeval.categories(first_five)]
    hand[handeval.pair_ranks(first_five) == 12] = "pair_of_aces"
    pays = {name: (-scale if pay is None else int(pay * scale)) for name, pay in rules.aa_pays.items()}
    aa = np.array([pays[h] for h in hand], dtype=np.int64)
    aa = np.where(call, aa, -scale)                                    # lost on a fold
    return main, aa


def simulate_holdem(strategy, rules, rounds: int, seed: int, progress=None) -> dict:
    """Play the stored strategy; tallies of the main game (per ANTE) and the AA Bonus (per unit)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    scale = integer_scale([*rules.ante_pays, rules.call_size * rules.call_pays,
                           *(p for p in rules.aa_pays.values() if p is not None)])
    tallies = {"ante_and_call": Tally(scale), "aa_bonus": Tally(scale)}
    bar = progress(total=rounds, desc="monte carlo: casino hold'em", unit="round") if progress else None
    for size in _batches(rounds):
        cards = deal(rng, size, rules.cards, 9)
        call = strategy.decide_many(cards[:, :5])["decision"] == 1
        main, aa = settle_holdem(rules, cards, call, scale)
        tallies["ante_and_call"].add(main)
        tallies["aa_bonus"].add(aa)
        bar and bar.update(size)
    bar and bar.close()
    return tallies


# --- Caribbean Stud ----------------------------------------------------------------------

def settle_stud(rules, cards: np.ndarray, raise_: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-round net of ANTE + raise (per ANTE) and of the progressive with no jackpot share (per stake).

    cards: the player's five, then the dealer's five (the first of them is the up card).
    """
    player = handeval.evaluate_many(np.ascontiguousarray(cards[:, :5]))
    dealer = handeval.evaluate_many(np.ascontiguousarray(cards[:, 5:10]))
    category = handeval.categories(player)
    not_qualified = np.array([int((rules.ante_not_qualified + rules.raise_size * p) * scale)
                              for p in rules.raise_pays_not_qualified], dtype=np.int64)[category]
    wins = np.array([int((rules.ante_wins + rules.raise_size * p) * scale) for p in rules.raise_pays],
                    dtype=np.int64)[category]
    lose = int((1 + rules.raise_size) * scale)
    main = np.where(dealer < rules.qualifier_value, not_qualified,
                    np.where(player > dealer, wins, np.where(player == dealer, 0, -lose)))
    main = np.where(raise_, main, -scale)
    prog = rules.progressive
    returned = [prog.pays[c] + (prog.stake if prog.stake_returned and prog.wins(c) else 0) for c in range(10)]
    side = np.array([int((r - prog.stake) / prog.stake * scale) for r in returned], dtype=np.int64)[category]
    return main, side


def simulate_stud(strategy, rules, rounds: int, seed: int, progress=None) -> dict:
    """Play the stored strategy; tallies of ANTE + raise and of the progressive's fixed payouts."""
    rng = np.random.Generator(np.random.PCG64(seed))
    prog = rules.progressive
    scale = integer_scale([rules.ante_not_qualified, rules.ante_wins, *(rules.raise_size * p for p in rules.raise_pays),
                           *(rules.raise_size * p for p in rules.raise_pays_not_qualified), rules.raise_size,
                           *((p - prog.stake) / prog.stake for p in prog.pays), *(p / prog.stake for p in prog.pays)])
    tallies = {"ante_and_raise": Tally(scale), "progressive_fixed_payouts": Tally(scale)}
    bar = progress(total=rounds, desc="monte carlo: caribbean stud", unit="round") if progress else None
    for size in _batches(rounds):
        cards = deal(rng, size, rules.cards, 10)
        raise_ = strategy.decide_many(np.ascontiguousarray(cards[:, :6]))["decision"] == 1
        main, side = settle_stud(rules, cards, raise_, scale)
        tallies["ante_and_raise"].add(main)
        tallies["progressive_fixed_payouts"].add(side)
        bar and bar.update(size)
    bar and bar.close()
    return tallies


# --- Baccarat ----------------------------------------------------------------------------

def deal_values(rng: np.random.Generator, rounds: int, shoe: tuple, k: int) -> np.ndarray:
    """(rounds, k) card values: the first k cards of a shuffled shoe, drawn one by one."""
    left = np.tile(np.array(shoe, dtype=np.int64), (rounds, 1))
    out = np.empty((rounds, k), dtype=np.int64)
    for position in range(k):
        pick = rng.integers(0, sum(shoe) - position, size=rounds)
        value = (np.cumsum(left, axis=1) <= pick[:, None]).sum(axis=1)
        out[:, position] = value
        left[np.arange(rounds), value] -= 1
    return out


def settle_baccarat(rules, values: np.ndarray, scale: int) -> dict:
    """Per-round net of a 1-unit bet on each of BANKER, PLAYER and TIE (integers over scale)."""
    from analyzer.reference.baccarat import play_round
    player, banker = np.empty(len(values), dtype=np.int64), np.empty(len(values), dtype=np.int64)
    for i, row in enumerate(values.tolist()):
        player[i], banker[i], _ = play_round(row, rules)
    push = 0 if rules.tie_pushes else -scale
    banker_win = int(rules.pays["banker"] * (1 - rules.commission) * scale)
    return {
        "banker": np.where(banker > player, banker_win, np.where(banker == player, push, -scale)),
        "player": np.where(player > banker, int(rules.pays["player"] * scale), np.where(banker == player, push, -scale)),
        "tie": np.where(player == banker, int(rules.pays["tie"] * scale), -scale),
    }


def simulate_baccarat(rules, rounds: int, seed: int, progress=None) -> dict:
    rng = np.random.Generator(np.random.PCG64(seed))
    scale = integer_scale([*rules.pays.values(), rules.pays["banker"] * (1 - rules.commission)])
    tallies = {bet: Tally(scale) for bet in ("banker", "player", "tie")}
    bar = progress(total=rounds, desc="monte carlo: baccarat", unit="round") if progress else None
    for size in _batches(rounds):
        values = deal_values(rng, size, rules.full_shoe(), 6)
        for bet, nets in settle_baccarat(rules, values, scale).items():
            tallies[bet].add(nets)
        bar and bar.update(size)
    bar and bar.close()
    return tallies
