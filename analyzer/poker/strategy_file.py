"""The strategy file of a poker game: one row per situation class (docs/strategy-format.md)."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import numpy as np

from decimal import Decimal
from fractions import Fraction

from analyzer.formats import strategy_file
from analyzer.core.errors import InputError
from analyzer.core.execution import default_jobs
from analyzer.core.exact import INT64_MAX
from analyzer.core.rules import RuleError
from analyzer.poker.decision_table import DecisionTable
from analyzer.poker.settlement import Paytable
from cython_ext.byte_planes import pack_key_bytes

FOLD, PLAY, EITHER = 0, 1, 2          # decision codes of the poker games
#: The strategy files of a poker results folder, by the strategy they hold (the optimal one's exact ties
#: are coded EITHER and counted as folds, as the figures count them).
STRATEGY_FILES = {"optimal": "strategy.bin.gz", "basic": "strategy_basic.bin.gz"}


def packed_keys(keys: np.ndarray) -> tuple[np.ndarray, bool, np.ndarray]:
    """(packed keys, whether they strictly increase, which byte values occur) of key rows of at most 8 bytes,
    in one compiled pass; packed as `analyzer.formats.strategy_file.pack_keys` packs them."""
    keys = np.asarray(keys, dtype=np.uint8)
    if keys.ndim != 2:
        raise ValueError("key rows: a two-dimensional array")
    packed, present = np.empty(len(keys), dtype=np.uint64), np.zeros(256, dtype=np.uint8)
    increasing = pack_key_bytes(keys, packed, present)
    return packed, increasing, present.astype(bool)


def key_order(keys: np.ndarray) -> tuple[bool, np.ndarray]:
    """(whether the key rows strictly increase, which byte values occur), packing KEY_CHUNK rows at a time."""
    increasing, last, present = True, -1, np.zeros(256, dtype=bool)
    for start in range(0, len(keys), KEY_CHUNK):
        packed, rising, seen = packed_keys(keys[start:start + KEY_CHUNK])
        increasing &= rising and int(packed[0]) > last
        last, present = int(packed[-1]), present | seen
    return bool(increasing), present


class KeyColumn:
    """A strategy file's key column: its order and byte values found at once, its rows packed (what a lookup
    searches) only when first asked for; verifying a folder compares the rows (`holds`) and needs no packing."""

    def __init__(self, column: np.ndarray):
        self.increasing, self.present = key_order(column)
        self._column, self._packed = column, None
        self._held = None              # the key rows last found equal to these: not compared again
        self._lock = threading.Lock()  # one packing, even when two threads ask at once

    @property
    def packed(self) -> np.ndarray:
        """The rows packed (made on first use; the column is let go then)."""
        with self._lock:
            if self._packed is None:
                self._packed = packed_keys(self._column)[0]
                self._column = None
            return self._packed

    def holds(self, keys: np.ndarray) -> bool:
        """Whether these are `keys`' rows, in the same order, compared a chunk of rows at a time."""
        with self._lock:
            if self._held is not keys and self._column is not keys:
                if not (are_packed_keys(self._packed, keys) if self._packed is not None
                        else same_rows(self._column, keys)):
                    return False
                self._held = keys
            return True


def played_masks(folder, keys: np.ndarray, loaded: dict | None = None) -> dict:
    """{strategy: play mask (the rows coded PLAY)} from a results folder's strategy files, their rows checked
    against `keys` (InputError if not the counted classes in order).  `loaded`: {strategy: the advisor's
    loaded file}, used instead of decoding, each taken out once read so that its columns can go."""
    masks = {}
    for name, file in STRATEGY_FILES.items():
        path = Path(folder) / file
        if loaded and name in loaded:
            strategy = loaded.pop(name)
            same, decisions = strategy.keys.holds(keys), strategy.decisions
        elif path.is_file():
            _, columns = strategy_file.decode(path.read_bytes(), str(path), ("key", "decision"))
            decisions, same = columns["decision"], same_rows(columns["key"], keys)
        else:
            continue
        if not same:
            raise InputError(f"{path}: its situation keys are not the classes the rule file's deck counts")
        masks[name] = decisions == PLAY
    return masks


KEY_CHUNK = 1 << 16        # key rows packed or compared at a time: small temporaries, no fresh pages


def same_rows(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two key columns hold the same rows in the same order, compared a chunk of rows at a time."""
    return a is b or a.shape == b.shape and all(
        np.array_equal(a[i:i + KEY_CHUNK], b[i:i + KEY_CHUNK]) for i in range(0, len(a), KEY_CHUNK))


def are_packed_keys(packed: np.ndarray, keys: np.ndarray) -> bool:
    """Whether `packed` is `strategy_file.pack_keys(keys)`, packed and compared a chunk of rows at a time.

    >>> keys = np.array([[1, 2], [0, 255]], dtype=np.uint8)
    >>> are_packed_keys(strategy_file.pack_keys(keys), keys), are_packed_keys(strategy_file.pack_keys(keys[::-1]), keys)
    (True, False)
    """
    if packed.shape != (len(keys),):
        return False
    return all(np.array_equal(packed_keys(keys[start:start + KEY_CHUNK])[0], packed[start:start + KEY_CHUNK])
               for start in range(0, len(keys), KEY_CHUNK))


def optimal_decisions(table: DecisionTable) -> np.ndarray:
    """0 fold / 1 play / 2 either (exactly equal EVs) for every class, read off the EVs."""
    play, tie = table.optimal()
    decisions = play.astype(np.uint8)
    decisions[tie] = EITHER
    return decisions


def check_ev_column(rule_file, paytable: Paytable, outcomes: int, contributions: dict) -> None:
    """Refuse, before any counting, a paytable whose EVs the strategy file's signed 64-bit column cannot hold.

    Every EV numerator is a sum of `outcomes` nets over the paytable's scale, and the denominator is
    outcomes x scale; when either exceeds 2^63-1 a RuleError names the key of `contributions` (key ->
    payout or bet size per ANTE) that weighs most: the finest fraction, or the largest value.
    """
    nets, scale = paytable.net_matrix()
    largest = max(abs(int(x)) for x in nets.ravel())
    needed = max(largest, scale) * outcomes
    if needed <= INT64_MAX:
        return
    values = {key: Fraction(value) for key, value in contributions.items()}
    net = Fraction(paytable.largest_net)
    net_text = f"{(Decimal(net.numerator) / Decimal(net.denominator)).normalize():.6g}"    # no float: it may be 1e400
    if net * outcomes <= INT64_MAX:      # whole payouts would fit: the fractions are too fine
        key = max(values, key=lambda k: (values[k].denominator, k))
        why = (f"its payouts' common denominator {scale:,} x the largest net per ANTE "
               f"({net_text}) x {outcomes:,} continuations per situation")
    else:
        key = max(values, key=lambda k: (abs(values[k]), k))
        why = (f"the largest net per ANTE ({net_text}) x {outcomes:,} continuations per "
               "situation" + (f" x the payouts' common denominator {scale:,}" if scale > 1 else ""))
    raise RuleError(str(rule_file.path), key, f"{why} is {Decimal(needed):.3e}, beyond the strategy file's signed "
                                             f"64-bit EV column (at most 2^63-1 = {INT64_MAX:,}); use smaller or "
                                             "coarser payouts")


# gzip levels: the EV column, most of the file and of the time, at level 4 (half of level 6's time, 5% more bytes)
LEVEL = 6
EV_LEVEL = 4


@cache
def _deflating() -> ThreadPoolExecutor:
    """The threads the strategy files' columns are deflated on, one per core (zlib releases the GIL)."""
    return ThreadPoolExecutor(default_jobs(), thread_name_prefix="strategy-file")


def shared_columns(cache: dict) -> dict:
    """The deflated columns every strategy file made from one count holds (`cache`: the count's `derived`):
    its keys and weights, deflated once for all its rule sets."""
    return cache.setdefault("strategy file columns", {})


class DecisionTableFiles:
    """The strategy files of one decision table, their columns deflated on background threads from `start`
    (or when `data` asks); the keys, weights and EVs they share are deflated once (`shared`: the keys and
    weights, for other tables on the same count)."""

    def __init__(self, *, game: str, rule_file, groups: list, actions: list, ev_column: str, key_text: str,
                 keys: np.ndarray, table: DecisionTable, shared: dict | None = None):
        actions = list(actions)
        self._header = {
            "game": game, "rule_set": rule_file.name, "rule_sha256": rule_file.sha256,
            "key": key_text, "groups": [{"name": name, "cards": size} for name, size in groups],
            "actions": actions, "ev_column": ev_column,
            "decision_codes": {str(FOLD): actions[0], str(PLAY): actions[1], str(EITHER): "either (equal EVs)"},
            "denominator": table.denominator, "ev_fold": table.fold_numerator, "ev_unit": "ANTE",
            "weight": "raw situations the class stands for", "situations": str(table.total_weight),
        }
        self._rule_file, self._keys, self._table, self._ev_column = rule_file, keys, table, ev_column
        # column name -> (its array, future of its segment): the keys and weights with other tables, the EVs here
        self._shared, self._own = {} if shared is None else shared, {}
        self._arrays = None
        self._codes, self._started = {}, {}                 # file name -> its decision codes, its columns' futures
        self._made = set()                                  # files whose bytes were made (their segments let go)

    def add(self, name: str, codes: np.ndarray | None = None, start: bool = False) -> None:
        """A file `name` of these decision codes (None: the optimal ones, ties coded EITHER), deflated from
        now on if `start`."""
        self._codes[name] = codes
        if start:
            self._start(name)

    def start(self) -> None:
        """Start deflating every file not started yet."""
        for name in self._codes:
            if name not in self._started and name not in self._made:
                self._start(name)

    def data(self, name: str) -> bytes:
        """The file's bytes (deflating started now if it was not, and waited for).  Raises InputError
        when an EV numerator does not fit the file's 64-bit column.  Its segments are let go once it is
        made (the EVs' with the table's last file; asked again, it is deflated again)."""
        if name not in self._started:
            self._start(name)
        columns, futures = self._started.pop(name)
        self._made.add(name)
        data = strategy_file.encode(self._header, columns, level=LEVEL,
                                    deflated={column: future.result() for column, future in futures.items()})
        if not self._started:
            self._own.clear()
        return data

    def columns(self) -> dict:
        """The columns every file of this table holds (keys, weights, EVs), as written: what reading the files
        back compares them with.  InputError when an EV numerator does not fit the 64-bit column."""
        table = self._table
        if self._arrays is None:
            if table.ev_play.dtype == object or table.denominator > INT64_MAX:
                raise InputError(f"rule file {self._rule_file.path}: the paytable's EV numerators exceed the "
                                 "strategy file's 64-bit column (use smaller or coarser payouts)")
            self._arrays = {"key": np.ascontiguousarray(self._keys),
                            "weight": table.weights.astype(np.uint8, copy=False),
                            self._ev_column: table.ev_play.astype("<i8", copy=False)}
        return dict(self._arrays)

    def _start(self, name: str) -> None:
        codes = self._codes[name]
        codes = optimal_decisions(self._table) if codes is None else codes
        arrays, ev_column = self.columns(), self._ev_column
        columns = {"key": arrays["key"], "weight": arrays["weight"], "decision": codes.astype(np.uint8, copy=False),
                   ev_column: arrays[ev_column]}
        futures = {column: self._segment(column, array, EV_LEVEL if column == ev_column else LEVEL)
                   for column, array in columns.items() if column != "decision"}
        futures["decision"] = _deflating().submit(strategy_file.deflate, columns["decision"], LEVEL)
        self._started[name] = columns, futures

    def _segment(self, column: str, array: np.ndarray, level: int):
        """The future of a shared column's segment, deflated once for every file holding this very array."""
        segments = self._shared if column in ("key", "weight") else self._own
        held = segments.get(column)
        if held is None or held[0] is not array:
            held = segments[column] = array, _deflating().submit(strategy_file.deflate, array, level)
        return held[1]
