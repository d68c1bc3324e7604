"""Basic strategies as data: ordered "if <conditions> then <action>" rules over named features.

Each rule is a conjunction of conditions on *features* (what the player sees) and an action; the
first rule that holds decides, else the default.  A game supplies a `FeatureSet` (actions, features with their
word templates, and their computation as integer arrays per situation class).  One `Strategy` gives the decisions
(`decide`), the rules in words (`lines`; `chained` for "Otherwise fold if ...") and its TOML (`to_toml`, read back
by `load_strategy`), which looks like::

    [strategy]
    game = "casino-holdem"
    name = "basic"
    title = "Casino Hold'em basic strategy"
    default = "fold"

    [[rule]]
    then = "call"
    if = { hand = { min = "one_pair" } }

A condition is `feature = value`, or a table with `min`, `max` (both: an inclusive range),
`below`, `not`, `in` or `not_in`, values spelled as the feature's kind spells them.  A condition
on a feature that does not apply to a situation never holds.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.rules import RuleError, any_table, list_of, read_toml, table, text

HOLDS = {"eq": lambda v, x: v == x, "ne": lambda v, x: v != x, "min": lambda v, x: v >= x,
         "max": lambda v, x: v <= x, "between": lambda v, x: (v >= x[0]) & (v <= x[1]),
         "below": lambda v, x: v < x, "in": np.isin, "not_in": lambda v, x: ~np.isin(v, x)}
OPS = tuple(HOLDS)
TOML_OPS = {"min", "max", "below", "not", "in", "not_in"}     # the keys of a condition table


class RuleListError(RuleError):
    """A basic-strategy file or rule that cannot be used; str() names the file, the key and the problem."""

    PREFIX = "basic strategy"


# --- feature kinds: how values are written in TOML and in words ----------------------------

class Kind:
    """How one feature's integer values are spelled: `parse` and `toml` (TOML), `word` (words), `values`."""

    ops: tuple = ()


@dataclass(frozen=True)
class Flag(Kind):
    """A yes/no feature: 1 or 0, written true / false; conditions are `feature = true|false`."""

    ops: tuple = ("eq",)

    def parse(self, value, file, key):
        if not isinstance(value, bool):
            raise RuleListError(file, key, f"must be true or false, not {value!r}")
        return int(value)

    def toml(self, value):
        return "true" if value else "false"

    word = toml

    def values(self):
        return range(2)


@dataclass(frozen=True)
class Count(Kind):
    """An integer from `low` to `high`, written as itself."""

    low: int
    high: int
    names: tuple = ()         # how the card says each value from low up ("" for the number itself)
    ops: tuple = ("eq", "ne", "min", "max", "between")

    def parse(self, value, file, key):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleListError(file, key, f"must be an integer from {self.low} to {self.high}, not {value!r}")
        if not self.low <= value <= self.high:
            raise RuleListError(file, key, f"must be from {self.low} to {self.high}, got {value}")
        return value

    def toml(self, value):
        return str(value)

    def word(self, value):
        return self.names[value - self.low] if self.names else str(value)

    def values(self):
        return range(self.low, self.high + 1)


@dataclass(frozen=True)
class Named(Kind):
    """Ordered named values 0, 1, 2, ...: written by name in TOML, by their word in the card."""

    names: tuple              # TOML spelling, in order (value = index)
    words: tuple              # how the card says each value
    ops: tuple = OPS

    def parse(self, value, file, key):
        if not isinstance(value, str) or value not in self.names:
            raise RuleListError(file, key, f"must be one of {', '.join(map(repr, self.names))}, not {value!r}")
        return self.names.index(value)

    def toml(self, value):
        return f'"{self.names[value]}"'

    def word(self, value):
        return self.words[value]

    def values(self):
        return range(len(self.names))


def ordered_templates(subject: str) -> dict:
    """Word templates of a feature with ordered values (a rank): "<subject> is {value} or higher", ..."""
    return {"eq": f"{subject} is {{value}}", "min": f"{subject} is {{value}} or higher",
            "max": f"{subject} is {{value}} or lower", "between": f"{subject} is {{low}} to {{high}}"}


@dataclass(frozen=True)
class Feature:
    """A named feature: its kind, what it means, and the card's word template for each operator (with
    `{value}`, `{low}`/`{high}` or `{values}`; a Flag's keyed "true"/"false").  `missing`: the value
    where the feature does not apply, or None."""

    name: str
    kind: Kind
    meaning: str
    templates: dict
    missing: int | None = None
    term: str = ""              # the word the card's glossary explains (none: the feature needs no gloss)
    searched: bool = True       # whether the derivation search may use it (False: for stating fitted rules)

    def template(self, op: str, value) -> str:
        return self.templates[("true" if value else "false") if isinstance(self.kind, Flag) else op]


@dataclass(frozen=True)
class FeatureSet:
    """A game's vocabulary: its actions, its features, and how to compute them from situation keys."""

    game: str
    actions: tuple                                   # action names; decisions are indices into this
    features: dict                                   # name -> Feature
    compute: Callable[[np.ndarray], dict]            # keys -> {name: int array}

    def verb(self, action: str) -> str:
        return action.capitalize()


def computed_in_chunks(compute_rows: Callable[[np.ndarray], dict], keys: np.ndarray, declared: dict,
                       rows: int = 1 << 18) -> dict:
    """compute_rows(keys) (feature name -> one value per key row), `rows` rows at a time, into whole int8
    arrays; the features computed must be the `declared` ones."""
    keys = np.ascontiguousarray(keys, dtype=np.uint8)
    parts = [compute_rows(keys[start:start + rows]) for start in range(0, len(keys), rows)] or [compute_rows(keys)]
    if missing := set(declared) ^ set(parts[0]):
        raise InvariantError(f"features computed and declared differ: {sorted(missing)}")
    return {name: np.concatenate([part[name] for part in parts], dtype=np.int8) for name in parts[0]}


# --- conditions, rules, strategies -----------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    """One test on one feature: op is one of OPS; value an int, (low, high) or a tuple of ints."""

    feature: str
    op: str
    value: object

    def holds(self, values: dict, features: FeatureSet) -> np.ndarray:
        v, missing = values[self.feature], features.features[self.feature].missing
        result = HOLDS[self.op](v, self.value)
        return result if missing is None else result & (v != missing)

    def words(self, features: FeatureSet) -> str:
        feature = features.features[self.feature]
        kind, template = feature.kind, feature.template(self.op, self.value)
        if self.op == "between":
            return template.format(low=kind.word(self.value[0]), high=kind.word(self.value[1]))
        if self.op in ("in", "not_in"):
            return template.format(values=join_words([kind.word(x) for x in self.value], "or"))
        return template.format(value=kind.word(self.value))

    def toml(self, features: FeatureSet) -> str:
        kind = features.features[self.feature].kind
        if self.op == "eq":
            return kind.toml(self.value)
        if self.op == "between":
            return f"{{ min = {kind.toml(self.value[0])}, max = {kind.toml(self.value[1])} }}"
        if self.op in ("in", "not_in"):
            return f"{{ {self.op} = [{', '.join(kind.toml(x) for x in self.value)}] }}"
        return f"{{ {'not' if self.op == 'ne' else self.op} = {kind.toml(self.value)} }}"


@dataclass(frozen=True)
class Rule:
    """If every condition holds, take `action`."""

    conditions: tuple
    action: str

    def holds(self, values: dict, features: FeatureSet) -> np.ndarray:
        result = None
        for condition in self.conditions:
            held = condition.holds(values, features)
            result = held if result is None else result & held
        return result

    def words(self, features: FeatureSet, chained: bool = False, first: bool = True) -> str:
        """One sentence: 'Call if a, b and c.'; in a chain 'Raise if a and b.', then 'Otherwise fold if ...'."""
        verb = features.verb(self.action)
        parts = [c.words(features) for c in self.conditions]
        return (f"{verb if first or not chained else 'Otherwise ' + verb.lower()} if "
                f"{' and '.join(parts) if chained else join_words(parts, 'and')}.")


@dataclass(frozen=True)
class Strategy:
    """An ordered rule list and a default action: the first rule that holds decides."""

    game: str
    name: str
    title: str
    rules: tuple
    default: str
    features: FeatureSet
    source: str = ""                      # where it was read from (for messages), or ""
    notes: tuple = ()                     # one optional note per rule ("" where none)
    chained: bool = False                 # read as one chain: "Otherwise <verb> if ..." after the first rule

    def first_rule(self, values: dict) -> np.ndarray:
        """Index of the rule that decides each situation (len(rules) where the default decides)."""
        n = len(next(iter(values.values())))
        which = np.full(n, len(self.rules), dtype=np.int16)
        undecided = np.ones(n, dtype=bool)
        for index, rule in enumerate(self.rules):
            hit = undecided & rule.holds(values, self.features)
            which[hit] = index
            undecided &= ~hit
        return which

    def decide(self, values: dict) -> np.ndarray:
        """The action index (into the feature set's actions) of every situation."""
        codes = np.array([self.features.actions.index(r.action) for r in self.rules]
                         + [self.features.actions.index(self.default)], dtype=np.int8)
        return codes[self.first_rule(values)]

    def default_words(self) -> str:
        return f"Otherwise {self.default}." if self.rules else f"{self.features.verb(self.default)}."

    def lines(self) -> list[str]:
        """The rules in words: one sentence per rule, then the default."""
        return [rule.words(self.features, self.chained, index == 0) for index, rule in enumerate(self.rules)] \
            + [self.default_words()]

    def to_toml(self, header_comment: str = "") -> str:
        """The rule list as TOML text that `load_strategy` reads back to an equal Strategy."""
        out = [f"# {line}" if line else "#" for line in header_comment.splitlines()]
        out += ["[strategy]", f"game = {_quote(self.game)}", f"name = {_quote(self.name)}",
                f"title = {_quote(self.title)}", f"default = {_quote(self.default)}"]
        for index, (rule, line) in enumerate(zip(self.rules, self.lines())):
            out += ["", f"# {index + 1}. {line}", "[[rule]]", f"then = {_quote(rule.action)}"]
            out += [f"note = {_quote(note)}" for note in self.notes[index:index + 1] if note]
            conditions = ", ".join(f"{c.feature} = {c.toml(self.features)}" for c in rule.conditions)
            out.append(f"if = {{ {conditions} }}")
        return "\n".join(out) + "\n"


def strategy_card_markdown(strategy: Strategy) -> str:
    """The rules on one page: numbered sentences, the default, and a glossary of the terms they use."""
    out = [f"# {strategy.title}", "", "Go down the list: the first rule that fits your cards decides.", ""]
    out += [f"{i}. {line}" for i, line in enumerate(strategy.lines(), 1)]
    features = strategy.features.features
    named = dict.fromkeys(condition.feature for rule in strategy.rules for condition in rule.conditions)
    used = [features[name] for name in named if features[name].term]
    if used:
        out += ["", "Terms:", ""] + [f"- *{f.term}*: {f.meaning}." for f in used]
    return "\n".join(out) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def join_words(parts: list[str], conjunction: str) -> str:
    """'a', 'a and b', 'a, b and c'.

    >>> join_words(["x", "y", "z"], "or")
    'x, y or z'
    """
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]


# --- reading and checking ------------------------------------------------------------------------

def condition_from_toml(name: str, spec, features: FeatureSet, file: str, key: str) -> Condition:
    """One `feature = spec` entry of a rule's `if` table, checked."""
    feature = features.features.get(name)
    if feature is None:
        raise RuleListError(file, key, f"unknown feature {name!r} (the {features.game} features are: "
                                       f"{', '.join(features.features)})")
    kind = feature.kind
    if not isinstance(spec, dict):
        return Condition(name, "eq", kind.parse(spec, file, key))
    unknown = set(spec) - TOML_OPS
    if unknown:
        raise RuleListError(file, f"{key}.{sorted(unknown)[0]}",
                            f"unknown operator (use one of: {', '.join(sorted(TOML_OPS))}, or write the value itself)")
    ops = set(spec)
    if ops == {"min", "max"}:
        low, high = kind.parse(spec["min"], file, f"{key}.min"), kind.parse(spec["max"], file, f"{key}.max")
        if low > high:
            raise RuleListError(file, key, f"min {spec['min']!r} is above max {spec['max']!r}")
        op, value = "between", (low, high)
    elif len(ops) != 1:
        raise RuleListError(file, key, "a condition takes one operator (or min and max together), "
                                       f"got {', '.join(sorted(ops)) or 'none'}")
    else:
        (word,) = ops
        op = "ne" if word == "not" else word
        if op in ("in", "not_in"):
            items = spec[word]
            if not isinstance(items, list) or not items:
                raise RuleListError(file, f"{key}.{word}", f"must be a non-empty list, not {items!r}")
            parsed = [kind.parse(x, file, f"{key}.{word}[{i}]") for i, x in enumerate(items)]
            if len(set(parsed)) != len(parsed):
                raise RuleListError(file, f"{key}.{word}", f"lists a value twice: {items!r}")
            value = tuple(sorted(parsed))
        else:
            value = kind.parse(spec[word], file, f"{key}.{word}")
    allowed = [o for o in kind.ops if isinstance(kind, Flag) or o in feature.templates]
    if op not in allowed:
        raise RuleListError(file, key, f"feature {name!r} takes no {op!r} condition (it takes: {', '.join(allowed)})")
    return Condition(name, op, value)


def rule_list_schema(features: FeatureSet):
    """A rule list's TOML shape, in the rule files' schema vocabulary; conditions are checked by feature."""
    return table({
        "strategy": table({"game": text(), "name": text(), "title": text(), "default": text(choices=features.actions)}),
        "rule": list_of(table({"then": text(choices=features.actions),
                               "if": any_table(non_empty=True, what="table of conditions (a rule without "
                                                                    "conditions is the default)"),
                               "note": text()}, optional=("note",)),
                        unique=False, what="array of tables ([[rule]])", item_key=lambda key, i: f"rule {i + 1}"),
    }, optional=("rule",))


def strategy_from_data(data: dict, features: FeatureSet, file: str) -> Strategy:
    """A Strategy from parsed TOML, checked against the game's feature set."""
    try:
        data = rule_list_schema(features)(data, file, "")
    except RuleError as error:
        raise RuleListError(error.file, error.key, error.problem) from None
    header = data["strategy"]
    if header["game"] != features.game:
        raise RuleListError(file, "strategy.game", f"this is a {header['game']!r} strategy; expected {features.game!r}")
    rules, notes = [], []
    for index, raw in enumerate(data.get("rule", [])):
        key = f"rule {index + 1}"
        rules.append(Rule(tuple(condition_from_toml(name, spec, features, file, f"{key}.if.{name}")
                                for name, spec in raw["if"].items()), raw["then"]))
        notes.append(raw.get("note", ""))
    return Strategy(game=header["game"], name=header["name"], title=header["title"], rules=tuple(rules),
                    default=header["default"], features=features, source=file, notes=tuple(notes))


def load_strategy(path, features: FeatureSet) -> Strategy:
    """Read and check a TOML rule list; raise RuleListError naming the file and the key."""
    path = Path(path)
    return strategy_from_data(read_toml(path, RuleListError)[1], features, str(path))


def loads_strategy(text: str, features: FeatureSet, file: str = "<text>") -> Strategy:
    """Like load_strategy, from TOML text."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise RuleListError(file, "", f"is not valid TOML ({error})") from None
    return strategy_from_data(data, features, file)
