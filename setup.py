"""Build the Cython kernels in cython_ext/ (metadata lives in pyproject.toml).

Compiler directives are set once, here, for every extension.  Set
ANALYZER_BOUNDSCHECK=1 to rebuild with bounds and wraparound checks on when
debugging a kernel.
"""
import os
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
}

OPENMP = ["-fopenmp"]

extensions = [
    Extension(
        f"cython_ext.{Path(source).stem}",
        [source],
        extra_compile_args=["-O3"] + OPENMP,
        extra_link_args=OPENMP,
    )
    for source in sorted(glob("cython_ext/*.pyx"))
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
