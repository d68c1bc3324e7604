"""Execution under failure: Ctrl-C stops local worker processes quietly."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path


INTERRUPTED_SCRIPT = """
import sys, time
import numpy as np
from analyzer.execution import Chunk, LocalExecutor, Part, Totals


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
    root = Path(__file__).resolve().parents[1]
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
