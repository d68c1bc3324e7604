"""Figures drawn by the drawing child are the figures drawn here, byte for byte; a failure or a lost child
is reported, and no child outlives its Drawer."""
import os
import subprocess
import sys
from pathlib import Path
from fractions import Fraction

import pytest

from analyzer.core.errors import InvariantError
from analyzer.figures.outputs import Figure, ReportContent
from analyzer.publish import drawing
from analyzer.publish.drawing import Drawer, Drawing
from analyzer.publish.markdown_html import body_html

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is what is tested")


def content(*figures) -> ReportContent:
    return ReportContent([], "", "", "", list(figures))


def jackpot(file="figure_progressive.svg", **data) -> Figure:
    points = [(Fraction(j), Fraction(j, 200_000)) for j in range(0, 400_001, 50_000)]
    data = {"points": points, "break_even": Fraction(200_000), "title": "RTP"} | data
    return Figure(file, "caption", "rtp_against_jackpot", data)


@pytest.fixture
def drawer():
    child = Drawer()
    yield child
    child.close()


def test_the_child_draws_the_bytes_drawn_here(drawer):
    figures = content(jackpot(), jackpot("b.svg", title="other"))
    there = Drawing(figures, drawer)
    here = Drawing(figures)
    assert there.result() == here.result()
    assert set(here.result()) == {"figure_progressive.svg", "b.svg"} and here.result()["b.svg"].startswith("<?xml")
    assert Drawing(content(jackpot("c.svg")), drawer).result()["c.svg"] == here.result()["figure_progressive.svg"]


def test_lazy_values_are_made_here_and_sent(drawer):
    made = []
    figure = jackpot(title=lambda: made.append(1) or "RTP")
    sent = Drawing(content(figure), drawer)
    assert made == [1]
    assert sent.result() == Drawing(content(jackpot())).result()


def test_a_failure_in_the_child_is_raised_with_its_traceback_and_stops_the_child(drawer):
    broken = Figure("x.svg", "", "rtp_against_jackpot", {"points": "not points", "break_even": 1, "title": ""})
    with pytest.raises(InvariantError, match="(?s)drawing the report's figures failed:.*Traceback"):
        Drawing(content(broken), drawer).result()
    assert drawer.pid is None                     # a failed drawing stops the child: later figures are drawn here
    assert Drawing(content(jackpot()), drawer).result()["figure_progressive.svg"].startswith("<?xml")


def test_a_child_ending_without_a_reply_is_an_internal_error(monkeypatch):
    from analyzer.publish import plots
    monkeypatch.setattr(plots, "render_all", lambda figures: os._exit(3))   # in the child, as it draws
    child = Drawer()
    try:
        with pytest.raises(InvariantError, match="ended without them"):
            Drawing(content(jackpot()), child).result()
    finally:
        child.close()


def test_a_lost_child_is_an_internal_error(drawer):
    os.kill(drawer.pid, 9)
    with pytest.raises(InvariantError, match="ended without them"):
        Drawing(content(jackpot()), drawer).result()


def test_figures_given_up_stop_the_child_and_close_reaps_it(drawer):
    pid = drawer.pid
    Drawing(content(jackpot()), drawer).close()
    assert drawer.pid is None
    drawer.close()                                  # idempotent
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)                 # reaped: no such child any more


def test_no_figures_nothing_sent(drawer):
    assert Drawing(content(), drawer).result() == {}


def test_one_core_starts_no_child(monkeypatch):
    monkeypatch.setattr(drawing, "default_jobs", lambda: 1)
    assert not drawing.forking()
    with drawing.drawing_process() as drawer:
        assert drawer is None


FIRST_DRAWER = """
import sys
from analyzer import cli
from analyzer.publish import drawing

class Recorded(drawing.Drawer):
    def __init__(self):
        print("pipeline imported" if "analyzer.publish.pipeline" in sys.modules else "pipeline not imported")
        super().__init__()

drawing.Drawer = Recorded
sys.exit(cli.main(["baccarat", "--quiet", "--check-samples", "0", "--check-rounds", "0", "--out", sys.argv[1]]))
"""


@pytest.mark.skipif(not drawing.forking(), reason="one core: no drawing child")
def test_the_command_line_forks_its_one_drawer_before_importing_the_pipeline(tmp_path):
    run = subprocess.run([sys.executable, "-c", FIRST_DRAWER, str(tmp_path)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "pipeline not imported"       # one drawer: the pipeline draws with it
    assert run.stdout.count("pipeline") == 1
    assert (tmp_path / "baccarat" / "operator" / "figure_net_distribution.svg").is_file()


def test_the_child_renders_the_html_rendered_here(drawer):
    markdown = "## Every figure\n\n| figure | exact |\n|---|---|\n| rtp | 1/2 |\n"
    there, here = Drawing(content(jackpot()), drawer), Drawing(content(jackpot()))
    there.render(markdown)
    here.render(markdown)
    assert there.html() == here.html() == body_html(markdown) and "<td>1/2</td>" in there.html()
    assert there.result() == here.result()                  # the figures, sent first, were not lost
