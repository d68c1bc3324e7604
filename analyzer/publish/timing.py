"""A light recorder of how long each stage of a run takes, for benchmarks/bench_commands.py.

Off unless ANALYZER_TIMINGS names a file when this module is first imported: then `stage(name)` times
its block (wall clock; the CPU time of its thread, which tells working from waiting; the peak resident
memory so far) and `write()` saves every stage recorded to that file as JSON.  Off, both cost nothing.
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


@contextlib.contextmanager
def _timed(name: str):
    _open.append(name)
    cpu, start = time.thread_time(), time.perf_counter()
    try:
        yield
    finally:
        seconds, cpu = time.perf_counter() - start, time.thread_time() - cpu
        _records.append({"stage": " / ".join(_open), "start": round(start - _STARTED, 6),
                         "seconds": round(seconds, 6), "cpu_s": round(cpu, 6),     # ru_maxrss: kB on Linux
                         "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})
        _open.pop()


def stage(name: str):
    """A context manager timing its block as stage `name` (nested stages are named "outer / inner")."""
    return _OFF if PATH is None else _timed(name)


def write() -> None:
    """Save the stages recorded so far to $ANALYZER_TIMINGS (nothing when off)."""
    if PATH is None:
        return
    with open(PATH, "w") as out:
        json.dump({"since_import_s": round(time.perf_counter() - _STARTED, 6), "stages": _records}, out, indent=1)
