"""Suit isomorphism: the compiled canonicalizer equals the plain one, and is a true invariant."""
import itertools
import random

import numpy as np
import pytest

from analyzer.core.isomorphism import canonical_groups
from cython_ext.isomorphism import canonical_keys

SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def rename(cards, perm):
    return [(c // 4) * 4 + perm[c % 4] for c in cards]


@pytest.mark.parametrize("sizes", [(2, 3), (5, 1), (5,), (2, 3, 2)])
def test_compiled_equals_plain(sizes):
    rng = random.Random(sum(sizes))
    rows = np.array([rng.sample(range(52), sum(sizes)) for _ in range(3000)], dtype=np.uint8)
    compiled = canonical_keys(rows, sizes)
    for row, key in zip(rows.tolist(), compiled.tolist()):
        groups, start = [], 0
        for size in sizes:
            groups.append(row[start:start + size])
            start += size
        assert tuple(key) == tuple(c for g in canonical_groups(groups) for c in g)


def test_every_suit_renaming_gives_the_same_key():
    rng = random.Random(3)
    for _ in range(500):
        cards = rng.sample(range(52), 6)
        keys = {canonical_groups((rename(cards[:5], p), rename(cards[5:], p))) for p in SUIT_PERMUTATIONS}
        assert len(keys) == 1


def test_distinct_classes_stay_distinct():
    """Different ranks, or a different suit pattern, must not collapse."""
    ah_kh = canonical_groups(([50, 46], [0, 4, 8]))      # Ah Kh / 2c 3c 4c
    ah_kd = canonical_groups(([50, 45], [0, 4, 8]))      # Ah Kd / 2c 3c 4c
    assert ah_kh != ah_kd


def test_counts_five_card_classes():
    """The 2,598,960 five-card hands fall into 134,459 suit classes."""
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    keys = canonical_keys(hands, (5,))
    assert len(np.unique(keys, axis=0)) == 134_459
