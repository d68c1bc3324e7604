"""A report's figures drawn, and its large tables rendered to HTML, by a child process while this one writes
and verifies the other files.

Both hold the GIL and nothing waits on them until the report is built.  The command line forks the
child (`Drawer`) once, before it imports the pipeline and the games, so its memory is matplotlib and
the figures' data.  Figures are sent as data and their SVG text comes back, drawn by the same code
(`plots.render_all`) as here.  Without a drawer (one core, no fork) `Drawing` draws here when asked.
"""
from __future__ import annotations

import dataclasses
import multiprocessing
import signal
import traceback
from contextlib import contextmanager

from analyzer.core.errors import InvariantError
from analyzer.core.execution import default_jobs

LOST = "the process drawing the report's figures ended without them"


def forking() -> bool:
    """Whether a drawing child is worth starting: fork exists and a second core can draw while this one works."""
    return "fork" in multiprocessing.get_all_start_methods() and default_jobs() > 1


def _made(figure):
    """The figure with every lazy value (a function of no arguments) made: data that can be sent."""
    return dataclasses.replace(figure, data={name: value() if callable(value) else value
                                             for name, value in figure.data.items()})


def _serve(connection, parents_end) -> None:
    """The child: draw each list of figures received (render each Markdown text), reply (True, svgs or HTML) or
    (False, traceback), until the parent closes its end (or dies).  Ctrl-C reaches the whole process group:
    the parent decides."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parents_end.close()
    from analyzer.publish import markdown_html, plots
    plots.warm()
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        try:
            connection.send((True, markdown_html.body_html(request) if isinstance(request, str)
                             else plots.render_all(request)))
        except Exception:
            connection.send((False, traceback.format_exc()))


class Drawer:
    """A forked child that draws the figures (renders the Markdown) it is sent, one request at a time, in order."""

    def __init__(self):
        context = multiprocessing.get_context("fork")
        self._connection, child_end = context.Pipe()
        self._process = context.Process(target=_serve, args=(child_end, self._connection), daemon=True)
        self._process.start()
        child_end.close()

    @property
    def pid(self) -> int | None:
        """The child's process id; None once stopped."""
        return None if self._process is None else self._process.pid

    def draw(self, figures: list | str) -> None:
        """Send these figures (their lazy values made here) to be drawn, or Markdown to be rendered; `received`
        waits for the earliest not received."""
        try:
            self._connection.send(figures if isinstance(figures, str) else [_made(figure) for figure in figures])
        except OSError:                         # (BrokenPipeError included)
            raise InvariantError(LOST) from None

    def received(self) -> dict | str:
        """The SVG text of the earliest figures sent, or its HTML (InvariantError if that failed or the child is gone)."""
        try:
            drawn, value = self._connection.recv()
        except (EOFError, OSError):
            raise InvariantError(LOST) from None
        if not drawn:
            raise InvariantError(f"drawing the report's figures failed:\n{value}")
        return value

    def close(self) -> None:
        """Stop and reap the child (idempotent)."""
        if self._process is not None:
            process, self._process = self._process, None
            self._connection.close()
            process.kill()
            process.join()


@contextmanager
def drawing_process():
    """A Drawer (None without a second core) for the duration of the block, stopped and reaped on every way out."""
    drawer = Drawer() if forking() else None
    try:
        yield drawer
    finally:
        if drawer is not None:
            drawer.close()


class Drawing:
    """The SVG text of a report's figures (file name -> text) and the HTML of Markdown given to `render`: sent to
    `drawer` now, or made here when asked."""

    def __init__(self, content, drawer: Drawer | None = None):
        self._figures, self._drawer, self._asked = list(content.figures), None, 0    # _asked: requests sent
        self._svgs = self.markdown = self._html = None
        if drawer is not None and drawer.pid is not None:
            drawer.draw(self._figures)
            self._drawer, self._asked = drawer, 1

    def render(self, markdown: str) -> None:
        """Have this Markdown rendered too (after the figures); `html` answers it."""
        self.markdown = markdown
        if self._drawer is not None:
            self._drawer.draw(markdown)
            self._asked += 1

    def result(self) -> dict:
        """The figures (waited for from the drawer, or drawn here now)."""
        if self._svgs is None:
            if self._drawer is not None:
                self._svgs = self._received()
            else:
                from analyzer.publish import plots
                self._svgs = plots.render_all(self._figures)
            self._figures = None
        return self._svgs

    def html(self) -> str:
        """The HTML of the Markdown given to `render` (waited for from the drawer, or rendered here now)."""
        self.result()
        if self._html is None:
            if self._asked:
                self._html = self._received()
            else:
                from analyzer.publish.markdown_html import body_html
                self._html = body_html(self.markdown)
        return self._html

    def _received(self):
        self._asked -= 1
        try:
            return self._drawer.received()
        except BaseException:
            self._drawer.close()
            self._drawer, self._asked = None, 0
            raise

    def close(self) -> None:
        """Give up on what was not received: the drawer (which would reply to it) is stopped."""
        if self._drawer is not None and self._asked:
            self._drawer.close()
        self._drawer, self._asked = None, 0
