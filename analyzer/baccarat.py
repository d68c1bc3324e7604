"""Punto banco Baccarat: exact bet results for any shoe, from the kernel's outcome counts.

The kernel (`cython_ext.baccarat_enum`) counts, for a shoe given as the number of
cards of each value, the ordered 6-card sequences that end in each (player total,
banker total, cards dealt) outcome.  This module turns those integers into exact
probabilities, EVs, RTPs, the commission-rounding table and the effect of removal,
and writes the results folder.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer import cards as cardtext
from analyzer import strategy_file
from analyzer.errors import InputError
from analyzer.execution import Chunk, Executor, Part, SerialExecutor, Totals
from analyzer.exact import decimal_str, figure, fraction_str, percent_str, published_check
from analyzer import plots
from analyzer.output import ResultFolder, json_bytes
from analyzer.report import ReportContent, publish_with_report
from analyzer.verify import CheckOptions
from analyzer.rules import (GAME_HEADER, RuleError, RuleFile, boolean, builtin_rule_paths, integer,
                            list_of, load_rule_file, number, table, text)
from analyzer.tables import csv_text, markdown_table, thousands
from cython_ext.baccarat_enum import count_outcomes as _kernel_count_outcomes

GAME = "baccarat"
N_VALUES = 10
CARDS_DEALT = (4, 5, 6)
BETS = ("banker", "player", "tie")
CARDS_PER_DECK_BY_VALUE = (16,) + (4,) * 9     # value 0 = ten, jack, queen, king
VALUE_NAMES = ("0 (T J Q K)", "1 (A)", "2", "3", "4", "5", "6", "7", "8", "9")
INT63 = 2**63 - 1

_total = integer(minimum=0, maximum=9)
_totals = list_of(_total)
SCHEMA = table({
    "game": GAME_HEADER,
    "shoe": table({"decks": integer(minimum=1)}),
    "drawing": table({
        "natural": _totals,
        "player_draws_on": _totals,
        "banker_draws_when_player_stands": _totals,
        "banker_draws_on_player_third_card": table({str(t): _totals for t in range(8)}),
    }),
    "payouts": table({
        "player": number(),
        "banker": number(),
        "tie": number(),
        "tie_pushes_player_and_banker": boolean(),
    }),
    "commission": table({
        "banker": number(maximum=1),
        "rounding": text(choices=("down", "none")),
        "unit": number(minimum=Fraction(1, 10**6)),
    }),
    "limits": table({"min_bet": number(minimum=Fraction(1, 10**6)), "max_bet": number()}),
    "published": table({f"{bet}_rtp": text() for bet in BETS}, optional=tuple(f"{b}_rtp" for b in BETS)),
}, optional=("published",))


@dataclass(frozen=True)
class BaccaratRules:
    """The checked rules of one punto banco variant."""

    decks: int
    natural: frozenset
    player_draws_on: frozenset
    banker_draws_when_player_stands: frozenset
    banker_draws: tuple          # banker_draws[banker total] = frozenset of player third-card values
    pays: dict                   # bet -> Fraction, "to 1" (banker before commission)
    tie_pushes: bool
    commission: Fraction
    rounding: str
    unit: Fraction
    min_bet: Fraction
    max_bet: Fraction
    published: dict

    @classmethod
    def from_rule_file(cls, rule_file: RuleFile) -> "BaccaratRules":
        data, file = rule_file.data, str(rule_file.path)
        drawing = data["drawing"]
        limits = data["limits"]
        if limits["max_bet"] < limits["min_bet"]:
            raise RuleError(file, "limits.max_bet", "is below limits.min_bet")
        if limits["min_bet"] % data["commission"]["unit"]:
            raise RuleError(file, "limits.min_bet", "must be a whole number of commission.unit")
        return cls(
            decks=data["shoe"]["decks"],
            natural=frozenset(drawing["natural"]),
            player_draws_on=frozenset(drawing["player_draws_on"]),
            banker_draws_when_player_stands=frozenset(drawing["banker_draws_when_player_stands"]),
            banker_draws=tuple(frozenset(drawing["banker_draws_on_player_third_card"].get(str(t), ()))
                               for t in range(N_VALUES)),
            pays={bet: data["payouts"][bet] for bet in BETS},
            tie_pushes=data["payouts"]["tie_pushes_player_and_banker"],
            commission=data["commission"]["banker"],
            rounding=data["commission"]["rounding"],
            unit=data["commission"]["unit"],
            min_bet=limits["min_bet"],
            max_bet=limits["max_bet"],
            published=data.get("published", {}),
        )

    def full_shoe(self) -> tuple:
        return tuple(self.decks * n for n in CARDS_PER_DECK_BY_VALUE)

    def flags(self):
        """The tableau as the kernel's byte arrays."""
        def mask(values):
            return np.array([v in values for v in range(N_VALUES)], dtype=np.uint8)
        banker = np.array([[v in self.banker_draws[t] for v in range(N_VALUES)] for t in range(N_VALUES)],
                          dtype=np.uint8).ravel()
        return (mask(self.natural), mask(self.player_draws_on),
                mask(self.banker_draws_when_player_stands), banker)


def load_rules(path=None) -> tuple[RuleFile, BaccaratRules]:
    """The built-in operator rules, or the rule file at `path`."""
    rule_file = load_rule_file(path or builtin_rule_paths(GAME)[0], GAME, SCHEMA)
    return rule_file, BaccaratRules.from_rule_file(rule_file)


# --- shoes -------------------------------------------------------------------------------

class ShoeError(InputError):
    """A shoe that cannot be dealt: negative counts, too few cards, removing absent cards."""


def check_shoe(counts) -> tuple:
    counts = tuple(counts)
    if len(counts) != N_VALUES:
        raise ShoeError(f"a shoe is 10 counts (values 0..9), got {len(counts)}")
    for value, n in enumerate(counts):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ShoeError(f"count of value {VALUE_NAMES[value]} must be a whole number >= 0, got {n!r}")
    if sum(counts) < 6:
        raise ShoeError(f"a round may need 6 cards; this shoe holds {sum(counts)}")
    return counts


def parse_counts(text_counts: str) -> tuple:
    """'128,32,32,...' (ten counts, values 0..9) -> a checked shoe."""
    parts = cardtext.split_tokens(text_counts)
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        raise ShoeError(f"--counts takes 10 whole numbers (values 0..9), got {text_counts!r}") from None
    return check_shoe(counts)


def card_value(rank: int) -> int:
    """Baccarat value of a rank index (0 = deuce .. 12 = ace)."""
    return 1 if rank == 12 else (rank + 2 if rank <= 7 else 0)


def remove_cards(counts, removed_text: str) -> tuple:
    """The shoe after removing cards given by rank ('5,5,9,K' or with suits '5h 9c')."""
    counts = list(counts)
    for token in cardtext.split_tokens(removed_text):
        rank_text = token[:-1] if len(token) >= 2 and token[-1].lower() in cardtext.SUITS \
            and token.upper() != "10" else token
        value = card_value(cardtext.parse_rank(rank_text))
        if counts[value] == 0:
            raise ShoeError(f"cannot remove {token!r}: no card of value {VALUE_NAMES[value]} is left in the shoe")
        counts[value] -= 1
    return check_shoe(counts)


# --- enumeration -------------------------------------------------------------------------

def count_outcomes(counts, rules: BaccaratRules) -> np.ndarray:
    """Ordered 6-card sequence counts, shape (10, 10, 3): [player total, banker total, dealt-4].

    Uses the compiled kernel when every count fits in 63 bits (a shoe of at most 1,448
    cards); larger shoes are counted by the same walk in Python integers.
    """
    counts = check_shoe(counts)
    if sum(counts) ** 6 > INT63:
        return count_outcomes_python(counts, rules)
    out = np.zeros(N_VALUES * N_VALUES * len(CARDS_DEALT), dtype=np.int64)
    _kernel_count_outcomes(np.array(counts, dtype=np.int64), *rules.flags(), out)
    return out.reshape(N_VALUES, N_VALUES, len(CARDS_DEALT)).astype(object)


def count_outcomes_python(counts, rules: BaccaratRules) -> np.ndarray:
    """The kernel's walk in plain Python integers (the fallback for very large shoes)."""
    c = list(counts)
    n = sum(c)
    out = np.zeros((N_VALUES, N_VALUES, len(CARDS_DEALT)), dtype=object)
    tail4, tail5 = (n - 4) * (n - 5), n - 5

    def draw(value):                      # multiplicity of drawing `value`, then remove it
        m = c[value]
        c[value] -= 1
        return m

    for p1 in range(N_VALUES):
        m1 = draw(p1)
        for b1 in range(N_VALUES):
            m2 = m1 * draw(b1)
            for p2 in range(N_VALUES):
                m3 = m2 * draw(p2)
                for b2 in range(N_VALUES):
                    m4 = m3 * draw(b2)
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if m4 == 0:
                        pass
                    elif pt in rules.natural or bt in rules.natural:
                        out[pt, bt, 0] += m4 * tail4
                    elif pt in rules.player_draws_on:
                        for p3 in range(N_VALUES):
                            m5 = m4 * draw(p3)
                            if p3 in rules.banker_draws[bt]:
                                for b3 in range(N_VALUES):
                                    out[(pt + p3) % 10, (bt + b3) % 10, 2] += m5 * c[b3]
                            else:
                                out[(pt + p3) % 10, bt, 1] += m5 * tail5
                            c[p3] += 1
                    elif bt in rules.banker_draws_when_player_stands:
                        for b3 in range(N_VALUES):
                            out[pt, (bt + b3) % 10, 1] += m4 * c[b3] * tail5
                    else:
                        out[pt, bt, 0] += m4 * tail4
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out


@dataclass(frozen=True)
class MainOutcomes:
    """Sequence counts of the three main outcomes of a shoe."""

    banker: int
    player: int
    tie: int

    @property
    def total(self) -> int:
        return self.banker + self.player + self.tie

    @classmethod
    def from_counts(cls, counts: np.ndarray) -> "MainOutcomes":
        by_totals = counts.sum(axis=2)
        banker = sum(int(by_totals[p, b]) for p in range(N_VALUES) for b in range(N_VALUES) if b > p)
        player = sum(int(by_totals[p, b]) for p in range(N_VALUES) for b in range(N_VALUES) if b < p)
        tie = sum(int(by_totals[t, t]) for t in range(N_VALUES))
        return cls(banker=banker, player=player, tie=tie)


def banker_win_return(rules: BaccaratRules, stake: Fraction | None = None) -> Fraction:
    """Total returned per unit staked on a winning BANKER bet.

    With no stake: the nominal figure, commission taken exactly.  With a stake: the
    total returned is rounded as the rules say (down to the cent), divided by the stake.
    """
    nominal = 1 + rules.pays["banker"] * (1 - rules.commission)
    if stake is None or rules.rounding == "none":
        return nominal
    units = math.floor(stake * nominal / rules.unit)
    return units * rules.unit / stake


@dataclass(frozen=True)
class BetLine:
    """One line of a bet's PAR table: an outcome, its count and what it returns per unit."""

    outcome: str
    combinations: int
    returned: Fraction          # total returned per unit staked (stake included)


def bet_lines(main: MainOutcomes, rules: BaccaratRules, banker_return: Fraction | None = None) -> dict:
    """PAR lines of each bet: {bet: [BetLine, ...]} covering every outcome once."""
    push = Fraction(1) if rules.tie_pushes else Fraction(0)
    banker_return = banker_win_return(rules) if banker_return is None else banker_return
    return {
        "banker": [BetLine("banker wins", main.banker, banker_return),
                   BetLine("tie", main.tie, push),
                   BetLine("player wins", main.player, Fraction(0))],
        "player": [BetLine("player wins", main.player, 1 + rules.pays["player"]),
                   BetLine("tie", main.tie, push),
                   BetLine("banker wins", main.banker, Fraction(0))],
        "tie": [BetLine("tie", main.tie, 1 + rules.pays["tie"]),
                BetLine("banker wins", main.banker, Fraction(0)),
                BetLine("player wins", main.player, Fraction(0))],
    }


def rtp_of(lines: list[BetLine]) -> Fraction:
    total = sum(line.combinations for line in lines)
    return sum(Fraction(line.combinations, total) * line.returned for line in lines)


def bet_rtps(counts, rules: BaccaratRules) -> dict:
    """Exact RTP (total returned / total staked) of each bet for a shoe; EV = RTP - 1."""
    main = MainOutcomes.from_counts(count_outcomes(counts, rules))
    return {bet: rtp_of(lines) for bet, lines in bet_lines(main, rules).items()}


def shoe_query(counts, rules: BaccaratRules) -> dict:
    """The live-shoe question: each bet's exact EV per unit for this shoe, and the best bet."""
    evs = {bet: rtp - 1 for bet, rtp in bet_rtps(counts, rules).items()}
    best = max(BETS, key=lambda bet: (evs[bet], -BETS.index(bet)))
    return {"shoe": list(counts), "cards": sum(counts), "ev": evs, "best_bet": best}


def analysis_shoes(rules: BaccaratRules) -> list[tuple]:
    """The shoes an analysis counts: the full shoe, then one card of each value removed."""
    shoes = [rules.full_shoe()]
    for value in range(N_VALUES):
        shoe = list(rules.full_shoe())
        shoe[value] -= 1
        shoes.append(tuple(shoe))
    return shoes


def _shoe_chunk(shared, rules: BaccaratRules, index: int, shoe: tuple) -> list:
    counts = count_outcomes(shoe, rules).reshape(1, -1)
    return [Part("counts", counts if sum(shoe) ** 6 > INT63 else counts.astype(np.int64), index)]


def count_shoes(shoes: list, rules: BaccaratRules, executor: Executor | None = None, progress=None) -> list:
    """Outcome counts (10, 10, 3) of each shoe, one chunk per shoe."""
    exact_python = any(sum(shoe) ** 6 > INT63 for shoe in shoes)     # beyond int64: Python integers
    totals = Totals({"counts": ((len(shoes), N_VALUES * N_VALUES * len(CARDS_DEALT)),
                                object if exact_python else np.int64)})
    executor = SerialExecutor() if exact_python or executor is None else executor
    executor.run([Chunk(_shoe_chunk, (rules, i, shoe)) for i, shoe in enumerate(shoes)], totals, None, progress,
                 "baccarat: shoes")
    return [row.reshape(N_VALUES, N_VALUES, len(CARDS_DEALT)).astype(object) for row in totals["counts"]]


def effect_of_removal(rules: BaccaratRules, counts: list | None = None) -> dict:
    """Change of each bet's EV when one card of each value is removed from the full shoe.

    counts: the outcome counts of analysis_shoes(rules), if already counted.
    """
    counts = counts or count_shoes(analysis_shoes(rules), rules)
    rtps = [{bet: rtp_of(lines) for bet, lines in bet_lines(MainOutcomes.from_counts(c), rules).items()}
            for c in counts]
    return {value: {bet: rtps[value + 1][bet] - rtps[0][bet] for bet in BETS} for value in range(N_VALUES)}


def commission_stakes(rules: BaccaratRules) -> list[Fraction]:
    """Stakes for the rounding table: every unit step to 2.00, then round amounts to the maximum."""
    stakes = set()
    step = Fraction(1, 10)
    stake = rules.min_bet
    while stake <= min(rules.max_bet, Fraction(2)):
        stakes.add(stake)
        stake += step
    for amount in (Fraction(5, 2), 3, 5, 7, Fraction(15, 2), 10, 15, 20, 25, 50, 75, 100, 250, 500, 1000,
                   2500, 5000, 10000):
        if rules.min_bet <= amount <= rules.max_bet:
            stakes.add(Fraction(amount))
    stakes.add(rules.max_bet)
    return sorted(stakes)


# --- the analysis and its files ----------------------------------------------------------

@dataclass
class BaccaratAnalysis:
    rule_file: RuleFile
    rules: BaccaratRules
    counts: np.ndarray
    main: MainOutcomes
    lines: dict
    effects: dict
    stake_rtps: list
    shoe_counts: list          # outcome counts of analysis_shoes(rules)

    @property
    def shoe(self) -> tuple:
        return self.rules.full_shoe()

    def rtp(self, bet: str) -> Fraction:
        return rtp_of(self.lines[bet])


def analyse(rule_file: RuleFile, rules: BaccaratRules, executor: Executor | None = None,
            progress=None) -> BaccaratAnalysis:
    shoe_counts = count_shoes(analysis_shoes(rules), rules, executor, progress)
    main = MainOutcomes.from_counts(shoe_counts[0])
    stake_rtps = []
    for stake in commission_stakes(rules):
        returned = banker_win_return(rules, stake)
        stake_rtps.append((stake, returned, rtp_of(bet_lines(main, rules, returned)["banker"])))
    return BaccaratAnalysis(rule_file, rules, shoe_counts[0], main, bet_lines(main, rules),
                            effect_of_removal(rules, shoe_counts), stake_rtps, shoe_counts)


def money(amount: Fraction) -> str:
    return decimal_str(amount, 2)


def summary(analysis: BaccaratAnalysis) -> dict:
    rules, main = analysis.rules, analysis.main
    n = sum(analysis.shoe)
    bets = {}
    for bet in BETS:
        rtp = analysis.rtp(bet)
        bets[bet] = {"rtp": figure(rtp), "ev_per_unit": figure(rtp - 1), "house_edge": figure(1 - rtp),
                     "rtp_percent": percent_str(rtp, 4),
                     "published": published_check(rules.published.get(f"{bet}_rtp"), rtp)}
    bets["banker"]["note"] = ("nominal commission (a stake whose 1.95x is a whole number of cents); "
                              "see banker_commission_by_stake.csv for every stake")
    return {
        "format": "analyzer-summary/1",
        "game": GAME,
        "rule_set": analysis.rule_file.name,
        "title": analysis.rule_file.title,
        "rtp_definition": "total returned (stake included) / total staked; a push returns the stake",
        "shoe": {"decks": rules.decks, "cards": n, "cards_by_value": list(analysis.shoe)},
        "deals": {"ordered_six_card_sequences": str(main.total),
                  "formula": "·".join(str(n - i) for i in range(6))},
        "outcomes": {name: {"combinations": str(count), "probability": figure(Fraction(count, main.total))}
                     for name, count in (("banker_wins", main.banker), ("player_wins", main.player),
                                         ("tie", main.tie))},
        "bets": bets,
        "effect_of_removal": {VALUE_NAMES[v]: {bet: figure(d) for bet, d in effect.items()}
                              for v, effect in analysis.effects.items()},
    }


def par_rows(analysis: BaccaratAnalysis) -> list[list]:
    rows = []
    total = analysis.main.total
    for bet in BETS:
        for line in analysis.lines[bet]:
            p = Fraction(line.combinations, total)
            rows.append([bet, line.outcome, line.combinations, fraction_str(p), decimal_str(p),
                         fraction_str(line.returned), decimal_str(line.returned, 6),
                         fraction_str(p * line.returned), decimal_str(p * line.returned)])
    return rows


PAR_HEADERS = ["bet", "outcome", "combinations", "probability", "probability_decimal",
               "returned_per_unit", "returned_per_unit_decimal", "contribution_to_rtp",
               "contribution_to_rtp_decimal"]


def outcome_rows(analysis: BaccaratAnalysis) -> list[list]:
    rows = []
    total = analysis.main.total
    for p in range(N_VALUES):
        for b in range(N_VALUES):
            for k, dealt in enumerate(CARDS_DEALT):
                count = int(analysis.counts[p, b, k])
                if count:
                    prob = Fraction(count, total)
                    rows.append([p, b, dealt, count, fraction_str(prob), decimal_str(prob)])
    return rows


def par_markdown(analysis: BaccaratAnalysis) -> str:
    rules, main, rf = analysis.rules, analysis.main, analysis.rule_file
    n = sum(analysis.shoe)
    out = [f"# PAR sheet: Baccarat: {rf.title}\n",
           f"Rule set `{rf.name}` (rule file sha256 `{rf.sha256}`).\n",
           "## What was counted\n",
           f"Every round is dealt from a full shoe of {rules.decks} decks ({n} cards). Every ordered "
           f"sequence of the first six cards is counted once: "
           f"{'·'.join(str(n - i) for i in range(6))} = {thousands(main.total)} sequences; a round "
           "that uses fewer than six cards counts every way to fill the unused positions. "
           "Probabilities are these counts over the total, exactly.\n",
           "## Outcomes\n",
           markdown_table(["outcome", "combinations", "probability", "decimal"],
                          [[name, thousands(c), fraction_str(Fraction(c, main.total)),
                            decimal_str(Fraction(c, main.total))]
                           for name, c in (("banker wins", main.banker), ("player wins", main.player),
                                           ("tie", main.tie))]) ]
    for bet in BETS:
        rtp = analysis.rtp(bet)
        rows = [[line.outcome, thousands(line.combinations), decimal_str(Fraction(line.combinations, main.total)),
                 fraction_str(line.returned),
                 decimal_str(Fraction(line.combinations, main.total) * line.returned)]
                for line in analysis.lines[bet]]
        rows.append(["**total**", thousands(main.total), "1", "", f"**{decimal_str(rtp)}**"])
        pays = f"{rules.pays[bet]} to 1" + (f", less {percent_str(rules.commission, 2)} commission"
                                             if bet == "banker" else "")
        out += [f"## {bet.upper()} bet (pays {pays})\n",
                markdown_table(["outcome", "combinations", "probability", "returned per unit",
                                "contribution to RTP"], rows),
                f"\nRTP = {fraction_str(rtp)} = {percent_str(rtp, 6)}; house edge = "
                f"{fraction_str(1 - rtp)} = {percent_str(1 - rtp, 6)}.\n"]
        check = published_check(rules.published.get(f"{bet}_rtp"), rtp)
        if check:
            verdict = "agrees" if check["agrees"] else "DIFFERS"
            out.append(f"Published RTP {check['published']}; exact RTP rounds to {check['exact_rounded']} "
                       f"({verdict}).\n")
    out += ["## Commission rounding: BANKER RTP by stake\n",
            f"A winning BANKER stake returns {decimal_str(banker_win_return(rules), 2)} x stake rounded "
            f"{rules.rounding} to {money(rules.unit)}. The rounding costs the player exactly when "
            f"{decimal_str(banker_win_return(rules), 2)} x stake is not a whole number of "
            f"{money(rules.unit)} units.\n",
            markdown_table(["stake", "returned on a win", "RTP", "RTP vs nominal"],
                           [[money(s), money(r * s), percent_str(rtp, 6),
                             percent_str(rtp - analysis.rtp("banker"), 6)] for s, r, rtp in analysis.stake_rtps]),
            "\n## Effect of removal (EV change per unit when one card of a value leaves the full shoe)\n",
            markdown_table(["value removed"] + [f"{b.upper()} (x 10^6)" for b in BETS],
                           [[VALUE_NAMES[v]] + [decimal_str(e[b] * 10**6, 4) for b in BETS]
                            for v, e in analysis.effects.items()]),
            "\nEvery final (player total, banker total, cards dealt) outcome with its exact count is "
            "in `outcomes.csv`.\n"]
    return "\n".join(out)


def strategy_header_rules(rules: BaccaratRules) -> dict:
    """The rules an advisor needs, as plain JSON (exact numbers as "p/q")."""
    return {
        "natural": sorted(rules.natural),
        "player_draws_on": sorted(rules.player_draws_on),
        "banker_draws_when_player_stands": sorted(rules.banker_draws_when_player_stands),
        "banker_draws_on_player_third_card": {str(t): sorted(rules.banker_draws[t]) for t in range(8)},
        "pays": {bet: fraction_str(rules.pays[bet]) for bet in BETS},
        "banker_commission": fraction_str(rules.commission),
        "tie_pushes_player_and_banker": rules.tie_pushes,
    }


def rules_from_strategy_header(header: dict) -> BaccaratRules:
    """The BaccaratRules a strategy file's header describes (what the advisor plays by)."""
    r = header["rules"]
    from analyzer.exact import parse_fraction_str
    return BaccaratRules(
        decks=header["decks"], natural=frozenset(r["natural"]), player_draws_on=frozenset(r["player_draws_on"]),
        banker_draws_when_player_stands=frozenset(r["banker_draws_when_player_stands"]),
        banker_draws=tuple(frozenset(r["banker_draws_on_player_third_card"].get(str(t), ())) for t in range(N_VALUES)),
        pays={bet: parse_fraction_str(r["pays"][bet]) for bet in BETS},
        tie_pushes=r["tie_pushes_player_and_banker"], commission=parse_fraction_str(r["banker_commission"]),
        rounding="none", unit=Fraction(1, 100), min_bet=Fraction(0), max_bet=Fraction(0), published={})


def strategy_file_bytes(analysis: BaccaratAnalysis) -> bytes:
    """Reference shoes (the full shoe, then one card of each value removed) with exact outcome counts."""
    rules = analysis.rules
    shoes = analysis_shoes(rules)
    mains = [MainOutcomes.from_counts(counts) for counts in analysis.shoe_counts]
    order = sorted(range(len(shoes)), key=lambda i: shoes[i])
    header = {
        "game": GAME, "rule_set": analysis.rule_file.name, "rule_sha256": analysis.rule_file.sha256,
        "decks": rules.decks, "rules": strategy_header_rules(rules), "actions": list(BETS),
        "key": "shoe: cards left of each value 0 (T J Q K), 1 (A), 2, ..., 9",
        "ev_unit": "unit staked; BANKER with the commission taken exactly",
    }
    return strategy_file.encode(header, {
        "shoe": np.array([shoes[i] for i in order], dtype="<u4"),
        "banker_wins": np.array([mains[i].banker for i in order], dtype="<i8"),
        "player_wins": np.array([mains[i].player for i in order], dtype="<i8"),
        "ties": np.array([mains[i].tie for i in order], dtype="<i8"),
    })


def report_content(analysis: BaccaratAnalysis) -> ReportContent:
    rules, main = analysis.rules, analysis.main
    n = sum(analysis.shoe)
    key_figures = []
    for bet in BETS:
        rtp = analysis.rtp(bet)
        published = rules.published.get(f"{bet}_rtp")
        key_figures += [(f"{bet.upper()} house edge", 1 - rtp, ""),
                        (f"{bet.upper()} RTP", rtp, f"published {published}" if published else "")]
    method = (
        f"Every round is dealt from a full shoe of {rules.decks} decks ({n} cards). The enumeration walks "
        "the cards by value (0 for ten, jack, queen, king; 1 for the ace; 2 to 9), each draw weighted by how "
        "many cards of that value are left, through the drawing tableau of the rule file, and counts every "
        f"ordered sequence of the first six cards once ({'·'.join(str(n - i) for i in range(6))} = "
        f"{thousands(main.total)}); a round that uses fewer than six cards counts every way to fill the "
        "unused positions. The kernel is checked against a card-by-card brute force of every ordered deal "
        "of small shoes, and against the same walk in plain Python integers.\n\n"
        f"BANKER's house edge takes the {percent_str(rules.commission, 2)} commission exactly (a stake whose "
        f"{decimal_str(banker_win_return(rules), 2)} x is a whole number of cents); the PAR sheet's stake table "
        "shows the cost of rounding the payout down to the cent at every other stake.")
    strategy = ("Baccarat has no player decisions after the bet. On a full shoe the best bet is BANKER. The "
                "effect of removal (below, and `effect_of_removal.csv`) shows how each card value leaving the "
                "shoe moves each bet's EV; `analyzer advise baccarat --remove ...` answers any depleted shoe "
                "exactly.")
    svg = plots.effect_of_removal(analysis.effects, list(VALUE_NAMES), list(BETS),
                                  "Effect of removing one card of each value from the full shoe")
    return ReportContent(key_figures, method, strategy, par_markdown(analysis),
                         [("figure_effect_of_removal.svg", "Change of each bet's EV per card value removed", svg)])


def write_results(analysis: BaccaratAnalysis, out_root, argv=None, checks: CheckOptions = CheckOptions(),
                  progress=None):
    folder = ResultFolder(out_root, GAME, analysis.rule_file, argv)
    folder.add("summary.json", json_bytes(summary(analysis)))
    folder.add("par_sheet.md", par_markdown(analysis))
    folder.add("par_sheet.csv", csv_text(PAR_HEADERS, par_rows(analysis)))
    folder.add("strategy.bin.gz", strategy_file_bytes(analysis))
    folder.add("outcomes.csv", csv_text(["player_total", "banker_total", "cards_dealt", "combinations",
                                         "probability", "probability_decimal"], outcome_rows(analysis)))
    folder.add("effect_of_removal.csv", csv_text(
        ["value_removed", "bet", "ev_change", "ev_change_decimal"],
        [[v, bet, fraction_str(d), decimal_str(d)] for v, e in analysis.effects.items() for bet, d in e.items()]))
    folder.add("banker_commission_by_stake.csv", csv_text(
        ["stake", "returned_on_win", "rtp", "rtp_decimal"],
        [[money(s), money(r * s), fraction_str(rtp), decimal_str(rtp)] for s, r, rtp in analysis.stake_rtps]))
    return publish_with_report(folder, lambda: report_content(analysis), checks, progress)


def run(rule_path=None, out_root="results", argv=None, progress=None, executor: Executor | None = None,
        checks: CheckOptions = CheckOptions()):
    """Analyse one rule file (default: the operator's), verify, and write its results folder."""
    rule_file, rules = load_rules(rule_path)
    return write_results(analyse(rule_file, rules, executor), out_root, argv, checks, progress)
