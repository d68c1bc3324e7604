"""One 64-bit policy for all games: exact Python integers carry on where they can (figures stay exact);
where a fixed-width file column cannot hold a value, the rule file is refused before any counting,
naming the key and the bound."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.cli import main
from analyzer.core.exact import INT64_MAX, integer_array
from analyzer.games import registry

HUGE = 10**30


def no_counting(monkeypatch, game: str) -> None:
    module = registry.game(game).module

    def refuse(*args, **kwargs):
        raise AssertionError("counted although the rule file was bound to be refused")
    monkeypatch.setattr(module, "count", refuse)


@pytest.mark.parametrize("game,old,new,key", [
    ("caribbean-stud", "royal_flush = 200", f"royal_flush = {HUGE}", "raise_pays.royal_flush"),
    ("caribbean-stud", "size = 2", f"size = {HUGE}", "raise.size"),
    ("casino-holdem", "royal_flush = 100", f"royal_flush = {HUGE}", "ante_pays.royal_flush"),
    ("casino-holdem", "size = 2 ", f"size = {HUGE} ", "call.size"),
    ("casino-holdem", "pays = 1 ", 'pays = "1/1000000000007" ', "call.pays"),          # too fine a fraction
    ("casino-holdem", "royal_flush = 100", "royal_flush = 1e400", "ante_pays.royal_flush"),  # beyond floats
    ("casino-holdem", "flush = 2\n", 'flush = "200000000000003/100000000000001"\n', "ante_pays.flush"),
    ("caribbean-stud", "player_wins = 1", "player_wins = 1e400", "ante_pays.player_wins"),
    ("baccarat", "decks = 8", "decks = 1000", "shoe.decks"),
])
def test_a_value_the_strategy_file_cannot_hold_is_refused_before_counting(tmp_path, capsys, monkeypatch, game, old,
                                                                          new, key):
    path = support.variant(tmp_path, game, [(old, new)])
    no_counting(monkeypatch, game)
    assert main([game, "--rules", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"key '{key}'" in err and "64-bit" in err and "2^63-1" in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


HOLDEM_FINE = 20000000000003        # 102 x this x 4,290 continuations just fits 64 bits; x cells x counts does not
STUD_FINE = 1499999999999999        # 401 x this x 15 completions just fits


@pytest.mark.parametrize("game,ranks,old,new", [
    ("casino-holdem", "6789TJQKA", "flush = 2\n", f'flush = "{2 * HOLDEM_FINE + 1}/{HOLDEM_FINE}"\n'),
    ("caribbean-stud", "9TJQKA", "flush = 6\n", f'flush = "{6 * STUD_FINE + 1}/{STUD_FINE}"\n'),
])
def test_a_value_the_strategy_file_holds_is_analysed(tmp_path, capsys, game, ranks, old, new):
    """A payout as fine as the bound checked before counting allows (largest net x continuations, in 64 bits) is
    analysed: pricing bounds the EV numerators by the same product, not by the largest count x cells."""
    path = support.reduced_deck(tmp_path, game, ranks, "cd", more=[(old, new)])
    assert main([game, "--rules", str(path), "--out", str(tmp_path / "out"), "--check-rounds", "0", "--no-cache",
                 "--quiet"]) == 0, capsys.readouterr().err
    assert main(["verify", str(tmp_path / "out"), "--rounds", "0", "--samples", "5", "--quiet"]) == 0


def test_baccarat_tie_of_10_30_stays_exact_through_the_monte_carlo(tmp_path):
    path = support.variant(tmp_path, "baccarat", [("tie = 8 ", f"tie = {HUGE} ")])
    assert main(["baccarat", "--rules", str(path), "--out", str(tmp_path), "--check-rounds", "20000", "--quiet"]) == 0
    summary = json.loads((tmp_path / "baccarat" / "variant" / "summary.json").read_text())
    tie = Fraction(summary["bets"]["tie"]["rtp"]["exact"])
    p_tie = Fraction(summary["outcomes"]["tie"]["probability"]["exact"])
    assert tie == p_tie * (1 + HUGE)


def test_a_live_shoe_of_1000_decks_is_answered_in_python_integers(tmp_path, capsys):
    path = support.variant(tmp_path, "baccarat", [("decks = 8", "decks = 1000")])
    assert main(["baccarat", "--rules", str(path), "--remove", "5,5,9,K", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["shoe"][0] == 16000 - 1 and answer["decision"] == "banker"
    assert Fraction(answer["ev"]["banker"]).denominator > INT64_MAX          # beyond 64 bits, exact


def test_holdem_aa_bonus_of_10_30_carries_on_exactly(tmp_path):
    """The AA Bonus is not in the strategy file: any payout is analysed, Monte Carlo included."""
    path = support.reduced_deck(tmp_path, "casino-holdem", "6789TJQKA", "cd",
                                more=[("pair_of_aces = 7", f"pair_of_aces = {HUGE}")])
    assert main(["casino-holdem", "--rules", str(path), "--out", str(tmp_path), "--check-rounds", "2000",
                 "--quiet"]) == 0
    summary = json.loads((tmp_path / "casino_holdem" / "small" / "summary.json").read_text())
    assert Fraction(summary["strategies"]["always_call"]["aa_bonus_rtp"]["exact"]) > 10**20


def test_stud_progressive_of_10_30_carries_on_exactly(tmp_path):
    text = registry.game("caribbean-stud").builtin_rule_paths[0].read_text()
    assert "[progressive.pays]" in text
    path = tmp_path / "prog.toml"
    path.write_text(text.replace('rule_set = "operator"', 'rule_set = "prog"')
                    .replace('ranks = "23456789TJQKA"', 'ranks = "9TJQKA"').replace('suits = "cdhs"', 'suits = "cd"')
                    .replace("flush = 15\n", f"flush = {HUGE}\n", 1))
    status = main(["caribbean-stud", "--rules", str(path), "--out", str(tmp_path), "--check-rounds", "2000",
                   "--quiet"])
    assert status == 0


def test_integer_array_widens_exactly_at_the_boundary():
    assert integer_array([INT64_MAX, -INT64_MAX]).dtype == np.int64
    wide = integer_array([INT64_MAX + 1, 0])
    assert wide.dtype == object and int(wide[0]) == INT64_MAX + 1


def test_monte_carlo_settlement_past_64_bits_is_exact():
    """A TIE of 10**30 settles per round in Python integers, the same rounds as with 8 to 1."""
    from analyzer.games.baccarat import checks
    from analyzer.games.baccarat.rules import load_rules
    _, rules = load_rules(registry.game("baccarat").builtin_rule_paths[0])
    import dataclasses
    huge = dataclasses.replace(rules, pays={**rules.pays, "tie": Fraction(HUGE)})
    small, big = checks.simulate(rules, 2000, seed=4)["tie"], checks.simulate(huge, 2000, seed=4)["tie"]
    ties = (small.total + 2000 * small.denominator) // (9 * small.denominator)      # rounds that tied
    assert big.total == (ties * (1 + HUGE) - 2000) * big.denominator
