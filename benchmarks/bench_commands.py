"""Whole-command speed as a user meets it: wall time and peak memory of each `analyzer` command.

Each command runs as a fresh process (`python -m analyzer ...`, from the checkout given by
--checkout, default the one holding this script), several times, the commands interleaved
so that a change in the machine's load hits them alike.  For every run it records
- the wall time of the whole process (start to exit, imports included),
- its peak resident memory (`ru_maxrss` of that child, from `os.wait4`),
- the in-process time of each stage (counting, pricing, strategies, each output file,
  verification, report, publish), written by the pipeline when ANALYZER_TIMINGS names a
  file (`analyzer.core.timing`);
and reports the medians.  The measurements, with the machine, date, Python and load
average, go to benchmarks/results/commands.json (--json), from which the README's speed
table is made (--markdown prints it).  Timings are never asserted by the test suite.

Run: python benchmarks/bench_commands.py [--runs 3] [--only casino-holdem caribbean-stud all]
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICK = ["--quiet", "--check-samples", "0", "--check-rounds", "0"]
COMMANDS = {                                       # name -> analyzer arguments (--out is added)
    "casino-holdem": ["casino-holdem", *QUICK],
    "caribbean-stud": ["caribbean-stud", *QUICK],  # both built-in rule sets
    "baccarat": ["baccarat", *QUICK],
    "all": ["all", "--quiet"],                     # with its default verification
}
TARGETS = {"casino-holdem": (6.0, 500), "caribbean-stud": (2.5, 400), "all": (30.0, 500)}   # s, MB (issue 14)


def machine() -> dict:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": cpu, "cores": cores, "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version(), "memory_gb": _memory_gb()}


def _memory_gb():
    try:
        with open("/proc/meminfo") as info:
            return round(int(info.readline().split()[1]) / 2 ** 20, 1)
    except (OSError, ValueError, IndexError):
        return None


def git_commit(checkout: Path) -> str | None:
    try:
        return subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def run_once(checkout: Path, arguments: list[str]) -> dict:
    """One fresh process: its wall time, peak RSS and stage timings."""
    work = Path(tempfile.mkdtemp(prefix="bench_commands_"))
    timings = work / "timings.json"
    environment = dict(os.environ, PYTHONPATH=str(checkout), ANALYZER_TIMINGS=str(timings))
    command = [sys.executable, "-m", "analyzer", *arguments, "--out", str(work / "out")]
    try:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=checkout, env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
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
            "stages": {s["stage"]: s["seconds"] for s in stages},
            "stage_peak_rss_mb": {s["stage"]: s.get("peak_rss_mb") for s in stages}}


def summarise(runs: list[dict]) -> dict:
    """Medians of the runs: wall, peak RSS, and each stage (in the order the stages ended)."""
    names = list(dict.fromkeys(name for run in runs for name in run["stages"]))
    stages = {name: round(statistics.median(run["stages"].get(name, 0.0) for run in runs), 3) for name in names}
    outside = [run["wall_s"] - sum(s for name, s in run["stages"].items() if " / " not in name) for run in runs]
    wall = statistics.median(run["wall_s"] for run in runs)
    return {"median_wall_s": round(wall, 3),
            "median_peak_rss_mb": round(statistics.median(r["peak_rss_mb"] for r in runs), 1),
            "wall_s": [r["wall_s"] for r in runs], "peak_rss_mb": [r["peak_rss_mb"] for r in runs],
            "startup_imports_exit_s": round(statistics.median(outside), 3), "stages_median_s": stages}


def markdown(report: dict) -> str:
    """The README's speed table: one row per command, then each command's stages."""
    m = report["machine"]
    lines = [f"Measured {report['date']} on {m['cpu']} ({m['cores']} cores), Python {m['python']}, "
             f"load average {report['load_average_before'][0]:.2f} before, median of {report['runs']} runs "
             f"(`python benchmarks/bench_commands.py`, commit `{(report['commit'] or 'unknown')[:12]}`).", "",
             "| command | wall (median) | peak memory (median) | target |", "|---|---:|---:|---|"]
    for name, result in report["commands"].items():
        target = TARGETS.get(name)
        lines.append(f"| `analyzer {' '.join(result['arguments'])}` | {result['median_wall_s']:.2f} s | "
                     f"{result['median_peak_rss_mb']:,.0f} MB | "
                     + (f"<= {target[0]:g} s, <= {target[1]} MB |" if target else "|"))
    for name, result in report["commands"].items():
        lines += ["", f"`{name}`, in-process stages (median s):", "", "| stage | s |", "|---|---:|",
                  f"| startup, imports, exit | {result['startup_imports_exit_s']:.2f} |"]
        lines += [f"| {stage} | {seconds:.2f} |" for stage, seconds in result["stages_median_s"].items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), default=["casino-holdem", "caribbean-stud", "all"],
                        help="commands to run (default: casino-holdem caribbean-stud all)")
    parser.add_argument("--checkout", type=Path, default=HERE.parent,
                        help="the checkout to measure (its analyzer/ and built cython_ext/; default this one)")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "commands.json",
                        help="where to write the measurements (default benchmarks/results/commands.json)")
    parser.add_argument("--markdown", action="store_true", help="print the README table at the end")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    report = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
              "checkout": str(checkout), "commit": git_commit(checkout), "runs": args.runs,
              "load_average_before": list(os.getloadavg()), "commands": {}}
    runs = {name: [] for name in args.only}
    for index in range(args.runs):                     # interleaved: drifting load hits every command alike
        for name in args.only:
            result = run_once(checkout, COMMANDS[name])
            runs[name].append(result)
            print(f"run {index + 1}/{args.runs} {name}: {result['wall_s']:.2f} s, {result['peak_rss_mb']:,.0f} MB "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
    report["load_average_after"] = list(os.getloadavg())
    for name in args.only:
        report["commands"][name] = {"arguments": COMMANDS[name] + ["--out", "DIR"], **summarise(runs[name]),
                                    "runs": runs[name]}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    for name, result in report["commands"].items():
        target = TARGETS.get(name)
        print(f"{name}: median {result['median_wall_s']:.2f} s, {result['median_peak_rss_mb']:,.0f} MB"
              + (f" (target <= {target[0]:g} s, <= {target[1]} MB)" if target else ""))
    print(f"wrote {args.json}")
    if args.markdown:
        print(markdown(report))


if __name__ == "__main__":
    main()
