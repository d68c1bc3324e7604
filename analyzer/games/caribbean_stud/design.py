"""Caribbean Stud payouts as design problems: a main-game payout under optimal play, or the progressive, whose
RTP is linear in each amount, each jackpot share and the jackpot J itself ("progressive.jackpot")."""
from __future__ import annotations

from fractions import Fraction

from analyzer.core.errors import InputError
from analyzer.core.rules import allowed_range, numeric_keys, value_at, with_value
from analyzer.design.problem import Problem, linear_problem, main_game_problem
from analyzer.games.caribbean_stud.count import hand_category_counts
from analyzer.games.caribbean_stud.price import price
from analyzer.games.caribbean_stud.progressive import rtp_function, value_at_jackpot
from analyzer.games.caribbean_stud.rules import SCHEMA, StudRules

MAIN = ("ante_pays", "raise_pays", "raise_pays_dealer_not_qualified")
JACKPOT = "progressive.jackpot"


def problem(rule_file, rules: StudRules, key: str, jackpot=None, **_) -> Problem:
    """The payout at `key` as a design problem (a progressive amount's RTP at `jackpot`, default the rule
    file's first jackpot level)."""
    keys = [k for k in numeric_keys(rule_file.data, MAIN + ("progressive",))
            if k not in ("progressive.stake",) and not k.startswith("progressive.jackpot_levels")] + [JACKPOT]
    if key not in keys:
        raise InputError(f"--vary {key!r} is not a payout of {rule_file.path} (payouts: {', '.join(keys)})")

    def rules_at(theta):
        return StudRules.from_rule_file(with_value(rule_file, key, Fraction(theta)))
    if key == JACKPOT:
        def ev_of(table):
            rtp = rtp_function(rules.progressive, hand_category_counts(table))
            return lambda j: value_at_jackpot(rtp, Fraction(j)) - 1
        return linear_problem(key, "progressive, per unit staked, as a function of the jackpot J",
                              rules.progressive.levels[0], ev_of)
    allowed, current = allowed_range(SCHEMA, key), value_at(rule_file.data, key)
    if key.startswith(MAIN):
        return main_game_problem(key, "ANTE + raise (main game), per ANTE; RTP = returned / wagered", current,
                                 lambda table, theta: price(table, rules_at(theta)).decisions, allowed=allowed)
    level = Fraction(jackpot) if jackpot is not None else rules.progressive.levels[0]

    def amount_ev_of(table):
        counts = hand_category_counts(table)
        return lambda theta: value_at_jackpot(rtp_function(rules_at(theta).progressive, counts), level) - 1
    return linear_problem(key, f"progressive, per unit staked, at a jackpot of {level}", current, amount_ev_of,
                          allowed=allowed, jackpot=level)
