"""`analyzer design`: vary one payout of a rule file, and answer exactly what it does to the game.

The game counts once (or reads the count cache), states the payout as a design problem
(`core.piecewise.Problem`: under optimal play each class takes max(fold, a + b theta), so the
EV is convex and piecewise linear in theta; a fixed-strategy wager is linear), and this
module reports: every breakpoint in the range where the optimal strategy changes, with how
many classes switch there; the EV, house edge and RTP on each piece as exact linear
functions of theta; the exact theta* meeting a target RTP or house edge and the nearest
printable payouts on either side with their exact figures; and a figure of the house edge
against theta.  Written to <out>/designs/<rule set>.<key>/ (design.md, design.json,
breakpoints.csv, pieces.csv, figure_design.svg), published atomically.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, figure, fraction_str, percent_str
from analyzer.figures.outputs import Figure
from analyzer.design.piecewise import Problem
from analyzer.figures.tables import csv_text, markdown_table, thousands
from analyzer.games.registry import Game
from analyzer.publish import pipeline, plots
from analyzer.publish.folder import json_bytes, write_folder_atomically

MAX_ROWS = 60              # breakpoints and pieces listed in design.md (all are in breakpoints.csv)
CURVE_POINTS = 200


def linear_text(alpha: Fraction, beta: Fraction, unit: str = "theta") -> str:
    """'a + b theta' with exact fractions."""
    sign = "-" if beta < 0 else "+"
    return f"{fraction_str(alpha)} {sign} {fraction_str(abs(beta))} {unit}"


def default_range(current: Fraction) -> tuple[Fraction, Fraction]:
    """Zero to twice the current value (at least 0 to 10)."""
    return Fraction(0), max(2 * current, Fraction(10))


def solve(game: Game, rule_path, key: str, run: pipeline.Run, target: Fraction | None = None,
          kind: str = "rtp", lo=None, hi=None, step: Fraction = Fraction(1), jackpot=None) -> dict:
    """Everything `analyzer design` reports, as exact values (see the module docstring)."""
    rule_file, rules = game.load_rules(rule_path)
    table = pipeline.count(game, rules, run)
    problem: Problem = game.module.design_problem(rule_file, rules, table, key, jackpot=jackpot)
    d_lo, d_hi = default_range(problem.current)
    lo, hi = (Fraction(lo) if lo is not None else d_lo), (Fraction(hi) if hi is not None else d_hi)
    if lo > hi:
        raise InputError(f"--range {lo} {hi}: the low end is above the high end")
    if step <= 0:
        raise InputError(f"--step {step} must be positive")
    model = problem.model
    breakpoints = model.breakpoints(lo, hi)
    pieces = model.pieces(lo, hi)
    answer = {"rule_file": rule_file, "problem": problem, "lo": lo, "hi": hi, "breakpoints": breakpoints,
              "pieces": pieces, "current": model.point(problem.current), "target": target, "kind": kind,
              "solution": None, "neighbours": None, "step": step}
    if target is not None:
        solution = model.solve(target, kind, lo, hi)
        answer["solution"] = solution
        if solution.reachable and len(solution.solutions) == 1 and solution.solutions[0].is_point:
            answer["neighbours"] = model.printable_neighbours(solution.theta, step)
    return answer


def _point_row(label: str, point) -> list:
    return [label, fraction_str(point.theta), decimal_str(point.theta, 6), percent_str(-point.ev, 6),
            percent_str(point.rtp, 6), percent_str(point.p_play, 4)]


def markdown(answer: dict) -> str:
    """design.md: the question, the breakpoints, the pieces, the answer."""
    problem, rule_file = answer["problem"], answer["rule_file"]
    bps, pieces = answer["breakpoints"], answer["pieces"]
    out = [f"# Design: `{problem.key}` of rule set `{rule_file.name}`\n",
           f"Rule file `{rule_file.path.name}` (sha256 `{rule_file.sha256}`). The figure varied: {problem.wager}. "
           f"theta = the value of `{problem.key}` (the rule file has {fraction_str(problem.current)}), over "
           f"[{fraction_str(answer['lo'])}, {fraction_str(answer['hi'])}]. "
           + ("Every situation class plays optimally at each theta: the EV is convex and piecewise linear."
              if problem.optimal else "The strategy is fixed: the EV is linear in theta.") + "\n",
           "## At the rule file's value\n",
           markdown_table(["", "theta (exact)", "theta", "house edge", "RTP", "P(play)"],
                          [_point_row("current", answer["current"])], "lrrrrr")]
    if problem.optimal:
        rows = [[fraction_str(bps[j].theta), decimal_str(bps[j].theta, 6), thousands(bps[j].classes_to_play),
                 thousands(bps[j].classes_to_fold), thousands(bps[j].weight)] for j in range(min(len(bps), MAX_ROWS))]
        out += [f"\n## Breakpoints: {thousands(len(bps))} values of theta where the optimal strategy changes\n",
                ("All listed." if len(bps) <= MAX_ROWS else f"The first {MAX_ROWS} listed; all are in `breakpoints.csv`.")
                + " At a breakpoint the switching classes are exactly indifferent (they fold there).\n",
                markdown_table(["theta (exact)", "theta", "classes that start playing", "classes that stop",
                                "situations"], rows, "rrrrr") if rows else "(none in the range)\n"]
    rows = [[fraction_str(p.start), fraction_str(p.end), linear_text(-p.ev.alpha, -p.ev.beta),
             linear_text(p.rtp.alpha, p.rtp.beta), percent_str(p.p_play, 4)]
            for p in list(pieces)[:MAX_ROWS]]
    out += [f"\n## The {thousands(len(pieces))} linear piece(s)\n",
            "House edge and RTP on each piece as exact linear functions of theta"
            + ("" if len(pieces) <= MAX_ROWS else f" (the first {MAX_ROWS})") + ".\n",
            markdown_table(["from", "to", "house edge", "RTP", "P(play)"], rows, "rrllr")]
    solution = answer["solution"]
    if solution is not None:
        what = {"rtp": "RTP", "house_edge": "house edge", "ev": "EV"}[answer["kind"]]
        out += [f"\n## Target: {what} {decimal_str(answer['target'], 8)}\n", solution.describe() + ".\n"]
        if answer["neighbours"] is not None:
            n = answer["neighbours"]
            out += [f"\ntheta* = {fraction_str(solution.theta)} = {decimal_str(solution.theta, 8)}. The nearest "
                    f"printable values (multiples of {fraction_str(answer['step'])}):\n",
                    markdown_table(["", "theta (exact)", "theta", "house edge", "RTP", "P(play)"],
                                   [_point_row("below", n.below), _point_row("above", n.above)], "lrrrrr")]
    out.append("\n![House edge against theta](figure_design.svg)\n")
    return "\n".join(out)


def as_json(answer: dict) -> dict:
    problem, bps, pieces = answer["problem"], answer["breakpoints"], answer["pieces"]

    def point(p):
        return {"theta": figure(p.theta), "house_edge": figure(-p.ev), "rtp": figure(p.rtp), "p_play": figure(p.p_play)}
    out = {"format": "analyzer-design/1", "rule_set": answer["rule_file"].name,
           "rule_sha256": answer["rule_file"].sha256, "key": problem.key, "wager": problem.wager,
           "optimal_play": problem.optimal, "range": [fraction_str(answer["lo"]), fraction_str(answer["hi"])],
           "current": point(answer["current"]), "breakpoints": len(bps), "pieces": len(pieces),
           "files": {"breakpoints.csv": "every breakpoint", "pieces.csv": "every piece: house edge and RTP as "
                     "constant + per_theta x theta, exact"}}
    if answer["solution"] is not None:
        solution = answer["solution"]
        out["target"] = {"kind": answer["kind"], "value": figure(answer["target"]),
                         "solutions": [str(s) for s in solution.solutions], "reachable": solution.reachable,
                         "lowest": figure(solution.lowest), "highest": figure(solution.highest)}
        if answer["neighbours"] is not None:
            out["target"]["theta"] = figure(solution.theta)
            out["target"]["printable"] = {"step": fraction_str(answer["step"]),
                                          "below": point(answer["neighbours"].below),
                                          "above": point(answer["neighbours"].above)}
    return out


def curve(answer: dict) -> Figure:
    """House edge against theta: the exact polyline through the range's ends and every breakpoint
    (at most CURVE_POINTS of them drawn; floats for the plot only), the breakpoints marked."""
    pieces = answer["pieces"]
    n = len(pieces) + 1
    stride = max(1, n // CURVE_POINTS)
    indices = sorted(set(range(0, n, stride)) | {n - 1})
    points = [(pieces.theta(i), -pieces.point(i).ev) for i in indices]
    inside = [point for i, point in zip(indices, points) if 0 < i < n - 1] if answer["problem"].optimal else []
    solution = answer["solution"]
    star = (solution.theta, -pieces.at(solution.theta).ev) if answer["neighbours"] is not None else None
    return Figure("figure_design.svg", "House edge against theta", "design_curve",
                  {"points": points, "breakpoints": inside, "target": star, "current": answer["current"].theta,
                   "xlabel": answer["problem"].key, "title": f"House edge against {answer['problem'].key}"})


def piece_rows(answer: dict) -> list[list]:
    """Every piece: its ends, house edge and RTP as exact linear functions, P(play)."""
    return [[fraction_str(p.start), fraction_str(p.end), fraction_str(-p.ev.alpha), fraction_str(-p.ev.beta),
             fraction_str(p.rtp.alpha), fraction_str(p.rtp.beta), fraction_str(p.p_play)] for p in answer["pieces"]]


def write(answer: dict, out_root) -> Path:
    """The design's folder, published atomically (`folder.write_folder_atomically`)."""
    target = Path(out_root) / "designs" / f"{answer['rule_file'].name}.{answer['problem'].key}"
    bps = answer["breakpoints"]
    files = {"design.md": markdown(answer).encode(), "design.json": json_bytes(as_json(answer)),
             "breakpoints.csv": csv_text(["theta", "theta_decimal", "classes_to_play", "classes_to_fold", "situations"],
                                         [[fraction_str(bps[j].theta), decimal_str(bps[j].theta), bps[j].classes_to_play,
                                           bps[j].classes_to_fold, bps[j].weight] for j in range(len(bps))]).encode(),
             "pieces.csv": csv_text(["from", "to", "house_edge_constant", "house_edge_per_theta", "rtp_constant",
                                     "rtp_per_theta", "p_play"], piece_rows(answer)).encode(),
             "figure_design.svg": plots.render(curve(answer)).encode()}
    return write_folder_atomically(target, files)


def summary_lines(answer: dict) -> list[str]:
    """What the command prints."""
    problem, current = answer["problem"], answer["current"]
    lines = [f"{problem.key} = {fraction_str(problem.current)} now: house edge {percent_str(-current.ev, 6)}, "
             f"RTP {percent_str(current.rtp, 6)} ({problem.wager})"]
    if problem.optimal:
        lines.append(f"{len(answer['breakpoints']):,} breakpoints in [{answer['lo']}, {answer['hi']}] where the "
                     "optimal strategy changes")
    if answer["solution"] is not None:
        lines.append(answer["solution"].describe())
        if answer["neighbours"] is not None:
            for side in ("below", "above"):
                p = getattr(answer["neighbours"], side)
                lines.append(f"  {side}: {fraction_str(p.theta)}: house edge {percent_str(-p.ev, 6)}, "
                             f"RTP {percent_str(p.rtp, 6)}")
    return lines
