"""The one list of games: each registered once, with everything the command line, verify and the advisor need.

A game is a folder `analyzer/games/<folder>/`: its `game` module is its face (`interface.Face`), `rules/`
holds its built-in rule files.  No game is imported until `Game.module` is first used, so the advisor and
`--help` stay light.  Adding a game touches its own folder and one entry of `GAMES`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import import_module, resources
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.games.interface import (CachedCount, DecisionTable, DerivableBasic, Design, LiveShoe, Protection,
                                      ReadmeFigures, SeenCards)


@dataclass(frozen=True)
class Option:
    """A game-specific command-line option: its flag and argparse keywords (type "exact" = an exact number)."""

    flag: str
    keywords: dict


@dataclass(frozen=True)
class Game:
    """One registered game."""

    name: str                    # the command and the rule files' [game].game, e.g. "casino-holdem"
    folder: str                  # results/<folder>/<rule set>/ and analyzer/games/<folder>/
    title: str
    rule_files: tuple            # built-in rule files in analyzer/games/<folder>/rules/, the operator's first
    help: str                    # one line for `analyzer --help`
    description: str             # `analyzer <game> --help`
    epilog: str
    monte_carlo_rounds: int      # default rounds of the pre-publication and `verify` Monte Carlo
    capabilities: tuple = ()     # the optional protocols of analyzer.games.interface its face has
    advise_groups: tuple = ()    # (flag, help) per card group of `analyzer advise <game>` (a DecisionTable)
    seen_help: str = ""          # `analyzer advise <game> --seen`'s help (a SeenCards game)
    options: tuple = ()          # Option: extra options of `analyzer <game>` passed to its analysis
    query_options: tuple = ()    # Option: options that turn `analyzer <game>` into a question answered at once
    rules_help: str = ""         # what --rules defaults to
    kernels: tuple = ()          # the compiled modules its count runs (their digests key the count cache)
    protect_scenarios: tuple = ()   # Option: `analyzer protect <game>`'s scenarios, one of them given (Protection)
    protect_options: tuple = ()     # Option: what those scenarios take besides (--deals, --seed, --cards)
    package: str = ""            # where its folder is imported from (default analyzer.games.<folder>)

    def __post_init__(self):
        if not self.package:
            object.__setattr__(self, "package", f"analyzer.games.{self.folder}")

    def has(self, capability) -> bool:
        """Whether the entry declares that optional protocol of analyzer.games.interface."""
        return capability in self.capabilities

    @property
    def module(self):
        """The game's face, its `game` module (imported on first use)."""
        return import_module(f"{self.package}.game")

    @property
    def advice(self):
        """A LiveShoe game's `advice` module, what the advisor reads its strategy file with."""
        return import_module(f"{self.package}.advice")

    @property
    def seen(self):
        """A SeenCards game's `seen` module, what the advisor and the audit price one deal's seen cards with."""
        return import_module(f"{self.package}.seen")

    @property
    def builtin_rule_paths(self) -> list[Path]:
        folder = resources.files(self.package) / "rules"
        return [Path(str(folder / name)) for name in self.rule_files]

    @property
    def protection_anchors(self) -> Path:
        """The published figures a Protection game's leaks are set beside (TOML; analyzer.figures.protection)."""
        return Path(str(resources.files(self.package) / "protection_anchors.toml"))

    def builtin_rule_name(self, sha256: str) -> str | None:
        """The name of the built-in rule file whose bytes have this sha256, if one has: a results folder names
        the rule file it analysed by content, never by the name it was given under."""
        return next((path.name for path in self.builtin_rule_paths
                     if hashlib.sha256(path.read_bytes()).hexdigest() == sha256), None)

    def load_rules(self, path=None):
        """(RuleFile, typed rules) of the rule file at `path`, default the operator's built-in one."""
        return self.module.load_rules(path or self.builtin_rule_paths[0])


def _dealer_cards(limit: int, when: str) -> Option:
    return Option("--dealer-cards", {"type": "whole", "metavar": "K",
                                     "help": f"K = 1..{limit} of the dealer's hole cards seen {when}: the exploit's "
                                             "exact figures"})


def _colluders(limit: int, shown: str) -> Option:
    return Option("--colluders", {"type": "whole", "metavar": "N",
                                  "help": f"N = 2..{limit} seats pooling {shown}: estimated from --deals sampled deals "
                                          "(each priced exactly), with 99.9%% intervals"})


def _sampling(deals: int) -> tuple:
    return (Option("--deals", {"type": "deals", "default": deals, "metavar": "N",
                               "help": f"--colluders: the deals sampled (default {deals:,})"}),
            Option("--seed", {"type": "whole", "default": 1, "help": "--colluders: the sampling's seed (default 1)"}))


GAMES = (
    Game(
        name="baccarat", folder="baccarat", title="Punto banco Baccarat", rule_files=("baccarat.toml",),
        help="punto banco: BANKER, PLAYER, TIE exactly, for any shoe",
        description="Punto banco, every round dealt from a full shoe.  Without --remove/--counts: the "
                    "full analysis (exact outcome counts over every ordered 6-card sequence, house "
                    "edge and RTP of each bet, the BANKER commission-rounding table by stake, the "
                    "effect of removing one card of each value), written to --out.  With "
                    "--remove or --counts: the live-shoe question 'what does each bet return now?', "
                    "printed, nothing written.",
        epilog="examples:\n  analyzer baccarat\n  analyzer baccarat --rules six_decks.toml\n"
               "  analyzer baccarat --remove 5,5,9,K\n  analyzer baccarat --counts 128,32,32,32,32,31,32,32,32,30 --json",
        monte_carlo_rounds=4_000_000, kernels=("baccarat_enum",),
        capabilities=(LiveShoe, Design, ReadmeFigures, Protection),
        protect_scenarios=(
            Option("--edge-sort", {"metavar": "VALUES", "nargs": "?", "const": "6789",
                                   "help": "edge-sorted backs: the values (digits 0..9, 0 = T J Q K) told apart from "
                                           "the rest on the first --cards cards (default 6789)"}),
            Option("--best-grouping", {"action": "store_true",
                                       "help": "search every split of the ten values for the largest edge, K = 1..4"})),
        protect_options=(Option("--cards", {"type": "whole", "metavar": "K",
                                            "help": "--edge-sort: the first K = 1..4 cards dealt are read (default 1)"}),),
        query_options=(
            Option("--remove", {"metavar": "CARDS", "help": "cards already dealt from the full shoe, by rank: "
                                                            "e.g. 5,5,9,K (suits optional)"}),
            Option("--counts", {"metavar": "N0,...,N9",
                                "help": "the shoe as 10 counts of card values 0 (T J Q K), 1 (A), 2, ..., 9"}),
        )),
    Game(
        name="casino-holdem", folder="casino_holdem", title="Casino Hold'em with the AA Bonus",
        rule_files=("casino_holdem.toml",),
        help="Casino Hold'em + AA Bonus: optimal call/fold for every (hole, flop)",
        description="Casino Hold'em with the AA Bonus.  Enumerates every (2 hole cards, flop) situation "
                    "(1,286,792 suit classes) against every turn/river and dealer hole pair (1,070,190 "
                    "continuations each), decides call or fold exactly, and reports house edge, probability "
                    "of calling and RTP for the optimal, always-call, call-on-AA-win and jointly optimal "
                    "strategies, the AA Bonus RTP under each, the PAR sheet and the strategy file.  About "
                    "15 s on two cores.",
        epilog="examples:\n  analyzer casino-holdem\n  analyzer casino-holdem --aa-ratio 0.5 --out /tmp/r",
        monte_carlo_rounds=4_000_000, kernels=("handeval", "isomorphism", "holdem_enum"),
        capabilities=(CachedCount, DecisionTable, SeenCards, DerivableBasic, Design, ReadmeFigures, Protection),
        protect_scenarios=(_dealer_cards(2, "at the flop decision"), _colluders(6, "their hole cards")),
        protect_options=_sampling(20_000),
        advise_groups=(("hole", "the player's 2 hole cards, e.g. \"Ah Kd\""),
                       ("flop", "the 3 flop cards, e.g. \"Qs 7h 2c\"")),
        seen_help="1 or 2 of the dealer's hole cards, seen at the flop, e.g. 7h",
        options=(Option("--aa-ratio", {"type": "exact", "metavar": "K",
                                       "help": "AA Bonus stake per ANTE for the jointly optimal strategy "
                                               "(default: the rule file's aa_bonus.ratio, 1)"}),)),
    Game(
        name="caribbean-stud", folder="caribbean_stud", title="Caribbean Stud Poker with the progressive jackpot",
        rule_files=("caribbean_stud.toml", "caribbean_stud.standard.toml"),
        help="Caribbean Stud + progressive: optimal raise/fold for every (hand, up card)",
        description="Caribbean Stud Poker with the progressive jackpot.  Counts every (5-card hand, dealer up "
                    "card) situation (5,649,150 suit classes) against every completion of the dealer's hand "
                    "(163,185 each), decides raise or fold exactly, and reports house edge, probability of "
                    "raising, element of risk and RTP for the optimal and simple strategies, the optimal rule "
                    "in words with every exception and its exact cost, the progressive's RTP as a function "
                    "of the jackpot, the PAR sheet and the strategy file.  Without --rules: every built-in "
                    "rule set (operator and standard), counted once.  A few seconds on two cores.",
        epilog="examples:\n  analyzer caribbean-stud\n  analyzer caribbean-stud --rules my_paytable.toml --out /tmp/r",
        monte_carlo_rounds=3_000_000, kernels=("handeval", "stud_enum"),
        capabilities=(CachedCount, DecisionTable, SeenCards, DerivableBasic, Design, ReadmeFigures, Protection),
        protect_scenarios=(_dealer_cards(4, "besides the up card"), _colluders(7, "their five-card hands")),
        protect_options=_sampling(200_000),
        advise_groups=(("hand", "the player's 5 cards, e.g. \"Ah Kd 9s 5c 2h\""),
                       ("up", "the dealer's up card, e.g. Qd")),
        seen_help="1 to 4 of the dealer's hole cards, seen besides the up card, e.g. \"7h 2c\"",
        rules_help=" (default: every built-in rule set)"),
)


def game(name: str) -> Game:
    """The game of that name (as in the command line and rule files); InputError if none."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise InputError(f"unknown game {name!r} (one of: {', '.join(names())})")


def names(capability=None) -> list[str]:
    """The games' names (those declaring `capability`, when given), in registry order."""
    return [game.name for game in GAMES if capability is None or game.has(capability)]
