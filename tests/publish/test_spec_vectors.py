"""docs/strategy-format.md: its test vectors match a fresh analysis, and a reader written from the
specification alone (tests/spec_reader.py) reproduces every vector."""
import json
from pathlib import Path

import pytest

import support

from analyzer.publish.spec_vectors import build

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "strategy-test-vectors.json"


@pytest.fixture(scope="module")
def fresh(holdem_results, stud_results, baccarat_results):
    return (build(holdem_results.parent.parent, ["casino-holdem"]) + build(stud_results, ["caribbean-stud"])
            + build(baccarat_results, ["baccarat"]))


def test_committed_vectors_match_a_fresh_analysis(fresh):
    assert json.loads(VECTORS.read_text()) == fresh


def test_a_reader_from_the_specification_alone(holdem_results, stud_results, baccarat_results, tmp_path):
    import spec_reader
    readers = {("casino-holdem", "operator"): spec_reader.Reader(holdem_results / "strategy.bin.gz")}
    for rule_set in ("operator", "standard"):
        readers[("caribbean-stud", rule_set)] = spec_reader.Reader(
            stud_results / "caribbean_stud" / rule_set / "strategy.bin.gz")
    shoes = spec_reader.ShoeReader(baccarat_results / "baccarat" / "operator" / "strategy.bin.gz")
    answered, refused, either, rule_sets, shoe_ties = 0, set(), 0, set(), 0
    for vector in json.loads(VECTORS.read_text()):
        if vector["game"] == "baccarat":
            if "refused" in vector:
                with pytest.raises(spec_reader.Refused) as caught:
                    shoes.shoe(vector.get("removed"), vector.get("counts"))
                assert caught.value.rule == vector["refused"], vector
                refused.add(vector["refused"])
            else:
                shoe = shoes.shoe(vector.get("removed"), vector.get("counts"))
                decision, ev, margin = shoes.decide(shoe)
                assert shoe == vector["shoe"] and decision == vector["decision"], vector
                assert {bet: f"{v.numerator}/{v.denominator}" for bet, v in ev.items()} == vector["ev"]
                assert f"{margin.numerator}/{margin.denominator}" == vector["margin"]
                shoe_ties += sorted(ev.values())[-1] == sorted(ev.values())[-2]
            continue
        reader = readers[(vector["game"], vector["rule_set"])]
        assert vector["groups"] == [group["name"] for group in reader.header["groups"]]
        if "refused" in vector:
            with pytest.raises(spec_reader.Refused) as caught:
                reader.decide(*vector["deal"])
            assert caught.value.rule == vector["refused"], vector
            refused.add(vector["refused"])
            continue
        key, decision, ev = reader.decide(*vector["deal"])
        assert key.hex() == vector["key_hex"] and decision == vector["decision"]
        assert {name: f"{v.numerator}/{v.denominator}" for name, v in ev.items()} == vector["ev"]
        answered += 1
        either += decision == "either"
        rule_sets.add((vector["game"], vector["rule_set"]))
    assert answered >= 20 and either >= 1 and shoe_ties >= 1 and ("caribbean-stud", "standard") in rule_sets
    assert refused == {"malformed-card", "wrong-count", "repeated-card", "removed-too-often", "not-counts",
                       "above-full-shoe", "too-few-cards"}


def test_the_two_stud_rule_sets_are_told_apart():
    """The same strong hands, looked up in the wrong rule set's file, give other EVs."""
    vectors = [v for v in json.loads(VECTORS.read_text()) if v["game"] == "caribbean-stud" and "refused" not in v]
    by_deal = {}
    for vector in vectors:
        by_deal.setdefault(tuple(vector["deal"]), {})[vector["rule_set"]] = vector["ev"]["raise"]
    both = [evs for evs in by_deal.values() if len(evs) == 2]
    assert len(both) >= 4 and all(evs["operator"] != evs["standard"] for evs in both)


def test_a_card_outside_a_reduced_deck_is_refused_by_both_readers(tmp_path, quick_checks):
    """The outside-deck rule (no vector: the built-in decks are full) on a clubs-and-diamonds deck."""
    import spec_reader
    from analyzer import advisor
    from analyzer.core.cards import CardError
    path = support.reduced_deck(tmp_path, "casino-holdem", "6789TJQKA", "cd")
    folder, = support.run_game("casino-holdem", tmp_path / "results", [path], checks=quick_checks)
    reader = spec_reader.Reader(folder / "strategy.bin.gz")
    strategy = advisor.load_strategy(folder / "strategy.bin.gz")
    for hole, flop, outside in (("Ah Kh", "Qh 7h 2h", "Ah"), ("Ac Kc", "Qd 7d 2c", "2c")):   # a suit, a rank
        with pytest.raises(spec_reader.Refused, match="outside-deck"):
            reader.decide(hole, flop)
        with pytest.raises(CardError, match=f"card {outside} is not in the deck"):
            strategy.decide(hole, flop)
    key, decision, ev = reader.decide("Ac Kc", "Qd 7d 8c")
    assert ev["call"] == strategy.decide("Ac Kc", "Qd 7d 8c").ev["call"]


def rewritten(folder, target, edit) -> Path:
    """A copy of a results folder's strategy file, its header line edited (`edit(header) -> header`), with the
    folder's rule file and its manifest (the new file's sha256 in it): only the header is at fault."""
    import gzip
    import hashlib
    import shutil
    magic, header, body = gzip.decompress((folder / "strategy.bin.gz").read_bytes()).split(b"\n", 2)
    target.mkdir()
    path = target / "strategy.bin.gz"
    path.write_bytes(gzip.compress(magic + b"\n" + json.dumps(edit(json.loads(header))).encode() + b"\n" + body,
                                   compresslevel=1, mtime=0))
    shutil.copy(folder / "rules.toml", target / "rules.toml")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"] = {"rules.toml": manifest["files"]["rules.toml"],
                         "strategy.bin.gz": hashlib.sha256(path.read_bytes()).hexdigest()}
    (target / "manifest.json").write_text(json.dumps(manifest))
    return path


@pytest.mark.parametrize("case,edit", [
    ("version 2 under a version 1 magic line", lambda h: {**h, "version": 2}),
    ("no version", lambda h: {k: v for k, v in h.items() if k != "version"}),
    ("another format", lambda h: {**h, "format": "other"}),
    ("no denominator", lambda h: {k: v for k, v in h.items() if k != "denominator"}),
    ("denominator as text", lambda h: {**h, "denominator": str(h["denominator"])}),
    ("no rule file sha256", lambda h: {k: v for k, v in h.items() if k != "rule_sha256"}),
    ("the fields in words left out", lambda h: {k: v for k, v in h.items()
                                                if k not in ("key", "weight", "situations", "ev_unit", "decision_codes")}),
], ids=lambda value: value if isinstance(value, str) else "")
def test_a_header_at_odds_with_the_magic_line_or_lacking_a_field_is_refused_by_both_readers(tmp_path, case, edit):
    """Section 1: the header's format and version agree with the magic line, and every field a reader needs is
    there; the fields in words for people may be left out."""
    import spec_reader
    from analyzer import advisor
    from analyzer.core.errors import InputError
    path = rewritten(Path(__file__).resolve().parents[2] / "results" / "casino_holdem" / "operator", tmp_path / "f", edit)
    if case == "the fields in words left out":
        assert spec_reader.Reader(path).decide("Ah Kd", "Qs 9h 2c")[1] == advisor.load_strategy(path).decide(
            "Ah Kd", "Qs 9h 2c").decision == "call"
        return
    with pytest.raises(spec_reader.Damaged):
        spec_reader.Reader(path)
    with pytest.raises(InputError):
        advisor.load_strategy(path)
