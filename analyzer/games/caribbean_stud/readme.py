"""Caribbean Stud's block of the README, rendered from its committed results (`analyzer.publish.readme`)."""
from __future__ import annotations

import json
from pathlib import Path

from analyzer.core.exact import exact_value as _x, percent_str
from analyzer.figures.tables import markdown_table, thousands


def readme_figures(results: Path) -> str:
    """The README's Caribbean Stud block, from `results` (the results root's caribbean_stud folder)."""
    operator, standard = (json.loads((results / rule_set / "summary.json").read_text())
                          for rule_set in ("operator", "standard"))
    e = operator["enumeration"]

    def row(label, field, name="optimal", exact=(), published=None):
        """A figure of each rule set as a percentage (exactly too in the rule sets `exact` names), the
        standard rule set's beside its `published` value, if it has one."""
        cells = [label]
        for rule_set, s in (("operator", operator), ("standard", standard)):
            value = s["strategies"][name][field]
            text = percent_str(_x(value), 6)
            cells.append(f"{value['exact']} = {text}" if rule_set in exact else text)
            if published and rule_set == "standard" and s["published"][published]:
                cells[-1] += f" (published {s['published'][published]['published']})"
        return cells
    rows = [row("optimal house edge per ANTE", "house_edge_per_ante", exact=("operator", "standard"),
                published="house_edge"),
            row("probability of raising", "probability_of_raising", exact=("operator",),
                published="raise_probability"),
            row("element of risk", "element_of_risk"),
            row("RTP (returned / wagered)", "rtp_returned_over_wagered"),
            row("raise a pair or better", "house_edge_per_ante", "raise_pair_or_better"),
            row("raise ace-king or better", "house_edge_per_ante", "raise_ace_king_or_better"),
            row("raise everything", "house_edge_per_ante", "raise_everything"),
            row("the rule in words (below)", "house_edge_per_ante", "rule_in_words")]
    same = operator["strategies"]["optimal"]["probability_of_raising"] == \
        standard["strategies"]["optimal"]["probability_of_raising"]
    rule, prog = operator["rule_in_words"], operator["progressive"]
    return (f"{thousands(int(e['situations']))} (hand, dealer up card) situations in "
            f"{thousands(e['situation_classes'])} suit classes, each against all "
            f"{thousands(e['dealer_completions_per_situation'])} completions of the dealer's hand: "
            f"{thousands(int(e['deals']))} deals per rule set."
            + (" The raise decisions are the same under both paytables.\n\n" if same else "\n\n")
            + markdown_table(["", "operator (bonus when the dealer does not qualify)",
                              "standard (100/50/20/7/5/4/3/2/1)"], rows, "lll")
            + "\nThe optimal rule in words, checked on every situation class:\n\n"
            + "\n".join(f"{i}. {line}" for i, line in enumerate(rule["rule"], 1))
            + f"\n\nIt differs from the optimal table in {thousands(rule['exceptions']['classes'])} classes "
              f"({thousands(rule['exceptions']['situations'])} situations, listed with their exact cost in "
              f"`strategy_rule_exceptions.csv`), costing {rule['cost_per_ante']['exact']} ANTE per hand; no rule on "
              f"ranks alone can be exact ({thousands(rule['rank_patterns_whose_best_play_depends_on_suits'])} rank "
              "patterns are decided by suits).\n\n"
              f"Progressive (EUR {prog['stake']}, amounts from the rule file; royal = the jackpot J): RTP(J) = "
              f"{prog['rtp_as_function_of_jackpot']} exactly; the break-even jackpot is EUR "
              f"{thousands(round(_x(prog['break_even_jackpot'])))}.\n")
