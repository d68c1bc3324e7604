"""The poker Monte Carlo's dealing: the same cards as numpy's partition and sort of every round's keys."""
import numpy as np
import pytest

from analyzer.poker import checks
from analyzer.poker.checks import deal
from cython_ext.shuffle import first_cards


def deal_at_once(rng, rounds, cards, k):
    """`deal` as it was, every round's keys drawn at once: the reference the chunked deal must equal."""
    deck = np.array(cards, dtype=np.uint8)
    keys = rng.random((rounds, len(deck)))
    top = np.argpartition(keys, k - 1, axis=1)[:, :k]
    order = np.take_along_axis(keys, top, axis=1).argsort(axis=1)
    return deck[np.take_along_axis(top, order, axis=1)]


@pytest.mark.parametrize("rounds, k, n_cards", [(0, 9, 52), (1, 9, 52), (checks.DEAL_ROWS, 5, 52),
                                                 (2 * checks.DEAL_ROWS + 17, 9, 52), (3_001, 6, 6),
                                                 (20_000, 1, 20)])
def test_deal_in_chunks_deals_the_cards_of_one_draw(rounds, k, n_cards, monkeypatch):
    cards = tuple(range(51, 51 - n_cards, -1))
    for chunk in (checks.DEAL_ROWS, 1_000, 1):
        if chunk == 1 and rounds > 3_001:
            continue
        monkeypatch.setattr(checks, "DEAL_ROWS", chunk)
        rng, reference = np.random.Generator(np.random.PCG64(7)), np.random.Generator(np.random.PCG64(7))
        first, expected = deal(rng, rounds, cards, k), deal_at_once(reference, rounds, cards, k)
        assert first.dtype == np.uint8 and first.shape == (rounds, k) and (first == expected).all()
        # and the generator is left where the one draw leaves it: the next batch is the same too
        assert (deal(rng, 100, cards, k) == deal_at_once(reference, 100, cards, k)).all()


def test_first_cards_keeps_equal_keys_in_deck_order_and_ranks_a_row_with_few_small_keys_whole():
    """Equal keys (a stable sort's order) and rows where fewer than k keys fall below the kernel's bound."""
    rng = np.random.Generator(np.random.PCG64(5))
    keys = np.round(rng.random((2_000, 52)) * 8) / 8            # nine distinct values: many ties
    keys[:500] = 1 - keys[:500] / 16                           # every key high: no candidate below the bound
    deck = np.arange(52, dtype=np.uint8)[::-1].copy()
    out = np.empty((2_000, 9), dtype=np.uint8)
    first_cards(keys, deck, out)
    assert (out == deck[np.argsort(keys, axis=1, kind="stable")[:, :9]]).all()
