"""The statistics of a game's wagers in its PAR sheet, workbook and summary, written once from its declaration.

A game declares its wagers (`WagerEntry`) and what is its own in a `ParStatistics`; from it this module writes
summary.json's round_statistics, the PAR sheet's statistics section and CSV rows, and the workbook's sheets."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from analyzer.core.exact import DECIMAL_PLACES, decimal_str, fraction_str
from analyzer.core.roots import sqrt_decimal_str
from analyzer.figures.distribution import (CONFIDENCE_LEVELS, CONVENTION, SETTLING_ROUNDS, SETTLING_RULE,
                                           SETTLING_TOLERANCES, Z95, WagerStatistics, summary_context)
from analyzer.figures.outputs import Figure
from analyzer.figures.tables import EXACT, KINDS, ROOT, Table, markdown_table, root_str, thousands

ROOT_POINTER = "/round_statistics/"


@dataclass(frozen=True)
class WagerEntry:
    """One wager's statistics under one strategy: its labels, its figures, its place in summary.json."""

    labels: tuple                # e.g. ("optimal", "ANTE + CALL"), one per label column (None: blank)
    stats: WagerStatistics
    path: str                    # where summary.json holds its figures, as a JSON Pointer: "/round_statistics/bets/tie"
    detail: bool = True          # summary.json has its net distribution and settling intervals; the PAR sheet shows it


@dataclass(frozen=True)
class Distribution:
    """A net-result distribution the PAR sheet shows: its heading, the wager, a line said before the table."""

    title: str
    stats: WagerStatistics
    note: str = ""


@dataclass(frozen=True)
class CombinedPlay:
    """The workbook's "Combined play" sheet: label columns, then (title, source) columns, a source being a
    field of `FIGURES` or a kind (the row's next own cell); rows (labels, path, statistics, own cells)."""

    titles: Sequence[str]
    columns: Sequence[tuple[str, str]]
    rows: Sequence[tuple[tuple, str, WagerStatistics, tuple]]


@dataclass(frozen=True)
class ParStatistics:
    """What a game declares of its round statistics; the rest is written alike for every game."""

    entries: Sequence[WagerEntry]      # every wager, in summary order (the PAR sheet shows the detailed ones)
    titles: Sequence[str]              # the label columns' titles (lower case in the PAR sheet)
    definitions: Mapping[str, str]     # round_statistics' "wagers"
    frame: Mapping                     # its other nodes, the game's own, merged with the entries' figures
    convention: str                    # how the wagers are counted
    combined: CombinedPlay
    csv_fields: Mapping[str, str]      # the CSV's columns (`csv_rows`)
    notes: Sequence[tuple[str, str]] = ()          # (intro, Markdown table) after the figures table
    distributions: Sequence[Distribution] = ()     # each a section, or under `distributions_heading`
    distributions_heading: str | None = None
    compact_heading: str | None = None

    @property
    def shown(self) -> list[WagerEntry]:
        """The wagers the PAR sheet shows: the detailed ones."""
        return [e for e in self.entries if e.detail]


#: Every figure of a wager: its summary.json field -> (workbook title, kind, value).
FIGURES = {
    "ev_per_initial_bet": ("EV per initial bet", EXACT, lambda s: s.mean),
    "variance": ("Variance", EXACT, lambda s: s.variance),
    "standard_deviation": ("SD", ROOT, lambda s: s.variance),
    "hit_frequency": ("Hit frequency", EXACT, lambda s: s.hit_frequency),
    "push_probability": ("P(push)", EXACT, lambda s: s.push_probability),
    "loss_probability": ("P(loss)", EXACT, lambda s: s.loss_probability),
    "largest_win.net": ("Largest net win", EXACT, lambda s: s.largest_win and s.largest_win.value),
    "largest_win.probability": ("P(largest net win)", EXACT, lambda s: s.largest_win and s.largest_win.probability),
    "mean_wagered": ("Mean wagered", EXACT, lambda s: s.mean_wagered),
    "rtp": ("RTP", EXACT, lambda s: s.rtp),
    "house_edge_per_unit_wagered": ("House edge per unit wagered", EXACT, lambda s: s.house_edge),
    "sd_per_unit_wagered": ("SD per unit wagered", ROOT, lambda s: s.variance / s.mean_wagered ** 2),
}
SETTLE_TITLES = [f"Rounds to settle within {label} pp (95%)" for label in SETTLING_TOLERANCES]
SETTLE_FIELDS = [f"rounds_to_settle_{label}pp" for label in SETTLING_TOLERANCES]


def derivation(over: str = "") -> str:
    """The sentence every PAR sheet says of its figures (`over`: what the distribution runs over)."""
    return (f"Every figure is derived from the exact distribution of the net result{over and ' over ' + over}; "
            "the variance is exact and the standard deviation (SD) is its square root, rendered by integer "
            "square roots.")


def par_heading(game: str, rule_file, note: str = "") -> list[str]:
    """The PAR sheet's first lines: its title, the rule set with its sha256 (then `note`), "What was counted"."""
    return [f"# PAR sheet: {game}: {rule_file.title}\n",
            f"Rule set `{rule_file.name}` (rule file sha256 `{rule_file.sha256}`).{note and ' ' + note}\n",
            "## What was counted\n"]


def share(combinations: int, total: int, value: Fraction) -> tuple[Fraction, Fraction]:
    """A PAR line's probability (its combinations out of `total`) and its contribution (times `value`)."""
    probability = Fraction(combinations, total)
    return probability, probability * value


def lines_markdown(headers: Sequence[str], lines, total: int, places: int = DECIMAL_PLACES,
                   total_cells: Sequence[str] = ()) -> str:
    """A PAR sheet's table of lines and their total row. Each line is (label texts, combinations, own texts,
    value): its probability (of `total`) follows the combinations and its contribution (probability x value)
    ends the row; the total row gives `total_cells` (else blanks) under the own texts and the contributions' sum."""
    rows, contributions = [], Fraction(0)
    for labels, combinations, cells, value in lines:
        probability, contribution = share(combinations, total, value)
        contributions += contribution
        rows.append([*labels, thousands(combinations), decimal_str(probability, places), *cells,
                     decimal_str(contribution, places)])
    n = len(labels)
    rows.append(["**total**"] + [""] * (n - 1) + [thousands(total), "1"]
                + list(total_cells or [""] * len(cells)) + [f"**{decimal_str(contributions, places)}**"])
    return markdown_table(list(headers), rows, "l" * n + "r" * (len(headers) - n))


def _settle(stats: WagerStatistics) -> list[int]:
    return [stats.rounds_to_settle(epsilon, Z95) for epsilon in SETTLING_TOLERANCES.values()]


# --- summary.json -----------------------------------------------------------------------------

def round_statistics(par: ParStatistics) -> dict:
    """summary.json's round_statistics: shared context, definitions, each entry's figures at its path."""
    out = {**summary_context(), "wagers": par.definitions, **copy.deepcopy(par.frame)}
    for e in par.entries:
        if not e.path.startswith(ROOT_POINTER):
            raise ValueError(f"a wager's path must lie under {ROOT_POINTER}, not {e.path!r}")
        *parents, key = e.path[len(ROOT_POINTER):].split("/")
        node = out
        for parent in parents:
            node = node.setdefault(parent, {})
        node[key] = {**e.stats.as_summary(context=False, detail=e.detail), **node.get(key, {})}
    return out


# --- the PAR sheet (Markdown) -------------------------------------------------------------------

def statistics_markdown(par: ParStatistics) -> str:
    """The PAR sheet's section on volatility: the figures, notes and distributions, how fast the return settles."""
    titles = _markdown_titles(par.shown, par.titles)
    out = ["## Volatility, hit frequency and the net result of a round\n",
           f"Convention: {CONVENTION}. {par.convention}\n", figures_markdown(par.shown, titles)]
    for intro, table in par.notes:
        out += [f"\n{intro}\n", table]
    grouped = par.distributions_heading is not None
    if grouped:
        out.append(f"\n### {par.distributions_heading}\n")
    for i, d in enumerate(par.distributions):
        out.append(("\n" if i or not grouped else "") + ("####" if grouped else "###") + f" {d.title}\n")
        out += [d.note] if d.note else []
        out.append(distribution_markdown(d.stats))
    if par.compact_heading:
        compact = [e for e in par.entries if not e.detail]
        out += [f"\n### {par.compact_heading}\n", figures_markdown(compact, _markdown_titles(compact, par.titles))]
    out += ["\n### How fast the realised return settles\n",
            "Half-width of the 95% interval of the realised return per unit wagered after N rounds, and the rounds "
            f"after which it is within +-0.1 and +-0.01 percentage points ({SETTLING_RULE}; the 99% intervals are in "
            "`par_sheet.xlsx` and `summary.json`).\n",
            settling_markdown(par.shown, titles)]
    return "\n".join(out)


def _markdown_titles(entries: Sequence[WagerEntry], titles: Sequence[str]) -> list[str]:
    return [title.lower() if any(e.labels[i] is not None for e in entries) else f"({title.lower()})"
            for i, title in enumerate(titles)]


def _label_texts(entry: WagerEntry) -> list[str]:
    return ["" if label is None else label for label in entry.labels]


def figures_markdown(entries: Sequence[WagerEntry], label_titles: Sequence[str], places: int = 6) -> str:
    """A compact Markdown table of the main figures (decimals; the variance also exactly)."""
    rows = []
    for e in entries:
        s, largest = e.stats, e.stats.largest_win
        p = largest and largest.probability
        rows.append(_label_texts(e) + [
            decimal_str(s.mean, places), fraction_str(s.variance), decimal_str(s.variance, places),
            s.standard_deviation(places), s.sd_per_unit_wagered(places), decimal_str(s.hit_frequency, places),
            decimal_str(s.push_probability, places), decimal_str(s.loss_probability, places),
            "" if largest is None else f"{decimal_str(largest.value, 2).removesuffix('.00')} "
                                       f"(p = {decimal_str(p, 8 if p >= Fraction(1, 10**6) else 12)})"])
    headers = list(label_titles) + ["EV", "variance (exact)", "variance", "SD", "SD per unit wagered",
                                    "hit frequency", "P(push)", "P(loss)", "largest net win"]
    return markdown_table(headers, rows, "l" * len(label_titles) + "r" * 9)


def distribution_markdown(stats: WagerStatistics, places: int = DECIMAL_PLACES) -> str:
    """One wager's net-result distribution in Markdown: net, count, probability (exact and decimal)."""
    rows = [[fraction_str(v.value).removesuffix("/1"), f"{v.count:,}", fraction_str(v.probability),
             decimal_str(v.probability, places)] for v in stats.distribution]
    rows.append(["**total**", f"{stats.rounds:,}", "1", "1"])
    return markdown_table(["net", "combinations", "probability (exact)", "probability"], rows, "rrrr")


def settling_markdown(entries: Sequence[WagerEntry], label_titles: Sequence[str], places: int = 6) -> str:
    """The 95% half-widths of the realised RTP for N = 10^3 .. 10^8, and the rounds to settle, per wager."""
    headers = list(label_titles) + [f"N = 10^{len(str(n)) - 1}" for n in SETTLING_ROUNDS] \
        + [f"rounds to +-{label} pp" for label in SETTLING_TOLERANCES]
    rows = [_label_texts(e) + [e.stats.interval(n, Z95, places)[0] for n in SETTLING_ROUNDS]
            + [f"{n:,}" for n in _settle(e.stats)] for e in entries]
    return markdown_table(headers, rows, "l" * len(label_titles) + "r" * (len(headers) - len(label_titles)))


def covariance_markdown(title: str, covariances: Sequence[tuple[str, Fraction]]) -> str:
    """A Markdown table of covariances: what each is of (under `title`), exactly and as a decimal."""
    return markdown_table([title, "covariance (exact)", "covariance"],
                          [[label, fraction_str(c), decimal_str(c)] for label, c in covariances], "lrr")


# --- the PAR sheet (CSV) ----------------------------------------------------------------------

def csv_rows(par: ParStatistics, headers: Sequence[str]) -> list[list]:
    """The PAR CSV's statistics rows (fields in docs/summary-fields.md): every net result, then every figure,
    of each wager shown, each field in the column of `headers` that `par.csv_fields` maps to it."""
    columns = [par.csv_fields.get(header) for header in headers]
    joined = "figure" not in par.csv_fields.values()
    names = [title.lower() for title in par.titles]
    at = names.index("wager") + 1
    rows = []
    for e in par.shown:
        labels = dict(zip(names, e.labels))
        labels["wager"] += "".join(f" at {name} {label}" for name, label in zip(names[at:], e.labels[at:]) if label)
        for v in e.stats.distribution:
            p, contribution = v.probability, v.value * v.probability
            rows.append({"kind": "net_result", **labels, "count": v.count, "probability": fraction_str(p),
                         "probability_decimal": decimal_str(p), "net": fraction_str(v.value),
                         "net_decimal": decimal_str(v.value, 6), "contribution": fraction_str(contribution),
                         "contribution_decimal": decimal_str(contribution)})
        for name, exact, decimal, count in _figure_texts(e.stats):
            rows.append({"kind": "figure", **labels, "figure": name, "count": count, "probability": exact,
                         "probability_decimal": decimal})
            if joined:
                rows[-1]["wager"] = f"{labels['wager']}: {name}"
    return [[row.get(column, "") for column in columns] for row in rows]


def _figure_texts(stats: WagerStatistics):
    """(summary.json field, exact text, decimal, count) of each figure a wager has."""
    for name, (_, kind, value_of) in FIGURES.items():
        value = value_of(stats)
        if value is not None:
            yield (name, *((root_str(value), sqrt_decimal_str(value)) if kind == ROOT
                           else (fraction_str(value), decimal_str(value))), "")
    for name, n in zip(SETTLE_FIELDS, _settle(stats)):
        yield name, str(n), str(n), n


# --- the workbook -------------------------------------------------------------------------------

def workbook_sheets(outcomes: Table, par: ParStatistics) -> list:
    """The PAR workbook's sheets: the game's outcomes, then its wagers' statistics (the publisher adds the rules)."""
    return [("Outcomes", outcomes), ("Net distribution", distribution_table(par.entries, par.titles)),
            ("Wager figures", figures_table(par.entries, par.titles)), ("Combined play", combined_table(par.combined)),
            ("Settling", settling_table(par.entries, par.titles))]


def figures_table(entries: Sequence[WagerEntry], label_titles: Sequence[str]) -> Table:
    """One row per wager: its labels, its summary.json path and every PAR figure (exact, roots as roots)."""
    columns = list(label_titles) + ["summary.json", "Rounds counted"] \
        + [(title, kind) for title, kind, _ in FIGURES.values()] + SETTLE_TITLES
    return Table(columns, [list(e.labels) + [e.path, e.stats.rounds]
                           + [value_of(e.stats) for _, _, value_of in FIGURES.values()] + _settle(e.stats)
                           for e in entries])


def distribution_table(entries: Sequence[WagerEntry], label_titles: Sequence[str]) -> Table:
    """Every distinct net result of every detailed wager: labels, summary.json path, net, count, probability."""
    return Table(list(label_titles) + ["summary.json", ("Net", EXACT), "Count", ("Probability", EXACT)],
                 [list(e.labels) + [e.path, v.value, v.count, v.probability]
                  for e in entries if e.detail for v in e.stats.distribution])


def settling_table(entries: Sequence[WagerEntry], label_titles: Sequence[str]) -> Table:
    """The 95% and 99% intervals of each detailed wager's realised return for N = 10^3 .. 10^8 rounds."""
    return Table(list(label_titles) + ["summary.json", "Rounds", "Confidence", "Half-width", "Low", "High"],
                 [list(e.labels) + [e.path, rounds, level, *e.stats.interval(rounds, z)]
                  for e in entries if e.detail for rounds in SETTLING_ROUNDS for level, z in CONFIDENCE_LEVELS.items()])


def combined_table(combined: CombinedPlay) -> Table:
    """The "Combined play" sheet: each row's labels, summary.json path, then the declared columns."""
    def cells(stats: WagerStatistics, own) -> list:
        own = iter(own)
        return [next(own) if source in KINDS else FIGURES[source][2](stats) for _, source in combined.columns]
    return Table(list(combined.titles) + ["summary.json"]
                 + [(title, source if source in KINDS else FIGURES[source][1]) for title, source in combined.columns],
                 [list(labels) + [path] + cells(stats, own) for labels, path, stats, own in combined.rows])


def distribution_figure(caption: str, title: str, series: Sequence[tuple[str, WagerStatistics]]) -> Figure:
    """The report's figure of net-result distributions: one panel per (label, wager)."""
    return Figure("figure_net_distribution.svg", f"{caption} (probability, log scale)", "net_distribution",
                  {"title": title, "series": [{"label": label, "values": [v.value for v in stats.distribution],
                                               "probabilities": [v.probability for v in stats.distribution]}
                                              for label, stats in series]})
