"""A decision table's strategy files: the same bytes whenever their compression starts, the plain writer's content."""
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.formats import strategy_file
from analyzer.core.errors import InputError
from analyzer.poker.decision_table import DecisionTable
from analyzer.poker import strategy_file as poker_files
from analyzer.poker.strategy_file import EITHER, DecisionTableFiles, shared_columns

SPEC = dict(game="caribbean-stud", groups=[("hand", 5), ("up card", 1)], actions=["fold", "raise"],
            ev_column="ev_raise", key_text="test keys")


def table(rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    keys = np.unique(rng.integers(0, 52, (rows * 2, 6)).astype(np.uint8), axis=0)[:rows]
    ev = rng.integers(-3000, 2000, len(keys))
    ev[::7] = -1000                                                  # exact ties with folding
    decisions = DecisionTable(rng.integers(1, 25, len(keys)).astype(np.uint8), ev, 1000, Fraction(2))
    return keys, decisions, rng.integers(0, 2, len(keys)).astype(np.uint8)


def rule_file():
    return SimpleNamespace(name="test", sha256="0" * 64, path="test.toml")


def files(keys, decisions, basic, start: bool, shared=None) -> DecisionTableFiles:
    made = DecisionTableFiles(**SPEC, rule_file=rule_file(), keys=keys, table=decisions, shared=shared)
    made.add("strategy.bin.gz", start=start)
    made.add("strategy_basic.bin.gz", basic, start=start)
    return made


@pytest.mark.parametrize("rows", [0, 1, 3_000])
def test_files_started_early_or_late_are_the_same_bytes(rows):
    keys, decisions, basic = table(rows, rows)
    early, late = files(keys, decisions, basic, True), files(keys, decisions, basic, False)
    late.start()
    for name in ("strategy.bin.gz", "strategy_basic.bin.gz"):
        assert early.data(name) == late.data(name) == files(keys, decisions, basic, False).data(name)
    header, columns = strategy_file.decode(early.data("strategy.bin.gz"))
    expected = np.where(decisions.ev_play == -1000, EITHER, decisions.ev_play > -1000).astype(np.uint8)
    assert np.array_equal(columns["decision"], expected) and np.array_equal(columns["key"], keys)
    assert np.array_equal(columns["ev_raise"], decisions.ev_play) and header["rule_set"] == "test"
    plain = strategy_file.encode({k: v for k, v in header.items() if k not in ("format", "version", "rows", "columns")},
                                 {"key": keys, "weight": decisions.weights, "decision": expected,
                                  "ev_raise": decisions.ev_play.astype("<i8")}, levels={"ev_raise": poker_files.EV_LEVEL})
    assert early.data("strategy.bin.gz") == plain
    assert np.array_equal(strategy_file.decode(early.data("strategy_basic.bin.gz"))[1]["decision"], basic)


def test_evs_beyond_int64_are_refused_when_the_files_are_made_not_before():
    keys, decisions, basic = table(10)
    huge = DecisionTable(decisions.weights, decisions.ev_play.astype(object) * 2**70, 1000 * 2**70, Fraction(2))
    made = DecisionTableFiles(**SPEC, rule_file=rule_file(), keys=keys, table=huge)
    made.add("strategy.bin.gz")                                        # not started: no error yet
    with pytest.raises(InputError, match="64-bit"):
        made.data("strategy.bin.gz")


def test_rule_sets_on_one_count_share_its_columns_and_keep_their_own_bytes(monkeypatch):
    # two rule sets priced on one count (its keys and weights): the keys and weights deflated once for both,
    # each rule set's EVs once for its two files, every file the bytes it has alone
    keys, decisions, basic = table(3_000, 4)
    repriced = DecisionTable(decisions.weights, decisions.ev_play * 3 - 500, 3000, Fraction(2))
    deflated, count = [], {}
    real = strategy_file.deflate
    monkeypatch.setattr(strategy_file, "deflate", lambda column, level: deflated.append(column) or real(column, level))
    shared = [files(keys, priced, basic, True, shared_columns(count)) for priced in (decisions, repriced)]
    assert shared_columns(count) is shared_columns(count)
    made = [(made, priced, {name: made.data(name) for name in ("strategy.bin.gz", "strategy_basic.bin.gz")})
            for made, priced in zip(shared, (decisions, repriced))]
    arrays = [column for column in deflated if isinstance(column, np.ndarray)]
    assert sum(array is shared[0].columns()["key"] for array in arrays) == 1
    assert sum(array is shared[0].columns()["weight"] for array in arrays) == 1
    assert all(sum(array is table.columns()["ev_raise"] for array in arrays) == 1 for table in shared)
    for _, priced, data in made:
        alone = files(keys, priced, basic, False)
        for name in ("strategy.bin.gz", "strategy_basic.bin.gz"):
            assert data[name] == alone.data(name)
