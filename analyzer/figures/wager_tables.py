"""The PAR sheet's statistics of many wagers at once: figures, net distributions, settling, as Tables and text.

Every game reports several wagers (a main game, a side bet, combined play) under several
strategies; each is a `WagerEntry`: the labels that name it (e.g. ("optimal", "ANTE + CALL")),
its exact `WagerStatistics`, and where summary.json holds its figures (a JSON Pointer, RFC 6901).  This module lays
them out once for every game: `analyzer.figures.tables.Table`s for the workbook (exact columns
as "p/q" beside their decimals, standard deviations as roots), compact Markdown for the
PAR sheets, and flat rows for the PAR sheets' CSV.  Every figure comes from the entry's
exact statistics; nothing is recomputed here.

>>> from analyzer.figures.distribution import RoundOutcomes, WagerStatistics
>>> coin = WagerStatistics.from_outcomes(RoundOutcomes.single("net", {1: 1, -1: 1}), "net", None)
>>> entry = WagerEntry(("coin",), coin, "/bets/coin")
>>> figures_table([entry], ["Bet"]).headers()[:6]
['Bet', 'summary.json', 'Rounds counted', 'EV per initial bet (exact)', 'EV per initial bet', 'Variance (exact)']
>>> [row[:4] for row in distribution_table([entry], ["Bet"]).text_rows(2)]
[['coin', '/bets/coin', '-1/1', '-1.00'], ['coin', '/bets/coin', '1/1', '1.00']]
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from analyzer.figures.distribution import CONFIDENCE_LEVELS, SETTLING_ROUNDS, SETTLING_TOLERANCES, Z95, WagerStatistics
from analyzer.core.exact import DECIMAL_PLACES, decimal_str, fraction_str
from analyzer.core.roots import sqrt_decimal_str
from analyzer.figures.tables import EXACT, ROOT, Table, markdown_table, root_str


@dataclass(frozen=True)
class WagerEntry:
    """One wager's statistics under one strategy: its labels, its figures, its place in summary.json."""

    labels: tuple                # e.g. ("optimal", "ANTE + CALL"), one per label column (None: blank)
    stats: WagerStatistics
    path: str                    # where summary.json holds its figures, as a JSON Pointer: "/round_statistics/bets/tie"
    detail: bool = True          # summary.json has its net distribution and settling intervals (as_summary detail)


FIGURE_COLUMNS = [("EV per initial bet", EXACT), ("Variance", EXACT), ("SD", ROOT), ("Hit frequency", EXACT),
                  ("P(push)", EXACT), ("P(loss)", EXACT), ("Largest net win", EXACT), ("P(largest net win)", EXACT),
                  ("Mean wagered", EXACT), ("RTP", EXACT), ("House edge per unit wagered", EXACT),
                  ("SD per unit wagered", ROOT)]
#: The summary.json field behind each exact or root column of `figures_table` (a root: its "sqrt_of").
FIGURE_FIELDS = ["ev_per_initial_bet", "variance", "standard_deviation", "hit_frequency", "push_probability",
                 "loss_probability", "largest_win.net", "largest_win.probability", "mean_wagered", "rtp",
                 "house_edge_per_unit_wagered", "sd_per_unit_wagered"]
SETTLE_TITLES = [f"Rounds to settle within {label} pp (95%)" for label in SETTLING_TOLERANCES]


def _figures(stats: WagerStatistics) -> list:
    largest = stats.largest_win
    return [stats.mean, stats.variance, stats.variance, stats.hit_frequency, stats.push_probability,
            stats.loss_probability, None if largest is None else largest.value,
            None if largest is None else largest.probability, stats.mean_wagered, stats.rtp, stats.house_edge,
            stats.variance / stats.mean_wagered ** 2]


def _settle(stats: WagerStatistics) -> list[int]:
    return [stats.rounds_to_settle(epsilon, Z95) for epsilon in SETTLING_TOLERANCES.values()]


def figures_table(entries: Sequence[WagerEntry], label_titles: Sequence[str]) -> Table:
    """One row per wager: its labels, its summary.json path and every PAR figure (exact, roots as roots)."""
    columns = list(label_titles) + ["summary.json", "Rounds counted"] + FIGURE_COLUMNS + SETTLE_TITLES
    return Table(columns, [list(e.labels) + [e.path, e.stats.rounds] + _figures(e.stats) + _settle(e.stats)
                           for e in entries])


def distribution_table(entries: Sequence[WagerEntry], label_titles: Sequence[str]) -> Table:
    """Every distinct net result of every wager: its labels, summary.json path, the net value, its count and
    probability (row i of a wager is its net_distribution[i] in summary.json)."""
    return Table(list(label_titles) + ["summary.json", ("Net", EXACT), "Count", ("Probability", EXACT)],
                 [list(e.labels) + [e.path, v.value, v.count, v.probability]
                  for e in entries if e.detail for v in e.stats.distribution])


def settling_table(entries: Sequence[WagerEntry], label_titles: Sequence[str],
                   places: int = DECIMAL_PLACES) -> Table:
    """For N = 10^3 .. 10^8 rounds, the 95% and 99% intervals of each wager's realised return per unit wagered."""
    rows = []
    for e in entries:
        if not e.detail:
            continue
        for rounds in SETTLING_ROUNDS:
            for level, z in CONFIDENCE_LEVELS.items():
                rows.append(list(e.labels) + [e.path, rounds, level, *e.stats.interval(rounds, z, places)])
    return Table(list(label_titles) + ["summary.json", "Rounds", "Confidence", "Half-width", "Low", "High"], rows)


def figures_markdown(entries: Sequence[WagerEntry], label_titles: Sequence[str], places: int = 6) -> str:
    """A compact Markdown table of the main figures (decimals; the variance also exactly)."""
    rows = []
    for e in entries:
        s, largest = e.stats, e.stats.largest_win
        rows.append(_label_texts(e) + [
            decimal_str(s.mean, places), fraction_str(s.variance), decimal_str(s.variance, places),
            s.standard_deviation(places), s.sd_per_unit_wagered(places), decimal_str(s.hit_frequency, places),
            decimal_str(s.push_probability, places), decimal_str(s.loss_probability, places),
            "" if largest is None else f"{decimal_str(largest.value, 2).removesuffix('.00')} "
                                       f"(p = {_probability_text(largest.probability)})"])
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


def _label_texts(entry: WagerEntry) -> list[str]:
    return ["" if label is None else label for label in entry.labels]


def _probability_text(p: Fraction) -> str:
    return decimal_str(p, 8) if p >= Fraction(1, 10**6) else decimal_str(p, 12)


def csv_rows(entries: Sequence[WagerEntry], places: int = DECIMAL_PLACES) -> list[dict]:
    """Flat rows for a PAR sheet's CSV: every net result, then every figure, of every wager.

    Each row: kind ("net_result" or "figure"), labels, name (the net value as "p/q", or the
    figure's summary.json field), count (net results), exact ("p/q"; "sqrt(p/q)" for a
    standard deviation) and decimal.  Each game places them in its own CSV columns.
    """
    rows = []
    for e in entries:
        for v in (e.stats.distribution if e.detail else ()):
            rows.append({"kind": "net_result", "labels": e.labels, "name": fraction_str(v.value), "count": v.count,
                         "exact": fraction_str(v.probability), "decimal": decimal_str(v.probability, places),
                         "value": v.value, "probability": v.probability})
        for field, (title, kind), value in zip(FIGURE_FIELDS, FIGURE_COLUMNS, _figures(e.stats)):
            if value is None:
                continue
            exact = root_str(value) if kind == ROOT else fraction_str(value)
            decimal = sqrt_decimal_str(value, places) if kind == ROOT else decimal_str(value, places)
            rows.append({"kind": "figure", "labels": e.labels, "name": field, "count": None, "exact": exact,
                         "decimal": decimal, "value": None, "probability": None})
        for field, n in zip(("rounds_to_settle_0.1pp", "rounds_to_settle_0.01pp"), _settle(e.stats)):
            rows.append({"kind": "figure", "labels": e.labels, "name": field, "count": n, "exact": str(n),
                         "decimal": str(n), "value": None, "probability": None})
    return rows


def distribution_figure(entries: Sequence[WagerEntry], title: str) -> dict:
    """The data of a net-result distribution figure (`analyzer.publish.plots.net_distribution`): one panel per
    wager, its exact net values and probabilities (the renderer converts them for drawing only)."""
    return {"title": title,
            "series": [{"label": " / ".join(label for label in e.labels if label),
                        "values": [v.value for v in e.stats.distribution],
                        "probabilities": [v.probability for v in e.stats.distribution]} for e in entries]}
