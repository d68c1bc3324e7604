"""The `analyzer` command line: one subcommand per game (from the registry), plus advise, protect, audit, verify,
all, sweep, design and derive-basic.

Exit status (docs/command-line.md): 0 on success, 2 on bad input (one line on stderr, nothing written), 1 on any
other failure, 130 on Ctrl-C and 143 on SIGTERM.  Results are written under --out, atomically.  Everything that
could refuse a run is checked before any counting starts.
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from analyzer import __version__
from analyzer.publish import memory
from analyzer.core.cards import cards_str
from analyzer.core.errors import InputError, InvariantError, OutputError, one_line
from analyzer.core.exact import decimal_str, fraction_str, to_fraction
from analyzer.core.rules import check_folder_name
from analyzer.games import registry
from analyzer.games.interface import DecisionTable, DerivableBasic, Design, LiveShoe, Protection, SeenCards

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1
EXIT_INTERRUPTED = 130               # Ctrl-C (SIGINT), as shells report it
EXIT_TERMINATED = 143                # SIGTERM
MIN_MONTE_CARLO_ROUNDS = 100         # fewer rounds cannot estimate a variance worth a 99.9% interval

DESCRIPTION = """\
Exact combinatorial analysis of casino table games.  Every deal is enumerated (no
sampling); every probability, EV, RTP and house edge is an exact fraction, with its
decimal derived from it.  Results go to --out/<game>/<rule set>/: summary.json,
PAR sheet (Markdown and CSV), strategy file where the game has decisions, the rule
file analysed, and manifest.json with the sha256 of every file.
"""

DESIGN_EXAMPLES = """\
examples:
  analyzer design casino-holdem --vary ante_pays.flush --target-rtp 99%
  analyzer design baccarat --vary payouts.tie --target-house-edge 4.844% --range 7 10
  analyzer design caribbean-stud --vary progressive.jackpot --target-rtp 1
  analyzer design caribbean-stud --vary raise_pays.one_pair --target-rtp 97% --step 1/2"""

RULES_HELP = ("TOML rule file describing a variant (deck, paytables, qualifier, commission, limits); "
              "default: the operator's built-in rules")


def _exact_number(text: str, positive: bool = False):
    try:
        value = to_fraction(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (e.g. 1, 0.5 or 1/2)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    if positive and value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def whole_number(text: str, minimum: int = 0, what: str = "a whole number") -> int:
    """A count or a seed: a whole number (ASCII digits) >= `minimum`."""
    if not text.strip().isascii() or not text.strip().lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    value = int(text)
    if value < minimum:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
    return value


def monte_carlo_rounds(text: str) -> int:
    """0 (skip the Monte Carlo) or at least MIN_MONTE_CARLO_ROUNDS rounds."""
    value = whole_number(text)
    if 0 < value < MIN_MONTE_CARLO_ROUNDS:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 to skip the Monte Carlo, or at least "
                                         f"{MIN_MONTE_CARLO_ROUNDS} rounds (its variance needs them)")
    return value


OPTION_TYPES = {"exact": _exact_number, "whole": whole_number,     # --deals: an estimate's variance needs 2 or more
                "deals": lambda text: whole_number(text, 2, "a number of deals")}


def jobs_count(text: str) -> int:
    """--jobs: 1 .. 4 x the cores."""
    from analyzer.core.execution import default_jobs, max_jobs
    value = whole_number(text, 1, "a number of worker processes")
    if value > max_jobs():
        raise argparse.ArgumentTypeError(f"{text!r}: at most {max_jobs()} (4 per core, {default_jobs()} cores here)")
    return value


def scheduler(text: str) -> str:
    """--scheduler: a Dask address or scheduler file, checked for form (not reached) here."""
    from analyzer.core.execution import scheduler_address
    try:
        scheduler_address(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--scheduler ")) from None
    return text


def out_folder(text: str) -> str:
    """--out: a non-empty path (whether results can be written there is checked before any work)."""
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder path")
    return text


def folder_name(text: str) -> str:
    """A rule-set or sweep name: it names a folder, so no path of any kind."""
    return check_folder_name(text, argparse.ArgumentTypeError)


def add_options(parser: argparse.ArgumentParser, options, exclusive: bool = False, required: bool = False) -> None:
    """A game's own options, as the registry declares them; with `exclusive`, in a group taking one at most
    (exactly one when `required`)."""
    group = parser.add_mutually_exclusive_group(required=required) if exclusive else parser
    for option in options:
        keywords = dict(option.keywords)
        if "type" in keywords:
            keywords["type"] = OPTION_TYPES[keywords["type"]]
        group.add_argument(option.flag, **keywords)


def add_light(parser: argparse.ArgumentParser, out_help: str) -> None:
    """The executor, --out, --quiet and the count cache: the options of every command that counts."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=jobs_count, metavar="N",
                       help="run the enumeration's chunks on N local worker processes (1 to 4 per core; default: "
                            "this process, every core as threads)")
    where.add_argument("--scheduler", type=scheduler, metavar="ADDRESS",
                       help="run the chunks on an existing Dask cluster instead, e.g. tcp://10.0.0.5:8786 "
                            "(workers need this package installed; pip install '.[cluster]')")
    parser.add_argument("--out", default="results", metavar="DIR", type=out_folder, help=out_help)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument("--cache", metavar="DIR",
                       help="the count cache: paytable-free counts kept between runs, so another paytable on the "
                            "same deck and qualifier is priced without enumerating (default: OUT/.cache): a "
                            "folder of its own (CACHEDIR.TAG), files signed with the key in $ANALYZER_CACHE_KEY "
                            "or ~/.config/table-game-analyzer/count-cache.key, at most 2 GiB; docs/count-cache.md")
    cache.add_argument("--no-cache", action="store_true", help="count afresh and keep nothing")


def add_common(parser: argparse.ArgumentParser) -> None:
    """The options of an analysis that publishes results folders: add_light's, --replace and the checks."""
    add_light(parser, "results root folder (default: ./results); checked before any work")
    parser.add_argument("--replace", action="store_true",
                        help="replace results of the same rule set computed from another rule file (without it "
                             "such a folder is refused; folders the analyzer did not write are never replaced)")
    add_checks(parser, "--check-", "situations re-enumerated by direct dealing before publishing (default 200)",
               f"Monte Carlo rounds played before publishing (default: the game's, ~20 s; 0 skips, else at least "
               f"{MIN_MONTE_CARLO_ROUNDS})", "seed of the pre-publication checks, >= 0 (default 1)")


def add_checks(parser: argparse.ArgumentParser, prefix: str, samples: str, rounds: str, seed: str) -> None:
    """The seeded checks' options, with these helps: PREFIXsamples, PREFIXrounds and --seed."""
    parser.add_argument(f"{prefix}samples", type=whole_number, default=200, metavar="N", help=samples)
    parser.add_argument(f"{prefix}rounds", type=monte_carlo_rounds, metavar="N", help=rounds)
    parser.add_argument("--seed", type=whole_number, default=1, help=seed)


def _once(action_class):
    """An argparse action of `action_class` that refuses its option a second time on one command line
    (argparse would keep the last value: `--out A --out B` writing into B only)."""
    class Once(action_class):
        def __call__(self, parser, namespace, values, option_string=None):
            if option_string is not None:
                if self.dest in parser.given:
                    parser.error(f"argument {'/'.join(self.option_strings)}: given twice; give it once")
                parser.given.add(self.dest)
            super().__call__(parser, namespace, values, option_string)
    return Once


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) that point at --help, every option taken once, and descriptions
    and epilogs printed as written (its subcommands' parsers are of this class too)."""

    def __init__(self, *args, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        for name in (None, "store", "store_const", "store_true", "store_false"):
            self.register("action", name, _once(self._registry_get("action", name)))
        self.given = set()                   # the options of the command line being parsed, by destination

    def parse_known_args(self, args=None, namespace=None):
        self.given = set()
        for token in sys.argv[1:] if args is None else args:
            if token.startswith("--") and token.endswith("=--"):     # argparse would make it an empty list
                self.error(f"option {token[:-3]}: '--' is not a value; give the option what it asks for")
        return super().parse_known_args(args, namespace)

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="analyzer", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for game in registry.GAMES:
        sub = commands.add_parser(game.name, help=game.help, description=game.description, epilog=game.epilog)
        sub.add_argument("--rules", metavar="FILE", help=RULES_HELP + game.rules_help)
        add_options(sub, game.options)
        if game.query_options:
            add_options(sub, game.query_options, exclusive=True)
            sub.add_argument("--json", action="store_true", help="with a live-shoe question: print one JSON object")
        add_common(sub)

    advise = commands.add_parser(
        "advise", help="the strategy advisor: best decision and exact EVs for one concrete deal",
        description="Answer 'what now?' for a concrete deal from the strategy files in --results "
                    "(default ./results; written by the analyses).  The file is checked against its "
                    "manifest first, and must be of the rule set asked for.  With --json the answer is one "
                    "JSON object: decision, ev (each action's exact EV as \"p/q\"), margin (best minus next "
                    "best), key (the situation looked up), rule_set.  With --seen (the poker games): the "
                    "exploit's decision when those of the dealer's hole cards are seen too, its EVs counted "
                    "exactly over every completion of the cards still unseen, under the rule file beside the "
                    "strategy file; in --json decision, ev and margin are then the exploit's, seen the cards, "
                    "and honest the answer without them (decision, ev, margin, key).",
        epilog="examples:\n  analyzer advise casino-holdem --hole \"Ah Kd\" --flop \"Qs 7h 2c\"\n"
               "  analyzer advise caribbean-stud --hand \"Ah Kd 9s 5c 2h\" --up Qd --json\n"
               "  analyzer advise caribbean-stud --hand \"Ah Kd 9s 5c 2h\" --up Qd --seen 7h\n"
               "  analyzer advise baccarat --remove 5,5,9,K")
    games = advise.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in (game for game in registry.GAMES if game.has(DecisionTable) or game.has(LiveShoe)):
        if game.has(DecisionTable):
            sub = games.add_parser(game.name, help=f"{game.name}: " + ", ".join(f"--{flag}" for flag, _ in game.advise_groups))
            for flag, what in game.advise_groups:
                sub.add_argument(f"--{flag}", required=True, metavar="CARDS", help=what)
            if game.has(SeenCards):
                sub.add_argument("--seen", metavar="CARDS", help=game.seen_help + ": the exploit's decision")
        else:                                # a live shoe
            sub = games.add_parser(game.name, help=f"{game.name}: the best bet for a (depleted) shoe")
            add_options(sub, game.query_options, exclusive=True)
        sub.add_argument("--rule-set", default="operator", type=folder_name,
                         help="rule set (results subfolder; default operator)")
        sub.add_argument("--results", default="results", metavar="DIR", help="results root (default ./results)")
        sub.add_argument("--strategy", metavar="FILE", help="a strategy file to use instead of --results/--rule-set")
        sub.add_argument("--basic", action="store_true",
                         help="play the basic strategy card (strategy_basic.bin.gz) instead of the optimal table")
        sub.add_argument("--json", action="store_true", help="print one JSON object")

    protect = commands.add_parser(
        "protect", help="game protection: what a leak is worth (seen dealer cards, colluders, edge sorting)",
        description="What one information leak is worth to the player under a rule file, exactly where every deal "
                    "can be enumerated (seen dealer cards, edge-sorted Baccarat), estimated with 99.9% intervals "
                    "where deals are sampled (colluding seats).  Printed, and written to "
                    "OUT/protection/<game>/<rule set>/<scenario>/ (protection.md, protection.json, protection.xlsx), "
                    "atomically, beside the honest analysis; then the rule set's report (report.md, .html, .xlsx) "
                    "gathers every scenario written there, with the published anchors beside the figures "
                    "(docs/protection.md).",
        epilog="examples:\n  analyzer protect caribbean-stud --dealer-cards 1\n"
               "  analyzer protect casino-holdem --colluders 4 --deals 20000 --seed 7\n"
               "  analyzer protect baccarat --edge-sort 6789 --cards 4 --json\n"
               "  analyzer protect baccarat --best-grouping")
    protected = protect.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in (game for game in registry.GAMES if game.has(Protection)):
        sub = protected.add_parser(game.name, help=f"{game.name}: " + ", ".join(o.flag for o in game.protect_scenarios))
        sub.add_argument("--rules", metavar="FILE", help=RULES_HELP + game.rules_help)
        add_options(sub, game.protect_scenarios, exclusive=True, required=True)
        add_options(sub, game.protect_options)
        sub.add_argument("--json", action="store_true", help="print one JSON object: {rule set: figures}")
        add_light(sub, "results root (default ./results): OUT/protection/...; checked before any work")

    audit = commands.add_parser(
        "audit", help="judge a log of decisions played: honest-optimal, explained only by a leak, or neither",
        description="Read a log of hands played (CSV: round, player, the cards each player saw, the dealer's "
                    "cards as revealed, the decision taken; docs/audit-log.md) and mark each decision, by exact EVs "
                    "counted over every completion of what was not seen: honest-optimal; explained only by a leak "
                    "(seen-K: K of the dealer's hole cards seen, the smallest K first; collusion: the other seats "
                    "of the round pooled); or neither.  Per player: how many decisions of each kind, the exact EV "
                    "gained by the decisions only a leak explains, and the honest EV given up, per ANTE.  Printed; "
                    "with --out also written (audit.md, audit.csv, audit.json), atomically.",
        epilog="examples:\n  analyzer audit caribbean-stud table7.csv\n"
               "  analyzer audit casino-holdem night.csv --json --out /tmp/audit-night")
    audit.add_argument("game", choices=registry.names(SeenCards), help="the game")
    audit.add_argument("log", metavar="LOG.csv", help="the decision log")
    audit.add_argument("--rules", metavar="FILE", help=RULES_HELP)
    audit.add_argument("--json", action="store_true", help="print the report as one JSON object")
    audit.add_argument("--out", metavar="DIR", type=out_folder,
                       help="write the report to this folder (created, or replaced when it holds only an earlier "
                            "audit's files)")

    derive = commands.add_parser(
        "derive-basic", help="re-derive a game's basic strategy from its exact EVs (the rule list as TOML)",
        description="Count and price the rule file, then search for the basic strategy (a short rule list a "
                    "person can play) the committed one was derived by, with the same parameters; prints the "
                    "rule list as TOML (the search's progress on stderr), or writes it to --write.",
        epilog="examples:\n  analyzer derive-basic casino-holdem\n"
               "  analyzer derive-basic caribbean-stud --rules standard.toml --write basic.toml")
    derive.add_argument("game", choices=registry.names(DerivableBasic), help="the game")
    derive.add_argument("--rules", metavar="FILE", help=RULES_HELP)
    derive.add_argument("--write", metavar="FILE", help="write the rule list here (default: print it)")

    check = commands.add_parser(
        "verify", help="re-check results by independent means (hashes, totals, re-enumeration, Monte Carlo)",
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
    add_checks(check, "--", "situations to re-enumerate per game (default 200)",
               f"Monte Carlo rounds per game (default: about a minute for all games; 0 skips, else at least "
               f"{MIN_MONTE_CARLO_ROUNDS})", "random seed of the samples and the Monte Carlo, >= 0")
    check.add_argument("--no-recount", action="store_true",
                       help="skip re-deriving the round statistics (variance, hit frequency, net distribution) "
                            "by re-counting every deal with the game's kernel (Casino Hold'em: about 25 s)")
    check.add_argument("--quiet", action="store_true", help="no progress bars")

    every = commands.add_parser("all", help="every analysis on every built-in rule set (the main job)",
                                formatter_class=argparse.HelpFormatter,
                                description="Run every game's analysis on each of its built-in rule "
                                            "sets and write all results under --out.")
    add_common(every)

    sweep = commands.add_parser(
        "sweep", help="analyse many rule files (e.g. a paytable grid) and write one comparison table",
        description="Analyse each rule file (any game; the file's [game] says which) with the same "
                    "executor and the count cache (rule files on one deck and qualifier are counted once), then "
                    "write --out/sweeps/NAME/comparison.md, .csv and .xlsx with every rule set's key figures "
                    "side by side (exact fractions and decimals).  With --publish, each rule set's full, verified "
                    "results folder is written too.",
        epilog="examples:\n  analyzer sweep grid/*.toml --name tie-payouts\n"
               "  analyzer sweep grid/*.toml --scheduler tcp://scheduler:8786")
    sweep.add_argument("rule_files", nargs="+", metavar="FILE", help="rule files to analyse")
    sweep.add_argument("--name", default="sweep", type=folder_name,
                       help="name of the comparison (folder under --out/sweeps)")
    sweep.add_argument("--publish", action="store_true",
                       help="also write each rule set's results folder (verified, with reports and strategy files)")
    add_common(sweep)

    design = commands.add_parser(
        "design", help="vary one payout: exact breakpoints, house edge and RTP as functions of it, and the "
                       "payout that meets a target",
        description="Vary one payout KEY of a rule file (theta).  Under optimal play the EV is convex and "
                    "piecewise linear in theta (each situation class plays the better of folding and a + b theta); "
                    "for a fixed-strategy wager (a side bet, a Baccarat bet) it is linear.  Reports, exactly: every "
                    "breakpoint in the range where the optimal strategy changes (and how many classes switch), "
                    "the house edge and RTP on each piece as linear functions of theta, the theta* meeting "
                    "--target-rtp or --target-house-edge, and the nearest printable values (multiples of --step) "
                    "either side with their exact figures; writes design.md, design.json, breakpoints.csv, pieces.csv, "
                    "figure_design.svg and SHA256SUMS under --out/designs/.  Without --range the range is 0 to twice the rule "
                    "file's value (at least 10), doubled until it holds the target.  The count comes from the count "
                    "cache when it has it.  Numbers are exact: 0.955, 955/1000 or 95.5%.",
        epilog=DESIGN_EXAMPLES)
    design.add_argument("game", choices=registry.names(Design), help="the game")
    design.add_argument("--rules", metavar="FILE", help=RULES_HELP)
    design.add_argument("--vary", required=True, metavar="KEY",
                        help="the payout to vary, as a dotted rule-file key (e.g. raise_pays.flush, "
                             "ante_pays.straight_flush, aa_bonus.pays.flush, payouts.tie, commission.banker, "
                             "progressive.pays.flush, progressive.jackpot)")
    target = design.add_mutually_exclusive_group()
    target.add_argument("--target-rtp", metavar="X", type=_target, help="the RTP to meet (e.g. 0.955 or 95.5%%)")
    target.add_argument("--target-house-edge", metavar="X", type=_target, help="the house edge to meet")
    design.add_argument("--range", nargs=2, metavar=("A", "B"), type=_exact_number,
                        help="the values of theta examined (default 0 to twice the rule file's, at least 10, "
                             "doubled until it holds the target)")
    design.add_argument("--step", type=_positive_number, metavar="S",
                        help="printable payouts are multiples of S (default 1; 1/2 for halves)")
    design.add_argument("--jackpot", type=_positive_number, metavar="J",
                        help="caribbean-stud progressive amounts: the jackpot at which the RTP is taken (default "
                             "the rule file's first jackpot level)")
    add_light(design, "results root (default ./results); checked before any work")
    return parser


def _target(text: str):
    """An exact number, or a percentage ("95.5%")."""
    percent = text.strip().endswith("%")
    value = _exact_number(text.strip().rstrip("%"))
    return value / 100 if percent else value


def _positive_number(text: str):
    return _exact_number(text, positive=True)


def progress_bar(quiet: bool):
    """A factory for tqdm bars on stderr (or silent ones); tqdm is imported when a bar is first made."""
    def make(**kwargs):
        from tqdm import tqdm
        return tqdm(disable=quiet, file=sys.stderr, dynamic_ncols=True, **kwargs)
    return make


def pipeline_run(args, argv=None, drawer=None):
    """The pipeline's settings from the command line (one executor for the whole command); with `argv`, those of
    an analysis that publishes results folders (`drawer`: the `drawing.Drawer` that draws its figures, if any)."""
    from analyzer.publish.options import CheckOptions
    from analyzer.publish.pipeline import Run
    from analyzer.core.execution import make_executor
    publishing = {} if argv is None else dict(argv=argv, replace=args.replace, drawer=drawer,
                                              checks=CheckOptions(args.check_samples, args.check_rounds, args.seed))
    if not hasattr(args, "_executor"):        # made once per command, reused by every analysis; closed by main
        args._executor = make_executor(args.jobs, args.scheduler)
    cache = None if args.no_cache else Path(args.cache) if args.cache else Path(args.out) / ".cache"
    return Run(out_root=args.out, executor=args._executor, progress=progress_bar(args.quiet), cache=cache,
               **publishing)


def run_games(jobs: list, args, argv) -> None:
    """Analyse and publish [(game, rule paths or None)], everything checked before any work; one line per game.
    The drawing child is forked first, so its import of matplotlib overlaps this process's imports."""
    from analyzer.publish import drawing

    def options(game):                   # the game's own options that were given: keywords of its analysis
        dests = (option.flag.lstrip("-").replace("-", "_") for option in game.options)
        return {dest: getattr(args, dest) for dest in dests if getattr(args, dest, None) is not None}

    def done(game, published, seconds):
        folder = published[0].folder if len(published) == 1 else published[0].folder.parent
        print(f"{game.name}: wrote {folder} ({seconds:.2f} s)")
    with drawing.drawing_process() as drawer:
        from analyzer.publish import pipeline
        pipeline.run_games(jobs, pipeline_run(args, argv, drawer), options, done)


def live_shoe(game: registry.Game, args) -> None:
    """`analyzer baccarat --remove/--counts`: each bet's exact EV for the shoe, printed (an option of the
    analysis given with it, --out, --replace, --jobs, ..., is refused: nothing is counted or written)."""
    defaults = vars(build_parser().parse_args([game.name]))
    keeps = {"rules", "json", "quiet", *(option.flag.lstrip("-") for option in game.query_options)}
    ignored = [dest for dest, value in vars(args).items() if dest not in keeps and value != defaults.get(dest)]
    if ignored:
        raise InputError(f"--{ignored[0].replace('_', '-')} does not apply to a live-shoe question "
                         f"({' or '.join(o.flag for o in game.query_options)}: each bet's EV is printed, nothing "
                         "is counted or written)")
    _, rules = game.load_rules(args.rules)
    answer = game.module.live_shoe(rules, remove=args.remove, counts=args.counts)
    if args.json:
        best, second = sorted(answer["ev"].values(), reverse=True)[:2]
        print(json.dumps({"decision": answer["best_bet"], "shoe": answer["shoe"],
                          "ev": {bet: fraction_str(ev) for bet, ev in answer["ev"].items()},
                          "margin": fraction_str(best - second)}, sort_keys=True))
        return
    print(f"shoe: {answer['cards']} cards, by value 0..9: {answer['shoe']}")
    for bet, ev in answer["ev"].items():
        print(f"  {bet:<7} EV per unit {decimal_str(ev, 8):>12}  ({fraction_str(ev)})")
    print(f"best bet: {answer['best_bet']}")


def advise(args) -> None:
    from analyzer import advisor
    game = registry.game(args.game)
    path = args.strategy or advisor.strategy_path(args.results, args.game, args.rule_set, basic=args.basic)
    strategy = advisor.load_strategy(path)
    if strategy.game != args.game:
        raise InputError(f"{path} is a {strategy.game} strategy file, not {args.game}")
    if not args.strategy and strategy.rule_set != args.rule_set:
        raise InputError(f"{path} is of rule set {strategy.rule_set!r} (its header and manifest say), not "
                         f"{args.rule_set!r}: a results folder moved or copied to another rule set's place")
    if getattr(args, "seen", None) is not None:
        answer = advisor.decide_seen(strategy, path, [getattr(args, flag) for flag, _ in game.advise_groups], args.seen)
    elif game.has(DecisionTable):
        answer = strategy.decide(*(getattr(args, flag) for flag, _ in game.advise_groups))
    else:
        answer = strategy.decide(strategy.shoe(remove=args.remove, counts=args.counts))
    if args.json:
        print(json.dumps({**answer.as_json(), "rule_set": strategy.rule_set}, sort_keys=True))
        return
    if isinstance(answer, advisor.SeenDecision):
        print(f"{args.game} ({strategy.rule_set}), seeing {cards_str(answer.seen)}: {answer.exploit.decision.upper()}"
              f"   (honest: {answer.honest.decision.upper()}   [{answer.honest.key}])")
        print_evs(answer.exploit, "seeing them")
        print_evs(answer.honest, "honest")
        return
    print(f"{args.game} ({strategy.rule_set}): {answer.decision.upper()}   [{answer.key}]")
    print_evs(answer)


def print_evs(answer, label: str = "") -> None:
    """Each action's EV, best first, and the margin (under a label when there are two answers)."""
    if label:
        print(f"  {label}:")
    for action, ev in sorted(answer.ev.items(), key=lambda item: -item[1]):
        print(f"  {action:<7} EV {decimal_str(ev, 8):>12}  ({fraction_str(ev)})")
    print(f"  margin  {decimal_str(answer.margin, 8):>12}")


def protect(args, argv) -> None:
    """`analyzer protect GAME SCENARIO`: the leak's figures printed (or one JSON object), its folders written."""
    from analyzer.publish import protect as protection
    game = registry.game(args.game)
    options = {o.flag.lstrip("-").replace("-", "_"): getattr(args, o.flag.lstrip("-").replace("-", "_"))
               for o in (*game.protect_scenarios, *game.protect_options)}
    done = protection.run(game, [args.rules] if args.rules else None, options, pipeline_run(args), argv)
    print(json.dumps(protection.as_json(done, game), sort_keys=True) if args.json
          else "\n".join(protection.summary_lines(done, game)))


def derive_basic(args) -> None:
    """`analyzer derive-basic`: the game's basic strategy re-derived, as TOML whose comment says how."""
    game = registry.game(args.game)
    rule_file, rules = game.load_rules(args.rules)
    strategy, seeded, parameters = game.module.derive_basic(rule_file, rules,
                                                            log=lambda line: print(line, file=sys.stderr))
    parameters = {k: v for k, v in parameters.items() if k != "seed"}
    text = strategy.to_toml(
        f"Derived by `analyzer derive-basic {args.game}{' --rules ' + str(args.rules) if args.rules else ''}` from "
        f"the exact per-situation EVs of rule set '{rule_file.name}' (rule file sha256 {rule_file.sha256}),\n"
        f"{seeded}, with {parameters}.\nEdit by re-deriving; the tests recompute every figure of this list.")
    if args.write:
        Path(args.write).write_text(text, encoding="utf-8")
    else:
        print(text)


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: what is staged is removed, what was published stays."""


def _terminate(signum, frame):
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    memory.one_arena()            # before any thread: what threads free goes back with memory.release()
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:                             # --help, --version, or a one-line usage error
        return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
    try:
        previous_sigterm = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:                                     # not the main thread: leave signals alone
        previous_sigterm = None
    try:
        if args.command == "all":
            run_games([(game, None) for game in registry.GAMES], args, argv)   # every built-in rule set
        elif args.command == "advise":
            advise(args)
        elif args.command == "audit":
            from analyzer.publish import audit
            report = audit.run(registry.game(args.game), args.log, args.rules, args.out)
            lines = [json.dumps(audit.as_json(report), sort_keys=True)] if args.json else audit.summary_lines(report)
            print("\n".join(lines + ([f"audit: wrote {args.out}"] if args.out and not args.json else [])))
        elif args.command == "protect":
            protect(args, argv)
        elif args.command == "derive-basic":
            derive_basic(args)
        elif args.command == "sweep":
            from analyzer.publish import sweep
            folder = sweep.run(args.rule_files, args.name, pipeline_run(args, argv), publish=args.publish)
            print(f"sweep: wrote {folder}/comparison.md")
        elif args.command == "design":
            from analyzer.publish import design
            kind, target = ("house_edge", args.target_house_edge) if args.target_house_edge is not None \
                else ("rtp", args.target_rtp)
            answer = design.solve(registry.game(args.game), args.rules, args.vary, pipeline_run(args), target, kind,
                                  *(args.range or (None, None)), args.step, args.jackpot)
            folder = design.write(answer)
            print("\n".join([*design.summary_lines(answer), f"design: wrote {folder}/design.md"]))
        elif args.command == "verify":
            from analyzer.publish import verify
            from analyzer.publish.options import CheckOptions
            options = CheckOptions(args.samples, args.rounds, args.seed, recount=not args.no_recount)
            return 0 if verify.run(args.paths, options, progress_bar(args.quiet)) else EXIT_FAILURE
        else:
            game = registry.game(args.command)
            if any(getattr(args, o.flag.lstrip("-").replace("-", "_")) is not None for o in game.query_options):
                live_shoe(game, args)
            elif game.query_options and args.json:
                raise InputError("--json answers a live-shoe question: give "
                                 + " or ".join(o.flag for o in game.query_options) + " with it")
            else:
                run_games([(game, [args.rules] if args.rules else None)], args, argv)
    except (InputError, OutputError) as error:
        print(f"analyzer: error: {one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT if isinstance(error, InputError) else EXIT_FAILURE
    except InvariantError as error:
        print(f"analyzer: internal check failed: {one_line(error)}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as error:                               # the machine, not the input: one line, exit 1
        where = f" ({error.filename})" if error.filename else ""
        print(f"analyzer: error: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt as interruption:
        what = "terminated" if isinstance(interruption, Terminated) else "interrupted"
        print(f"analyzer: {what}; results already published are complete, nothing partial was left",
              file=sys.stderr)
        return EXIT_TERMINATED if isinstance(interruption, Terminated) else EXIT_INTERRUPTED
    finally:
        if hasattr(args, "_executor"):
            args._executor.close()
        if previous_sigterm is not None:
            signal.signal(signal.SIGTERM, previous_sigterm)
    return 0
