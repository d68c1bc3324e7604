"""`analyzer design`: exact breakpoints and theta* agree with re-pricing the game at exact payouts,
and the published design answers come out (Baccarat TIE 9 to 1, the Stud progressive's break-even)."""
import contextlib
import importlib
import io
import json
import shlex
from fractions import Fraction
from pathlib import Path

import pytest

import support
from analyzer.cli import DESIGN_EXAMPLES, main
from analyzer.core.errors import InputError
from analyzer.core.exact import percent_str
from analyzer.core.rules import with_value
from analyzer.games import registry
from analyzer.publish import design, pipeline


def answer(game, path, key, **options):
    run = pipeline.Run(Path("."), cache=None)
    return design.solve(registry.game(game), path, key, run, **options)


def optimal_ev(game, rule_file, rules, table, key, theta):
    """The EV per ANTE of optimal play, by pricing the game with the payout set to theta (no design code)."""
    price = importlib.import_module(f"{registry.game(game).package}.price").price
    priced = price(table, type(rules).from_rule_file(with_value(rule_file, key, theta)))
    play, _ = priced.decisions.optimal()
    return priced.decisions.figures("x", "", play).ev


CASES = [("caribbean-stud", ("9TJQKA", "cd"), "raise_pays.one_pair", (Fraction(0), Fraction(3))),
         ("casino-holdem", ("23456A", "cd"), "ante_pays.flush", (Fraction(0), Fraction(6)))]


@pytest.mark.parametrize("game,deck,key,bounds", CASES, ids=[c[0] for c in CASES])
def test_breakpoints_and_pieces_agree_with_repricing(tmp_path, game, deck, key, bounds):
    path = support.reduced_deck(tmp_path, game, *deck)
    lo, hi = bounds
    result = answer(game, path, key, lo=lo, hi=hi)
    info = registry.game(game)
    rule_file, rules = info.load_rules(path)
    table = info.module.count(rules)
    pieces = result["pieces"]
    thetas = result["breakpoints"].thetas()
    assert thetas, "the reduced game should switch somewhere in the range"
    # at, and just either side of, every breakpoint (and the ends), the design's EV equals a re-pricing
    probes = {lo, hi}
    for theta in thetas[:40]:
        probes |= {theta, max(lo, theta - Fraction(1, 10**6)), min(hi, theta + Fraction(1, 10**6))}
    for theta in sorted(probes):
        assert pieces.at(theta).ev == optimal_ev(game, rule_file, rules, table, key, theta), theta
    # a kink at each breakpoint: the slope differs on either side
    for j in range(len(pieces) - 1):
        assert pieces[j].ev.beta != pieces[j + 1].ev.beta


def test_theta_star_meets_the_target_exactly(tmp_path):
    game, deck, key = "caribbean-stud", ("9TJQKA", "cd"), "raise_pays.one_pair"
    path = support.reduced_deck(tmp_path, game, *deck)
    first = answer(game, path, key, lo=Fraction(0), hi=Fraction(3))
    target = (first["pieces"].point(0).rtp + first["pieces"].point(len(first["pieces"])).rtp) / 2
    result = answer(game, path, key, target=target, kind="rtp", lo=Fraction(0), hi=Fraction(3), step=Fraction(1, 2))
    theta = result["solution"].theta
    assert result["pieces"].at(theta).rtp == target
    below, above = result["neighbours"].below, result["neighbours"].above
    assert below.theta <= theta <= above.theta and above.theta - below.theta <= Fraction(1, 2)
    assert (below.theta * 2).denominator == 1 and (above.theta * 2).denominator == 1


def test_baccarat_tie_nine_to_one_is_the_published_house_edge(tmp_path):
    result = answer("baccarat", None, "payouts.tie", target=Fraction(4844, 100000), kind="house_edge",
                    lo=Fraction(7), hi=Fraction(10))
    at_nine = result["pieces"].at(9)
    assert percent_str(-at_nine.ev, 3) == "4.844%"
    assert result["neighbours"].below.theta == 9


def test_stud_progressive_break_even_jackpot(tmp_path):
    """Stake 1, royal 100% of J, straight flush 10% of J, quads 100, full house 75, flush 50, stake not
    returned: the published break-even jackpot is 263,205 to the unit."""
    text = registry.game("caribbean-stud").builtin_rule_paths[0].read_text()
    start = text.index("[progressive]")
    end = text.index("[published]") if "[published]" in text else len(text)
    path = tmp_path / "progressive.toml"
    path.write_text(text[:start] + "[progressive]\nstake = 1\nstake_returned_with_win = false\njackpot_levels = [100000]\n"
                    "\n[progressive.jackpot_share]\nroyal_flush = 1\nstraight_flush = 0.1\n\n[progressive.pays]\n"
                    "four_of_a_kind = 100\nfull_house = 75\nflush = 50\n\n" + text[end:])
    result = answer("caribbean-stud", path, "progressive.jackpot", target=Fraction(1), kind="rtp",
                    lo=Fraction(0), hi=Fraction(10**6))
    theta = result["solution"].theta
    assert round(theta) == 263_205
    assert result["pieces"].at(theta).rtp == 1


def test_design_command_writes_its_report(tmp_path):
    assert main(["design", "baccarat", "--vary", "payouts.tie", "--range", "7", "10", "--target-house-edge", "4.844%",
                 "--out", str(tmp_path), "--quiet"]) == 0
    folder = tmp_path / "designs" / "operator.payouts.tie"
    assert {p.name for p in folder.iterdir()} == {"design.md", "design.json", "breakpoints.csv", "pieces.csv",
                                                  "figure_design.svg", "SHA256SUMS"}
    summary = json.loads((folder / "design.json").read_text())
    assert summary["target"]["printable"]["below"]["theta"]["exact"] == "9/1"


def test_an_unknown_key_is_refused_naming_the_payouts(capsys):
    with pytest.raises(InputError, match="payouts.tie"):
        answer("baccarat", None, "payouts.jackpot")
    assert main(["design", "casino-holdem", "--vary", "call.size", "--quiet", "--no-cache"]) == 2
    assert "ante_pays.flush" in capsys.readouterr().err


def test_aa_bonus_payout_design_agrees_with_repricing(tmp_path):
    """An AA Bonus payout is linear under the main game's optimal play: at every probe its EV equals the
    AA Bonus RTP - 1 that a full re-pricing of the rule file at that payout gives for the optimal calls."""
    game, key = "casino-holdem", "aa_bonus.pays.flush"
    path = support.reduced_deck(tmp_path, game, "23456A", "cd")
    result = answer(game, path, key, lo=Fraction(0), hi=Fraction(40))
    info = registry.game(game)
    rule_file, rules = info.load_rules(path)
    table = info.module.count(rules)
    price = importlib.import_module(f"{info.package}.price")
    assert len(result["pieces"]) == 1 and not result["breakpoints"].thetas()
    for theta in (Fraction(0), Fraction(7, 3), Fraction(25), Fraction(40)):
        priced = price.price(table, type(rules).from_rule_file(with_value(rule_file, key, theta)))
        call, _ = priced.optimal_call()
        figures = price.figures(priced, "optimal", "", call)
        assert result["pieces"].at(theta).ev == figures.aa_rtp - 1, theta


def tie_rtp(theta) -> Fraction:
    """The TIE's RTP on the full shoe with the payout at theta, priced afresh (no design code)."""
    from analyzer.games.baccarat.count import count_shoes
    from analyzer.games.baccarat.price import MainOutcomes, bet_lines, rtp_of
    info = registry.game("baccarat")
    rule_file, rules = info.load_rules()
    main_outcomes = MainOutcomes.from_counts(count_shoes([rules.full_shoe()], rules)[0])
    varied = type(rules).from_rule_file(with_value(rule_file, "payouts.tie", theta))
    return rtp_of(bet_lines(main_outcomes, varied)["tie"])


def test_a_linear_target_is_solved_without_a_range():
    """The TIE's RTP reaches 3 only beyond the default range [0, 16]: the range is doubled to hold it."""
    result = answer("baccarat", None, "payouts.tie", target=Fraction(3), kind="rtp")
    theta = result["solution"].theta
    assert (result["lo"], result["hi"]) == (0, 32) and 16 < theta <= 32
    assert tie_rtp(theta) == 3 and "doubled to [0, 32]" in design.answer_text(result)


def test_exact_far_beyond_int64():
    huge = Fraction(10**30)
    result = answer("baccarat", None, "payouts.tie", target=Fraction(10**20), kind="rtp", lo=Fraction(0), hi=huge)
    assert tie_rtp(result["solution"].theta) == 10**20
    assert result["pieces"].at(huge).rtp == tie_rtp(huge)


def test_the_range_stays_within_the_rule_schema():
    """commission.banker is at most 1 (the schema): the default range stops there, and so does the search."""
    result = answer("baccarat", None, "commission.banker", target=Fraction(3, 2), kind="rtp")
    assert (result["lo"], result["hi"]) == (0, 1) and not result["solution"].reachable
    assert "1 is the most the rule schema allows" in design.answer_text(result)


def test_help_shows_percent_signs_as_typed():
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        assert main(["design", "--help"]) == 0
    assert "%%" not in shown.getvalue() and "95.5%" in shown.getvalue() and "--target-rtp 99%" in shown.getvalue()


EXAMPLES = [shlex.split(line)[1:] for line in DESIGN_EXAMPLES.splitlines()[1:]]


@pytest.mark.parametrize("argv", [a for a in EXAMPLES if a[1] != "casino-holdem"], ids=" ".join)
def test_design_answers_its_own_examples(tmp_path, tmp_path_factory, argv):
    """Every example of `analyzer design --help` meets its target (Casino Hold'em's is left out for time: its
    count alone takes most of a minute here); the progressive's break-even jackpot is 196,959."""
    cache = tmp_path_factory.getbasetemp() / "examples-cache"
    assert main([*argv, "--out", str(tmp_path), "--cache", str(cache), "--quiet"]) == 0
    key = argv[argv.index("--vary") + 1]
    summary = json.loads((tmp_path / "designs" / f"operator.{key}" / "design.json").read_text())
    assert summary["target"]["reachable"]
    if key == "progressive.jackpot":
        assert round(Fraction(summary["target"]["theta"]["exact"])) == 196_959
