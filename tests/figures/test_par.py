"""The shared PAR statistics builder (analyzer.figures.par) on a toy declaration: a coin and a die.

The toy game has two bets of 1 unit, settled in the same round: COIN (heads wins 1, tails
loses 1) and DIE (a six pays 4 to 1, else lost), and both together (wagered 2).  Every
expected figure below is worked out by hand from those rules, not by the code under test:

- COIN: EV 0, variance 1, SD 1, hit 1/2, push 0, loss 1/2, largest win 1 (p 1/2), RTP 1.
- DIE: EV 4/6 - 5/6 = -1/6; E[X^2] = (16 + 5) / 6 = 7/2, variance 7/2 - 1/36 = 125/36,
  SD sqrt(125)/6 = 1.863390 (6 places); hit 1/6, loss 5/6, largest win 4 (p 1/6), RTP 5/6.
- COIN + DIE: independent, so covariance 0; EV -1/6, variance 1 + 125/36 = 161/36, mean
  wagered 2, RTP 1 - (1/6) / 2 = 11/12, SD per unit wagered sqrt(161/36 / 4) = sqrt(161/144).
- Rounds to settle within e at 95%: ceil(z^2 sigma^2 / e^2), sigma^2 the variance over the
  mean wagered squared: COIN at 0.1 pp ceil(3.8414588206941... x 10^6) = 3,841,459.
"""
import math
from fractions import Fraction as F

import pytest

from analyzer.figures.distribution import CONVENTION, Z95, RoundOutcomes, WagerStatistics
from analyzer.figures.par import (CombinedPlay, Distribution, ParStatistics, WagerEntry,
                                  covariance_markdown, csv_rows, derivation, round_statistics, share,
                                  statistics_markdown, workbook_sheets)
from analyzer.figures.tables import EXACT, VALUE, Table

ROUND = RoundOutcomes(("coin", "die"), {(1, 4): 1, (1, -1): 5, (-1, 4): 1, (-1, -1): 5})    # 2 x 6 faces
COIN = WagerStatistics.from_outcomes(ROUND, "coin", None)
DIE = WagerStatistics.from_outcomes(ROUND, "die", None)
BOTH = WagerStatistics.from_outcomes(ROUND.combine("net", {"coin": 1, "die": 1}).combine("wagered", {}, 2),
                                     "net", "wagered")
HEADERS = ["bet", "what", "combinations", "probability", "probability_decimal", "net", "contribution"]


def toy(**changes) -> ParStatistics:
    declaration = dict(
        entries=[WagerEntry(("COIN", None), COIN, "/round_statistics/bets/coin"),
                 WagerEntry(("DIE", None), DIE, "/round_statistics/bets/die"),
                 WagerEntry(("COIN + DIE", None), BOTH, "/round_statistics/combined/coin_die"),
                 WagerEntry(("DIE", "2.00"), DIE, "/round_statistics/by_stake/2.00", detail=False)],
        titles=["Wager", "Stake"], definitions={"bets": "one bet of 1 unit"},
        frame={"covariance": {"coin_die": {"exact": "0/1"}}, "combined": {"coin_die": {"note": "1 unit each"}}},
        convention=f"Each bet is 1 unit. {derivation('every toss and throw')}",
        combined=CombinedPlay(["Bets"], [("Covariance", EXACT), ("EV per round", "ev_per_initial_bet"),
                                         ("SD per unit wagered", "sd_per_unit_wagered"), ("Why", VALUE)],
                              [(("COIN + DIE",), "/round_statistics/combined/coin_die", BOTH, (F(0), "independent"))]),
        csv_fields={"bet": "kind", "what": "wager", "combinations": "count", "probability": "probability",
                    "probability_decimal": "probability_decimal", "net": "net", "contribution": "contribution"},
        notes=[("Covariances:", covariance_markdown("bets", [("COIN and DIE", F(0))]))],
        distributions=[Distribution("Net result of a DIE bet", DIE, "A six pays 4 to 1.\n")],
        compact_heading="DIE by stake")
    return ParStatistics(**{**declaration, **changes})


def test_the_toy_statistics_are_the_hand_figures():
    assert (COIN.mean, COIN.variance, COIN.hit_frequency, COIN.rtp) == (0, 1, F(1, 2), 1)
    assert (DIE.mean, DIE.variance, DIE.hit_frequency, DIE.rtp) == (F(-1, 6), F(125, 36), F(1, 6), F(5, 6))
    assert (BOTH.mean, BOTH.variance, BOTH.mean_wagered, BOTH.rtp) == (F(-1, 6), F(161, 36), 2, F(11, 12))


def test_round_statistics_places_every_entry_at_its_path_and_merges_the_frame():
    stats = round_statistics(toy())
    assert stats["convention"] == CONVENTION and stats["wagers"] == {"bets": "one bet of 1 unit"}
    die = stats["bets"]["die"]
    assert die["variance"]["exact"] == "125/36" and die["standard_deviation"]["sqrt_of"] == "125/36"
    assert [row["net"]["exact"] for row in die["net_distribution"]] == ["-1/1", "4/1"]
    assert die["largest_win"]["probability"]["exact"] == "1/6"
    assert "convention" not in die                               # said once, at the top
    assert stats["combined"]["coin_die"]["rtp"]["exact"] == "11/12"
    assert stats["combined"]["coin_die"]["note"] == "1 unit each"          # the frame merged beside the figures
    assert stats["covariance"] == {"coin_die": {"exact": "0/1"}}
    compact = stats["by_stake"]["2.00"]
    assert "net_distribution" not in compact and "settling_intervals" not in compact
    assert compact["rounds_to_settle"][0]["rounds"] == str(math.ceil(Z95 ** 2 * F(125, 36) * 10**6))


def test_a_path_outside_round_statistics_is_refused():
    with pytest.raises(ValueError, match="/round_statistics/"):
        round_statistics(toy(entries=[WagerEntry(("COIN", None), COIN, "/bets/coin")]))


def test_the_markdown_section_says_every_hand_figure():
    text = statistics_markdown(toy())
    lines = text.splitlines()
    assert lines[0] == "## Volatility, hit frequency and the net result of a round"
    assert lines[2] == (f"Convention: {CONVENTION}. Each bet is 1 unit. Every figure is derived from the exact "
                        "distribution of the net result over every toss and throw; the variance is exact and the "
                        "standard deviation (SD) is its square root, rendered by integer square roots.")
    # no wager shown has a stake: its column is titled in parentheses; the compact table has stakes
    assert lines[4].startswith("| wager | (stake) | EV | variance (exact) |")
    assert "| COIN |  | 0.000000 | 1/1 | 1.000000 | 1.000000 | 1.000000 | 0.500000 | 0.000000 | 0.500000 | " \
           "1 (p = 0.50000000) |" in lines
    assert "| DIE |  | -0.166667 | 125/36 | 3.472222 | 1.863390 | 1.863390 | 0.166667 | 0.000000 | 0.833333 | " \
           "4 (p = 0.16666667) |" in lines
    # nets 5, 3, 0, -2 counted 1, 1, 5, 5 times; SD sqrt(161)/6, per unit wagered sqrt(161)/12
    assert "| COIN + DIE |  | -0.166667 | 161/36 | 4.472222 | 2.114763 | 1.057381 | 0.166667 | 0.416667 | " \
           "0.416667 | 5 (p = 0.08333333) |" in lines
    assert "| COIN and DIE | 0/1 | 0.000000000000 |" in lines
    at = lines.index("### Net result of a DIE bet")
    assert lines[at - 1: at + 8] == ["", "### Net result of a DIE bet", "", "A six pays 4 to 1.", "",
                                     "| net | combinations | probability (exact) | probability |",
                                     "|---:|---:|---:|---:|", "| -1 | 10 | 5/6 | 0.833333333333 |",
                                     "| 4 | 2 | 1/6 | 0.166666666667 |"]
    at = lines.index("### DIE by stake")
    assert lines[at + 2].startswith("| wager | stake | EV |") and lines[at + 4].startswith("| DIE | 2.00 | -0.166667 |")
    assert "### How fast the realised return settles" in lines
    coin_settling = next(line for line in lines if line.startswith("| COIN |  | 0.06"))
    # half-width at N = 1000: 1.959963984540... / sqrt(1000) = 0.0619795...; rounds: ceil(z^2 x 10^6), ceil(z^2 x 10^8)
    assert coin_settling.startswith("| COIN |  | 0.061980 | 0.019600 | 0.006198 | 0.001960 | 0.000620 | 0.000196 |")
    assert coin_settling.endswith("| 3,841,459 | 384,145,883 |")


def test_csv_rows_fill_the_declared_columns():
    rows = csv_rows(toy(), HEADERS)
    coin = [row for row in rows if row[1].startswith("COIN") and not row[1].startswith("COIN +")]
    assert coin[:2] == [["net_result", "COIN", 6, "1/2", "0.500000000000", "-1/1", "-1/2"],
                        ["net_result", "COIN", 6, "1/2", "0.500000000000", "1/1", "1/2"]]
    figures = {row[1]: row for row in coin[2:]}
    # no column holds the figure's name, so the wager says it; figures leave net and contribution blank
    assert figures["COIN: variance"] == ["figure", "COIN: variance", "", "1/1", "1.000000000000", "", ""]
    assert figures["COIN: standard_deviation"][3:5] == ["sqrt(1/1)", "1.000000000000"]
    assert figures["COIN: rounds_to_settle_0.1pp"][2:5] == [3841459, "3841459", "3841459"]
    assert not any(row[1].startswith("DIE: ") and "2.00" in row[1] for row in rows)    # compact: not in the CSV
    named = csv_rows(toy(csv_fields={"bet": "kind", "what": "figure", "net": "wager"}), HEADERS)
    assert ["figure", "variance", "", "", "", "COIN", ""] in named


def test_csv_wager_is_qualified_by_later_labels():
    entry = WagerEntry(("DIE", "2.00"), DIE, "/round_statistics/by_stake/2.00")
    rows = csv_rows(toy(entries=[entry]), HEADERS)
    assert rows[0][:3] == ["net_result", "DIE at stake 2.00", 10]


def test_workbook_sheets_from_the_declaration():
    outcomes = Table(["Bet", "Combinations"], [["COIN", 2]])
    sheets = dict(workbook_sheets(outcomes, toy()))
    assert list(sheets) == ["Outcomes", "Net distribution", "Wager figures", "Combined play", "Settling"]
    assert sheets["Outcomes"] is outcomes
    figures = sheets["Wager figures"]
    assert [row[:4] for row in figures.rows] == [("COIN", None, "/round_statistics/bets/coin", 12),
                                                 ("DIE", None, "/round_statistics/bets/die", 12),
                                                 ("COIN + DIE", None, "/round_statistics/combined/coin_die", 12),
                                                 ("DIE", "2.00", "/round_statistics/by_stake/2.00", 12)]
    die = dict(zip([c.title for c in figures.columns], figures.rows[1]))
    assert (die["EV per initial bet"], die["Variance"], die["SD"], die["Largest net win"], die["RTP"]) == \
        (F(-1, 6), F(125, 36), F(125, 36), 4, F(5, 6))
    assert len(sheets["Net distribution"].rows) == 2 + 2 + 4            # the compact entry has none
    assert len(sheets["Settling"].rows) == 3 * 6 * 2
    combined = sheets["Combined play"]
    assert combined.headers() == ["Bets", "summary.json", "Covariance (exact)", "Covariance", "EV per round (exact)",
                                  "EV per round", "SD per unit wagered (exact)", "SD per unit wagered", "Why"]
    assert combined.rows == (("COIN + DIE", "/round_statistics/combined/coin_die", 0, F(-1, 6), F(161, 144),
                              "independent"),)


def test_share_is_the_probability_and_contribution_of_a_line():
    assert share(2, 12, F(4)) == (F(1, 6), F(2, 3))
