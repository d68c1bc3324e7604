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

    def both(label, get):
        return [label, get(operator, False), get(standard, True)]

    def he(name, exact=False):
        def get(s, is_standard):
            value = s["strategies"][name]["house_edge_per_ante"]
            text = percent_str(_x(value), 6)
            if exact:
                text = f"{value['exact']} = {text}"
                if is_standard and s["published"]["house_edge"]:
                    text += f" (published {s['published']['house_edge']['published']})"
            return text
        return get

    def p_raise(s, is_standard):
        value = s["strategies"]["optimal"]["probability_of_raising"]
        text = percent_str(_x(value), 6)
        if not is_standard:
            return f"{value['exact']} = {text}"
        published = s["published"]["raise_probability"]
        return text + (f" (published {published['published']})" if published else "")
    rows = [both("optimal house edge per ANTE", he("optimal", exact=True)),
            both("probability of raising", p_raise),
            both("element of risk", lambda s, _: percent_str(_x(s["strategies"]["optimal"]["element_of_risk"]), 6)),
            both("RTP (returned / wagered)",
                 lambda s, _: percent_str(_x(s["strategies"]["optimal"]["rtp_returned_over_wagered"]), 6)),
            both("raise a pair or better", he("raise_pair_or_better")),
            both("raise ace-king or better", he("raise_ace_king_or_better")),
            both("raise everything", he("raise_everything")),
            both("the rule in words (below)", he("rule_in_words"))]
    same = operator["strategies"]["optimal"]["probability_of_raising"] == \
        standard["strategies"]["optimal"]["probability_of_raising"]
    rule = operator["rule_in_words"]
    prog = operator["progressive"]
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
