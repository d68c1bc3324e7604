"""Freed memory handed back to the system between a run's stages (glibc's `malloc_trim`).

glibc keeps the pages freed objects leave, so a stage's peak would sit on the garbage of the stages
before it.  `release` returns them; `one_arena` keeps every thread on the main heap, whose free pages
`release` returns in full.  Without glibc both do nothing.  docs/performance.md gives what they measured.
"""
from __future__ import annotations

import ctypes

_M_ARENA_MAX = -8            # mallopt's parameter number (glibc <malloc.h>)


def _libc(name: str):
    """The C library's function `name`, from the libraries this process has loaded, or None where there is none."""
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _libc("malloc_trim")
_MALLOPT = _libc("mallopt")


def release() -> None:
    """Return the free memory of this process's heap to the system (no-op without glibc)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def one_arena() -> bool:
    """Have every thread allocate from the main heap (glibc's M_ARENA_MAX = 1), so that `release` returns
    what any freed; whether it was set.  For a program's entry point, before it starts threads."""
    return _MALLOPT is not None and _MALLOPT(_M_ARENA_MAX, 1) == 1
