"""Every Cython source is built and imported as the compiled module, under its installed name."""
import importlib
from pathlib import Path

import pytest

import cython_ext

SOURCES = sorted(Path(cython_ext.__file__).parent.glob("*.pyx"))


def test_there_are_kernels():
    assert {"handeval", "baccarat_enum"} <= {p.stem for p in SOURCES}


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_extension_is_compiled(source):
    module = importlib.import_module(f"cython_ext.{source.stem}")
    assert module.__file__.endswith((".so", ".pyd")), module.__file__
