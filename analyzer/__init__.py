"""Exact combinatorial analyzer for casino table games.

Casino Hold'em (with the AA Bonus), Caribbean Stud Poker (with the progressive
jackpot) and punto banco Baccarat: every deal is enumerated, every figure is an
exact rational.  The compiled kernels live in `cython_ext`; this package reads
the rule files, turns the kernels' integer counts into fractions, decisions and
files, and provides the command line (`analyzer --help`).
"""
__version__ = "0.1.0"
