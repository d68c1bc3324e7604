"""The chunked execution model: identical results however the work is split, ordered or placed."""
import dataclasses
import os
import random
import signal

import numpy as np
import pytest

from analyzer.core.cards import make_card
from analyzer.core.errors import InputError, InvariantError
from analyzer.core.execution import (LocalExecutor, Part, SerialExecutor, Totals, _check_disjoint,
                                     chunk_ranges, make_executor, max_jobs, scheduler_address)
from analyzer.games import registry
from analyzer.games.baccarat import count as baccarat
from analyzer.games.caribbean_stud import count as stud_situations
from analyzer.games.casino_holdem import count as casino_holdem


class ShuffledExecutor(SerialExecutor):
    """Runs the chunks in a random order."""

    def __init__(self, seed):
        super().__init__(1)
        self.seed = seed

    def run(self, chunks, totals, shared=None, progress=None, label="chunks"):
        chunks = list(chunks)
        random.Random(self.seed).shuffle(chunks)
        return super().run(chunks, totals, shared, progress, label)


@pytest.fixture(scope="module")
def small_rules():
    """Casino Hold'em on a two-suit deck: every rank, 26 cards (quick, but every kind of chunk)."""
    _, rules = registry.game("casino-holdem").load_rules()
    return dataclasses.replace(rules, cards=tuple(sorted(make_card(r, s) for r in range(13) for s in range(2))))


@pytest.fixture(scope="module")
def reference(small_rules):
    return casino_holdem.count_situations(small_rules, None, SerialExecutor(1), pieces=1)


def same(table, reference):
    return (table.keys == reference.keys).all() and (table.weights == reference.weights).all() \
        and (table.counts == reference.counts).all()


def test_chunk_ranges_cover_exactly():
    for n, pieces in [(10, 3), (7, 7), (5, 9), (134459, 40)]:
        ranges = chunk_ranges(n, pieces)
        assert ranges[0][0] == 0 and ranges[-1][1] == n
        assert all(a < b for a, b in ranges) and all(b == c for (_, b), (c, _) in zip(ranges, ranges[1:]))


@pytest.mark.parametrize("pieces", [1, 7, 61])
def test_any_number_of_chunks(small_rules, reference, pieces):
    assert same(casino_holdem.count_situations(small_rules, None, SerialExecutor(2), pieces=pieces), reference)


def test_shuffled_chunk_order(small_rules, reference):
    assert same(casino_holdem.count_situations(small_rules, None, ShuffledExecutor(4), pieces=23), reference)


def test_local_processes(small_rules, reference):
    assert same(casino_holdem.count_situations(small_rules, None, LocalExecutor(2), pieces=9), reference)


def test_baccarat_shoes_as_chunks(baccarat_rules):
    _, rules = baccarat_rules
    shoes = baccarat.analysis_shoes(rules)
    serial = baccarat.count_shoes(shoes, rules, SerialExecutor())
    local = baccarat.count_shoes(shoes, rules, LocalExecutor(2))
    assert all((a == b).all() for a, b in zip(serial, local))


def test_overlapping_parts_are_refused():
    with pytest.raises(InvariantError, match="overlap"):
        _check_disjoint([("x", 0, 5), ("x", 4, 3)])
    totals = Totals({"x": ((4,), np.uint8)})
    with pytest.raises(OverflowError):
        totals.add([Part("x", np.array([200], dtype=np.uint8)), Part("x", np.array([100], dtype=np.uint8))])


@pytest.mark.parametrize("jobs, scheduler, words", [
    (0, None, "--jobs must be between 1 and"),
    (-1, None, "--jobs must be between 1 and"),
    (10000, None, "--jobs must be between 1 and"),
    (2, "tcp://127.0.0.1:8786", "--jobs and --scheduler exclude each other"),
    (None, "", "--scheduler needs an address"),
    (None, "  ", "--scheduler needs an address"),
    (None, "tcp://10.0.0.5", "is not of the form tcp://host:port"),
    (None, "tcp://:8786", "is not of the form tcp://host:port"),
    (None, "tcp://10.0.0.5:99999", "is not of the form tcp://host:port"),
    (None, "tcp://10.0.0.5:port", "is not of the form tcp://host:port"),
    (None, "tcp://10.0.0.5:8786/x", "is not of the form tcp://host:port"),
    (None, "tcp://10.0.0.5:0", "is not of the form tcp://host:port"),
    (None, "tcp://[::1:8786", "is not of the form tcp://host:port"),
    (None, "http://10.0.0.5:8786", "unknown protocol 'http'"),
    (None, "10.0.0.5:8786", "neither an address such as tcp://10.0.0.5:8786 nor an existing scheduler file"),
    (None, "no/such/scheduler.json", "nor an existing scheduler file"),
])
def test_bad_executor_options_are_refused_before_connecting(jobs, scheduler, words):
    with pytest.raises(InputError) as error:
        make_executor(jobs, scheduler)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_executor_options_within_limits():
    assert make_executor(None, None).workers == 1 and make_executor(1).workers == 1
    assert make_executor(max_jobs()).workers == max_jobs()
    for address in ("tcp://10.0.0.5:8786", "tls://scheduler.example:8786", "tcp://[::1]:8786",
                    "inproc://10.0.0.5/1234/1"):
        assert scheduler_address(address) == address


def test_scheduler_file(tmp_path):
    good, bad, wrong = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "wrong.json"
    good.write_text('{"type": "Scheduler", "address": "tcp://10.0.0.5:8786"}')
    bad.write_text("not json")
    wrong.write_text('{"address": "10.0.0.5"}')
    assert scheduler_address(str(good)) == "tcp://10.0.0.5:8786"
    with pytest.raises(InputError, match="not a Dask scheduler file"):
        scheduler_address(str(bad))
    with pytest.raises(InputError, match="not of the form tcp://host:port"):
        scheduler_address(str(wrong))


@pytest.mark.parametrize("options", [["--jobs", "0"], ["--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"],
                                     ["--scheduler", ""], ["--scheduler", "nowhere"]])
def test_cli_refuses_bad_executor_options_in_one_line(options, capsys, tmp_path):
    from analyzer.cli import main
    assert main(["caribbean-stud", "--out", str(tmp_path), *options]) == 2
    message = capsys.readouterr().err.strip()              # refused while parsing, before any work
    assert message.startswith("analyzer caribbean-stud: error: argument --") and "\n" not in message
    assert options[-2] in message


distributed = pytest.importorskip("distributed")


def test_unreachable_scheduler_is_an_input_error_in_bounded_time():
    from analyzer.core.execution import DaskExecutor
    import time
    started = time.monotonic()
    with pytest.raises(InputError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 2 s"):
        DaskExecutor("tcp://127.0.0.1:9", connect_timeout=2)
    assert time.monotonic() - started < 15


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as local_cluster:
        yield local_cluster


def test_dask_cluster(small_rules, reference, cluster):
    from analyzer.core.execution import DaskExecutor
    executor = DaskExecutor(cluster.scheduler_address)
    try:
        assert same(casino_holdem.count_situations(small_rules, None, executor, pieces=12), reference)
    finally:
        executor.close()


def test_worker_killed_mid_run(small_rules, reference, cluster):
    """A worker dies after the first chunk comes back: its chunks are rerun, the result is identical."""
    from analyzer.core.execution import DaskExecutor
    executor = DaskExecutor(cluster.scheduler_address)
    killed = []

    class KillOnFirstUpdate:
        def __init__(self, **_):
            pass

        def update(self, n=1):
            if not killed:
                nanny = next(iter(cluster.workers.values()))
                os.kill(nanny.process.process.pid, signal.SIGKILL)
                killed.append(True)

        def close(self):
            pass
    try:
        table = casino_holdem.count_situations(small_rules, KillOnFirstUpdate, executor, pieces=40)
    finally:
        executor.close()
    assert killed and same(table, reference)


def test_sweep_on_the_cluster(cluster, tmp_path, quick_checks):
    from analyzer.core.execution import DaskExecutor
    from analyzer.publish import pipeline, sweep
    source = registry.game("baccarat").builtin_rule_paths[0].read_text()
    files = []
    for tie in (8, 9, 10):
        path = tmp_path / f"tie{tie}.toml"
        path.write_text(source.replace("tie = 8 ", f"tie = {tie} ").replace('rule_set = "operator"', f'rule_set = "tie{tie}"'))
        files.append(path)
    executor = DaskExecutor(cluster.scheduler_address)
    try:
        folder = sweep.run(files, "ties", pipeline.Run(tmp_path / "out", executor=executor, checks=quick_checks))
    finally:
        executor.close()
    table = (folder / "comparison.csv").read_text()
    assert table.count("TIE RTP") == 3
    local = sweep.run(files[:1], "one", pipeline.Run(tmp_path / "local", executor=SerialExecutor(), checks=quick_checks))
    first = [line for line in table.splitlines() if line.startswith("baccarat,tie8,")]
    assert first == [line for line in (local / "comparison.csv").read_text().splitlines()[1:]]


def test_stud_counts_on_the_cluster(cluster):
    """Caribbean Stud's classes, counted as chunks on the cluster, equal the in-process count."""
    from analyzer.core.execution import DaskExecutor
    cards = tuple(make_card(r, s) for r in (7, 8, 9, 10, 11, 12) for s in range(3))    # 9 to A, three suits
    here = stud_situations.count_classes(cards, 0, SerialExecutor(1))
    executor = DaskExecutor(cluster.scheduler_address)
    try:
        there = stud_situations.count_classes(cards, 0, executor)
    finally:
        executor.close()
    assert (here.keys == there.keys).all() and (here.counts == there.counts).all()
    assert (here.player_rank == there.player_rank).all()


def add_in_place(shared, out, index, value):
    out["x"][index] += value


def test_in_place_chunks_run_in_this_process_only():
    from analyzer.core.execution import Chunk
    chunks = [Chunk(add_in_place, (i % 3, i), in_place=True) for i in range(6)]
    totals = SerialExecutor(1).run(chunks, Totals({"x": ((3,), np.int64)}))
    assert totals["x"].tolist() == [0 + 3, 1 + 4, 2 + 5]
    with pytest.raises(ValueError, match="in-place chunks"):
        LocalExecutor(2).run(chunks, Totals({"x": ((3,), np.int64)}))


def test_a_part_that_is_the_whole_total_is_taken_without_a_copy():
    whole = np.arange(5, dtype=np.uint32)
    totals = Totals({"x": ((5,), np.uint32)})
    totals.add([Part("x", whole, 0)])
    assert totals["x"] is whole
    totals.add([Part("x", np.ones(2, dtype=np.uint32), 3)])
    assert totals["x"].tolist() == [0, 1, 2, 4, 5]
