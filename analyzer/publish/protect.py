"""`analyzer protect`: a game-protection scenario's folder, and the rule set's protection report gathering them.

A scenario's leak (`analyzer.figures.protection.Leak`, from the game's `protect`) is written to
OUT/protection/<game folder>/<rule set>/<scenario>/ (protection.md, protection.json, protection.xlsx, the
rule file analysed and SHA256SUMS), swapped in whole (`folder.write_folder_atomically`), beside the honest
analysis's folder, never inside it.  Then the rule set's report (report.md, report.html, report.xlsx in the
folder above the scenarios) is rendered anew from every scenario folder there, each file replaced
atomically: the table of leaks with exact figures (estimates with their 99.9% intervals), the published
anchors beside them (exact minus published) and the method.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from analyzer.core.errors import InputError, OutputError
from analyzer.core.exact import decimal_str, figure, fraction_str
from analyzer.figures.protection import EDGE, Leak, load_anchors
from analyzer.figures.tables import EXACT, Table, markdown_table
from analyzer.formats.manifest import RULES_COPY_NAME
from analyzer.games import registry
from analyzer.games.interface import Protection
from analyzer.games.registry import Game
from analyzer.publish import pipeline
from analyzer.publish.folder import (MOVE_AWAY, check_folder, check_out_root, json_bytes, make_folder,
                                     write_folder_atomically)
from analyzer.publish.markdown_html import to_html
from analyzer.publish.workbook import rules_table, workbook_bytes

FORMAT = "analyzer-protection/1"
REPORT_FILES = ("report.md", "report.html", "report.xlsx")
KINDS = ("dealer-cards", "colluders", "edge-sort", "best-grouping")     # the report's order
HONEST = "dealer-cards-0"        # the report's row of honest play, from any dealer-cards folder's honest EV
PLACES = 8                       # decimals in the tables (the JSON keeps twelve)


@dataclass(frozen=True)
class Protected:
    """One scenario of one rule set, computed and published."""

    rule_file: object
    leak: Leak
    folder: Path


def root(out, game: Game) -> Path:
    """OUT/protection/<game folder>/."""
    return Path(out) / "protection" / game.folder


def run(game: Game, rule_paths, options: dict, settings: pipeline.Run, argv=None) -> list[Protected]:
    """The scenario `options` ask for on each rule file (default: the game's built-in ones), published under
    settings.out_root with each rule set's report.  Every rule file, option and target folder is checked
    before any counting (InputError naming it)."""
    check_out_root(settings.out_root)
    jobs = []
    for rule_file, rules in pipeline.load(game, rule_paths):
        scenario = game.module.protection_scenario(rules, options)
        target = root(settings.out_root, game) / rule_file.name / scenario
        check_folder(target)
        check_report(target.parent)
        jobs.append((rule_file, rules, target))
    pipeline.check_cache(settings, [game])
    done = []
    for rule_file, rules, target in jobs:
        leak = game.module.protect(rule_file, rules, options, lambda: pipeline.count(game, rules, settings),
                                   settings.executor, settings.progress)
        command = command_of(game, rule_file, leak, argv)
        write_folder_atomically(target, scenario_files(game, rule_file, leak, command))
        write_report(game, target.parent)
        done.append(Protected(rule_file, leak, target))
    return done


def command_of(game: Game, rule_file, leak: Leak, argv=None) -> str:
    """The command that reproduces the folder: the built-in rule sets need no --rules."""
    flags = {option.flag.lstrip("-").replace("-", "_"): option.flag
             for option in (*game.protect_scenarios, *game.protect_options)}
    words = ["analyzer", "protect", game.name]
    if rule_file.path.resolve() not in {path.resolve() for path in game.builtin_rule_paths}:
        words += ["--rules", rule_file.path.name]
    for key, value in leak.parameters.items():
        if key in flags:
            words += [flags[key]] if value is True else [flags[key], str(value)]
    return " ".join(words)


# --- one scenario's files ---------------------------------------------------------------------------------------

def figure_json(f) -> dict:
    """{"exact", "decimal"} of an exact figure; an estimate's decimal, interval and half-width, marked as such."""
    if f.exact is not None:
        return figure(f.exact)
    low, high = f.estimate.interval()
    return {"estimate": decimal_str(f.estimate.mean), "interval": [low, high], "confidence": "99.9%",
            "half_width": f.estimate.half_width()}


def leak_json(game: Game, rule_file, leak: Leak, command: str) -> dict:
    return {"format": FORMAT, "game": game.name, "rule_set": rule_file.name, "title": rule_file.title,
            "rule_file": {"name": RULES_COPY_NAME, "source": rule_file.path.name, "sha256": rule_file.sha256},
            "command": command, "scenario": leak.scenario, "kind": leak.kind, "leak": leak.title,
            "parameters": leak.parameters, "figures": {f.key: figure_json(f) for f in leak.figures},
            "labels": {f.key: f.label for f in leak.figures}, "headline": [f.key for f in leak.figures if f.headline],
            "method": leak.method, "notes": list(leak.notes)}


def figures_table(figures) -> Table:
    """Every figure: exact ones in the exact column, estimates beside their 99.9% intervals."""
    rows = []
    for f in figures:
        if f.exact is not None:
            rows.append([f.label, f.key, f.exact, "", ""])
        else:
            rows.append([f.label, f.key, None, decimal_str(f.estimate.mean, PLACES),
                         " .. ".join(f.estimate.interval(places=PLACES))])
    return Table(["Figure", "Key", ("Value", EXACT), "Estimate", "99.9% interval"], rows)


def leak_markdown(game: Game, rule_file, leak: Leak, command: str) -> str:
    lines = [f"# {game.title} ({rule_file.name}): {leak.title}", "",
             f"Rule file {rule_file.path.name}, sha256 `{rule_file.sha256}`.  Reproduce with `{command}`.", ""]
    lines += [f"> {note}\n" for note in leak.notes]
    if any(f.estimate is not None for f in leak.figures):
        lines += ["> Figures marked as estimates come from sampled deals: each is shown with its 99.9% "
                  "confidence interval and is never exact.", ""]
    lines += ["## Figures", "", figures_table(leak.figures).markdown(PLACES)]
    for title, table in leak.tables:
        lines += [f"## {title}", "", table.markdown(PLACES)]
    lines += ["## Method", "", leak.method, ""]
    return "\n".join(lines)


def leak_workbook(game: Game, rule_file, leak: Leak) -> bytes:
    sheets = [("Figures", figures_table(leak.figures))]
    sheets += [(title[:31], table) for title, table in leak.tables]
    sheets.append((pipeline.RULES_SHEET, rules_table(rule_file.data)))
    return workbook_bytes(sheets, {"title": f"{game.title}: {leak.title}",
                                   "subject": f"rule set {rule_file.name}, rule file sha256 {rule_file.sha256}"})


def scenario_files(game: Game, rule_file, leak: Leak, command: str) -> dict:
    return {"protection.md": leak_markdown(game, rule_file, leak, command).encode(),
            "protection.json": json_bytes(leak_json(game, rule_file, leak, command)),
            "protection.xlsx": leak_workbook(game, rule_file, leak), RULES_COPY_NAME: rule_file.raw}


# --- the rule set's report ----------------------------------------------------------------------------------------

def check_report(folder: Path) -> None:
    """Refuse (InputError) a rule-set folder whose report files could not be replaced: a link or not a file."""
    for name in REPORT_FILES:
        path = folder / name
        if os.path.lexists(path) and (path.is_symlink() or not path.is_file()):
            raise InputError(f"{path} exists and is not a file the analyzer wrote: {MOVE_AWAY}")


def scenario_order(name: str) -> tuple:
    kind = next((i for i, k in enumerate(KINDS) if name.startswith(k)), len(KINDS))
    return kind, [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def read_scenarios(folder: Path) -> list[dict]:
    """Every scenario folder's protection.json below a rule-set folder, in the report's order."""
    documents = []
    for path in sorted(folder.glob("*/protection.json"), key=lambda p: scenario_order(p.parent.name)):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise OutputError(f"{path}: cannot be read for the protection report ({error})") from None
        if document.get("format") == FORMAT:
            documents.append(document)
    return documents


def leak_rows(documents: list[dict]) -> list[dict]:
    """The report's rows: every headline figure of every scenario, and honest play (K = 0) before the first
    dealer-cards scenario."""
    rows = []
    for document in documents:
        if document["kind"] == "dealer-cards" and not any(r["scenario"] == HONEST for r in rows):
            rows.append({"scenario": HONEST, "leak": "honest optimal play (no hole card seen)", "key": EDGE,
                         "label": document["labels"]["honest_ev"], **document["figures"]["honest_ev"]})
        for key in document["headline"]:
            rows.append({"scenario": document["scenario"], "leak": document["leak"], "key": key,
                         "label": document["labels"][key], **document["figures"][key]})
    return rows


def report_table(rows: list[dict], anchors: list) -> Table:
    by_key = {(a.scenario, a.figure): a for a in anchors}
    cells = []
    for row in rows:
        anchor = by_key.get((row["scenario"], row["key"]))
        exact = Fraction(row["exact"]) if row.get("exact") else None
        value = None if exact is None else exact
        estimate = "" if exact is not None else f"{row['estimate']} ({' .. '.join(row['interval'])})"
        difference = None
        if anchor is not None and exact is not None:
            difference = exact - anchor.published
        elif anchor is not None:
            estimate += f"; estimate minus published {decimal_str(Fraction(row['estimate']) - anchor.published, 6)}"
        cells.append([row["scenario"], row["leak"], row["label"], value, estimate,
                      anchor.text if anchor else "", difference,
                      "; ".join(filter(None, (anchor.source, anchor.note))) if anchor else ""])
    return Table(["Scenario", "Leak", "Figure", ("Value", EXACT), "Estimate (99.9% interval)", "Published",
                  ("Minus published", EXACT), "Source"], cells)


def report_markdown(game: Game, rule_set: str, documents: list[dict], table: Table, anchors) -> str:
    lines = [f"# Game protection: {game.title} ({rule_set})", "",
             "What each leak is worth to the player, per unit of the base wager, for this rule set: exact figures "
             "(fractions; decimals rounded from them) where every deal is enumerated, estimates with their 99.9% "
             "confidence intervals where deals are sampled.  Published figures are rounded and some may be wrong: "
             "the table reports exact minus published and adjusts nothing.", ""]
    if not documents:
        lines += ["No scenario computed yet.", ""]
        return "\n".join(lines)
    lines += ["## Leaks", "", table.markdown(6)]
    if anchors.about:
        lines += [f"Published anchors: {anchors.about}", ""]
    if anchors.context:
        lines += ["Nothing is published for these figures; the nearest:", ""] + [f"- {c}" for c in anchors.context]
        lines.append("")
    lines += ["## Scenarios", ""]
    lines += [markdown_table(["Scenario", "Leak", "Reproduce with"],
                             [[d["scenario"], d["leak"], f"`{d['command']}`"] for d in documents], "lll")]
    notes = list(dict.fromkeys(note for d in documents for note in d["notes"]))
    lines += [f"> {note}\n" for note in notes]
    lines += ["## Method", ""]
    for kind in dict.fromkeys(d["kind"] for d in documents):
        method = next(d["method"] for d in documents if d["kind"] == kind)
        lines += [f"**{kind}.** {method}", ""]
    return "\n".join(lines)


def write_report(game: Game, folder: Path) -> list[Path]:
    """report.md, report.html and report.xlsx of the rule-set folder, from every scenario folder in it; each
    file written beside its place and renamed over it (a reader sees the old report or the new one)."""
    check_report(folder)
    anchors = load_anchors(game.protection_anchors)
    documents = read_scenarios(folder)
    table = report_table(leak_rows(documents), anchors.entries)
    markdown = report_markdown(game, folder.name, documents, table, anchors)
    title = f"Game protection: {game.title} ({folder.name})"
    files = {"report.md": markdown.encode(), "report.html": to_html(markdown, {}, title).encode(),
             "report.xlsx": workbook_bytes([("Leaks", table)], {"title": title})}
    make_folder(folder)
    written = []
    for name, data in files.items():
        staging = folder / f".{name}.partial-{os.getpid()}"
        try:
            staging.write_bytes(data)
            os.replace(staging, folder / name)
        except OSError as error:
            staging.unlink(missing_ok=True)
            raise OutputError(f"cannot write {folder / name}: {error.strerror or error}") from None
        written.append(folder / name)
    return written


def as_json(protected: list[Protected], game: Game) -> dict:
    """What `--json` prints: {rule set: {"folder", "scenario", "figures", ...}}."""
    return {p.rule_file.name: {**leak_json(game, p.rule_file, p.leak, command_of(game, p.rule_file, p.leak)),
                               "folder": str(p.folder)} for p in protected}


def summary_lines(protected: list[Protected], game: Game) -> list[str]:
    """What the command prints: each rule set's figures, estimates with their intervals."""
    lines = []
    for p in protected:
        lines.append(f"{game.name} ({p.rule_file.name}): {p.leak.title}")
        lines += [f"  {note}" for note in p.leak.notes]
        for f in p.leak.figures:
            if f.exact is not None:
                lines.append(f"  {f.label}: {decimal_str(f.exact, PLACES)}  ({fraction_str(f.exact)})")
            else:
                low, high = f.estimate.interval(places=PLACES)
                lines.append(f"  {f.label}: ESTIMATE {decimal_str(f.estimate.mean, PLACES)}, 99.9% interval "
                             f"{low} .. {high}")
        lines.append(f"  wrote {p.folder} (report: {p.folder.parent / 'report.md'})")
    return lines


def _signed(value: Fraction) -> str:
    return f"{'+' if value >= 0 else ''}{decimal_str(value, 4)}"


def _percent(text: str) -> str:
    return _signed(Fraction(text) * 100) + "%"


def docs_table(results: Path) -> str:
    """docs/protection.md's table of leaks: the player's edge of every committed scenario folder of every
    game and rule set under results/protection/ (a folder that lands later gets its row by being there),
    with the published anchor beside it and exact minus published, in percentage points."""
    cells = []
    for game in (g for g in registry.GAMES if g.has(Protection)):
        by_key = {(a.scenario, a.figure): a for a in load_anchors(game.protection_anchors).entries}
        for folder in sorted(p for p in (results / "protection" / game.folder).glob("*") if p.is_dir()):
            for row in leak_rows(read_scenarios(folder)):
                if not row["key"].startswith(EDGE):
                    continue
                anchor = by_key.get((row["scenario"], row["key"]))
                if row.get("exact"):
                    value = _percent(row["exact"])
                    versus = "" if anchor is None else f"{_signed((Fraction(row['exact']) - anchor.published) * 100)} pp"
                else:
                    value = f"{_percent(row['estimate'])} (99.9%: {' .. '.join(map(_percent, row['interval']))})"
                    versus = "" if anchor is None else "estimate"
                cells.append([game.name, folder.name, f"`{row['scenario']}`" + (f" `{row['key']}`" if row["key"] != EDGE else ""),
                              value, anchor.text if anchor else "", versus])
    return markdown_table(["game", "rule set", "scenario", "player's edge per unit", "published", "exact minus published"],
                          cells, "lllrrr")
