"""Casino Hold'em's block of the README, rendered from its committed results (`analyzer.publish.readme`)."""
from __future__ import annotations

import json
from pathlib import Path

from analyzer.core.exact import exact_value as _x, percent_str
from analyzer.figures.tables import markdown_table, thousands


def readme_figures(results: Path) -> str:
    """The README's Casino Hold'em block, from `results` (the results root's casino_holdem folder)."""
    s = json.loads((results / "operator" / "summary.json").read_text())
    e, st, pub = s["enumeration"], s["strategies"], s["published"]

    def row(name, label, published):
        f = st[name]
        return [label, percent_str(_x(f["house_edge_per_ante"]), 6) if name != "optimal" else
                f"{f['house_edge_per_ante']['exact']} = {percent_str(_x(f['house_edge_per_ante']), 6)}",
                percent_str(_x(f["probability_of_calling"]), 6), percent_str(_x(f["rtp_returned_over_wagered"]), 6),
                percent_str(_x(f["aa_bonus_rtp"]), 6), published]
    aa = pub["optimal_aa_bonus_rtp"]
    differs = s["joint_optimal_differs_from_optimal"]["situation_classes"]
    return (f"{thousands(int(e['situations']))} (hole, flop) situations in {thousands(e['situation_classes'])} suit "
            f"classes, each against all {thousands(int(e['continuations_per_situation']))} turn/river and dealer "
            f"hole pairs: {thousands(int(e['deals']))} deals.\n\n"
            + markdown_table(["strategy", "house edge per ANTE", "P(call)", "main RTP", "AA Bonus RTP", "published"], [
                row("optimal", "optimal (main game)",
                    f"{pub['optimal_main_rtp']['published']} / {aa['published']}"),
                row("always_call", "always call", f"AA {pub['every_hand_calls_aa_bonus_rtp']['published']}"),
                row("call_on_aa_win", "call on every AA Bonus win, else optimal", "")], "llrrrl")
            + f"\nThe exact optimal AA Bonus RTP, {percent_str(_x(aa['exact']), 4)}, is "
              f"{aa['exact_minus_published'].lstrip('-').rstrip('%')} percentage points below the operator's published "
              f"{aa['published']}; the "
              f"other figures round to the published ones. For an AA Bonus of "
              f"{st['joint_optimal']['aa_bonus_ratio'].removesuffix('/1')} x "
              "ANTE the jointly optimal strategy is exactly \"call on every AA Bonus win, else optimal\" "
              f"({thousands(differs)} classes differ from the main-game optimum); with a smaller AA Bonus "
              "(`--aa-ratio 0.1`) the two part.\n")
