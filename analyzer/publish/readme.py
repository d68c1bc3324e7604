"""The figures of the README and of docs/*.md, rendered from results/ (and benchmarks/results/): no figure is typed by hand.

A document holds blocks between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`; this
module renders each block from the committed results and rewrites them in place.

    python -m analyzer.publish.readme            # rewrite the blocks of README.md and docs/*.md from results/
    python -m analyzer.publish.readme --check    # exit 1 when a block differs (the tests run this)
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

from analyzer.core.exact import decimal_str, parse_fraction_str, percent_str
from analyzer.core.roots import sqrt_decimal_str, surd_decimal_str
from analyzer.figures.tables import markdown_table, thousands
from analyzer.games import registry
from analyzer.games.interface import ReadmeFigures
from analyzer.publish.protect import docs_table

BLOCK = re.compile(r"(<!-- figures:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figures:(?P=name) -->)", re.S)


def _summary(results: Path, folder: str) -> dict:
    return json.loads((results / folder / "summary.json").read_text())


def _x(entry: dict) -> Fraction:
    return parse_fraction_str(entry["exact"])


def basic_strategies(results: Path) -> str:
    """The basic strategies' house edges and RTPs against optimal, and the operator's three-strategy table."""
    h = _summary(results, "casino_holdem/operator")
    st, pub = h["strategies"], h["published"]
    basic, optimal = st["basic"], st["optimal"]
    gap = _x(optimal["rtp_returned_over_wagered"]) - _x(basic["rtp_returned_over_wagered"])
    rows = [[label, percent_str(_x(st[name]["rtp_returned_over_wagered"]), 4), pub[f"{key}_main_rtp"]["published"],
             percent_str(_x(st[name]["aa_bonus_rtp"]), 4), pub[f"{key}_aa_bonus_rtp"]["published"]]
            for label, name, key in [("basic (ours)", "basic", "basic"), ("optimal", "optimal", "optimal"),
                                     ("call on every AA Bonus win, basic otherwise", "call_on_aa_win_basic",
                                      "call_on_aa_win")]]

    def stud(rule_set, strategy="basic"):
        return _x(_summary(results, f"caribbean_stud/{rule_set}")["strategies"][strategy]["house_edge_per_ante"])
    op_he, std_he = stud("operator"), stud("standard")
    op_gap = op_he - stud("operator", "optimal")
    return (f"Casino Hold'em: house edge {basic['house_edge_per_ante']['exact']} = "
            f"{percent_str(_x(basic['house_edge_per_ante']), 6)} per ANTE, main RTP "
            f"{percent_str(_x(basic['rtp_returned_over_wagered']), 6)} ({decimal_str(gap * 100, 6)} percentage points "
            f"below optimal), AA Bonus RTP {percent_str(_x(basic['aa_bonus_rtp']), 6)}. The operator's three-strategy "
            "table with this basic strategy in place of the operator's (which is not published):\n\n"
            + markdown_table(["strategy", "main RTP", "published", "AA Bonus RTP", "published"], rows, "lrrrr")
            + f"\nCaribbean Stud (both rule sets): house edge {percent_str(op_he, 6)} (operator) and "
              f"{percent_str(std_he, 6)} (standard) per ANTE, {percent_str(op_gap, 5)} per ANTE above optimal.\n")


# Published standard deviations (rounded, per initial bet); the README shows exact minus published.
PUBLISHED_SD = {("baccarat/operator", "banker"): "0.93", ("baccarat/operator", "player"): "0.95",
                ("baccarat/operator", "tie"): "2.64", ("caribbean_stud/standard", "optimal"): "2.24"}


def volatility(results: Path) -> str:
    """Standard deviations, hit frequencies and rounds to settle of the main wagers, from round_statistics."""
    rows = []

    def row(label, folder, entry, published_key=None):
        variance = parse_fraction_str(entry["standard_deviation"]["sqrt_of"])
        published = PUBLISHED_SD.get((folder, published_key))
        difference = "" if published is None else surd_decimal_str(-Fraction(published), 1, variance, 6)
        versus = "" if published is None else f"{published} ({'' if difference.startswith('-') else '+'}{difference})"
        settle = {r["tolerance_percentage_points"]: int(r["rounds"]) for r in entry["rounds_to_settle"]}
        rows.append([label, sqrt_decimal_str(variance, 6),
                     sqrt_decimal_str(parse_fraction_str(entry["sd_per_unit_wagered"]["sqrt_of"]), 6),
                     percent_str(_x(entry["hit_frequency"]), 4), versus, thousands(settle["0.1"]),
                     thousands(settle["0.01"])])
    bets = _summary(results, "baccarat/operator")["round_statistics"]["bets"]
    for bet in ("banker", "player", "tie"):
        row(f"Baccarat {bet.upper()}", "baccarat/operator", bets[bet], bet)
    holdem = _summary(results, "casino_holdem/operator")["round_statistics"]["strategies"]["optimal"]
    row("Casino Hold'em ANTE + CALL, optimal", "casino_holdem/operator", holdem["main"])
    row("Casino Hold'em AA Bonus alone, optimal", "casino_holdem/operator", holdem["aa_bonus"])
    row("Casino Hold'em ANTE + CALL + AA Bonus (1 x ANTE)", "casino_holdem/operator", holdem["combined"])
    for rule_set in ("standard", "operator"):
        stud = _summary(results, f"caribbean_stud/{rule_set}")["round_statistics"]["strategies"]["optimal"]
        row(f"Caribbean Stud ANTE + raise, optimal, {rule_set}", f"caribbean_stud/{rule_set}", stud["main"], "optimal")
    return ("Per round, in units of the initial bet (ANTE; Baccarat: the stake); a fold counts -1 and a push 0. "
            "The standard deviation is rendered from the exact variance by an integer square root; the rounds to "
            "settle are those after which the realised house edge lies within the tolerance of the exact one "
            "with 95% confidence (normal approximation).\n\n"
            + markdown_table(["wager", "SD", "SD per unit wagered", "hit frequency", "published SD (exact - published)",
                              "rounds to settle, 0.1 pp", "0.01 pp"], rows, "lrrrrrr"))


def _measured_on(report: dict, script: str) -> str:
    m = report["machine"]
    return (f"Measured {report['date']} on {m['cpu']} ({m['cores']} cores, {m['memory_gb']} GB), Python {m['python']}, "
            f"{m['system']}; commit `{(report.get('commit') or 'unknown')[:12]}`, load average "
            f"{report['load_average_before'][0]:.2f} before; `python benchmarks/{script}`, median of {report['runs']} runs.")


def _met(value: float, target: float) -> str:
    return "met" if value <= target else "**not met**"


STAGE_SHOWN = 0.05         # seconds: shorter stages are left out of the README's stage tables


def speed_table(report: dict) -> str:
    """benchmarks/results/commands.json (bench_commands.py) as Markdown: each command's median wall time and
    peak memory (of the process tree; of its largest process where older measurements lack it) against
    its target, then its stages of at least STAGE_SHOWN seconds."""
    lines = [_measured_on(report, "bench_commands.py"), "",
             "| command (`--out DIR`) | wall | peak memory, all processes | largest process | target | |",
             "|---|---:|---:|---:|---|---|"]
    for name, result in report["commands"].items():
        arguments = " ".join(a for a in result["arguments"] if a not in ("--out", "DIR"))
        target = report.get("targets", {}).get(name)
        wall, tree = result["median_wall_s"], result.get("median_peak_tree_mb")
        peak = result["median_peak_rss_mb"] if tree is None else tree
        lines.append(f"| `analyzer {arguments}` | {wall:.2f} s | {'not measured' if tree is None else f'{tree:,.0f} MB'} | "
                     f"{result['median_peak_rss_mb']:,.0f} MB | "
                     + (f"<= {target[0]:g} s, <= {target[1]} MB | time {_met(wall, target[0])}, "
                        f"memory {_met(peak, target[1])} |" if target else "| |"))
    if "baseline" in report:
        base, change = report["baseline"], report["against_baseline_percent"]
        lines += ["", f"Against commit `{base['commit'][:12]}`, each run paired with one of it (the issue's limit: "
                      "no command more than 10% slower or larger):", "",
                  "| command | wall | baseline | change | peak memory | baseline | change | |", "|---|---:|---:|---:|---:|---:|---:|---|"]
        for name, result in report["commands"].items():
            was, delta = base["commands"][name], change[name]
            worst = max(delta["median_wall_s"], delta["median_peak_tree_mb"])
            lines.append(f"| `{name}` | {result['median_wall_s']:.2f} s | {was['median_wall_s']:.2f} s | "
                         f"{delta['median_wall_s']:+.1f}% | {result['median_peak_tree_mb']:,.0f} MB | "
                         f"{was['median_peak_tree_mb']:,.0f} MB | {delta['median_peak_tree_mb']:+.1f}% | "
                         f"{'within 10%' if worst <= 10 else '**over 10%**'} |")
    for name, result in report["commands"].items():
        shown = [(stage, seconds) for stage, seconds in result["stages_median_s"].items() if seconds >= STAGE_SHOWN]
        lines += ["", f"`analyzer {name}`: where the time goes (median seconds; a stage's parts, named stage / part, come just before it; "
                      f"parts under {STAGE_SHOWN} s left out)", "", "| stage | s |", "|---|---:|",
                  f"| start-up, imports, exit | {result['startup_imports_exit_s']:.2f} |"]
        lines += [f"| {stage} | {seconds:.2f} |" for stage, seconds in shown]
    return "\n".join(lines) + "\n"


def repricing_table(report: dict) -> str:
    """benchmarks/results/repricing.json (bench_repricing.py) as Markdown, against its targets."""
    targets = report["targets"]
    lines = [_measured_on(report, "bench_repricing.py"), "",
             "| re-pricing one paytable from the count cache | in the process | whole command | peak memory |",
             "|---|---:|---:|---:|"]
    for game, result in report["games"].items():
        lines.append(f"| `analyzer {game} --rules variant.toml` | {result['in_process_s']:.2f} s "
                     f"({_met(result['in_process_s'], targets['in_process_s'])}: < {targets['in_process_s']:g} s) | "
                     f"{result['whole_command_s']:.2f} s ({_met(result['whole_command_s'], targets['whole_command_s'])}: "
                     f"< {targets['whole_command_s']:g} s) | "
                     f"{result.get('whole_command_peak_tree_mb', result['whole_command_peak_rss_mb']):,.0f} MB |")
    sweep = report["stud_sweep"]
    lines += ["", f"A {sweep['variants']}-paytable Caribbean Stud `analyzer sweep`, its one enumeration included: "
                  f"{sweep['wall_s']:.1f} s ({_met(sweep['wall_s'], targets['stud_sweep_s'])}: < "
                  f"{targets['stud_sweep_s']:g} s), {sweep.get('peak_tree_mb', sweep['peak_rss_mb']):,.0f} MB."]
    return "\n".join(lines) + "\n"


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 0.1 else f"{value * 1e3:.1f} ms" if value >= 1e-3 else f"{value * 1e6:.1f} us"


def rows_table(report: dict, script: str) -> str:
    """A benchmark's rows ({"what", "seconds", "target_s"}, benchmarks/_timing.save) as Markdown."""
    targets = any(row["target_s"] is not None for row in report["rows"])
    lines = [_measured_on(report, script), "", "| what | measured |" + " target | |" * targets,
             "|---|---:|" + "---:|---|" * targets]
    for row in report["rows"]:
        target = "" if not targets else " | |" if row["target_s"] is None else \
            f" < {_seconds(row['target_s'])} | {_met(row['seconds'], row['target_s'])} |"
        lines.append(f"| {row['what']} | {_seconds(row['seconds'])} |{target}")
    return "\n".join(lines) + "\n"


def _benchmark(benchmarks: Path, name: str) -> dict:
    return json.loads((benchmarks / f"{name}.json").read_text())


def speed(benchmarks: Path) -> str:
    """The speed block (docs/performance.md): whole commands, re-pricing from the cache, Baccarat and the advisor."""
    return "\n".join([speed_table(_benchmark(benchmarks, "commands")), repricing_table(_benchmark(benchmarks, "repricing")),
                      *(rows_table(_benchmark(benchmarks, name), f"bench_{name}.py") for name in ("baccarat", "advisor"))])


# blocks rendered from results/: each game's own (its face's readme_figures, given its folder), and two across games
RENDERERS = {**{game.name: lambda results, game=game: game.module.readme_figures(results / game.folder)
                for game in registry.GAMES if game.has(ReadmeFigures)},
             "volatility": volatility, "basic-strategies": basic_strategies, "protection": docs_table}


# blocks rendered from benchmarks/results/, not results/; scaling (docs/scaling-out.md): each enumeration on each
# executor; protection-timings (docs/protection.md): the seen-cards, edge-sorting and collusion counts
BENCHMARK_RENDERERS = {"speed": speed,
                       "protection-timings": lambda benchmarks: "\n".join(
                           rows_table(_benchmark(benchmarks, name), f"bench_{name}.py")
                           for name in ("protection_stud", "edge_sorting", "collusion")),
                       "scaling": lambda benchmarks: rows_table(_benchmark(benchmarks, "scaling"), "bench_scaling.py")}


def render(text: str, results: Path, benchmarks: Path | None = None) -> str:
    """A document's text with every figures block rendered anew from `results` (and `benchmarks`, by
    default the benchmarks/results/ beside `results`)."""
    benchmarks = benchmarks or results.parent / "benchmarks" / "results"

    def block(match):
        name = match.group("name")
        body = BENCHMARK_RENDERERS[name](benchmarks) if name in BENCHMARK_RENDERERS else RENDERERS[name](results)
        return match.group(1) + body + match.group(4)
    return BLOCK.sub(block, text)


def documents(root: Path) -> list[Path]:
    """The documents whose blocks are rendered: the README and every page of docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer.publish.readme", description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="*", metavar="FILE", help="default: README.md and docs/*.md")
    parser.add_argument("--results", default="results")
    parser.add_argument("--benchmarks", default="benchmarks/results", help="the benchmark scripts' measurements")
    parser.add_argument("--check", action="store_true", help="exit 1 when a block differs from the results")
    args = parser.parse_args(argv)
    stale = []
    for path in [Path(name) for name in args.documents] or documents(Path(".")):
        text = path.read_text()
        fresh = render(text, Path(args.results), Path(args.benchmarks))
        if args.check:
            stale += [f"{path}: {m.group('name')}" for m, n in zip(BLOCK.finditer(text), BLOCK.finditer(fresh))
                      if m.group(0) != n.group(0)]
        elif fresh != text:
            path.write_text(fresh)
    if stale:
        print(f"figures blocks differ from {args.results}: {', '.join(stale)} (run python -m analyzer.publish.readme)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
