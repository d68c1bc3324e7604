"""Median-of-runs timing shared by the benchmark scripts.

Importing it makes the in-process benchmarks measure the checkout they live in: its root
goes first on sys.path, unless PYTHONPATH names the code to measure.
"""
import os
import platform
import statistics
import sys
import time
from pathlib import Path

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def median_seconds(function, runs: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import analyzer
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}; "
            f"measuring {Path(analyzer.__file__).parent}")
