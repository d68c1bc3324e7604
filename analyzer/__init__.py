"""Exact combinatorial analyzer for casino table games.

Casino Hold'em (with the AA Bonus), Caribbean Stud Poker (with the progressive
jackpot) and punto banco Baccarat: every deal is enumerated, every figure is an
exact rational.  The compiled kernels live in `cython_ext`; this package reads
the rule files, turns the kernels' integer counts into fractions, decisions and
files, and provides the command line (`analyzer --help`).
"""
import os

# Nothing here multiplies float matrices big enough for BLAS threads, and numpy's OpenBLAS starts
# one per core at import, which spins after any call: in a run whose cores count and compress,
# ~0.1 s of CPU.  One thread, unless the caller chose (read when numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
