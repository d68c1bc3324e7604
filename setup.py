"""Build the Cython kernels in cython_ext/ (metadata lives in pyproject.toml).

Compiler directives are set once, here, for every extension.  Set
ANALYZER_BOUNDSCHECK=1 to rebuild with bounds and wraparound checks on when
debugging a kernel.
"""
import os
import platform
from glob import glob
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG_CHECKS = os.environ.get("ANALYZER_BOUNDSCHECK", "0") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG_CHECKS,
    "wraparound": DEBUG_CHECKS,
    "cdivision": True,
    "initializedcheck": DEBUG_CHECKS,
    "nonecheck": False,
    # Doctests are found on the functions themselves (binding is on by default in Cython 3;
    # tests/test_extensions.py runs them): no second copy in a module-level __test__ dict.
    "autotestdict": False,
}

OPENMP = ["-fopenmp"]
# The evaluator counts bits: use the CPU's popcount instruction where every CPU of the
# architecture has it (x86-64 since 2008); elsewhere gcc's portable builtin is used.
POPCOUNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

extensions = [
    Extension(
        f"cython_ext.{Path(source).stem}",
        [source],
        include_dirs=["cython_ext"],                # the C helpers beside the kernels (_lanes.h)
        extra_compile_args=["-O3"] + OPENMP + POPCOUNT,
        extra_link_args=OPENMP,
    )
    for source in sorted(glob("cython_ext/*.pyx"))
]


setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
