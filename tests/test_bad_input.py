"""Bad input, tried as a new user would: every one refused with exit 2 and one line naming what is wrong,
no traceback, and the output folder exactly as it was.

The command line is called in-process (`analyzer.cli.main`); runs that must complete use
Baccarat or a reduced deck.  Property-based cases (hypothesis) throw random card strings,
shoe texts and rule-file mutations at it: whatever comes in, the answer is a result
(exit 0) or a one-line refusal (exit 2), never a traceback.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import string
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import support
from analyzer.cli import main
from analyzer.games import registry

BACCARAT_RULES = registry.game("baccarat").builtin_rule_paths[0]


def snapshot(root: Path) -> dict:
    """Every path under root (hidden ones too) with its bytes: what 'unchanged' means."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def refused(capsys, argv, *words, out: Path | None = None) -> str:
    """Run argv; assert exit 2, one line on stderr holding every word, no traceback, `out` unchanged."""
    before = snapshot(out) if out is not None else None
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert status == 2, (argv, captured.out, captured.err)
    assert captured.err.endswith("\n") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and "Error:" not in captured.err.split("error:", 1)[0]
    for word in words:
        assert word in captured.err, (word, captured.err)
    if out is not None:
        assert snapshot(out) == before, "the output folder changed"
    return captured.err


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results root with Baccarat (operator), a reduced-deck Casino Hold'em (clubs and diamonds, 6 to A)
    and a reduced-deck Caribbean Stud (clubs and diamonds, 9 to A)."""
    root = tmp_path_factory.mktemp("bad_input_results")
    support.run_game("baccarat", root)
    path = support.reduced_deck(tmp_path_factory.mktemp("rules"), "casino-holdem", "6789TJQKA", "cd")
    support.run_game("casino-holdem", root, [path])
    path = support.reduced_deck(tmp_path_factory.mktemp("rules"), "caribbean-stud", "9TJQKA", "cd")
    support.run_game("caribbean-stud", root, [path])
    return root


@pytest.fixture
def out(results, tmp_path):
    """A copy of those results to write into (every refusal must leave it unchanged)."""
    target = tmp_path / "out"
    shutil.copytree(results, target)
    return target


def rule_variant(tmp_path, old, new, name="bad.toml", source=BACCARAT_RULES) -> Path:
    text = Path(source).read_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


# --- options, refused while parsing ------------------------------------------------------------

@pytest.mark.parametrize("argv,words", [
    (["baccarat", "--check-rounds", "1"], ["--check-rounds", "at least 100"]),
    (["baccarat", "--check-rounds", "-5"], ["--check-rounds", "at least 0"]),
    (["baccarat", "--check-samples", "-1"], ["--check-samples"]),
    (["baccarat", "--seed", "-1"], ["--seed"]),
    (["baccarat", "--seed", "1.5"], ["--seed", "not a whole number"]),
    (["baccarat", "--check-rounds", "12_000"], ["--check-rounds"]),
    (["verify", "--rounds", "-5"], ["--rounds"]),
    (["verify", "--samples", "-3"], ["--samples"]),
    (["baccarat", "--jobs", "0"], ["--jobs"]),
    (["baccarat", "--jobs", "-1"], ["--jobs"]),
    (["baccarat", "--jobs", "10000"], ["--jobs", "at most"]),
    (["baccarat", "--scheduler", ""], ["--scheduler"]),
    (["baccarat", "--scheduler", "tcp://nohost"], ["--scheduler", "host:port"]),
    (["baccarat", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"], ["--scheduler", "--jobs"]),
    (["sweep", str(BACCARAT_RULES), "--name", "../elsewhere"], ["--name"]),
    (["sweep", str(BACCARAT_RULES), "--name", "x" * 65], ["--name", "at most 64"]),
    (["advise", "baccarat", "--rule-set", "../../etc"], ["--rule-set"]),
    (["casino-holdem", "--aa-ratio", "-1"], ["--aa-ratio"]),
])
def test_options_are_refused_while_parsing(capsys, out, argv, words):
    refused(capsys, [*argv, *(["--out", out] if argv[0] not in ("verify", "advise") else [])], *words, out=out)


TWICE = [
    (["advise", "casino-holdem", "--hole", "Ah Kd", "--hole", "2c 3c", "--flop", "Qs 7h 2d"], "--hole"),
    (["baccarat", "--out", "A", "--out=B"], "--out"),
    (["caribbean-stud", "--rules", BACCARAT_RULES, "--rules", BACCARAT_RULES], "--rules"),
    (["baccarat", "--remove", "5", "--json", "--json"], "--json"),
    (["design", "baccarat", "--vary", "payouts.tie", "--vary", "payouts.player"], "--vary"),
    (["sweep", BACCARAT_RULES, "--name", "a", "--name", "b"], "--name"),
    (["verify", "--seed", "1", "--seed", "1"], "--seed"),
    (["all", "--no-cache", "--no-cache"], "--no-cache"),
]


@pytest.mark.parametrize("argv,option", TWICE, ids=[option for _, option in TWICE])
def test_an_option_given_twice_is_refused_naming_it(capsys, tmp_path, monkeypatch, argv, option):
    monkeypatch.chdir(tmp_path)
    refused(capsys, argv, f"argument {option}", "given twice", out=tmp_path)


def test_every_option_of_every_command_is_taken_once():
    """One place refuses repeats: every option's action, in every subcommand's parser, is the parser's own."""
    import argparse

    from analyzer.cli import build_parser

    def parsers(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)
    for parser in parsers(build_parser()):
        for action in parser._actions:
            if action.option_strings and not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                assert type(action).__name__ == "Once", (parser.prog, action.option_strings)


# --- the output folder, checked before any work ------------------------------------------------

def test_out_that_cannot_hold_results_is_refused_before_any_work(capsys, tmp_path, monkeypatch):
    from analyzer.games.baccarat import game as baccarat_game

    def no_counting(*args, **kwargs):
        raise AssertionError("counted although --out was refused")
    monkeypatch.setattr(baccarat_game, "count", no_counting)
    a_file = tmp_path / "a_file"
    a_file.write_text("mine")
    for where, words in ((a_file, ["a file"]), (a_file / "below", ["a file"]), ("/dev/null", ["not a folder"]),
                         ("/proc/analyzer-results", ["cannot write"]), (tmp_path / ("n" * 300), ["255 bytes"]),
                         (tmp_path.joinpath(*["d" * 200] * 25), ["too long"])):
        refused(capsys, ["baccarat", "--out", where], "--out", *words)
    assert a_file.read_text() == "mine"


def test_read_only_out_is_refused(capsys, tmp_path):
    """A read-only file system (a tmpfs mounted ro where the machine allows it; else a folder without
    write permission, which only a non-root user feels)."""
    mount = tmp_path / "ro"
    mount.mkdir()
    mounted = os.system(f"mount -t tmpfs -o size=64k,ro tmpfs {mount} 2>/dev/null") == 0
    try:
        if not mounted:
            if os.geteuid() == 0:
                pytest.skip("cannot mount a read-only tmpfs here, and root ignores permissions")
            mount.chmod(0o555)
        refused(capsys, ["baccarat", "--out", mount / "results"], "--out", "cannot write")
    finally:
        if mounted:
            os.system(f"umount {mount}")


# --- rule files -------------------------------------------------------------------------------

RULE_FILES = [
    ("published RTP not a number", 'banker_rtp = "98.94%"', 'banker_rtp = "about 99"', "published.banker_rtp"),
    ("published RTP not text", 'banker_rtp = "98.94%"', "banker_rtp = 98.94", "published.banker_rtp"),
    ("published RTP without %", 'banker_rtp = "98.94%"', 'banker_rtp = "98.94"', "published.banker_rtp"),
    ("rule set of 300 characters", 'rule_set = "operator"', f'rule_set = "{"x" * 300}"', "game.rule_set"),
    ("rule set not ASCII", 'rule_set = "operator"', 'rule_set = "opérateur"', "game.rule_set"),
    ("rule set a path", 'rule_set = "operator"', 'rule_set = "../operator"', "game.rule_set"),
    ("1,000 decks for a full analysis", "decks = 8", "decks = 1000", "shoe.decks"),
    ("nested arrays", "[shoe]", "[shoe]\nx = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
]


@pytest.mark.parametrize("case,old,new,word", RULE_FILES, ids=[c[0] for c in RULE_FILES])
def test_bad_rule_files(capsys, out, tmp_path, case, old, new, word):
    path = rule_variant(tmp_path, old, new)
    refused(capsys, ["baccarat", "--rules", path, "--out", out], str(path), word, out=out)


QUALIFIERS = [
    ('ranks = [""]', "qualifier.ranks[0]"),
    ('ranks = ["QK"]', "qualifier.ranks[0]"),
    ('ranks = ["A", "A"]', "qualifier.ranks"),
    ('ranks = ["A", "K", "Q", "J", "9", "8"]', "at most 5"),
    ('ranks = ["A", "K", "Q", "J", "T"]', "a straight"),
    ('ranks = ["A", "K", "Q", "J", "9"]\ncategory = "one_pair"', None),      # duplicate key: not TOML
]


@pytest.mark.parametrize("new,word", QUALIFIERS)
def test_qualifiers_are_read_strictly(capsys, out, tmp_path, new, word):
    stud = registry.game("caribbean-stud").builtin_rule_paths[0]
    path = rule_variant(tmp_path, 'ranks = ["A", "K"]', new, source=stud)
    refused(capsys, ["caribbean-stud", "--rules", path, "--out", out], str(path), word or "not valid TOML", out=out)


@pytest.mark.parametrize("category,ranks,word", [
    ("one_pair", '["4", "A", "K", "Q", "J"]', "at most 4"),        # a pair with four kickers
    ("one_pair", '["A", "A"]', "cannot repeat"),
    ("two_pair", '["3", "K"]', "descend"),
    ("straight", '["4"]', "5-high"),
    ("royal_flush", '["A"]', "at most 0"),
])
def test_impossible_qualifiers(capsys, out, tmp_path, category, ranks, word):
    holdem = registry.game("casino-holdem").builtin_rule_paths[0]
    path = rule_variant(tmp_path, 'category = "one_pair"\nranks = ["4"]', f'category = "{category}"\nranks = {ranks}',
                        source=holdem)
    refused(capsys, ["casino-holdem", "--rules", path, "--out", out], "qualifier.ranks", word, out=out)


def test_a_fifo_is_refused_without_hanging(capsys, out, tmp_path):
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    refused(capsys, ["baccarat", "--rules", fifo, "--out", out], "not a regular file", out=out)
    refused(capsys, ["baccarat", "--rules", tmp_path, "--out", out], "Is a directory", out=out)


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BACCARAT_RULES.read_bytes().replace(b'"operator"', b'"bom"'))
    assert main(["baccarat", "--rules", str(path), "--out", str(tmp_path / "r"), "--check-rounds", "0",
                 "--quiet"]) == 0
    assert (tmp_path / "r" / "baccarat" / "bom" / "rules.toml").read_bytes() == path.read_bytes()


def test_borderline_rule_files_that_must_work(tmp_path):
    """A 9-card Hold'em deck deals exactly one round's cards: analysed and Monte Carlo checked."""
    path = support.reduced_deck(tmp_path, "casino-holdem", "23456789T", "c", name="nine")
    assert main(["casino-holdem", "--rules", str(path), "--out", str(tmp_path / "r"), "--check-rounds", "1000",
                 "--quiet"]) == 0


# --- results are never silently replaced, a user's data never deleted ---------------------------

def test_results_of_another_rule_file_are_replaced_only_with_replace(capsys, out, tmp_path):
    tie9 = rule_variant(tmp_path, "tie = 8 ", "tie = 9 ", "tie9.toml")      # still rule_set = "operator"
    refused(capsys, ["baccarat", "--rules", tie9, "--out", out, "--check-rounds", "0"],
            "another rule file", "--replace", "rule_set", out=out)
    assert main(["baccarat", "--rules", str(tie9), "--out", str(out), "--check-rounds", "0", "--quiet",
                 "--replace"]) == 0
    assert (out / "baccarat" / "operator" / "rules.toml").read_bytes() == tie9.read_bytes()


def test_sweep_refuses_one_rule_set_twice(capsys, out, tmp_path):
    tie9 = rule_variant(tmp_path, "tie = 8 ", "tie = 9 ", "tie9.toml")
    tie7 = rule_variant(tmp_path, "tie = 8 ", "tie = 7 ", "tie7.toml")
    refused(capsys, ["sweep", tie9, tie7, "--out", out], "both name", "'operator'", out=out)
    refused(capsys, ["sweep", tie9, tie9, "--out", out], "given twice", out=out)


@pytest.mark.parametrize("make,words", [
    (lambda target: (target.mkdir(parents=True), (target / "notes.txt").write_text("mine")), ["manifest.json"]),
    (lambda target: (target.parent.mkdir(parents=True), target.write_text("mine")), ["is a file"]),
])
def test_a_users_folder_or_file_is_never_replaced(capsys, tmp_path, make, words):
    root = tmp_path / "results"
    make(root / "baccarat" / "operator")
    refused(capsys, ["baccarat", "--out", root, "--check-rounds", "0"], str(root / "baccarat" / "operator"), *words,
            out=root)


def test_a_file_added_to_a_results_folder_keeps_it_from_being_replaced(capsys, out):
    (out / "baccarat" / "operator" / "my_notes.md").write_text("mine")
    refused(capsys, ["baccarat", "--out", out, "--check-rounds", "0"], "my_notes.md", out=out)


# --- design and sweep: their folders and options follow the same rules ---------------------------

DESIGN_AND_SWEEP = {"design": (["design", "baccarat", "--vary", "payouts.tie"], "designs/operator.payouts.tie"),
                    "sweep": (["sweep", BACCARAT_RULES, "--name", "tie"], "sweeps/tie")}


def no_work(monkeypatch):
    """Make counting (design) and preparing an analysis (sweep) fail the test: a refusal comes first."""
    from analyzer.publish import pipeline

    def work(*args, **kwargs):
        raise AssertionError("the command started work before refusing")
    monkeypatch.setattr(pipeline, "count", work)
    monkeypatch.setattr(pipeline, "prepare", work)


def users_folder(target):
    target.mkdir(parents=True)
    (target / "my-notes.txt").write_text("mine")


def users_file(target):
    target.parent.mkdir(parents=True)
    target.write_text("mine")


def users_link(target):
    (target.parent / "elsewhere").mkdir(parents=True)
    target.symlink_to(target.parent / "elsewhere")


@pytest.mark.parametrize("command", DESIGN_AND_SWEEP)
@pytest.mark.parametrize("make,words", [(users_folder, ["SHA256SUMS"]), (users_file, ["is a file"]),
                                        (users_link, ["is a link"])], ids=["folder", "file", "link"])
def test_design_and_sweep_never_replace_what_they_did_not_write(capsys, tmp_path, monkeypatch, command, make, words):
    argv, where = DESIGN_AND_SWEEP[command]
    root = tmp_path / "out"
    make(root / where)
    no_work(monkeypatch)
    refused(capsys, [*argv, "--out", root, "--no-cache", "--quiet"], str(root / where), *words, out=root)


@pytest.mark.parametrize("command", DESIGN_AND_SWEEP)
def test_design_and_sweep_replace_their_own_folder_only_as_they_wrote_it(capsys, tmp_path, command):
    argv, where = DESIGN_AND_SWEEP[command]
    root = tmp_path / "out"
    again = [str(a) for a in argv] + ["--out", str(root), "--no-cache", "--quiet"]
    assert main(again) == 0 and main(again) == 0                      # the second replaces the first
    folder = root / where
    sums = {line.split("  ")[1]: line.split("  ")[0] for line in (folder / "SHA256SUMS").read_text().splitlines()}
    assert sums == {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()
                    if p.name != "SHA256SUMS"}
    (folder / "my-notes.txt").write_text("mine")
    capsys.readouterr()
    refused(capsys, again, "my-notes.txt", "SHA256SUMS", out=root)


@pytest.mark.parametrize("command", DESIGN_AND_SWEEP)
def test_design_and_sweep_refuse_a_file_above_their_folder_before_any_work(capsys, tmp_path, monkeypatch, command):
    argv, where = DESIGN_AND_SWEEP[command]
    root = tmp_path / "out"
    users_file((root / where).parent)
    no_work(monkeypatch)
    refused(capsys, [*argv, "--out", root, "--no-cache", "--quiet"], str((root / where).parent), "is a file",
            out=root)


def test_design_out_is_checked_before_counting(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    no_work(monkeypatch)
    (tmp_path / "a_file").write_text("mine")
    design = ["design", "baccarat", "--vary", "payouts.tie", "--no-cache"]
    refused(capsys, [*design, "--out", tmp_path / "a_file"], "--out", "a file", out=tmp_path)
    refused(capsys, [*design, "--out", ""], "--out", out=tmp_path)


NOT_APPLYING = [
    (["design", "baccarat", "--vary", "payouts.tie", "--jackpot", "1000"], ["--jackpot", "payouts.tie"]),
    (["design", "caribbean-stud", "--vary", "raise_pays.flush", "--jackpot", "1000"], ["--jackpot", "raise_pays"]),
    (["design", "caribbean-stud", "--vary", "progressive.jackpot", "--jackpot", "1000"], ["--jackpot"]),
    (["design", "baccarat", "--vary", "payouts.tie", "--step", "1/2"], ["--step", "--target-rtp"]),
    (["design", "baccarat", "--vary", "commission.banker", "--range", "0", "2"], ["--range", "commission.banker"]),
    (["baccarat", "--remove", "5,5", "--out", "elsewhere"], ["--out", "live-shoe"]),
    (["baccarat", "--remove", "5,5", "--replace"], ["--replace", "live-shoe"]),
    (["baccarat", "--counts", "128,32,32,32,32,32,32,32,32,32", "--check-rounds", "0"], ["--check-rounds"]),
]


@pytest.mark.parametrize("argv,words", NOT_APPLYING, ids=[" ".join(argv) for argv, _ in NOT_APPLYING])
def test_options_that_do_not_apply_are_refused(capsys, tmp_path, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    no_work(monkeypatch)
    refused(capsys, [*argv, "--no-cache"] if argv[0] == "design" else argv, *words, out=tmp_path)


@pytest.mark.parametrize("high,drawn", [("1" + "0" * 30, True), ("1e400", False)], ids=["1e30", "1e400"])
def test_design_ranges_beyond_machine_integers_and_floats(capsys, tmp_path, high, drawn):
    assert main(["design", "baccarat", "--vary", "payouts.tie", "--range", "0", high, "--target-rtp", "2",
                 "--out", str(tmp_path), "--no-cache", "--quiet"]) == 0, capsys.readouterr().err
    folder = tmp_path / "designs" / "operator.payouts.tie"
    assert json.loads((folder / "design.json").read_text())["target"]["reachable"]
    assert (folder / "figure_design.svg").exists() == drawn


# --- the count cache: a folder of its own, checked before any work ----------------------------------

def cache_commands(tmp_path) -> dict:
    """A reduced-deck Caribbean Stud analysis and design, which count through the cache."""
    rules = support.reduced_deck(tmp_path, "caribbean-stud", "9TJQKA", "cd")
    return {"analysis": ["caribbean-stud", "--rules", rules, "--check-rounds", "0", "--check-samples", "0"],
            "design": ["design", "caribbean-stud", "--rules", rules, "--vary", "raise_pays.flush",
                       "--range", "4", "8"]}


def no_counting(monkeypatch):
    """Counting fails the test: the cache is refused first."""
    module = registry.game("caribbean-stud").module

    def count(*args, **kwargs):
        raise AssertionError("counted although the cache was refused")
    monkeypatch.setattr(module, "count", count)


def foreign_folder(where: Path) -> None:
    where.mkdir(parents=True)
    (where / "notes.txt").write_text("mine")
    (where / ".old.partial").write_text("mine")


CACHES = {"a file": (lambda where: (where.parent.mkdir(parents=True), where.write_text("mine")), "", ["is a file"]),
          "below a file": (lambda where: (where.parent.mkdir(parents=True), where.write_text("mine")), "below",
                           ["cannot be made"]),
          "a folder of the user's": (foreign_folder, "", ["CACHEDIR.TAG", "not a count cache"])}


@pytest.mark.parametrize("command", ["analysis", "design"])
@pytest.mark.parametrize("case", list(CACHES))
def test_a_cache_that_cannot_be_used_is_refused_before_any_work(capsys, tmp_path, monkeypatch, command, case):
    make, below, words = CACHES[case]
    where = tmp_path / "mine" / "cache"
    make(where)
    no_counting(monkeypatch)
    cache = where / below if below else where
    argv = [*cache_commands(tmp_path)[command], "--out", tmp_path / "out", "--cache", cache, "--quiet"]
    refused(capsys, argv, "--cache", str(cache), *words, out=tmp_path / "mine")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["analysis", "design"])
def test_the_default_cache_is_checked_too(capsys, tmp_path, monkeypatch, command):
    out = tmp_path / "out"
    (out / ".cache").parent.mkdir(parents=True)
    (out / ".cache").write_text("mine")
    no_counting(monkeypatch)
    refused(capsys, [*cache_commands(tmp_path)[command], "--out", out, "--quiet"], "--cache", str(out / ".cache"),
            "is a file", out=out)


def test_a_read_only_cache_is_refused(capsys, tmp_path, monkeypatch):
    """A read-only file system (a tmpfs mounted ro where the machine allows it; else the check's answer)."""
    mount = tmp_path / "ro"
    mount.mkdir()
    mounted = os.system(f"mount -t tmpfs -o size=64k,ro tmpfs {mount} 2>/dev/null") == 0
    try:
        if not mounted:
            from analyzer.publish import count_cache
            real = os.access
            monkeypatch.setattr(count_cache.os, "access", lambda path, mode: False if Path(path) == mount
                                else real(path, mode))
        no_counting(monkeypatch)
        refused(capsys, [*cache_commands(tmp_path)["analysis"], "--out", tmp_path / "out", "--cache", mount,
                         "--quiet"], "--cache", str(mount), "read-only" if mounted else "not writable",
                out=tmp_path / "out")
    finally:
        if mounted:
            os.system(f"umount {mount}")


def test_a_payout_beyond_floats_publishes_its_exact_figures_and_leaves_the_figures_out(capsys, tmp_path):
    """TIE paying 1e400: every exact figure publishes (exit 0); the figures floats cannot draw are left out,
    the report saying so, and the folder verifies."""
    path = rule_variant(tmp_path, "tie = 8 ", "tie = 1e400 ")
    root = tmp_path / "r"
    assert main(["baccarat", "--rules", str(path), "--out", str(root), "--check-rounds", "0", "--no-cache",
                 "--quiet"]) == 0, capsys.readouterr().err
    folder = root / "baccarat" / "operator"
    assert Fraction(json.loads((folder / "summary.json").read_text())["bets"]["tie"]["rtp"]["exact"]) > 10 ** 398
    assert not list(folder.glob("*.svg"))
    report = (folder / "report.md").read_text()
    assert report.count("*Figure left out:") == 2 and "](figure_" not in report
    assert main(["verify", str(folder), "--rounds", "0", "--samples", "5", "--no-recount", "--quiet"]) == 0


# --- Baccarat shoes ---------------------------------------------------------------------------

@pytest.mark.parametrize("option,value,words", [
    ("--remove", ",".join(["Ah"] * 9), ["Ah", "9th"]),
    ("--remove", ",".join(["A"] * 33), ["rank A", "33rd"]),
    ("--remove", "", ["--remove needs at least one card"]),
    ("--remove", "5,X", ["'X'"]),
    ("--remove", ",".join(["A"] * 33 + ["X"]), ["'X'"]),        # several rules broken: the malformed card first
    ("--counts", "", ["--counts needs"]),
    ("--counts", "12_8,32,32,32,32,32,32,32,32,32", ["'12_8'"]),
    ("--counts", "\uff11\uff12\uff18,32,32,32,32,32,32,32,32,32", ["digits 0-9"]),
    ("--counts", "129,32,32,32,32,32,32,32,32,32", ["129", "full shoe"]),
    ("--counts", "0,0,0,0,0,0,0,0,0,5", ["holds 5"]),
    ("--counts", "1,2,3", ["10 counts"]),
])
@pytest.mark.parametrize("command", ["baccarat", "advise"])
def test_shoes(capsys, out, option, value, words, command):
    argv = ["baccarat", option, value] if command == "baccarat" else ["advise", "baccarat", "--results", out, option, value]
    refused(capsys, argv, *words, out=out)


# --- the advisor: cards against the deck of the file's rules -----------------------------------

@pytest.mark.parametrize("hole,flop,words", [
    ("Ah Kh", "Qh 7h 2h", ["card Ah is not in the deck", "suits cd"]),      # hearts: not in this deck
    ("Ac Kc", "Qd 7d 2c", ["card 2c is not in the deck", "ranks 6789TJQKA"]),   # a missing rank
    ("Ac Kc", "Qd 7d 7d", ["7d appears twice"]),
    ("Ac Kc", "Qd 7d", ["needs 3 card(s)"]),
    # several rules broken: the first of docs/strategy-format.md section 7's table, over the whole deal
    ("Ac", "Qd 7d Kx", ["'Kx' is not a card"]),
    ("Ac Ac", "Qd 7d", ["the flop needs 3 card(s)"]),
    ("Ac Ac", "Qd 7d Kh", ["Ac appears twice"]),                  # a repeat before a card outside the deck
])
def test_advise_checks_cards_against_the_deck(capsys, out, hole, flop, words):
    refused(capsys, ["advise", "casino-holdem", "--results", out, "--rule-set", "small", "--hole", hole,
                     "--flop", flop], *words, out=out)


@pytest.mark.parametrize("hand,up,words", [
    ("2s 3s 4s 5s 6d", "2c", ["card 2s is not in the deck", "suits cd"]),      # spades and deuces: not here
    ("Ac Kc Qc Jc 9d", "Th", ["card Th is not in the deck", "suits cd"]),
    ("Ac Kc Qc Jc 9d", "2d", ["card 2d is not in the deck", "ranks 9TJQKA"]),    # a missing rank
    ("Ac Kc Qc Jc 9d", "9d", ["card 9d appears in both hand and up card"]),
])
def test_advise_checks_stud_cards_against_the_deck(capsys, out, hand, up, words):
    refused(capsys, ["advise", "caribbean-stud", "--results", out, "--rule-set", "small", "--hand", hand,
                     "--up", up], *words, out=out)


def test_advise_answers_a_stud_deal_of_the_reduced_deck(capsys, out):
    assert main(["advise", "caribbean-stud", "--results", str(out), "--rule-set", "small", "--hand",
                 "Ac Kc Qc Jc 9d", "--up", "Td", "--json"]) == 0
    assert '"decision"' in capsys.readouterr().out


CARD_TEXT = st.text(alphabet="23456789TJQKAtjqka10cdhsCDHSxz ,;-", max_size=16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hole=CARD_TEXT, flop=CARD_TEXT)
def test_random_card_strings_are_answered_or_refused_in_one_line(results, capsys, hole, flop):
    status = main(["advise", "casino-holdem", "--results", str(results), "--rule-set", "small",
                   f"--hole={hole}", f"--flop={flop}", "--json"])
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err
    if status == 2:
        assert captured.err.count("\n") == 1 and captured.out == ""
    else:
        assert captured.err == "" and '"decision"' in captured.out


@pytest.mark.parametrize("argv", [["advise", "baccarat", "--remove=--"], ["advise", "baccarat", "--counts=--"],
                                  ["baccarat", "--remove=--"]])
def test_a_double_dash_value_is_refused_in_one_line(capsys, argv):
    """argparse turns `--flag=--` into an empty list; the command line refuses it instead of failing on it."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "'--' is not a value" in captured.err and captured.out == ""


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet="0123456789,_ -+.\u0663AKQJT2c", max_size=40), counts=st.booleans())
def test_random_shoe_texts_are_answered_or_refused_in_one_line(results, capsys, text, counts):
    status = main(["advise", "baccarat", "--results", str(results), f"--{'counts' if counts else 'remove'}={text}",
                   "--json"])
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err
    if status == 2:
        assert captured.err.count("\n") == 1


# --- random rule-file mutations ----------------------------------------------------------------

def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f'"{k}" = {toml_value(v)}' for k, v in value.items()) + "}"


def toml_text(document: dict) -> str:
    """A small TOML writer for rule files (tables of values and subtables)."""
    lines = []

    def table(prefix, node):
        scalars = {k: v for k, v in node.items() if not isinstance(v, dict)}
        tables = {k: v for k, v in node.items() if isinstance(v, dict)}
        if prefix:
            lines.append(f"[{prefix}]")
        lines.extend(f'"{k}" = {toml_value(v)}' for k, v in scalars.items())
        for key, sub in tables.items():
            table(f'{prefix}."{key}"' if prefix else f'"{key}"', sub)
    table("", document)
    return "\n".join(lines) + "\n"


def leaves(node, prefix=()):
    for key, value in node.items():
        if isinstance(value, dict):
            yield from leaves(value, prefix + (key,))
        yield prefix + (key,)


VALUES = st.one_of(
    st.integers(min_value=-10**40, max_value=10**40), st.integers(min_value=-3, max_value=12), st.booleans(),
    st.text(alphabet=string.printable, max_size=12), st.sampled_from(["1/3", "1/0", "98.9%", "", "lose", "x" * 70]),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6, max_value=10**6),
    st.lists(st.integers(min_value=-2, max_value=11), max_size=4), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                                   max_size=2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_rule_file_mutations_are_analysed_or_refused_in_one_line(tmp_path_factory, capsys, data):
    import tomllib
    document = tomllib.loads(BACCARAT_RULES.read_text(), parse_float=Decimal)
    document["game"]["rule_set"] = "mutant"
    path = data.draw(st.sampled_from(sorted(leaves(document))))
    node = document
    for key in path[:-1]:
        node = node[key]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        node[path[-1]] = data.draw(VALUES)
    elif action == "delete":
        del node[path[-1]]
    else:
        node[data.draw(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=6))] = data.draw(VALUES)
    folder = tmp_path_factory.mktemp("mutant")
    rule_file = folder / "mutant.toml"
    rule_file.write_text(toml_text(document))
    out = folder / "results"
    status = main(["baccarat", "--rules", str(rule_file), "--out", str(out), "--check-rounds", "0",
                   "--check-samples", "0", "--quiet"])
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err, captured.err
    if status == 2:
        assert captured.err.count("\n") == 1 and str(rule_file) in captured.err and not out.exists()


# --- the audit: a decision log's rows -----------------------------------------------------------

STUD_LOG = "round,player,hand,dealer,decision\n"
STUD_ROW = "1,a,Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c,raise\n"
HOLDEM_LOG = "round,player,hole,board,dealer,decision\n"


@pytest.mark.parametrize("game,text,words", [
    ("caribbean-stud", "round,player,hand,decision\n1,a,Ah Kd 9s 5c 2h,raise\n", ["line 1", "no column 'dealer'"]),
    ("caribbean-stud", "", ["line 1", "no column 'round'"]),
    ("caribbean-stud", "round,player,hand,hand,dealer,decision\n", ["line 1", "'hand' appears twice"]),
    ("caribbean-stud", STUD_LOG, ["no decisions"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2x,Qd* 7h 5d 3s 2c,raise\n", ["line 2, column 'hand'", "'2x'"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c,Qd* 7h 5d 3s 2c,raise\n", ["line 2, column 'hand'", "got 4"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 5c,Qd* 7h 5d 3s 2c,raise\n", ["column 'hand'", "5c", "twice"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2h,Qd 7h 5d 3s 2c,raise\n", ["column 'dealer'", "got 0 marked"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2h,Qd* 7h* 5d 3s 2c,raise\n", ["column 'dealer'", "got 2 marked"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c,call\n", ["line 2, column 'decision'", "'call'"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2h,Ah* 7h 5d 3s 2c,raise\n",
     ["line 2, column 'dealer'", "Ah", "also in column 'hand'"]),
    ("caribbean-stud", STUD_LOG + ",a,Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c,raise\n", ["line 2, column 'round'", "empty"]),
    ("caribbean-stud", STUD_LOG + "1,a,Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c\n", ["line 2", "4 fields", "header has 5"]),
    ("caribbean-stud", STUD_LOG + '1,a,"Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c,raise\n', ["line 2"]),
    ("caribbean-stud", STUD_LOG + STUD_ROW + "1,b,Ah Qh 9c 6h 2d,Qd* 7h 5d 3s 2c,fold\n",
     ["line 3, column 'hand'", "Ah", "also 'a'", "(line 2)"]),
    ("caribbean-stud", STUD_LOG + STUD_ROW + "\n1,b,Jh Jd 9c 6h 2d,Kc* 7h 5d 3s 2c,fold\n",
     ["line 4, column 'dealer'", "round '1'", "line 2"]),
    ("caribbean-stud", STUD_LOG + STUD_ROW + "1,a,Jh Jd 9c 6h 2d,Qd* 7h 5d 3s 2c,fold\n",
     ["line 3, column 'player'", "'a' already decided"]),
    ("casino-holdem", HOLDEM_LOG + "1,a,Ah Kd,Qs 9h 2c 7d,Jc Td,call\n", ["line 2, column 'board'", "3 or 5"]),
    ("casino-holdem", HOLDEM_LOG + "1,a,Ah Kd,Qs 9h 2c,Jc* Td,call\n", ["line 2, column 'dealer'", "no card marked"]),
    ("casino-holdem", HOLDEM_LOG + "1,a,Ah Kd,Qs 9h 2c,Jc Td,raise\n", ["line 2, column 'decision'", "not fold or call"]),
    ("casino-holdem", HOLDEM_LOG + "1,a,Ah Kd,Qs 9h 2c,Jc Qs,call\n", ["line 2, column 'dealer'", "Qs", "column 'board'"]),
])
def test_bad_log_rows_are_refused(capsys, tmp_path, game, text, words):
    """A log row that cannot be read: one line naming the file, the line and the column; no report written."""
    log = tmp_path / "log.csv"
    log.write_text(text)
    refused(capsys, ["audit", game, log, "--out", tmp_path / "report"], str(log), *words, out=tmp_path)


def test_bad_log_files_are_refused(capsys, tmp_path):
    log = tmp_path / "log.csv"
    log.write_bytes(STUD_LOG.encode() + b"1,a,Ah Kd 9s 5c 2h,Qd* 7h 5d 3s 2c,raise \xff\n")
    refused(capsys, ["audit", "caribbean-stud", log], "line 2", "not UTF-8", out=tmp_path)
    refused(capsys, ["audit", "caribbean-stud", tmp_path / "missing.csv"], "missing.csv", "cannot be read")
    refused(capsys, ["audit", "caribbean-stud", tmp_path], str(tmp_path), "cannot be read")
    refused(capsys, ["audit", "baccarat", log], "invalid choice")
    log.write_text(STUD_LOG + STUD_ROW)
    (tmp_path / "report.txt").write_text("mine")
    refused(capsys, ["audit", "caribbean-stud", log, "--out", tmp_path / "report.txt"], "--out", "a file",
            out=tmp_path)


def test_a_log_against_a_reduced_deck(capsys, tmp_path):
    """Cards outside the rule file's deck, and more seats than it can deal, are refused naming the line."""
    rules = support.reduced_deck(tmp_path, "caribbean-stud", "9TJQKA", "cd")
    log = tmp_path / "log.csv"
    log.write_text(STUD_LOG + "1,a,Ac Kc Qd Jd 9c,Ad* Kd Tc Td Qc,raise\n2,a,2c Kc Qd Jd 9c,Ad* Kd Tc Td Qc,raise\n")
    refused(capsys, ["audit", "caribbean-stud", log, "--rules", rules], "line 3, column 'hand'", "2c",
            "not in the deck", out=tmp_path)
    log.write_text(STUD_LOG + "1,a,Ac Kc Qd Jd 9c,Ad* Kd Tc Td Qc,raise\n1,b,Ah Kh Qh Jh 9h,Ad* Kd Tc Td Qc,fold\n")
    refused(capsys, ["audit", "caribbean-stud", log, "--rules", rules], "line 3", "Ah", "not in the deck",
            out=tmp_path)
    log.write_text(STUD_LOG + "1,a,Ac Kc Qd Jd 9c,Ad* Kd Tc Td Qc,raise\n1,b,Ac,Ad* Kd Tc Td Qc,fold\n")
    refused(capsys, ["audit", "caribbean-stud", log, "--rules", rules], "line 3, column 'hand'", out=tmp_path)


def test_advise_seen_checks_cards_against_the_deck(capsys, out):
    refused(capsys, ["advise", "caribbean-stud", "--results", out, "--rule-set", "small", "--hand", "Ac Kc Qc Jc 9d",
                     "--up", "Td", "--seen", "2d"], "2d", "not in the deck", out=out)
