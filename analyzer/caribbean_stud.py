"""Caribbean Stud Poker: exact raise/fold values for every (hand, up card), the rule in words, the progressive.

The kernel (`cython_ext.stud_enum`, driven by `analyzer.stud_situations`) counts, for
every suit class of (player hand, dealer up card), the dealer's completions that do not
qualify, lose to, tie and beat the player's hand.  Those counts do not depend on any
paytable, so one count serves every rule set on the same deck and qualifier.  This
module prices them with a rule file's paytables, decides raise or fold, evaluates
simple strategies and the derived rule in words, prices the progressive jackpot as an
exact function of the jackpot, and writes the results folder.
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

from analyzer import plots, strategy_file
from analyzer.cards import CardError, card_str, cards_str, check_disjoint, parse_cards
from analyzer.exact import decimal_str, figure, fraction_str, percent_str, published_check
from analyzer.isomorphism import canonical_groups
from analyzer.execution import Executor
from analyzer.output import ResultFolder, json_bytes
from analyzer.report import ReportContent, demote, publish_with_report
from analyzer.poker import (CATEGORIES, CATEGORY_WORDS, DECK_SCHEMA, QUALIFIER_SCHEMA, deck_cards,
                            qualifier_value, qualifier_words)
from analyzer.rules import (GAME_HEADER, RuleError, RuleFile, boolean, builtin_rule_paths, list_of,
                            load_rule_file, number, table, text)
from analyzer.stud_situations import SituationCounts, cached_counts, count_classes, exact_group_sums
from analyzer.stud_strategy_rule import Features, RuleCheck, check_rule, derive_rule
from analyzer.tables import csv_text, markdown_table, thousands
from analyzer.verify import CheckOptions
from cython_ext import handeval, stud_enum

GAME = "caribbean-stud"
OUTCOMES = ("dealer_not_qualified", "player_wins", "tie", "dealer_wins")
OUTCOME_WORDS = ("dealer does not qualify", "player wins", "tie", "dealer wins")
N_CATEGORIES, N_OUTCOMES = len(CATEGORIES), len(OUTCOMES)
NOT_QUALIFIED, PLAYER_WINS, TIE, DEALER_WINS = range(N_OUTCOMES)
PUBLISHED_KEYS = ("house_edge", "raise_probability")
INT63 = 2**63 - 1

MAX_PATTERNS_SHOWN = 200             # exception patterns listed in strategy_rule.md (all are in the CSV)

_optional_categories = table({name: number() for name in CATEGORIES}, optional=CATEGORIES)
SCHEMA = table({
    "game": GAME_HEADER,
    "deck": DECK_SCHEMA,
    "qualifier": QUALIFIER_SCHEMA,
    "raise": table({"size": number(minimum=Fraction(1, 10**6))}),
    "ante_pays": table({"dealer_does_not_qualify": number(), "player_wins": number()}),
    "raise_pays": table({name: number() for name in CATEGORIES}),
    "raise_pays_dealer_not_qualified": table({name: number() for name in CATEGORIES}),
    "progressive": table({
        "stake": number(minimum=Fraction(1, 10**6)),
        "stake_returned_with_win": boolean(),
        "jackpot_levels": list_of(number(minimum=Fraction(1, 10**6)), min_length=1),
        "jackpot_share": table({name: number(maximum=1) for name in CATEGORIES}, optional=CATEGORIES),
        "pays": _optional_categories,
    }),
    "published": table({key: text() for key in PUBLISHED_KEYS}, optional=PUBLISHED_KEYS),
}, optional=("published",))

# Simple strategies to compare with the optimal one: raise with this hand or better
# (the qualifier's vocabulary: a category and its leading ranks), and how to say so.
SIMPLE_STRATEGIES = {
    "raise_pair_or_better": ({"category": "one_pair", "ranks": []}, "raise with a pair or better"),
    "raise_ace_king_or_better": ({"category": "high_card", "ranks": ["A", "K"]}, "raise with ace-king or better"),
    "raise_everything": ({"category": "high_card", "ranks": []}, "raise every hand"),
}


@dataclass(frozen=True)
class Progressive:
    """The progressive side bet: a fixed stake, paid on the player's own five cards."""

    stake: Fraction
    stake_returned: bool
    jackpot_share: tuple         # by category: share of the jackpot J paid
    pays: tuple                  # by category: fixed amount paid
    levels: tuple                # jackpot amounts to tabulate

    def payment(self, category: int, jackpot) -> object:
        return self.jackpot_share[category] * jackpot + self.pays[category]

    def wins(self, category: int) -> bool:
        return bool(self.jackpot_share[category] or self.pays[category])


@dataclass(frozen=True)
class StudRules:
    """The checked rules of one Caribbean Stud variant."""

    cards: tuple                 # the deck's card indices
    qualifier: dict              # {category, ranks} as written
    qualifier_value: int         # smallest qualifying hand value
    raise_size: Fraction         # BET (raise) = raise_size x ANTE
    ante_not_qualified: Fraction  # ANTE paid "to 1" when the dealer does not qualify
    ante_wins: Fraction          # ANTE paid "to 1" when the player beats a qualifying dealer
    raise_pays: tuple            # by category, "to 1", dealer qualifies and the player wins
    raise_pays_not_qualified: tuple  # by category, "to 1" (0 = push), dealer does not qualify
    progressive: Progressive
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "StudRules":
        data, file = rule_file.data, str(rule_file.path)
        cards = deck_cards(data["deck"], file)
        if len(cards) < stud_enum.MIN_DECK_CARDS:
            raise RuleError(file, "deck", f"{len(cards)} cards cannot deal a round (5 for the player, 5 for "
                                          "the dealer, and at least 4 left to complete the dealer's hand)")
        prog = data["progressive"]
        return cls(cards=tuple(cards), qualifier=data["qualifier"],
                   qualifier_value=qualifier_value(data["qualifier"], file),
                   raise_size=data["raise"]["size"],
                   ante_not_qualified=data["ante_pays"]["dealer_does_not_qualify"],
                   ante_wins=data["ante_pays"]["player_wins"],
                   raise_pays=tuple(data["raise_pays"][name] for name in CATEGORIES),
                   raise_pays_not_qualified=tuple(data["raise_pays_dealer_not_qualified"][name]
                                                  for name in CATEGORIES),
                   progressive=Progressive(
                       stake=prog["stake"], stake_returned=prog["stake_returned_with_win"],
                       jackpot_share=tuple(prog["jackpot_share"].get(name, Fraction(0)) for name in CATEGORIES),
                       pays=tuple(prog["pays"].get(name, Fraction(0)) for name in CATEGORIES),
                       levels=tuple(sorted(set(prog["jackpot_levels"])))),
                   published=data.get("published", {}))

    @property
    def qualifier_rank(self) -> int:
        return handeval.dense_at_least(self.qualifier_value)

    def net(self, category: int, outcome: int) -> Fraction:
        """Net result per ANTE of a raised hand of this category with this outcome."""
        if outcome == NOT_QUALIFIED:
            return self.ante_not_qualified + self.raise_size * self.raise_pays_not_qualified[category]
        if outcome == PLAYER_WINS:
            return self.ante_wins + self.raise_size * self.raise_pays[category]
        if outcome == TIE:
            return Fraction(0)
        return -(1 + self.raise_size)

    def net_matrix(self) -> tuple[np.ndarray, int]:
        """(integer nets (10, 4), scale): net(c, o) = nets[c, o] / scale, scale the least common one."""
        nets = [[self.net(c, o) for o in range(N_OUTCOMES)] for c in range(N_CATEGORIES)]
        scale = math.lcm(*(x.denominator for row in nets for x in row))
        return np.array([[int(x * scale) for x in row] for row in nets], dtype=object), scale


def load_rules(path=None) -> tuple[RuleFile, StudRules]:
    """The built-in operator rules, or the rule file at `path`."""
    rule_file = load_rule_file(path or builtin_rule_paths(GAME)[0], GAME, SCHEMA)
    return rule_file, StudRules.from_rule_file(rule_file)


# --- pricing -----------------------------------------------------------------------------------

def exact_sum(values: np.ndarray) -> int:
    """The exact integer sum of an integer array: int64 when the bound allows, else Python integers."""
    if values.size == 0:
        return 0
    if values.dtype != object and int(np.abs(values).max()) * values.size <= INT63:
        return int(values.sum(dtype=np.int64))
    return sum(int(v) for v in values.ravel().tolist())


@dataclass
class Priced:
    """Every class's exact EV of raising, per ANTE, as an integer numerator over `denominator`."""

    table: SituationCounts
    rules: StudRules
    ev_raise: np.ndarray         # int64 numerators (object if they would not fit)
    denominator: int             # completions x the paytable's common scale
    gain: np.ndarray             # weight x (EV raise - EV fold) numerators: what each decision is worth

    @property
    def fold_numerator(self) -> int:
        return -self.denominator

    def optimal(self) -> tuple[np.ndarray, np.ndarray]:
        """(raise, tie): raise where raising is strictly better than folding; tie where exactly equal."""
        return self.ev_raise > self.fold_numerator, self.ev_raise == self.fold_numerator


def price(table: SituationCounts, rules: StudRules) -> Priced:
    """EV numerators of raising: sum over outcomes of count x net, each class in one pass."""
    nets, scale = rules.net_matrix()
    # |numerator| <= completions x max |net| x scale, and a gain is at most 24 times that
    # plus the fold's: int64 while 25 x that bound fits.
    bound = table.completions * max(abs(int(x)) for x in nets.ravel()) * scale
    category = table.player_category
    denominator = table.completions * scale
    if 25 * bound <= INT63:
        nets64 = nets.astype(np.int64)
        ev = np.zeros(len(table), dtype=np.int64)
        term = np.empty(len(table), dtype=np.int64)           # one scratch array, no temporaries
        for outcome in range(N_OUTCOMES):
            column = nets64[:, outcome]
            if (column == column[0]).all():          # the same for every hand: no lookup by category
                if column[0]:
                    np.multiply(table.counts[:, outcome], column[0], out=term)
                    ev += term
            else:
                np.take(column, category, out=term)
                term *= table.counts[:, outcome]
                ev += term
        gain = np.add(ev, denominator, out=term)
        gain *= table.weights
    else:
        ev = sum(table.counts[:, o].astype(object) * nets[category, o] for o in range(N_OUTCOMES))
        gain = table.weights.astype(object) * (ev + denominator)
    return Priced(table, rules, ev, denominator, gain)


@dataclass
class StrategyFigures:
    """Exact figures of one raise/fold strategy, per ANTE unless said otherwise."""

    name: str
    description: str
    raise_: np.ndarray           # decision per class
    p_raise: Fraction            # probability of raising, over raw situations
    ev: Fraction                 # EV per ANTE (the house edge is -ev)
    raise_size: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def average_wager(self) -> Fraction:
        """ANTE + raise x P(raise), per ANTE."""
        return 1 + self.raise_size * self.p_raise

    @property
    def element_of_risk(self) -> Fraction:
        """House edge over the average total wager."""
        return self.house_edge / self.average_wager

    @property
    def rtp(self) -> Fraction:
        """Total returned (stakes included) over total wagered."""
        return (self.average_wager + self.ev) / self.average_wager


def figures(priced: Priced, name: str, description: str, raise_: np.ndarray) -> StrategyFigures:
    weights = priced.table.weights
    total = priced.table.raw_situations
    raised_weight = int(weights.sum(where=raise_, dtype=np.int64))
    # EV sum = sum(weight x fold) + sum over raised classes of the gain.
    gained = exact_sum(priced.gain[raise_])
    ev_sum = total * priced.fold_numerator + gained
    return StrategyFigures(name=name, description=description, raise_=raise_,
                           p_raise=Fraction(raised_weight, total),
                           ev=Fraction(ev_sum, total * priced.denominator), raise_size=priced.rules.raise_size)


def hand_at_least(table: SituationCounts, hand: dict) -> np.ndarray:
    """Classes whose player hand is this {category, ranks} hand or better."""
    return table.player_rank >= handeval.dense_at_least(qualifier_value(hand, "built-in strategy"))


def strategies(priced: Priced, rule_check: RuleCheck) -> dict:
    table = priced.table
    raise_, _ = priced.optimal()
    out = {"optimal": figures(priced, "optimal", "raise exactly when raising beats folding (exact ties fold)",
                              raise_)}
    for name, (hand, words) in SIMPLE_STRATEGIES.items():
        out[name] = figures(priced, name, words, hand_at_least(table, hand))
    out["rule_in_words"] = figures(priced, "rule_in_words", "the derived rule in words (strategy_rule.md)",
                                   rule_check.raises)
    return out


# --- the progressive jackpot ---------------------------------------------------------------

JACKPOT = sympy.Symbol("J", positive=True)


def hand_category_counts(table: SituationCounts) -> list[int]:
    """How many of the deck's C(n, 5) hands fall in each category (from the class weights)."""
    per_up = len(table.cards) - 5
    totals = [int(t) for t in exact_group_sums(table.player_category, table.weights, N_CATEGORIES)]
    if sum(totals) != table.raw_situations or any(t % per_up for t in totals):
        raise AssertionError("class weights do not split evenly over the up cards")
    return [t // per_up for t in totals]


@dataclass
class ProgressiveFigures:
    counts: list                 # hands of each category
    hands: int                   # C(n, 5)
    rtp: sympy.Expr              # total returned / total staked, a function of J
    break_even: Fraction | None  # the jackpot at which RTP = 1 (None if no hand pays a share of it)
    table: list                  # [(jackpot, rtp)] at the rule file's levels
    lines: list                  # PAR lines, best hand first: category, combinations, pays, contribution
    rtp_text: str                # str(rtp), made once (the files are written without sympy)


def progressive_figures(table: SituationCounts, prog: Progressive) -> ProgressiveFigures:
    counts = hand_category_counts(table)
    hands = sum(counts)
    stake = sympy.Rational(prog.stake.numerator, prog.stake.denominator)
    returned = sympy.Integer(0)
    for c in range(N_CATEGORIES):
        if not prog.wins(c):
            continue
        share, pays = (sympy.Rational(x.numerator, x.denominator) for x in (prog.jackpot_share[c], prog.pays[c]))
        payment = share * JACKPOT + pays + (stake if prog.stake_returned else 0)
        returned += sympy.Rational(counts[c], hands) * payment
    rtp = sympy.expand(returned / stake)
    solutions = sympy.solve(sympy.Eq(rtp, 1), JACKPOT) if rtp.has(JACKPOT) else []
    break_even = Fraction(int(solutions[0].p), int(solutions[0].q)) if solutions else None
    levels = [(level, _fraction(rtp.subs(JACKPOT, sympy.Rational(level.numerator, level.denominator))))
              for level in prog.levels]
    return ProgressiveFigures(counts, hands, rtp, break_even, levels, progressive_lines(prog, counts, hands),
                              str(rtp))


def progressive_lines(p: Progressive, counts: list, hands: int) -> list[dict]:
    """Each hand's PAR line; the contribution to RTP as text (a function of J for the jackpot hand)."""
    stake = sympy.Rational(p.stake.numerator, p.stake.denominator)
    lines = []
    for c in range(N_CATEGORIES - 1, -1, -1):
        share, pays = p.jackpot_share[c], p.pays[c]
        words = []
        if share:
            words.append(f"{percent_str(share, 0)} of J" if share * 100 == int(share * 100) else f"{share} x J")
        if pays:
            words.append(f"EUR {decimal_str(pays, 2)}")
        returned = 0
        if p.wins(c):
            returned = share * JACKPOT + sympy.Rational(pays.numerator, pays.denominator) \
                + (stake if p.stake_returned else 0)
        contribution = sympy.Rational(counts[c], hands) * returned / stake
        exact = None if getattr(contribution, "free_symbols", None) else _fraction(contribution)
        lines.append({"category": c, "combinations": counts[c], "pays": " + ".join(words) or "loses",
                      "contribution": str(contribution), "contribution_exact": exact})
    return lines


def _fraction(value) -> Fraction:
    value = sympy.Rational(value)
    return Fraction(int(value.p), int(value.q))


# --- one situation, for people ---------------------------------------------------------------

@dataclass(frozen=True)
class Advice:
    decision: str                # "raise", "fold", or "either" (exactly equal EVs)
    ev_raise: Fraction           # per ANTE
    ev_fold: Fraction
    counts: tuple                # dealer completions: not qualified / player wins / tie / dealer wins

    @property
    def margin(self) -> Fraction:
        return self.ev_raise - self.ev_fold


def parse_situation(hand: str, up: str) -> tuple[list[int], int]:
    hand_cards = parse_cards(hand, 5, "the hand")
    up_cards = parse_cards(up, 1, "the up card")
    check_disjoint({"the hand": hand_cards, "the up card": up_cards})
    return hand_cards, up_cards[0]


def advise(hand: str = "Ah Kd 9s 5c 2h", up: str = "Qd", rules: StudRules | None = None) -> Advice:
    """Raise or fold for concrete cards, with both exact EVs per ANTE.

    >>> advise("Ah Kd 9s 5c 2h", "Qd").decision
    'fold'

    Reads the class from this process's count when one is cached; otherwise counts the one
    situation with the kernel (a fraction of a second).  Raises CardError for malformed or
    duplicate cards, a wrong number of cards, or cards outside the rule set's deck.
    """
    rules = rules or load_rules()[1]
    hand_cards, up_card = parse_situation(hand, up)
    outside = [c for c in hand_cards + [up_card] if c not in rules.cards]
    if outside:
        raise CardError(f"card {card_str(outside[0])} is not in this rule set's deck")
    key = [c for group in canonical_groups((hand_cards, [up_card])) for c in group]
    cached = cached_counts(rules.cards, rules.qualifier_rank)
    if cached is not None:
        keys = cached.keys
        row = int(np.searchsorted(_packed(cached), _pack_one(key)))
        counts = cached.counts[row]
        category = int(cached.player_category[row])
        if keys[row].tolist() != key:
            raise AssertionError("a canonical situation is missing from the class table")
    else:
        one = np.array([key], dtype=np.uint8)
        counts_all, _, categories = stud_enum.count_situations(np.array(rules.cards, dtype=np.uint8), one,
                                                               rules.qualifier_rank)
        counts, category = counts_all[0], int(categories[0])
    total = int(counts.sum())
    ev_raise = sum((Fraction(int(counts[o]), total) * rules.net(category, o) for o in range(N_OUTCOMES)),
                   Fraction(0))
    ev_fold = Fraction(-1)
    decision = "raise" if ev_raise > ev_fold else "fold" if ev_raise < ev_fold else "either"
    return Advice(decision, ev_raise, ev_fold, tuple(int(x) for x in counts))


_PACKED: dict = {}


def _packed(table: SituationCounts) -> np.ndarray:
    """The class keys as sortable integers (made once per count)."""
    if _PACKED.get("table") is not table:
        _PACKED.update(table=table, packed=strategy_file.pack_keys(table.keys))
    return _PACKED["packed"]


def _pack_one(key: list[int]) -> np.uint64:
    value = 0
    for card in key:
        value = value << 8 | card
    return np.uint64(value)


# --- the analysis ----------------------------------------------------------------------------

@dataclass
class StudAnalysis:
    rule_file: RuleFile
    rules: StudRules
    priced: Priced
    rule_check: RuleCheck
    strategies: dict
    progressive: ProgressiveFigures | None
    par: list | None = field(default=None, repr=False)
    strategy_bytes: bytes | None = field(default=None, repr=False)     # the strategy file, once encoded
    basic: object = None             # the committed basic strategy of this rule set, if any

    @property
    def table(self) -> SituationCounts:
        return self.priced.table

    @property
    def total_deals(self) -> int:
        return self.table.raw_situations * self.table.completions


def analyse(rule_file: RuleFile, rules: StudRules, progress=None, executor: Executor | None = None) -> StudAnalysis:
    """Count (or reuse this process's count), price, derive and check the rule, and the progressive."""
    table = count_classes(rules.cards, rules.qualifier_rank, executor)
    analysis = decide(rule_file, rules, table, progress)
    analysis.progressive = progressive_figures(table, rules.progressive)
    return analysis


def decide(rule_file: RuleFile, rules: StudRules, table: SituationCounts, progress=None) -> StudAnalysis:
    """Everything but the progressive: prices, the rule in words, the strategies (numpy only)."""
    _step(progress, f"{rule_file.name}: prices")
    priced = price(table, rules)
    features = features_of(table)
    gain = priced.gain
    scale = table.raw_situations * priced.denominator
    _step(progress, f"{rule_file.name}: rule in words")
    rule_check = check_rule(derive_rule(features, gain), features, gain, scale)
    _step(progress, f"{rule_file.name}: figures")
    st = strategies(priced, rule_check)
    basic = basic_strategy_for(rule_file.name)
    if basic is not None:
        from analyzer import stud_features
        st["basic"] = figures(priced, "basic", "the basic strategy card (basic_strategy.md)",
                              stud_features.decisions(basic, table.keys))
    return StudAnalysis(rule_file, rules, priced, rule_check, st, None, basic=basic)


def basic_strategy_for(rule_set: str):
    """The committed basic strategy of a built-in rule set (analyzer/strategies/), or None."""
    from analyzer import stud_features
    from analyzer.strategy_language import builtin_strategy_path
    if not builtin_strategy_path(GAME, f"{rule_set}.basic").is_file():
        return None
    return stud_features.basic_strategy(rule_set)


_FEATURES: dict = {}


def features_of(table: SituationCounts) -> Features:
    """What the player sees in each class (made once per count, shared by the rule sets)."""
    if _FEATURES.get("table") is not table:
        _FEATURES.update(table=table, features=Features.of(table.keys, table.player_category, table.player_rank))
    return _FEATURES["features"]


def _step(progress, description: str) -> None:
    if progress is not None:
        progress.set_description(description)
        progress.update(1)


# --- summary, PAR sheet, strategy files -----------------------------------------------------

def strategy_entry(f: StrategyFigures) -> dict:
    return {
        "description": f.description,
        "probability_of_raising": figure(f.p_raise),
        "ev_per_ante": figure(f.ev),
        "house_edge_per_ante": figure(f.house_edge),
        "average_wager_per_ante": figure(f.average_wager),
        "element_of_risk": figure(f.element_of_risk),
        "rtp_returned_over_wagered": figure(f.rtp),
        "situation_classes_raised": int(f.raise_.sum()),
    }


def summary(analysis: StudAnalysis) -> dict:
    rules, table, st, prog = analysis.rules, analysis.table, analysis.strategies, analysis.progressive
    raise_, ties = analysis.priced.optimal()
    optimal = st["optimal"]
    check = analysis.rule_check
    return {
        "format": "analyzer-summary/1",
        "game": GAME,
        "rule_set": analysis.rule_file.name,
        "title": analysis.rule_file.title,
        "dealer_qualifies_with": qualifier_words(rules.qualifier),
        "definitions": {
            "ev_per_ante": "expected net result per ANTE under the strategy (house edge = -EV)",
            "element_of_risk": "house edge / average total wager (ANTE + raise x P(raise))",
            "rtp_returned_over_wagered": "total returned (stakes included) / total wagered",
        },
        "enumeration": {
            "deck_cards": len(rules.cards),
            "situations": str(table.raw_situations),
            "situation_classes": len(table),
            "dealer_completions_per_situation": table.completions,
            "deals": str(analysis.total_deals),
            "exact_ties_between_raise_and_fold": {"classes": int(ties.sum()),
                                                  "situations": exact_sum(table.weights[ties].astype(np.int64))},
        },
        "strategies": {name: strategy_entry(f) for name, f in st.items()},
        "published": {"house_edge": published_check(rules.published.get("house_edge"), optimal.house_edge),
                      "raise_probability": published_check(rules.published.get("raise_probability"),
                                                           optimal.p_raise)},
        "rule_in_words": {
            "rule": analysis.rule_check.rule.words(),
            "clauses": analysis.rule_check.rule.as_data(),
            "exceptions": {"classes": len(check.exceptions),
                           "situations": exact_sum(table.weights[check.exceptions].astype(np.int64))},
            "cost_per_ante": figure(check.cost),
            "least_cost_of_any_rank_only_rule": figure(check.best_rank_only_cost),
            "rank_patterns_whose_best_play_depends_on_suits": check.mixed_rank_patterns,
        },
        "progressive": progressive_summary(rules.progressive, prog),
    }


def progressive_summary(p: Progressive, prog: ProgressiveFigures) -> dict:
    return {
        "stake": decimal_str(p.stake, 2),
        "stake_returned_with_win": p.stake_returned,
        "rtp_as_function_of_jackpot": prog.rtp_text,
        "break_even_jackpot": figure(prog.break_even, 2) if prog.break_even is not None else None,
        "rtp_at_jackpot": {decimal_str(level, 2): figure(rtp) for level, rtp in prog.table},
        "hands": {CATEGORIES[c]: str(prog.counts[c]) for c in range(N_CATEGORIES)},
    }


def par_lines(analysis: StudAnalysis) -> list[dict]:
    """The optimal strategy's PAR lines: folds by category, raised outcomes by category (made once)."""
    if analysis.par is not None:
        return analysis.par
    table, rules, priced = analysis.table, analysis.rules, analysis.priced
    raise_, _ = priced.optimal()
    group = raise_.astype(np.uint8) * N_CATEGORIES + table.player_category      # 0..19
    n_groups = 2 * N_CATEGORIES
    # weight x count is at most 24 x 163,185: int64 products, summed exactly
    situations = exact_group_sums(group, table.weights, n_groups)
    weights = table.weights.astype(np.int64)
    outcomes = [exact_group_sums(group, weights * table.counts[:, o], n_groups) for o in range(N_OUTCOMES)]
    lines = []
    for g in range(n_groups):
        raised, category = divmod(g, N_CATEGORIES)
        if not situations[g]:
            continue
        if not raised:
            lines.append({"action": "fold", "category": category, "outcome": "any",
                          "combinations": int(situations[g]) * table.completions,
                          "wagered": Fraction(1), "net": Fraction(-1)})
            continue
        for o in range(N_OUTCOMES):
            lines.append({"action": "raise", "category": category, "outcome": OUTCOME_WORDS[o],
                          "combinations": int(outcomes[o][g]), "wagered": 1 + rules.raise_size,
                          "net": rules.net(category, o)})
    if sum(line["combinations"] for line in lines) != analysis.total_deals:
        raise AssertionError("the PAR lines do not cover every deal exactly once")
    analysis.par = lines
    return lines


PAR_HEADERS = ["section", "action", "player_hand", "outcome", "combinations", "probability",
               "probability_decimal", "wagered_per_ante", "net_per_ante", "contribution_to_ev",
               "contribution_to_ev_decimal"]


def par_csv(analysis: StudAnalysis) -> str:
    total = analysis.total_deals
    rows = []
    for line in par_lines(analysis):
        p = Fraction(line["combinations"], total)
        rows.append(["main", line["action"], CATEGORY_WORDS[line["category"]], line["outcome"], line["combinations"],
                     fraction_str(p), decimal_str(p), fraction_str(line["wagered"]), fraction_str(line["net"]),
                     fraction_str(p * line["net"]), decimal_str(p * line["net"])])
    hands = analysis.progressive.hands
    for line in analysis.progressive.lines:
        p = Fraction(line["combinations"], hands)
        exact = line["contribution_exact"]
        rows.append(["progressive", "", CATEGORY_WORDS[line["category"]], line["pays"], line["combinations"],
                     fraction_str(p), decimal_str(p), "", "", line["contribution"],
                     "" if exact is None else decimal_str(exact)])
    return csv_text(PAR_HEADERS, rows)


def par_markdown(analysis: StudAnalysis) -> str:
    rules, rf, table, st = analysis.rules, analysis.rule_file, analysis.table, analysis.strategies
    optimal = st["optimal"]
    total = analysis.total_deals
    n = len(rules.cards)
    out = [f"# PAR sheet: Caribbean Stud Poker: {rf.title}\n",
           f"Rule set `{rf.name}` (rule file sha256 `{rf.sha256}`).\n",
           "## What was counted\n",
           f"Every situation the player can face (his 5 cards and the dealer's up card: C({n},5) x {n - 5} = "
           f"{thousands(table.raw_situations)}, in {thousands(len(table))} suit classes) and every completion of "
           f"the dealer's hand (C({n - 6},4) = {thousands(table.completions)} each): "
           f"{thousands(total)} deals, each counted once. The dealer qualifies with "
           f"{qualifier_words(rules.qualifier)}. Probabilities are counts over {thousands(total)}, exactly. "
           "Net results and EV are per ANTE; the raise is "
           f"{fraction_str(rules.raise_size).removesuffix('/1')} x ANTE.\n",
           "## Paytable\n",
           markdown_table(["player's hand", "raise pays (dealer qualifies)", "raise pays (dealer does not qualify)"],
                          [[CATEGORY_WORDS[c], f"{fraction_str(rules.raise_pays[c]).removesuffix('/1')} to 1",
                            (f"{fraction_str(rules.raise_pays_not_qualified[c]).removesuffix('/1')} to 1"
                             if rules.raise_pays_not_qualified[c] else "push")]
                           for c in range(N_CATEGORIES - 1, -1, -1)]),
           f"\nANTE: {fraction_str(rules.ante_wins).removesuffix('/1')} to 1 when the player wins, "
           f"{fraction_str(rules.ante_not_qualified).removesuffix('/1')} to 1 when the dealer does not qualify; "
           "push on a tie; lost to a better qualifying dealer; lost on a fold.\n",
           "## Optimal strategy: every outcome\n"]
    rows = []
    for line in par_lines(analysis):
        p = Fraction(line["combinations"], total)
        rows.append([line["action"], CATEGORY_WORDS[line["category"]], line["outcome"],
                     thousands(line["combinations"]), decimal_str(p, 10), fraction_str(line["net"]).removesuffix("/1"),
                     decimal_str(p * line["net"], 10)])
    rows.append(["**total**", "", "", thousands(total), "1", "", f"**{decimal_str(optimal.ev, 10)}**"])
    out += [markdown_table(["action", "player's hand", "outcome", "combinations", "probability",
                            "net per ANTE", "contribution to EV"], rows, align="lllrrrr"),
            f"\nEV per ANTE = {fraction_str(optimal.ev)} = {decimal_str(optimal.ev, 10)}; house edge "
            f"{percent_str(optimal.house_edge, 6)}; probability of raising {percent_str(optimal.p_raise, 6)}; "
            f"average wager {decimal_str(optimal.average_wager, 6)} ANTE; element of risk "
            f"{percent_str(optimal.element_of_risk, 6)}; RTP (returned / wagered) {percent_str(optimal.rtp, 6)}.\n"]
    for key, label in (("house_edge", "house edge"), ("raise_probability", "probability of raising")):
        exact = optimal.house_edge if key == "house_edge" else optimal.p_raise
        check = published_check(rules.published.get(key), exact)
        if check:
            verdict = "agrees" if check["agrees"] else "DIFFERS"
            out.append(f"Published {label} {check['published']}; the exact value rounds to "
                       f"{check['exact_rounded']} ({verdict}).\n")
    out += ["## Strategies compared\n",
            markdown_table(["strategy", "P(raise)", "house edge", "element of risk", "RTP"],
                           [[f.description, percent_str(f.p_raise, 4), percent_str(f.house_edge, 6),
                             percent_str(f.element_of_risk, 6), percent_str(f.rtp, 6)] for f in st.values()]),
            "\n## Progressive jackpot\n",
            f"Stake EUR {decimal_str(rules.progressive.stake, 2)}, paid on the player's own five cards "
            f"(C({n},5) = {thousands(analysis.progressive.hands)} hands), whatever the dealer holds; the stake is "
            f"{'returned with' if rules.progressive.stake_returned else 'not returned with'} a win.\n"]
    prog_rows = [[CATEGORY_WORDS[line["category"]], thousands(line["combinations"]),
                  decimal_str(Fraction(line["combinations"], analysis.progressive.hands), 12), line["pays"],
                  line["contribution"]] for line in analysis.progressive.lines]
    out += [markdown_table(["hand", "combinations", "probability", "pays", "contribution to RTP"], prog_rows),
            f"\nRTP(J) = {analysis.progressive.rtp_text} (J = the jackpot in EUR).\n"]
    if analysis.progressive.break_even is not None:
        out.append(f"Break-even jackpot (RTP = 100%): J = EUR {decimal_str(analysis.progressive.break_even, 2)}"
                   f" (exactly {fraction_str(analysis.progressive.break_even).removesuffix('/1')}).\n")
    out += [markdown_table(["jackpot (EUR)", "RTP"], [[thousands(int(level)) if level == int(level) else
                                                        decimal_str(level, 2), percent_str(rtp, 4)]
                                                       for level, rtp in analysis.progressive.table]),
            "\nThe optimal decision of every situation class is in `strategy.bin.gz`; the rule in words and "
            "its exceptions are in `strategy_rule.md`.\n"]
    return "\n".join(out)


def strategy_rule_markdown(analysis: StudAnalysis) -> str:
    check, table, priced = analysis.rule_check, analysis.table, analysis.priced
    scale = table.raw_situations * priced.denominator
    rule_ev = analysis.strategies["rule_in_words"]
    out = [f"# Caribbean Stud: the optimal raise/fold rule in words ({analysis.rule_file.name})\n",
           "The first line that applies decides:\n",
           "\n".join(f"{i}. {line}" for i, line in enumerate(check.rule.words(), 1)),
           "\nCards are counted by place, highest first (in A-K-9-5-2 the third card is the 9); the up card "
           "pairs a card when it has the same rank.\n",
           "## Proof\n",
           f"The rule was evaluated on every one of the {thousands(len(table))} situation classes "
           f"({thousands(table.raw_situations)} situations) and compared with the exact optimal decision.\n"]
    if not len(check.exceptions):
        out.append("It reproduces the optimal decision in every situation (exact ties may go either way).\n")
    else:
        out.append(f"It differs from the optimal decision in {thousands(len(check.exceptions))} classes "
                   f"({thousands(exact_sum(table.weights[check.exceptions].astype(np.int64)))} situations), "
                   f"listed with their exact cost in `strategy_rule_exceptions.csv`. Following the rule costs "
                   f"{fraction_str(check.cost)} = {decimal_str(check.cost, 10)} ANTE per hand against optimal play "
                   f"(house edge {percent_str(rule_ev.house_edge, 6)} instead of "
                   f"{percent_str(analysis.strategies['optimal'].house_edge, 6)}).\n")
        out.append("No rule that reads only the player's hand (its poker value) and the up card's rank can be "
                   f"exact: in {thousands(check.mixed_rank_patterns)} such patterns the best play depends on how "
                   "the suits fall, and the least any such rule can give up is "
                   f"{fraction_str(check.best_rank_only_cost)} = {decimal_str(check.best_rank_only_cost, 10)} "
                   "ANTE per hand.\n")
        patterns = {}
        for i in check.exceptions.tolist():
            ranks = tuple(int(r) for r in table.keys[i, :5] // 4)
            key = (ranks, int(table.keys[i, 5] // 4), bool(check.raises[i]))
            entry = patterns.setdefault(key, [0, 0])
            entry[0] += int(table.weights[i])
            entry[1] += abs(int(priced.gain[i]))
        rows = [[" ".join("23456789TJQKA"[r] for r in ranks), "23456789TJQKA"[up],
                 "raise" if rule_raises else "fold", "fold" if rule_raises else "raise", thousands(w),
                 decimal_str(Fraction(cost, scale), 12)]
                for (ranks, up, rule_raises), (w, cost) in sorted(patterns.items(), key=lambda kv: -kv[1][1])]
        shown = rows[:MAX_PATTERNS_SHOWN]
        out += ["## Exceptions by rank pattern\n",
                f"{thousands(len(rows))} patterns (the player's ranks, the up card's rank, the rule's decision), "
                + ("all shown, " if len(rows) == len(shown) else f"the {len(shown)} costliest shown, ")
                + "costliest first; the optimal play is the other one for some or all of their suits.\n",
                markdown_table(["your ranks", "up card", "rule says", "optimal (some suits)", "situations",
                                "cost per ANTE per hand"], shown)]
    return "\n".join(out) + "\n"


def report_content(analysis: StudAnalysis) -> ReportContent:
    """What this game contributes to a report, and the key figures `analyzer sweep` compares."""
    st, check, prog = analysis.strategies, analysis.rule_check, analysis.progressive
    optimal = st["optimal"]
    published = analysis.rules.published

    def note(key):
        return f"published {published[key]}" if key in published else ""
    key_figures = [
        ("house edge per ANTE, optimal strategy", optimal.house_edge, note("house_edge")),
        ("probability of raising, optimal strategy", optimal.p_raise, note("raise_probability")),
        ("element of risk, optimal strategy", optimal.element_of_risk, ""),
        ("RTP (returned / wagered), optimal strategy", optimal.rtp, ""),
        ("house edge per ANTE, raise a pair or better", st["raise_pair_or_better"].house_edge, ""),
        ("house edge per ANTE, the rule in words", st["rule_in_words"].house_edge, ""),
        ("cost of the rule in words per ANTE", check.cost, f"{len(check.exceptions)} situation classes differ"),
    ]
    if prog is not None and prog.break_even is not None:
        key_figures.append(("progressive break-even jackpot (EUR)", prog.break_even, f"RTP(J) = {prog.rtp_text}"))
    table, priced = analysis.table, analysis.priced
    raise_, ties = priced.optimal()
    method = (
        f"Every situation the player decides on, his 5 cards and the dealer's up card "
        f"({thousands(table.raw_situations)} of them, {thousands(len(table))} classes under suit renaming), "
        f"against every completion of the dealer's hand ({thousands(table.completions)} each): "
        f"{thousands(analysis.total_deals)} deals. The counts come from one sweep over all "
        f"{thousands(math.comb(len(analysis.rules.cards), 5))} five-card hands in poker order: for every card "
        "subset the number of hands already swept that hold it, so that the dealer hands below, equal to, and "
        "not qualifying against a player hand, holding the up card and none of the player's cards, follow by "
        "inclusion-exclusion over the player's cards. The counts do not depend on the paytable; every rule set "
        "on the same deck and qualifier prices the same count. Raise exactly when raising beats folding "
        "(-1 ANTE).\n\nThe kernel is checked against direct dealing of all completions of random situations, "
        "against a pure-Python brute force of whole reduced decks, and by the verification below.")
    strategy = (f"Optimal strategy: raise in {thousands(int(raise_.sum()))} situation classes "
                f"({thousands(exact_sum(table.weights[raise_].astype(np.int64)))} situations), fold in the other "
                f"{thousands(int((~raise_).sum()))}; exact ties: {int(ties.sum())}.\n\nThe rule in words "
                f"(checked on every situation class; {thousands(len(check.exceptions))} classes differ, "
                f"costing {decimal_str(check.cost)} ANTE per hand):\n\n"
                + "\n".join(f"{i}. {line}" for i, line in enumerate(check.rule.words(), 1)))
    if analysis.basic is not None:
        from analyzer import basic_strategy
        from analyzer.strategy_language import strategy_card_markdown
        rows = basic_strategy.stud_strategy_table(priced, {"basic": analysis.basic})
        strategy += ("\n\n### Basic strategy\n\nA shorter rule list a person can play (`basic_strategy.toml`, also as "
                     "the strategy file `strategy_basic.bin.gz`); `basic_strategy.md` adds the exact cost of each "
                     "rule.\n\n" + demote(demote(strategy_card_markdown(analysis.basic)))
                     + "\n\n" + basic_strategy.stud_strategy_table_markdown(rows))
    total = int(table.weights.sum(dtype=np.int64))
    margins = priced.ev_raise / priced.denominator + 1                    # floats for the plot only
    figures_ = [("figure_margin.svg", "EV of raising minus EV of folding over all situations",
                 plots.margin_histogram(margins, table.weights / total, "raise",
                                        "Raise-minus-fold margin, optimal strategy"))]
    if prog is not None and prog.break_even is not None:
        levels = sorted({level for level, _ in prog.table} | {prog.break_even})
        top = max(levels) * 5 // 4
        points = [(top * i / 100, _fraction(prog.rtp.subs(JACKPOT, sympy.Rational(int(top * i), 100))))
                  for i in range(101)]
        figures_.append(("figure_progressive.svg", "Progressive RTP as a function of the jackpot",
                         plots.rtp_against_jackpot(points, prog.break_even, "Progressive jackpot: RTP against J")))
    return ReportContent(key_figures=key_figures, method=method, strategy=strategy,
                         par_sheet=par_markdown(analysis), figures=figures_)


EXCEPTION_HEADERS = ["hand", "up_card", "situations", "rule_decision", "optimal_decision", "ev_raise", "ev_fold",
                     "ev_raise_decimal", "cost_per_hand", "cost_per_hand_decimal"]


def strategy_rule_exceptions_csv(analysis: StudAnalysis) -> str:
    check, table, priced = analysis.rule_check, analysis.table, analysis.priced
    scale = table.raw_situations * priced.denominator
    rows = []
    for i in check.exceptions.tolist():
        ev = Fraction(int(priced.ev_raise[i]), priced.denominator)
        cost = Fraction(abs(int(priced.gain[i])), scale)
        rows.append([cards_str(table.keys[i, :5].tolist()), card_str(int(table.keys[i, 5])), int(table.weights[i]),
                     "raise" if check.raises[i] else "fold", "fold" if check.raises[i] else "raise",
                     fraction_str(ev), "-1/1", decimal_str(ev, 10), fraction_str(cost), decimal_str(cost, 15)])
    return csv_text(EXCEPTION_HEADERS, rows)


def progressive_csv(analysis: StudAnalysis) -> str:
    return csv_text(["jackpot", "rtp", "rtp_decimal"],
                    [[decimal_str(level, 2), fraction_str(rtp), decimal_str(rtp)]
                     for level, rtp in analysis.progressive.table])


def strategy_file_bytes(analysis: StudAnalysis, decisions: np.ndarray | None = None) -> bytes:
    """The strategy file of the optimal decisions (or of `decisions`, e.g. a basic strategy's)."""
    return strategy_file.encode_decision_table(
        game=GAME, rule_file=analysis.rule_file, groups=[("hand", 5), ("up card", 1)], actions=["fold", "raise"],
        ev_column="ev_raise", key_text="canonical situation: the player's 5 cards (descending) then the dealer's "
                                       "up card, card = rank * 4 + suit, suits renamed (docs/strategy-format.md)",
        keys=analysis.table.keys, weights=analysis.table.weights, ev_play=analysis.priced.ev_raise,
        denominator=analysis.priced.denominator, situations=analysis.table.raw_situations, decisions=decisions)


def write_results(analysis: StudAnalysis, out_root, argv=None, checks: CheckOptions = CheckOptions(),
                  progress=None) -> Path:
    """Verify the rule set's results folder in staging, add its report, and publish it."""
    folder = ResultFolder(out_root, GAME, analysis.rule_file, argv)
    folder.add("summary.json", json_bytes(summary(analysis)))
    folder.add("par_sheet.md", par_markdown(analysis))
    folder.add("par_sheet.csv", par_csv(analysis))
    folder.add("progressive_rtp_by_jackpot.csv", progressive_csv(analysis))
    folder.add("strategy_rule.md", strategy_rule_markdown(analysis))
    folder.add("strategy_rule_exceptions.csv", strategy_rule_exceptions_csv(analysis))
    folder.add("strategy.bin.gz", analysis.strategy_bytes or strategy_file_bytes(analysis))
    if analysis.basic is not None:
        from analyzer import basic_strategy, stud_features
        folder.add("basic_strategy.toml", Path(analysis.basic.source).read_bytes())
        folder.add("basic_strategy.md", basic_strategy.stud_basic_strategy_markdown(
            analysis.priced, analysis.basic, {"rule_in_words": stud_features.from_stud_rule(analysis.rule_check.rule)}))
        folder.add("strategy_basic.bin.gz", strategy_file_bytes(analysis, analysis.strategies["basic"].raise_.astype(np.uint8)))
    return publish_with_report(folder, lambda: report_content(analysis), checks, progress)


def analyse_all(paths, progress=None, executor: Executor | None = None) -> list[StudAnalysis]:
    """Every rule file's analysis, counting once per deck and qualifier.

    The rule sets' pricing, rule and strategy-file work (numpy and zlib, mostly without the
    GIL) runs on threads side by side; sympy's progressive stays in this thread.
    """
    loaded = [load_rules(path) for path in paths]
    bar = progress(total=1 + len(loaded), desc="caribbean-stud: counting", unit="step") if progress else None
    try:
        tables = [count_classes(rules.cards, rules.qualifier_rank, executor) for _, rules in loaded]
        for counted in tables:
            features_of(counted)
        _step(bar, "caribbean-stud: counted")
        progressives, made = [], {}
        for counted, (_, rules) in zip(tables, loaded):        # rule sets often share the side bet
            key = (id(counted), rules.progressive)
            if key not in made:
                made[key] = progressive_figures(counted, rules.progressive)
            progressives.append(made[key])

        def numbers(i: int) -> StudAnalysis:
            analysis = decide(*loaded[i], tables[i])
            analysis.progressive = progressives[i]
            par_lines(analysis)
            analysis.strategy_bytes = strategy_file_bytes(analysis)
            return analysis
        with ThreadPoolExecutor(max_workers=max(1, min(len(loaded), stud_enum.default_threads()))) as pool:
            analyses = []
            for analysis in pool.map(numbers, range(len(loaded))):
                _step(bar, f"caribbean-stud: {analysis.rule_file.name} decided")
                analyses.append(analysis)
    finally:
        if bar is not None:
            bar.close()
    return analyses


def run(rule_path=None, out_root="results", argv=None, progress=None, executor: Executor | None = None,
        checks: CheckOptions = CheckOptions()):
    """Analyse one rule file, or (no path) every built-in rule set counting once; verify and write each.

    Returns the results folder of the rule set, or the game's folder when several were written.
    """
    paths = [rule_path] if rule_path else builtin_rule_paths(GAME)
    folders = [write_results(analysis, out_root, argv, checks, progress)
               for analysis in analyse_all(paths, progress, executor)]
    return folders[0] if len(folders) == 1 else folders[0].parent
