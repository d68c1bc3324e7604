"""The verification's decision-table totals (one chunked pass) against the plain sums they replace."""
import numpy as np
import pytest

from analyzer.core import exact
from analyzer.core.exact import exact_sum
from analyzer.poker import checks
from analyzer.poker.checks import decision_totals
from analyzer.poker.strategy_file import EITHER


def exact_dot(weights, values) -> int:
    return sum(int(w) * int(v) for w, v in zip(weights.tolist(), values.tolist()))


def plain_totals(weights, play, fold, decisions) -> dict:
    """The reference: the sums check_decision_table took before, each over the whole table."""
    plays = play > fold
    expected = np.where(play == fold, EITHER, plays.astype(np.uint8))
    return {"weight": exact_sum(weights), "best": exact_dot(weights, np.maximum(play, fold)),
            "play": exact_dot(weights, play), "played_weight": exact_sum(weights[plays]),
            "flipped": int((decisions != expected).sum())}


def table(rng, rows: int, ev_bound: int, fold: int):
    weights = rng.integers(1, 25, rows).astype(np.uint8)
    play = rng.integers(-ev_bound, ev_bound, rows, dtype=np.int64)
    play[rng.random(rows) < 0.1] = fold                                  # exact ties
    decisions = np.where(play == fold, EITHER, (play > fold).astype(np.uint8)).astype(np.uint8)
    wrong = rng.random(rows) < 0.01
    decisions[wrong] = rng.integers(0, 3, int(wrong.sum()))
    return weights, play, decisions


@pytest.mark.parametrize("rows", [0, 1, 2, 1000, 70_000])
@pytest.mark.parametrize("ev_bound", [10**6, 2**62])          # int64 sums, and Python integers past the bound
def test_decision_totals_equal_the_plain_sums(rows, ev_bound, monkeypatch):
    monkeypatch.setattr(checks, "CHUNK", 4096)                # many chunks, a short last one
    rng = np.random.default_rng(rows + ev_bound % 97)
    fold = -int(rng.integers(1, 10**6))
    weights, play, decisions = table(rng, rows, ev_bound, fold)
    assert decision_totals(weights, play, fold, decisions) == plain_totals(weights, play, fold, decisions)


@pytest.mark.parametrize("rows", [0, 1, 1000, 70_000])
@pytest.mark.parametrize("weight_dtype", [np.uint8, np.int64, np.uint16])
def test_the_compiled_pass_and_the_numpy_chunks_equal_the_plain_sums(rows, weight_dtype, monkeypatch):
    """Both int64 roads, each against the reference: the kernel (the files' weight types) and the NumPy chunks
    (any other, e.g. uint16 weights), which decision_totals takes as the dtypes say."""
    monkeypatch.setattr(checks, "CHUNK", 4096)
    rng = np.random.default_rng(rows)
    weights, play, decisions = table(rng, rows, 10**9, -int(rng.integers(1, 10**6)))
    weights = weights.astype(weight_dtype)
    fold = int(play[0]) if rows else -3                                  # a tie at the fold value too
    plain = plain_totals(weights, play, fold, decisions)
    assert checks.chunked_decision_totals(weights, play, fold, decisions, np.int64) == plain
    kernel = []
    monkeypatch.setattr(checks.group_sums, "decision_sums",
                        lambda *args, sums=checks.group_sums.decision_sums: kernel.append(1) or sums(*args))
    assert decision_totals(weights, play, fold, decisions) == plain
    assert kernel == ([1] if weight_dtype != np.uint16 else [])


def test_the_int64_path_is_taken_only_when_proven():
    rng = np.random.default_rng(5)
    weights, play, decisions = table(rng, 100, 2**40, -7)
    bound = int(np.abs(play).max()) * int(weights.max()) * len(play)
    assert bound <= exact.INT64_MAX
    assert decision_totals(weights, play, -7, decisions) == plain_totals(weights, play, -7, decisions)
    play[0] = exact.INT64_MAX // 300                           # 24 x that x 100 rows no longer fits
    assert decision_totals(weights, play, -7, decisions) == plain_totals(weights, play, -7, decisions)
