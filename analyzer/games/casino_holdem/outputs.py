"""Casino Hold'em outputs: summary, PAR sheet (Markdown, CSV), strategy files and report content."""
from __future__ import annotations

from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.exact import decimal_str, exact_sum, figure, fraction_str, percent_str, published_check
from analyzer.figures.outputs import Figure, KeyFigure, Outputs, ReportContent, published_note, summary_head
from analyzer.figures.par import (CombinedPlay, Distribution, ParStatistics, WagerEntry, covariance_markdown,
                                  csv_rows, derivation, distribution_figure, lines_markdown, par_heading,
                                  round_statistics, share, statistics_markdown, workbook_sheets as statistics_sheets)
from analyzer.figures.tables import EXACT, Table, csv_text, demote, markdown_table, thousands
from analyzer.games.casino_holdem import basic as basic_strategy
from analyzer.games.casino_holdem.analysis import BASIC_FILE, OPTIMAL_FILE, HoldemAnalysis
from analyzer.games.casino_holdem.price import HoldemStrategy
from analyzer.games.casino_holdem.rules import AA_HANDS, GAME
from analyzer.poker.decision_table import margin_histogram
from analyzer.poker.hands import CATEGORY_WORDS, qualifier_words
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES, OUTCOME_WORDS
from analyzer.poker.statistics import played_counts, played_weights
from analyzer.strategy.language import strategy_card_markdown


def strategy_summary(f: HoldemStrategy) -> dict:
    """One strategy's entry of summary.json."""
    entry = {"description": f.description, "probability_of_calling": figure(f.p_call), "ev_per_ante": figure(f.ev),
             "house_edge_per_ante": figure(f.house_edge), "average_wager_per_ante": figure(f.average_wager),
             "rtp_returned_over_wagered": figure(f.rtp), "return_per_ante": figure(f.return_per_ante),
             "aa_bonus_rtp": figure(f.aa_rtp), "situation_classes_called": int(f.call.sum()),
             "situation_classes_folded": int((~f.call).sum())}
    if f.aa_ratio is not None:
        total_ev = f.ev + f.aa_ratio * (f.aa_rtp - 1)
        entry["aa_bonus_ratio"] = fraction_str(f.aa_ratio)
        entry["total_ev_per_ante"] = figure(total_ev)
        entry["total_rtp_returned_over_wagered"] = figure(1 + total_ev / (f.average_wager + f.aa_ratio))
    return entry


def summary(analysis: HoldemAnalysis) -> dict:
    """summary.json: every figure exact, with its decimal."""
    rules, table, st = analysis.rules, analysis.table, analysis.strategies
    optimal, ties = analysis.priced.optimal_call()

    def classes(mask: np.ndarray) -> dict:
        return {"situation_classes": int(mask.sum()), "situations": str(exact_sum(table.weights[mask]))}
    comparisons = {"optimal_main_rtp": st["optimal"].rtp, "optimal_house_edge": st["optimal"].house_edge,
                   "optimal_aa_bonus_rtp": st["optimal"].aa_rtp,
                   "every_hand_calls_aa_bonus_rtp": st["always_call"].aa_rtp,
                   "basic_main_rtp": st["basic"].rtp, "basic_aa_bonus_rtp": st["basic"].aa_rtp,
                   "call_on_aa_win_main_rtp": st["call_on_aa_win_basic"].rtp,
                   "call_on_aa_win_aa_bonus_rtp": st["call_on_aa_win_basic"].aa_rtp}
    return {
        **summary_head(GAME, analysis.rule_file),
        "dealer_qualifies_with": qualifier_words(rules.qualifier),
        "enumeration": {
            "deck_cards": len(rules.cards), "situations": str(analysis.total_weight), "situation_classes": len(table),
            "canonical_flops": table.n_flops, "canonical_boards": table.n_boards,
            "continuations_per_situation": str(table.continuations), "deals": str(analysis.total_deals),
            "what": "every (2 hole cards, 3-card flop) situation x every turn/river pair x every dealer hole pair"},
        "rtp_definitions": {
            "rtp_returned_over_wagered": "total returned / total wagered; a called hand wagers ANTE + CALL "
                                         "(this definition reproduces the operator's 99.18%)",
            "return_per_ante": "total returned / ANTEs placed (1 + EV per ANTE)",
            "house_edge_per_ante": "minus the EV per ANTE",
            "aa_bonus_rtp": "AA Bonus total returned / AA Bonus staked; lost on a fold"},
        "strategies": {name: strategy_summary(f) for name, f in st.items()},
        "optimal_exact_ties": classes(ties),
        "joint_optimal_differs_from_optimal": classes(st["joint_optimal"].call != optimal),
        "published": {key: {"exact": figure(value), **(published_check(rules.published.get(key), value) or {})}
                      for key, value in comparisons.items()},
        "published_note": ("the operator's basic strategy is unknown: basic_* and call_on_aa_win_* compare the "
                           "operator's figures with this project's basic strategy (basic_strategy.md)"),
        "round_statistics": round_statistics(par_statistics(analysis))}


WAGER_DEFINITIONS = {
    "main": "ANTE + CALL: net per ANTE (a fold -1, a push 0); wagered ANTE on a fold, ANTE + CALL on a call",
    "aa_bonus": "the AA Bonus alone: net per unit staked on it, staked every round, lost on a fold",
    "combined": "ANTE + CALL with the AA Bonus staked aa_bonus_stake_per_ante x ANTE: net per ANTE; wagered "
                "ANTE (+ CALL on a call) + the AA Bonus stake"}
COMBINED_COLUMNS = [("AA Bonus stake per ANTE", EXACT), ("EV ANTE + CALL", EXACT), ("EV AA Bonus", EXACT),
                    ("Covariance", EXACT), ("EV combined", "ev_per_initial_bet"), ("Variance combined", "variance"),
                    ("SD combined", "standard_deviation"), ("Mean wagered", "mean_wagered"), ("RTP", "rtp"),
                    ("SD per unit wagered", "sd_per_unit_wagered")]
#: The PAR CSV's columns of the statistics rows (analyzer.figures.par.csv_rows)
CSV_FIELDS = {"bet": "kind", "hand": "strategy", "outcome": "wager", "combinations": "count",
              "probability": "probability", "probability_decimal": "probability_decimal", "net_or_returned": "net",
              "contribution": "contribution", "contribution_decimal": "contribution_decimal"}


def par_statistics(analysis: HoldemAnalysis) -> ParStatistics:
    """The round statistics as the PAR sheet shows them: every strategy's ANTE + CALL, AA Bonus and both."""
    ratio = fraction_str(analysis.aa_ratio).removesuffix("/1")
    entries, combined = [], []
    for name, s in analysis.statistics.items():
        path = f"/round_statistics/strategies/{name}"
        entries += [WagerEntry((name, "ANTE + CALL"), s.main, f"{path}/main"),
                    WagerEntry((name, "AA Bonus"), s.side, f"{path}/aa_bonus"),
                    WagerEntry((name, f"ANTE + CALL + AA Bonus ({ratio} x ANTE)"), s.combined, f"{path}/combined")]
        combined.append(((name,), f"{path}/combined", s.combined, (analysis.aa_ratio, s.main.mean, s.side.mean,
                                                                   s.covariance)))
    optimal = analysis.statistics["optimal"]
    return ParStatistics(
        entries, ["Strategy", "Wager"], WAGER_DEFINITIONS,
        frame={"aa_bonus_stake_per_ante": figure(analysis.aa_ratio),
               "covariance_main_aa_bonus": "Cov(ANTE + CALL net per ANTE, AA Bonus net per unit), counted from the "
                                           "joint distribution of the two in one round",
               "strategies": {name: {"covariance_main_aa_bonus": figure(s.covariance)}
                              for name, s in analysis.statistics.items()}},
        convention="ANTE + CALL is per ANTE; the AA Bonus alone is per unit staked on it (staked every round, lost "
                   f"on a fold); combined play stakes the AA Bonus at {ratio} x ANTE and is per ANTE. "
                   f"{derivation('every deal')} SD per unit wagered divides by the average amount wagered.",
        combined=CombinedPlay(["Strategy"], COMBINED_COLUMNS, combined), csv_fields=CSV_FIELDS,
        notes=[("Covariance of ANTE + CALL (per ANTE) and the AA Bonus (per unit) in one round, counted from their "
                "joint distribution:", covariance_markdown("strategy", [(name, s.covariance) for name, s
                                                                          in analysis.statistics.items()]))],
        distributions_heading="Net result of one round, optimal strategy",
        distributions=[Distribution("ANTE + CALL (per ANTE)", optimal.main),
                       Distribution("AA Bonus (per unit staked)", optimal.side),
                       Distribution(f"ANTE + CALL + AA Bonus ({ratio} x ANTE, per ANTE)", optimal.combined)])


def par_lines(analysis: HoldemAnalysis) -> list[dict]:
    """The optimal strategy's PAR lines of the main game: fold, then each called (final hand, outcome)."""
    rules, table = analysis.rules, analysis.table
    played, folded = _played_by_aa_hand(analysis)
    called = played.sum(axis=0)       # non-negative parts of one total in range: int64 when they are
    lines = [{"hand": "(any)", "outcome": "fold", "combinations": sum(int(x) for x in folded) * table.continuations,
              "wagered": Fraction(1), "net": Fraction(-1)}]
    lines += [{"hand": CATEGORY_WORDS[c], "outcome": OUTCOME_WORDS[o], "combinations": int(called[c, o]),
               "wagered": 1 + rules.call_size, "net": rules.paytable.net(c, o)}
              for c in range(N_CATEGORIES - 1, -1, -1) for o in range(N_OUTCOMES)]
    if sum(line["combinations"] for line in lines) != analysis.total_deals:
        raise InvariantError("the Casino Hold'em PAR lines do not cover every deal exactly once")
    return lines


def _played_by_aa_hand(analysis: HoldemAnalysis) -> tuple[np.ndarray, np.ndarray]:
    """The optimal strategy's (weight x counts of the called classes by AA hand x category x outcome, folded
    weight by AA hand), as the round statistics summed them (kept with the table)."""
    table = analysis.table
    return played_counts(table.weights, table.counts, analysis.strategies["optimal"].call, N_CATEGORIES,
                         side=analysis.priced.aa_hand, n_side=len(AA_HANDS), cache=table.derived)


def aa_par_lines(analysis: HoldemAnalysis) -> list[dict]:
    """PAR lines of the AA Bonus (per raw situation): each AA hand, called or folded."""
    rules = analysis.rules
    played, folded = _played_by_aa_hand(analysis)
    called_weights = played_weights(played, analysis.table.continuations)
    return [{"hand": name.replace("_", " "), "action": "call" if called else "fold",
             "combinations": called_weights[index] if called else int(folded[index]),
             "pays": "lose" if rules.aa_pays[name] is None else f"{rules.aa_pays[name]} to 1",
             "returned": rules.aa_return(name) if called else Fraction(0)}
            for index, name in enumerate(AA_HANDS) for called in (True, False)]


def par_markdown(analysis: HoldemAnalysis, lines: list, aa_lines: list) -> str:
    """The PAR sheet: every outcome of the optimal strategy with its count, and the AA Bonus."""
    rules, table, st = analysis.rules, analysis.table, analysis.strategies
    opt, total = st["optimal"], analysis.total_deals
    out = par_heading("Casino Hold'em", analysis.rule_file,
                      "Strategy: the main-game optimal strategy (call exactly when calling beats folding).")
    out += [f"Every situation the player decides on (2 hole cards and a 3-card flop: "
            f"{thousands(analysis.total_weight)} of them, {thousands(len(table))} classes under suit "
            f"renaming) x every turn/river pair x every dealer hole pair ({thousands(table.continuations)} "
            f"continuations each): {thousands(total)} deals, every one counted once. The dealer qualifies "
            f"with {qualifier_words(rules.qualifier)}.\n", "## ANTE + CALL\n",
            lines_markdown(["final hand", "outcome", "combinations", "probability", "wagered", "net (per ANTE)",
                            "contribution to EV"],
                           [((line["hand"], line["outcome"]), line["combinations"],
                             (fraction_str(line["wagered"]), fraction_str(line["net"])), line["net"])
                            for line in lines if line["combinations"]],
                           total, total_cells=(decimal_str(opt.average_wager), "")),
            f"\nEV per ANTE = {fraction_str(opt.ev)} = {decimal_str(opt.ev)}; house edge "
            f"{percent_str(opt.house_edge, 6)} per ANTE; probability of calling {percent_str(opt.p_call, 6)}; RTP "
            f"(returned / wagered) {percent_str(opt.rtp, 6)}.\n",
            "## AA Bonus (same strategy; counted per situation, 1 unit staked)\n",
            lines_markdown(["AA Bonus hand", "player", "combinations", "probability", "pays", "returned",
                            "contribution to RTP"],
                           [((line["hand"], line["action"]), line["combinations"],
                             (line["pays"], fraction_str(line["returned"])), line["returned"])
                            for line in aa_lines if line["combinations"]], analysis.total_weight),
            "\n## Strategies compared\n", strategies_table(st), "\n" + statistics_markdown(par_statistics(analysis))]
    return "\n".join(out)


CSV_HEADERS = ["bet", "hand", "outcome", "combinations", "probability", "probability_decimal", "wagered",
               "net_or_returned", "contribution", "contribution_decimal"]


def outcome_cells(analysis: HoldemAnalysis, lines: list, aa_lines: list, aa_net: bool) -> list[tuple]:
    """The PAR lines' cells: bet, hand, outcome, combinations, probability, wagered, value, contribution; the value
    is ANTE + CALL's net per ANTE and what the AA Bonus returns per unit (its net with `aa_net`)."""
    main = [("ante+call", line["hand"], line["outcome"], line["combinations"], analysis.total_deals,
             line["wagered"], line["net"]) for line in lines]
    aa = [("aa_bonus", line["hand"], line["action"], line["combinations"], analysis.total_weight, Fraction(1),
           line["returned"] - 1 if aa_net else line["returned"]) for line in aa_lines]
    return [(bet, hand, outcome, n, p, wagered, value, contribution)
            for bet, hand, outcome, n, total, wagered, value in main + aa
            for p, contribution in [share(n, total, value)]]


def par_csv(analysis: HoldemAnalysis, lines: list, aa_lines: list) -> str:
    """The PAR sheet's rows, exact fractions beside their decimals, then the round statistics."""
    rows = [[*labels, n, fraction_str(p), decimal_str(p), fraction_str(wagered), fraction_str(value),
             fraction_str(contribution), decimal_str(contribution)]
            for *labels, n, p, wagered, value, contribution in outcome_cells(analysis, lines, aa_lines, False)]
    return csv_text(CSV_HEADERS, rows + csv_rows(par_statistics(analysis), CSV_HEADERS))


def key_figures(analysis: HoldemAnalysis) -> list[KeyFigure]:
    """The headline figures (the report's first table, and what `analyzer sweep` compares)."""
    st, published = analysis.strategies, analysis.rules.published
    opt, note = st["optimal"], partial(published_note, published)
    return [
        KeyFigure("house edge per ANTE, optimal strategy", opt.house_edge, note("optimal_house_edge")),
        KeyFigure("RTP (returned / wagered), optimal strategy", opt.rtp, note("optimal_main_rtp")),
        KeyFigure("probability of calling, optimal strategy", opt.p_call),
        KeyFigure("AA Bonus RTP, optimal strategy", opt.aa_rtp, note("optimal_aa_bonus_rtp")),
        KeyFigure("AA Bonus RTP, every hand calls", st["always_call"].aa_rtp, note("every_hand_calls_aa_bonus_rtp")),
        KeyFigure("RTP (returned / wagered), call on every AA Bonus win", st["call_on_aa_win"].rtp),
        KeyFigure("house edge per ANTE, always call", st["always_call"].house_edge),
        KeyFigure("main RTP (returned / wagered), basic strategy", st["basic"].rtp, note("basic_main_rtp"))]


def strategies_table(strategies: dict) -> str:
    """Every strategy's rule, P(call), house edge and RTPs (Markdown)."""
    return markdown_table(["strategy", "rule", "calls", "house edge / ANTE", "main RTP", "AA Bonus RTP"],
                          [[name, f.description, percent_str(f.p_call, 4), percent_str(f.house_edge, 4),
                            percent_str(f.rtp, 4), percent_str(f.aa_rtp, 4)] for name, f in strategies.items()],
                          "llrrrr")


def report_content(analysis: HoldemAnalysis, par_sheet: str, three_rows: list) -> ReportContent:
    """What Casino Hold'em contributes to its report: method, strategy, PAR sheet, the margin figure."""
    table, st, priced = analysis.table, analysis.strategies, analysis.priced
    call, ties = priced.optimal_call()
    total = analysis.total_weight
    method = (
        f"Every situation the player decides on, 2 hole cards and a 3-card flop ({thousands(total)} of them), "
        f"is followed through every turn/river pair and every dealer hole pair ({thousands(table.continuations)} "
        f"continuations each, {thousands(analysis.total_deals)} deals in all). Situations that differ only by a "
        f"renaming of suits are one class ({thousands(len(table))} classes); each class's weight is how many "
        "raw situations it stands for.\n\n"
        f"The counting runs in two passes. Each of the {thousands(table.n_boards)} suit classes of 5-card "
        "boards is evaluated once: every player hole pair's 7-card hand, sorted by rank, and by card removal "
        "the number of dealer hole pairs below, equal to and not qualifying against it. Then, for each of "
        f"the {thousands(table.n_flops)} canonical flops and each turn/river pair, every situation adds the "
        "counts of its board (through the suit renaming onto the board's class). All counts are integers; "
        "each situation's EV of calling is an exact fraction over its continuations, and calling is chosen "
        "exactly when it beats folding (-1 ANTE).\n\n"
        "The kernel is checked against a pure-Python brute force on reduced decks (every situation, every "
        "continuation), against direct dealing of random situations on the full deck, and by the verification "
        "below.")
    card_and_table = (strategy_card_markdown(analysis.basic)
                      + "\n# The operator's three strategies, with this basic strategy\n\n"
                      + basic_strategy.three_strategy_markdown(three_rows))
    strategy = (
        f"Optimal main-game strategy: call in {thousands(int(call.sum()))} situation classes "
        f"({thousands(exact_sum(table.weights[call]))} situations), fold in {thousands(int((~call & ~ties).sum()))} "
        f"({thousands(exact_sum(table.weights[~call & ~ties]))}), exactly indifferent in {int(ties.sum())} "
        f"({thousands(exact_sum(table.weights[ties]))}); indifferent situations are counted as folds.\n\n"
        f"With an AA Bonus of {st['joint_optimal'].aa_ratio} x ANTE, the jointly optimal strategy differs from "
        f"the main-game optimum in {thousands(int((st['joint_optimal'].call != call).sum()))} classes: "
        "it calls every AA Bonus win that the main game alone would fold.\n\n"
        + strategies_table(st)
        + "\n\n### Basic strategy\n\nA rule list a person can play (`basic_strategy.toml`, also as the strategy "
          "file `strategy_basic.bin.gz`); `basic_strategy.md` adds the exact cost of each rule.\n\n"
          + demote(demote(card_and_table)))
    figures = [Figure("figure_margin.svg", "EV of calling minus EV of folding over all situations", "margin_histogram",
                      {"bins": lambda: margin_histogram(priced.ev_call, priced.denominator, table.weights, total),
                       "action": "call",                               # the bins made when the figure is drawn
                       "title": "Call-minus-fold margin, optimal strategy"}),
               distribution_figure("Net result of one round, optimal strategy", "Net result of one round, optimal "
                                   "strategy", [(f"optimal / {e.labels[1]}", e.stats) for e
                                                in par_statistics(analysis).entries if e.labels[0] == "optimal"])]
    return ReportContent(key_figures(analysis), method, strategy, par_sheet, figures)


def workbook_sheets(analysis: HoldemAnalysis, lines: list, aa_lines: list) -> list:
    """The PAR workbook's sheets (the publisher adds the rules analysed)."""
    bets = {"ante+call": "ANTE + CALL", "aa_bonus": "AA Bonus (per situation)"}
    outcomes = Table(["Bet", "Hand", "Outcome", "Combinations", ("Probability", EXACT), ("Wagered", EXACT),
                      ("Net", EXACT), ("Contribution to EV", EXACT)],
                     [[bets[bet], *cells] for bet, *cells in outcome_cells(analysis, lines, aa_lines, True)])
    return statistics_sheets(outcomes, par_statistics(analysis))


def outputs(analysis: HoldemAnalysis) -> Outputs:
    """Every file of the rule set's results folder, its report content and its workbook's sheets."""
    strategies = analysis.files
    strategies.start()                                   # compressed in the background meanwhile (if not already)
    lines, aa_lines = par_lines(analysis), aa_par_lines(analysis)
    par_sheet = par_markdown(analysis, lines, aa_lines)
    # the analysis's figures of these very strategies (its basic card's decisions among them)
    known = {name: analysis.strategies[name] for name in ("basic", "optimal", "call_on_aa_win_basic")}
    three_rows = basic_strategy.three_strategy_table(analysis.priced, analysis.basic, priced_figures=known)
    files = {
        "par_sheet.md": par_sheet,
        "par_sheet.csv": lambda: par_csv(analysis, lines, aa_lines),
        OPTIMAL_FILE: lambda: strategies.data(OPTIMAL_FILE),
        "basic_strategy.toml": lambda: Path(analysis.basic.source).read_bytes(),
        "basic_strategy.md": lambda: basic_strategy.basic_strategy_markdown(analysis.priced, analysis.basic, three_rows,
                                                                            known, analysis.basic_costs),
        BASIC_FILE: lambda: strategies.data(BASIC_FILE)}
    return Outputs(lambda: summary(analysis), files, report_content(analysis, par_sheet, three_rows),
                   lambda: workbook_sheets(analysis, lines, aa_lines), strategies.columns())
