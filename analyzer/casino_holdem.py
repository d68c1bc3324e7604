"""Casino Hold'em with the AA Bonus: exact call/fold values for every (hole cards, flop) situation.

The kernel (`cython_ext.holdem_enum`) counts, for every suit class of situations, the
1,070,190 continuations (turn/river x dealer hole pair) by the player's final category and
the outcome (dealer does not qualify / player wins / tie / dealer wins).  This module
prices those counts with the rule file's paytables, decides call or fold, evaluates the
strategies the operator publishes, and writes the results folder.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np

from analyzer import strategy_file
from analyzer.cards import CardError, card_str, check_disjoint, parse_cards
from analyzer.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges, default_jobs
from analyzer.exact import decimal_str, figure, fraction_str, percent_str, published_check
from analyzer import plots
from analyzer.output import ResultFolder, json_bytes
from analyzer.report import ReportContent, demote, publish_with_report
from analyzer.verify import CheckOptions
from analyzer.poker import (CATEGORIES, CATEGORY_WORDS, DECK_SCHEMA, QUALIFIER_SCHEMA, deck_cards,
                            qualifier_value, qualifier_words)
from analyzer.rules import (GAME_HEADER, RuleError, RuleFile, builtin_rule_paths, load_rule_file, number,
                            table, text)
from analyzer.strategy_file import pack_keys
from analyzer.tables import csv_text, markdown_table, thousands
from cython_ext import handeval, holdem_enum
from cython_ext.isomorphism import canonical_keys

GAME = "casino-holdem"
OUTCOMES = ("dealer_not_qualified", "player_wins", "tie", "dealer_wins")
OUTCOME_WORDS = ("dealer does not qualify", "player wins", "tie", "dealer wins")
N_CATEGORIES, N_OUTCOMES = len(CATEGORIES), len(OUTCOMES)
ACE = 12
AA_HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
            "three_of_a_kind", "two_pair", "pair_of_aces", "other_pair", "high_card")
PUBLISHED_KEYS = ("optimal_main_rtp", "optimal_aa_bonus_rtp", "call_on_aa_win_main_rtp", "call_on_aa_win_aa_bonus_rtp",
                  "every_hand_calls_aa_bonus_rtp", "basic_main_rtp", "basic_aa_bonus_rtp", "optimal_house_edge")


def payout_or_lose():
    """A "to 1" payout, or the word "lose" (the stake is lost)."""
    amount = number()

    def check(value, file, key):
        if value == "lose":
            return None
        return amount(value, file, key)
    return check


SCHEMA = table({
    "game": GAME_HEADER,
    "deck": DECK_SCHEMA,
    "qualifier": QUALIFIER_SCHEMA,
    "call": table({"size": number(minimum=Fraction(1, 10**6)), "pays": number()}),
    "ante_pays": table({name: number() for name in CATEGORIES}),
    "aa_bonus": table({"ratio": number(), "pays": table({name: payout_or_lose() for name in AA_HANDS})}),
    "published": table({key: text() for key in PUBLISHED_KEYS}, optional=PUBLISHED_KEYS),
}, optional=("published",))


@dataclass(frozen=True)
class HoldemRules:
    """The checked rules of one Casino Hold'em variant."""

    cards: tuple                 # the deck's card indices
    qualifier: dict              # {category, ranks} as written
    qualifier_value: int         # smallest qualifying hand value
    call_size: Fraction          # CALL = call_size x ANTE
    call_pays: Fraction          # CALL paid this "to 1" on a win against a qualifying dealer
    ante_pays: tuple             # by category, "to 1"
    aa_pays: dict                # AA Bonus hand -> Fraction "to 1", or None (lose)
    aa_ratio: Fraction           # AA Bonus stake per ANTE for the jointly optimal strategy
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "HoldemRules":
        data, file = rule_file.data, str(rule_file.path)
        cards = deck_cards(data["deck"], file)
        if len(cards) < 9:
            raise RuleError(file, "deck", f"{len(cards)} cards cannot deal a round (2 + 2 hole cards and 5 on the board)")
        return cls(cards=tuple(cards), qualifier=data["qualifier"],
                   qualifier_value=qualifier_value(data["qualifier"], file),
                   call_size=data["call"]["size"], call_pays=data["call"]["pays"],
                   ante_pays=tuple(data["ante_pays"][name] for name in CATEGORIES),
                   aa_pays=dict(data["aa_bonus"]["pays"]), aa_ratio=data["aa_bonus"]["ratio"],
                   published=data.get("published", {}))

    @property
    def deck_mask(self) -> int:
        return sum(1 << c for c in self.cards)

    @property
    def continuations(self) -> int:
        """Turn/river pairs x dealer hole pairs after the 5 cards a situation shows."""
        n = len(self.cards)
        return math.comb(n - 5, 2) * math.comb(n - 7, 2)

    @property
    def raw_situations(self) -> int:
        n = len(self.cards)
        return math.comb(n, 2) * math.comb(n - 2, 3)

    def net(self, category: int, outcome: int) -> Fraction:
        """Net result per ANTE of a called hand with this final category and outcome."""
        if outcome == 0:                                   # dealer does not qualify: CALL pushes
            return self.ante_pays[category]
        if outcome == 1:
            return self.ante_pays[category] + self.call_size * self.call_pays
        if outcome == 2:
            return Fraction(0)
        return -(1 + self.call_size)

    def net_matrix(self) -> tuple[np.ndarray, int]:
        """(integer net per category x outcome, common denominator D): net = matrix / D."""
        nets = [[self.net(c, o) for o in range(N_OUTCOMES)] for c in range(N_CATEGORIES)]
        denominator = math.lcm(*(x.denominator for row in nets for x in row))
        return np.array([[int(x * denominator) for x in row] for row in nets], dtype=np.int64), denominator


def load_rules(path=None) -> tuple[RuleFile, HoldemRules]:
    """The built-in operator rules, or the rule file at `path`."""
    rule_file = load_rule_file(path or builtin_rule_paths(GAME)[0], GAME, SCHEMA)
    return rule_file, HoldemRules.from_rule_file(rule_file)


# --- the enumeration ---------------------------------------------------------------------

@dataclass
class SituationTable:
    """Every suit class of (hole cards, flop) situations with its continuation counts."""

    keys: np.ndarray          # (n, 5) uint8: canonical hole cards (descending), then flop (descending)
    weights: np.ndarray       # (n,) int64: raw situations the class stands for
    counts: np.ndarray        # (n, 10, 4) uint32: continuations by final category x outcome
    continuations: int        # continuations of every situation

    def __len__(self):
        return len(self.keys)


def _board_chunk(shared, deck: int, qualifier_rank: int, start: int, stop: int, threads: int) -> list:
    """Pass 1 on canonical boards start..stop-1: their packed results, one row per board."""
    boards = np.ascontiguousarray(shared["boards"][start:stop])
    results = np.zeros((stop - start, holdem_enum.PAIRS), dtype=np.uint64)
    holdem_enum.evaluate_boards(boards, deck, qualifier_rank, results, 0, stop - start, threads)
    return [Part("results", results, start)]


def _flop_chunk(shared, deck: int, start: int, stop: int, threads: int) -> list:
    """Pass 2 on canonical flops start..stop-1: their (hole pair x category x outcome) counts."""
    flops = np.ascontiguousarray(shared["flops"][start:stop])
    counts = np.zeros((stop - start, holdem_enum.PAIRS * holdem_enum.COUNTS_PER_SITUATION), dtype=np.uint32)
    holdem_enum.accumulate_flops(flops, deck, shared["board_class"], shared["board_perm"], shared["perm_pairs"],
                                 shared["results"], counts, 0, stop - start, threads)
    return [Part("counts", counts, start)]


def count_situations(rules: HoldemRules, progress=None, executor: Executor | None = None,
                     pieces: int | None = None) -> SituationTable:
    """Run both passes of the kernel as chunks and collect one row per situation class.

    Pass 1's chunks are ranges of canonical boards, pass 2's ranges of canonical flops
    (`pieces` of each; default four per worker); pass 2 reads pass 1's whole table,
    handed to every worker once.
    """
    executor = executor or SerialExecutor(default_jobs())
    deck = rules.deck_mask
    qualifier_rank = handeval.dense_at_least(rules.qualifier_value)
    board_class, board_perm, boards = holdem_enum.board_classes(deck)
    every_flop = canonical_keys(np.array(list(combinations(rules.cards, 3)), dtype=np.uint8), (3,))
    flops, flop_orbits = np.unique(every_flop, axis=0, return_counts=True)
    pieces = pieces or max(8, 4 * executor.workers)
    threads = executor.threads_per_chunk
    pass1 = Totals({"results": ((len(boards), holdem_enum.PAIRS), np.uint64)})
    executor.run([Chunk(_board_chunk, (deck, qualifier_rank, a, b, threads)) for a, b in chunk_ranges(len(boards), pieces)],
                 pass1, {"boards": boards}, progress, "casino hold'em pass 1: boards")
    shared = {"flops": flops, "board_class": board_class, "board_perm": board_perm,
              "perm_pairs": holdem_enum.perm_pair_table(), "results": pass1["results"]}
    pass2 = Totals({"counts": ((len(flops), holdem_enum.PAIRS * holdem_enum.COUNTS_PER_SITUATION), np.uint32)})
    executor.run([Chunk(_flop_chunk, (deck, a, b, threads)) for a, b in chunk_ranges(len(flops), pieces)],
                 pass2, shared, progress, "casino hold'em pass 2: flops")
    del shared, pass1
    return _collect_classes(rules, flops, flop_orbits,
                            pass2["counts"].reshape(len(flops), holdem_enum.PAIRS, N_CATEGORIES * N_OUTCOMES))


def _collect_classes(rules: HoldemRules, flops: np.ndarray, flop_orbits: np.ndarray,
                     counts: np.ndarray) -> SituationTable:
    """One row per situation class, in key order, from the (canonical flop, hole pair) rows.

    A class's weight (raw situations it stands for) is the number of raw flops in its
    flop's class times the number of hole pairs that, with the canonical flop, fall in
    it: every raw flop of the class sees the same number of such hole pairs.
    """
    pair_cards = np.array([(a, b) for a in range(52) for b in range(a)], dtype=np.uint8)   # pair_index order
    in_deck = np.isin(pair_cards, rules.cards).all(axis=1)
    rows, flop_of, pair_of = [], [], []
    for f, flop in enumerate(flops):
        pairs = np.nonzero(in_deck & ~np.isin(pair_cards, flop).any(axis=1))[0]
        rows.append(np.hstack([pair_cards[pairs], np.repeat(flop[None, :], len(pairs), axis=0)]))
        flop_of.append(np.full(len(pairs), f))
        pair_of.append(pairs)
    situations = canonical_keys(np.ascontiguousarray(np.vstack(rows)), (2, 3))
    flop_of, pair_of = np.concatenate(flop_of), np.concatenate(pair_of)
    _, first, members = np.unique(pack_keys(situations), return_index=True, return_counts=True)
    return SituationTable(keys=situations[first],
                          weights=members.astype(np.int64) * flop_orbits[flop_of[first]].astype(np.int64),
                          counts=counts[flop_of[first], pair_of[first]].reshape(-1, N_CATEGORIES, N_OUTCOMES),
                          continuations=rules.continuations)


# --- pricing and strategies --------------------------------------------------------------

def call_ev_numerators(table: SituationTable, rules: HoldemRules) -> tuple[np.ndarray, int]:
    """(EV of calling per class as integers, denominator): EV = numerator / denominator per ANTE."""
    nets, denominator = rules.net_matrix()
    bound = int(np.abs(nets).max()) * table.continuations
    if bound >= 2**57:                  # leaves room for weights (<= 24) and sums in int64
        raise OverflowError("paytable too large for 64-bit EV numerators")
    numerators = table.counts.reshape(len(table), -1).astype(np.int64) @ nets.reshape(-1)
    return numerators, denominator * table.continuations


def aa_bonus_hands(table: SituationTable) -> np.ndarray:
    """The AA Bonus hand of each class's first five cards, as an index into AA_HANDS."""
    values = handeval.evaluate_many(np.ascontiguousarray(table.keys))
    by_category = np.array([AA_HANDS.index(name) if name in AA_HANDS else -1 for name in CATEGORIES])
    hands = by_category[handeval.categories(values)]
    pair_rank = handeval.pair_ranks(values)
    hands[pair_rank == ACE] = AA_HANDS.index("pair_of_aces")
    hands[(pair_rank >= 0) & (pair_rank != ACE)] = AA_HANDS.index("other_pair")
    return hands


@dataclass
class Priced:
    """A situation table priced under one rule set: every number a strategy needs."""

    table: SituationTable
    rules: HoldemRules
    ev_call: np.ndarray         # int64 numerators of the CALL EV per ANTE over `denominator`
    denominator: int            # common denominator of ev_call (continuations x paytable denominator)
    aa_hand: np.ndarray         # AA Bonus hand per class, index into AA_HANDS
    aa_return: np.ndarray       # int64: AA Bonus total returned per unit when called, over aa_denominator
    aa_denominator: int

    @property
    def fold_numerator(self) -> int:
        return -self.denominator

    def optimal_call(self) -> tuple[np.ndarray, np.ndarray]:
        """(call, tie): call where calling is strictly better than folding; tie where equal."""
        return self.ev_call > self.fold_numerator, self.ev_call == self.fold_numerator


def price(table: SituationTable, rules: HoldemRules) -> Priced:
    ev_call, denominator = call_ev_numerators(table, rules)
    hands = aa_bonus_hands(table)
    returns = {name: (Fraction(0) if pay is None else 1 + pay) for name, pay in rules.aa_pays.items()}
    aa_denominator = math.lcm(*(r.denominator for r in returns.values()))
    aa_return = np.array([int(returns[name] * aa_denominator) for name in AA_HANDS], dtype=np.int64)[hands]
    return Priced(table, rules, ev_call, denominator, hands, aa_return, aa_denominator)


def exact_sum(values: np.ndarray) -> int:
    """The exact integer sum of an integer array: in int64 when the bound allows, else Python integers."""
    if values.size == 0:
        return 0
    if int(np.abs(values).max()) * values.size < 2**63:
        return int(values.sum(dtype=np.int64))
    return sum(values.tolist())


@dataclass
class StrategyFigures:
    """Exact figures of one call/fold strategy (per ANTE unless said otherwise)."""

    name: str
    description: str
    call: np.ndarray
    p_call: Fraction
    ev: Fraction                      # main game EV per ANTE (house edge = -ev)
    aa_rtp: Fraction                  # AA Bonus total returned / total staked
    aa_ratio: Fraction | None = None  # AA stake per ANTE when the strategy is jointly optimal

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    def main_rtp_per_wager(self, call_size: Fraction) -> Fraction:
        """RTP as total returned / total wagered, ANTE + CALL wagered on a called hand."""
        return 1 + self.ev / (1 + call_size * self.p_call)

    def main_return_per_ante(self) -> Fraction:
        """RTP as total returned / ANTEs placed (the CALL counted as part of the return)."""
        return 1 + self.ev


def figures(priced: Priced, name: str, description: str, call: np.ndarray,
            aa_ratio: Fraction | None = None) -> StrategyFigures:
    weights = priced.table.weights
    total_weight = exact_sum(weights)
    ev_sum = exact_sum(weights[call] * priced.ev_call[call]) + exact_sum(weights[~call]) * priced.fold_numerator
    aa_returned = exact_sum(weights[call] * priced.aa_return[call])
    return StrategyFigures(name=name, description=description, call=call,
                           p_call=Fraction(exact_sum(weights[call]), total_weight),
                           ev=Fraction(ev_sum, total_weight * priced.denominator),
                           aa_rtp=Fraction(aa_returned, total_weight * priced.aa_denominator), aa_ratio=aa_ratio)


def jointly_optimal_call(priced: Priced, ratio: Fraction) -> np.ndarray:
    """Call where ANTE + CALL + (ratio x ANTE on the AA Bonus) is worth more than folding both.

    Calling is worth ev_call + ratio x (aa_return - 1) per ANTE; folding loses 1 + ratio.
    So call exactly when ev_call + ratio x aa_return > -1 (equal values fold).
    """
    ratio = Fraction(ratio)
    d, a = priced.denominator, priced.aa_denominator
    left_scale, right_scale = a * ratio.denominator, ratio.numerator * d
    bound = (int(np.abs(priced.ev_call).max()) * left_scale + int(priced.aa_return.max()) * right_scale
             + d * left_scale)
    if bound >= 2**62:
        raise OverflowError("AA Bonus ratio too fine for 64-bit comparison")
    return priced.ev_call * left_scale + priced.aa_return * right_scale > -d * left_scale


def strategies(priced: Priced, aa_ratio: Fraction | None = None) -> dict:
    """The strategies the operator publishes, plus always-call and the jointly optimal one."""
    optimal, _ = priced.optimal_call()
    aa_wins = priced.aa_return > 0
    ratio = priced.rules.aa_ratio if aa_ratio is None else Fraction(aa_ratio)
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


# --- one concrete deal -------------------------------------------------------------------

def parse_situation(hole: str, flop: str) -> tuple[list[int], list[int]]:
    hole_cards = parse_cards(hole, 2, "the hole cards")
    flop_cards = parse_cards(flop, 3, "the flop")
    check_disjoint({"the hole cards": hole_cards, "the flop": flop_cards})
    return hole_cards, flop_cards


@dataclass(frozen=True)
class Advice:
    decision: str            # "call", "fold", or "either" (exactly equal EVs)
    ev_call: Fraction        # per ANTE
    ev_fold: Fraction

    @property
    def margin(self) -> Fraction:
        return self.ev_call - self.ev_fold


def advise(hole: str, flop: str, rules: HoldemRules | None = None) -> Advice:
    """Call or fold for concrete cards, e.g. advise("Ah Kd", "Qs 7h 2c"), computed exactly.

    Deals every turn/river and dealer hole pair of this one situation (about 1.07 million
    continuations, a few tens of milliseconds).  Raises CardError for malformed,
    duplicate or missing cards.
    """
    rules = rules or load_rules()[1]
    hole_cards, flop_cards = parse_situation(hole, flop)
    outside = [c for c in hole_cards + flop_cards if c not in rules.cards]
    if outside:
        raise CardError(f"card {card_str(outside[0])} is not in this rule set's deck")
    counts = holdem_enum.deal_one_situation(np.array(hole_cards, dtype=np.uint8), np.array(flop_cards, dtype=np.uint8),
                                            rules.deck_mask, handeval.dense_at_least(rules.qualifier_value))
    total = int(counts.sum())
    ev_call = sum((Fraction(int(counts[c, o]), total) * rules.net(c, o)
                   for c in range(N_CATEGORIES) for o in range(N_OUTCOMES)), Fraction(0))
    ev_fold = Fraction(-1)
    decision = "call" if ev_call > ev_fold else "fold" if ev_call < ev_fold else "either"
    return Advice(decision, ev_call, ev_fold)


# --- the analysis and its files ----------------------------------------------------------

@dataclass
class HoldemAnalysis:
    rule_file: RuleFile
    rules: HoldemRules
    priced: Priced
    strategies: dict
    n_flops: int
    n_boards: int
    basic: object = None              # the committed basic strategy (analyzer.strategy_language.Strategy)

    @property
    def table(self) -> SituationTable:
        return self.priced.table

    @property
    def total_weight(self) -> int:
        return exact_sum(self.table.weights)

    @property
    def total_deals(self) -> int:
        return self.total_weight * self.table.continuations


def analyse(rule_file: RuleFile, rules: HoldemRules, progress=None, executor: Executor | None = None,
            aa_ratio: Fraction | None = None) -> HoldemAnalysis:
    table = count_situations(rules, progress, executor)
    if exact_sum(table.weights) != rules.raw_situations:
        raise AssertionError("situation classes do not cover every (hole, flop) situation exactly once")
    priced = price(table, rules)
    st = strategies(priced, aa_ratio)
    from analyzer import holdem_features          # the basic strategy's features read the table built here
    basic = holdem_features.basic_strategy()
    basic_call = holdem_features.decisions(basic, table.keys)
    st["basic"] = figures(priced, "basic", "the basic strategy card (basic_strategy.md)", basic_call)
    st["call_on_aa_win_basic"] = figures(priced, "call_on_aa_win_basic",
                                         "call whenever the AA Bonus wins, otherwise the basic strategy",
                                         basic_call | (priced.aa_return > 0))
    return HoldemAnalysis(rule_file, rules, priced, st, n_flops=_count_classes(rules.cards, 3),
                          n_boards=_count_classes(rules.cards, 5), basic=basic)


def _count_classes(cards, k) -> int:
    keys = canonical_keys(np.array(list(combinations(cards, k)), dtype=np.uint8), (k,))
    return len(np.unique(pack_keys(keys)))


def strategy_summary(f: StrategyFigures, rules: HoldemRules) -> dict:
    average_wager = 1 + rules.call_size * f.p_call
    entry = {
        "description": f.description,
        "probability_of_calling": figure(f.p_call),
        "ev_per_ante": figure(f.ev),
        "house_edge_per_ante": figure(f.house_edge),
        "average_wager_per_ante": figure(average_wager),
        "rtp_returned_over_wagered": figure(f.main_rtp_per_wager(rules.call_size)),
        "return_per_ante": figure(f.main_return_per_ante()),
        "aa_bonus_rtp": figure(f.aa_rtp),
        "situation_classes_called": int(f.call.sum()),
        "situation_classes_folded": int((~f.call).sum()),
    }
    if f.aa_ratio is not None:
        total_ev = f.ev + f.aa_ratio * (f.aa_rtp - 1)
        entry["aa_bonus_ratio"] = fraction_str(f.aa_ratio)
        entry["total_ev_per_ante"] = figure(total_ev)
        entry["total_rtp_returned_over_wagered"] = figure(1 + total_ev / (average_wager + f.aa_ratio))
    return entry


def summary(analysis: HoldemAnalysis) -> dict:
    rules, table, st = analysis.rules, analysis.table, analysis.strategies
    optimal, ties = analysis.priced.optimal_call()
    published = rules.published
    comparisons = {
        "optimal_main_rtp": st["optimal"].main_rtp_per_wager(rules.call_size),
        "optimal_house_edge": st["optimal"].house_edge,
        "optimal_aa_bonus_rtp": st["optimal"].aa_rtp,
        "every_hand_calls_aa_bonus_rtp": st["always_call"].aa_rtp,
        "basic_main_rtp": st["basic"].main_rtp_per_wager(rules.call_size),
        "basic_aa_bonus_rtp": st["basic"].aa_rtp,
        "call_on_aa_win_main_rtp": st["call_on_aa_win_basic"].main_rtp_per_wager(rules.call_size),
        "call_on_aa_win_aa_bonus_rtp": st["call_on_aa_win_basic"].aa_rtp,
    }
    return {
        "format": "analyzer-summary/1",
        "game": GAME,
        "rule_set": analysis.rule_file.name,
        "title": analysis.rule_file.title,
        "dealer_qualifies_with": qualifier_words(rules.qualifier),
        "enumeration": {
            "deck_cards": len(rules.cards),
            "situations": str(analysis.total_weight),
            "situation_classes": len(table),
            "canonical_flops": analysis.n_flops,
            "canonical_boards": analysis.n_boards,
            "continuations_per_situation": str(table.continuations),
            "deals": str(analysis.total_deals),
            "what": "every (2 hole cards, 3-card flop) situation x every turn/river pair x every dealer hole pair",
        },
        "rtp_definitions": {
            "rtp_returned_over_wagered": "total returned / total wagered; a called hand wagers ANTE + CALL "
                                         "(this definition reproduces the operator's 99.18%)",
            "return_per_ante": "total returned / ANTEs placed (1 + EV per ANTE)",
            "house_edge_per_ante": "minus the EV per ANTE",
            "aa_bonus_rtp": "AA Bonus total returned / AA Bonus staked; lost on a fold",
        },
        "strategies": {name: strategy_summary(f, rules) for name, f in st.items()},
        "optimal_exact_ties": {"situation_classes": int(ties.sum()),
                               "situations": str(exact_sum(table.weights[ties]))},
        "joint_optimal_differs_from_optimal": {
            "situation_classes": int((st["joint_optimal"].call != optimal).sum()),
            "situations": str(exact_sum(table.weights[st["joint_optimal"].call != optimal]))},
        "published": {key: {"exact": figure(value), **(published_check(published.get(key), value) or {})}
                      for key, value in comparisons.items()},
        "published_note": ("the operator's basic strategy is unknown: basic_* and call_on_aa_win_* compare the "
                           "operator's figures with this project's basic strategy (basic_strategy.md)"),
    }


def par_lines(analysis: HoldemAnalysis, strategy: str = "optimal") -> list[dict]:
    """PAR lines of the main game: fold, then each called (final hand, outcome) with its count."""
    rules, table, f = analysis.rules, analysis.table, analysis.strategies[strategy]
    call, w = f.call, table.weights
    lines = [{"hand": "(any)", "outcome": "fold", "combinations": exact_sum(w[~call]) * table.continuations,
              "wagered": Fraction(1), "net": Fraction(-1)}]
    called = (table.counts[call].astype(np.int64) * w[call, None, None]).sum(axis=0, dtype=np.int64)
    for c in range(N_CATEGORIES - 1, -1, -1):
        for o in range(N_OUTCOMES):
            lines.append({"hand": CATEGORY_WORDS[c], "outcome": OUTCOME_WORDS[o],
                          "combinations": int(called[c, o]), "wagered": 1 + rules.call_size,
                          "net": rules.net(c, o)})
    return lines


def aa_par_lines(analysis: HoldemAnalysis, strategy: str = "optimal") -> list[dict]:
    """PAR lines of the AA Bonus (per raw situation): each AA hand, called or folded."""
    rules, priced, f = analysis.rules, analysis.priced, analysis.strategies[strategy]
    w = analysis.table.weights
    lines = []
    for index, name in enumerate(AA_HANDS):
        pay = rules.aa_pays[name]
        for called in (True, False):
            mask = (priced.aa_hand == index) & (f.call if called else ~f.call)
            returned = (Fraction(0) if pay is None else 1 + pay) if called else Fraction(0)
            lines.append({"hand": name.replace("_", " "), "action": "call" if called else "fold",
                          "combinations": exact_sum(w[mask]), "pays": "lose" if pay is None else f"{pay} to 1",
                          "returned": returned})
    return lines


def _rows(lines, total, value_key):
    rows = []
    for line in lines:
        p = Fraction(line["combinations"], total)
        rows.append((line, p, p * line[value_key]))
    return rows


def par_markdown(analysis: HoldemAnalysis) -> str:
    rules, rf, table = analysis.rules, analysis.rule_file, analysis.table
    st = analysis.strategies
    opt = st["optimal"]
    total = analysis.total_deals
    out = [f"# PAR sheet: Casino Hold'em: {rf.title}\n",
           f"Rule set `{rf.name}` (rule file sha256 `{rf.sha256}`). Strategy: the main-game optimal "
           "strategy (call exactly when calling beats folding).\n",
           "## What was counted\n",
           f"Every situation the player decides on (2 hole cards and a 3-card flop: "
           f"{thousands(analysis.total_weight)} of them, {thousands(len(table))} classes under suit "
           f"renaming) x every turn/river pair x every dealer hole pair ({thousands(table.continuations)} "
           f"continuations each): {thousands(total)} deals, every one counted once. The dealer qualifies "
           f"with {qualifier_words(rules.qualifier)}.\n",
           "## ANTE + CALL\n"]
    rows = []
    ev = Fraction(0)
    for line, p, contribution in _rows(par_lines(analysis), total, "net"):
        if line["combinations"] == 0:
            continue
        ev += contribution
        rows.append([line["hand"], line["outcome"], thousands(line["combinations"]), decimal_str(p),
                     fraction_str(line["wagered"]), fraction_str(line["net"]), decimal_str(contribution)])
    rows.append(["**total**", "", thousands(total), "1", decimal_str(1 + rules.call_size * opt.p_call),
                 "", f"**{decimal_str(ev)}**"])
    out.append(markdown_table(["final hand", "outcome", "combinations", "probability", "wagered",
                               "net (per ANTE)", "contribution to EV"], rows, "llrrrrr"))
    out.append(f"\nEV per ANTE = {fraction_str(opt.ev)} = {decimal_str(opt.ev)}; house edge "
               f"{percent_str(opt.house_edge, 6)} per ANTE; probability of calling "
               f"{percent_str(opt.p_call, 6)}; RTP (returned / wagered) "
               f"{percent_str(opt.main_rtp_per_wager(rules.call_size), 6)}.\n")
    out.append("## AA Bonus (same strategy; counted per situation, 1 unit staked)\n")
    rows = []
    for line, p, contribution in _rows(aa_par_lines(analysis), analysis.total_weight, "returned"):
        if line["combinations"] == 0:
            continue
        rows.append([line["hand"], line["action"], thousands(line["combinations"]), decimal_str(p),
                     line["pays"], fraction_str(line["returned"]), decimal_str(contribution)])
    rows.append(["**total**", "", thousands(analysis.total_weight), "1", "", "", f"**{decimal_str(opt.aa_rtp)}**"])
    out.append(markdown_table(["AA Bonus hand", "player", "combinations", "probability", "pays",
                               "returned", "contribution to RTP"], rows, "llrrrrr"))
    out.append("\n## Strategies compared\n")
    rows = []
    for name, f in st.items():
        rows.append([name, f.description, percent_str(f.p_call, 4), percent_str(f.house_edge, 4),
                     percent_str(f.main_rtp_per_wager(rules.call_size), 4), percent_str(f.aa_rtp, 4)])
    out.append(markdown_table(["strategy", "rule", "calls", "house edge / ANTE", "main RTP", "AA Bonus RTP"],
                              rows, "llrrrr"))
    return "\n".join(out)


def par_csv(analysis: HoldemAnalysis) -> str:
    rows = []
    for line, p, contribution in _rows(par_lines(analysis), analysis.total_deals, "net"):
        rows.append(["ante+call", line["hand"], line["outcome"], line["combinations"], fraction_str(p),
                     decimal_str(p), fraction_str(line["wagered"]), fraction_str(line["net"]),
                     fraction_str(contribution), decimal_str(contribution)])
    for line, p, contribution in _rows(aa_par_lines(analysis), analysis.total_weight, "returned"):
        rows.append(["aa_bonus", line["hand"], line["action"], line["combinations"], fraction_str(p),
                     decimal_str(p), "1/1", fraction_str(line["returned"]), fraction_str(contribution),
                     decimal_str(contribution)])
    return csv_text(["bet", "hand", "outcome", "combinations", "probability", "probability_decimal",
                     "wagered", "net_or_returned", "contribution", "contribution_decimal"], rows)


def strategy_file_bytes(analysis: HoldemAnalysis, decisions: np.ndarray | None = None) -> bytes:
    """The strategy file of the optimal decisions (or of `decisions`, e.g. a basic strategy's)."""
    return strategy_file.encode_decision_table(
        game=GAME, rule_file=analysis.rule_file, groups=[("hole cards", 2), ("flop", 3)], actions=["fold", "call"],
        ev_column="ev_call", key_text="canonical situation: 2 hole cards (descending) then 3 flop cards "
                                      "(descending), card = rank * 4 + suit, suits renamed (docs/strategy-format.md)",
        keys=analysis.table.keys, weights=analysis.table.weights, ev_play=analysis.priced.ev_call,
        denominator=analysis.priced.denominator, situations=analysis.total_weight, decisions=decisions)


def report_content(analysis: HoldemAnalysis) -> ReportContent:
    rules, table, st, priced = analysis.rules, analysis.table, analysis.strategies, analysis.priced
    opt = st["optimal"]
    call, ties = priced.optimal_call()
    published = rules.published
    total = analysis.total_weight

    def note(key):
        return f"published {published[key]}" if key in published else ""
    key_figures = [
        ("house edge per ANTE, optimal strategy", opt.house_edge, note("optimal_house_edge")),
        ("RTP (returned / wagered), optimal strategy", opt.main_rtp_per_wager(rules.call_size), note("optimal_main_rtp")),
        ("probability of calling, optimal strategy", opt.p_call, ""),
        ("AA Bonus RTP, optimal strategy", opt.aa_rtp, note("optimal_aa_bonus_rtp")),
        ("AA Bonus RTP, every hand calls", st["always_call"].aa_rtp, note("every_hand_calls_aa_bonus_rtp")),
        ("RTP (returned / wagered), call on every AA Bonus win",
         st["call_on_aa_win"].main_rtp_per_wager(rules.call_size), ""),
        ("house edge per ANTE, always call", st["always_call"].house_edge, ""),
    ]
    method = (
        f"Every situation the player decides on, 2 hole cards and a 3-card flop ({thousands(total)} of them), "
        f"is followed through every turn/river pair and every dealer hole pair ({thousands(table.continuations)} "
        f"continuations each, {thousands(analysis.total_deals)} deals in all). Situations that differ only by a "
        f"renaming of suits are one class ({thousands(len(table))} classes); each class's weight is how many "
        "raw situations it stands for.\n\n"
        f"The counting runs in two passes. Each of the {thousands(analysis.n_boards)} suit classes of 5-card "
        "boards is evaluated once: every player hole pair's 7-card hand, sorted by rank, and by card removal "
        "the number of dealer hole pairs below, equal to and not qualifying against it. Then, for each of "
        f"the {thousands(analysis.n_flops)} canonical flops and each turn/river pair, every situation adds the "
        "counts of its board (through the suit renaming onto the board's class). All counts are integers; "
        "each situation's EV of calling is an exact fraction over its continuations, and calling is chosen "
        "exactly when it beats folding (-1 ANTE).\n\n"
        "The kernel is checked against a pure-Python brute force on reduced decks (every situation, every "
        "continuation), against direct dealing of random situations on the full deck, and by the verification "
        "below.")
    strategy = (
        f"Optimal main-game strategy: call in {thousands(int(call.sum()))} situation classes "
        f"({thousands(exact_sum(table.weights[call]))} situations), fold in {thousands(int((~call & ~ties).sum()))} "
        f"({thousands(exact_sum(table.weights[~call & ~ties]))}), exactly indifferent in {int(ties.sum())} "
        f"({thousands(exact_sum(table.weights[ties]))}); indifferent situations are counted as folds.\n\n"
        f"With an AA Bonus of {st['joint_optimal'].aa_ratio} x ANTE, the jointly optimal strategy differs from "
        f"the main-game optimum in {thousands(int((st['joint_optimal'].call != call).sum()))} classes: "
        "it calls every AA Bonus win that the main game alone would fold.\n\n"
        + markdown_table(["strategy", "rule", "calls", "house edge / ANTE", "main RTP", "AA Bonus RTP"],
                         [[name, f.description, percent_str(f.p_call, 4), percent_str(f.house_edge, 4),
                           percent_str(f.main_rtp_per_wager(rules.call_size), 4), percent_str(f.aa_rtp, 4)]
                          for name, f in st.items()], "llrrrr")
        + "\n\n### Basic strategy\n\nA rule list a person can play (`basic_strategy.toml`, also as the strategy "
          "file `strategy_basic.bin.gz`); `basic_strategy.md` adds the exact cost of each rule.\n\n"
          + demote(demote(_basic_card_and_table(analysis))))
    margins = priced.ev_call / priced.denominator + 1                  # floats for the plot only
    key_figures.append(("main RTP (returned / wagered), basic strategy",
                        st["basic"].main_rtp_per_wager(rules.call_size), note("basic_main_rtp")))
    figures_ = [("figure_margin.svg", "EV of calling minus EV of folding over all situations",
                 plots.margin_histogram(margins, table.weights / total, "call",
                                        "Call-minus-fold margin, optimal strategy"))]
    return ReportContent(key_figures, method, strategy,
                         par_markdown(analysis), figures_)


def _basic_card_and_table(analysis: HoldemAnalysis) -> str:
    from analyzer import basic_strategy
    from analyzer.strategy_language import strategy_card_markdown
    rows = basic_strategy.three_strategy_table(analysis.priced, analysis.basic)
    return (strategy_card_markdown(analysis.basic) + "\n# The operator's three strategies, with this basic strategy\n\n"
            + basic_strategy.three_strategy_markdown(rows))


def write_results(analysis: HoldemAnalysis, out_root, argv=None, checks: CheckOptions = CheckOptions(),
                  progress=None):
    folder = ResultFolder(out_root, GAME, analysis.rule_file, argv)
    folder.add("summary.json", json_bytes(summary(analysis)))
    folder.add("par_sheet.md", par_markdown(analysis))
    folder.add("par_sheet.csv", par_csv(analysis))
    folder.add("strategy.bin.gz", strategy_file_bytes(analysis))
    add_basic_strategy_files(folder, analysis)
    return publish_with_report(folder, lambda: report_content(analysis), checks, progress)


def add_basic_strategy_files(folder: ResultFolder, analysis: HoldemAnalysis) -> None:
    """The basic strategy: its rule list (data), card with exact figures and costs, and strategy file."""
    from analyzer import basic_strategy
    call = analysis.strategies["basic"].call
    folder.add("basic_strategy.toml", Path(analysis.basic.source).read_bytes())
    folder.add("basic_strategy.md", basic_strategy.basic_strategy_markdown(analysis.priced, analysis.basic))
    folder.add("strategy_basic.bin.gz", strategy_file_bytes(analysis, call.astype(np.uint8)))


def run(rule_path=None, out_root="results", argv=None, progress=None, executor: Executor | None = None,
        aa_ratio=None, checks: CheckOptions = CheckOptions()):
    """Analyse one rule file (default: the operator's), verify, and write its results folder."""
    rule_file, rules = load_rules(rule_path)
    return write_results(analyse(rule_file, rules, progress, executor, aa_ratio), out_root, argv, checks, progress)
