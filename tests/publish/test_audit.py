"""`analyzer audit`: logs generated from known strategies (honest, a hole-carder seeing one dealer card, colluders
pooling their seats, a random player) judged as such, exact gains, and the report files."""
import csv
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import plain_seen
import support
from analyzer import advisor
from analyzer.cli import main
from analyzer.core.cards import cards_str
from analyzer.games import registry
from analyzer.poker.seen import play_ev
from analyzer.publish import audit
from analyzer.publish.folder import SUMS_NAME
from cython_ext import collusion, handeval

ROOT = Path(__file__).resolve().parents[2]
HOLDEM_BOARD = 5


class Game:
    """One poker game's way of dealing a logged round and of playing it."""

    def __init__(self, name, own, shared, hole, folder):
        self.entry = registry.game(name)
        self.own, self.shared, self.hole = own, shared, hole
        self.strategy = advisor.load_strategy(ROOT / "results" / folder / "operator" / "strategy.bin.gz")
        _, self.rules = self.entry.load_rules()
        self.fold, self.play = self.entry.seen.ACTIONS

    def deal(self, rng, seats):
        """(each seat's own cards, the shared cards (the up card; the whole board), the dealer's hole cards)."""
        shared = self.shared + (HOLDEM_BOARD - self.shared if self.name == "casino-holdem" else 0)
        cards = rng.sample(list(self.rules.cards), self.own * seats + shared + self.hole)
        hands = [cards[i * self.own:(i + 1) * self.own] for i in range(seats)]
        return hands, cards[self.own * seats:self.own * seats + shared], cards[self.own * seats + shared:]

    @property
    def name(self):
        return self.entry.name

    def row(self, round_id, player, own, shared, hole, decision):
        if self.name == "caribbean-stud":
            return [round_id, player, cards_str(own), f"{cards_str(shared)}* {cards_str(hole)}", decision]
        return [round_id, player, cards_str(own), cards_str(shared), cards_str(hole), decision]

    def honest(self, own, shared):
        answer = self.strategy.decide(cards_str(own), cards_str(shared[:self.shared]))
        return self.fold if answer.decision == "either" else answer.decision

    def exploit_ev(self, own, shared, seen):
        return play_ev(self.rules.paytable, self.entry.seen.seen_counts(self.rules, (own, shared[:self.shared]), seen))

    def pooled(self, hands, shared):
        """Each seat's decision when the seats pool their cards: by the colluders' kernel."""
        row = np.array([sum(hands, []) + shared[:self.shared]], dtype=np.uint8)
        if self.name == "caribbean-stud":
            counts, categories = collusion.stud_outcomes(self.rules.cards, row, len(hands), self.rules.qualifier_rank)
            per_seat = [np.eye(10, dtype=np.int64)[categories[0, s]][:, None] * counts[0, s] for s in range(len(hands))]
        else:
            counts = collusion.holdem_outcomes(self.rules.cards, row, len(hands),
                                               handeval.dense_at_least(self.rules.qualifier_value))
            per_seat = [counts[0, s].astype(np.int64) for s in range(len(hands))]
        return [self.play if play_ev(self.rules.paytable, c) > -1 else self.fold for c in per_seat]


# per game: own cards, shared cards (up card, flop), dealer's hole cards, results folder, rounds, colluding seats
LOGS = {"caribbean-stud": (5, 1, 4, "caribbean_stud", 24, 2), "casino-holdem": (2, 3, 2, "casino_holdem", 6, 3)}


@pytest.fixture(scope="module", params=list(LOGS))
def logged(request, tmp_path_factory):
    """A log of known players and its audit: `honest`, `carder` (sees the dealer's first hole card and plays the
    exploit), `random`, and `c1`, `c2`, ... pooling their seats of a round; with what the carder knew.  Every other
    round of the carder and of the colluders is dealt so that their leak changes a decision."""
    name = request.param
    own, shared, hole, folder, rounds, colluders = LOGS[name]
    game = Game(name, own, shared, hole, folder)
    rng = random.Random(name)
    header = ["round", "player", *game.entry.seen.LOG_COLUMNS, "decision"]
    rows, truth = [], {}

    def carder(own_cards, shared_cards, hole_cards):
        ev = game.exploit_ev(own_cards, shared_cards, hole_cards[:1])
        return game.play if ev > -1 else game.fold, ev

    def dealt(seats, differs):
        """A deal where the leak changes a decision (so that every few rounds show one), tried a few hundred times."""
        for _ in range(500):
            deal = game.deal(rng, seats)
            if differs(*deal):
                return deal
        raise AssertionError("no deal found where the leak changes a decision")

    for r in range(rounds):
        for player in ("honest", "carder", "random", "random", "random"):
            if player == "carder" and r % 2 == 0:
                (own_cards,), shared_cards, hole_cards = dealt(1, lambda hands, shared, hole: carder(
                    hands[0], shared, hole)[0] != game.honest(hands[0], shared))
            else:
                (own_cards,), shared_cards, hole_cards = game.deal(rng, 1)
            if player == "honest":
                decision = game.honest(own_cards, shared_cards)
            elif player == "carder":
                decision, ev = carder(own_cards, shared_cards, hole_cards)
                truth[len(rows) + 2] = (hole_cards[:1], abs(ev + 1))         # by the line of the log
            else:
                decision = rng.choice([game.fold, game.play])
            rows.append(game.row(f"{player}{r}.{len(rows)}", player, own_cards, shared_cards, hole_cards, decision))
        hands, shared_cards, hole_cards = dealt(colluders, lambda hands, shared, hole: game.pooled(hands, shared) != [
            game.honest(hand, shared) for hand in hands]) if r % 2 == 0 else game.deal(rng, colluders)
        for seat, (hand, decision) in enumerate(zip(hands, game.pooled(hands, shared_cards))):
            rows.append(game.row(f"pooled{r}", f"c{seat + 1}", hand, shared_cards, hole_cards, decision))
    path = tmp_path_factory.mktemp("logs") / f"{name}.csv"
    path.write_text(support_csv(header, rows))
    return game, audit.run(game.entry, path), truth, path


def support_csv(header, rows) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    return out.getvalue()


def by_player(report, player):
    return [v for v in report.verdicts if v.entry.player == player]


def test_an_honest_player_is_honest_optimal_throughout(logged):
    game, report, _, _ = logged
    verdicts = by_player(report, "honest")
    assert verdicts and all(v.category == audit.HONEST and v.gain == 0 == v.cost for v in verdicts)
    totals = report.players()["honest"]
    assert totals["categories"][audit.HONEST] == totals["decisions"] == len(verdicts) and totals["gain"] == 0


def test_a_hole_carders_differing_decisions_are_explained_only_by_one_seen_card(logged):
    """His decisions that honest play would not take are explained by seen-1 (the card he saw is one of those that
    explain it); each gain is at most what the card he saw gave him, and they add up to his total."""
    game, report, truth, _ = logged
    differing = 0
    for verdict in by_player(report, "carder"):
        seen, true_gain = truth[verdict.entry.line]
        honest = game.honest(list(verdict.entry.deal.own), list(verdict.entry.deal.groups[1]))
        if game.entry.seen.ACTIONS[verdict.entry.decision] == honest or verdict.honest_play == -1:
            assert verdict.category == audit.HONEST
            continue
        differing += 1
        assert verdict.category == audit.LEAK and verdict.leaks[0] == "seen-1" and len(verdict.seen) == 1
        assert 0 <= verdict.gain <= true_gain and verdict.cost > 0
    assert differing >= 2
    totals = report.players()["carder"]
    assert totals["by_leak"] == {"seen-1": differing} and totals["categories"][audit.NEITHER] == 0
    assert totals["gain"] == sum(v.gain for v in by_player(report, "carder")) > 0


def test_colluders_are_explained_by_collusion(logged):
    game, report, _, _ = logged
    verdicts = [v for v in report.verdicts if v.entry.player.startswith("c") and v.entry.player != "carder"]
    assert all(v.category == audit.HONEST or audit.COLLUSION in v.leaks for v in verdicts)
    assert any(audit.COLLUSION in v.leaks for v in verdicts)
    assert all(v.category != audit.NEITHER for v in verdicts)


def test_a_random_player_is_often_neither(logged):
    """A random player's deviations: some explained by no leak (others by a leak that would have made them right)."""
    game, report, _, _ = logged
    totals = report.players()["random"]
    assert totals["categories"][audit.NEITHER] >= 2 and totals["categories"][audit.HONEST] < 0.8 * totals["decisions"]
    assert totals["cost"] > 0 and report.players()["carder"]["categories"][audit.NEITHER] == 0


@pytest.mark.parametrize("logged", ["caribbean-stud"], indirect=True)     # Hold'em's plain brute force: minutes
def test_gains_are_the_plain_brute_forces(logged):
    """For a few leak-explained decisions of the Caribbean Stud log: the gain is the plain brute force's, given the
    cards the verdict names."""
    game, report, _, _ = logged
    checked = 0
    for verdict in [v for v in report.verdicts if v.category == audit.LEAK and v.seen][:4]:
        ev = plain_seen.play_ev(game.name, game.rules, verdict.entry.deal.groups, verdict.seen)
        assert verdict.gain == (ev + 1 if verdict.entry.decision == audit.PLAY else -(ev + 1))
        checked += 1
    assert checked


def test_the_report_files(logged, tmp_path, capsys):
    """--out writes audit.md, audit.csv and audit.json, and --json prints the same document; the JSON holds every
    decision and player with exact figures; an audit replaces an earlier audit's folder, not a folder of other
    files."""
    game, report, _, path = logged
    out = tmp_path / "audit"
    assert main(["audit", game.name, str(path), "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == audit.as_json(report)
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(files) == sorted(audit.FILES + (SUMS_NAME,))
    document = json.loads(files["audit.json"])
    assert document == audit.as_json(report) and len(document["decisions"]) == len(report.verdicts)
    assert [p["player"] for p in document["players"]][:4] == ["honest", "carder", "random", "c1"]
    carder = next(p for p in document["players"] if p["player"] == "carder")
    assert Fraction(carder["gain"]["exact"]) == report.players()["carder"]["gain"]
    rows = list(csv.DictReader(io.StringIO(files["audit.csv"].decode())))
    assert [int(r["line"]) for r in rows] == [v.entry.line for v in report.verdicts]
    assert sum(Fraction(r["gain"]) for r in rows if r["player"] == "carder") == report.players()["carder"]["gain"]
    assert "| carder |" in files["audit.md"].decode()
    (out / "audit.md").write_text("an earlier audit")
    audit.write(report, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == files
    (out / "notes.txt").write_text("mine")
    assert main(["audit", game.name, str(path), "--out", str(out)]) == 2
    assert "notes.txt" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "mine" and (out / "audit.md").read_bytes() == files["audit.md"]


def test_a_reduced_deck_with_rules(tmp_path):
    """--rules: the audit prices under that rule file (a reduced deck): its EVs are the plain brute force's."""
    rules_path = support.reduced_deck(tmp_path, "caribbean-stud", "9TJQKA", "cd")
    log = tmp_path / "small.csv"
    log.write_text("round,player,hand,dealer,decision\n1,a,Ac Kc Qd Jd 9c,Ad* Kd Tc Td Qc,raise\n"
                   "2,a,9c 9d Tc Td Kc,Ad* Ac Kd Qd Jc,fold\n")
    report = audit.run(registry.game("caribbean-stud"), log, rules_path)
    _, rules = registry.game("caribbean-stud").load_rules(rules_path)
    for verdict in report.verdicts:
        assert verdict.honest_play == plain_seen.play_ev("caribbean-stud", rules, verdict.entry.deal.groups)
