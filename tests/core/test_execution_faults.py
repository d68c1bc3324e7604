"""Execution under failure: a lost Dask worker costs only its chunks, a stalled cluster is a
clear error within its limit, and Ctrl-C stops local worker processes quietly.

Chunks here are small synthetic functions over a few MB of shared data (not a game count),
so every test runs in seconds; each Dask test bounds its own time through the executor's
`stall_limit` (no hang becomes a hung test run) and asserts the elapsed time.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from analyzer.core.execution import Chunk, ClusterError, Part, SerialExecutor, Totals

distributed = pytest.importorskip("distributed")

PIECES = 16
TABLE = np.arange(1 << 19, dtype=np.int64) * 7919 % 1000003      # 4 MB of shared data
BIAS = np.arange(PIECES, dtype=np.int64) ** 3


def _in_dask_worker() -> bool:
    try:
        distributed.get_worker()
    except ValueError:
        return False
    return True


def slice_sum(shared, index: int, seconds: float, kill_marker: str | None) -> list:
    """Chunk `index`: the sum of every PIECES-th shared entry from `index` (or index**2 when
    the stage has no shared data).  With `kill_marker`, its first run on a Dask worker ends
    that worker's process abruptly, as a crash or the OOM killer would."""
    time.sleep(seconds)
    if kill_marker and _in_dask_worker():
        try:
            os.close(os.open(kill_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            pass                                # already killed once: this is the rerun
        else:
            os._exit(1)
    if "table" in shared:
        value = int(shared["table"][index::PIECES].sum()) + int(shared["bias"][index])
    else:
        value = index * index
    return [Part("sums", np.array([value], dtype=np.int64), index)]


def stage(with_shared: bool, kill_marker=None, kill_at: int = 6, seconds: float = 0.15):
    chunks = [Chunk(slice_sum, (i, seconds, kill_marker if i == kill_at else None)) for i in range(PIECES)]
    shared = {"table": TABLE, "bias": BIAS} if with_shared else None
    return chunks, shared


def run_stage(executor, chunks, shared, progress=None):
    return executor.run(chunks, Totals({"sums": ((PIECES,), np.int64)}), shared, progress)["sums"]


def serial_sums(with_shared: bool) -> np.ndarray:
    chunks, shared = stage(with_shared)
    return run_stage(SerialExecutor(), chunks, shared)


@pytest.fixture(scope="module")
def two_workers():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def one_worker():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        yield cluster


def restore_workers(cluster, n: int) -> None:
    """Bring a module cluster back to n workers after a test that removed them."""
    cluster.scale(n)
    with distributed.Client(cluster.scheduler_address, timeout="20s") as client:
        client.wait_for_workers(n, timeout=60)


def dask_executor(cluster, stall_limit: float = 30.0):
    from analyzer.core.execution import DaskExecutor
    return DaskExecutor(cluster.scheduler_address, stall_limit=stall_limit)


@pytest.mark.parametrize("with_shared", [True, False], ids=["shared data", "no shared data"])
def test_worker_killed_mid_stage(two_workers, tmp_path, with_shared):
    """One of two workers dies in the middle of a stage: the result equals a serial run."""
    marker = tmp_path / "killed"
    chunks, shared = stage(with_shared, str(marker))
    executor = dask_executor(two_workers)
    started = time.monotonic()
    try:
        sums = run_stage(executor, chunks, shared)
    finally:
        executor.close()
    assert marker.exists(), "the chunk meant to kill its worker never ran on one"
    assert (sums == serial_sums(with_shared)).all()
    assert time.monotonic() - started < 30


def test_only_holder_of_shared_data_killed(one_worker, tmp_path):
    """The only worker dies (its nanny starts a new one): the scattered data is gone with it,
    so it is scattered again and every chunk not yet merged is rerun, each counted once."""
    restore_workers(one_worker, 1)
    marker = tmp_path / "killed"
    chunks, shared = stage(True, str(marker))
    executor = dask_executor(one_worker)
    started = time.monotonic()
    try:
        sums = run_stage(executor, chunks, shared)
        handovers, reruns = executor.handovers, executor.reruns
    finally:
        executor.close()
    assert marker.exists()
    assert (sums == serial_sums(True)).all()
    assert handovers == 2 and reruns >= 1
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("with_shared", [True, False], ids=["shared data", "no shared data"])
def test_no_progress_is_a_clear_error(one_worker, with_shared):
    """The only worker goes once the first chunk is in, and none joins: a ClusterError
    within the stall limit, not a hang."""
    restore_workers(one_worker, 1)
    chunks, shared = stage(with_shared, seconds=0.3)
    executor = dask_executor(one_worker, stall_limit=3)

    class RemoveWorkersOnFirstChunk:
        def __init__(self, **_):
            self.done = 0

        def update(self, n=1):
            self.done += n
            if self.done == 1:
                one_worker.scale(0)

        def close(self):
            pass
    started = time.monotonic()
    try:
        with pytest.raises(ClusterError, match="made no progress .* for 3 s") as error:
            run_stage(executor, chunks, shared, RemoveWorkersOnFirstChunk)
    finally:
        executor.close()
        restore_workers(one_worker, 1)
    assert "\n" not in str(error.value)
    assert time.monotonic() - started < 3 + 20


def failing_chunk(shared, index: int) -> list:
    raise ArithmeticError(f"chunk {index} fails")


def test_failing_chunk_raises_its_error(two_workers):
    """A chunk that raises is not a lost worker: its error comes back, no endless reruns."""
    executor = dask_executor(two_workers)
    try:
        with pytest.raises(ArithmeticError, match="fails"):
            run_stage(executor, [Chunk(failing_chunk, (i,)) for i in range(3)], {"table": TABLE[:10]})
    finally:
        executor.close()


INTERRUPTED_SCRIPT = """
import sys, time
import numpy as np
from analyzer.core.execution import Chunk, LocalExecutor, Part, Totals


def nap(shared, index, seconds, flag):
    open(f"{flag}.{index}", "w").close()
    time.sleep(seconds)
    return [Part("x", np.array([index]), index)]


if __name__ == "__main__":
    flag = sys.argv[1]
    try:
        LocalExecutor(2).run([Chunk(nap, (0, 0.0, flag)), Chunk(nap, (1, 60.0, flag))],
                             Totals({"x": ((2,), np.int64)}), {"table": np.zeros(1000)})
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
"""


def test_ctrl_c_stops_local_processes_quietly(tmp_path):
    """Ctrl-C (SIGINT to the whole process group) while one worker runs a long chunk and
    the other waits for work: no traceback from either, and no wait for the long chunk."""
    script = tmp_path / "interrupted.py"
    script.write_text(textwrap.dedent(INTERRUPTED_SCRIPT))
    flag = tmp_path / "started"
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    process = subprocess.Popen([sys.executable, str(script), str(flag)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (Path(f"{flag}.0").exists() and Path(f"{flag}.1").exists()):
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.05)
        time.sleep(0.5)                               # worker 0 is now idle, waiting for work
        os.killpg(process.pid, signal.SIGINT)
        interrupted = time.monotonic()
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert stderr.strip() == "interrupted", stderr
    assert time.monotonic() - interrupted < 15          # the 60 s chunk was not waited for
