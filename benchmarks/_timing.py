"""Median-of-runs timing shared by the benchmark scripts.

Importing it makes the in-process benchmarks measure the checkout they live in: its root
goes first on sys.path, unless PYTHONPATH names the code to measure.
"""
import contextlib
import ctypes
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def median_seconds(function, runs: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def machine_info() -> dict:
    """The machine a measurement ran on: CPU model, usable cores, system, Python, memory."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory_gb = None
    try:
        with open("/proc/meminfo") as info:
            memory_gb = round(int(info.readline().split()[1]) / 2 ** 20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu, "cores": cores, "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version(), "memory_gb": memory_gb}


def machine() -> str:
    """One line naming the machine and the package measured, for the in-process benchmarks."""
    info = machine_info()
    import analyzer
    return (f"{info['cpu']}, {info['cores']} cores, Python {info['python']}, {info['system']}; "
            f"measuring {Path(analyzer.__file__).parent}")


def git_commit(checkout: Path) -> str | None:
    """The checkout's commit (None outside git)."""
    try:
        return subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


_NOT_SAMPLED = SimpleNamespace(peak_mb=None)      # a TreeMemory's place in a timed run


def run_command(checkout: Path, arguments: list[str], out: Path | None = None, tree: bool = True) -> dict:
    """`python -m analyzer ARGUMENTS --out OUT` as a fresh process from `checkout`: its wall time (start to
    exit, imports included), its peak resident memory (`ru_maxrss` from `os.wait4`: the largest single
    process, the command or one of its children), the peak of the whole process tree's memory (the
    command and every child it forks together, sampled; `TreeMemory`; None unless `tree`) and the
    in-process stage timings the pipeline records when ANALYZER_TIMINGS names a file. Without `out`, a
    temporary folder is used and removed.

    The tree's sampling is not free: reading every process's proportional set size walks its page
    tables, and every 20 ms that took ~0.3 s of a 3 s Caribbean Stud run's wall time on two cores;
    time a command with tree=False, sample its memory in a run of its own."""
    work = Path(tempfile.mkdtemp(prefix="bench_"))
    timings = work / "timings.json"
    environment = dict(os.environ, PYTHONPATH=str(checkout), ANALYZER_TIMINGS=str(timings))
    command = [sys.executable, "-m", "analyzer", *arguments, "--out", str(out or work / "out")]
    try:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=checkout, env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        with TreeMemory(child.pid) if tree else contextlib.nullcontext(_NOT_SAMPLED) as sampled:
            _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        error = child.stderr.read().decode(errors="replace")
        child.stderr.close()
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(arguments)} failed ({child.returncode}):\n{error}")
        stages = json.loads(timings.read_text())["stages"] if timings.exists() else []
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"wall_s": round(wall, 3), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "peak_tree_mb": sampled.peak_mb,
            "stages": {s["stage"]: s["seconds"] for s in stages},
            "stage_peak_rss_mb": {s["stage"]: s.get("peak_rss_mb") for s in stages}}


class TreeMemory:
    """While the block runs, samples the memory of a process and all its descendants together.

    Each process counts its proportional set size (Linux /proc/PID/smaps_rollup: pages shared
    with another process, as a forked child shares its parent's, are split between them), so
    the sum is the memory the command holds, once.  `peak_mb` is the largest sum seen (None
    where /proc cannot be read); a sample every `interval` seconds, so a peak shorter than that
    can be missed (`ru_maxrss` of the largest process is the exact bound from below).
    """

    def __init__(self, pid: int, interval: float = 0.02):
        self.pid, self.interval, self.peak_mb = pid, interval, None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        return False

    def _sample(self):
        while not self._stop.wait(self.interval):
            total = sum(filter(None, map(_pss_kb, _own_memory(_descendants(self.pid)))))
            if total:
                self.peak_mb = max(self.peak_mb or 0, round(total / 1024, 1))


def _descendants(pid: int) -> list[int]:
    """pid and every process below it (Linux: /proc/PID/task/*/children)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        try:
            tasks = list(Path(f"/proc/{current}/task").glob("*/children"))
        except OSError:                     # the process ended meanwhile (a drawing fork does, often)
            continue
        for task in tasks:
            try:
                queue += [int(p) for p in task.read_text().split()]
            except OSError:
                pass
    return found


_KCMP, _KCMP_VM = 312, 1          # x86-64 Linux: kcmp(2), "do these two processes share one address space"


def _shares_memory(pid: int, other: int) -> bool:
    """Whether pid runs in other's address space: a child made by vfork (as subprocess starts `git`) shows
    its parent's memory as its own until it execs, and would be counted twice."""
    try:
        return ctypes.CDLL(None, use_errno=True).syscall(_KCMP, pid, other, _KCMP_VM, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _own_memory(pids: list[int]) -> list[int]:
    """The processes of `pids` (parents before children) that hold their own address space."""
    return [pid for i, pid in enumerate(pids) if not any(_shares_memory(pid, other) for other in pids[:i])]


def _pss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
    except (OSError, StopIteration, ValueError):
        return None


def save(name: str, runs: int, rows: list[dict]) -> Path:
    """Write benchmarks/results/NAME.json: the machine, date, commit, and `rows` of
    {"what", "seconds" (median), "target_s"} that the README's speed block renders."""
    import datetime
    root = Path(__file__).resolve().parent
    report = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine_info(),
              "commit": git_commit(root.parent), "runs": runs, "load_average_before": list(os.getloadavg()),
              "rows": rows}
    path = root / "results" / f"{name}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {path}")
    return path
