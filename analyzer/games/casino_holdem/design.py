"""Casino Hold'em payouts as design problems: a main-game payout under optimal play, or an AA Bonus payout."""
from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import InputError
from analyzer.core.exact import exact_group_sums
from analyzer.core.rules import allowed_range, numeric_keys, value_at, with_value
from analyzer.design.problem import Problem, linear_problem, main_game_problem
from analyzer.games.casino_holdem.price import price
from analyzer.games.casino_holdem.rules import AA_HANDS, SCHEMA, HoldemRules

MAIN = ("ante_pays", "call")
SIDE = ("aa_bonus",)


def problem(rule_file, rules: HoldemRules, key: str, **_) -> Problem:
    """The payout at `key` as a design problem (main game: optimal play at each value; AA Bonus: its RTP
    under the main game's optimal play, which the AA Bonus payouts do not move)."""
    keys = [k for k in numeric_keys(rule_file.data, MAIN + SIDE) if k not in ("call.size", "aa_bonus.ratio")]
    if key not in keys:
        raise InputError(f"--vary {key!r} is not a payout of {rule_file.path} (payouts: {', '.join(keys)})")
    current, allowed = value_at(rule_file.data, key), allowed_range(SCHEMA, key)

    def rules_at(theta):
        return HoldemRules.from_rule_file(with_value(rule_file, key, Fraction(theta)))
    if key.startswith(MAIN):
        return main_game_problem(key, "ANTE + CALL (main game), per ANTE; RTP = returned / wagered", current,
                                 lambda table, theta: price(table, rules_at(theta)).decisions, allowed=allowed)

    def aa_ev_of(table):
        # The AA Bonus payouts move neither the main game's optimal calls nor which AA hand each class
        # holds: the called weight of each AA hand is counted once, and theta only re-weighs its returns.
        priced = price(table, rules)
        call, _ = priced.optimal_call()
        called = exact_group_sums(priced.aa_hand[call], table.weights[call], len(AA_HANDS))
        return lambda theta: sum((int(w) * rules_at(theta).aa_return(name) for w, name in zip(called, AA_HANDS)),
                                 Fraction(0)) / priced.decisions.total_weight - 1
    return linear_problem(key, "AA Bonus, per unit staked, under the main game's optimal play", current, aa_ev_of,
                          allowed=allowed)
