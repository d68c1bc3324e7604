"""A report's figures drawn by a child process while this one writes and verifies the other files.

Drawing is matplotlib code that holds the GIL, and nothing in a results folder waits on it
until the report is built: with a second core, a child draws while the parent writes the
strategy files, PAR sheets and workbook and runs the verification.  The command line forks
the child (`Drawer`) once, before it imports the pipeline and the games: its memory is
matplotlib and the figures' data, not a copy of the analysis.  Each rule set's figures are
sent to it as data (a figure's lazy values made here first) and their SVG text comes back;
the same code (`plots.render_all`) draws the same bytes in either process.  Without a drawer
(one core, no fork, a library caller) `Drawing` draws here when its result is asked for.
"""
from __future__ import annotations

import dataclasses
import multiprocessing
import signal
import traceback
from contextlib import contextmanager

from analyzer.core.errors import InvariantError
from analyzer.core.execution import default_jobs


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

    def draw(self, figures: list):
        """Send these figures (their lazy values made here); the function returned waits for their SVG text
        (InvariantError if drawing failed or the child is gone)."""
        try:
            self._connection.send([_made(figure) for figure in figures])
        except (BrokenPipeError, OSError):
            raise InvariantError("the process drawing the report's figures ended without them") from None

        def received() -> dict:
            try:
                drawn, value = self._connection.recv()
            except (EOFError, OSError):
                raise InvariantError("the process drawing the report's figures ended without them") from None
            if not drawn:
                raise InvariantError(f"drawing the report's figures failed:\n{value}")
            return value
        return received

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
        self._figures, self._svgs, self._waiting = list(content.figures), None, None
        if not self._figures:
            self._svgs = {}
        elif drawer is not None and drawer.pid is not None:
            self._waiting, self._drawer = drawer.draw(self._figures), drawer
            self._figures = None

    def result(self) -> dict:
        """The figures (waited for from the drawer, or drawn here now)."""
        if self._svgs is None:
            if self._waiting is not None:
                waiting, self._waiting = self._waiting, None
                try:
                    self._svgs = waiting()
                except BaseException:
                    self._drawer.close()
                    raise
            else:
                from analyzer.publish import plots
                self._svgs = plots.render_all(self._figures)
            self._figures = None
        return self._svgs

    def close(self) -> None:
        """Give up on figures not received: the drawer (which would reply to them) is stopped."""
        if self._waiting is not None:
            self._waiting = None
            self._drawer.close()
