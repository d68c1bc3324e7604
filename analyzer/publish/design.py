"""`analyzer design`: vary one payout of a rule file and answer exactly what it does to the game (the
breakpoints, the pieces, the theta* meeting a target and the printable payouts either side), written
atomically to <out>/designs/<rule set>.<key>/; what it reports: docs/command-line.md."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.exact import decimal_str, figure, fraction_str, percent_str
from analyzer.design.piecewise import NAMES
from analyzer.figures.outputs import Figure
from analyzer.figures.tables import csv_text, markdown_table, thousands
from analyzer.games.registry import Game
from analyzer.publish import pipeline, plots
from analyzer.publish.folder import check_folder, check_out_root, json_bytes, write_folder_atomically

MAX_ROWS = 60              # breakpoints and pieces listed in design.md (all are in the CSV files)
CURVE_POINTS = 200


def linear_text(alpha: Fraction, beta: Fraction) -> str:
    """'a + b theta' with exact fractions."""
    return f"{fraction_str(alpha)} {'-' if beta < 0 else '+'} {fraction_str(abs(beta))} theta"


def solve(game: Game, rule_path, key: str, run: pipeline.Run, target: Fraction | None = None,
          kind: str = "rtp", lo=None, hi=None, step: Fraction | None = None, jackpot=None) -> dict:
    """Everything `analyzer design` reports, as exact values; every option, and the output folder, is
    checked before the game counts (or reads the count cache)."""
    rule_file, rules = game.load_rules(rule_path)
    problem = game.module.design_problem(rule_file, rules, key, jackpot=jackpot)
    if jackpot is not None and problem.jackpot is None:
        raise InputError(f"--jackpot sets the jackpot a progressive amount's RTP is taken at; {key} is not one")
    if step is not None and target is None:
        raise InputError("--step sets the printable payouts either side of the target's theta*: give "
                         "--target-rtp or --target-house-edge with it")
    least, most = problem.allowed
    searched = lo is None
    if searched:
        lo, hi = least, max(2 * problem.current, Fraction(10))
        hi = hi if most is None else min(hi, most)
    elif lo > hi:
        raise InputError(f"--range {lo} {hi}: the low end is above the high end")
    elif lo < least or most is not None and hi > most:
        raise InputError(f"--range {lo} {hi}: {key} must lie in [{least}, {'...' if most is None else most}] "
                         "(the rule file's schema)")
    folder = Path(run.out_root) / "designs" / f"{rule_file.name}.{key}"
    check_out_root(run.out_root)
    check_folder(folder)
    pipeline.check_cache(run, [game])
    model = problem.model_of(pipeline.count(game, rules, run))
    note = ""
    if target is not None and searched:
        reached = model.reach(target, kind, lo, hi, most)
        if reached is None:
            note = f"; {hi} is the most the rule schema allows" if most == hi else f"; nor at any theta above {hi}"
        elif reached != hi:
            note = f" (no --range given: [{lo}, {hi}] was doubled to [{lo}, {reached}] to reach it)"
            hi = reached
    answer = {"rule_file": rule_file, "problem": problem, "lo": lo, "hi": hi, "folder": folder,
              "breakpoints": model.breakpoints(lo, hi), "pieces": model.pieces(lo, hi),
              "current": model.point(problem.current), "target": target, "kind": kind, "solution": None,
              "neighbours": None, "step": step or Fraction(1), "note": note}
    if target is not None:
        solution = answer["solution"] = model.solve(target, kind, lo, hi)
        if len(solution.solutions) == 1 and solution.solutions[0].is_point:
            answer["neighbours"] = model.printable_neighbours(solution.theta, answer["step"])
    return answer


def answer_text(answer: dict) -> str:
    """The answer to the target, in one sentence."""
    return answer["solution"].describe() + answer["note"]


def _point_row(label: str, point) -> list:
    return [label, fraction_str(point.theta), decimal_str(point.theta, 6), percent_str(-point.ev, 6),
            percent_str(point.rtp, 6), percent_str(point.p_play, 4)]


def markdown(answer: dict, drawn: bool) -> str:
    """design.md: the question, the breakpoints, the pieces, the answer."""
    problem, rule_file = answer["problem"], answer["rule_file"]
    bps, pieces = answer["breakpoints"], answer["pieces"]
    head = ["", "theta (exact)", "theta", "house edge", "RTP", "P(play)"]
    out = [f"# Design: `{problem.key}` of rule set `{rule_file.name}`\n",
           f"Rule file `{rule_file.path.name}` (sha256 `{rule_file.sha256}`). The figure varied: {problem.wager}. "
           f"theta = the value of `{problem.key}` (the rule file has {fraction_str(problem.current)}), over "
           f"[{fraction_str(answer['lo'])}, {fraction_str(answer['hi'])}]. "
           + ("Every situation class plays optimally at each theta: the EV is convex and piecewise linear."
              if problem.optimal else "The strategy is fixed: the EV is linear in theta.") + "\n",
           "## At the rule file's value\n", markdown_table(head, [_point_row("current", answer["current"])], "lrrrrr")]
    if problem.optimal:
        rows = [[fraction_str(b.theta), decimal_str(b.theta, 6), thousands(b.classes_to_play),
                 thousands(b.classes_to_fold), thousands(b.weight)]
                for b in map(bps.__getitem__, range(min(len(bps), MAX_ROWS)))]
        out += [f"\n## Breakpoints: {thousands(len(bps))} values of theta where the optimal strategy changes\n",
                ("All listed." if len(bps) <= MAX_ROWS else
                 f"The first {MAX_ROWS} listed; all are in `breakpoints.csv`.") + " At a breakpoint the switching classes are exactly indifferent (they fold there).\n",
                markdown_table(["theta (exact)", "theta", "classes that start playing", "classes that stop",
                                "situations"], rows, "rrrrr") if rows else "(none in the range)\n"]
    rows = [[fraction_str(p.start), fraction_str(p.end), linear_text(-p.ev.alpha, -p.ev.beta),
             linear_text(p.rtp.alpha, p.rtp.beta), percent_str(p.p_play, 4)]
            for p in map(pieces.__getitem__, range(min(len(pieces), MAX_ROWS)))]
    out += [f"\n## The {thousands(len(pieces))} linear piece(s)\n",
            "House edge and RTP on each piece as exact linear functions of theta"
            + ("" if len(pieces) <= MAX_ROWS else f" (the first {MAX_ROWS})") + ".\n",
            markdown_table(["from", "to", "house edge", "RTP", "P(play)"], rows, "rrllr")]
    if answer["solution"] is not None:
        out += [f"\n## Target: {NAMES[answer['kind']]} {decimal_str(answer['target'], 8)}\n",
                answer_text(answer) + ".\n"]
        if answer["neighbours"] is not None:
            n, theta = answer["neighbours"], answer["solution"].theta
            out += [f"\ntheta* = {fraction_str(theta)} = {decimal_str(theta, 8)}. The nearest printable values "
                    f"(multiples of {fraction_str(answer['step'])}):\n",
                    markdown_table(head, [_point_row("below", n.below), _point_row("above", n.above)], "lrrrrr")]
    out.append("\n![House edge against theta](figure_design.svg)\n" if drawn else
               "\n(No figure: its values lie beyond what floating point draws; every figure above is exact.)\n")
    return "\n".join(out)


def as_json(answer: dict) -> dict:
    problem, solution, neighbours = answer["problem"], answer["solution"], answer["neighbours"]

    def point(p):
        return {"theta": figure(p.theta), "house_edge": figure(-p.ev), "rtp": figure(p.rtp), "p_play": figure(p.p_play)}
    out = {"format": "analyzer-design/1", "rule_set": answer["rule_file"].name,
           "rule_sha256": answer["rule_file"].sha256, "key": problem.key, "wager": problem.wager,
           "optimal_play": problem.optimal, "range": [fraction_str(answer["lo"]), fraction_str(answer["hi"])],
           "current": point(answer["current"]), "breakpoints": len(answer["breakpoints"]),
           "pieces": len(answer["pieces"]),
           "files": {"breakpoints.csv": "every breakpoint", "pieces.csv": "every piece: house edge and RTP as "
                     "constant + per_theta x theta, exact"}}
    if solution is not None:
        out["target"] = {"kind": answer["kind"], "value": figure(answer["target"]),
                         "solutions": [str(s) for s in solution.solutions], "reachable": solution.reachable,
                         "lowest": figure(solution.lowest), "highest": figure(solution.highest)}
        if neighbours is not None:
            out["target"]["theta"] = figure(solution.theta)
            out["target"]["printable"] = {"step": fraction_str(answer["step"]), "below": point(neighbours.below),
                                          "above": point(neighbours.above)}
    return out


def curve(answer: dict) -> Figure:
    """House edge against theta: the exact polyline through the range's ends and every breakpoint (at most
    CURVE_POINTS of them drawn; floats for the plot only), the breakpoints marked."""
    pieces, solution = answer["pieces"], answer["solution"]
    n = len(pieces) + 1
    indices = sorted(set(range(0, n, max(1, n // CURVE_POINTS))) | {n - 1})
    points = [(pieces.theta(i), -pieces.point(i).ev) for i in indices]
    star = (solution.theta, -pieces.at(solution.theta).ev) if answer["neighbours"] is not None else None
    inside = [point for i, point in zip(indices, points) if 0 < i < n - 1] if answer["problem"].optimal else []
    return Figure("figure_design.svg", "House edge against theta", "design_curve",
                  {"points": points, "breakpoints": inside, "target": star, "current": answer["current"].theta,
                   "xlabel": answer["problem"].key, "title": f"House edge against {answer['problem'].key}"})


def write(answer: dict) -> Path:
    """The design's folder, published atomically (`folder.write_folder_atomically`)."""
    bps, svg = answer["breakpoints"], plots.render(curve(answer))    # None past the floats (plots.drawable)
    files = {"design.md": markdown(answer, svg is not None).encode(), "design.json": json_bytes(as_json(answer)),
             "breakpoints.csv": csv_text(["theta", "theta_decimal", "classes_to_play", "classes_to_fold", "situations"],
                                         [[fraction_str(b.theta), decimal_str(b.theta), b.classes_to_play,
                                           b.classes_to_fold, b.weight] for b in bps]).encode(),
             "pieces.csv": csv_text(["from", "to", "house_edge_constant", "house_edge_per_theta", "rtp_constant",
                                     "rtp_per_theta", "p_play"],
                                    [list(map(fraction_str, (p.start, p.end, -p.ev.alpha, -p.ev.beta, p.rtp.alpha,
                                                             p.rtp.beta, p.p_play))) for p in answer["pieces"]]).encode()}
    if svg is not None:
        files["figure_design.svg"] = svg.encode()
    return write_folder_atomically(answer["folder"], files)


def summary_lines(answer: dict) -> list[str]:
    """What the command prints."""
    problem, current = answer["problem"], answer["current"]
    lines = [f"{problem.key} = {fraction_str(problem.current)} now: house edge {percent_str(-current.ev, 6)}, "
             f"RTP {percent_str(current.rtp, 6)} ({problem.wager})"]
    if problem.optimal:
        lines.append(f"{len(answer['breakpoints']):,} breakpoints in [{answer['lo']}, {answer['hi']}] where the "
                     "optimal strategy changes")
    if answer["solution"] is not None:
        lines.append(answer_text(answer))
        for side in ("below", "above") if answer["neighbours"] is not None else ():
            p = getattr(answer["neighbours"], side)
            lines.append(f"  {side}: {fraction_str(p.theta)}: house edge {percent_str(-p.ev, 6)}, "
                         f"RTP {percent_str(p.rtp, 6)}")
    return lines
