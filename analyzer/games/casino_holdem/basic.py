"""Casino Hold'em basic strategies priced exactly: each rule's cost, and the operator's three-strategy table
(ours in place of the operator's unknown basic strategy, beside the published figures)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.exact import decimal_str, fraction_str, percent_str, to_fraction
from analyzer.figures.tables import markdown_table
from analyzer.games.casino_holdem import features
from analyzer.games.casino_holdem.price import HoldemStrategy, Priced, figures
from analyzer.strategy.costs import RuleCost, rule_costs, rule_costs_markdown
from analyzer.strategy.language import Strategy, strategy_card_markdown
from analyzer.strategy.search import derive_basic


def basic_figures(priced: Priced, strategy: Strategy) -> HoldemStrategy:
    """Exact figures of a basic strategy, its decisions computed from the features."""
    call = features.decisions(strategy, features.of_table(priced.table))
    return figures(priced, strategy.name, strategy.title, call)


def holdem_rule_costs(priced: Priced, strategy: Strategy) -> list[RuleCost]:
    """rule_costs for a Casino Hold'em basic strategy (RTP: returned / wagered, ANTE + CALL on a call)."""
    return rule_costs(strategy, features.of_table(priced.table), priced.decisions)


# --- the operator's three-strategy table ---------------------------------------------------------------

THREE_ROWS = (
    # (row, what the operator calls it, main RTP key, AA Bonus RTP key in the rule file's [published])
    ("basic", "basic strategy (ours in place of the operator's)", "basic_main_rtp", "basic_aa_bonus_rtp"),
    ("optimal", "optimal strategy", "optimal_main_rtp", "optimal_aa_bonus_rtp"),
    ("call_on_aa_win_basic", "call on every AA Bonus win, basic strategy otherwise", "call_on_aa_win_main_rtp",
     "call_on_aa_win_aa_bonus_rtp"),
)


@dataclass(frozen=True)
class TableRow:
    row: str
    label: str
    figures: HoldemStrategy
    main_rtp: Fraction                 # returned / wagered, ANTE + CALL wagered on a call
    aa_rtp: Fraction
    published_main: str | None         # as printed by the operator, or None when the rule file lacks it
    published_aa: str | None


def three_strategy_table(priced: Priced, strategy: Strategy,
                         priced_figures: dict | None = None) -> list[TableRow]:
    """The operator's table with our basic strategy: main and AA Bonus RTPs, exact, beside the rule file's
    published ones (`priced_figures`: what the analysis already has by row)."""
    published = priced.rules.published
    known = dict(priced_figures or {})
    if any(row not in known for row, *_ in THREE_ROWS):
        basic_call = features.decisions(strategy, features.of_table(priced.table))
        optimal, _ = priced.optimal_call()
        calls = {"basic": basic_call, "optimal": optimal, "call_on_aa_win_basic": basic_call | priced.aa_wins()}
        known = {row: known.get(row) or figures(priced, row, label, calls[row]) for row, label, *_ in THREE_ROWS}
    return [TableRow(row, label, known[row], known[row].rtp, known[row].aa_rtp, published.get(main_key),
                     published.get(aa_key)) for row, label, main_key, aa_key in THREE_ROWS]


def three_strategy_markdown(rows: list[TableRow]) -> str:
    def diff(ours: Fraction, published: str | None) -> str:
        """Ours minus the published percentage, in percentage points ("" when none is published)."""
        if published is None:
            return ""
        value = ours - to_fraction(published.strip().rstrip("%")) / 100
        return ("+" if value > 0 else "") + decimal_str(value * 100, 4) + " pp"
    body = [[r.label, percent_str(r.figures.p_call, 2), percent_str(r.figures.house_edge, 4)]
            + [cell for ours, published in ((r.main_rtp, r.published_main), (r.aa_rtp, r.published_aa))
               for cell in (percent_str(ours, 4), published or "(not in rule file)", diff(ours, published))]
            for r in rows]
    return markdown_table(["strategy", "calls", "house edge / ANTE", "main RTP", "published", "ours - published",
                           "AA Bonus RTP", "published", "ours - published"], body, "lrrrrrrrr")


# --- all of it, for the report --------------------------------------------------------------------------

def basic_strategy_markdown(priced: Priced, strategy: Strategy, rows: list | None = None,
                            priced_figures: dict | None = None, costs: list[RuleCost] | None = None) -> str:
    """The strategy card, its exact figures against optimal, the cost of each rule, and the operator's table
    (`priced_figures`, `costs`: what the caller already has)."""
    known = priced_figures or {}
    basic = known.get("basic") or basic_figures(priced, strategy)
    optimal = known.get("optimal") or figures(priced, "optimal", "", priced.optimal_call()[0])
    rows = three_strategy_table(priced, strategy, priced_figures=known) if rows is None else rows
    side_by_side = [[label] + [percent_str(value, 6) for value in (ours, best, ours - best)]
                    for label, ours, best in (("house edge per ANTE", basic.house_edge, optimal.house_edge),
                                              ("main RTP (returned / wagered)", basic.rtp, optimal.rtp),
                                              ("AA Bonus RTP", basic.aa_rtp, optimal.aa_rtp),
                                              ("probability of calling", basic.p_call, optimal.p_call))]
    out = [strategy_card_markdown(strategy), "",
           "## Exact figures against optimal play\n",
           markdown_table(["", "basic strategy", "optimal", "basic - optimal"], side_by_side, "lrrr"),
           f"\nExact house edge of the basic strategy: {fraction_str(basic.house_edge)} per ANTE.\n",
           "## What each rule costs\n",
           "Each situation is decided by the first rule that fits it. *EV lost* is what the rule gives up "
           "against the optimal decision on the situations it decides (per ANTE, over all situations); the "
           "column adds up to the whole gap. *If struck* is the change when the rule is removed from the list "
           "(negative: the rule is worth that much).\n",
           rule_costs_markdown(holdem_rule_costs(priced, strategy) if costs is None else costs),
           "\n## The operator's three strategies\n",
           three_strategy_markdown(rows)]
    return "\n".join(out)


# --- deriving it -----------------------------------------------------------------------------------------

# The derivation starts from (and keeps) two rules a player knows anyway: without them the greedy first
# step is "call everything" and the list that grows from it is worse.
DERIVATION_PARAMETERS = {
    "max_rules": 12, "max_conditions": 3, "beam": 6, "penalty": 2e-6,
    "features": ("hand", "pair_rank", "pair_type", "board_above_pair", "kicker", "high_hole", "low_hole",
                 "overcards", "draw", "three_flush", "board_paired", "board_suits", "board_low",
                 "board_deuces_treys"),
    "seed": """
[strategy]
game = "casino-holdem"
name = "basic"
title = "Casino Hold'em basic strategy"
default = "fold"

[[rule]]
then = "call"
if = { hand = { min = "one_pair" } }

[[rule]]
then = "call"
if = { draw = { min = "inside_straight" } }
""",
}
SEEDED = ("starting from (and keeping) its first two rules, 'call with a pair or better' and "
          "'call with a straight or flush draw'")


def derive(priced: Priced, rule_set: str, log=None) -> Strategy:
    """The Casino Hold'em basic strategy derived from exact call margins (`analyzer.strategy.search`)."""
    return derive_basic(features.FEATURE_SET, features.of_table(priced.table), priced.decisions.gain,
                        priced.denominator * priced.decisions.total_weight, "Casino Hold'em basic strategy",
                        DERIVATION_PARAMETERS, log)
