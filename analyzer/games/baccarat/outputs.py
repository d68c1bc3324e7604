"""Baccarat outputs: summary, PAR sheet (Markdown, CSV), outcome table, strategy file, report content."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from analyzer.formats import strategy_file
from analyzer.figures.distribution import CONVENTION, SETTLING_RULE, summary_context
from analyzer.core.exact import decimal_str, figure, fraction_str, percent_str, published_check
from analyzer.figures.outputs import Figure, KeyFigure, Outputs, ReportContent
from analyzer.figures.tables import EXACT, ROOT, Table, csv_text, markdown_table, thousands
from analyzer.figures.wager_tables import (WagerEntry, csv_rows, distribution_figure, distribution_markdown,
                                        distribution_table, figures_markdown, figures_table, settling_markdown,
                                        settling_table)
from analyzer.games.baccarat.analysis import PAIRS, BaccaratAnalysis, pair_name
from analyzer.games.baccarat.count import CARDS_DEALT, analysis_shoes
from analyzer.games.baccarat.price import MainOutcomes, banker_win_return
from analyzer.games.baccarat.rules import BETS, GAME, N_VALUES, VALUE_NAMES, strategy_header_rules


def money(amount: Fraction) -> str:
    """An amount with two decimals."""
    return decimal_str(amount, 2)


def summary(analysis: BaccaratAnalysis) -> dict:
    """summary.json: every figure exact, with its decimal."""
    rules, main = analysis.rules, analysis.main
    n = sum(analysis.shoe)
    bets = {}
    for bet in BETS:
        rtp = analysis.rtp(bet)
        bets[bet] = {"rtp": figure(rtp), "ev_per_unit": figure(rtp - 1), "house_edge": figure(1 - rtp),
                     "rtp_percent": percent_str(rtp, 4),
                     "published": published_check(rules.published.get(f"{bet}_rtp"), rtp)}
    bets["banker"]["note"] = ("nominal commission (a stake whose 1.95x is a whole number of cents); "
                              "see banker_commission_by_stake.csv for every stake")
    return {
        "format": "analyzer-summary/1",
        "game": GAME,
        "rule_set": analysis.rule_file.name,
        "title": analysis.rule_file.title,
        "rtp_definition": "total returned (stake included) / total staked; a push returns the stake",
        "shoe": {"decks": rules.decks, "cards": n, "cards_by_value": list(analysis.shoe)},
        "deals": {"ordered_six_card_sequences": str(main.total),
                  "formula": "·".join(str(n - i) for i in range(6))},
        "outcomes": {name: {"combinations": str(count), "probability": figure(Fraction(count, main.total))}
                     for name, count in (("banker_wins", main.banker), ("player_wins", main.player),
                                         ("tie", main.tie))},
        "bets": bets,
        "effect_of_removal": {VALUE_NAMES[v]: {bet: figure(d) for bet, d in effect.items()}
                              for v, effect in analysis.effects.items()},
        "round_statistics": round_statistics_summary(analysis),
    }


def round_statistics_summary(analysis: BaccaratAnalysis) -> dict:
    """summary.json's round_statistics: each bet, two bets of one round together, BANKER at every stake."""
    return {
        **summary_context(),
        "wagers": {"bets": "one bet of 1 unit: net per unit staked (BANKER with the commission taken exactly)",
                   "combined": "two bets of the same round, 1 unit each: net per round, wagered 2",
                   "banker_by_stake": "BANKER at each stake of banker_commission_by_stake.csv, its win rounded as "
                                      "the rules say: net per unit staked (compact: no net distribution)"},
        "bets": {bet: stats.as_summary(context=False) for bet, stats in analysis.statistics.items()},
        "covariance": {pair_name(pair): figure(analysis.covariance(*pair)) for pair in PAIRS},
        "combined": {pair_name(pair): stats.as_summary(context=False) for pair, stats in analysis.pairs.items()},
        "banker_by_stake": {money(stake): stats.as_summary(context=False, detail=False) for stake, stats in analysis.stake_statistics},
    }


def wager_entries(analysis: BaccaratAnalysis, stakes: bool = True) -> list[WagerEntry]:
    """Every wager of the round statistics with its summary.json path: the bets, the pairs, BANKER by stake."""
    entries = [WagerEntry((bet.upper(), None), stats, f"/round_statistics/bets/{bet}")
               for bet, stats in analysis.statistics.items()]
    entries += [WagerEntry((" + ".join(b.upper() for b in pair), None), stats,
                           f"/round_statistics/combined/{pair_name(pair)}") for pair, stats in analysis.pairs.items()]
    if stakes:
        entries += [WagerEntry(("BANKER", money(stake)), stats, f"/round_statistics/banker_by_stake/{money(stake)}",
                               detail=False) for stake, stats in analysis.stake_statistics]
    return entries


LABELS = ["wager", "stake"]


def statistics_markdown(analysis: BaccaratAnalysis) -> str:
    """The PAR sheet's section on volatility: each bet's figures and distribution, covariances, the settling."""
    out = ["## Volatility, hit frequency and the net result of a round\n",
           f"Convention: {CONVENTION}. Each bet is 1 unit (BANKER with the commission taken exactly); two bets "
           "of the same round are 1 unit each (wagered 2). Every figure is derived from the exact distribution "
           "of the net result over every ordered six-card sequence; the variance is exact and the standard "
           "deviation (SD) is its square root, rendered by integer square roots.\n",
           figures_markdown(wager_entries(analysis, stakes=False), LABELS[:1] + ["(stake)"]),
           "\nCovariance of two bets' nets (1 unit each) in one round, counted from their joint distribution:\n",
           markdown_table(["bets", "covariance (exact)", "covariance"],
                          [[" and ".join(b.upper() for b in pair), fraction_str(analysis.covariance(*pair)),
                            decimal_str(analysis.covariance(*pair))] for pair in PAIRS], "lrr")]
    for bet, stats in analysis.statistics.items():
        out += [f"\n### Net result of a {bet.upper()} bet (per unit)\n", distribution_markdown(stats)]
    out += ["\n### BANKER by stake (the win rounded as the rules say)\n",
            figures_markdown([e for e in wager_entries(analysis) if not e.detail], LABELS),
            "\n### How fast the realised return settles\n",
            "Half-width of the 95% interval of the realised return per unit wagered after N rounds, and the rounds "
            f"after which it is within +-0.1 and +-0.01 percentage points ({SETTLING_RULE}; the 99% intervals are "
            "in `par_sheet.xlsx` and `summary.json`).\n",
            settling_markdown(wager_entries(analysis, stakes=False), LABELS[:1] + ["(stake)"])]
    return "\n".join(out)


def statistics_csv_rows(analysis: BaccaratAnalysis) -> list[list]:
    """The PAR CSV's statistics section (docs/summary-fields.md): bet "net_result" rows (the wager in
    "outcome", the net per unit in the returned_per_unit columns, its contribution to the EV in the
    contribution columns) and bet "figure" rows (the figure in "outcome", its exact value in "probability"
    and decimal in "probability_decimal")."""
    rows = []
    for row in csv_rows(wager_entries(analysis, stakes=False)):
        wager = row["labels"][0]
        if row["kind"] == "net_result":
            contribution = row["value"] * row["probability"]
            rows.append(["net_result", wager, row["count"], row["exact"], row["decimal"], row["name"],
                         decimal_str(row["value"], 6), fraction_str(contribution), decimal_str(contribution)])
        else:
            rows.append(["figure", f"{wager}: {row['name']}", "" if row["count"] is None else row["count"],
                         row["exact"], row["decimal"], "", "", "", ""])
    return rows


def workbook_sheets(analysis: BaccaratAnalysis) -> list:
    """The PAR workbook's sheets (the publisher adds the rules analysed)."""
    total = analysis.main.total
    outcomes = Table(["Bet", "Outcome", "Combinations", ("Probability", EXACT), ("Returned per unit", EXACT),
                      ("Contribution to RTP", EXACT)],
                     [[bet.upper(), line.outcome, line.combinations, Fraction(line.combinations, total),
                       line.returned, Fraction(line.combinations, total) * line.returned]
                      for bet in BETS for line in analysis.lines[bet]])
    entries = wager_entries(analysis)
    combined = Table(["Bets", "summary.json", ("Covariance", EXACT), ("EV per round", EXACT), ("Variance", EXACT),
                      ("SD", ROOT), ("RTP", EXACT), ("SD per unit wagered", ROOT)],
                     [[" + ".join(b.upper() for b in pair), f"/round_statistics/combined/{pair_name(pair)}",
                       analysis.covariance(*pair), stats.mean, stats.variance, stats.variance, stats.rtp,
                       stats.variance / stats.mean_wagered ** 2] for pair, stats in analysis.pairs.items()])
    return [("Outcomes", outcomes), ("Net distribution", distribution_table(entries, ["Wager", "Stake"])),
            ("Wager figures", figures_table(entries, ["Wager", "Stake"])), ("Combined play", combined),
            ("Settling", settling_table(entries, ["Wager", "Stake"]))]


def par_rows(analysis: BaccaratAnalysis) -> list[list]:
    """The PAR sheet's rows: each bet's outcomes, exact fractions beside their decimals."""
    rows = []
    total = analysis.main.total
    for bet in BETS:
        for line in analysis.lines[bet]:
            p = Fraction(line.combinations, total)
            rows.append([bet, line.outcome, line.combinations, fraction_str(p), decimal_str(p),
                         fraction_str(line.returned), decimal_str(line.returned, 6),
                         fraction_str(p * line.returned), decimal_str(p * line.returned)])
    return rows


def outcome_rows(analysis: BaccaratAnalysis) -> list[list]:
    """Every final (player total, banker total, cards dealt) with its exact count."""
    rows = []
    total = analysis.main.total
    for p in range(N_VALUES):
        for b in range(N_VALUES):
            for k, dealt in enumerate(CARDS_DEALT):
                count = int(analysis.counts[p, b, k])
                if count:
                    prob = Fraction(count, total)
                    rows.append([p, b, dealt, count, fraction_str(prob), decimal_str(prob)])
    return rows


def par_markdown(analysis: BaccaratAnalysis) -> str:
    """The PAR sheet: outcomes, each bet's lines, the stake table, the effect of removal."""
    rules, main, rf = analysis.rules, analysis.main, analysis.rule_file
    n = sum(analysis.shoe)
    out = [f"# PAR sheet: Baccarat: {rf.title}\n",
           f"Rule set `{rf.name}` (rule file sha256 `{rf.sha256}`).\n",
           "## What was counted\n",
           f"Every round is dealt from a full shoe of {rules.decks} decks ({n} cards). Every ordered "
           f"sequence of the first six cards is counted once: "
           f"{'·'.join(str(n - i) for i in range(6))} = {thousands(main.total)} sequences; a round "
           "that uses fewer than six cards counts every way to fill the unused positions. "
           "Probabilities are these counts over the total, exactly.\n",
           "## Outcomes\n",
           markdown_table(["outcome", "combinations", "probability", "decimal"],
                          [[name, thousands(c), fraction_str(Fraction(c, main.total)),
                            decimal_str(Fraction(c, main.total))]
                           for name, c in (("banker wins", main.banker), ("player wins", main.player),
                                           ("tie", main.tie))]) ]
    for bet in BETS:
        rtp = analysis.rtp(bet)
        rows = [[line.outcome, thousands(line.combinations), decimal_str(Fraction(line.combinations, main.total)),
                 fraction_str(line.returned),
                 decimal_str(Fraction(line.combinations, main.total) * line.returned)]
                for line in analysis.lines[bet]]
        rows.append(["**total**", thousands(main.total), "1", "", f"**{decimal_str(rtp)}**"])
        pays = f"{rules.pays[bet]} to 1" + (f", less {percent_str(rules.commission, 2)} commission"
                                             if bet == "banker" else "")
        out += [f"## {bet.upper()} bet (pays {pays})\n",
                markdown_table(["outcome", "combinations", "probability", "returned per unit",
                                "contribution to RTP"], rows),
                f"\nRTP = {fraction_str(rtp)} = {percent_str(rtp, 6)}; house edge = "
                f"{fraction_str(1 - rtp)} = {percent_str(1 - rtp, 6)}.\n"]
        check = published_check(rules.published.get(f"{bet}_rtp"), rtp)
        if check:
            verdict = "agrees" if check["agrees"] else "DIFFERS"
            out.append(f"Published RTP {check['published']}; exact RTP rounds to {check['exact_rounded']} "
                       f"({verdict}).\n")
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
            "in `outcomes.csv`.\n",
            statistics_markdown(analysis)]
    return "\n".join(out)


def strategy_file_bytes(analysis: BaccaratAnalysis) -> bytes:
    """Reference shoes (the full shoe, then one card of each value removed) with exact outcome counts."""
    rules = analysis.rules
    shoes = analysis_shoes(rules)
    mains = [MainOutcomes.from_counts(counts) for counts in analysis.shoe_counts]
    order = sorted(range(len(shoes)), key=lambda i: shoes[i])
    header = {
        "game": GAME, "rule_set": analysis.rule_file.name, "rule_sha256": analysis.rule_file.sha256,
        "decks": rules.decks, "rules": strategy_header_rules(rules), "actions": list(BETS),
        "key": "shoe: cards left of each value 0 (T J Q K), 1 (A), 2, ..., 9",
        "ev_unit": "unit staked; BANKER with the commission taken exactly",
    }
    return strategy_file.encode(header, {
        "shoe": np.array([shoes[i] for i in order], dtype="<u4"),
        "banker_wins": np.array([mains[i].banker for i in order], dtype="<i8"),
        "player_wins": np.array([mains[i].player for i in order], dtype="<i8"),
        "ties": np.array([mains[i].tie for i in order], dtype="<i8"),
    })


def key_figures(analysis: BaccaratAnalysis) -> list[KeyFigure]:
    """The headline figures (the report's first table, and what `analyzer sweep` compares)."""
    out = []
    for bet in BETS:
        rtp = analysis.rtp(bet)
        published = analysis.rules.published.get(f"{bet}_rtp")
        out += [KeyFigure(f"{bet.upper()} house edge", 1 - rtp),
                KeyFigure(f"{bet.upper()} RTP", rtp, f"published {published}" if published else "")]
    return out


def report_content(analysis: BaccaratAnalysis, par_sheet: str) -> ReportContent:
    """What Baccarat contributes to its report: method, strategy, PAR sheet, the effect-of-removal figure."""
    rules, main = analysis.rules, analysis.main
    n = sum(analysis.shoe)
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
    distribution = Figure("figure_net_distribution.svg", "Net result of one round of each bet (probability, log "
                          "scale)", "net_distribution",
                          distribution_figure(wager_entries(analysis, stakes=False)[:len(BETS)],
                                              "Net result of one round, per unit staked"))
    return ReportContent(key_figures(analysis), method, strategy, par_sheet, [figure_, distribution])


PAR_HEADERS = ["bet", "outcome", "combinations", "probability", "probability_decimal",
               "returned_per_unit", "returned_per_unit_decimal", "contribution_to_rtp",
               "contribution_to_rtp_decimal"]
OUTCOME_HEADERS = ["player_total", "banker_total", "cards_dealt", "combinations", "probability",
                   "probability_decimal"]


def outputs(analysis: BaccaratAnalysis) -> Outputs:
    """Every file of the rule set's results folder, and its report content."""
    par_sheet = par_markdown(analysis)
    files = {
        "par_sheet.md": par_sheet,
        "par_sheet.csv": lambda: csv_text(PAR_HEADERS, par_rows(analysis) + statistics_csv_rows(analysis)),
        "strategy.bin.gz": lambda: strategy_file_bytes(analysis),
        "outcomes.csv": lambda: csv_text(OUTCOME_HEADERS, outcome_rows(analysis)),
        "effect_of_removal.csv": lambda: csv_text(
            ["value_removed", "bet", "ev_change", "ev_change_decimal"],
            [[v, bet, fraction_str(d), decimal_str(d)] for v, e in analysis.effects.items() for bet, d in e.items()]),
        "banker_commission_by_stake.csv": lambda: csv_text(
            ["stake", "returned_on_win", "rtp", "rtp_decimal"],
            [[money(s), money(r * s), fraction_str(rtp), decimal_str(rtp)] for s, r, rtp in analysis.stake_rtps]),
    }
    return Outputs(lambda: summary(analysis), files, report_content(analysis, par_sheet),
                   lambda: workbook_sheets(analysis))
