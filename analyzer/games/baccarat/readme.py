"""Baccarat's block of the README, rendered from its committed results (`analyzer.publish.readme`)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from analyzer.core.exact import exact_value as _x, parse_fraction_str, percent_str
from analyzer.figures.tables import markdown_table, thousands


def readme_figures(results: Path) -> str:
    """The README's Baccarat block, from `results` (the results root's baccarat folder)."""
    s = json.loads((results / "operator" / "summary.json").read_text())
    labels = {"banker": "BANKER (5% commission, nominal)", "player": "PLAYER", "tie": "TIE (8 to 1)"}
    rows = [[labels[bet], e["house_edge"]["exact"], percent_str(_x(e["house_edge"]), 6), percent_str(_x(e["rtp"]), 6),
             (e.get("published") or {}).get("published", "")] for bet, e in s["bets"].items()]
    with open(results / "operator/banker_commission_by_stake.csv") as handle:
        stakes = {row["stake"]: parse_fraction_str(row["rtp"]) for row in csv.DictReader(handle)}
    return (markdown_table(["bet", "house edge (exact)", "house edge", "RTP", "published RTP"], rows, "lllll")
            + f"\nCounted over all {s['deals']['formula']} = {thousands(int(s['deals']['ordered_six_card_sequences']))} "
              "ordered 6-card sequences. The BANKER win returns 1.95 x stake rounded down to the cent: the rounding "
              "costs the player on every stake that is not a multiple of EUR 0.20 (EUR 0.10 stake: RTP "
              f"{percent_str(stakes['0.10'], 6)}); see `banker_commission_by_stake.csv`.\n")
