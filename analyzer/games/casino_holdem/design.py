"""Casino Hold'em payouts as design problems: a main-game payout under optimal play, or an AA Bonus payout."""
from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import InputError
from analyzer.core.exact import exact_dot
from analyzer.core.piecewise import Problem, linear_problem
from analyzer.core.rules import numeric_keys, value_at, with_value
from analyzer.games.casino_holdem.count import SituationTable
from analyzer.games.casino_holdem.price import price
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.poker.design import main_game_problem

MAIN = ("ante_pays", "call")
SIDE = ("aa_bonus",)


def problem(rule_file, rules: HoldemRules, table: SituationTable, key: str, **_) -> Problem:
    """The payout at `key` as a design problem (main game: optimal play at each value; AA Bonus: its RTP
    under the main game's optimal play, which the AA Bonus payouts do not move)."""
    keys = [k for k in numeric_keys(rule_file.data, MAIN + SIDE) if k not in ("call.size", "aa_bonus.ratio")]
    if key not in keys:
        raise InputError(f"--vary {key!r} is not a payout of {rule_file.path} (payouts: {', '.join(keys)})")
    current = value_at(rule_file.data, key)

    def rules_at(theta):
        return HoldemRules.from_rule_file(with_value(rule_file, key, Fraction(theta)))
    if key.startswith(MAIN):
        return main_game_problem(key, "ANTE + CALL (main game), per ANTE; RTP = returned / wagered", current,
                                 lambda theta: price(table, rules_at(theta)).decisions)
    call, _ = price(table, rules).optimal_call()

    def aa_ev(theta):
        priced = price(table, rules_at(theta))
        returned = exact_dot(table.weights[call], priced.aa_return[call])
        return Fraction(returned, priced.decisions.total_weight * priced.aa_denominator) - 1
    return linear_problem(key, "AA Bonus, per unit staked, under the main game's optimal play", current, aa_ev)

