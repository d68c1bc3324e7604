"""A report's figures drawn in a forked child process while this one writes and verifies the other files.

Drawing is matplotlib code that holds the GIL, and nothing else in a results folder waits
on it until the report is built: on a machine with a second core, a child forked when the
figures are described draws them while the parent writes the strategy files, PAR sheets
and workbook and runs the verification.  The fork shares the analysis copy-on-write, so
nothing is pickled on the way in; only the SVG text comes back, through a pipe.  The same
code draws the same bytes in either process (`report.figures`).

Where fork is missing or there is one core, `Drawing` draws in this process when its
result is asked for.  The child ignores Ctrl-C and SIGTERM (the parent decides, and
`close` kills and reaps the child on every way out); it never returns into the parent's
code (`os._exit`), so no cleanup of the parent's (the staging folder's) runs twice.
"""
from __future__ import annotations

import os
import pickle
import signal
import traceback

from analyzer.core.errors import InvariantError
from analyzer.publish import report


def forking() -> bool:
    """Whether figures are drawn in a child: fork exists and a second core can draw while this one works."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) > 1


class Drawing:
    """The SVG text of a report's figures (file name -> text), drawn in a child when `forking()`."""

    def __init__(self, content, fork: bool | None = None):
        self._content, self._svgs, self._pid, self._reader = content, None, None, None
        if not content.figures:
            self._svgs = {}
        elif forking() if fork is None else fork:
            self._start()

    def _start(self) -> None:
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:                                          # the child: draw, send, and leave
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                os.close(reader)
                try:
                    payload = pickle.dumps((True, report.figures(self._content)))
                except Exception:
                    payload = pickle.dumps((False, traceback.format_exc()))
                with os.fdopen(writer, "wb") as pipe:
                    pipe.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(writer)
        self._pid, self._reader = pid, os.fdopen(reader, "rb")
        self._content = None                                  # the child has it; this process need not hold it

    def result(self) -> dict:
        """The figures (drawn here now, or waited for from the child); raises InvariantError if drawing failed."""
        if self._svgs is None:
            if self._pid is None:
                self._svgs = report.figures(self._content)
                self._content = None
            else:
                data = self._reader.read()
                self.close()
                if not data:
                    raise InvariantError("the process drawing the report's figures ended without them")
                drawn, value = pickle.loads(data)
                if not drawn:
                    raise InvariantError(f"drawing the report's figures failed:\n{value}")
                self._svgs = value
        return self._svgs

    def close(self) -> None:
        """Stop and reap the child, if one is still there (idempotent)."""
        if self._pid is not None:
            pid, self._pid = self._pid, None
            self._reader.close()
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
