"""The poker strategy files' rows against the counted classes: packed keys compared a chunk at a time."""
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.core.errors import InputError
from analyzer.core.strategy_file import pack_keys
from analyzer.poker import strategy_file
from analyzer.poker.strategy_file import EITHER, FOLD, PLAY, are_packed_keys, played_masks


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
        return {"optimal": SimpleNamespace(packed=pack_keys(optimal_keys), decisions=decisions),
                "basic": SimpleNamespace(packed=pack_keys(basic_keys), decisions=1 - (decisions == PLAY))}

    masks = played_masks(tmp_path, keys, loaded(keys, keys.copy()))
    assert (masks["optimal"] == (decisions == PLAY)).all() and (masks["basic"] == (decisions != PLAY)).all()
    other = keys.copy()
    other[499, 4] ^= 1
    for first, second in ((keys, other), (other, keys), (keys, keys[:-1]), (keys[1:], keys)):
        with pytest.raises(InputError, match="situation keys"):
            played_masks(tmp_path, keys, loaded(first, second))
