"""Baccarat outputs: summary, PAR sheet (Markdown, CSV), outcome table, strategy file, report content."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from analyzer.formats import strategy_file
from analyzer.core.exact import decimal_str, figure, fraction_str, percent_str, published_check
from analyzer.figures.outputs import Figure, KeyFigure, Outputs, ReportContent, published_note, summary_head
from analyzer.figures.par import (CombinedPlay, Distribution, ParStatistics, WagerEntry, covariance_markdown,
                                  csv_rows, derivation, distribution_figure, lines_markdown, par_heading,
                                  round_statistics, share, statistics_markdown, workbook_sheets as statistics_sheets)
from analyzer.figures.tables import EXACT, Table, csv_text, markdown_table, thousands
from analyzer.games.baccarat.analysis import PAIRS, BaccaratAnalysis, pair_name
from analyzer.games.baccarat.count import CARDS_DEALT, analysis_shoes
from analyzer.games.baccarat.price import MainOutcomes, banker_win_return
from analyzer.games.baccarat.rules import BETS, GAME, N_VALUES, VALUE_NAMES, strategy_header_rules


def money(amount: Fraction) -> str:
    """An amount with two decimals."""
    return decimal_str(amount, 2)


def summary(analysis: BaccaratAnalysis) -> dict:
    """summary.json: every figure exact, with its decimal."""
    rules, main, n = analysis.rules, analysis.main, sum(analysis.shoe)
    bets = {}
    for bet in BETS:
        rtp = analysis.rtp(bet)
        bets[bet] = {"rtp": figure(rtp), "ev_per_unit": figure(rtp - 1), "house_edge": figure(1 - rtp),
                     "rtp_percent": percent_str(rtp, 4),
                     "published": published_check(rules.published.get(f"{bet}_rtp"), rtp)}
    bets["banker"]["note"] = ("nominal commission (a stake whose 1.95x is a whole number of cents); "
                              "see banker_commission_by_stake.csv for every stake")
    return {
        **summary_head(GAME, analysis.rule_file),
        "rtp_definition": "total returned (stake included) / total staked; a push returns the stake",
        "shoe": {"decks": rules.decks, "cards": n, "cards_by_value": list(analysis.shoe)},
        "deals": {"ordered_six_card_sequences": str(main.total), "formula": "·".join(str(n - i) for i in range(6))},
        "outcomes": {name.replace(" ", "_"): {"combinations": str(count),
                                              "probability": figure(Fraction(count, main.total))}
                     for name, count in main.by_outcome.items()},
        "bets": bets,
        "effect_of_removal": {VALUE_NAMES[v]: {bet: figure(d) for bet, d in effect.items()}
                              for v, effect in analysis.effects.items()},
        "round_statistics": round_statistics(par_statistics(analysis))}


WAGER_DEFINITIONS = {
    "bets": "one bet of 1 unit: net per unit staked (BANKER with the commission taken exactly)",
    "combined": "two bets of the same round, 1 unit each: net per round, wagered 2",
    "banker_by_stake": "BANKER at each stake of banker_commission_by_stake.csv, its win rounded as the rules say: "
                       "net per unit staked (compact: no net distribution)"}
COMBINED_COLUMNS = [("Covariance", EXACT), ("EV per round", "ev_per_initial_bet"), ("Variance", "variance"),
                    ("SD", "standard_deviation"), ("RTP", "rtp"), ("SD per unit wagered", "sd_per_unit_wagered")]
#: The PAR CSV's columns of the statistics rows (analyzer.figures.par.csv_rows)
CSV_FIELDS = {"bet": "kind", "outcome": "wager", "combinations": "count", "probability": "probability",
              "probability_decimal": "probability_decimal", "returned_per_unit": "net",
              "returned_per_unit_decimal": "net_decimal", "contribution_to_rtp": "contribution",
              "contribution_to_rtp_decimal": "contribution_decimal"}


def par_statistics(analysis: BaccaratAnalysis) -> ParStatistics:
    """The round statistics as the PAR sheet shows them: each bet, two bets of one round, BANKER at every stake."""
    def both(pair):
        return " + ".join(b.upper() for b in pair)
    entries = [WagerEntry((bet.upper(), None), stats, f"/round_statistics/bets/{bet}")
               for bet, stats in analysis.statistics.items()]
    entries += [WagerEntry((both(pair), None), stats, f"/round_statistics/combined/{pair_name(pair)}")
                for pair, stats in analysis.pairs.items()]
    entries += [WagerEntry(("BANKER", money(stake)), stats, f"/round_statistics/banker_by_stake/{money(stake)}",
                           detail=False) for stake, stats in analysis.stake_statistics]
    combined = [((both(pair),), f"/round_statistics/combined/{pair_name(pair)}", stats, (analysis.covariance(*pair),))
                for pair, stats in analysis.pairs.items()]
    return ParStatistics(
        entries, ["Wager", "Stake"], WAGER_DEFINITIONS,
        frame={"covariance": {pair_name(pair): figure(analysis.covariance(*pair)) for pair in PAIRS}},
        convention="Each bet is 1 unit (BANKER with the commission taken exactly); two bets of the same round are "
                   f"1 unit each (wagered 2). {derivation('every ordered six-card sequence')}",
        combined=CombinedPlay(["Bets"], COMBINED_COLUMNS, combined), csv_fields=CSV_FIELDS,
        notes=[("Covariance of two bets' nets (1 unit each) in one round, counted from their joint distribution:",
                covariance_markdown("bets", [(" and ".join(b.upper() for b in pair), analysis.covariance(*pair))
                                             for pair in PAIRS]))],
        distributions=[Distribution(f"Net result of a {bet.upper()} bet (per unit)", stats)
                       for bet, stats in analysis.statistics.items()],
        compact_heading="BANKER by stake (the win rounded as the rules say)")


def par_lines(analysis: BaccaratAnalysis) -> list[list]:
    """Each bet's PAR lines: bet, outcome, combinations, probability, returned per unit, contribution to RTP."""
    return [[bet, line.outcome, line.combinations, p, line.returned, contribution]
            for bet in BETS for line in analysis.lines[bet]
            for p, contribution in [share(line.combinations, analysis.main.total, line.returned)]]


def workbook_sheets(analysis: BaccaratAnalysis) -> list:
    """The PAR workbook's sheets (the publisher adds the rules analysed)."""
    outcomes = Table(["Bet", "Outcome", "Combinations", ("Probability", EXACT), ("Returned per unit", EXACT),
                      ("Contribution to RTP", EXACT)], [[bet.upper(), *cells] for bet, *cells in par_lines(analysis)])
    return statistics_sheets(outcomes, par_statistics(analysis))


def par_rows(analysis: BaccaratAnalysis) -> list[list]:
    """The PAR sheet's rows: each bet's outcomes, exact fractions beside their decimals."""
    return [[bet, outcome, n, fraction_str(p), decimal_str(p), fraction_str(returned), decimal_str(returned, 6),
             fraction_str(contribution), decimal_str(contribution)]
            for bet, outcome, n, p, returned, contribution in par_lines(analysis)]


def outcome_rows(analysis: BaccaratAnalysis) -> list[list]:
    """Every final (player total, banker total, cards dealt) with its exact count."""
    total = analysis.main.total
    return [[p, b, dealt, count, fraction_str(Fraction(count, total)), decimal_str(Fraction(count, total))]
            for p, b, (k, dealt) in itertools.product(range(N_VALUES), range(N_VALUES), enumerate(CARDS_DEALT))
            if (count := int(analysis.counts[p, b, k]))]


def par_markdown(analysis: BaccaratAnalysis) -> str:
    """The PAR sheet: outcomes, each bet's lines, the stake table, the effect of removal."""
    rules, main, n = analysis.rules, analysis.main, sum(analysis.shoe)
    out = par_heading("Baccarat", analysis.rule_file) + [
           f"Every round is dealt from a full shoe of {rules.decks} decks ({n} cards). Every ordered "
           f"sequence of the first six cards is counted once: "
           f"{'·'.join(str(n - i) for i in range(6))} = {thousands(main.total)} sequences; a round "
           "that uses fewer than six cards counts every way to fill the unused positions. "
           "Probabilities are these counts over the total, exactly.\n", "## Outcomes\n",
           markdown_table(["outcome", "combinations", "probability", "decimal"],
                          [[name, thousands(c), fraction_str(Fraction(c, main.total)),
                            decimal_str(Fraction(c, main.total))] for name, c in main.by_outcome.items()])]
    for bet in BETS:
        rtp = analysis.rtp(bet)
        pays = f"{rules.pays[bet]} to 1" + (f", less {percent_str(rules.commission, 2)} commission"
                                             if bet == "banker" else "")
        out += [f"## {bet.upper()} bet (pays {pays})\n",
                lines_markdown(["outcome", "combinations", "probability", "returned per unit", "contribution to RTP"],
                               [((line.outcome,), line.combinations, (fraction_str(line.returned),), line.returned)
                                for line in analysis.lines[bet]], main.total),
                f"\nRTP = {fraction_str(rtp)} = {percent_str(rtp, 6)}; house edge = "
                f"{fraction_str(1 - rtp)} = {percent_str(1 - rtp, 6)}.\n"]
        if check := published_check(rules.published.get(f"{bet}_rtp"), rtp):
            out.append(f"Published RTP {check['published']}; exact RTP rounds to {check['exact_rounded']} "
                       f"({'agrees' if check['agrees'] else 'DIFFERS'}).\n")
    out += ["## Commission rounding: BANKER RTP by stake\n",
            f"A winning BANKER stake returns {decimal_str(banker_win_return(rules), 2)} x stake rounded "
            f"{rules.rounding} to {money(rules.unit)}. The rounding costs the player exactly when "
            f"{decimal_str(banker_win_return(rules), 2)} x stake is not a whole number of "
            f"{money(rules.unit)} units.\n",
            markdown_table(["stake", "returned on a win", "RTP", "RTP vs nominal"],
                           [[money(s), money(r * s), percent_str(rtp, 6),
                             percent_str(rtp - analysis.rtp("banker"), 6)] for s, r, rtp in analysis.stake_rtps]),
            "\n## Effect of removal (EV change per unit when one card of a value leaves the full shoe)\n",
            markdown_table(["value removed"] + [f"{b.upper()} (x 10^6)" for b in BETS],
                           [[VALUE_NAMES[v]] + [decimal_str(e[b] * 10**6, 4) for b in BETS]
                            for v, e in analysis.effects.items()]),
            "\nEvery final (player total, banker total, cards dealt) outcome with its exact count is "
            "in `outcomes.csv`.\n", statistics_markdown(par_statistics(analysis))]
    return "\n".join(out)


def strategy_file_bytes(analysis: BaccaratAnalysis) -> bytes:
    """Reference shoes (the full shoe, then one card of each value removed) with exact outcome counts."""
    rules, shoes = analysis.rules, analysis_shoes(analysis.rules)
    mains = [MainOutcomes.from_counts(counts) for counts in analysis.shoe_counts]
    order = sorted(range(len(shoes)), key=lambda i: shoes[i])
    header = {"game": GAME, "rule_set": analysis.rule_file.name, "rule_sha256": analysis.rule_file.sha256,
              "decks": rules.decks, "rules": strategy_header_rules(rules), "actions": list(BETS),
              "key": "shoe: cards left of each value 0 (T J Q K), 1 (A), 2, ..., 9",
              "ev_unit": "unit staked; BANKER with the commission taken exactly"}
    counts = {column: np.array([getattr(mains[i], field) for i in order], dtype="<i8")
              for column, field in (("banker_wins", "banker"), ("player_wins", "player"), ("ties", "tie"))}
    return strategy_file.encode(header, {"shoe": np.array([shoes[i] for i in order], dtype="<u4"), **counts})


def key_figures(analysis: BaccaratAnalysis) -> list[KeyFigure]:
    """The headline figures (the report's first table, and what `analyzer sweep` compares)."""
    return [figure for bet in BETS for figure in (
        KeyFigure(f"{bet.upper()} house edge", 1 - analysis.rtp(bet)),
        KeyFigure(f"{bet.upper()} RTP", analysis.rtp(bet), published_note(analysis.rules.published, f"{bet}_rtp")))]


def report_content(analysis: BaccaratAnalysis, par_sheet: str) -> ReportContent:
    """What Baccarat contributes to its report: method, strategy, PAR sheet, the effect-of-removal figure."""
    rules, main, n = analysis.rules, analysis.main, sum(analysis.shoe)
    method = (
        f"Every round is dealt from a full shoe of {rules.decks} decks ({n} cards). The enumeration walks "
        "the cards by value (0 for ten, jack, queen, king; 1 for the ace; 2 to 9), each draw weighted by how "
        "many cards of that value are left, through the drawing tableau of the rule file, and counts every "
        f"ordered sequence of the first six cards once ({'·'.join(str(n - i) for i in range(6))} = "
        f"{thousands(main.total)}); a round that uses fewer than six cards counts every way to fill the "
        "unused positions. The kernel is checked against a card-by-card brute force of every ordered deal "
        "of small shoes, and against the same walk in plain Python integers.\n\n"
        f"BANKER's house edge takes the {percent_str(rules.commission, 2)} commission exactly (a stake whose "
        f"{decimal_str(banker_win_return(rules), 2)} x is a whole number of cents); the PAR sheet's stake table "
        "shows the cost of rounding the payout down to the cent at every other stake.")
    strategy = ("Baccarat has no player decisions after the bet. On a full shoe the best bet is BANKER. The "
                "effect of removal (below, and `effect_of_removal.csv`) shows how each card value leaving the "
                "shoe moves each bet's EV; `analyzer advise baccarat --remove ...` answers any depleted shoe "
                "exactly.")
    figure_ = Figure("figure_effect_of_removal.svg", "Change of each bet's EV per card value removed", "effect_of_removal",
                     {"effects": analysis.effects, "labels": list(VALUE_NAMES), "bets": list(BETS),
                      "title": "Effect of removing one card of each value from the full shoe"})
    distribution = distribution_figure("Net result of one round of each bet", "Net result of one round, per unit "
                                       "staked", [(bet.upper(), stats) for bet, stats in analysis.statistics.items()])
    return ReportContent(key_figures(analysis), method, strategy, par_sheet, [figure_, distribution])


PAR_HEADERS = ["bet", "outcome", "combinations", "probability", "probability_decimal", "returned_per_unit",
               "returned_per_unit_decimal", "contribution_to_rtp", "contribution_to_rtp_decimal"]
OUTCOME_HEADERS = ["player_total", "banker_total", "cards_dealt", "combinations", "probability", "probability_decimal"]


def outputs(analysis: BaccaratAnalysis) -> Outputs:
    """Every file of the rule set's results folder, and its report content."""
    par_sheet = par_markdown(analysis)
    files = {
        "par_sheet.md": par_sheet,
        "par_sheet.csv": lambda: csv_text(PAR_HEADERS,
                                          par_rows(analysis) + csv_rows(par_statistics(analysis), PAR_HEADERS)),
        "strategy.bin.gz": lambda: strategy_file_bytes(analysis),
        "outcomes.csv": lambda: csv_text(OUTCOME_HEADERS, outcome_rows(analysis)),
        "effect_of_removal.csv": lambda: csv_text(
            ["value_removed", "bet", "ev_change", "ev_change_decimal"],
            [[v, bet, fraction_str(d), decimal_str(d)] for v, e in analysis.effects.items() for bet, d in e.items()]),
        "banker_commission_by_stake.csv": lambda: csv_text(
            ["stake", "returned_on_win", "rtp", "rtp_decimal"],
            [[money(s), money(r * s), fraction_str(rtp), decimal_str(rtp)] for s, r, rtp in analysis.stake_rtps])}
    return Outputs(lambda: summary(analysis), files, report_content(analysis, par_sheet),
                   lambda: workbook_sheets(analysis))
