"""A light recorder of how long each stage of a run takes, for benchmarks/bench_commands.py.

Off unless the environment variable ANALYZER_TIMINGS names a file when this module is
first imported: then `stage(name)` times its block (wall clock, `time.perf_counter`; the CPU
time of the thread that ran it, which tells working from waiting for other threads or for a
core; the process's peak resident memory so far) and `write()` saves every stage recorded so
far to that file as JSON.  Off, `stage`
returns one shared do-nothing context manager and `write` returns at once, so the pipeline
can name its stages at no cost.

>>> with stage("an example"):           # off in the test suite: nothing is recorded
...     pass
"""
from __future__ import annotations

import contextlib
import json
import os
import resource
import time

ENVIRONMENT = "ANALYZER_TIMINGS"
PATH = os.environ.get(ENVIRONMENT) or None

_OFF = contextlib.nullcontext()
_STARTED = time.perf_counter()
_records: list = []          # {"stage", "start", "seconds", "cpu_s", "peak_rss_mb"}, as they ended
_open: list = []             # names of the stages running now (outermost first)


class _Stage:
    __slots__ = ("name", "start", "cpu")

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        _open.append(self.name)
        self.cpu = time.thread_time()
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        seconds = time.perf_counter() - self.start
        cpu = time.thread_time() - self.cpu
        name = " / ".join(_open)
        _open.pop()
        _records.append({"stage": name, "start": round(self.start - _STARTED, 6), "seconds": round(seconds, 6),
                         "cpu_s": round(cpu, 6),     # ru_maxrss: kB on Linux
                         "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})
        return False


def stage(name: str):
    """A context manager timing its block as stage `name` (nested stages are named "outer / inner")."""
    return _OFF if PATH is None else _Stage(name)


def write() -> None:
    """Save the stages recorded so far to $ANALYZER_TIMINGS (nothing when off)."""
    if PATH is None:
        return
    with open(PATH, "w") as out:
        json.dump({"since_import_s": round(time.perf_counter() - _STARTED, 6), "stages": _records}, out, indent=1)
