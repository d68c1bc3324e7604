"""Baccarat payouts as design problems: each bet's EV is linear in its payout and in the commission."""
from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import InputError
from analyzer.core.rules import allowed_range, value_at, with_value
from analyzer.design.problem import Problem, linear_problem
from analyzer.games.baccarat.price import MainOutcomes, bet_lines, rtp_of
from analyzer.games.baccarat.rules import SCHEMA, BaccaratRules

BET_OF = {"payouts.player": "player", "payouts.banker": "banker", "payouts.tie": "tie", "commission.banker": "banker"}


def problem(rule_file, rules: BaccaratRules, key: str, **_) -> Problem:
    """The payout at `key` as a design problem: the bet it pays, per unit staked, on the full shoe
    (BANKER with the commission taken exactly; `banker_commission_by_stake.csv` prices the rounding)."""
    if key not in BET_OF:
        raise InputError(f"--vary {key!r} is not a payout of {rule_file.path} (payouts: {', '.join(BET_OF)})")
    bet = BET_OF[key]

    def ev_of(shoe_counts):
        main = MainOutcomes.from_counts(shoe_counts[0])
        return lambda theta: rtp_of(bet_lines(main, BaccaratRules.from_rule_file(
            with_value(rule_file, key, Fraction(theta))))[bet]) - 1
    return linear_problem(key, f"{bet.upper()}, per unit staked", value_at(rule_file.data, key), ev_of,
                          allowed=allowed_range(SCHEMA, key))
