"""Count once, price many: re-pricing a paytable from the count cache, in process and as a whole command,
and a 50-variant Caribbean Stud sweep including its one enumeration.

    python benchmarks/bench_repricing.py [--runs N] [--variants 50]

Targets (issue 13): re-pricing Casino Hold'em or Caribbean Stud from the cache under 0.5 s in
the process and under 2 s as a whole command (`--check-samples 0 --check-rounds 0`); a 50-variant
Stud sweep under 30 s.  Prints medians and writes benchmarks/results/repricing.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import git_commit, machine_info, run_command

from analyzer.games import registry
from analyzer.publish import pipeline

ROOT = Path(__file__).resolve().parent.parent

VARIANT = {"casino-holdem": ("four_of_a_kind = 10", "four_of_a_kind = 12"),
           "caribbean-stud": ("\nflush = 6\n", "\nflush = 7\n")}


def variant(folder: Path, game: str, old: str, new: str, name: str) -> Path:
    text = registry.game(game).builtin_rule_paths[0].read_text().replace('rule_set = "operator"', f'rule_set = "{name}"')
    path = folder / f"{name}.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def in_process(game: str, cache: Path, runs: int) -> float:
    """Median seconds of load-from-cache + analyse (price, decide, strategies) of one variant."""
    info = registry.game(game)
    run = pipeline.Run(cache.parent, cache=cache)
    with tempfile.TemporaryDirectory() as folder:
        path = variant(Path(folder), game, *VARIANT[game], "variant")
        times = []
        for _ in range(runs):
            rule_file, rules = info.load_rules(path)
            started = time.perf_counter()
            info.module.analyse(rule_file, rules, pipeline.count(info, rules, run))
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def whole_command(args: list[str], out: Path, runs: int) -> dict:
    """Median wall time and peak memory of `analyzer ARGS --out OUT` as fresh processes."""
    results = [run_command(ROOT, args, out) for _ in range(runs)]
    return {"wall_s": round(statistics.median(r["wall_s"] for r in results), 3),
            "peak_rss_mb": round(statistics.median(r["peak_rss_mb"] for r in results), 1),
            "peak_tree_mb": round(statistics.median(r["peak_tree_mb"] for r in results), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", type=int, default=50)
    args = parser.parse_args(argv)
    quick = ["--quiet", "--check-samples", "0", "--check-rounds", "0"]
    out = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine_info(),
           "commit": git_commit(ROOT), "runs": args.runs, "load_average_before": list(os.getloadavg()),
           "targets": {"in_process_s": 0.5, "whole_command_s": 2.0, "stud_sweep_s": 30.0}, "games": {}}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for game in VARIANT:
            subprocess.run([sys.executable, "-m", "analyzer", game, "--out", str(root), *quick], check=True,
                           capture_output=True, cwd=ROOT)                         # fills the cache
            path = variant(root, game, *VARIANT[game], "variant")
            command = whole_command([game, "--rules", str(path), *quick], root, args.runs)
            out["games"][game] = {"in_process_s": round(in_process(game, root / ".cache", args.runs), 3),
                                  "whole_command_s": command["wall_s"], "whole_command_peak_rss_mb": command["peak_rss_mb"],
                                  "whole_command_peak_tree_mb": command["peak_tree_mb"]}
            print(f"{game}: re-pricing from the cache {out['games'][game]['in_process_s']:.2f} s in process, "
                  f"{command['wall_s']:.2f} s and {command['peak_tree_mb']:,.0f} MB as a whole command")
        grid = root / "grid"
        grid.mkdir()
        paths = [variant(grid, "caribbean-stud", "\nflush = 6\n", f"\nflush = {6 + i / 10}\n", f"flush{i}")
                 for i in range(args.variants)]
        sweep = whole_command(["sweep", *map(str, paths), "--name", "grid", *quick], root / "sweep", 1)
        out["stud_sweep"] = {"variants": args.variants, "wall_s": sweep["wall_s"], "peak_rss_mb": sweep["peak_rss_mb"],
                             "peak_tree_mb": sweep["peak_tree_mb"]}
        print(f"caribbean-stud: sweep of {args.variants} paytables including its one enumeration "
              f"{sweep['wall_s']:.1f} s, {sweep['peak_tree_mb']:,.0f} MB")
    out["load_average_after"] = list(os.getloadavg())
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "repricing.json").write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
