"""The `analyzer` command line: one subcommand per game (from the registry), plus advise, verify, all, sweep.

Exit status: 0 on success, 2 on bad input (rule file, cards, options), 1 on any
other failure.  Results are written under --out (default ./results), one folder per
game and rule set, atomically.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from analyzer import __version__
from analyzer.core.errors import InputError, InvariantError
from analyzer.core.exact import decimal_str, fraction_str, to_fraction
from analyzer.games import registry

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1

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
    try:
        value = to_fraction(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (e.g. 1, 0.5 or 1/2)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


OPTION_TYPES = {"exact": _exact_number}


def add_option(parser: argparse.ArgumentParser, option: registry.Option) -> None:
    """A game's own option, as the registry declares it."""
    keywords = dict(option.keywords)
    if "type" in keywords:
        keywords["type"] = OPTION_TYPES[keywords["type"]]
    parser.add_argument(option.flag, **keywords)


def add_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="run the enumeration's chunks on N local worker processes (default: this "
                             "process, every core as threads)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the chunks on an existing Dask cluster instead, e.g. tcp://10.0.0.5:8786 "
                             "(workers need this package installed; pip install '.[cluster]')")


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

    for game in registry.GAMES:
        sub = commands.add_parser(game.name, help=game.help, description=game.description, epilog=game.epilog,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.add_argument("--rules", metavar="FILE", help=RULES_HELP + game.rules_help)
        for option in game.options:
            add_option(sub, option)
        if game.query_options:
            query = sub.add_mutually_exclusive_group()
            for option in game.query_options:
                add_option(query, option)
            sub.add_argument("--json", action="store_true", help="with a live-shoe question: print one JSON object")
        add_jobs(sub)
        add_common(sub)

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
    for game in registry.GAMES:
        if game.advise_groups:
            sub = games.add_parser(game.name, help=f"{game.name}: " + ", ".join(f"--{flag}" for flag, _ in game.advise_groups))
            for flag, what in game.advise_groups:
                sub.add_argument(f"--{flag}", required=True, metavar="CARDS", help=what)
        else:
            sub = games.add_parser(game.name, help=f"{game.name}: the best bet for a (depleted) shoe")
            shoe = sub.add_mutually_exclusive_group()
            for option in game.query_options:
                add_option(shoe, option)
        add_advise_common(sub)

    check = commands.add_parser(
        "verify", help="re-check results by independent means (hashes, totals, re-enumeration, Monte Carlo)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Pass/fail re-check of results folders: every file's sha256 against its manifest and "
                    "the rule file; the summary's figures recomputed from the strategy file; a seeded random "
                    "sample of situations re-counted by dealing every continuation explicitly; the round "
                    "statistics (net distribution, variance, hit frequency of every wager) re-derived from a "
                    "fresh count, the folder's rules and the strategy files' decisions; a seeded Monte Carlo of "
                    "complete rounds played with the stored strategy and settled from the rule file, which must "
                    "hold the exact EV inside its 99.9% interval and its sample variance within the 99.9% band "
                    "of the exact variance.  Exit 0 when all pass, 1 when any fails.",
        epilog="examples:\n  analyzer verify\n  analyzer verify results/casino_holdem/operator --rounds 200000")
    check.add_argument("paths", nargs="*", default=["results"], metavar="PATH",
                       help="results root or results/<game>/<rule set> folders (default: results)")
    check.add_argument("--samples", type=int, default=200, metavar="N",
                       help="situations to re-enumerate per game (default 200)")
    check.add_argument("--rounds", type=int, metavar="N",
                       help="Monte Carlo rounds per game (default: about a minute for all games; 0 skips)")
    check.add_argument("--seed", type=int, default=1, help="random seed of the samples and the Monte Carlo")
    check.add_argument("--no-recount", action="store_true",
                       help="skip re-deriving the round statistics (variance, hit frequency, net distribution) "
                            "by re-counting every deal with the game's kernel (Casino Hold'em: about 25 s)")
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


def pipeline_run(args, argv):
    """The pipeline's settings from the command line (one executor for the whole command)."""
    from analyzer.publish.options import CheckOptions
    from analyzer.publish.pipeline import Run
    return Run(out_root=args.out, argv=argv, checks=CheckOptions(args.check_samples, args.check_rounds, args.seed),
               executor=executor_of(args), progress=progress_bar(args.quiet))


def game_options(game: registry.Game, args) -> dict:
    """The game's own options that were given, as keyword arguments of its analysis."""
    out = {}
    for option in game.options:
        dest = option.flag.lstrip("-").replace("-", "_")
        if getattr(args, dest, None) is not None:
            out[dest] = getattr(args, dest)
    return out


def run_game(game: registry.Game, rule_path, args, argv) -> None:
    from analyzer.publish import pipeline
    started = time.perf_counter()
    run = pipeline_run(args, argv)
    run.options = game_options(game, args)
    published = pipeline.run_game(game, [rule_path] if rule_path else None, run)
    folder = published[0].folder if len(published) == 1 else published[0].folder.parent
    print(f"{game.name}: wrote {folder} ({time.perf_counter() - started:.2f} s)")


def live_shoe(game: registry.Game, args) -> None:
    """`analyzer baccarat --remove/--counts`: each bet's exact EV for the shoe, printed."""
    _, rules = game.load_rules(args.rules)
    answer = game.module.live_shoe(rules, remove=args.remove, counts=args.counts)
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
    from analyzer import advisor
    game = registry.game(args.game)
    path = args.strategy or advisor.strategy_path(args.results, args.game, args.rule_set,
                                                  basic=getattr(args, "basic", False))
    strategy = advisor.load_strategy(path)
    if strategy.game != args.game:
        raise BadInput(f"{path} is a {strategy.game} strategy file, not {args.game}")
    if game.advise_groups:
        answer = strategy.decide(*(getattr(args, flag) for flag, _ in game.advise_groups))
    else:
        answer = strategy.decide(strategy.shoe(remove=args.remove, counts=args.counts))
    if args.json:
        print(json.dumps(answer.as_json(), sort_keys=True))
        return
    print(f"{args.game} ({strategy.rule_set}): {answer.decision.upper()}   [{answer.key}]")
    for action, ev in sorted(answer.ev.items(), key=lambda item: -item[1]):
        print(f"  {action:<7} EV {decimal_str(ev, 8):>12}  ({fraction_str(ev)})")
    print(f"  margin  {decimal_str(answer.margin, 8):>12}")


def executor_of(args):
    """The executor the options ask for (made once per command, reused by every analysis)."""
    from analyzer.core.execution import make_executor
    if not hasattr(args, "_executor"):
        args._executor = make_executor(getattr(args, "jobs", None), getattr(args, "scheduler", None))
    return args._executor


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    try:
        if args.command == "all":
            for game in registry.GAMES:
                run_game(game, None, args, argv)          # no rule file: every built-in rule set
        elif args.command == "advise":
            advise(args)
        elif args.command == "sweep":
            from analyzer.publish import sweep
            folder = sweep.run(args.rule_files, args.name, pipeline_run(args, argv))
            print(f"sweep: wrote {folder}/comparison.md")
        elif args.command == "verify":
            from analyzer.publish import verify
            from analyzer.publish.options import CheckOptions
            options = CheckOptions(args.samples, args.rounds, args.seed, recount=not args.no_recount)
            return 0 if verify.run(args.paths, options, progress_bar(args.quiet)) else EXIT_FAILURE
        else:
            game = registry.game(args.command)
            if any(getattr(args, o.flag.lstrip("-").replace("-", "_")) for o in game.query_options):
                live_shoe(game, args)
            elif game.query_options and args.json:
                raise BadInput("--json answers a live-shoe question: give "
                               + " or ".join(o.flag for o in game.query_options) + " with it")
            else:
                run_game(game, args.rules, args, argv)
    except InputError as error:
        print(f"analyzer: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except InvariantError as error:
        print(f"analyzer: internal check failed: {error}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("analyzer: interrupted; results already published are complete, nothing partial was left",
              file=sys.stderr)
        return 130
    finally:
        if hasattr(args, "_executor"):
            args._executor.close()
    return 0


if __name__ == "__main__":                 # python -m analyzer.cli, as well as python -m analyzer
    sys.exit(main())
