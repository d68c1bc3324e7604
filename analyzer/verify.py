"""`analyzer verify`: re-check a results folder by independent means, pass or fail.

For each results folder (results/<game>/<rule set>/):
1. provenance: every file's sha256 against the manifest, the rule file against the hash
   the manifest names, no file missing or unlisted;
2. totals: the summary's figures recomputed from the strategy file's per-situation numbers
   (every decision must also be the better action by the stored EVs);
3. spot re-enumeration: a seeded random sample of raw situations, each re-counted by
   dealing every continuation explicitly and evaluating each hand directly (no
   card-removal arithmetic, no suit symmetry), must equal the stored exact EV;
4. Monte Carlo: complete rounds dealt from shuffled decks, played with the stored strategy
   through the advisor and settled from the rule file, must put the exact EV inside the
   99.9% interval of the sample mean, for every bet.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer import advisor, montecarlo
from analyzer.errors import InputError
from analyzer.exact import decimal_str, fraction_str, parse_fraction_str
from analyzer.output import MANIFEST_NAME

DEFAULT_SAMPLES = 200
DEFAULT_ROUNDS = {"casino-holdem": 4_000_000, "caribbean-stud": 3_000_000, "baccarat": 4_000_000}


@dataclass(frozen=True)
class CheckOptions:
    """How hard to check: situations re-enumerated, Monte Carlo rounds (None = the game's default), seed."""

    samples: int = DEFAULT_SAMPLES
    rounds: int | None = None
    seed: int = 1


@dataclass
class Check:
    name: str
    passed: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'}  {self.name}: {self.detail}"


@dataclass
class FolderReport:
    folder: Path
    game: str
    checks: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def add(self, name: str, passed: bool, detail: str) -> Check:
        check = Check(name, bool(passed), detail)
        self.checks.append(check)
        return check


def find_folders(paths) -> list[Path]:
    """Results folders (holding a manifest) at or below each path."""
    folders = []
    for path in map(Path, paths):
        if (path / MANIFEST_NAME).is_file():
            folders.append(path)
        elif path.is_dir():
            folders += sorted(p.parent for p in path.glob(f"*/*/{MANIFEST_NAME}") if not p.parent.name.startswith("."))
            folders += sorted(p.parent for p in path.glob(f"*/{MANIFEST_NAME}") if not p.parent.name.startswith("."))
        else:
            raise InputError(f"{path}: no such results folder")
    if not folders:
        raise InputError(f"no results folders (with {MANIFEST_NAME}) under {', '.join(map(str, paths))}")
    return folders


def check_provenance(report: FolderReport, manifest: dict) -> None:
    folder = report.folder
    listed = manifest.get("files", {})
    present = {p.name for p in folder.iterdir() if p.is_file()} - {MANIFEST_NAME}
    report.add("files listed", set(listed) == present,
               f"{len(listed)} in the manifest" + ("" if set(listed) == present else
                                                   f"; missing {sorted(set(listed) - present)}, unlisted {sorted(present - set(listed))}"))
    bad = [name for name, digest in listed.items()
           if name in present and hashlib.sha256((folder / name).read_bytes()).hexdigest() != digest]
    report.add("sha256 of every file", not bad, "all match" if not bad else f"differ: {', '.join(bad)}")
    rule_name = manifest["rule_file"]["name"]
    rule_ok = (folder / rule_name).is_file() and \
        hashlib.sha256((folder / rule_name).read_bytes()).hexdigest() == manifest["rule_file"]["sha256"]
    report.add("rule file", rule_ok, f"{rule_name} sha256 {manifest['rule_file']['sha256'][:16]}...")


def verify_folder(folder: Path, samples: int = DEFAULT_SAMPLES, rounds: int | None = None, seed: int = 1,
                  progress=None) -> FolderReport:
    manifest = json.loads((folder / MANIFEST_NAME).read_text())
    report = FolderReport(folder, manifest["game"])
    check_provenance(report, manifest)
    if not report.passed:
        return report                     # nothing else is worth checking on a damaged folder
    checker = GAME_CHECKS[manifest["game"]]
    checker(report, folder, samples, DEFAULT_ROUNDS[manifest["game"]] if rounds is None else rounds, seed, progress)
    return report


def _summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text())


def _exact(entry: dict) -> Fraction:
    return parse_fraction_str(entry["exact"])


def monte_carlo_checks(report: FolderReport, tallies: dict, exact: dict, seed: int) -> None:
    for bet, tally in tallies.items():
        result = tally.compare(exact[bet])
        report.add(f"monte carlo {bet}", result["passed"],
                   f"seed {seed}, {result['rounds']:,} rounds: mean {decimal_str(result['mean'], 6)}, exact "
                   f"{decimal_str(result['exact'], 6)}, z = {result['z']:.3f}, 99.9% interval "
                   f"[{result['low']:.6f}, {result['high']:.6f}]")


# --- the poker games ---------------------------------------------------------------------

def check_decision_table(report, strategy, summary: dict, stored_p_play: dict, stored_ev_always: dict) -> None:
    """Every decision against its EVs, and the summary's figures recomputed from the file's rows.

    The always-play EV weighs every stored EV, so no single value can change unseen.
    """
    weights = strategy.weights.astype(np.int64)
    play, fold = strategy.ev_play, strategy.ev_fold
    plays = play > fold
    expected_codes = np.where(play == fold, 2, plays.astype(np.uint8))
    flipped = int((strategy.decisions != expected_codes).sum())
    report.add("decisions match EVs", flipped == 0,
               "every decision is the better action" if not flipped else f"{flipped} decisions contradict their EVs")
    total = int(weights.sum())
    ev = Fraction(_exact_dot(weights, np.maximum(play, fold)), total * strategy.denominator)
    ev_always = Fraction(_exact_dot(weights, play), total * strategy.denominator)
    p_play = Fraction(int(weights[plays].sum()), total)
    action = strategy.actions[1]
    report.add("totals from strategy file",
               ev == _exact(summary["strategies"]["optimal"]["ev_per_ante"]) and p_play == _exact(stored_p_play)
               and total == int(summary["enumeration"]["situations"]) and ev_always == _exact(stored_ev_always),
               f"optimal EV per ANTE {fraction_str(ev)}, P({action}) {decimal_str(p_play, 8)}, always-{action} EV "
               f"{fraction_str(ev_always)}, over {total:,} situations")


def _exact_dot(weights: np.ndarray, values: np.ndarray) -> int:
    """Exact sum of weights x values (int64 when the bound allows, else Python integers)."""
    if int(np.abs(values).max(initial=0)) * int(weights.max(initial=0)) * len(values) < 2**63:
        return int((weights * values).sum(dtype=np.int64))
    return sum((weights.astype(object) * values.astype(object)).tolist())


# --- Casino Hold'em ----------------------------------------------------------------------

def check_holdem(report, folder, samples, rounds, seed, progress):
    from analyzer import casino_holdem
    from cython_ext import handeval, holdem_enum
    _, rules = casino_holdem.load_rules(folder / "rules.toml")
    summary = _summary(folder)
    strategy = advisor.load_strategy(folder / advisor.STRATEGY_NAME)
    stored = summary["strategies"]["optimal"]
    check_decision_table(report, strategy, summary, stored["probability_of_calling"],
                         summary["strategies"]["always_call"]["ev_per_ante"])
    rng = random.Random(seed)
    qualifier = handeval.dense_at_least(rules.qualifier_value)
    mismatches = []
    for _ in range(samples):
        cards = rng.sample(rules.cards, 5)
        counts = holdem_enum.deal_one_situation(np.array(cards[:2], dtype=np.uint8), np.array(cards[2:], dtype=np.uint8),
                                                rules.deck_mask, qualifier)
        direct = sum((Fraction(int(counts[c, o])) * rules.net(c, o) for c in range(10) for o in range(4)), Fraction(0)) \
            / int(counts.sum())
        stored_ev = strategy.decide_cards([cards[:2], cards[2:]]).ev["call"]
        if direct != stored_ev:
            mismatches.append(cards)
    report.add("spot re-enumeration", not mismatches,
               f"{samples} random situations (seed {seed}), each dealt out over {rules.continuations:,} continuations"
               + ("" if not mismatches else f"; {len(mismatches)} differ, e.g. cards {mismatches[0]}"))
    if rounds:
        tallies = montecarlo.simulate_holdem(strategy, rules, rounds, seed, progress)
        exact = {"ante_and_call": _exact(stored["ev_per_ante"]), "aa_bonus": _exact(stored["aa_bonus_rtp"]) - 1}
        monte_carlo_checks(report, tallies, exact, seed)


# --- Caribbean Stud ----------------------------------------------------------------------

def check_stud(report, folder, samples, rounds, seed, progress):
    import sympy

    from analyzer import caribbean_stud
    from cython_ext import handeval, stud_enum
    _, rules = caribbean_stud.load_rules(folder / "rules.toml")
    summary = _summary(folder)
    strategy = advisor.load_strategy(folder / advisor.STRATEGY_NAME)
    stored = summary["strategies"]["optimal"]
    check_decision_table(report, strategy, summary, stored["probability_of_raising"],
                         summary["strategies"]["raise_everything"]["ev_per_ante"])
    rng = random.Random(seed)
    qualifier = handeval.dense_at_least(rules.qualifier_value)
    deck = np.array(rules.cards, dtype=np.uint8)
    mismatches = []
    for _ in range(samples):
        cards = rng.sample(rules.cards, 6)
        counts = stud_enum.brute_force_situation(deck, cards[:5], cards[5], qualifier)
        category = handeval.category(handeval.evaluate(cards[:5]))
        direct = sum((Fraction(n) * rules.net(category, o) for o, n in enumerate(counts)), Fraction(0)) / sum(counts)
        if direct != strategy.decide_cards([cards[:5], [cards[5]]]).ev["raise"]:
            mismatches.append(cards)
    report.add("spot re-enumeration", not mismatches,
               f"{samples} random situations (seed {seed}), each dealt out over every dealer completion"
               + ("" if not mismatches else f"; {len(mismatches)} differ, e.g. cards {mismatches[0]}"))
    if rounds:
        tallies = montecarlo.simulate_stud(strategy, rules, rounds, seed, progress)
        rtp = sympy.sympify(summary["progressive"]["rtp_as_function_of_jackpot"])
        fixed = rtp.subs({symbol: 0 for symbol in rtp.free_symbols})
        exact = {"ante_and_raise": _exact(stored["ev_per_ante"]),
                 "progressive_fixed_payouts": Fraction(int(fixed.p), int(fixed.q)) - 1}
        monte_carlo_checks(report, tallies, exact, seed)


# --- Baccarat ----------------------------------------------------------------------------

def check_baccarat(report, folder, samples, rounds, seed, progress):
    from analyzer import baccarat
    _, rules = baccarat.load_rules(folder / "rules.toml")
    summary = _summary(folder)
    strategy = advisor.load_strategy(folder / advisor.STRATEGY_NAME)
    answer = strategy.decide(rules.full_shoe())
    stored = {bet: _exact(summary["bets"][bet]["ev_per_unit"]) for bet in baccarat.BETS}
    report.add("totals from strategy file", answer.ev == stored,
               "EV of each bet on the full shoe, from the strategy file's rules and reference shoes")
    python_counts = baccarat.count_outcomes_python(rules.full_shoe(), rules)
    main = baccarat.MainOutcomes.from_counts(python_counts)
    replayed = {bet: rtp - 1 for bet, rtp in ((b, baccarat.rtp_of(lines))
                                             for b, lines in baccarat.bet_lines(main, rules).items())}
    report.add("spot re-enumeration", replayed == stored,
               f"full shoe re-walked in plain Python integers: {main.total:,} ordered sequences")
    if rounds:
        tallies = montecarlo.simulate_baccarat(rules, rounds, seed, progress)
        monte_carlo_checks(report, tallies, stored, seed)


GAME_CHECKS = {"casino-holdem": check_holdem, "caribbean-stud": check_stud, "baccarat": check_baccarat}


def run(paths, samples=DEFAULT_SAMPLES, rounds=None, seed=1, progress=None, out=print) -> bool:
    """Verify every results folder under paths, printing what was checked; True when all pass."""
    all_passed = True
    for folder in find_folders(paths):
        out(f"== {folder}")
        report = verify_folder(folder, samples, rounds, seed, progress)
        for check in report.checks:
            out("  " + check.line())
        all_passed &= report.passed
    out("verify: " + ("all checks passed" if all_passed else "FAILED"))
    return all_passed
