"""The strategy advisor's reader: load a strategy file, check it, answer "what now?" for concrete deals.

`load_strategy(path)` checks the file's format version, its sha256 and rule-file hash
against the manifest beside it, and returns an object whose `decide(...)` answers one
deal and `decide_many(...)` a batch.  Everything here follows docs/strategy-format.md;
the reader needs the core modules, the registry (which game lives in which folder), the
compiled suit canonicalizer (batches; single lookups use the plain one) and, for
Baccarat, the game's shoe counting and bet settlement; never matplotlib or sympy (a test
checks it answers with both unavailable).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer.core import strategy_file
from analyzer.core.cards import CardError, card_str, check_disjoint, parse_cards
from analyzer.core.errors import InputError
from analyzer.core.isomorphism import canonical_groups
from analyzer.core.outputs import MANIFEST_NAME
from analyzer.core.strategy_file import pack_keys
from analyzer.games import registry
from analyzer.games.baccarat.count import count_outcomes
from analyzer.games.baccarat.price import MainOutcomes, shoe_query
from analyzer.games.baccarat.rules import rules_from_strategy_header
from analyzer.games.baccarat.shoe import parse_counts, remove_cards
from analyzer.poker.strategy_file import EITHER

STRATEGY_NAME = "strategy.bin.gz"
BASIC_STRATEGY_NAME = "strategy_basic.bin.gz"


class StrategyError(InputError):
    """A strategy file that must not be used: damaged, truncated, of another version, or mismatched."""


@dataclass(frozen=True)
class Decision:
    """The answer for one deal: the best action, each action's exact EV, and the margin."""

    decision: str                 # an action name, or "either" when the best EVs are exactly equal
    ev: dict                      # action -> Fraction (per ANTE for poker games, per unit for Baccarat)
    canonical: tuple = ()         # the canonical situation the answer was read from (card groups)

    @property
    def key(self) -> str:
        if self.canonical and isinstance(self.canonical[0], tuple):
            return " / ".join(" ".join(card_str(c) for c in group) for group in self.canonical)
        return ",".join(map(str, self.canonical))

    @property
    def margin(self) -> Fraction:
        """EV of the decided action minus the best other action's (0 for "either"; negative when a
        basic strategy card decides against the optimal play: what following the card costs here)."""
        if self.decision not in self.ev:
            return Fraction(0)
        return self.ev[self.decision] - max(v for action, v in self.ev.items() if action != self.decision)

    def as_json(self) -> dict:
        return {"decision": self.decision, "ev": {k: f"{v.numerator}/{v.denominator}" for k, v in self.ev.items()},
                "margin": f"{self.margin.numerator}/{self.margin.denominator}", "key": self.key}


def strategy_path(results: str | Path, game: str, rule_set: str, basic: bool = False) -> Path:
    """The strategy file of a game's rule set under a results root (the basic strategy's with basic=True)."""
    info = registry.game(game)
    folder = Path(results) / info.folder / rule_set
    if not folder.is_dir():
        available = sorted(p.name for p in folder.parent.iterdir() if p.is_dir()) if folder.parent.is_dir() else []
        hint = f" (rule sets there: {', '.join(available)})" if available else \
            f"; run `analyzer {game}` first or point --results at a results folder"
        raise InputError(f"no results for {game} rule set {rule_set!r} under {results}{hint}")
    if basic and info.strategy_kind == "shoe":
        raise InputError(f"{game} has no basic strategy card: every bet's EV is computed for the shoe")
    return folder / (BASIC_STRATEGY_NAME if basic else STRATEGY_NAME)


def load_strategy(path: str | Path, check_manifest: bool = True):
    """Read and check a strategy file; a PokerStrategy or a BaccaratStrategy.

    Raises StrategyError when the file is damaged, truncated, of another format version,
    or does not match its folder's manifest (file sha256, rule-file sha256, game).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise StrategyError(f"{path}: cannot be read ({error.strerror})") from None
    if check_manifest:
        _check_against_manifest(path, data)
    try:
        header, columns = strategy_file.decode(data, str(path))
    except strategy_file.StrategyFileError as error:
        raise StrategyError(str(error)) from None
    if check_manifest:
        manifest = json.loads((path.parent / MANIFEST_NAME).read_text())
        if header.get("rule_sha256") != manifest["rule_file"]["sha256"] or header.get("game") != manifest["game"]:
            raise StrategyError(f"{path}: header names game {header.get('game')!r} and rule file "
                                f"{header.get('rule_sha256')}, the manifest {manifest['game']!r} and "
                                f"{manifest['rule_file']['sha256']}")
    if registry.game(header["game"]).strategy_kind == "shoe":
        return BaccaratStrategy(header, columns)
    return PokerStrategy(header, columns)


def _check_against_manifest(path: Path, data: bytes) -> None:
    manifest_path = path.parent / MANIFEST_NAME
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        raise StrategyError(f"{path}: no readable {MANIFEST_NAME} beside it to check it against") from None
    expected = manifest.get("files", {}).get(path.name)
    if expected is None:
        raise StrategyError(f"{path}: not listed in {manifest_path}")
    if hashlib.sha256(data).hexdigest() != expected:
        raise StrategyError(f"{path}: sha256 differs from {manifest_path} (damaged or replaced file)")
    rules = path.parent / manifest["rule_file"]["name"]
    if rules.exists() and hashlib.sha256(rules.read_bytes()).hexdigest() != manifest["rule_file"]["sha256"]:
        raise StrategyError(f"{rules}: sha256 differs from {manifest_path}")


class PokerStrategy:
    """A Casino Hold'em or Caribbean Stud strategy file: one row per situation class."""

    def __init__(self, header: dict, columns: dict):
        self.header = header
        self.game = header["game"]
        self.rule_set = header["rule_set"]
        self.groups = [(g["name"], g["cards"]) for g in header["groups"]]
        self.actions = header["actions"]                    # [fold action, play action]
        self.denominator = header["denominator"]
        self.ev_fold = header["ev_fold"]
        self._fold = Fraction(self.ev_fold, self.denominator)
        self.packed = pack_keys(columns["key"])
        self.decisions = columns["decision"]
        self.ev_play = columns[header["ev_column"]]
        self.weights = columns["weight"]
        if len(self.packed) > 1 and not (self.packed[1:] > self.packed[:-1]).all():
            raise StrategyError(f"{self.game} strategy file: keys are not sorted and unique")

    def _row(self, packed_key: int) -> int:
        row = int(np.searchsorted(self.packed, np.uint64(packed_key)))
        if row >= len(self.packed) or int(self.packed[row]) != packed_key:
            raise StrategyError(f"situation {packed_key:#x} is not in the {self.game} strategy file")
        return row

    def decide(self, *card_texts: str) -> Decision:
        """The answer for concrete cards, one text per group: e.g. decide("Ah Kd", "Qs 7h 2c")."""
        if len(card_texts) != len(self.groups):
            raise CardError(f"{self.game} needs {len(self.groups)} card groups "
                            f"({', '.join(name for name, _ in self.groups)})")
        groups = {name: parse_cards(text, size, f"the {name}") for (name, size), text in zip(self.groups, card_texts)}
        check_disjoint(groups)
        return self.decide_cards(list(groups.values()))

    def decide_cards(self, groups: list[list[int]]) -> Decision:
        canonical = canonical_groups(groups)
        key = 0
        for card in (c for group in canonical for c in group):
            key = key << 8 | card
        row = self._row(key)
        code = int(self.decisions[row])
        return Decision("either" if code == EITHER else self.actions[code],
                        {self.actions[1]: Fraction(int(self.ev_play[row]), self.denominator),
                         self.actions[0]: self._fold}, canonical)

    def decide_many(self, situations: np.ndarray) -> dict:
        """Answers for a batch: situations is (n, cards) uint8, the groups back to back.

        Returns arrays: decision codes (0 fold, 1 play, 2 either), the play EV numerators
        (over `denominator`), and the row of each situation in the file.  Cards are not
        checked for duplicates here (the batch form trusts its caller); unknown
        situations raise StrategyError.
        """
        from cython_ext.isomorphism import canonical_keys
        situations = np.ascontiguousarray(situations, dtype=np.uint8)
        keys = pack_keys(canonical_keys(situations, tuple(size for _, size in self.groups)))
        order = np.argsort(keys, kind="stable")            # searched in key order: each search starts
        rows = np.empty(len(keys), dtype=np.intp)          # where the last one ended (cache-friendly)
        rows[order] = np.searchsorted(self.packed, keys[order])
        rows[rows >= len(self.packed)] = 0
        if not (self.packed[rows] == keys).all():
            raise StrategyError("a situation of the batch is not in the strategy file (bad cards?)")
        return {"decision": self.decisions[rows], "ev_play": self.ev_play[rows], "row": rows}


class BaccaratStrategy:
    """A Baccarat strategy file: the rules the advisor needs, and exact answers for reference shoes."""

    def __init__(self, header: dict, columns: dict):
        self.header = header
        self.rules = rules_from_strategy_header(header)
        self.game, self.rule_set = header["game"], header["rule_set"]
        # the reference shoes must come out of the header's rules exactly as stored
        for row, shoe in enumerate(columns["shoe"].tolist()):
            main = MainOutcomes.from_counts(count_outcomes(shoe, self.rules))
            stored = (int(columns["banker_wins"][row]), int(columns["player_wins"][row]), int(columns["ties"][row]))
            if (main.banker, main.player, main.tie) != stored:
                raise StrategyError(f"baccarat strategy file: reference shoe {shoe} does not match its rules")
        self.full_shoe = tuple(columns["shoe"][int(np.argmax(columns["shoe"].sum(axis=1)))].tolist())

    def shoe(self, remove: str | None = None, counts: str | None = None) -> tuple:
        """The shoe a user means: ten counts as text, or the cards already dealt from this file's full shoe."""
        return parse_counts(counts) if counts is not None else remove_cards(self.full_shoe, remove or "")

    def decide(self, counts) -> Decision:
        """The best bet and each bet's exact EV per unit for a shoe (10 counts by value)."""
        answer = shoe_query(counts, self.rules)
        return Decision(answer["best_bet"], answer["ev"], tuple(answer["shoe"]))
