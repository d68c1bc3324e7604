"""Baccarat's game-protection scenarios (`analyzer protect baccarat`): edge-sorted backs, exact, for one group of
values read on the first K cards or the best grouping of the ten values for every K; each a `Leak`."""
from __future__ import annotations

from analyzer.core.errors import InputError
from analyzer.figures.protection import EDGE, Leak, LeakFigure
from analyzer.figures.tables import EXACT, Table
from analyzer.games.baccarat.edge_sorting import (FIRST_CARDS, best_groupings, check_k, count_first_cards, edge_sort,
                                                  parse_values)

GAME = "baccarat"
RUNNERS_UP = 3                   # groupings listed per K in the best-grouping table
METHOD = ("Every ordered 6-card sequence of the full shoe is counted once, by the values of its first four cards "
          "and its outcome; each pattern of the first K cards (in dealing order: Player 1st, Banker 1st, Player "
          "2nd, Banker 2nd; for each, whether its value is in the group: in or out) is priced exactly, and the "
          "player bets the bet of largest EV for it (an exact tie goes to the first of BANKER, PLAYER, TIE).  "
          "BANKER is priced with the nominal commission taken exactly.  The main figure always bets; the selective "
          "figures bet only the patterns whose best EV is positive.")


def group_text(values) -> str:
    return "".join(str(v) for v in sorted(values))


def protection_scenario(rules, options: dict) -> str:
    """The folder name of the scenario `options` ask for ({"edge_sort": VALUES, "cards": K} or
    {"best_grouping": True}), checked before any counting: InputError naming the option."""
    if options.get("best_grouping"):
        if options.get("cards") is not None:
            raise InputError("--cards does not apply to --best-grouping (it searches every K = 1..4)")
        return "best-grouping"
    values, k = parse_values(options["edge_sort"]), cards(options)
    if not 1 <= check_k(k):
        raise InputError(f"edge sorting: --cards {k}; the backs are read on the first 1..{FIRST_CARDS} cards")
    return f"edge-sort-{group_text(values)}-k{k}"


def cards(options: dict) -> int:
    """--cards, default 1."""
    return 1 if options.get("cards") is None else options["cards"]


def pattern_words(known) -> str:
    return " ".join("in" if card else "out" for card in known) or "-"


def edge_figures(result, key_suffix: str = "", words: str = "", headline: bool = True) -> tuple:
    figures = [LeakFigure(EDGE + key_suffix, f"player's edge per round, always betting the best bet{words}",
                          result.edge, headline=headline),
               LeakFigure("gain" + key_suffix, f"gain over the best single bet, per round{words}", result.gain),
               LeakFigure("selective_edge" + key_suffix, f"edge per round dealt, betting only when positive{words}",
                          result.selective_edge),
               LeakFigure("bet_fraction" + key_suffix, f"fraction of rounds bet, betting only when positive{words}",
                          result.bet_fraction)]
    if result.selective_edge_per_bet is not None:
        figures.append(LeakFigure("selective_edge_per_bet" + key_suffix,
                                  f"edge per round bet, betting only when positive{words}",
                                  result.selective_edge_per_bet))
    return tuple(figures)


def honest_figure(result) -> LeakFigure:
    return LeakFigure("honest_ev", f"the best single bet's EV per unit, nothing known ({result.honest.best.upper()})",
                      result.honest.best_ev)


def protect(rule_file, rules, options: dict, count=None, executor=None, progress=None) -> Leak:
    """The leak `options` ask for under `rules`, from the first-card counts of their full shoe (`count` unused:
    the honest counts are not needed)."""
    scenario = protection_scenario(rules, options)
    cells = count_first_cards(rules.full_shoe(), rules)
    if options.get("best_grouping"):
        best, rows = [], []
        for k in range(1, FIRST_CARDS + 1):
            ranked = best_groupings(cells, rules, k)
            best.append(ranked[0])
            rows += [[k, rank, group_text(g.values), g.edge, g.gain, g.selective_edge]
                     for rank, g in enumerate(ranked[:RUNNERS_UP], 1)]
        figures = tuple(f for k, g in enumerate(best, 1)
                        for f in edge_figures(g, f"_k{k}", f" (K = {k}, group {group_text(g.values)})"))
        table = Table(["K", "Rank", "Group", ("Edge", EXACT), ("Gain", EXACT), ("Selective edge", EXACT)], rows)
        return Leak(game=GAME, scenario=scenario, kind="best-grouping",
                    title="the best split of the ten values into two groups, for the first K = 1..4 cards",
                    parameters={"best_grouping": True, "groups": {f"k{k}": group_text(g.values)
                                                                  for k, g in enumerate(best, 1)}},
                    figures=figures + (honest_figure(best[0]),),
                    method=METHOD + "  Every one of the 511 splits of the ten values is searched for each K; a "
                                    "group and its complement are the same knowledge.",
                    tables=((f"Best {RUNNERS_UP} groupings by K", table),))
    values, k = parse_values(options["edge_sort"]), cards(options)
    result = edge_sort(cells, rules, values, k)
    patterns = Table(["Pattern", ("Probability", EXACT), ("BANKER EV", EXACT), ("PLAYER EV", EXACT),
                      ("TIE EV", EXACT), "Best bet"],
                     [[pattern_words(p.known), p.probability, p.evs["banker"], p.evs["player"], p.evs["tie"],
                       p.best.upper()] for p in result.patterns])
    return Leak(game=GAME, scenario=scenario, kind="edge-sort",
                title=f"values {{{','.join(group_text(values))}}} told apart on the first {k} card{'s' * (k > 1)}",
                parameters={"edge_sort": group_text(values), "cards": k},
                figures=edge_figures(result) + (honest_figure(result),),
                method=METHOD,
                tables=(("Patterns and best bets", patterns),))
