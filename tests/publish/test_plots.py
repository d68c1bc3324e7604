"""Figures are the same bytes whether or not math-text layouts are shared between renderers (plots._share_math_layouts)."""
import os
from fractions import Fraction

import pytest

from analyzer.figures.outputs import Figure
from analyzer.publish import plots


def log_scale_figure() -> Figure:
    """A net_distribution of two wagers: log axes over several decades, so math-text tick labels."""
    series = [{"label": label, "values": [Fraction(v) for v in (-2, -1, 0, 1, 3, 50)],
               "probabilities": [Fraction(1, 10 ** (k + shift)) for k in range(6)]}
              for label, shift in (("ANTE", 0), ("side bet", 2))]
    return Figure("figure_net_distribution.svg", "caption", "net_distribution",
                  {"series": series, "title": "Net result"})


@pytest.fixture
def parser():
    plots._pyplot()
    from matplotlib import mathtext
    return mathtext.MathTextParser


def test_shared_layouts_draw_the_bytes_matplotlib_draws(parser, monkeypatch):
    from matplotlib import _mathtext
    parsed = []
    grammar = _mathtext.Parser.parse
    monkeypatch.setattr(_mathtext.Parser, "parse", lambda self, s, *args: parsed.append(s) or grammar(self, s, *args))
    parser._parse_cached.layouts.clear()
    with_sharing, shared_parses = plots.render(log_scale_figure()), len(parsed)
    monkeypatch.setattr(parser, "_parse_cached", parser._parse_cached.unshared)       # every layout made afresh
    assert plots.render(log_scale_figure()) == with_sharing
    assert 0 < shared_parses < len(parsed) - shared_parses     # the second SVG renderer reused the first's layouts


def test_a_forked_child_starts_with_no_layouts(parser):
    plots.render(log_scale_figure())
    assert parser._parse_cached.layouts
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(writing, str(len(parser._parse_cached.layouts)).encode())
        os._exit(0)
    os.close(writing)
    assert os.read(reading, 16) == b"0"
    os.waitpid(pid, 0)


def test_the_shared_layouts_are_bounded(parser, monkeypatch):
    monkeypatch.setattr(plots, "LAYOUTS_KEPT", 3)
    parser._parse_cached.layouts.clear()
    drawn = plots.render(log_scale_figure())
    assert 0 < len(parser._parse_cached.layouts) <= 3
    monkeypatch.setattr(parser, "_parse_cached", parser._parse_cached.unshared)
    assert plots.render(log_scale_figure()) == drawn
