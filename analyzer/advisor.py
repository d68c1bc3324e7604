"""The strategy advisor's reader: load a strategy file, check it, answer "what now?" for concrete deals.

`load_strategy(path)` checks the file (docs/strategy-format.md) against the manifest beside it and
returns an object whose `decide(...)` answers one deal and `decide_many(...)` a batch.  A live-shoe
game answers through its `advice` module, seen dealer cards through its `seen` module; never a
game's counting, matplotlib or sympy (import contracts say so).
"""
from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np

from analyzer.formats import strategy_file
from analyzer.core.cards import N_CARDS, RANKS, SUITS, CardError, card_str, parse_cards, parse_groups
from analyzer.core.errors import InputError
from analyzer.core.exact import fraction_str
from analyzer.core.files import read_regular_file
from analyzer.core.isomorphism import canonical_groups
from analyzer.formats.manifest import MANIFEST_NAME, ManifestError, is_published, read_manifest
from analyzer.games import registry
from analyzer.games.interface import DecisionTable, LiveShoe, SeenCards
from analyzer.poker.seen import play_ev
from analyzer.poker.strategy_file import EITHER, STRATEGY_FILES, KeyColumn, packed_keys, same_rows


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
        """EV of the decided action minus the best other action's (0 for "either"; negative where a card
        decides against optimal play)."""
        if self.decision not in self.ev:
            return Fraction(0)
        return self.ev[self.decision] - max(v for action, v in self.ev.items() if action != self.decision)

    def as_json(self) -> dict:
        return {"decision": self.decision, "ev": {k: fraction_str(v) for k, v in self.ev.items()},
                "margin": fraction_str(self.margin), "key": self.key}


@dataclass(frozen=True)
class SeenDecision:
    """The exploit's answer for one deal with some of the dealer's hole cards seen, beside the honest answer."""

    exploit: Decision             # each action's exact EV over every completion of the cards still unseen
    honest: Decision              # the strategy file's answer, as without seen cards
    seen: tuple                   # the dealer's cards seen

    def as_json(self) -> dict:
        exploit = {k: v for k, v in self.exploit.as_json().items() if k != "key"}
        return {**exploit, "seen": [card_str(c) for c in self.seen], "honest": self.honest.as_json()}


def decide_seen(strategy: "PokerStrategy", path: str | Path, card_texts, seen_text: str) -> SeenDecision:
    """The exploit's answer for concrete cards (one text per group) with the dealer's hole cards `seen_text`
    seen: each action's exact EV over every completion, counted by the game's `seen` module under the
    rule file beside `path`, beside the file's honest answer.  CardError for bad seen cards; InputError
    for a game without hole cards to see."""
    entry = registry.game(strategy.game)
    if not entry.has(SeenCards):
        raise InputError(f"{strategy.game} has no dealer's hole cards to see")
    honest = strategy.decide(*card_texts)
    seen = parse_cards(seen_text, None, "the seen cards")
    if not seen:
        raise CardError("--seen names no card: give one or more of the dealer's hole cards")
    folder = Path(path).parent
    _, rules = entry.seen.load_rules(folder / read_manifest(folder)["rule_file"]["name"])
    groups = [parse_cards(text, size) for (_, size), text in zip(strategy.groups, card_texts)]
    fold, play = strategy.actions
    ev = {play: play_ev(rules.paytable, entry.seen.seen_counts(rules, groups, seen)), fold: strategy.fold_ev}
    decision = "either" if ev[play] == ev[fold] else play if ev[play] > ev[fold] else fold
    return SeenDecision(Decision(decision, ev), honest, tuple(seen))


def strategy_path(results: str | Path, game: str, rule_set: str, basic: bool = False) -> Path:
    """The strategy file of a game's rule set under a results root (the basic strategy's with basic=True)."""
    info = registry.game(game)
    folder = Path(results) / info.folder / rule_set
    if not folder.is_dir():
        available = sorted(p.name for p in folder.parent.iterdir() if p.is_dir()) if folder.parent.is_dir() else []
        hint = f" (rule sets there: {', '.join(available)})" if available else \
            f"; run `analyzer {game}` first or point --results at a results folder"
        raise InputError(f"no results for {game} rule set {rule_set!r} under {results}{hint}")
    if basic and not info.has(DecisionTable):
        raise InputError(f"{game} has no basic strategy card: every bet's EV is computed for the shoe")
    return folder / STRATEGY_FILES["basic" if basic else "optimal"]


def load_strategy(path: str | Path, check_manifest: bool = True):
    """Read and check a strategy file; a PokerStrategy or a ShoeStrategy.  StrategyError when it is damaged,
    of another version, lacks a header field, does not match its folder's manifest, or that folder was
    never published."""
    return _loaded(Path(path), check_manifest, staged=False)[0]


def _read_checked(path: Path, check_manifest: bool, staged: bool, columns=None, expected=None) -> tuple[dict, dict]:
    """(header, columns) of a strategy file (`columns`: the names to keep, None all), checked against its
    folder's manifest; StrategyError as `load_strategy` says.  `expected`: {column name: an array the
    caller holds}, returned as that array where the column equals it (else the file is read again)."""
    try:
        data = read_regular_file(path)
    except OSError as error:
        raise StrategyError(f"{path}: cannot be read ({error.strerror or error})") from None
    manifest = _check_against_manifest(path, data, staged) if check_manifest else None
    try:
        header, decoded = strategy_file.decode(data, str(path), columns, expected)
        if any(decoded[name] is None for name in expected or () if name in decoded):
            header, decoded = strategy_file.decode(data, str(path), columns)
    except strategy_file.StrategyFileError as error:
        raise StrategyError(str(error)) from None
    if manifest is not None and (header.get("rule_sha256"), header.get("game"), header.get("rule_set")) != (
            manifest["rule_file"]["sha256"], manifest["game"], manifest["rule_set"]):
        raise StrategyError(f"{path}: header names game {header.get('game')!r}, rule set "
                            f"{header.get('rule_set')!r} and rule file {header.get('rule_sha256')}, the manifest "
                            f"{manifest['game']!r}, {manifest['rule_set']!r} and {manifest['rule_file']['sha256']}")
    return header, decoded


def _loaded(path: Path, check_manifest: bool, staged: bool, expected=None) -> tuple:
    """(the strategy, its key column or None) of a strategy file, made on the thread that read it."""
    header, columns = _read_checked(path, check_manifest, staged, expected=expected)
    return _made(path, _kind(path, header), header, columns), columns.get("key")


def _made(path: Path, kind, header: dict, columns: dict, *more):
    """kind(header, columns, *more), its header faults as StrategyError naming the file."""
    try:
        return kind(header, columns, *more)
    except (KeyError, TypeError, ValueError, ArithmeticError) as error:
        if isinstance(error, InputError):
            raise StrategyError(f"{path}: {error}") from None
        what = f"field {error.args[0]!r} is missing" if isinstance(error, KeyError) else f"is damaged ({error})"
        raise StrategyError(f"{path}: {header.get('game')} strategy file header {what}") from None


def load_folder_strategies(folder: str | Path, staged: bool = False, expected: dict | None = None) -> dict:
    """The strategy files of a results folder, read on threads and checked as `load_strategy` does (`staged`:
    the pipeline's own staging folder; `expected`: as `_read_checked` takes it): {"optimal": as
    `load_strategy` returns it, "basic": PokerDecisions where the folder has it, sharing equal keys}."""
    paths = {name: Path(folder) / file for name, file in STRATEGY_FILES.items()}
    optimal_path = paths.pop("optimal")
    paths = {name: path for name, path in paths.items() if path.is_file()}
    with ThreadPoolExecutor(1 + len(paths), thread_name_prefix="load-strategy") as pool:
        optimal = pool.submit(_loaded, optimal_path, True, staged, expected)
        reading = {name: pool.submit(_read_checked, path, True, staged, PokerDecisions.COLUMNS, expected)
                   for name, path in paths.items()}
    optimal, optimal_keys = optimal.result()
    loaded = {"optimal": optimal}
    for name, future in reading.items():
        header, columns = future.result()
        if not isinstance(optimal, PokerStrategy) or _kind(paths[name], header) is not PokerStrategy:
            raise StrategyError(f"{paths[name]}: not the decisions of a poker game beside its "
                                f"{optimal_path.name}")
        loaded[name] = _made(paths[name], PokerDecisions, header, columns, (optimal, optimal_keys))
    return loaded


def _kind(path: Path, header: dict):
    """The reader of a strategy file's game: PokerStrategy, or a ShoeStrategy with the game's `advice`."""
    game = header.get("game")
    names = registry.names(DecisionTable) + registry.names(LiveShoe)
    if not isinstance(game, str) or game not in names:
        raise StrategyError(f"{path}: header field 'game' is {game!r}, not one of {', '.join(names)}")
    entry = registry.game(game)
    return PokerStrategy if entry.has(DecisionTable) else partial(ShoeStrategy, advice=entry.advice)


def _check_against_manifest(path: Path, data: bytes, staged: bool = False) -> dict:
    """The folder's manifest, after checking the file's and the rule file's sha256 against it."""
    manifest_path = path.parent / MANIFEST_NAME
    try:
        manifest = read_manifest(path.parent)
    except ManifestError as error:
        raise StrategyError(f"{path}: no usable {MANIFEST_NAME} beside it to check it against ({error})") from None
    if not staged and not is_published(manifest):
        raise StrategyError(f"{path}: its folder is the staging folder of a run that did not finish "
                            f"({manifest_path} says \"published\": false); use a published results folder")
    expected = manifest["files"].get(path.name)
    if expected is None:
        raise StrategyError(f"{path}: not listed in {manifest_path}")
    if hashlib.sha256(data).hexdigest() != expected:
        raise StrategyError(f"{path}: sha256 differs from {manifest_path} (damaged or replaced file)")
    rules = path.parent / manifest["rule_file"]["name"]
    try:
        digest = hashlib.sha256(read_regular_file(rules)).hexdigest()
    except FileNotFoundError:
        raise StrategyError(f"{rules}: missing, though {manifest_path} lists it (the rule file the strategy "
                            "was computed for)") from None
    except OSError as error:
        raise StrategyError(f"{rules}: cannot be read ({error.strerror or error})") from None
    if digest != manifest["rule_file"]["sha256"]:
        raise StrategyError(f"{rules}: sha256 differs from {manifest_path}")
    return manifest


def _field(header: dict, name: str, kind, check=lambda v: True, what: str = ""):
    value = header.get(name)
    if value is None or isinstance(value, bool) and kind is not bool or not isinstance(value, kind) or not check(value):
        raise StrategyError(f"header field {name!r} is {'missing' if value is None else repr(value)}"
                            + (f", not {what}" if what else ""))
    return value


def deck_of_cards(present: np.ndarray) -> tuple:
    """The deck a poker strategy file was computed for, read off the byte values its keys hold (`present`:
    256 flags): every rank occurring, in the first (largest canonical suit + 1) suits
    (docs/strategy-format.md, section 3)."""
    cards = np.flatnonzero(present)
    if len(cards) == 0 or cards[-1] >= N_CARDS:
        raise StrategyError("keys hold no cards, or bytes that are not cards (0..51)")
    ranks = sorted({int(c) // 4 for c in cards})
    suits = int(max(int(c) % 4 for c in cards)) + 1
    return tuple(sorted(r * 4 + s for r in ranks for s in range(suits)))


class PokerDecisions:
    """A poker strategy file's situation keys and decision codes, checked: keys sorted and unique, codes 0, 1
    or 2, the deck read off the keys.  `same_keys`: (a PokerDecisions, its key column), whose keys and
    deck are shared when this file's key column is the same bytes."""

    COLUMNS = ("key", "decision")       # the columns it needs (all a file of decisions is read for)

    def __init__(self, header: dict, columns: dict, same_keys: tuple | None = None):
        self.header = header
        self.game = _field(header, "game", str)
        self.rule_set = _field(header, "rule_set", str)
        groups = _field(header, "groups", list, lambda v: v and all(
            isinstance(g, dict) and isinstance(g.get("name"), str) and isinstance(g.get("cards"), int)
            and not isinstance(g.get("cards"), bool) and g["cards"] >= 1 for g in v)
            and len({g["name"] for g in v}) == len(v), 'a list of {"name": text, "cards": n}, the names distinct')
        self.groups = [(g["name"], g["cards"]) for g in groups]
        self.actions = _field(header, "actions", list, lambda v: len(v) == 2 and all(isinstance(a, str) for a in v),
                              "two action names")                       # [fold action, play action]
        for name in self.COLUMNS:
            if name not in columns:
                raise StrategyError(f"has no {name!r} column")
        width = sum(size for _, size in self.groups)
        if columns["key"].ndim != 2 or columns["key"].shape[1] != width or width > 8:
            raise StrategyError(f"its key column is not {width} bytes wide (the groups' cards)")
        self.decisions = columns["decision"]
        if same_keys is not None and same_rows(columns["key"], same_keys[1]):
            self.keys, self.deck = same_keys[0].keys, same_keys[0].deck
        else:
            self.keys = KeyColumn(columns["key"])
            if not self.keys.increasing:
                raise StrategyError(f"{self.game} strategy file: keys are not sorted and unique")
            self.deck = frozenset(deck_of_cards(self.keys.present))
        if len(self.decisions) and int(self.decisions.max()) > EITHER:
            raise StrategyError(f"{self.game} strategy file: a decision code is not 0, 1 or 2")

    @property
    def packed(self) -> np.ndarray:
        """The keys packed (`analyzer.formats.strategy_file.pack_keys`), what a lookup searches: made on first use."""
        return self.keys.packed


class PokerStrategy(PokerDecisions):
    """A Casino Hold'em or Caribbean Stud strategy file: one row per situation class, its decision, weight
    and exact EVs."""

    COLUMNS = ("key", "decision", "weight")

    def __init__(self, header: dict, columns: dict):
        self.denominator = _field(header, "denominator", int, lambda v: v > 0, "a positive integer")
        self.ev_fold = _field(header, "ev_fold", int, what="an integer")
        ev_column = _field(header, "ev_column", str, lambda v: v in columns, "the name of a column")
        super().__init__(header, columns)
        self.fold_ev = Fraction(self.ev_fold, self.denominator)
        self.ev_play = columns[ev_column]
        self.weights = columns["weight"]

    def decide(self, *card_texts: str) -> Decision:
        """The answer for concrete cards, one text per group: e.g. decide("Ah Kd", "Qs 7h 2c")."""
        if len(card_texts) != len(self.groups):
            raise CardError(f"{self.game} needs {len(self.groups)} card groups "
                            f"({', '.join(name for name, _ in self.groups)})")
        return self.decide_cards(parse_groups(card_texts, self.groups))

    def decide_cards(self, groups: list[list[int]]) -> Decision:
        """The answer for cards as integers, one list per group (CardError for a card not in its deck)."""
        for card in (c for group in groups for c in group):
            if card not in self.deck:
                ranks = "".join(RANKS[r] for r in sorted({c // 4 for c in self.deck}))
                suits = "".join(SUITS[s] for s in sorted({c % 4 for c in self.deck}))
                raise CardError(f"card {card_str(card)} is not in the deck of the {self.game} rule set "
                                f"{self.rule_set!r} (ranks {ranks}, suits {suits})")
        canonical = canonical_groups(groups)
        key = int.from_bytes(bytes(c for group in canonical for c in group), "big")
        row = int(np.searchsorted(self.packed, np.uint64(key)))
        if row >= len(self.packed) or int(self.packed[row]) != key:
            raise StrategyError(f"situation {key:#x} is not in the {self.game} strategy file "
                                f"(a damaged file, or cards outside its deck)")
        code = int(self.decisions[row])
        return Decision("either" if code == EITHER else self.actions[code],
                        {self.actions[1]: Fraction(int(self.ev_play[row]), self.denominator),
                         self.actions[0]: self.fold_ev}, canonical)

    def decide_many(self, situations: np.ndarray) -> dict:
        """Answers for a batch of (n, cards) uint8 situations, groups back to back (not checked for duplicates):
        arrays of decision codes (0 fold, 1 play, 2 either), play EV numerators and rows in the file;
        StrategyError for an unknown situation."""
        from cython_ext.isomorphism import canonical_keys
        situations = np.ascontiguousarray(situations, dtype=np.uint8)
        keys, _, _ = packed_keys(canonical_keys(situations, tuple(size for _, size in self.groups)))
        order = np.argsort(keys, kind="stable")            # searched in key order: each search starts
        rows = np.empty(len(keys), dtype=np.intp)          # where the last one ended (cache-friendly)
        rows[order] = np.searchsorted(self.packed, keys[order])
        rows[rows >= len(self.packed)] = 0
        if not (self.packed[rows] == keys).all():
            raise StrategyError("a situation of the batch is not in the strategy file (bad cards?)")
        return {"decision": self.decisions[rows], "ev_play": self.ev_play[rows], "row": rows}


class ShoeStrategy:
    """The strategy file of a live-shoe game (Baccarat): its `advice` reads the rules and reference shoes
    (`answers`), and answers every shoe."""

    def __init__(self, header: dict, columns: dict, advice):
        self.header = header
        self.game, self.rule_set = _field(header, "game", str), _field(header, "rule_set", str)
        self.answers = advice.answers(header, columns)
        self.full_shoe = self.answers.full_shoe

    def shoe(self, remove: str | None = None, counts: str | None = None) -> tuple:
        """The shoe a user means: ten counts as text, or the cards already dealt from this file's full shoe
        (neither: the full shoe); refused unless it fits inside the full shoe."""
        return self.answers.shoe(remove, counts)

    def decide(self, counts) -> Decision:
        """The best bet and each bet's exact EV per unit for a shoe (10 counts by value)."""
        answer = self.answers.answer(counts)
        return Decision(answer["best_bet"], answer["ev"], tuple(answer["shoe"]))
