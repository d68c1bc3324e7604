"""`analyzer audit`: a log of decisions played, judged by exact EVs: honest-optimal, explained only by a leak, or
neither, and what each player gained by the decisions only a leak explains.

A decision is honest-optimal when no action beats it given what the player may see (his cards and the up
card or the flop).  Otherwise a leak explains it when it is an optimal action given more: K of the dealer's
hole cards (`seen-K`; some K of those the dealer held), or the cards of every other seat of its round
pooled (`collusion`).  The smallest K that explains it comes first, collusion last; its gain is its EV
less the honest decision's, both given what that leak shows (for seen cards, the K cards under which it
gains least, so that a total never overstates), and its cost is the honest EV it gave up.  Every EV is
counted exactly, per ANTE, by the game's `seen` module over every completion of what is not seen.
docs/audit-log.md describes the log and the report (audit.md, audit.csv, audit.json, written atomically).
"""
from __future__ import annotations

import csv
import hashlib
import io
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path

from analyzer.core.cards import CardError, card_str, cards_str
from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, figure, fraction_str
from analyzer.core.files import read_regular_file
from analyzer.core.rules import RuleFile
from analyzer.figures.tables import csv_text, markdown_table
from analyzer.games.registry import Game
from analyzer.poker.seen import ColumnError, LoggedDeal, play_ev
from analyzer.publish.folder import check_folder, json_bytes, write_folder_atomically

ROUND, PLAYER, DECISION = "round", "player", "decision"
HONEST, LEAK, NEITHER = "honest-optimal", "leak", "neither"
COLLUSION = "collusion"
FOLD, PLAY = 0, 1                 # the decision: the index of the seen module's ACTIONS
FILES = ("audit.md", "audit.csv", "audit.json")
PLACES = 8                        # decimals of the EVs printed beside the exact values


@dataclass(frozen=True)
class Entry:
    """One decision of the log."""

    line: int
    round: str
    player: str
    deal: LoggedDeal
    decision: int                 # FOLD or PLAY


@dataclass(frozen=True)
class Verdict:
    """What one decision is, by exact EVs per ANTE."""

    entry: Entry
    honest_play: Fraction         # the honest EV of playing (folding's is -1)
    category: str                 # HONEST, LEAK or NEITHER
    leaks: tuple                  # every leak that explains it, the first first: "seen-1" .. "seen-4", COLLUSION
    seen: tuple                   # the dealer's cards the first leak shows (none for collusion)
    gain: Fraction                # its EV less the honest decision's, given what the first leak shows (0 if none)
    cost: Fraction                # the honest EV it gave up (0 when honest-optimal)


@dataclass(frozen=True)
class Audit:
    """A log's verdicts under one rule file."""

    game: Game
    actions: tuple                # (fold, play) as the log writes them
    rule_file: RuleFile
    log: Path
    log_sha256: str
    verdicts: list

    def players(self) -> dict:
        """{player: his totals}, players in the order the log first names them."""
        totals = {}
        for verdict in self.verdicts:
            player = totals.setdefault(verdict.entry.player, {
                "decisions": 0, "categories": Counter(), "by_leak": Counter(), "gain": Fraction(0),
                "gain_by_leak": Counter(), "cost": Fraction(0)})
            player["decisions"] += 1
            player["categories"][verdict.category] += 1
            player["cost"] += verdict.cost
            if verdict.category == LEAK:
                player["by_leak"][verdict.leaks[0]] += 1
                player["gain"] += verdict.gain
                player["gain_by_leak"][verdict.leaks[0]] += verdict.gain
        return totals


def run(game: Game, log, rules_path=None, out=None) -> Audit:
    """The audit of the decision log at `log` under the rule file at `rules_path` (default the game's first
    built-in one), written to the folder `out` when given.  Raises InputError for a bad rule file, log row or
    --out, before anything is written."""
    seen = game.seen
    rule_file, rules = seen.load_rules(rules_path or game.builtin_rule_paths[0])
    if out is not None:
        check_folder(Path(out))
    entries, digest = read_log(Path(log), game, rules)
    rounds = {}
    for entry in entries:
        rounds.setdefault(entry.round, []).append(entry)
    verdicts = []
    for entry in entries:
        try:
            verdicts.append(judge(entry, [e for e in rounds[entry.round] if e is not entry], rules, seen))
        except CardError as error:
            raise InputError(f"{log}: line {entry.line}: {error}") from None
    audit = Audit(game, seen.ACTIONS, rule_file, Path(log), digest, verdicts)
    if out is not None:
        write(audit, Path(out))
    return audit


def read_log(path: Path, game: Game, rules) -> tuple[list[Entry], str]:
    """(the log's decisions, its sha256), every row checked: InputError naming the file, the line and the column."""
    seen = game.seen
    try:
        data = read_regular_file(path)
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise InputError(f"{path}: line {line}: not UTF-8 text") from None
    columns = (ROUND, PLAYER, *seen.LOG_COLUMNS, DECISION)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    entries, rounds = [], {}
    try:
        header = [name.strip().lower() for name in next(reader, [])]
        for column in columns:
            if column not in header:
                raise InputError(f"{path}: line 1: no column {column!r} in the header (a {game.name} log's "
                                 f"columns: {', '.join(columns)}; docs/audit-log.md)")
        repeated = next((name for name in header if name and header.count(name) > 1), None)
        if repeated:
            raise InputError(f"{path}: line 1: column {repeated!r} appears twice in the header")
        for row in reader:
            if not any(field.strip() for field in row):
                continue
            if len(row) != len(header):
                raise InputError(f"{path}: line {reader.line_num}: {len(row)} fields, the header has {len(header)}")
            entry = read_entry(f"{path}: line {reader.line_num}", reader.line_num,
                               {name: field.strip() for name, field in zip(header, row)}, seen, rules)
            check_round(f"{path}: line {entry.line}", entry, rounds.setdefault(entry.round, []))
            rounds[entry.round].append(entry)
            entries.append(entry)
    except csv.Error as error:
        raise InputError(f"{path}: line {reader.line_num}: {error}") from None
    if not entries:
        raise InputError(f"{path}: no decisions (a header and one row per decision; docs/audit-log.md)")
    return entries, hashlib.sha256(data).hexdigest()


def read_entry(where: str, line: int, fields: dict, seen, rules) -> Entry:
    """One row {column: text} read and checked (`where`: the file and line, for messages)."""
    for column in (ROUND, PLAYER):
        if not fields[column]:
            raise InputError(f"{where}, column {column!r}: empty")
    decision = fields[DECISION].lower()
    if decision not in seen.ACTIONS:
        raise InputError(f"{where}, column {DECISION!r}: {fields[DECISION]!r} is not {' or '.join(seen.ACTIONS)}")
    try:
        deal = seen.log_deal(fields)
    except ColumnError as error:
        raise InputError(f"{where}, column {error.column!r}: {error}") from None
    for column, cards in deal.cards.items():
        outside = [card for card in cards if card not in rules.cards]
        if outside:
            raise InputError(f"{where}, column {column!r}: card {card_str(outside[0])} is not in the deck of these "
                             "rules")
    owner = {}
    for column, cards in deal.cards.items():
        for card in cards:
            if owner.setdefault(card, column) != column:
                raise InputError(f"{where}, column {column!r}: card {card_str(card)} is also in column {owner[card]!r}")
    return Entry(line, fields[ROUND], fields[PLAYER], deal, seen.ACTIONS.index(decision))


def check_round(where: str, entry: Entry, earlier: list) -> None:
    """Refuse a row that does not fit the earlier rows of its round: the same player again, other shared cards
    (dealer, board), or a card another seat holds."""
    for other in earlier:
        if other.player == entry.player:
            raise InputError(f"{where}, column {PLAYER!r}: {entry.player!r} already decided in round "
                             f"{entry.round!r} (line {other.line})")
        for column, shared in entry.deal.shared.items():
            if shared != other.deal.shared[column]:
                raise InputError(f"{where}, column {column!r}: not the cards of round {entry.round!r} at line "
                                 f"{other.line}")
        clash = sorted(set(entry.deal.own) & set(other.deal.own))
        if clash:
            column = next(name for name, cards in entry.deal.cards.items() if clash[0] in cards)
            raise InputError(f"{where}, column {column!r}: card {card_str(clash[0])} is also {other.player!r}'s in "
                             f"round {entry.round!r} (line {other.line})")


def judge(entry: Entry, others: list, rules, seen) -> Verdict:
    """The verdict on one decision; `others`: the other rows of its round (the seats colluders pool with)."""
    groups, decision = entry.deal.groups, entry.decision

    def gain(shown=(), dead=()) -> Fraction:
        """The decision's EV less the other action's, given `shown` dealer cards and `dead` cards elsewhere."""
        margin = play_ev(rules.paytable, seen.seen_counts(rules, groups, shown, dead)) + 1
        return margin if decision == PLAY else -margin

    honest = play_ev(rules.paytable, seen.seen_counts(rules, groups))
    cost = max(honest + 1, Fraction(0)) - (honest + 1 if decision == PLAY else Fraction(0))
    if not cost:
        return Verdict(entry, honest, HONEST, (), (), Fraction(0), cost)
    explained = []                # (leak, gain, cards shown): the decision is at least as good as the other
    for k in range(1, seen.SEEN_LIMIT + 1):
        gains = [(g, shown) for shown in combinations(entry.deal.dealer_hole, k) for g in [gain(shown)] if g >= 0]
        if gains:
            explained.append((f"seen-{k}", *min(gains)))
    if others:
        pooled = gain(dead=[card for other in others for card in other.deal.own])
        if pooled >= 0:
            explained.append((COLLUSION, pooled, ()))
    if not explained:
        return Verdict(entry, honest, NEITHER, (), (), Fraction(0), cost)
    return Verdict(entry, honest, LEAK, tuple(leak for leak, _, _ in explained), explained[0][2], explained[0][1],
                   cost)


def honest_decision(verdict: Verdict, actions: tuple) -> str:
    return "either" if verdict.honest_play == -1 else actions[PLAY] if verdict.honest_play > -1 else actions[FOLD]


def leak_words(leak: str) -> str:
    """'seen-2' -> '2 dealer cards seen'."""
    if leak == COLLUSION:
        return "collusion"
    k = int(leak.split("-")[1])
    return f"{k} dealer card{'s' if k > 1 else ''} seen"


def as_json(audit: Audit) -> dict:
    """The report as one JSON document: per player and per decision, exact figures with their decimals."""
    fold, play = audit.actions
    players = [{"player": name, "decisions": t["decisions"], "honest_optimal": t["categories"][HONEST],
                "explained_only_by_a_leak": t["categories"][LEAK], "neither": t["categories"][NEITHER],
                "by_leak": dict(sorted(t["by_leak"].items())), "gain": figure(t["gain"]),
                "gain_by_leak": {k: figure(v) for k, v in sorted(t["gain_by_leak"].items())},
                "honest_ev_given_up": figure(t["cost"])} for name, t in audit.players().items()]
    decisions = [{"line": v.entry.line, "round": v.entry.round, "player": v.entry.player,
                  "decision": audit.actions[v.entry.decision], "honest_decision": honest_decision(v, audit.actions),
                  "honest_ev": {fold: "-1/1", play: fraction_str(v.honest_play)}, "category": v.category,
                  "leak": v.leaks[0] if v.leaks else None, "explained_by": list(v.leaks),
                  "seen": [card_str(c) for c in v.seen], "gain": figure(v.gain), "honest_ev_given_up": figure(v.cost)}
                 for v in audit.verdicts]
    return {"game": audit.game.name, "rule_set": audit.rule_file.name,
            "rule_file": {"name": audit.rule_file.path.name, "sha256": audit.rule_file.sha256},
            "log": {"name": audit.log.name, "sha256": audit.log_sha256}, "ev_unit": "ANTE",
            "players": players, "decisions": decisions}


def csv_report(audit: Audit) -> str:
    """One row per decision."""
    play = audit.actions[PLAY]
    return csv_text(["line", "round", "player", "decision", "honest_decision", "category", "leak", "explained_by",
                     "seen", "gain", "gain_decimal", "honest_ev_given_up", "honest_ev_given_up_decimal",
                     f"honest_ev_{play}"],
                    [[v.entry.line, v.entry.round, v.entry.player, audit.actions[v.entry.decision],
                      honest_decision(v, audit.actions), v.category, v.leaks[0] if v.leaks else "", " ".join(v.leaks),
                      cards_str(v.seen), fraction_str(v.gain), decimal_str(v.gain, PLACES), fraction_str(v.cost),
                      decimal_str(v.cost, PLACES), fraction_str(v.honest_play)] for v in audit.verdicts])


def player_rows(audit: Audit) -> list:
    return [[name, t["decisions"], t["categories"][HONEST], t["categories"][LEAK],
             ", ".join(f"{leak_words(k)}: {n}" for k, n in sorted(t["by_leak"].items())) or "-",
             t["categories"][NEITHER], f"{decimal_str(t['gain'], PLACES)} ({fraction_str(t['gain'])})",
             f"{decimal_str(t['cost'], PLACES)} ({fraction_str(t['cost'])})"] for name, t in audit.players().items()]


def markdown(audit: Audit) -> str:
    """audit.md: the players' totals, the decisions only a leak explains, and how they were judged."""
    leaks = [v for v in audit.verdicts if v.category == LEAK]
    lines = [f"# Audit of {audit.log.name}: {audit.game.title} ({audit.rule_file.name})", "",
             f"Log sha256 `{audit.log_sha256}`; rule file {audit.rule_file.path.name} sha256 "
             f"`{audit.rule_file.sha256}`.  {len(audit.verdicts)} decisions.  EVs per ANTE, exact (decimals "
             "rounded from the fractions).", "",
             "## Players", "",
             markdown_table(["player", "decisions", "honest-optimal", "explained only by a leak", "by leak", "neither",
                             "EV gained by them", "honest EV given up"], player_rows(audit), "lrrrlrrr"),
             "## Decisions only a leak explains", ""]
    if leaks:
        lines.append(markdown_table(["line", "round", "player", "decision", "honest", "leak", "seen", "gain"],
                                    [[v.entry.line, v.entry.round, v.entry.player, audit.actions[v.entry.decision],
                                      honest_decision(v, audit.actions), " ".join(v.leaks), cards_str(v.seen) or "-",
                                      f"{decimal_str(v.gain, PLACES)} ({fraction_str(v.gain)})"] for v in leaks],
                                    "rlllllll"))
    else:
        lines.append("None.\n")
    lines += ["## Method", "",
              "A decision is honest-optimal when no action beats it given the cards the player may see; otherwise "
              "a leak explains it when it is an optimal action given more: K of the dealer's hole cards (seen-K, "
              "the smallest K first; of those K cards, the ones under which it gains least) or every other seat's "
              "cards of its round (collusion); else neither.  Its gain is its EV less the honest decision's, both "
              "given what its first leak shows; the honest EV given up is the honest decision's EV less its own.  "
              "Every EV is counted exactly over every completion of the cards not seen (docs/audit-log.md)."]
    return "\n".join(lines) + "\n"


def write(audit: Audit, out: Path) -> Path:
    """audit.md, audit.csv and audit.json in the folder `out`, published atomically (the folder swapped in whole)."""
    return write_folder_atomically(out, {"audit.md": markdown(audit).encode(), "audit.csv": csv_report(audit).encode(),
                                         "audit.json": json_bytes(as_json(audit))})


def summary_lines(audit: Audit) -> list[str]:
    """What the command prints: one line per player."""
    lines = [f"{audit.game.name} ({audit.rule_file.name}): {len(audit.verdicts)} decisions of {audit.log.name}, "
             "EVs per ANTE"]
    for name, decisions, honest, leak, by_leak, neither, gain, cost in player_rows(audit):
        lines.append(f"  {name}: {decisions} decisions: {honest} honest-optimal, {leak} explained only by a leak "
                     f"({by_leak}), {neither} neither; gained {gain} by them; honest EV given up {cost}")
    return lines
