"""The strategy file of a poker game: one row per situation class (docs/strategy-format.md)."""
from __future__ import annotations

import numpy as np

from analyzer.core import strategy_file
from analyzer.core.errors import InputError
from analyzer.poker.decision_table import DecisionTable

FOLD, PLAY, EITHER = 0, 1, 2          # decision codes of the poker games


def optimal_decisions(table: DecisionTable) -> np.ndarray:
    """0 fold / 1 play / 2 either (exactly equal EVs) for every class, read off the EVs."""
    play, tie = table.optimal()
    decisions = play.astype(np.uint8)
    decisions[tie] = EITHER
    return decisions


# gzip levels of the poker strategy files, by measurement (Caribbean Stud's 5.6 million rows,
# one core): the keys, weights and decisions compress best at level 6 and cheaply (the keys:
# 0.62 MB in 0.14 s); the EV column is most of the file and of the time: level 6 gives 6.19 MB
# in 0.52 s, level 4 6.47 MB in 0.23 s (Casino Hold'em's: 4.17 MB in 0.42 s, 4.21 MB in 0.11 s).
LEVEL = 6
EV_LEVEL = 4


def encode_decision_table(*, game: str, rule_file, groups: list, actions: list, ev_column: str, key_text: str,
                          keys: np.ndarray, table: DecisionTable, decisions: np.ndarray | None = None) -> bytes:
    """A poker game's strategy file: keys, weights, decision codes and EV-of-playing numerators.

    decisions: 0 fold / 1 play / 2 either per row; default the optimal ones.  Raises
    InputError when an EV numerator does not fit the file's 64-bit column.
    """
    files = encode_decision_tables(game=game, rule_file=rule_file, groups=groups, actions=actions,
                                   ev_column=ev_column, key_text=key_text, keys=keys, table=table,
                                   decisions={"file": decisions})
    return files["file"].result()


def encode_decision_tables(*, game: str, rule_file, groups: list, actions: list, ev_column: str, key_text: str,
                           keys: np.ndarray, table: DecisionTable, decisions: dict) -> dict:
    """Strategy files of one decision table, one per entry of `decisions` (name -> decision codes, or
    None for the optimal ones), compressed in background threads: name -> `Pending` bytes.

    The files share their keys, weights and EVs, each compressed once.  Raises InputError
    when an EV numerator does not fit the file's 64-bit column.
    """
    if table.ev_play.dtype == object:
        raise InputError(f"rule file {rule_file.path}: the paytable's EV numerators exceed the strategy "
                         "file's 64-bit column (use smaller or coarser payouts)")
    header = {
        "game": game, "rule_set": rule_file.name, "rule_sha256": rule_file.sha256,
        "key": key_text, "groups": [{"name": name, "cards": size} for name, size in groups],
        "actions": list(actions), "ev_column": ev_column,
        "decision_codes": {str(FOLD): actions[0], str(PLAY): actions[1], str(EITHER): "either (equal EVs)"},
        "denominator": table.denominator, "ev_fold": table.fold_numerator, "ev_unit": "ANTE",
        "weight": "raw situations the class stands for", "situations": str(table.total_weight),
    }
    shared = {"key": np.ascontiguousarray(keys), "weight": table.weights.astype(np.uint8, copy=False)}
    ev = table.ev_play.astype("<i8", copy=False)
    compressor = strategy_file.Compressor(LEVEL)
    out = {}
    for name, codes in decisions.items():
        codes = optimal_decisions(table) if codes is None else codes
        out[name] = compressor.encode(header, {**shared, "decision": codes.astype(np.uint8, copy=False),
                                               ev_column: ev}, levels={ev_column: EV_LEVEL})
    return out
