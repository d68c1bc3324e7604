"""Casino Hold'em pricing: a paytable turns the counts into exact EVs, decisions and strategy figures; the
AA Bonus side bet (settled on the first five cards when the player calls) is the game's own."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from analyzer.core.errors import InputError
from analyzer.core.exact import INT64_MAX, abs_bound, as_int64_or_object, as_narrowest_int, exact_masked_sum
from analyzer.games.casino_holdem import features
from analyzer.games.casino_holdem.count import SituationTable
from analyzer.games.casino_holdem.rules import AA_HANDS, HoldemRules
from analyzer.poker.decision_table import DecisionTable, StrategyFigures, play_ev_numerators
from analyzer.poker.hands import CATEGORIES
from cython_ext import handeval

ACE = 12


def aa_bonus_hands(keys: np.ndarray) -> np.ndarray:
    """The AA Bonus hand of each situation's first five cards (hole + flop), as an index into AA_HANDS."""
    values = handeval.evaluate_many(np.ascontiguousarray(keys))
    return aa_bonus_hands_of(handeval.categories(values), handeval.pair_ranks(values))


def aa_bonus_hands_of(category: np.ndarray, pair_rank: np.ndarray) -> np.ndarray:
    """The AA Bonus hands (indices into AA_HANDS, int8) of hands given by category and pair rank (-1: not one pair)."""
    by_category = np.array([AA_HANDS.index(name) if name in AA_HANDS else -1 for name in CATEGORIES], dtype=np.int8)
    hands = by_category[category]
    hands[pair_rank == ACE] = AA_HANDS.index("pair_of_aces")
    hands[(pair_rank >= 0) & (pair_rank != ACE)] = AA_HANDS.index("other_pair")
    return hands


def table_aa_bonus_hands(table: SituationTable) -> np.ndarray:
    """`aa_bonus_hands` of a counted table's classes, from its features' hand and pair rank (kept on it,
    read-only)."""
    if "aa_bonus_hands" not in table.derived:
        values = features.of_table(table)
        hands = aa_bonus_hands_of(values["hand"], values["pair_rank"])
        hands.flags.writeable = False            # the round statistics' groups of it are kept (`side_classes`)
        table.derived["aa_bonus_hands"] = hands
    return table.derived["aa_bonus_hands"]


@dataclass
class Priced:
    """A situation table priced under one rule set: every number a strategy needs."""

    table: SituationTable
    rules: HoldemRules
    decisions: DecisionTable     # the main game: EV of calling per class, over one denominator
    aa_hand: np.ndarray          # AA Bonus hand per class, index into AA_HANDS
    aa_returns: list             # per AA hand: total returned per unit when called, over aa_denominator (ints)
    aa_denominator: int

    @property
    def aa_return(self) -> np.ndarray:
        """Per class: the AA Bonus total returned per unit when called, over aa_denominator (made when asked)."""
        wide = max(map(abs, self.aa_returns)) > INT64_MAX
        return np.array(self.aa_returns, dtype=object if wide else np.int64)[self.aa_hand]

    def aa_wins(self) -> np.ndarray:
        """Per class: whether the AA Bonus wins when called (returns anything: aa_return > 0)."""
        return np.array([r > 0 for r in self.aa_returns])[self.aa_hand]

    @cached_property
    def aa_weighted_bound(self) -> int:
        """A bound of every |aa_weighted|: max weight x max |return|."""
        return int(self.table.weights.max(initial=0)) * max(map(abs, self.aa_returns))

    @cached_property
    def aa_weighted(self) -> np.ndarray:
        """weight x AA Bonus return per class, in the narrowest dtype its bound fits (made once)."""
        bound = self.aa_weighted_bound
        returns = as_int64_or_object(np.array(self.aa_returns, dtype=object), bound)[self.aa_hand]
        return as_narrowest_int(as_int64_or_object(self.table.weights, bound) * returns, bound)

    @property
    def ev_call(self) -> np.ndarray:
        return self.decisions.ev_play

    @property
    def denominator(self) -> int:
        return self.decisions.denominator

    def optimal_call(self) -> tuple[np.ndarray, np.ndarray]:
        """(call, tie): call where calling is strictly better than folding; tie where equal."""
        return self.decisions.optimal()


def price(table: SituationTable, rules: HoldemRules) -> Priced:
    """EV of calling every class (numerators over continuations x the paytable's scale), and the AA Bonus."""
    nets, scale = rules.paytable.net_matrix()
    decisions = DecisionTable(table.weights, play_ev_numerators(table.counts, nets, row_total=table.continuations),
                              scale * table.continuations, rules.call_size)
    hands = table_aa_bonus_hands(table)
    returns = {name: rules.aa_return(name) for name in AA_HANDS}
    aa_denominator = math.lcm(*(r.denominator for r in returns.values()))
    per_hand = [int(returns[name] * aa_denominator) for name in AA_HANDS]
    return Priced(table, rules, decisions, hands, per_hand, aa_denominator)


@dataclass
class HoldemStrategy(StrategyFigures):
    """A call/fold strategy's main-game figures, and its AA Bonus RTP."""

    aa_rtp: Fraction = Fraction(0)            # AA Bonus total returned / total staked (lost on a fold)
    aa_ratio: Fraction | None = None          # AA stake per ANTE when the strategy is jointly optimal

    @property
    def call(self) -> np.ndarray:
        return self.play

    @property
    def p_call(self) -> Fraction:
        return self.p_play


def figures(priced: Priced, name: str, description: str, call: np.ndarray,
            aa_ratio: Fraction | None = None) -> HoldemStrategy:
    """The exact figures of calling where `call` holds."""
    main = priced.decisions.figures(name, description, call)
    aa_returned = exact_masked_sum(priced.aa_weighted, call, priced.aa_weighted_bound)
    return HoldemStrategy(**vars(main), aa_rtp=Fraction(aa_returned, priced.decisions.total_weight * priced.aa_denominator),
                          aa_ratio=aa_ratio)


def jointly_optimal_call(priced: Priced, ratio: Fraction) -> np.ndarray:
    """Call where ANTE + CALL + (ratio x ANTE on the AA Bonus) is worth more than folding both:
    ev_call + ratio x aa_return > -1 (equal values fold), in int64 when the bound allows."""
    ratio = Fraction(ratio)
    d, a = priced.denominator, priced.aa_denominator
    left_scale, right_scale = a * ratio.denominator, ratio.numerator * d
    ev, aa_return = priced.ev_call, priced.aa_return
    if abs_bound(ev) * left_scale + int(aa_return.max()) * right_scale + d * left_scale > INT64_MAX:
        ev, aa_return = ev.astype(object), aa_return.astype(object)
    return np.asarray(ev * left_scale + aa_return * right_scale > -d * left_scale, dtype=bool)


def strategies(priced: Priced, aa_ratio: Fraction | None = None) -> dict:
    """The strategies the operator publishes, plus always-call and the jointly optimal one."""
    optimal, _ = priced.optimal_call()
    aa_wins = priced.aa_wins()
    ratio = priced.rules.aa_ratio if aa_ratio is None else Fraction(aa_ratio)
    if ratio < 0:
        raise InputError(f"the AA Bonus ratio must not be negative, got {ratio}")
    joint = jointly_optimal_call(priced, ratio)
    return {
        "optimal": figures(priced, "optimal", "call exactly when calling beats folding (main game only)", optimal),
        "always_call": figures(priced, "always_call", "call every hand", np.ones(len(optimal), dtype=bool)),
        "call_on_aa_win": figures(priced, "call_on_aa_win",
                                  "call whenever the AA Bonus wins, otherwise the main-game optimal decision",
                                  optimal | aa_wins),
        "joint_optimal": figures(priced, "joint_optimal",
                                 f"call when ANTE + CALL + AA Bonus ({ratio} x ANTE) together beat folding",
                                 joint, aa_ratio=ratio),
    }
