"""docs/strategy-format.md: its test vectors match a fresh analysis, and a reader written from the
specification alone (tests/spec_reader.py) reproduces every vector."""
import json
from pathlib import Path

import pytest

from analyzer.publish.spec_vectors import build

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "strategy-test-vectors.json"


@pytest.fixture(scope="module")
def fresh(holdem_results, stud_results, baccarat_results):
    return (build(holdem_results.parent.parent, ["casino-holdem"]) + build(stud_results, ["caribbean-stud"])
            + build(baccarat_results, ["baccarat"]))


def test_committed_vectors_match_a_fresh_analysis(fresh):
    assert json.loads(VECTORS.read_text()) == fresh


def test_a_reader_from_the_specification_alone(holdem_results, stud_results):
    import spec_reader
    readers = {"casino-holdem": spec_reader.Reader(holdem_results / "strategy.bin.gz"),
               "caribbean-stud": spec_reader.Reader(stud_results / "caribbean_stud" / "operator" / "strategy.bin.gz")}
    checked = 0
    for vector in json.loads(VECTORS.read_text()):
        if vector["game"] not in readers:
            continue
        key, decision, ev = readers[vector["game"]].decide(*vector["deal"])
        assert key.hex() == vector["key_hex"] and decision == vector["decision"]
        assert {name: f"{v.numerator}/{v.denominator}" for name, v in ev.items()} == vector["ev"]
        checked += 1
    assert checked >= 10
