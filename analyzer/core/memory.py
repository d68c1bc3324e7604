"""Freed memory handed back to the system between the stages of a run.

glibc's malloc keeps the heap pages that freed objects leave (and raises its threshold for
giving large blocks their own mapping after each one is freed), so a stage's peak would sit
on top of the garbage of the stages before it: the analysis's temporaries, a strategy file
being written.  `release` (glibc's `malloc_trim(0)`, which also returns free pages in the
middle of the heap) is called where one stage's temporaries are gone and the next begins;
elsewhere (another C library) it does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util


def _trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _trim()


def release() -> None:
    """Return the free memory of this process's heap to the system (no-op without glibc)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
