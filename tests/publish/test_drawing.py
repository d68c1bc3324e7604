"""Figures drawn in a forked child are the figures drawn here, byte for byte; a failure or a lost child is
reported, and no child outlives its Drawing."""
import os
from fractions import Fraction

import pytest

from analyzer.core.errors import InvariantError
from analyzer.core.outputs import Figure, ReportContent
from analyzer.publish import drawing
from analyzer.publish.drawing import Drawing

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is what is tested")


def content(*figures) -> ReportContent:
    return ReportContent([], "", "", "", list(figures))


def jackpot(file="figure_progressive.svg", **data) -> Figure:
    points = [(Fraction(j), Fraction(j, 200_000)) for j in range(0, 400_001, 50_000)]
    data = {"points": points, "break_even": Fraction(200_000), "title": "RTP"} | data
    return Figure(file, "caption", "rtp_against_jackpot", data)


def test_a_forked_drawing_gives_the_bytes_drawn_here():
    forked = Drawing(content(jackpot(), jackpot("b.svg", title="other")), fork=True)
    assert forked._pid is not None
    here = Drawing(content(jackpot(), jackpot("b.svg", title="other")), fork=False)
    assert here._pid is None
    assert forked.result() == here.result()
    assert set(forked.result()) == {"figure_progressive.svg", "b.svg"} and forked.result()["b.svg"].startswith("<?xml")


def test_a_lazy_value_is_made_in_the_child():
    made = []
    figure = jackpot(title=lambda: made.append(1) or "made when drawn")
    assert Drawing(content(figure), fork=True).result()["figure_progressive.svg"].startswith("<?xml")
    assert made == []                              # made in the child, not here


def test_a_failure_in_the_child_is_raised_with_its_traceback():
    broken = Figure("x.svg", "", "rtp_against_jackpot", {"points": "not points", "break_even": 1, "title": ""})
    with pytest.raises(InvariantError, match="(?s)drawing the report's figures failed:.*Traceback"):
        Drawing(content(broken), fork=True).result()


def test_a_lost_child_is_an_internal_error():
    lost = Drawing(content(jackpot()), fork=True)
    os.kill(lost._pid, 9)
    with pytest.raises(InvariantError, match="ended without them"):
        lost.result()


def test_close_kills_and_reaps_the_child():
    waiting = Drawing(content(jackpot()), fork=True)
    pid = waiting._pid
    waiting.close()
    waiting.close()                                 # idempotent
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)                 # reaped: no such child any more


def test_no_figures_no_child():
    assert Drawing(content(), fork=True)._pid is None and Drawing(content()).result() == {}


def test_one_core_draws_here(monkeypatch):
    monkeypatch.setattr(drawing.os, "cpu_count", lambda: 1)
    assert not drawing.forking() and Drawing(content(jackpot()))._pid is None
