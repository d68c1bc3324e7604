"""Report figures as deterministic SVG text (matplotlib, no dates, fixed ids): the only module that draws.

Games describe a figure as data (`analyzer.figures.outputs.Figure`: a renderer's name and its
arguments); `render` draws it, from exact results turned into floats for drawing only.  A figure
whose data floats cannot hold (a payout of 1e400) is left out, and the report says so.
"""
from __future__ import annotations

import io
import math
import numbers
import os
from fractions import Fraction

import numpy as np

DRAWABLE = Fraction(10**300)   # the largest magnitude a figure draws (a renderer may scale it by up to 1e6)
STYLE = {"svg.hashsalt": "table-game-analyzer", "svg.fonttype": "path", "font.size": 9,
         "axes.spines.top": False, "axes.spines.right": False}


def _pyplot():
    """matplotlib's pyplot on the Agg backend, imported when the first figure is drawn (not before:
    a run that draws nothing, or has not drawn yet, does not pay for it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    _share_math_layouts()
    return plt


LAYOUTS_KEPT = 4096          # math-text layouts shared at most (a figure's log axes need a dozen or two)


def _share_math_layouts() -> None:
    """Let every renderer of this process reuse a math text's layout (a log axis's tick labels): matplotlib
    caches them per renderer, and bbox_inches="tight" makes two.  A layout depends only on the parser's kind
    and the arguments, so the SVG bytes are the same (tests/publish/test_plots.py); emptied in a forked child
    (its fonts cannot cross a fork).  Without matplotlib's private `_parse_cached`, nothing changes."""
    from matplotlib import mathtext
    parse = getattr(mathtext.MathTextParser._parse_cached, "__wrapped__", None)
    if parse is None or getattr(mathtext.MathTextParser, "_layouts_shared", False):
        return
    layouts = {}

    def shared_parse(parser, s, dpi, prop, antialiased, load_glyph_flags):
        key = (parser._output_type, s, dpi, prop, antialiased, load_glyph_flags)
        layout = layouts.get(key)
        if layout is None:
            if len(layouts) >= LAYOUTS_KEPT:
                layouts.clear()
            layout = layouts[key] = parse(parser, s, dpi, prop, antialiased, load_glyph_flags)
        return layout

    shared_parse.layouts, shared_parse.unshared = layouts, parse        # (for the tests)
    mathtext.MathTextParser._parse_cached = shared_parse
    mathtext.MathTextParser._layouts_shared = True
    os.register_at_fork(after_in_child=layouts.clear)


def warm() -> None:
    """Import matplotlib now (a drawing process does, while it waits for its first figures)."""
    _pyplot()


def _svg(figure) -> str:
    plt = _pyplot()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def margin_histogram(bins, action: str, title: str) -> str:
    """Distribution of the (action minus fold) EV margin over situations, weighted by frequency:
    `bins` = (heights, edges), e.g. `analyzer.poker.decision_table.margin_histogram`."""
    plt = _pyplot()
    heights, edges = bins
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(figsize=(7, 3.2))
        axes.stairs(heights, edges, fill=True, color="#4a6fa5")
        axes.axvline(0, color="#b22222", linewidth=1)
        axes.set(xlabel=f"EV({action}) - EV(fold), in ANTEs", ylabel="share of situations", title=title)
        axes.text(0.01, 0.95, "fold", transform=axes.transAxes, va="top", color="#b22222")
        axes.text(0.99, 0.95, action, transform=axes.transAxes, va="top", ha="right", color="#b22222")
        return _svg(figure)


def rtp_against_jackpot(points: list[tuple[Fraction, Fraction]], break_even: Fraction, title: str) -> str:
    """RTP of a progressive side bet as a function of the jackpot, with the break-even point."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(figsize=(7, 3.2))
        axes.plot([float(j) for j, _ in points], [float(r) * 100 for _, r in points], color="#4a6fa5")
        axes.axhline(100, color="#888888", linewidth=0.8, linestyle="--")
        axes.axvline(float(break_even), color="#b22222", linewidth=1)
        axes.annotate(f"break-even jackpot {float(break_even):,.0f}", (float(break_even), 100),
                      xytext=(8, -14), textcoords="offset points", color="#b22222")
        axes.set(xlabel="jackpot", ylabel="RTP (%)", title=title)
        return _svg(figure)


def effect_of_removal(effects: dict, labels: list[str], bets: list[str], title: str) -> str:
    """Grouped bars: change of each bet's EV when one card of each value leaves the shoe."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        figure, all_axes = plt.subplots(1, len(bets), figsize=(9, 3), sharex=True)
        for axes, bet in zip(all_axes, bets):
            values = [float(effects[v][bet]) * 1e6 for v in range(len(labels))]
            axes.bar(range(len(labels)), values, color=["#4a6fa5" if x >= 0 else "#b22222" for x in values])
            axes.set_xticks(range(len(labels)), [label.split(" ")[0] for label in labels])
            axes.axhline(0, color="#444444", linewidth=0.6)
            axes.set(title=bet.upper(), xlabel="card value removed")
        all_axes[0].set_ylabel("EV change (millionths)")
        figure.suptitle(title)
        return _svg(figure)


def design_curve(points, breakpoints, target, current, xlabel: str, title: str) -> str:
    """House edge against one payout theta, the breakpoints of the optimal strategy marked."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(figsize=(7, 3.2))
        axes.plot([float(t) for t, _ in points], [float(h) * 100 for _, h in points], color="#4a6fa5")
        if breakpoints:
            axes.plot([float(t) for t, _ in breakpoints], [float(h) * 100 for _, h in breakpoints], "|",
                      color="#b22222", markersize=8, label="breakpoints")
        axes.axvline(float(current), color="#888888", linewidth=0.8, linestyle="--", label="rule file")
        if target is not None:
            axes.plot([float(target[0])], [float(target[1]) * 100], "o", color="#b22222", label="theta*")
        axes.set(xlabel=xlabel, ylabel="house edge (%)", title=title)
        axes.legend(loc="best", frameon=False)
        return _svg(figure)


def net_distribution(series: list[dict], title: str) -> str:
    """One panel per wager: the probability of each distinct net result of a round (log scale), one bar each;
    `series` items: {"label", "values": exact net values, "probabilities": their exact probabilities}."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        figure, all_axes = plt.subplots(len(series), 1, figsize=(7, 1.2 + 1.9 * len(series)), squeeze=False)
        for axes, wager in zip(all_axes[:, 0], series):
            values = [float(v) for v in wager["values"]]
            probabilities = [float(p) for p in wager["probabilities"]]
            positions = range(len(values))
            axes.bar(positions, probabilities, color=["#b22222" if v < 0 else "#888888" if v == 0 else "#4a6fa5"
                                                      for v in values])
            axes.set(yscale="log", ylabel="probability")
            many = len(values) > 12
            axes.set_xticks(positions, [f"{v:g}" for v in values], rotation=60 if many else 0, fontsize=7 if many else 9)
            axes.set_title(wager["label"], fontsize=9)
        all_axes[-1, 0].set_xlabel("net result of the round (each distinct value; in units of the initial bet)")
        figure.suptitle(title)
        figure.tight_layout()
        return _svg(figure)


RENDERERS = {"margin_histogram": margin_histogram, "rtp_against_jackpot": rtp_against_jackpot,
             "effect_of_removal": effect_of_removal, "design_curve": design_curve,
             "net_distribution": net_distribution}


def drawable(value) -> bool:
    """Whether every number in a figure's data (nested in dicts, lists, tuples or arrays) is finite and
    within DRAWABLE, so that floats can draw it."""
    if isinstance(value, dict):
        return all(map(drawable, value.values()))
    if isinstance(value, (list, tuple)):
        return all(map(drawable, value))
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.isfinite(value).all() and (abs(value) <= DRAWABLE).all())
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) <= DRAWABLE
    if isinstance(value, numbers.Rational):
        return abs(value) <= DRAWABLE
    return True


def render_all(figures) -> dict:
    """The SVG text of each described figure, by its file name (None for one left out: `render`)."""
    return {figure.file: render(figure) for figure in figures}


def render(figure) -> str | None:
    """The SVG text of a described figure, or None when its data is not `drawable` (a data value given as a
    function of no arguments is made now: large arrays drawn only once need not be held until then)."""
    data = {name: value() if callable(value) else value for name, value in figure.data.items()}
    return RENDERERS[figure.kind](**data) if drawable(data) else None
