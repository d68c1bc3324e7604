"""par_sheet.xlsx read back with openpyxl: every exact cell equals summary.json; the same analysis, the same bytes."""
import io
import json
from fractions import Fraction

import pytest

from analyzer.figures.par import FIGURES
from analyzer.games.casino_holdem import outputs as holdem_outputs
from analyzer.publish import pipeline
from analyzer.publish.workbook import spreadsheet_number, spreadsheet_root

openpyxl = pytest.importorskip("openpyxl")

SHEETS = ["Outcomes", "Net distribution", "Wager figures", "Combined play", "Settling", "Rules analysed"]


def read(folder):
    book = openpyxl.load_workbook(io.BytesIO((folder / "par_sheet.xlsx").read_bytes()))
    summary = json.loads((folder / "summary.json").read_text())
    sheets = {}
    for sheet in book.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        sheets[sheet.title] = [dict(zip(rows[0], row)) for row in rows[1:]]
    return book, sheets, summary


def at(summary, pointer):
    """The node a JSON Pointer (RFC 6901: "/a/b") names; the workbook's summary.json column holds them."""
    node = summary
    for key in pointer.lstrip("/").split("/"):
        node = node[key.replace("~1", "/").replace("~0", "~")]
    return node


def exact_of(node):
    """A figure's exact text: "p/q", or for a root the "p/q" under it."""
    return node["exact"] if "exact" in node else node["sqrt_of"]


def assert_cell(row, title, node, root=False):
    """The text cell "T (exact)" is the summary's exact value; the number cell "T" is derived from it."""
    text = exact_of(node)
    assert row[f"{title} (exact)"] == (f"sqrt({text})" if root else text), title
    num, den = map(int, text.split("/"))
    expected = (spreadsheet_root if root else spreadsheet_number)(Fraction(num, den))
    assert row[title] == expected, title


HOLDEM_COMBINED = {"AA Bonus stake per ANTE": "/round_statistics/aa_bonus_stake_per_ante",
                   "EV ANTE + CALL": "..main.ev_per_initial_bet", "EV AA Bonus": "..aa_bonus.ev_per_initial_bet",
                   "Covariance": "..covariance_main_aa_bonus", "EV combined": ".ev_per_initial_bet",
                   "Variance combined": ".variance", "SD combined": ".standard_deviation",
                   "Mean wagered": ".mean_wagered", "RTP": ".rtp", "SD per unit wagered": ".sd_per_unit_wagered"}
STUD_COMBINED = {"EV ANTE + raise": "/round_statistics/strategies/{strategy}/main/ev_per_initial_bet",
                 "EV progressive": "/round_statistics/progressive/at_jackpot/{jackpot}/ev_per_initial_bet",
                 "Covariance": ".covariance_main_progressive", "EV combined": ".ev_per_initial_bet",
                 "Variance combined": ".variance", "RTP": ".rtp"}
BACCARAT_COMBINED = {"Covariance": "/round_statistics/covariance/{pair}", "EV per round": ".ev_per_initial_bet",
                     "Variance": ".variance", "SD": ".standard_deviation", "RTP": ".rtp",
                     "SD per unit wagered": ".sd_per_unit_wagered"}
ROOTS = {"SD", "SD combined", "SD per unit wagered"}


def combined_node(summary, row, spec):
    """The summary figure a Combined play cell stands for: '.x/y' below the row's pointer, '..x/y' beside it."""
    path = row["summary.json"]
    if spec.startswith(".."):
        return at(summary, path.rsplit("/", 1)[0] + "/" + spec[2:].replace(".", "/"))
    if spec.startswith("."):
        return at(summary, path + "/" + spec[1:].replace(".", "/"))
    names = {"strategy": row.get("Strategy"), "jackpot": row.get("Jackpot"), "pair": path.rsplit("/", 1)[-1]}
    return at(summary, spec.format(**names))


def check_workbook(folder, combined_spec):
    book, sheets, summary = read(folder)
    assert book.sheetnames == SHEETS
    # every wager's figures
    for row in sheets["Wager figures"]:
        entry = at(summary, row["summary.json"])
        assert str(row["Rounds counted"]) == entry["rounds_counted"]
        for field, (title, kind, _) in FIGURES.items():
            node = entry
            for key in field.split("."):
                node = None if node is None else node[key]
            if node is None:
                assert row[f"{title} (exact)"] is None
                continue
            assert_cell(row, title, node, root=kind == "root")
        rounds = [int(r["rounds"]) for r in entry["rounds_to_settle"]]
        assert [str(row[t]) for t in row if t.startswith("Rounds to settle")] == [str(n) for n in rounds]
    # every net distribution, value by value
    seen = {}
    for row in sheets["Net distribution"]:
        entry = at(summary, row["summary.json"])
        i = seen.get(row["summary.json"], 0)
        seen[row["summary.json"]] = i + 1
        value = entry["net_distribution"][i]
        assert_cell(row, "Net", value["net"])
        assert_cell(row, "Probability", value["probability"])
        assert str(row["Count"]) == value["count"]
    for path, n in seen.items():
        assert len(at(summary, path)["net_distribution"]) == n
    # every settling interval
    seen = {}
    for row in sheets["Settling"]:
        entry = at(summary, row["summary.json"])
        i = seen.get(row["summary.json"], 0)
        seen[row["summary.json"]] = i + 1
        interval = entry["settling_intervals"][i]
        assert (str(row["Rounds"]), row["Confidence"], row["Half-width"], row["Low"], row["High"]) == \
            (interval["rounds"], interval["confidence"], interval["half_width"], interval["low"], interval["high"])
    # combined play
    assert sheets["Combined play"]
    for row in sheets["Combined play"]:
        for title, spec in combined_spec.items():
            assert_cell(row, title, combined_node(summary, row, spec), root=title in ROOTS)
    return sheets, summary


def test_holdem_workbook_equals_summary(holdem_results):
    sheets, summary = check_workbook(holdem_results, HOLDEM_COMBINED)
    outcomes = [r for r in sheets["Outcomes"] if r["Bet"] == "ANTE + CALL"]
    contribution = sum(Fraction(r["Contribution to EV (exact)"]) for r in outcomes)
    assert f"{contribution.numerator}/{contribution.denominator}" == \
        summary["strategies"]["optimal"]["ev_per_ante"]["exact"]
    assert sum(Fraction(r["Probability (exact)"]) for r in outcomes) == 1
    assert len(sheets["Net distribution"]) > 6 * 40              # 18 wagers, every net value of each


def test_stud_workbooks_equal_summary(stud_results):
    for rule_set in ("operator", "standard"):
        sheets, summary = check_workbook(stud_results / "caribbean_stud" / rule_set, STUD_COMBINED)
        assert len(sheets["Combined play"]) == 6 * 11
        rules = {(r["Section"], r["Key"]): r for r in sheets["Rules analysed"]}
        assert rules[("raise", "size")]["Number (exact)"] == "2/1"


def test_baccarat_workbook_equals_summary(baccarat_results):
    sheets, summary = check_workbook(baccarat_results / "baccarat" / "operator", BACCARAT_COMBINED)
    figures = {(r["Wager"], r["Stake"]): r for r in sheets["Wager figures"]}
    assert figures[("TIE", None)]["SD"] == spreadsheet_root(Fraction(
        *map(int, summary["round_statistics"]["bets"]["tie"]["standard_deviation"]["sqrt_of"].split("/"))))
    assert ("BANKER", "0.10") in figures


def test_the_same_analysis_gives_the_same_workbook(holdem_analysis, holdem_results):
    def sheets():
        return holdem_outputs.workbook_sheets(holdem_analysis, holdem_outputs.par_lines(holdem_analysis),
                                              holdem_outputs.aa_par_lines(holdem_analysis))
    first = pipeline.par_workbook(sheets(), holdem_analysis.rule_file)
    assert first == pipeline.par_workbook(sheets(), holdem_analysis.rule_file)
    assert first == (holdem_results / "par_sheet.xlsx").read_bytes()          # and as published earlier
