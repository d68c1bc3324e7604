"""Exact figures of Casino Hold'em basic strategies: their cost against optimal, rule by rule, and the operator's table.

A basic strategy (`analyzer.strategy_language.Strategy` over `analyzer.holdem_features`)
decides every situation class; this module prices those decisions with the exhaustive
per-class EVs of `analyzer.casino_holdem` and returns exact Fractions:

* `basic_figures(priced, strategy)`: the strategy's StrategyFigures (house edge per ANTE,
  main RTP returned / wagered, AA Bonus RTP);
* `rule_costs(priced, strategy)`: for each rule (and the default) the situations it
  decides, those where it disagrees with the optimal decision, the EV it gives up there
  against optimal (these add up exactly to the whole gap) and the change in EV and RTP
  when the rule is struck from the list;
* `three_strategy_table(priced, strategy)`: the operator's three published strategies
  (basic, optimal, call on every AA Bonus win with basic otherwise) with our basic
  strategy in place of the operator's unknown one, beside the published figures;
* Markdown renderings of each, and `basic_strategy_markdown` putting them together.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer import casino_holdem, holdem_features
from analyzer.exact import decimal_str, fraction_str, percent_str, to_fraction
from analyzer.strategy_language import Strategy, strategy_card_markdown
from analyzer.tables import markdown_table


def basic_figures(priced, strategy: Strategy, call: np.ndarray | None = None) -> casino_holdem.StrategyFigures:
    """Exact figures of a basic strategy (its decisions recomputed from the features unless given)."""
    call = holdem_features.decisions(strategy, priced.table.keys) if call is None else call
    return casino_holdem.figures(priced, strategy.name, strategy.title, call)


# --- the cost of each rule ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RuleCost:
    """What one rule (or the default) of a basic strategy decides, and what it costs against optimal."""

    number: int | None            # 1-based rule number; None for the default
    words: str
    action: str
    situations: int               # raw situations this rule decides (the first rule that holds)
    share: Fraction               # of all situations
    disagreements: int            # raw situations where its action is strictly worse than the other
    ev_lost: Fraction             # EV per ANTE given up against optimal on its situations (>= 0)
    ev_if_struck: Fraction | None       # EV per ANTE of the list without this rule, minus the list's
    rtp_if_struck: Fraction | None      # main RTP (returned / wagered) without it, minus the list's


def rule_costs(strategy: Strategy, values: dict, gain: np.ndarray, weights: np.ndarray, scale: int,
               figures_of) -> list[RuleCost]:
    """Per rule and for the default: exact situations decided, disagreements, EV lost, value of the rule.

    Any game: `values` are the strategy's features per class, `gain` per class is weight x
    (EV of the playing action (actions[1]: call, raise) - EV of folding) as exact integers,
    `scale` turns a sum of gains into EV per ANTE, and `figures_of(play)` returns the
    exact (EV per ANTE, RTP) of a decision array.  The EV lost sums, over the situations a
    rule decides, by how much the better action beats the rule's (0 where they agree or
    tie); the losses of every rule and the default add up to the optimal EV minus the
    strategy's EV exactly.
    """
    which = strategy.first_rule(values)
    play = strategy.decide(values) == 1
    if gain.dtype != object and int(np.abs(gain).max()) * len(gain) >= 2**63:
        gain = gain.astype(object)
    lost = np.where(play, np.maximum(-gain, 0), np.maximum(gain, 0))
    w = weights.astype(np.int64)
    total = int(w.sum())
    base_ev, base_rtp = figures_of(play)
    out = []
    entries = [(i, r.words(strategy.features), r.action) for i, r in enumerate(strategy.rules)]
    entries.append((len(strategy.rules), strategy.default_words(), strategy.default))
    for index, words, action in entries:
        mine = which == index
        ev_if = rtp_if = None
        if index < len(strategy.rules):
            struck = Strategy(strategy.game, strategy.name, strategy.title,
                              strategy.rules[:index] + strategy.rules[index + 1:], strategy.default, strategy.features)
            ev, rtp = figures_of(struck.decide(values) == 1)
            ev_if, rtp_if = ev - base_ev, rtp - base_rtp
        decided = int(w[mine].sum())
        out.append(RuleCost(
            number=index + 1 if index < len(strategy.rules) else None, words=words, action=action,
            situations=decided, share=Fraction(decided, total),
            disagreements=int(w[mine & (lost > 0)].sum()),
            ev_lost=Fraction(sum(lost[mine].tolist()), scale), ev_if_struck=ev_if, rtp_if_struck=rtp_if))
    return out


def holdem_rule_costs(priced, strategy: Strategy) -> list[RuleCost]:
    """rule_costs for a Casino Hold'em basic strategy (RTP: returned / wagered, ANTE + CALL on a call)."""
    table, rules = priced.table, priced.rules
    values = holdem_features.compute(table.keys)
    gain = (priced.ev_call - priced.fold_numerator) * table.weights

    def figures_of(call):
        f = casino_holdem.figures(priced, "x", "", call)
        return f.ev, f.main_rtp_per_wager(rules.call_size)
    scale = casino_holdem.exact_sum(table.weights) * priced.denominator
    return rule_costs(strategy, values, gain, table.weights, scale, figures_of)


def rule_costs_markdown(costs: list[RuleCost]) -> str:
    rows = []
    for c in costs:
        rows.append([str(c.number) if c.number else "default", c.words, percent_str(c.share, 3),
                     percent_str(Fraction(c.disagreements, c.situations) if c.situations else Fraction(0), 2),
                     percent_str(c.ev_lost, 4),
                     "" if c.ev_if_struck is None else percent_str(c.ev_if_struck, 4),
                     "" if c.rtp_if_struck is None else percent_str(c.rtp_if_struck, 4)])
    rows.append(["**total**", "", "100.000%", "", f"**{percent_str(sum((c.ev_lost for c in costs), Fraction(0)), 4)}**",
                 "", ""])
    return markdown_table(["rule", "words", "situations decided", "of which against optimal",
                           "EV lost vs optimal (per ANTE)", "EV change if struck", "RTP change if struck"],
                          rows, "llrrrrr")


def rule_costs_csv(costs: list[RuleCost]) -> list[list]:
    """Rows (header first) with exact "p/q" values and decimals beside them."""
    rows = [["rule", "words", "action", "situations", "share", "disagreeing_situations", "ev_lost_per_ante",
             "ev_lost_decimal", "ev_change_if_struck", "rtp_change_if_struck"]]
    for c in costs:
        rows.append([c.number or "default", c.words, c.action, c.situations, fraction_str(c.share), c.disagreements,
                     fraction_str(c.ev_lost), decimal_str(c.ev_lost),
                     "" if c.ev_if_struck is None else fraction_str(c.ev_if_struck),
                     "" if c.rtp_if_struck is None else fraction_str(c.rtp_if_struck)])
    return rows


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
    figures: casino_holdem.StrategyFigures
    main_rtp: Fraction                 # returned / wagered, ANTE + CALL wagered on a call
    aa_rtp: Fraction
    published_main: str | None         # as printed by the operator, or None when the rule file lacks it
    published_aa: str | None

    @property
    def main_minus_published(self) -> Fraction | None:
        return None if self.published_main is None else self.main_rtp - _percent(self.published_main)

    @property
    def aa_minus_published(self) -> Fraction | None:
        return None if self.published_aa is None else self.aa_rtp - _percent(self.published_aa)


def _percent(text: str) -> Fraction:
    return to_fraction(text.strip().rstrip("%")) / 100


def three_strategy_table(priced, strategy: Strategy, published: dict | None = None) -> list[TableRow]:
    """The operator's table with our basic strategy: main and AA Bonus RTPs, exact, beside the published.

    `published` defaults to the rule file's [published] table; a row whose key it lacks
    shows no published figure (the rule file has no key for the third row's main RTP).
    """
    published = priced.rules.published if published is None else published
    basic_call = holdem_features.decisions(strategy, priced.table.keys)
    optimal, _ = priced.optimal_call()
    aa_wins = priced.aa_return > 0
    calls = {"basic": basic_call, "optimal": optimal, "call_on_aa_win_basic": basic_call | aa_wins}
    rows = []
    for row, label, main_key, aa_key in THREE_ROWS:
        f = casino_holdem.figures(priced, row, label, calls[row])
        rows.append(TableRow(row, label, f, f.main_rtp_per_wager(priced.rules.call_size), f.aa_rtp,
                             published.get(main_key), published.get(aa_key)))
    return rows


def three_strategy_markdown(rows: list[TableRow]) -> str:
    def diff(value):
        return "" if value is None else ("+" if value > 0 else "") + decimal_str(value * 100, 4) + " pp"
    body = [[r.label, percent_str(r.figures.p_call, 2), percent_str(r.figures.house_edge, 4),
             percent_str(r.main_rtp, 4), r.published_main or "(not in rule file)", diff(r.main_minus_published),
             percent_str(r.aa_rtp, 4), r.published_aa or "(not in rule file)", diff(r.aa_minus_published)]
            for r in rows]
    return markdown_table(["strategy", "calls", "house edge / ANTE", "main RTP", "published", "ours - published",
                           "AA Bonus RTP", "published", "ours - published"], body, "lrrrrrrrr")


# --- all of it, for the report --------------------------------------------------------------------------

def basic_strategy_markdown(priced, strategy: Strategy) -> str:
    """The strategy card, its exact figures against optimal, the cost of each rule, and the operator's table."""
    rules = priced.rules
    basic = basic_figures(priced, strategy)
    optimal = casino_holdem.figures(priced, "optimal", "", priced.optimal_call()[0])
    rows = three_strategy_table(priced, strategy)
    gap_rtp = optimal.main_rtp_per_wager(rules.call_size) - basic.main_rtp_per_wager(rules.call_size)
    out = [strategy_card_markdown(strategy), "",
           "## Exact figures against optimal play\n",
           markdown_table(["", "basic strategy", "optimal", "basic - optimal"], [
               ["house edge per ANTE", percent_str(basic.house_edge, 6), percent_str(optimal.house_edge, 6),
                percent_str(basic.house_edge - optimal.house_edge, 6)],
               ["main RTP (returned / wagered)", percent_str(basic.main_rtp_per_wager(rules.call_size), 6),
                percent_str(optimal.main_rtp_per_wager(rules.call_size), 6), percent_str(-gap_rtp, 6)],
               ["AA Bonus RTP", percent_str(basic.aa_rtp, 6), percent_str(optimal.aa_rtp, 6),
                percent_str(basic.aa_rtp - optimal.aa_rtp, 6)],
               ["probability of calling", percent_str(basic.p_call, 6), percent_str(optimal.p_call, 6),
                percent_str(basic.p_call - optimal.p_call, 6)],
           ], "lrrr"),
           f"\nExact house edge of the basic strategy: {fraction_str(basic.house_edge)} per ANTE.\n",
           "## What each rule costs\n",
           "Each situation is decided by the first rule that fits it. *EV lost* is what the rule gives up "
           "against the optimal decision on the situations it decides (per ANTE, over all situations); the "
           "column adds up to the whole gap. *If struck* is the change when the rule is removed from the list "
           "(negative: the rule is worth that much).\n",
           rule_costs_markdown(holdem_rule_costs(priced, strategy)),
           "\n## The operator's three strategies\n",
           three_strategy_markdown(rows)]
    return "\n".join(out)


# --- Caribbean Stud ---------------------------------------------------------------------------------------

def stud_rule_costs(priced, strategy: Strategy) -> list[RuleCost]:
    """rule_costs for a Caribbean Stud basic strategy (RTP: returned / wagered, ANTE + raise on a raise)."""
    from analyzer import caribbean_stud, stud_features
    table = priced.table

    def figures_of(raise_):
        f = caribbean_stud.figures(priced, "x", "", raise_)
        return f.ev, f.rtp
    return rule_costs(strategy, stud_features.compute(table.keys), priced.gain, table.weights,
                      table.raw_situations * priced.denominator, figures_of)


@dataclass(frozen=True)
class StudRow:
    name: str
    description: str
    rules: int | None               # rules in the list (None: not a rule list)
    figures: object                 # caribbean_stud.StrategyFigures
    ev_gap: Fraction                # EV per ANTE below optimal (>= 0)
    rtp_gap: Fraction               # optimal RTP minus this RTP (may be negative: RTP is not what optimal maximises)


def stud_strategy_table(priced, strategies: dict) -> list[StudRow]:
    """Optimal play beside rule lists ({name: Strategy}), exact: house edge, RTP, and the gaps to optimal."""
    from analyzer import caribbean_stud, stud_features
    values = stud_features.compute(priced.table.keys)
    optimal = caribbean_stud.figures(priced, "optimal", "raise exactly when raising beats folding", priced.optimal()[0])
    rows = [StudRow("optimal", optimal.description, None, optimal, Fraction(0), Fraction(0))]
    for name, strategy in strategies.items():
        f = caribbean_stud.figures(priced, name, strategy.title, strategy.decide(values) == 1)
        rows.append(StudRow(name, strategy.title, len(strategy.rules), f, optimal.ev - f.ev, optimal.rtp - f.rtp))
    return rows


def stud_strategy_table_markdown(rows: list[StudRow]) -> str:
    body = [[r.name, "" if r.rules is None else str(r.rules), percent_str(r.figures.p_raise, 4),
             percent_str(r.figures.house_edge, 6), percent_str(r.figures.rtp, 6), percent_str(r.ev_gap, 6),
             ("+" if r.rtp_gap < 0 else "") + decimal_str(-r.rtp_gap * 100, 6) + " pp"] for r in rows]
    return markdown_table(["strategy", "rules", "raises", "house edge / ANTE", "RTP (returned / wagered)",
                           "EV below optimal", "RTP minus optimal"], body, "lrrrrrr")


def stud_basic_strategy_markdown(priced, strategy: Strategy, others: dict | None = None) -> str:
    """The Stud card, its figures beside optimal (and beside `others`, e.g. the rule in words), and each rule's cost."""
    rows = stud_strategy_table(priced, {"basic": strategy, **(others or {})})
    basic = rows[1]
    out = [strategy_card_markdown(strategy), "",
           "## Exact figures against optimal play\n",
           stud_strategy_table_markdown(rows),
           f"\nExact house edge of the basic strategy: {fraction_str(basic.figures.house_edge)} per ANTE; "
           f"EV below optimal: {fraction_str(basic.ev_gap)} per ANTE.\n",
           "## What each rule costs\n",
           rule_costs_markdown(stud_rule_costs(priced, strategy))]
    return "\n".join(out)
