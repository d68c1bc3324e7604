"""Baccarat payouts as design problems: each bet's EV is linear in its payout and in the commission."""
from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import InputError
from analyzer.design.piecewise import Problem, linear_problem
from analyzer.core.rules import value_at, with_value
from analyzer.games.baccarat.price import MainOutcomes, bet_lines, rtp_of
from analyzer.games.baccarat.rules import BaccaratRules

BET_OF = {"payouts.player": "player", "payouts.banker": "banker", "payouts.tie": "tie", "commission.banker": "banker"}


def problem(rule_file, rules: BaccaratRules, shoe_counts: list, key: str, **_) -> Problem:
    """The payout at `key` as a design problem: the bet it pays, per unit staked, on the full shoe
    (BANKER with the commission taken exactly; `banker_commission_by_stake.csv` prices the rounding)."""
    if key not in BET_OF:
        raise InputError(f"--vary {key!r} is not a payout of {rule_file.path} (payouts: {', '.join(BET_OF)})")
    bet = BET_OF[key]
    main = MainOutcomes.from_counts(shoe_counts[0])

    def ev(theta):
        varied = BaccaratRules.from_rule_file(with_value(rule_file, key, Fraction(theta)))
        return rtp_of(bet_lines(main, varied)[bet]) - 1
    return linear_problem(key, f"{bet.upper()}, per unit staked", value_at(rule_file.data, key), ev)
