"""Whole-command speed as a user meets it: wall time and peak memory of each `analyzer` command.

Each command runs as a fresh process (`python -m analyzer ...`, from the checkout given by
--checkout, default the one holding this script), several times, the commands interleaved
so that a change in the machine's load hits them alike, and twice a round: once timed, once
with its memory sampled (the sampling takes CPU the command would have: `_timing.run_command`).
Each checkout's analyzer/ is byte-compiled first, as a user's runs find it from the second on.
It records
- from the timed runs, the wall time of the whole process (start to exit, imports included) and
  the in-process time of each stage (counting, pricing, strategies, each output file,
  verification, report, publish), written by the pipeline when ANALYZER_TIMINGS names a
  file (`analyzer.publish.timing`);
- from the sampled runs, the peak memory of the whole process tree (the command and the children
  it forks, together, each process's proportional share of pages it shares with another;
  `_timing.TreeMemory`);
- from every run, the peak memory of its largest single process (`ru_maxrss` from `os.wait4`);
and reports the medians.  The measurements, with the machine, date, Python and load
average, go to benchmarks/results/commands.json (--json), from which the README's speed
table is made (--markdown prints it).  Timings are never asserted by the test suite.

With --baseline CHECKOUT (another checkout with its kernels built, e.g. of an earlier commit),
each run of a command is paired with one of the baseline's, in alternating order, and the
report adds the baseline's medians and the change of each median in percent.  --one-run
samples the memory in the timed run itself (half the runs; the sampling's CPU then weighs on
both sides of a pair alike).

Run: python benchmarks/bench_commands.py [--runs 3] [--only casino-holdem caribbean-stud all]
     [--baseline ../base] [--one-run]
"""
from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import statistics
from pathlib import Path

from _timing import git_commit, machine_info, run_command

from analyzer.publish.readme import speed_table

HERE = Path(__file__).resolve().parent
QUICK = ["--quiet", "--check-samples", "0", "--check-rounds", "0"]
COMMANDS = {                                       # name -> analyzer arguments (--out is added)
    "casino-holdem": ["casino-holdem", *QUICK],
    "caribbean-stud": ["caribbean-stud", *QUICK],  # both built-in rule sets
    "baccarat": ["baccarat", *QUICK],
    "all": ["all", "--quiet"],                     # with its default verification
}
TARGETS = {"casino-holdem": (6.0, 500), "all": (30.0, 500)}   # s, MB (issue 14; 2.5 s for caribbean-stud withdrawn)


def summarise(runs: list[dict], sampled: list[dict]) -> dict:
    """Medians: of the timed runs, wall and each stage (in the order the stages ended); of the sampled runs,
    the tree's peak memory; of both, the largest process's peak RSS."""
    names = list(dict.fromkeys(name for run in runs for name in run["stages"]))
    stages = {name: round(statistics.median(run["stages"].get(name, 0.0) for run in runs), 3) for name in names}
    outside = [run["wall_s"] - sum(s for name, s in run["stages"].items() if " / " not in name) for run in runs]
    wall = statistics.median(run["wall_s"] for run in runs)
    return {"median_wall_s": round(wall, 3),
            "median_peak_rss_mb": round(statistics.median(r["peak_rss_mb"] for r in runs + sampled), 1),
            "median_peak_tree_mb": round(statistics.median(r["peak_tree_mb"] for r in sampled), 1),
            "wall_s": [r["wall_s"] for r in runs], "peak_rss_mb": [r["peak_rss_mb"] for r in runs + sampled],
            "peak_tree_mb": [r["peak_tree_mb"] for r in sampled],
            "startup_imports_exit_s": round(statistics.median(outside), 3), "stages_median_s": stages}


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
    parser.add_argument("--baseline", type=Path, help="a checkout to pair every run with (its kernels built)")
    parser.add_argument("--one-run", action="store_true", help="sample the memory in the timed run (one run, not two)")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    sides = {"checkout": checkout} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    for side in sides.values():
        # as from a user's second run on: Python has cached the bytecode (which PYTHONDONTWRITEBYTECODE,
        # set on some machines, would otherwise have every run compile anew, on one side and not the other)
        compileall.compile_dir(str(side / "analyzer"), quiet=1)
    report = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine_info(),
              "checkout": str(checkout), "commit": git_commit(checkout), "runs": args.runs,
              "load_average_before": list(os.getloadavg()), "targets": TARGETS, "commands": {}}
    runs = {(side, name): [] for side in sides for name in args.only}
    sampled = {(side, name): [] for side in sides for name in args.only}
    for index in range(args.runs):                     # interleaved: drifting load hits every command alike
        for name in args.only:
            for side in (list(sides) if index % 2 == 0 else list(sides)[::-1]):
                if args.one_run:
                    timed = memory = run_command(sides[side], COMMANDS[name])
                else:
                    timed, memory = (run_command(sides[side], COMMANDS[name], tree=False),
                                     run_command(sides[side], COMMANDS[name]))
                runs[side, name].append(timed)
                sampled[side, name].append(memory)
                print(f"run {index + 1}/{args.runs} {name} ({side}): {timed['wall_s']:.2f} s; "
                      f"{memory['peak_tree_mb']:,.0f} MB (largest process {memory['peak_rss_mb']:,.0f} MB; "
                      f"load {os.getloadavg()[0]:.2f})", flush=True)
    report["load_average_after"] = list(os.getloadavg())
    for side in sides:
        commands = {name: {"arguments": COMMANDS[name] + ["--out", "DIR"], **summarise(runs[side, name],
                                                                                      sampled[side, name]),
                           "runs": runs[side, name], "sampled_runs": sampled[side, name]} for name in args.only}
        if side == "checkout":
            report["commands"] = commands
        else:
            report["baseline"] = {"checkout": str(sides[side]), "commit": git_commit(sides[side]), "commands": commands}
    if args.baseline:
        report["against_baseline_percent"] = {name: {key: round(100 * (report["commands"][name][key]
                                                                       / report["baseline"]["commands"][name][key] - 1), 1)
                                                     for key in ("median_wall_s", "median_peak_tree_mb",
                                                                 "median_peak_rss_mb")} for name in args.only}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    for name, result in report["commands"].items():
        target = TARGETS.get(name)
        print(f"{name}: median {result['median_wall_s']:.2f} s, {result['median_peak_tree_mb']:,.0f} MB"
              + (f" (target <= {target[0]:g} s, <= {target[1]} MB)" if target else "")
              + (f"; against the baseline {report['against_baseline_percent'][name]}" if args.baseline else ""))
    print(f"wrote {args.json}")
    if args.markdown:
        print(speed_table(report))


if __name__ == "__main__":
    main()
