"""The poker strategy files' rows against the counted classes: keys checked, packed and compared a chunk at a time."""
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.core.errors import InputError
from analyzer.formats.strategy_file import pack_keys
from analyzer.poker import strategy_file
from analyzer.poker.strategy_file import (EITHER, FOLD, PLAY, KeyColumn, are_packed_keys, key_order, packed_keys,
                                          played_masks)


def plain_are_packed_keys(packed, keys):
    """The reference: every row packed at once, then compared."""
    return packed.shape == (len(keys),) and bool((pack_keys(keys) == packed).all())


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 16])
def test_are_packed_keys_equals_packing_every_row_first(chunk, monkeypatch):
    monkeypatch.setattr(strategy_file, "KEY_CHUNK", chunk)
    rng = np.random.default_rng(31)
    for m, width in ((0, 5), (1, 6), (2, 1), (300, 5), (1000, 6), (129, 8)):
        keys = rng.integers(0, 256, size=(m, width)).astype(np.uint8)
        packed = pack_keys(keys)
        variants = [packed, packed[:-1], np.concatenate([packed, packed[:1]]), packed[::-1].copy()]
        for row in {0, m // 2, m - 1} if m else ():
            changed = packed.copy()
            changed[row] ^= np.uint64(1 << int(rng.integers(0, 8 * width)))    # one bit of one key
            variants.append(changed)
            variants.append(pack_keys(np.delete(keys, row, axis=0)))
        for candidate in variants:
            assert are_packed_keys(candidate, keys) == plain_are_packed_keys(candidate, keys)
        assert are_packed_keys(packed, keys)


def test_played_masks_check_every_file_against_the_keys(tmp_path):
    rng = np.random.default_rng(32)
    keys = rng.integers(0, 256, size=(500, 5)).astype(np.uint8)
    decisions = rng.choice([FOLD, PLAY, EITHER], size=500).astype(np.uint8)

    def loaded(optimal_keys, basic_keys):
        return {"optimal": SimpleNamespace(keys=KeyColumn(optimal_keys), decisions=decisions),
                "basic": SimpleNamespace(keys=KeyColumn(basic_keys), decisions=1 - (decisions == PLAY))}

    masks = played_masks(tmp_path, keys, loaded(keys, keys.copy()))
    assert (masks["optimal"] == (decisions == PLAY)).all() and (masks["basic"] == (decisions != PLAY)).all()
    other = keys.copy()
    other[499, 4] ^= 1
    for first, second in ((keys, other), (other, keys), (keys, keys[:-1]), (keys[1:], keys)):
        with pytest.raises(InputError, match="situation keys"):
            played_masks(tmp_path, keys, loaded(first, second))


def key_variants(rng, m: int, width: int) -> list:
    """Key rows of every kind: random, sorted and unique, with a repeat, one byte changed, planes (strided)."""
    keys = rng.integers(0, 256, size=(m, width)).astype(np.uint8)
    ordered = np.unique(keys, axis=0)
    variants = [keys, ordered, np.ascontiguousarray(ordered.T).T, ordered[::-1]]
    if len(ordered) > 1:
        repeated = ordered.copy()
        repeated[len(ordered) // 2] = repeated[len(ordered) // 2 - 1]             # a repeat, maybe at a chunk edge
        variants += [repeated, np.delete(ordered, 0, axis=0)]
    return variants


@pytest.mark.parametrize("chunk", [1, 2, 7, 64, 1 << 16])
def test_key_order_is_what_packing_every_row_finds(chunk, monkeypatch):
    monkeypatch.setattr(strategy_file, "KEY_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    for m, width in ((0, 6), (1, 6), (2, 1), (3, 2), (300, 5), (1000, 6), (129, 8)):
        for keys in key_variants(rng, m, width):
            _, increasing, present = packed_keys(keys)
            assert key_order(keys)[0] == increasing and np.array_equal(key_order(keys)[1], present)


@pytest.mark.parametrize("chunk", [1, 7, 1 << 16])
def test_a_key_column_holds_exactly_its_rows_packed_or_not(chunk, monkeypatch):
    monkeypatch.setattr(strategy_file, "KEY_CHUNK", chunk)
    rng = np.random.default_rng(40 + chunk)
    for m, width in ((0, 6), (1, 6), (300, 5), (129, 8)):
        keys = np.unique(rng.integers(0, 256, size=(m, width)).astype(np.uint8), axis=0)
        changed = keys.copy()
        if len(keys):
            changed[-1, -1] ^= 1
        for candidate in (keys, changed, keys[:-1], np.ascontiguousarray(keys.T).T):
            expected = candidate.shape == keys.shape and bool((candidate == keys).all())
            for packed_first in (False, True):
                column = KeyColumn(np.ascontiguousarray(keys.T).T)               # a file's planes
                if packed_first:
                    assert np.array_equal(column.packed, pack_keys(keys))
                assert column.holds(candidate) == expected
                assert column.holds(candidate) == expected                       # asked again
            assert np.array_equal(column.packed, pack_keys(keys))               # packed after a comparison
