"""The `analyzer` command line: one subcommand per game, plus `all`.

Exit status: 0 on success, 2 on bad input (rule file, cards, options), 1 on any
other failure.  Results are written under --out (default ./results), one folder per
game and rule set, atomically.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from importlib import import_module

from analyzer import __version__
from analyzer.errors import InputError
from analyzer.exact import decimal_str, fraction_str

EXIT_BAD_INPUT = 2

# Each game module provides run(rule_path, out_root, argv, progress) -> results folder.
GAMES = {
    "baccarat": "analyzer.baccarat",
    "casino-holdem": "analyzer.casino_holdem",
    "caribbean-stud": "analyzer.caribbean_stud",
}

DESCRIPTION = """\
Exact combinatorial analysis of casino table games.  Every deal is enumerated (no
sampling); every probability, EV, RTP and house edge is an exact fraction, with its
decimal derived from it.  Results go to --out/<game>/<rule set>/: summary.json,
PAR sheet (Markdown and CSV), strategy file where the game has decisions, the rule
file analysed, and manifest.json with the sha256 of every file.
"""

RULES_HELP = ("TOML rule file describing a variant (deck, paytables, qualifier, commission, limits); "
              "default: the operator's built-in rules")


class BadInput(InputError):
    """Input the user can fix; reported as one line, exit 2."""


def _exact_number(text: str):
    from analyzer.exact import to_fraction
    try:
        value = to_fraction(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (e.g. 1, 0.5 or 1/2)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def add_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="run the enumeration's chunks on N local worker processes (default: this "
                             "process, every core as threads)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the chunks on an existing Dask cluster instead, e.g. tcp://10.0.0.5:8786 "
                             "(workers need this package installed; pip install '.[cluster]')")


ADVISE_GROUPS = {
    "casino-holdem": [("hole", "the player's 2 hole cards, e.g. \"Ah Kd\""),
                      ("flop", "the 3 flop cards, e.g. \"Qs 7h 2c\"")],
    "caribbean-stud": [("hand", "the player's 5 cards, e.g. \"Ah Kd 9s 5c 2h\""),
                       ("up", "the dealer's up card, e.g. Qd")],
}


def add_advise_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rule-set", default="operator", help="rule set (results subfolder; default operator)")
    parser.add_argument("--results", default="results", metavar="DIR", help="results root (default ./results)")
    parser.add_argument("--strategy", metavar="FILE", help="a strategy file to use instead of --results/--rule-set")
    parser.add_argument("--basic", action="store_true",
                        help="play the basic strategy card (strategy_basic.bin.gz) instead of the optimal table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="results", metavar="DIR",
                        help="results root folder (default: ./results)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--check-samples", type=int, default=200, metavar="N",
                        help="situations re-enumerated by direct dealing before publishing (default 200)")
    parser.add_argument("--check-rounds", type=int, metavar="N",
                        help="Monte Carlo rounds played before publishing (default: the game's, ~20 s; 0 skips)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the pre-publication checks (default 1)")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) that point at --help."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="analyzer", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    bac = commands.add_parser(
        "baccarat", help="punto banco: BANKER, PLAYER, TIE exactly, for any shoe",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Punto banco, every round dealt from a full shoe.  Without --remove/--counts: the "
                    "full analysis (exact outcome counts over every ordered 6-card sequence, house "
                    "edge and RTP of each bet, the BANKER commission-rounding table by stake, the "
                    "effect of removing one card of each value), written to --out.  With "
                    "--remove or --counts: the live-shoe question 'what does each bet return now?', "
                    "printed, nothing written.",
        epilog="examples:\n  analyzer baccarat\n  analyzer baccarat --rules six_decks.toml\n"
               "  analyzer baccarat --remove 5,5,9,K\n  analyzer baccarat --counts 128,32,32,32,32,31,32,32,32,30 --json")
    bac.add_argument("--rules", metavar="FILE", help=RULES_HELP)
    shoe = bac.add_mutually_exclusive_group()
    shoe.add_argument("--remove", metavar="CARDS",
                      help="cards already dealt from the full shoe, by rank: e.g. 5,5,9,K (suits optional)")
    shoe.add_argument("--counts", metavar="N0,...,N9",
                      help="the shoe as 10 counts of card values 0 (T J Q K), 1 (A), 2, ..., 9")
    bac.add_argument("--json", action="store_true", help="with --remove/--counts: print one JSON object")
    add_jobs(bac)
    add_common(bac)

    holdem = commands.add_parser(
        "casino-holdem", help="Casino Hold'em + AA Bonus: optimal call/fold for every (hole, flop)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Casino Hold'em with the AA Bonus.  Enumerates every (2 hole cards, flop) situation "
                    "(1,286,792 suit classes) against every turn/river and dealer hole pair (1,070,190 "
                    "continuations each), decides call or fold exactly, and reports house edge, probability "
                    "of calling and RTP for the optimal, always-call, call-on-AA-win and jointly optimal "
                    "strategies, the AA Bonus RTP under each, the PAR sheet and the strategy file.  About "
                    "15 s on two cores.",
        epilog="examples:\n  analyzer casino-holdem\n  analyzer casino-holdem --aa-ratio 0.5 --out /tmp/r")
    holdem.add_argument("--rules", metavar="FILE", help=RULES_HELP)
    holdem.add_argument("--aa-ratio", metavar="K", type=_exact_number,
                        help="AA Bonus stake per ANTE for the jointly optimal strategy (default: the rule "
                             "file's aa_bonus.ratio, 1)")
    add_jobs(holdem)
    add_common(holdem)

    stud = commands.add_parser(
        "caribbean-stud", help="Caribbean Stud + progressive: optimal raise/fold for every (hand, up card)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Caribbean Stud Poker with the progressive jackpot.  Counts every (5-card hand, dealer up "
                    "card) situation (5,649,150 suit classes) against every completion of the dealer's hand "
                    "(163,185 each), decides raise or fold exactly, and reports house edge, probability of "
                    "raising, element of risk and RTP for the optimal and simple strategies, the optimal rule "
                    "in words with every exception and its exact cost, the progressive's RTP as a function "
                    "of the jackpot, the PAR sheet and the strategy file.  Without --rules: every built-in "
                    "rule set (operator and standard), counted once.  A few seconds on two cores.",
        epilog="examples:\n  analyzer caribbean-stud\n  analyzer caribbean-stud --rules my_paytable.toml --out /tmp/r")
    stud.add_argument("--rules", metavar="FILE", help=RULES_HELP + " (default: every built-in rule set)")
    add_jobs(stud)
    add_common(stud)

    advise = commands.add_parser(
        "advise", help="the strategy advisor: best decision and exact EVs for one concrete deal",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Answer 'what now?' for a concrete deal from the strategy files in --results "
                    "(default ./results; written by the analyses).  The file is checked against its "
                    "manifest first.  With --json the answer is one JSON object: decision, ev (each "
                    "action's exact EV as \"p/q\"), margin (best minus next best).",
        epilog="examples:\n  analyzer advise casino-holdem --hole \"Ah Kd\" --flop \"Qs 7h 2c\"\n"
               "  analyzer advise caribbean-stud --hand \"Ah Kd 9s 5c 2h\" --up Qd --json\n"
               "  analyzer advise baccarat --remove 5,5,9,K")
    games = advise.add_subparsers(dest="game", required=True, metavar="GAME")
    for game, groups in ADVISE_GROUPS.items():
        sub = games.add_parser(game, help=f"{game}: " + ", ".join(f"--{flag}" for flag, _ in groups))
        for flag, what in groups:
            sub.add_argument(f"--{flag}", required=True, metavar="CARDS", help=what)
        add_advise_common(sub)
    bac_advise = games.add_parser("baccarat", help="baccarat: the best bet for a (depleted) shoe")
    shoe = bac_advise.add_mutually_exclusive_group()
    shoe.add_argument("--remove", metavar="CARDS", help="cards already dealt from the full shoe, by rank")
    shoe.add_argument("--counts", metavar="N0,...,N9", help="the shoe as 10 counts of values 0..9")
    add_advise_common(bac_advise)

    check = commands.add_parser(
        "verify", help="re-check results by independent means (hashes, totals, re-enumeration, Monte Carlo)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Pass/fail re-check of results folders: every file's sha256 against its manifest and "
                    "the rule file; the summary's figures recomputed from the strategy file; a seeded random "
                    "sample of situations re-counted by dealing every continuation explicitly; a seeded "
                    "Monte Carlo of complete rounds played with the stored strategy and settled from the rule "
                    "file, which must hold the exact EV inside its 99.9% interval.  Exit 0 when all pass, 1 "
                    "when any fails.",
        epilog="examples:\n  analyzer verify\n  analyzer verify results/casino_holdem/operator --rounds 200000")
    check.add_argument("paths", nargs="*", default=["results"], metavar="PATH",
                       help="results root or results/<game>/<rule set> folders (default: results)")
    check.add_argument("--samples", type=int, default=200, metavar="N",
                       help="situations to re-enumerate per game (default 200)")
    check.add_argument("--rounds", type=int, metavar="N",
                       help="Monte Carlo rounds per game (default: about a minute for all games; 0 skips)")
    check.add_argument("--seed", type=int, default=1, help="random seed of the samples and the Monte Carlo")
    check.add_argument("--quiet", action="store_true", help="no progress bars")

    every = commands.add_parser("all", help="every analysis on every built-in rule set (the main job)",
                                description="Run every game's analysis on each of its built-in rule "
                                            "sets and write all results under --out.")
    add_jobs(every)
    add_common(every)

    sweep = commands.add_parser(
        "sweep", help="analyse many rule files (e.g. a paytable grid) and write one comparison table",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Analyse each rule file (any game; the file's [game] says which) with the same "
                    "executor, write each one's results folder, then --out/sweeps/NAME/comparison.md and "
                    ".csv with every rule set's key figures side by side (exact fractions and decimals).",
        epilog="examples:\n  analyzer sweep grid/*.toml --name tie-payouts\n"
               "  analyzer sweep grid/*.toml --scheduler tcp://scheduler:8786")
    sweep.add_argument("rule_files", nargs="+", metavar="FILE", help="rule files to analyse")
    sweep.add_argument("--name", default="sweep", help="name of the comparison (folder under --out/sweeps)")
    add_jobs(sweep)
    add_common(sweep)
    return parser


def progress_bar(quiet: bool):
    """A factory for tqdm bars on stderr (or silent ones)."""
    from tqdm import tqdm

    def make(**kwargs):
        return tqdm(disable=quiet, file=sys.stderr, dynamic_ncols=True, **kwargs)
    return make


def run_game(game: str, rule_path, args, argv) -> None:
    module = import_module(GAMES[game])
    started = time.perf_counter()
    from analyzer.verify import CheckOptions
    options = {"checks": CheckOptions(args.check_samples, args.check_rounds, args.seed),
               "executor": executor_of(args)}
    if getattr(args, "aa_ratio", None) is not None:
        options["aa_ratio"] = args.aa_ratio
    folder = module.run(rule_path, args.out, argv, progress_bar(args.quiet), **options)
    print(f"{game}: wrote {folder} ({time.perf_counter() - started:.2f} s)")


def baccarat_query(args) -> None:
    from analyzer import baccarat
    _, rules = baccarat.load_rules(args.rules)
    if args.counts:
        counts = baccarat.parse_counts(args.counts)
    else:
        counts = baccarat.remove_cards(rules.full_shoe(), args.remove)
    answer = baccarat.shoe_query(counts, rules)
    if args.json:
        print(json.dumps({"decision": answer["best_bet"], "shoe": answer["shoe"],
                          "ev": {bet: fraction_str(ev) for bet, ev in answer["ev"].items()},
                          "margin": fraction_str(sorted(answer["ev"].values())[-1]
                                                 - sorted(answer["ev"].values())[-2])}, sort_keys=True))
        return
    print(f"shoe: {answer['cards']} cards, by value 0..9: {answer['shoe']}")
    for bet, ev in answer["ev"].items():
        print(f"  {bet:<7} EV per unit {decimal_str(ev, 8):>12}  ({fraction_str(ev)})")
    print(f"best bet: {answer['best_bet']}")


def advise(args) -> None:
    from analyzer import advisor, baccarat
    path = args.strategy or advisor.strategy_path(args.results, args.game, args.rule_set,
                                                  basic=getattr(args, "basic", False))
    strategy = advisor.load_strategy(path)
    if strategy.game != args.game:
        raise BadInput(f"{path} is a {strategy.game} strategy file, not {args.game}")
    if args.game == "baccarat":
        if args.counts:
            shoe = baccarat.parse_counts(args.counts)
        else:
            shoe = baccarat.remove_cards(strategy.full_shoe, args.remove or "")
        answer = strategy.decide(shoe)
    else:
        answer = strategy.decide(*(getattr(args, flag) for flag, _ in ADVISE_GROUPS[args.game]))
    if args.json:
        print(json.dumps(answer.as_json(), sort_keys=True))
        return
    print(f"{args.game} ({strategy.rule_set}): {answer.decision.upper()}   [{answer.key}]")
    for action, ev in sorted(answer.ev.items(), key=lambda item: -item[1]):
        print(f"  {action:<7} EV {decimal_str(ev, 8):>12}  ({fraction_str(ev)})")
    print(f"  margin  {decimal_str(answer.margin, 8):>12}")


def executor_of(args):
    """The executor the options ask for (made once per command, reused by every analysis)."""
    from analyzer.execution import make_executor
    if not hasattr(args, "_executor"):
        args._executor = make_executor(getattr(args, "jobs", None), getattr(args, "scheduler", None))
    return args._executor


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    try:
        if args.command == "all":
            for game in GAMES:
                run_game(game, None, args, argv)          # no rule file: every built-in rule set
        elif args.command == "advise":
            advise(args)
        elif args.command == "sweep":
            from analyzer import sweep
            from analyzer.verify import CheckOptions
            folder = sweep.run(args.rule_files, args.out, args.name, executor_of(args), progress_bar(args.quiet),
                               CheckOptions(args.check_samples, args.check_rounds, args.seed), argv)
            print(f"sweep: wrote {folder}/comparison.md")
        elif args.command == "verify":
            from analyzer import verify
            return 0 if verify.run(args.paths, args.samples, args.rounds, args.seed, progress_bar(args.quiet)) else 1
        elif args.command == "baccarat" and (args.remove or args.counts):
            baccarat_query(args)
        elif args.command == "baccarat" and args.json:
            raise BadInput("--json answers a live-shoe query: give --remove or --counts with it")
        else:
            run_game(args.command, args.rules, args, argv)
    except InputError as error:
        print(f"analyzer: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("analyzer: interrupted; results already published are complete, nothing partial was left",
              file=sys.stderr)
        return 130
    finally:
        if hasattr(args, "_executor"):
            args._executor.close()
    return 0
