"""`analyzer protect`: the command on reduced decks (every poker scenario, edge sorting on the full shoe), the folder
layout, the JSON's exact figures against the games' own results, the report with its anchors, the refusals, and the
committed results/protection against a regeneration (Caribbean Stud K = 4, a few seconds)."""
import hashlib
import json
from fractions import Fraction
from importlib.util import find_spec
from pathlib import Path

import pytest

import support
from analyzer.cli import main
from analyzer.core.execution import SerialExecutor
from analyzer.figures.protection import load_anchors
from analyzer.games import registry
from analyzer.games.baccarat.edge_sorting import count_first_cards, edge_sort
from analyzer.games.caribbean_stud import collusion as stud_collusion
from analyzer.games.caribbean_stud.count import count_classes
from analyzer.games.caribbean_stud.price import price
from analyzer.games.caribbean_stud.protection import seen_dealer_cards
from test_bad_input import refused

RESULTS = Path(__file__).parents[2] / "results" / "protection"
STUD, HOLDEM, BACCARAT = (registry.game(name) for name in ("caribbean-stud", "casino-holdem", "baccarat"))
HOLDEM_SEEN = find_spec("analyzer.games.casino_holdem.protection") is not None


def protect(capsys, *argv):
    """Run `analyzer protect ... --json --quiet`: its JSON object."""
    assert main(["protect", *map(str, argv), "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def exact(document, key):
    return Fraction(document["figures"][key]["exact"])


@pytest.fixture(scope="module")
def stud_rules(tmp_path_factory):
    """A reduced Caribbean Stud deck: clubs and diamonds, 7 to A (16 cards: two seats can pool)."""
    return support.reduced_deck(tmp_path_factory.mktemp("rules"), "caribbean-stud", "789TJQKA", "cd")


def test_stud_dealer_cards_folders_json_and_report(capsys, tmp_path, stud_rules):
    """Every K: the folder's files, its SHA256SUMS, the JSON's exact figures equal to seen_dealer_cards', the
    report listing K = 0..4 with every figure it shows taken from the folders."""
    _, rules = STUD.load_rules(stud_rules)
    table = count_classes(rules.cards, rules.qualifier_rank, SerialExecutor(1))
    rule_set = tmp_path / "out" / "protection" / "caribbean_stud" / "small"
    for k in range(1, 5):
        document = protect(capsys, "caribbean-stud", "--rules", stud_rules, "--dealer-cards", k,
                           "--out", tmp_path / "out")["small"]
        folder = rule_set / f"dealer-cards-{k}"
        assert Path(document["folder"]) == folder
        assert sorted(p.name for p in folder.iterdir()) == ["SHA256SUMS", "protection.json", "protection.md",
                                                           "protection.xlsx", "rules.toml"]
        for line in (folder / "SHA256SUMS").read_text().splitlines():
            digest, name = line.split("  ")
            assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
        assert json.loads((folder / "protection.json").read_text())["figures"] == document["figures"]
        result = seen_dealer_cards(rules, table, k)
        assert exact(document, "player_edge") == result.ev and exact(document, "gain") == result.gain
        assert exact(document, "house_edge") == -result.ev and exact(document, "rtp") == result.rtp
        assert exact(document, "disagreement") == result.disagreement
        assert exact(document, "variance") == result.statistics.variance
        assert document["command"] == f"analyzer protect caribbean-stud --rules {stud_rules.name} --dealer-cards {k}"
        for figure in document["figures"].values():
            assert Fraction(figure["exact"]) and "estimate" not in figure
    report = (rule_set / "report.md").read_text()
    for k in range(5):
        assert f"| dealer-cards-{k} |" in report
    honest = seen_dealer_cards(rules, table, 0).ev
    assert str(honest.numerator) + "/" + str(honest.denominator) in report
    assert {p.name for p in rule_set.iterdir()} == {"report.md", "report.html", "report.xlsx",
                                                   *(f"dealer-cards-{k}" for k in range(1, 5))}
    assert "<table>" in (rule_set / "report.html").read_text()


def test_stud_jobs_give_the_same_files(capsys, tmp_path, stud_rules):
    """--jobs 2 (chunks on worker processes) writes the same bytes as one process."""
    folders = []
    for name, more in (("serial", []), ("jobs", ["--jobs", 2])):
        protect(capsys, "caribbean-stud", "--rules", stud_rules, "--dealer-cards", 2, "--out", tmp_path / name, *more)
        folders.append(tmp_path / name / "protection" / "caribbean_stud" / "small" / "dealer-cards-2")
    assert [(folders[0] / n).read_bytes() for n in ("SHA256SUMS", "protection.json")] == \
           [(folders[1] / n).read_bytes() for n in ("SHA256SUMS", "protection.json")]


def test_stud_colluders_are_estimates(capsys, tmp_path, stud_rules):
    """Colluders: labelled estimates with a 99.9% interval, never an exact value; reproducible by seed; the
    mean equal to the estimator's."""
    document = protect(capsys, "caribbean-stud", "--rules", stud_rules, "--colluders", 2, "--deals", 300, "--seed",
                       5, "--out", tmp_path / "out")["small"]
    edge = document["figures"]["player_edge"]
    assert "exact" not in edge and edge["confidence"] == "99.9%"
    low, high = map(Fraction, edge["interval"])
    assert low <= Fraction(edge["estimate"]) <= high
    _, rules = STUD.load_rules(stud_rules)
    estimate = stud_collusion.estimate(price(count_classes(rules.cards, rules.qualifier_rank), rules), 2, 300, 5)
    assert edge["interval"] == list(estimate.seat_average.interval())
    assert document["command"].endswith("--colluders 2 --deals 300 --seed 5")
    assert exact(document, "honest_ev") == estimate.honest_ev
    assert "ESTIMATES" in (Path(document["folder"]) / "protection.md").read_text()


def test_holdem_colluders_and_dealer_cards(capsys, tmp_path):
    """Casino Hold'em colluders on a reduced deck (the AA Bonus noted as unchanged); its seen dealer cards run
    where the count is built, and are refused in one line where it is not."""
    rules = support.reduced_deck(tmp_path, "casino-holdem", "6789TJQKA", "cd")
    document = protect(capsys, "casino-holdem", "--rules", rules, "--colluders", 3, "--deals", 200,
                       "--out", tmp_path / "out")["small"]
    assert "estimate" in document["figures"]["player_edge"] and "AA Bonus" in document["notes"][0]
    if HOLDEM_SEEN:
        document = protect(capsys, "casino-holdem", "--rules", rules, "--dealer-cards", 1,
                           "--out", tmp_path / "out")["small"]
        assert exact(document, "gain") >= 0
    else:
        refused(capsys, ["protect", "casino-holdem", "--rules", rules, "--dealer-cards", 1, "--out", tmp_path / "out"],
                "--dealer-cards", "not in this build", out=tmp_path / "out")


def test_baccarat_edge_sort_and_anchor(capsys, tmp_path):
    """Edge sorting on the operator's shoe: the JSON's figures are edge_sort's, and the report sets the published
    6.765% beside them, exact minus published."""
    document = protect(capsys, "baccarat", "--edge-sort", "--cards", 1, "--out", tmp_path)["operator"]
    _, rules = BACCARAT.load_rules()
    result = edge_sort(count_first_cards(rules.full_shoe(), rules), rules, {6, 7, 8, 9}, 1)
    assert exact(document, "player_edge") == result.edge and exact(document, "gain") == result.gain
    assert document["scenario"] == "edge-sort-6789-k1"
    anchor = next(a for a in load_anchors(BACCARAT.protection_anchors).entries if a.scenario == "edge-sort-6789-k1")
    difference = result.edge - anchor.published
    report = (tmp_path / "protection" / "baccarat" / "operator" / "report.md").read_text()
    assert f"{difference.numerator}/{difference.denominator}" in report and "6.765%" in report


@pytest.mark.parametrize("argv,words", [
    (["caribbean-stud", "--dealer-cards", 0], ["--dealer-cards 0", "K = 1..4"]),
    (["caribbean-stud", "--dealer-cards", 5], ["--dealer-cards 5", "K = 1..4"]),
    (["casino-holdem", "--dealer-cards", 3], ["--dealer-cards 3", "K = 1..2"]),
    (["caribbean-stud", "--colluders", 1], ["--colluders 1", "2 to 7"]),
    (["caribbean-stud", "--colluders", 8], ["--colluders 8", "2 to 7"]),
    (["casino-holdem", "--colluders", 7], ["--colluders 7", "2 to 6"]),
    (["caribbean-stud", "--colluders", 3, "--deals", 1], ["--deals", "at least 2"]),
    (["baccarat", "--edge-sort", "0123456789"], ["some but not all"]),
    (["baccarat", "--edge-sort", ""], ["--edge-sort", "digits"]),
    (["baccarat", "--edge-sort", "6789", "--cards", 5], ["--cards 5"]),
    (["baccarat", "--edge-sort", "6789", "--cards", 0], ["--cards 0"]),
    (["baccarat", "--best-grouping", "--cards", 2], ["--cards", "--best-grouping"]),
    (["baccarat"], ["one of the arguments"]),
    (["caribbean-stud", "--dealer-cards", 1, "--colluders", 2], ["not allowed with"]),
], ids=lambda value: "-".join(map(str, value)) if isinstance(value, list) else None)
def test_bad_input_is_refused(capsys, tmp_path, argv, words):
    out = tmp_path / "out"
    out.mkdir()
    refused(capsys, ["protect", *argv, "--out", out], *words, out=out)


def test_reduced_deck_colluders_out_of_its_range(capsys, tmp_path, stud_rules):
    """A deck too small for three Caribbean Stud seats: refused, naming the seats it can hold."""
    refused(capsys, ["protect", "caribbean-stud", "--rules", stud_rules, "--colluders", 3, "--out", tmp_path],
            "--colluders 3", "2 to 2", out=tmp_path)


def test_committed_results_match_a_regeneration(capsys, tmp_path):
    """Caribbean Stud K = 4 of both built-in rule sets regenerated: the same bytes as committed; every committed
    scenario folder's files match its SHA256SUMS."""
    protect(capsys, "caribbean-stud", "--dealer-cards", 4, "--out", tmp_path, "--no-cache")
    for rule_set in ("operator", "standard"):
        for name in ("SHA256SUMS", "protection.json", "protection.md"):
            committed = RESULTS / "caribbean_stud" / rule_set / "dealer-cards-4" / name
            assert (tmp_path / "protection" / "caribbean_stud" / rule_set / "dealer-cards-4" / name).read_bytes() \
                == committed.read_bytes(), committed
    sums = sorted(RESULTS.glob("*/*/*/SHA256SUMS"))
    assert sums
    for path in sums:
        for line in path.read_text().splitlines():
            digest, name = line.split("  ")
            assert hashlib.sha256((path.parent / name).read_bytes()).hexdigest() == digest, path.parent / name


def test_a_folder_the_analyzer_did_not_write_is_refused(capsys, tmp_path):
    """A scenario's place holding the user's own folder: refused before any work, nothing written."""
    mine = tmp_path / "protection" / "baccarat" / "operator" / "edge-sort-6789-k1"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine")
    refused(capsys, ["protect", "baccarat", "--edge-sort", "--out", tmp_path], str(mine), "SHA256SUMS", out=tmp_path)


def test_the_default_cache_is_made_ready_and_kept(capsys, tmp_path, stud_rules):
    """With the default OUT/.cache, the honest count is kept there without a word on stderr, and a second
    scenario of the same deck reads it back."""
    out = tmp_path / "out"
    protect(capsys, "caribbean-stud", "--rules", stud_rules, "--dealer-cards", 1, "--out", out)
    assert capsys.readouterr().err == ""
    cached = [p.name for p in (out / ".cache").iterdir() if p.name != "CACHEDIR.TAG"]
    assert len(cached) == 1
    protect(capsys, "caribbean-stud", "--rules", stud_rules, "--dealer-cards", 2, "--out", out)
    assert capsys.readouterr().err == ""
