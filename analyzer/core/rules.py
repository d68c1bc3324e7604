"""Rule files: a game's TOML rule file checked against the schema the game declares with the vocabulary below;
`load_rule_file` refuses what does not fit, naming the file, the key and the problem.  Numbers are exact:
TOML floats are read as decimals, and strings may hold "p/q".
"""
from __future__ import annotations

import copy
import hashlib
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from analyzer.core.errors import InputError
from analyzer.core.exact import to_fraction
from analyzer.core.files import NotAFile, read_regular_file

Spec = Callable[[Any, str, str], Any]   # (value, file, dotted key) -> checked value


class RuleError(InputError):
    """A rule file that cannot be analysed.  str() names the file, the key and the problem."""

    PREFIX = "rule file"

    def __init__(self, file: str, key: str, problem: str):
        self.file, self.key, self.problem = file, key, problem
        where = f": key '{key}'" if key else ""
        super().__init__(f"{self.PREFIX} {file}{where}: {problem}")


@dataclass(frozen=True)
class RuleFile:
    """A checked rule file: its raw bytes (hashed and copied into the results) and its data."""

    path: Path
    raw: bytes
    data: dict

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def game(self) -> str:
        return self.data["game"]["game"]

    @property
    def name(self) -> str:
        return self.data["game"]["rule_set"]

    @property
    def title(self) -> str:
        return self.data["game"]["title"]


# --- the schema vocabulary -------------------------------------------------------------

TYPE_NAMES = ((bool, "a boolean"), (int, "an integer"), ((Decimal, float), "a decimal number"), (str, "a string"),
              (list, "a list"), (dict, "a table"))          # bool first: a bool is an int


def _type_name(value) -> str:
    return next((name for kind, name in TYPE_NAMES if isinstance(value, kind)), type(value).__name__)


def integer(minimum: int | None = None, maximum: int | None = None) -> Spec:
    def check(value, file, key):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(file, key, f"must be an integer, not {_type_name(value)} ({value!r})")
        if minimum is not None and value < minimum:
            raise RuleError(file, key, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise RuleError(file, key, f"must be at most {maximum}, got {value}")
        return value
    return check


def number(minimum: Fraction | int | None = 0, maximum: Fraction | int | None = None) -> Spec:
    """An exact non-negative (by default) number: integer, decimal, or a "p/q" string."""
    def check(value, file, key):
        if isinstance(value, (bool, list, dict)):
            raise RuleError(file, key, f"must be a number, not {_type_name(value)} ({value!r})")
        try:
            exact = to_fraction(value)
        except (TypeError, ValueError) as error:
            raise RuleError(file, key, f"must be a number, not {value!r} ({error})") from None
        if minimum is not None and exact < minimum:
            raise RuleError(file, key, f"must not be below {minimum}, got {value}")
        if maximum is not None and exact > maximum:
            raise RuleError(file, key, f"must not be above {maximum}, got {value}")
        return exact
    check.bounds = (minimum, maximum)
    return check


def published_percent() -> Spec:
    """A published figure as the operator prints it, such as "98.94%" (refused before any work if malformed)."""
    def check(value, file, key):
        if not isinstance(value, str):
            raise RuleError(file, key, f"must be a percentage in quotes such as \"98.94%\", not "
                                       f"{_type_name(value)} ({value!r})")
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?%", value.strip()):
            raise RuleError(file, key, f"{value!r} is not a percentage such as \"98.94%\" "
                                       "(digits, at most one decimal point, then %)")
        return value
    return check


def boolean() -> Spec:
    def check(value, file, key):
        if not isinstance(value, bool):
            raise RuleError(file, key, f"must be true or false, not {_type_name(value)} ({value!r})")
        return value
    return check


def text(choices: tuple[str, ...] | None = None) -> Spec:
    def check(value, file, key):
        if not isinstance(value, str):
            raise RuleError(file, key, f"must be a string, not {_type_name(value)} ({value!r})")
        if choices is not None and value not in choices:
            raise RuleError(file, key, f"must be one of {', '.join(map(repr, choices))}, got {value!r}")
        return value
    return check


def list_of(item: Spec, unique: bool = True, min_length: int = 0, what: str = "list",
            item_key=lambda key, i: f"{key}[{i}]") -> Spec:
    """A list of items each checked by `item`; `item_key(key, i)` names item i in messages."""
    def check(value, file, key):
        if not isinstance(value, list):
            raise RuleError(file, key, f"must be a {what}, not {_type_name(value)} ({value!r})")
        if len(value) < min_length:
            raise RuleError(file, key, f"must list at least {min_length} item(s)")
        checked = [item(v, file, item_key(key, i)) for i, v in enumerate(value)]
        if unique and len(set(map(str, checked))) != len(checked):
            raise RuleError(file, key, f"lists an item twice: {value!r}")
        return checked
    return check


def any_table(non_empty: bool = False, what: str = "table") -> Spec:
    """A table whose keys are checked elsewhere (e.g. a rule list's conditions, named by feature)."""
    def check(value, file, key):
        if not isinstance(value, dict) or (non_empty and not value):
            raise RuleError(file, key, f"must be a {'non-empty ' if non_empty else ''}{what}, not {value!r}")
        return value
    return check


def table(fields: dict[str, Spec], optional: tuple[str, ...] = ()) -> Spec:
    """A TOML table with exactly these keys (those in `optional` may be left out)."""
    def check(value, file, key):
        if not isinstance(value, dict):
            raise RuleError(file, key, f"must be a table, not {_type_name(value)} ({value!r})")
        for name in value:
            if name not in fields:
                where = f"{key}.{name}" if key else name
                raise RuleError(file, where, f"unknown key (expected one of: {', '.join(fields)})")
        checked = {}
        for name, spec in fields.items():
            where = f"{key}.{name}" if key else name
            if name in value:
                checked[name] = spec(value[name], file, where)
            elif name not in optional:
                raise RuleError(file, where, f"missing {'table' if hasattr(spec, 'fields') else 'key'}")
        return checked
    check.fields = fields
    return check


# --- loading ---------------------------------------------------------------------------

MAX_RULE_FILE_BYTES = 1 << 20          # a rule file is a page of text; anything larger is not one
MAX_RULE_SET_NAME = 64                 # the rule set names a folder (and its hidden staging twin)


def read_toml(path: Path, error: type) -> tuple[bytes, dict]:
    """(raw bytes, document) of a TOML file with exact decimals; error(file, key, problem) if unreadable.
    Only a regular file of at most MAX_RULE_FILE_BYTES is read; a UTF-8 byte-order mark is accepted."""
    shown = str(path)
    try:
        raw = read_regular_file(path, MAX_RULE_FILE_BYTES)
    except NotAFile as failure:
        raise error(shown, "", f"{failure} (give the path of a .toml rule file)") from None
    except OSError as failure:
        raise error(shown, "", f"cannot be read ({failure.strerror or failure})") from None
    if len(raw) > MAX_RULE_FILE_BYTES:
        raise error(shown, "", f"is larger than {MAX_RULE_FILE_BYTES:,} bytes: not a rule file")
    try:
        return raw, tomllib.loads(raw.decode("utf-8-sig"), parse_float=Decimal)
    except UnicodeDecodeError as failure:
        raise error(shown, "", f"is not UTF-8 text (byte {failure.start})") from None
    except tomllib.TOMLDecodeError as failure:
        raise error(shown, "", f"is not valid TOML ({failure})") from None
    except RecursionError:
        raise error(shown, "", "is not a rule file: its arrays or tables are nested too deeply") from None


def load_rule_file(path: str | Path, game: str, schema: Spec) -> RuleFile:
    """Read and check a rule file for `game` against its `schema` (whose [game] table names the game, the
    rule set and a title); raise RuleError naming what is wrong."""
    path = Path(path)
    shown = str(path)
    raw, document = read_toml(path, RuleError)
    header = document.get("game")
    if not isinstance(header, dict):
        raise RuleError(shown, "game", "missing table (it names the game and the rule set)")
    if header.get("game") != game:
        raise RuleError(shown, "game.game", f"this analysis needs a {game!r} rule file, "
                                            f"this one is for {header.get('game')!r}")
    data = schema(document, shown, "")
    check_folder_name(data["game"]["rule_set"], lambda problem: RuleError(shown, "game.rule_set", problem))
    return RuleFile(path=path, raw=raw, data=data)


FOLDER_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def check_folder_name(name: str, error) -> str:
    """A name that becomes a folder (a rule set, a sweep): ASCII letters, digits, '-' or '_', at most 64;
    error(problem) builds the exception to raise."""
    if not name or not set(name) <= FOLDER_NAME_CHARACTERS or name.startswith("-"):
        raise error(f"{name!r} must be ASCII letters, digits, '-' or '_', not starting with '-' "
                    "(it names the results folder)")
    if len(name) > MAX_RULE_SET_NAME:
        raise error(f"{name[:20]!r}... is {len(name)} characters long; at most {MAX_RULE_SET_NAME} "
                    "(it names the results folder)")
    return name


GAME_HEADER = table({"game": text(), "rule_set": text(), "title": text(), "source": text()}, optional=("source",))


# --- one payout varied (analyzer design) -----------------------------------------------------

def numeric_keys(data: dict, sections: tuple[str, ...]) -> list[str]:
    """The dotted keys of every exact number under the given top-level tables of checked rule data."""
    def walk(prefix, node):
        for name, value in node.items():
            if isinstance(value, dict):
                yield from walk(f"{prefix}{name}.", value)
            elif isinstance(value, Fraction):
                yield f"{prefix}{name}"
    return list(walk("", {section: data[section] for section in sections if isinstance(data.get(section), dict)}))


def with_value(rule_file: RuleFile, key: str, value: Fraction) -> RuleFile:
    """The rule file with the exact number at dotted `key` replaced (for pricing a variant; not for publishing)."""
    data = copy.deepcopy(rule_file.data)
    parent, _, leaf = key.rpartition(".")
    value_at(data, parent)[leaf] = Fraction(value)
    return RuleFile(path=rule_file.path, raw=rule_file.raw, data=data)


def allowed_range(schema: Spec, key: str) -> tuple:
    """(minimum, maximum) of the number the schema allows at dotted `key` (None where it sets no bound)."""
    for name in key.split("."):
        schema = schema.fields[name]
    return schema.bounds


def value_at(data: dict, key: str):
    """The value at a dotted key of checked rule data."""
    for name in key.split("."):
        data = data[name]
    return data
