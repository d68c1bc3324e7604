"""Suit isomorphism in plain Python: the canonical key of one situation (docs/strategy-format.md); the
compiled `cython_ext.isomorphism` does the same for millions at once."""
from __future__ import annotations

N_SUITS, N_RANKS = 4, 13


def canonical_groups(groups) -> tuple:
    """Canonical form of a situation given as card groups, e.g. ([hole...], [flop...]): suits renamed 0..3
    (c d h s) by descending signature (the groups' rank masks, the first group highest), each group descending.

    >>> canonical_groups(([50, 45], [43, 30, 0]))      # Ah Kd / Qs 9h 2c
    ((48, 45), (42, 28, 3))
    """
    signature = [0] * N_SUITS
    for group in groups:
        signature = [s << N_RANKS for s in signature]
        for card in group:
            signature[card % N_SUITS] |= 1 << (card // N_SUITS)
    order = sorted(range(N_SUITS), key=signature.__getitem__, reverse=True)   # stable: ties keep suit order
    new_suit = [0] * N_SUITS
    for new, old in enumerate(order):
        new_suit[old] = new
    return tuple(tuple(sorted([c - c % N_SUITS + new_suit[c % N_SUITS] for c in group], reverse=True))
                 for group in groups)
