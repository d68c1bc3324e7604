"""Count once, price many: re-pricing a paytable from the count cache, in process and as a whole command,
and a 50-variant Caribbean Stud sweep including its one enumeration.

    python benchmarks/bench_repricing.py [--runs N] [--variants 50]

Targets (issue 13): re-pricing Casino Hold'em or Caribbean Stud from the cache under 0.5 s in
the process and under 2 s as a whole command (`--check-samples 0 --check-rounds 0`); a 50-variant
Stud sweep under 30 s.  Prints medians and writes benchmarks/results/repricing.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.games import registry  # noqa: E402
from analyzer.publish import pipeline  # noqa: E402

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


def whole_command(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analyzer", *args], check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", type=int, default=50)
    args = parser.parse_args(argv)
    quick = ["--quiet", "--check-samples", "0", "--check-rounds", "0"]
    out = {"machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.python_version()}",
           "date": time.strftime("%Y-%m-%d"), "load_average": os.getloadavg()[0], "runs": args.runs}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for game in VARIANT:
            subprocess.run([sys.executable, "-m", "analyzer", game, "--out", str(root), *quick], check=True,
                           capture_output=True, cwd=ROOT)                         # fills the cache
            path = variant(root, game, *VARIANT[game], "variant")
            out[game] = {"in_process_s": in_process(game, root / ".cache", args.runs),
                         "whole_command_s": whole_command([game, "--rules", str(path), "--out", str(root), *quick],
                                                          args.runs)}
            print(f"{game}: re-pricing from the cache {out[game]['in_process_s']:.2f} s in process, "
                  f"{out[game]['whole_command_s']:.2f} s as a whole command")
        grid = root / "grid"
        grid.mkdir()
        paths = [variant(grid, "caribbean-stud", "\nflush = 6\n", f"\nflush = {6 + i / 10}\n", f"flush{i}")
                 for i in range(args.variants)]
        out["stud_sweep_s"] = whole_command(["sweep", *map(str, paths), "--name", "grid", "--out", str(root / "sweep"),
                                             "--quiet", "--check-samples", "0", "--check-rounds", "0"], 1)
        print(f"caribbean-stud: sweep of {args.variants} paytables including its one enumeration "
              f"{out['stud_sweep_s']:.1f} s")
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "repricing.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
