"""A report's figures drawn by a child process while this one writes and verifies the other files.

Drawing is matplotlib code that holds the GIL, and nothing in a results folder waits on
it until the report is built: with a second core, a child draws while the parent writes
the strategy files, PAR sheets and workbook and runs the verification.  The child
(`Drawer`) is forked once, before any counting, while this process is small and has started
no thread: its memory is matplotlib and the figures' data, not a copy of the analysis.  Each
rule set's figures are sent to it as data (a figure's lazy values are made here first),
and their SVG text comes back through a pipe.  The same code (`plots.render`) draws the
same bytes in either process.  The command line forks it before it imports the pipeline and
the games (`analyzer.cli.run_games`), so that the child's import of matplotlib overlaps
theirs rather than the counting.  The child imports matplotlib, waits, and draws each
request itself, keeping what matplotlib caches (fonts, math-text layouts: a second rule
set's figures reuse the first's tick labels, `plots._share_math_layouts`).

It once drew each request in a fork of its own, so that what drawing leaves behind went
with the fork; measured against that, drawing in the child itself holds less at Caribbean
Stud's peak (tree 369-370 MB against 378-387: a fork copies the pages it touches) and takes
~0.2 s less CPU (median of 6 pairs: each fork made matplotlib's caches again), while
`analyzer all` ends ~11 MB higher (433 -> 444 MB: the caches kept).

Without a drawer (one core, no fork, or a caller that starts none) `Drawing` draws in
this process when its result is asked for.  The child ignores Ctrl-C and SIGTERM (the
parent decides, and `Drawer.close` kills it, with its process group, and reaps it on
every way out) and never returns into the parent's code (`os._exit`): no
cleanup of the parent's runs twice.
"""
from __future__ import annotations

import dataclasses
import os
import pickle
import signal
import struct
import traceback
from contextlib import contextmanager

from analyzer.core.errors import InvariantError
from analyzer.core.execution import default_jobs

_LENGTH = struct.Struct("<Q")


def forking() -> bool:
    """Whether a drawing child is worth starting: fork exists and a second core can draw while this one works."""
    return hasattr(os, "fork") and default_jobs() > 1


def _made(figure):
    """The figure with every lazy value (a function of no arguments) made: data that can be sent."""
    return dataclasses.replace(figure, data={name: value() if callable(value) else value
                                             for name, value in figure.data.items()})


def _send(stream, value) -> None:
    """One message: the length of the pickled value, then its bytes."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next value sent, or None at the end of the stream."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    data = stream.read(_LENGTH.unpack(head)[0])
    return pickle.loads(data)


def _serve(requests, replies) -> None:
    """The child's loop: draw each list of figures received, reply (True, svgs) or (False, traceback); it ends
    with the requests."""
    from analyzer.publish import plots
    plots.warm()
    while (figures := _receive(requests)) is not None:
        try:
            reply = (True, plots.render_all(figures))
        except Exception:
            reply = (False, traceback.format_exc())
        _send(replies, reply)


class Drawer:
    """A forked child that draws the figures it is sent, one request at a time."""

    def __init__(self):
        to_child, from_parent = os.pipe()
        to_parent, from_child = os.pipe()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                os.setpgid(0, 0)            # a group of its own, killed together with anything it started
                os.close(from_parent)
                os.close(to_parent)
                with os.fdopen(to_child, "rb") as requests, os.fdopen(from_child, "wb") as replies:
                    _serve(requests, replies)
                status = 0
            finally:
                os._exit(status)
        os.close(to_child)
        os.close(from_child)
        self.pid = pid
        self._requests, self._replies = os.fdopen(from_parent, "wb"), os.fdopen(to_parent, "rb")
        self._waiting = False
        self._asked, self._sent = {}, False       # the figures last asked for: file -> what they draw
        self._drawn = {}                          # what a figure draws (pickled kind and data) -> its SVG text

    def send(self, figures: list) -> None:
        """Ask for these figures (their lazy values made here); `receive` returns their SVG text.  A figure
        that draws what one asked for before did (the same kind and data: rule sets on one count often show
        the same side bet) is not drawn again: the SVG text depends on nothing else."""
        if self._waiting:
            raise InvariantError("the drawing process is still drawing the previous figures")
        made = [_made(figure) for figure in figures]
        self._asked = {figure.file: pickle.dumps((figure.kind, figure.data), protocol=pickle.HIGHEST_PROTOCOL)
                       for figure in made}
        new = [figure for figure in made if self._asked[figure.file] not in self._drawn]
        self._sent = bool(new)
        if new:
            try:
                _send(self._requests, new)
            except BrokenPipeError:             # the child is gone (killed): as when it ends without a reply
                raise InvariantError("the process drawing the report's figures ended without them") from None
        self._waiting = True

    def receive(self) -> dict:
        """The SVG text of the figures last sent, waited for; InvariantError if drawing failed or the child is gone."""
        self._waiting = False
        if self._sent:
            reply = _receive(self._replies)
            if reply is None:
                raise InvariantError("the process drawing the report's figures ended without them")
            drawn, value = reply
            if not drawn:
                raise InvariantError(f"drawing the report's figures failed:\n{value}")
            self._drawn.update((self._asked[file], svg) for file, svg in value.items())
        return {file: self._drawn[key] for file, key in self._asked.items()}

    @property
    def busy(self) -> bool:
        """Whether figures were sent and not yet received."""
        return self._waiting

    def close(self) -> None:
        """Stop and reap the child (idempotent)."""
        if self.pid is not None:
            pid, self.pid = self.pid, None
            for stream in (self._requests, self._replies):
                try:
                    stream.close()
                except OSError:
                    pass
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:      # not yet its own group (or gone): the child alone
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            os.waitpid(pid, 0)


def start_drawer() -> Drawer | None:
    """A Drawer when `forking()`, else None (figures are then drawn in this process)."""
    return Drawer() if forking() else None


@contextmanager
def drawing_process():
    """A Drawer (`start_drawer`: None without a second core) for the duration of the block, stopped and reaped
    on every way out."""
    drawer = start_drawer()
    try:
        yield drawer
    finally:
        if drawer is not None:
            drawer.close()


class Drawing:
    """The SVG text of a report's figures (file name -> text): sent to `drawer` now, or drawn here when asked."""

    def __init__(self, content, drawer: Drawer | None = None):
        self._figures, self._svgs, self._drawer = list(content.figures), None, None
        if not self._figures:
            self._svgs = {}
        elif drawer is not None and drawer.pid is not None and not drawer.busy:
            drawer.send(self._figures)
            self._figures, self._drawer = None, drawer

    def result(self) -> dict:
        """The figures (waited for from the drawer, or drawn here now)."""
        if self._svgs is None:
            if self._drawer is not None:
                drawer, self._drawer = self._drawer, None
                try:
                    self._svgs = drawer.receive()
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
            drawer, self._drawer = self._drawer, None
            drawer.close()
