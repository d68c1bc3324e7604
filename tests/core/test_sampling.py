"""The Monte Carlo's dealing: the same cards for the same seed as the plain draw-and-recount, and a fair shoe."""
import numpy as np
import pytest

from analyzer.core.sampling import deal_values


def plain_deal_values(rng, rounds, shoe, k):
    """Each draw: sum the cards left afresh and take the value whose running count passes the pick."""
    left = np.tile(np.array(shoe, dtype=np.int64), (rounds, 1))
    out = np.empty((rounds, k), dtype=np.int64)
    for position in range(k):
        pick = rng.integers(0, sum(shoe) - position, size=rounds)
        value = (np.cumsum(left, axis=1) <= pick[:, None]).sum(axis=1)
        out[:, position] = value
        left[np.arange(rounds), value] -= 1
    return out


@pytest.mark.parametrize("shoe, k", [((128, 32, 32, 32, 32, 32, 32, 32, 32, 32), 6), ((1, 0, 2, 0, 0, 1), 4),
                                     ((3,), 3), ((0, 5, 0, 0, 1, 0, 0, 0, 0, 7), 13)])
@pytest.mark.parametrize("seed", [0, 7])
def test_the_same_cards_as_the_plain_recount(shoe, k, seed):
    fast = deal_values(np.random.Generator(np.random.PCG64(seed)), 2_000, shoe, k)
    plain = plain_deal_values(np.random.Generator(np.random.PCG64(seed)), 2_000, shoe, k)
    assert fast.dtype == np.int64 and (fast == plain).all()


def test_no_value_is_dealt_more_often_than_the_shoe_holds():
    shoe = (2, 1, 0, 3)
    dealt = deal_values(np.random.Generator(np.random.PCG64(1)), 5_000, shoe, 6)
    for value, cards in enumerate(shoe):
        assert ((dealt == value).sum(axis=1) == cards).all()       # the whole shoe dealt: each value exactly
