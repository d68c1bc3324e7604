"""analyzer.publish.memory: freed memory handed back, every thread on the main heap; no value changes."""
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from analyzer.publish import memory


def test_one_arena_then_release_keep_what_a_thread_allocated():
    assert memory.one_arena() is (memory._MALLOPT is not None)       # set wherever glibc's mallopt is
    held = []
    thread = threading.Thread(target=lambda: held.append(np.arange(1 << 20, dtype=np.int64)))
    thread.start()
    thread.join()
    memory.release()
    assert int(held[0].sum()) == (1 << 20) * ((1 << 20) - 1) // 2


def _in_subprocess(script: str) -> str:
    """What a fresh interpreter prints, in an environment without this process's BLAS thread counts (importing
    the package set OPENBLAS_NUM_THREADS; a Dask nanny, which other tests start, sets OMP_NUM_THREADS here)."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "GOTO_NUM_THREADS")}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env).stdout


THP_LINE = "[line.strip() for line in open('/proc/self/status') if line.startswith('THP_enabled')]"


@pytest.mark.skipif(not Path("/proc/self/status").exists() or "THP_enabled" not in Path("/proc/self/status").read_text(),
                    reason="the kernel does not report THP_enabled")
def test_small_pages_turns_transparent_huge_pages_off_for_the_process_and_its_forks():
    # the flag is inherited (a test before may have run the command line in this process): set it back first
    out = _in_subprocess("import os\nfrom analyzer.publish import memory\n"
                         f"assert memory._PRCTL(memory._PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0\nprint({THP_LINE})\n"
                         "assert memory.small_pages()\n"
                         f"pid = os.fork()\nif pid == 0:\n    print({THP_LINE}, flush=True)\n    os._exit(0)\n"
                         f"os.waitpid(pid, 0)\nprint({THP_LINE})")
    assert out == "['THP_enabled:\\t1']\n" + "['THP_enabled:\\t0']\n" * 2


def test_importing_the_package_keeps_numpy_from_starting_blas_threads():
    threads = "import os\nimport numpy\nprint(len(os.listdir('/proc/self/task')))"
    if _in_subprocess(threads) == "1\n":
        pytest.skip("numpy starts no BLAS thread here anyway (one core, or another BLAS)")
    assert _in_subprocess("import analyzer\n" + threads) == "1\n"


@pytest.mark.skipif(not Path("/proc/self/status").exists() or "THP_enabled" not in Path("/proc/self/status").read_text(),
                    reason="the kernel does not report THP_enabled")
def test_counting_is_let_have_huge_pages_and_the_setting_comes_back():
    script = ("from analyzer.publish import memory\n"
              "assert memory._PRCTL(memory._PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0\n"
              f"with memory.huge_pages_while_counting():\n    print({THP_LINE})\n"          # never set: left as it is
              f"print({THP_LINE})\nassert memory.small_pages()\n"
              f"with memory.huge_pages_while_counting():\n    print({THP_LINE})\nprint({THP_LINE})")
    assert _in_subprocess(script).split("\n")[:4] == ["['THP_enabled:\\t1']"] * 3 + ["['THP_enabled:\\t0']"]
