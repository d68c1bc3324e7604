"""A report's figures drawn by a child process while this one writes and verifies the other files.

Drawing holds the GIL and nothing waits on it until the report is built.  The command line forks the
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
    """The child: draw each list of figures received, reply (True, svgs) or (False, traceback), until the parent
    closes its end (or dies).  Ctrl-C reaches the whole process group: the parent decides."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parents_end.close()
    from analyzer.publish import plots
    plots.warm()
    while True:
        try:
            figures = connection.recv()
        except EOFError:
            return
        try:
            connection.send((True, plots.render_all(figures)))
        except Exception:
            connection.send((False, traceback.format_exc()))


class Drawer:
    """A forked child that draws the figures it is sent, one request at a time."""

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

    def draw(self, figures: list) -> None:
        """Send these figures (their lazy values made here) to be drawn; `received` waits for them."""
        try:
            self._connection.send([_made(figure) for figure in figures])
        except OSError:                         # (BrokenPipeError included)
            raise InvariantError(LOST) from None

    def received(self) -> dict:
        """The SVG text of the figures last sent (InvariantError if drawing failed or the child is gone)."""
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
    """The SVG text of a report's figures (file name -> text): sent to `drawer` now, or drawn here when asked."""

    def __init__(self, content, drawer: Drawer | None = None):
        self._figures, self._svgs, self._drawer = list(content.figures), None, None    # _drawer: drawing them
        if not self._figures:
            self._svgs = {}
        elif drawer is not None and drawer.pid is not None:
            drawer.draw(self._figures)
            self._drawer, self._figures = drawer, None

    def result(self) -> dict:
        """The figures (waited for from the drawer, or drawn here now)."""
        if self._svgs is None:
            if self._drawer is not None:
                drawer, self._drawer = self._drawer, None
                try:
                    self._svgs = drawer.received()
                except BaseException:
                    drawer.close()
                    raise
            else:
                from analyzer.publish import plots
                self._svgs = plots.render_all(self._figures)
            self._figures = None
        return self._svgs

    def close(self) -> None:
        """Give up on figures not received: the drawer (which would reply to them) is stopped."""
        if self._drawer is not None:
            self._drawer.close()
            self._drawer = None
