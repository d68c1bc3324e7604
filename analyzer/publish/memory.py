"""How a run uses memory: freed memory handed back to the system between its stages, and small pages.

glibc's malloc keeps the heap pages that freed objects leave (and raises its threshold for
giving large blocks their own mapping after each one is freed), so a stage's peak would sit
on top of the garbage of the stages before it: the analysis's temporaries, a strategy file
being written.  `release` (glibc's `malloc_trim(0)`, which also returns free pages in the
middle of the heap) is called where one stage's temporaries are gone and the next begins;
elsewhere (another C library) it does nothing.

A thread that allocates while another holds the heap gets an arena of its own (up to eight
per core), and the free space at the top of such an arena goes back to the system only when
it outgrows the trim threshold (which glibc raises to 64 MB), not on `malloc_trim`: what the
threads compressing the count cache and the strategy files and the verification's threads
had freed stayed with the process (~150 MB carried from Casino Hold'em into Caribbean Stud
in `analyzer all`).  `one_arena` (called by the command line before it starts any thread)
keeps every thread on the one main heap, which `release` returns in full; the threads
allocate few, large buffers, so they rarely wait for each other.
"""
from __future__ import annotations

import ctypes
from contextlib import contextmanager

_M_ARENA_MAX = -8            # mallopt's parameter number (glibc <malloc.h>)
_PR_SET_THP_DISABLE, _PR_GET_THP_DISABLE = 41, 42     # prctl's option numbers (Linux <linux/prctl.h>)


def _libc(name: str):
    """The C library's function `name`, from the libraries this process has loaded (no search for the library:
    `ctypes.util.find_library` runs ldconfig in a subprocess), or None where there is none."""
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _libc("malloc_trim")
_MALLOPT = _libc("mallopt")
_PRCTL = _libc("prctl")


def release() -> None:
    """Return the free memory of this process's heap to the system (no-op without glibc)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def one_arena() -> bool:
    """Have every thread of this process allocate from the main heap (glibc's M_ARENA_MAX = 1), so that
    `release` returns what any of them freed; whether it was set (False without glibc).  For a
    program's entry point, before it starts threads (arenas made before stay)."""
    return _MALLOPT is not None and _MALLOPT(_M_ARENA_MAX, 1) == 1


def small_pages() -> bool:
    """Keep this process, and the processes it forks, on 4 KB pages (Linux's PR_SET_THP_DISABLE), but while
    counting (`huge_pages_while_counting`); whether it was set (False elsewhere).

    numpy asks for transparent huge pages for every large array, and a first touch of one then
    has the kernel find (compacting memory on the spot when none is free) and zero 2 MB at once.
    The stages after counting make and let go of large arrays they write once, in order: measured
    on the 2-core VM of the README's speed table, a Caribbean Stud run spent 0.9-1.1 s in the kernel
    with huge pages and 0.45-0.55 s without, and finished 0.1-0.2 s sooner.
    """
    return _set_small_pages(True)


def _set_small_pages(on: bool) -> bool:
    return _PRCTL is not None and _PRCTL(_PR_SET_THP_DISABLE, int(on), 0, 0, 0) == 0


@contextmanager
def huge_pages_while_counting():
    """Transparent huge pages allowed again while the block runs, the process's setting restored after.

    The counting kernels' tables are large and read all over (Casino Hold'em's passes): with
    4 KB pages their TLB misses cost a Hold'em run 0.6-0.7 s more (measured as `small_pages`);
    what was allocated on huge pages meanwhile stays on them.
    """
    small = _PRCTL is not None and _PRCTL(_PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1
    if small:
        _set_small_pages(False)
    try:
        yield
    finally:
        if small:
            _set_small_pages(True)
