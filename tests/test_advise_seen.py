"""`analyzer advise --seen`: one deal's exploit counted on the fly, against a plain brute force to the integer
(tests/plain_seen.py), the strategy file's EVs for no seen card, the colluders' kernel for other seats' cards, and
the command line."""
import json
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import support
from analyzer import advisor
from analyzer.cli import main
from analyzer.core.cards import cards_str, parse_cards
from analyzer.games import registry
from analyzer.poker.seen import combinations_of, play_ev
from cython_ext import collusion, handeval
from plain_seen import holdem_counts, stud_counts

ROOT = Path(__file__).resolve().parent.parent
STUD, HOLDEM = registry.game("caribbean-stud"), registry.game("casino-holdem")
STRATEGIES = {STUD.name: ROOT / "results" / "caribbean_stud" / "operator" / "strategy.bin.gz",
              HOLDEM.name: ROOT / "results" / "casino_holdem" / "operator" / "strategy.bin.gz"}


def deals(rules, rng, n, seats=1, hole=4, own=5, shared=1):
    """n random deals: each seat's own cards, the shared cards (up card, flop), the dealer's hole cards."""
    for _ in range(n):
        cards = rng.sample(list(rules.cards), own * seats + shared + hole)
        yield ([cards[i * own:(i + 1) * own] for i in range(seats)], cards[own * seats:own * seats + shared],
               cards[own * seats + shared:])


@pytest.mark.parametrize("ranks,suits,qualifier", [
    ("9TJQKA", "cd", None),                              # flushes, straights, royal
    ("TJQKA", "cdh", ('category = "one_pair"\nranks = ["J"]')),
    ("23456789TJQKA", "cdhs", None)], ids=["9-A-cd", "T-A-cdh-pair-of-jacks", "full-deck"])   # the full deck
def test_stud_seen_counts_equal_the_brute_force(tmp_path, ranks, suits, qualifier):
    more = [('category = "high_card"\nranks = ["A", "K"]', qualifier)] if qualifier else []
    _, rules = STUD.load_rules(support.reduced_deck(tmp_path, "caribbean-stud", ranks, suits, more=more))
    rng = random.Random(ranks + suits)
    for k in (range(5) if len(rules.cards) < 52 else range(1, 5)):
        for (hand,), up, hole in deals(rules, rng, 4):
            got = STUD.seen.seen_counts(rules, (hand, up), hole[:k])
            assert (got == stud_counts(rules, hand, up, hole[:k])).all(), (k, hand, up, hole)


@pytest.mark.parametrize("ranks,suits,qualifier", [
    ("6789TJQKA", "cd", None),
    ("9TJQKA", "cdh", ('category = "two_pair"\nranks = ["T"]')),
    ("23456789TJQKA", "cdhs", None)],                    # the full deck: K = 2 only (990 continuations)
    ids=["6-A-cd", "9-A-cdh-two-pair-tens", "full-deck"])
def test_holdem_seen_counts_equal_the_brute_force(tmp_path, ranks, suits, qualifier):
    more = [('category = "one_pair"\nranks = ["4"]', qualifier)] if qualifier else []
    _, rules = HOLDEM.load_rules(support.reduced_deck(tmp_path, "casino-holdem", ranks, suits, more=more))
    rng = random.Random(ranks + suits)
    for k in (range(3) if len(rules.cards) < 52 else [2]):
        for (hole,), flop, dealer in deals(rules, rng, 3, hole=2, own=2, shared=3):
            got = HOLDEM.seen.seen_counts(rules, (hole, flop), dealer[:k])
            assert (got == holdem_counts(rules, hole, flop, dealer[:k])).all(), (k, hole, flop, dealer)


@pytest.mark.parametrize("game", [STUD, HOLDEM], ids=lambda game: game.name)
def test_no_seen_card_is_the_strategy_file(game):
    """K = 0 counted on the fly: the play's EV is the strategy file's, exactly, for the test vectors' deals and
    a few random ones."""
    strategy = advisor.load_strategy(STRATEGIES[game.name])
    _, rules = game.seen.load_rules(STRATEGIES[game.name].parent / "rules.toml")
    texts = [list(deal.values()) for deal in game.module.spec_deals["operator"]]
    rng = random.Random(7)
    sizes = [size for _, size in strategy.groups]
    for _ in range(4):
        cards = rng.sample(range(52), sum(sizes))
        texts.append([cards_str(cards[:sizes[0]]), cards_str(cards[sizes[0]:])])
    for text in texts:
        groups = [parse_cards(t) for t in text]
        assert play_ev(rules.paytable, game.seen.seen_counts(rules, groups)) == \
            strategy.decide(*text).ev[strategy.actions[1]], text


def test_other_seats_cards_are_the_colluders_kernel():
    """Other seats' cards known to be out of the dealer's hand: the counts of the colluders' kernel, seat by seat
    (an independent fast path), on the full deck."""
    rng = random.Random(3)
    _, stud = STUD.load_rules()
    for seats in (2, 4):
        for hands, up, _ in deals(stud, rng, 2, seats=seats, hole=0):
            counts, _ = collusion.stud_outcomes(stud.cards, np.array([sum(hands, []) + up], dtype=np.uint8), seats,
                                                stud.qualifier_rank)
            for seat, hand in enumerate(hands):
                others = [c for other in hands if other is not hand for c in other]
                assert (STUD.seen.seen_counts(stud, (hand, up), (), others).sum(axis=0) == counts[0, seat]).all()
    _, holdem = HOLDEM.load_rules()
    for holes, flop, _ in deals(holdem, rng, 2, seats=3, hole=0, own=2, shared=3):
        counts = collusion.holdem_outcomes(holdem.cards, np.array([sum(holes, []) + flop], dtype=np.uint8), 3,
                                           handeval.dense_at_least(holdem.qualifier_value))
        others = [c for hole in holes[1:] for c in hole]
        assert (HOLDEM.seen.seen_counts(holdem, (holes[0], flop), (), others) == counts[0, 0]).all()


def test_combinations_are_itertools():
    for n, r in [(7, 0), (7, 3), (12, 4), (3, 3)]:
        assert combinations_of(n, r).tolist() == [list(c) for c in combinations(range(n), r)]


@pytest.mark.parametrize("argv,seen", [
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "7h 2c"),
    (["caribbean-stud", "--hand", "3h 3d 9s 5c 2h", "--up", "Kc"], "Kd Ks 4c 7d"),
    (["casino-holdem", "--hole", "Ah Kd", "--flop", "Qs 9h 2c"], "Qd"),
    (["casino-holdem", "--hole", "7c 2d", "--flop", "Ks Qs 9h"], "Th 3s")])
def test_advise_seen_answers_the_exploit_beside_the_honest_answer(capsys, argv, seen):
    game = registry.game(argv[0])
    assert main(["advise", *argv, "--results", str(ROOT / "results"), "--seen", seen, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    strategy = advisor.load_strategy(STRATEGIES[game.name])
    honest = strategy.decide(argv[2], argv[4])
    _, rules = game.seen.load_rules(STRATEGIES[game.name].parent / "rules.toml")
    play = play_ev(rules.paytable, game.seen.seen_counts(rules, [parse_cards(argv[2]), parse_cards(argv[4])],
                                                         parse_cards(seen)))
    fold, play_name = strategy.actions
    assert answer["honest"] == honest.as_json() and answer["seen"] == seen.split()
    assert answer["ev"] == {fold: "-1/1", play_name: f"{play.numerator}/{play.denominator}"}
    assert answer["decision"] == (play_name if play > -1 else fold)
    assert answer["rule_set"] == "operator"
    assert main(["advise", *argv, "--results", str(ROOT / "results"), "--seen", seen]) == 0
    assert f"seeing {seen}: {answer['decision'].upper()}" in capsys.readouterr().out


@pytest.mark.parametrize("argv,seen,words", [
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "Ah", ["Ah", "the hand", "the seen cards"]),
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "Qd", ["Qd", "the up card"]),
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "7h 7h", ["7h", "twice"]),
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "7h 7c 7d 7s 6h", ["5 seen", "at most 4"]),
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], "7x", ["7x"]),
    (["caribbean-stud", "--hand", "Ah Kd 9s 5c 2h", "--up", "Qd"], " ", ["--seen", "no card"]),
    (["casino-holdem", "--hole", "Ah Kd", "--flop", "Qs 9h 2c"], "9h", ["9h", "the flop"]),
    (["casino-holdem", "--hole", "Ah Kd", "--flop", "Qs 9h 2c"], "Kd", ["Kd", "the hole cards"]),
    (["casino-holdem", "--hole", "Ah Kd", "--flop", "Qs 9h 2c"], "2d 3d 4d", ["3 seen", "at most 2"])])
def test_seen_cards_that_clash_are_refused(capsys, argv, seen, words):
    assert main(["advise", *argv, "--results", str(ROOT / "results"), "--seen", seen]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


ANSWERS_LIGHTLY = """
import importlib.abc, json, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("matplotlib", "sympy"):
            raise ImportError(f"{name} is not available here")
sys.meta_path.insert(0, Blocked())
from analyzer import advisor
stud, holdem = sys.argv[1:3]
answers = [advisor.decide_seen(advisor.load_strategy(stud), stud, ["Ah Kd 9s 5c 2h", "Qd"], "7h").as_json(),
           advisor.decide_seen(advisor.load_strategy(holdem), holdem, ["Ah Kd", "Qs 9h 2c"], "Qd").as_json()]
games = sorted(name for name in sys.modules if name.startswith("analyzer.games."))
print(json.dumps({"answers": answers, "games": games}))
"""


def test_the_advisor_sees_cards_without_counting_matplotlib_or_sympy():
    """--seen reaches the game's light `seen` module through the registry: no game's counting, analyses or face,
    no matplotlib, no sympy."""
    paths = [str(STRATEGIES[STUD.name]), str(STRATEGIES[HOLDEM.name])]
    run = subprocess.run([sys.executable, "-c", ANSWERS_LIGHTLY, *paths], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert {"analyzer.games.caribbean_stud.seen", "analyzer.games.casino_holdem.seen"} <= set(seen["games"])
    assert not any(name.endswith((".count", ".analysis", ".outputs", ".checks", ".game", ".protection"))
                   for name in seen["games"])
    assert seen["answers"][0] == advisor.decide_seen(advisor.load_strategy(paths[0]), paths[0],
                                                     ["Ah Kd 9s 5c 2h", "Qd"], "7h").as_json()
