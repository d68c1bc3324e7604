"""Every Cython source is built and imported as the compiled module, under its installed name;
its doctests pass, and its outcome and category codes are the Python side's."""
import doctest
import importlib
from pathlib import Path

import pytest

import cython_ext
from analyzer.poker.hands import CATEGORIES
from analyzer.poker.settlement import NOT_QUALIFIED, OUTCOMES
from cython_ext import handeval, holdem_enum

SOURCES = sorted(Path(cython_ext.__file__).parent.glob("*.pyx"))


def test_there_are_kernels():
    assert {"handeval", "baccarat_enum"} <= {p.stem for p in SOURCES}


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_extension_is_compiled(source):
    module = importlib.import_module(f"cython_ext.{source.stem}")
    assert module.__file__.endswith((".so", ".pyd")), module.__file__


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_kernel_doctests(source):
    """The kernels' doctests run here: pytest's --doctest-modules does not collect compiled modules."""
    module = importlib.import_module(f"cython_ext.{source.stem}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed (output above)"
    assert result.attempted >= 1, f"{module.__name__} has no doctest examples"


def test_outcome_and_category_codes_agree_with_python():
    """The kernels' codes (cython_ext/_types.pxd, as handeval exposes them) are the Python side's indices."""
    assert handeval.CATEGORY_CODES == {name: code for code, name in enumerate(CATEGORIES)}
    assert handeval.OUTCOME_CODES == {name: code for code, name in enumerate(OUTCOMES)}
    assert handeval.OUTCOME_CODES["dealer_not_qualified"] == NOT_QUALIFIED
    assert holdem_enum.COUNTS_PER_SITUATION == len(CATEGORIES) * len(OUTCOMES)
