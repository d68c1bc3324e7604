"""Caribbean Stud outputs: summary, PAR sheet (Markdown, CSV), the rule in words, strategy files, report content."""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer.core.cards import card_str, cards_str
from analyzer.core.errors import InvariantError
from analyzer.core.exact import (decimal_str, exact_masked_sum, exact_sum, figure, fraction_str, percent_str,
                                 published_check)
from analyzer.figures.outputs import Figure, KeyFigure, Outputs, ReportContent, published_note, summary_head
from analyzer.figures.par import (CombinedPlay, Distribution, ParStatistics, WagerEntry, csv_rows,
                                  derivation, distribution_figure, lines_markdown, par_heading, round_statistics,
                                  share, statistics_markdown, workbook_sheets as statistics_sheets)
from analyzer.figures.tables import EXACT, VALUE, Table, csv_text, demote, markdown_table, thousands
from analyzer.games.caribbean_stud import basic as basic_strategy, fitted_rule
from analyzer.games.caribbean_stud.analysis import BASIC_FILE, OPTIMAL_FILE, StudAnalysis
from analyzer.games.caribbean_stud.progressive import rtp_points
from analyzer.games.caribbean_stud.rules import GAME, Progressive
from analyzer.poker.decision_table import StrategyFigures, margin_histogram
from analyzer.poker.hands import CATEGORIES, CATEGORY_WORDS, qualifier_words
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES, OUTCOME_WORDS
from analyzer.poker.statistics import played_counts, played_weights
from analyzer.strategy.language import strategy_card_markdown

MAX_PATTERNS_SHOWN = 200             # exception patterns listed in strategy_rule.md (all are in the CSV)


def strategy_entry(f: StrategyFigures, raises: np.ndarray) -> dict:
    """One strategy's entry of summary.json (`raises`: where it raises, per class)."""
    return {"description": f.description, "probability_of_raising": figure(f.p_play), "ev_per_ante": figure(f.ev),
            "house_edge_per_ante": figure(f.house_edge), "average_wager_per_ante": figure(f.average_wager),
            "element_of_risk": figure(f.element_of_risk), "rtp_returned_over_wagered": figure(f.rtp),
            "situation_classes_raised": int(np.count_nonzero(raises))}


def summary(analysis: StudAnalysis) -> dict:
    """summary.json: every figure exact, with its decimal."""
    rules, table, st, check = analysis.rules, analysis.table, analysis.strategies, analysis.rule_check
    _, ties = analysis.priced.optimal()
    return {
        **summary_head(GAME, analysis.rule_file),
        "dealer_qualifies_with": qualifier_words(rules.qualifier),
        "definitions": {
            "ev_per_ante": "expected net result per ANTE under the strategy (house edge = -EV)",
            "element_of_risk": "house edge / average total wager (ANTE + raise x P(raise))",
            "rtp_returned_over_wagered": "total returned (stakes included) / total wagered"},
        "enumeration": {
            "deck_cards": len(rules.cards), "situations": str(table.raw_situations), "situation_classes": len(table),
            "dealer_completions_per_situation": table.completions, "deals": str(analysis.total_deals),
            "exact_ties_between_raise_and_fold": {"classes": int(np.count_nonzero(ties)),
                                                  "situations": exact_masked_sum(table.weights, ties)}},
        "strategies": {name: strategy_entry(f, analysis.raises(name)) for name, f in st.items()},
        "published": {key: published_check(rules.published.get(key), getattr(st["optimal"], field))
                      for key, field in (("house_edge", "house_edge"), ("raise_probability", "p_play"))},
        "rule_in_words": {
            "rule": check.strategy.lines(), "clauses": fitted_rule.clauses(check.strategy),
            "exceptions": {"classes": len(check.exceptions), "situations": exact_sum(table.weights[check.exceptions])},
            "cost_per_ante": figure(check.cost), "least_cost_of_any_rank_only_rule": figure(check.best_rank_only_cost),
            "rank_patterns_whose_best_play_depends_on_suits": check.mixed_rank_patterns},
        "progressive": progressive_summary(rules.progressive, analysis.progressive),
        "round_statistics": round_statistics(par_statistics(analysis))}


WAGER_DEFINITIONS = {
    "main": "ANTE + raise: net per ANTE (a fold -1, a push 0); wagered ANTE on a fold, ANTE + raise on a raise",
    "progressive": "the progressive alone: net per unit staked (payment / stake - 1, the jackpot J in the stake's "
                   "currency); paid on the player's five cards whatever he decides; counted over the deck's "
                   "five-card hands",
    "combined": "ANTE + raise with the progressive staked progressive_stake_per_ante x ANTE: net per ANTE; "
                "wagered ANTE (+ raise on a raise) + the progressive's stake"}
PROGRESSIVE_NOTE = ("combined play is per ANTE with the progressive staked r = progressive_stake_per_ante x ANTE "
                    "(r = 1: an ANTE equal to the progressive's stake); for another r, Var(main + r X) = Var(main) "
                    "+ r^2 Var(X) + 2 r Cov(main, X) with the functions of J given (X: the progressive per unit "
                    "staked). Figures at each jackpot level are complete (with the net distribution and settling "
                    "intervals) for the optimal strategy, and compact for the others")
DETAILED_STRATEGY = "optimal"
COMBINED_COLUMNS = [("EV ANTE + raise", EXACT), ("EV progressive", EXACT), ("Covariance", EXACT),
                    ("EV combined", "ev_per_initial_bet"), ("Variance combined", "variance"), ("RTP", "rtp"),
                    ("Covariance as a function of J", VALUE), ("Variance as a function of J", VALUE)]
#: The PAR CSV's columns of the statistics rows (analyzer.figures.par.csv_rows)
CSV_FIELDS = {"section": "kind", "action": "strategy", "player_hand": "wager", "outcome": "figure",
              "combinations": "count", "probability": "probability", "probability_decimal": "probability_decimal",
              "net_per_ante": "net", "contribution_to_ev": "contribution",
              "contribution_to_ev_decimal": "contribution_decimal"}


def jackpot_key(level: Fraction) -> str:
    return decimal_str(level, 2)


def par_statistics(analysis: StudAnalysis) -> ParStatistics:
    """The round statistics as the PAR sheet shows them: ANTE + raise of every strategy, the progressive at every
    jackpot level, both together (in full for the optimal strategy), and the progressive's functions of J."""
    ratio = fraction_str(analysis.progressive_ratio).removesuffix("/1")
    entries = [WagerEntry((name, "ANTE + raise", None), stats.main, f"/round_statistics/strategies/{name}/main")
               for name, stats in analysis.statistics.items()]
    entries += [WagerEntry(("(any)", "progressive", jackpot_key(level)), stats,
                           f"/round_statistics/progressive/at_jackpot/{jackpot_key(level)}")
                for level, stats in analysis.progressive_at]
    moments, optimal = analysis.moments, analysis.statistics["optimal"]
    combined, frame = [], {}
    functions = [["E[X]", moments.mean_text], ["Var(X)", moments.variance_text]]
    for name, c in analysis.combined.items():
        functions += [[f"Cov(ANTE + raise, X), {name}", c.functions.covariance],
                      [f"Var(ANTE + raise + {ratio} X), {name}", c.functions.variance]]
        path = f"/round_statistics/combined/strategies/{name}/at_jackpot"
        for level, stats in c.at_levels:
            key = jackpot_key(level)
            entries.append(WagerEntry((name, f"ANTE + raise + progressive ({ratio} x ANTE)", key), stats.combined,
                                      f"{path}/{key}", detail=name == DETAILED_STRATEGY))
            combined.append(((name, key), f"{path}/{key}", stats.combined, (
                stats.main.mean, stats.side.mean, stats.covariance, c.functions.covariance, c.functions.variance)))
        frame[name] = {**{f"{key}_as_function_of_jackpot": getattr(c.functions, key)
                          for key in ("covariance", "mean", "variance", "rtp")},
                       "at_jackpot": {jackpot_key(level): {"covariance_main_progressive": figure(stats.covariance)}
                                      for level, stats in c.at_levels}}
    first_level, first_progressive = analysis.progressive_at[0]
    first_combined = analysis.combined["optimal"].at_levels[0][1].combined
    return ParStatistics(
        entries, ["Strategy", "Wager", "Jackpot"], WAGER_DEFINITIONS,
        frame={"progressive": {"mean_as_function_of_jackpot": moments.mean_text,
                               "variance_as_function_of_jackpot": moments.variance_text},
               "combined": {"progressive_stake_per_ante": figure(analysis.progressive_ratio), "note": PROGRESSIVE_NOTE,
                            "covariance_main_progressive": "Cov(ANTE + raise net per ANTE, progressive net per "
                                                           "unit staked), counted from their joint distribution in "
                                                           "one round",
                            "strategies": frame}},
        convention="ANTE + raise is per ANTE. The progressive alone is per unit staked (net = payment / stake - 1) "
                   "and does not depend on the player's decision; combined play stakes the progressive at "
                   f"{ratio} x ANTE (an ANTE equal to the progressive's stake) and is per ANTE. {derivation()}",
        combined=CombinedPlay(["Strategy", "Jackpot"], COMBINED_COLUMNS, combined), csv_fields=CSV_FIELDS,
        notes=[("As exact functions of the jackpot J (X = the progressive's net per unit staked):",
                markdown_table(["figure", "function of J"], functions, "ll"))],
        distributions_heading="Net result of one round, optimal strategy",
        distributions=[Distribution("ANTE + raise (per ANTE)", optimal.main),
                       Distribution(f"Progressive (per unit staked), jackpot {jackpot_key(first_level)}",
                                    first_progressive, "Only the royal flush's value moves with the jackpot; every "
                                                       "level is in `par_sheet.xlsx`.\n"),
                       Distribution(f"ANTE + raise + progressive ({ratio} x ANTE, per ANTE), jackpot "
                                    f"{jackpot_key(first_level)}", first_combined)])


def progressive_summary(p: Progressive, prog) -> dict:
    """The progressive's entry of summary.json."""
    return {"stake": decimal_str(p.stake, 2), "stake_returned_with_win": p.stake_returned,
            "rtp_as_function_of_jackpot": prog.rtp_text,
            "break_even_jackpot": figure(prog.break_even, 2) if prog.break_even is not None else None,
            "rtp_at_jackpot": {jackpot_key(level): figure(rtp) for level, rtp in prog.table},
            "hands": {CATEGORIES[c]: str(prog.counts[c]) for c in range(N_CATEGORIES)}}


def par_lines(analysis: StudAnalysis) -> list[dict]:
    """The optimal strategy's PAR lines: folds by category, raised outcomes by category."""
    table, rules, priced = analysis.table, analysis.rules, analysis.priced
    raise_, _ = priced.optimal()
    # the sums the round statistics made for this very mask (kept with the table), by the player's category
    category = table.player_category
    played, folded = played_counts(table.weights, table.counts, raise_, N_CATEGORIES, category=category,
                                   side=category, n_side=N_CATEGORIES, cache=table.derived)
    raised_weights = played_weights(played, table.completions)
    lines = [{"action": "fold", "category": c, "outcome": "any", "combinations": int(folded[c]) * table.completions,
              "wagered": Fraction(1), "net": Fraction(-1)} for c in range(N_CATEGORIES) if folded[c]]
    lines += [{"action": "raise", "category": c, "outcome": OUTCOME_WORDS[o], "combinations": int(played[c, c, o]),
               "wagered": 1 + rules.raise_size, "net": rules.paytable.net(c, o)}
              for c in range(N_CATEGORIES) if raised_weights[c] for o in range(N_OUTCOMES)]
    if sum(line["combinations"] for line in lines) != analysis.total_deals:
        raise InvariantError("the Caribbean Stud PAR lines do not cover every deal exactly once")
    return lines


PAR_HEADERS = ["section", "action", "player_hand", "outcome", "combinations", "probability", "probability_decimal",
               "wagered_per_ante", "net_per_ante", "contribution_to_ev", "contribution_to_ev_decimal"]


def main_lines(analysis: StudAnalysis, lines: list) -> list[tuple]:
    """ANTE + raise's PAR lines: action, hand, outcome, combinations, probability, wagered, net, contribution."""
    return [(line["action"], CATEGORY_WORDS[line["category"]], line["outcome"], line["combinations"], p,
             line["wagered"], line["net"], contribution)
            for line in lines for p, contribution in [share(line["combinations"], analysis.total_deals, line["net"])]]


def progressive_lines(analysis: StudAnalysis) -> list[tuple]:
    """The progressive's PAR lines: hand, pays, combinations, probability, contribution to RTP (text, exact)."""
    return [(CATEGORY_WORDS[line["category"]], line["pays"], line["combinations"],
             Fraction(line["combinations"], analysis.progressive.hands), line["contribution"],
             line["contribution_exact"]) for line in analysis.progressive.lines]


def par_csv(analysis: StudAnalysis, lines: list) -> str:
    """The PAR sheet's rows, exact fractions beside their decimals."""
    rows = [["main", action, hand, outcome, n, fraction_str(p), decimal_str(p), fraction_str(wagered),
             fraction_str(net), fraction_str(contribution), decimal_str(contribution)]
            for action, hand, outcome, n, p, wagered, net, contribution in main_lines(analysis, lines)]
    rows += [["progressive", "", hand, pays, n, fraction_str(p), decimal_str(p), "", "", text,
              "" if exact is None else decimal_str(exact)]
             for hand, pays, n, p, text, exact in progressive_lines(analysis)]
    return csv_text(PAR_HEADERS, rows + csv_rows(par_statistics(analysis), PAR_HEADERS))


def par_markdown(analysis: StudAnalysis, lines: list) -> str:
    """The PAR sheet: the paytable, every outcome of the optimal strategy, the strategies, the progressive."""
    rules, table, st = analysis.rules, analysis.table, analysis.strategies
    optimal, total, n = st["optimal"], analysis.total_deals, len(rules.cards)
    out = par_heading("Caribbean Stud Poker", analysis.rule_file) + [
           f"Every situation the player can face (his 5 cards and the dealer's up card: C({n},5) x {n - 5} = "
           f"{thousands(table.raw_situations)}, in {thousands(len(table))} suit classes) and every completion of "
           f"the dealer's hand (C({n - 6},4) = {thousands(table.completions)} each): "
           f"{thousands(total)} deals, each counted once. The dealer qualifies with "
           f"{qualifier_words(rules.qualifier)}. Probabilities are counts over {thousands(total)}, exactly. "
           "Net results and EV are per ANTE; the raise is "
           f"{fraction_str(rules.raise_size).removesuffix('/1')} x ANTE.\n",
           "## Paytable\n",
           markdown_table(["player's hand", "raise pays (dealer qualifies)", "raise pays (dealer does not qualify)"],
                          [[CATEGORY_WORDS[c], f"{fraction_str(rules.raise_pays[c]).removesuffix('/1')} to 1",
                            (f"{fraction_str(rules.raise_pays_not_qualified[c]).removesuffix('/1')} to 1"
                             if rules.raise_pays_not_qualified[c] else "push")]
                           for c in range(N_CATEGORIES - 1, -1, -1)]),
           f"\nANTE: {fraction_str(rules.ante_wins).removesuffix('/1')} to 1 when the player wins, "
           f"{fraction_str(rules.ante_not_qualified).removesuffix('/1')} to 1 when the dealer does not qualify; "
           "push on a tie; lost to a better qualifying dealer; lost on a fold.\n",
           "## Optimal strategy: every outcome\n"]
    out += [lines_markdown(["action", "player's hand", "outcome", "combinations", "probability", "net per ANTE",
                            "contribution to EV"],
                           [((line["action"], CATEGORY_WORDS[line["category"]], line["outcome"]), line["combinations"],
                             (fraction_str(line["net"]).removesuffix("/1"),), line["net"]) for line in lines], total, 10),
            f"\nEV per ANTE = {fraction_str(optimal.ev)} = {decimal_str(optimal.ev, 10)}; house edge "
            f"{percent_str(optimal.house_edge, 6)}; probability of raising {percent_str(optimal.p_play, 6)}; "
            f"average wager {decimal_str(optimal.average_wager, 6)} ANTE; element of risk "
            f"{percent_str(optimal.element_of_risk, 6)}; RTP (returned / wagered) {percent_str(optimal.rtp, 6)}.\n"]
    for key, label, exact in (("house_edge", "house edge", optimal.house_edge),
                              ("raise_probability", "probability of raising", optimal.p_play)):
        if check := published_check(rules.published.get(key), exact):
            out.append(f"Published {label} {check['published']}; the exact value rounds to "
                       f"{check['exact_rounded']} ({'agrees' if check['agrees'] else 'DIFFERS'}).\n")
    out += ["## Strategies compared\n",
            markdown_table(["strategy", "P(raise)", "house edge", "element of risk", "RTP"],
                           [[f.description, percent_str(f.p_play, 4), percent_str(f.house_edge, 6),
                             percent_str(f.element_of_risk, 6), percent_str(f.rtp, 6)] for f in st.values()]),
            "\n## Progressive jackpot\n",
            f"Stake EUR {decimal_str(rules.progressive.stake, 2)}, paid on the player's own five cards "
            f"(C({n},5) = {thousands(analysis.progressive.hands)} hands), whatever the dealer holds; the stake is "
            f"{'returned with' if rules.progressive.stake_returned else 'not returned with'} a win.\n"]
    prog_rows = [[hand, thousands(n), decimal_str(p, 12), pays, text]
                 for hand, pays, n, p, text, _ in progressive_lines(analysis)]
    out += [markdown_table(["hand", "combinations", "probability", "pays", "contribution to RTP"], prog_rows),
            f"\nRTP(J) = {analysis.progressive.rtp_text} (J = the jackpot in EUR).\n"]
    if analysis.progressive.break_even is not None:
        out.append(f"Break-even jackpot (RTP = 100%): J = EUR {decimal_str(analysis.progressive.break_even, 2)}"
                   f" (exactly {fraction_str(analysis.progressive.break_even).removesuffix('/1')}).\n")
    out += [markdown_table(["jackpot (EUR)", "RTP"], [[thousands(int(level)) if level == int(level) else
                                                        decimal_str(level, 2), percent_str(rtp, 4)]
                                                       for level, rtp in analysis.progressive.table]),
            "\nThe optimal decision of every situation class is in `strategy.bin.gz`; the rule in words and "
            "its exceptions are in `strategy_rule.md`.\n", statistics_markdown(par_statistics(analysis))]
    return "\n".join(out)


def strategy_rule_markdown(analysis: StudAnalysis) -> str:
    """strategy_rule.md: the rule in words, its proof on every class, and its exceptions by rank pattern."""
    check, table, priced = analysis.rule_check, analysis.table, analysis.priced
    scale = table.raw_situations * priced.denominator
    rule_ev = analysis.strategies["rule_in_words"]
    out = [f"# Caribbean Stud: the optimal raise/fold rule in words ({analysis.rule_file.name})\n",
           "The first line that applies decides:\n",
           "\n".join(f"{i}. {line}" for i, line in enumerate(check.strategy.lines(), 1)),
           "\nCards are counted by place, highest first (in A-K-9-5-2 the third card is the 9); the up card "
           "pairs a card when it has the same rank.\n", "## Proof\n",
           f"The rule was evaluated on every one of the {thousands(len(table))} situation classes "
           f"({thousands(table.raw_situations)} situations) and compared with the exact optimal decision.\n"]
    if not len(check.exceptions):
        out.append("It reproduces the optimal decision in every situation (exact ties may go either way).\n")
    else:
        out.append(f"It differs from the optimal decision in {thousands(len(check.exceptions))} classes "
                   f"({thousands(exact_sum(table.weights[check.exceptions]))} situations), "
                   f"listed with their exact cost in `strategy_rule_exceptions.csv`. Following the rule costs "
                   f"{fraction_str(check.cost)} = {decimal_str(check.cost, 10)} ANTE per hand against optimal play "
                   f"(house edge {percent_str(rule_ev.house_edge, 6)} instead of "
                   f"{percent_str(analysis.strategies['optimal'].house_edge, 6)}).\n")
        out.append("No rule that reads only the player's hand (its poker value) and the up card's rank can be "
                   f"exact: in {thousands(check.mixed_rank_patterns)} such patterns the best play depends on how "
                   "the suits fall, and the least any such rule can give up is "
                   f"{fraction_str(check.best_rank_only_cost)} = {decimal_str(check.best_rank_only_cost, 10)} "
                   "ANTE per hand.\n")
        patterns = {}
        for i, gain in zip(check.exceptions.tolist(), check.exception_gains.tolist()):
            key = (tuple(int(r) for r in table.keys[i, :5] // 4), int(table.keys[i, 5] // 4), bool(check.raises[i]))
            weight, cost = patterns.get(key, (0, 0))
            patterns[key] = (weight + int(table.weights[i]), cost + abs(int(gain)))
        rows = [[" ".join("23456789TJQKA"[r] for r in ranks), "23456789TJQKA"[up],
                 "raise" if rule_raises else "fold", "fold" if rule_raises else "raise", thousands(w),
                 decimal_str(Fraction(cost, scale), 12)]
                for (ranks, up, rule_raises), (w, cost) in sorted(patterns.items(), key=lambda kv: -kv[1][1])]
        shown = rows[:MAX_PATTERNS_SHOWN]
        out += ["## Exceptions by rank pattern\n",
                f"{thousands(len(rows))} patterns (the player's ranks, the up card's rank, the rule's decision), "
                + ("all shown, " if len(rows) == len(shown) else f"the {len(shown)} costliest shown, ")
                + "costliest first; the optimal play is the other one for some or all of their suits.\n",
                markdown_table(["your ranks", "up card", "rule says", "optimal (some suits)", "situations",
                                "cost per ANTE per hand"], shown)]
    return "\n".join(out) + "\n"


def key_figures(analysis: StudAnalysis) -> list[KeyFigure]:
    """The headline figures (the report's first table, and what `analyzer sweep` compares)."""
    st, check, prog = analysis.strategies, analysis.rule_check, analysis.progressive
    optimal, note = st["optimal"], functools.partial(published_note, analysis.rules.published)
    out = [
        KeyFigure("house edge per ANTE, optimal strategy", optimal.house_edge, note("house_edge")),
        KeyFigure("probability of raising, optimal strategy", optimal.p_play, note("raise_probability")),
        KeyFigure("element of risk, optimal strategy", optimal.element_of_risk),
        KeyFigure("RTP (returned / wagered), optimal strategy", optimal.rtp),
        KeyFigure("house edge per ANTE, raise a pair or better", st["raise_pair_or_better"].house_edge),
        KeyFigure("house edge per ANTE, the rule in words", st["rule_in_words"].house_edge),
        KeyFigure("cost of the rule in words per ANTE", check.cost, f"{len(check.exceptions)} situation classes differ"),
    ]
    if prog.break_even is not None:
        out.append(KeyFigure("progressive break-even jackpot (EUR)", prog.break_even, f"RTP(J) = {prog.rtp_text}"))
    return out


def report_content(analysis: StudAnalysis, par_sheet: str) -> ReportContent:
    """What Caribbean Stud contributes to its report: method, strategy, PAR sheet, figures."""
    check, prog, table, priced = analysis.rule_check, analysis.progressive, analysis.table, analysis.priced
    raise_, ties = priced.optimal()
    method = (
        f"Every situation the player decides on, his 5 cards and the dealer's up card "
        f"({thousands(table.raw_situations)} of them, {thousands(len(table))} classes under suit renaming), "
        f"against every completion of the dealer's hand ({thousands(table.completions)} each): "
        f"{thousands(analysis.total_deals)} deals. The counts come from one sweep over all "
        f"{thousands(math.comb(len(analysis.rules.cards), 5))} five-card hands in poker order: for every card "
        "subset the number of hands already swept that hold it, so that the dealer hands below, equal to, and "
        "not qualifying against a player hand, holding the up card and none of the player's cards, follow by "
        "inclusion-exclusion over the player's cards. The counts do not depend on the paytable; every rule set "
        "on the same deck and qualifier prices the same count. Raise exactly when raising beats folding "
        "(-1 ANTE).\n\nThe kernel is checked against direct dealing of all completions of random situations, "
        "against a pure-Python brute force of whole reduced decks, and by the verification below.")
    raised = int(np.count_nonzero(raise_))
    strategy = (f"Optimal strategy: raise in {thousands(raised)} situation classes "
                f"({thousands(exact_masked_sum(table.weights, raise_))} situations), fold in the other "
                f"{thousands(len(raise_) - raised)}; exact ties: {int(np.count_nonzero(ties))}.\n\nThe rule in words "
                f"(checked on every situation class; {thousands(len(check.exceptions))} classes differ, "
                f"costing {decimal_str(check.cost)} ANTE per hand):\n\n"
                + "\n".join(f"{i}. {line}" for i, line in enumerate(check.strategy.lines(), 1)))
    if analysis.basic is not None:
        rows = basic_strategy.stud_strategy_table(priced, {"basic": analysis.basic}, analysis.strategies)
        strategy += ("\n\n### Basic strategy\n\nA shorter rule list a person can play (`basic_strategy.toml`, also as "
                     "the strategy file `strategy_basic.bin.gz`); `basic_strategy.md` adds the exact cost of each "
                     "rule.\n\n" + demote(demote(strategy_card_markdown(analysis.basic)))
                     + "\n\n" + basic_strategy.stud_strategy_table_markdown(rows))
    total = exact_sum(table.weights)
    figures = [Figure("figure_margin.svg", "EV of raising minus EV of folding over all situations", "margin_histogram",
                      {"bins": lambda: margin_histogram(priced.ev_raise, priced.denominator, table.weights, total),
                       "action": "raise",                               # the bins made when the figure is drawn
                       "title": "Raise-minus-fold margin, optimal strategy"})]
    first_level, first_progressive = analysis.progressive_at[0]
    figures.append(distribution_figure("Net result of one round, optimal strategy", "Net result of one round", [
        ("ANTE + raise, optimal strategy (per ANTE)", analysis.statistics["optimal"].main),
        (f"progressive per unit staked, jackpot {jackpot_key(first_level)}", first_progressive)]))
    if prog.break_even is not None:
        figures.append(Figure("figure_progressive.svg", "Progressive RTP as a function of the jackpot",
                              "rtp_against_jackpot", {"points": rtp_points(prog), "break_even": prog.break_even,
                                                      "title": "Progressive jackpot: RTP against J"}))
    return ReportContent(key_figures(analysis), method, strategy, par_sheet, figures)


EXCEPTION_HEADERS = ["hand", "up_card", "situations", "rule_decision", "optimal_decision", "ev_raise", "ev_fold",
                     "ev_raise_decimal", "cost_per_hand", "cost_per_hand_decimal"]


def strategy_rule_exceptions_csv(analysis: StudAnalysis) -> str:
    """Every class where the rule in words differs from the optimal decision, with its exact cost."""
    check, table, priced = analysis.rule_check, analysis.table, analysis.priced
    scale = table.raw_situations * priced.denominator

    @functools.cache                          # a few hundred distinct values among thousands of rows
    def texts(numerator: int, denominator: int, places: int) -> tuple:
        value = Fraction(numerator, denominator)
        return fraction_str(value), decimal_str(value, places)
    exceptions, rows = check.exceptions, []
    for key, weight, raises, ev, gain in zip(table.keys[exceptions].tolist(), table.weights[exceptions].tolist(),
                                             check.raises[exceptions].tolist(), priced.ev_raise[exceptions].tolist(),
                                             check.exception_gains.tolist()):
        ev_exact, ev_decimal = texts(int(ev), priced.denominator, 10)
        rows.append([cards_str(key[:5]), card_str(key[5]), weight, "raise" if raises else "fold",
                     "fold" if raises else "raise", ev_exact, "-1/1", ev_decimal, *texts(abs(int(gain)), scale, 15)])
    return csv_text(EXCEPTION_HEADERS, rows)


def workbook_sheets(analysis: StudAnalysis, lines: list) -> list:
    """The PAR workbook's sheets (the publisher adds the rules analysed)."""
    rows = [["ANTE + raise", *cells] for cells in main_lines(analysis, lines)]
    rows += [["progressive (per hand)", "", hand, pays, n, p, None, None, exact]
             for hand, pays, n, p, _, exact in progressive_lines(analysis)]
    outcomes = Table(["Bet", "Action", "Player's hand", "Outcome", "Combinations", ("Probability", EXACT),
                      ("Wagered per ANTE", EXACT), ("Net per ANTE", EXACT), ("Contribution", EXACT)], rows)
    return statistics_sheets(outcomes, par_statistics(analysis))


def outputs(analysis: StudAnalysis) -> Outputs:
    """Every file of the rule set's results folder, its report content and its workbook's sheets."""
    strategies = analysis.files
    strategies.start()                                   # compressed in the background meanwhile (if not already)
    lines = par_lines(analysis)
    par_sheet = par_markdown(analysis, lines)
    files = {
        "par_sheet.md": par_sheet,
        "par_sheet.csv": lambda: par_csv(analysis, lines),
        "progressive_rtp_by_jackpot.csv": lambda: csv_text(  # the progressive's RTP at each jackpot level
            ["jackpot", "rtp", "rtp_decimal"], [[jackpot_key(level), fraction_str(rtp), decimal_str(rtp)]
                                                for level, rtp in analysis.progressive.table]),
        "strategy_rule.md": lambda: strategy_rule_markdown(analysis),
        "strategy_rule_exceptions.csv": lambda: strategy_rule_exceptions_csv(analysis),
        OPTIMAL_FILE: lambda: strategies.data(OPTIMAL_FILE)}
    if analysis.basic is not None:
        files["basic_strategy.toml"] = lambda: Path(analysis.basic.source).read_bytes()
        files["basic_strategy.md"] = lambda: basic_strategy.stud_basic_strategy_markdown(
            analysis.priced, analysis.basic, {"rule_in_words": analysis.rule_check.strategy},
            analysis.strategies)
        files[BASIC_FILE] = lambda: strategies.data(BASIC_FILE)
    return Outputs(lambda: summary(analysis), files, report_content(analysis, par_sheet),
                   lambda: workbook_sheets(analysis, lines), strategies.columns())
