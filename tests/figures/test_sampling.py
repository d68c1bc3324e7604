"""The Monte Carlo's shoe dealing: the same cards for the same seed as the plain draw-and-recount, and a fair shoe."""
import time

import numpy as np
import pytest

from analyzer.figures import sampling
from analyzer.figures.sampling import draw_positions, tally_rounds, values_at, Tally


def deal_values(rng, rounds, shoe, k):
    return values_at(draw_positions(rng, rounds, shoe, k), shoe)


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


def test_a_value_listed_once_per_category_is_one_value_to_the_variance_check():
    """A progressive's fixed payouts list -1 once per losing category: the check must add their
    probabilities, not count the rounds at -1 once per listing (that made small-deck runs fail)."""
    from fractions import Fraction

    from analyzer.figures.sampling import Tally
    rng = np.random.Generator(np.random.PCG64(3))
    values, probabilities = [-1, 3, 49], [Fraction(8, 10), Fraction(15, 100), Fraction(5, 100)]
    mean = sum(v * p for v, p in zip(values, probabilities))
    variance = sum((v - mean) ** 2 * p for v, p in zip(values, probabilities))
    tally = Tally(1)
    tally.add(rng.choice(np.array(values), size=50_000, p=[float(p) for p in probabilities]))
    merged = tally.compare_variance(variance, list(zip(values, probabilities)))
    listed = tally.compare_variance(variance, [(-1, Fraction(5, 10)), (-1, Fraction(2, 10)), (3, Fraction(15, 100)),
                                               (-1, Fraction(1, 10)), (49, Fraction(5, 100))])
    assert merged["passed"] and listed["passed"] and listed["z"] == merged["z"]
    assert not tally.compare_variance(variance * Fraction(11, 10), list(zip(values, probabilities)))["passed"]


def test_tally_rounds_gives_the_tallies_of_one_thread_dealing_and_adding_in_order(monkeypatch):
    """Batches settled on threads, the first ones slowest (so they end last), added as one plain loop adds them:
    the same sums (exact: the squares pass 2**63) and each bet's values in the order they first came."""
    monkeypatch.setattr(sampling, "BATCH", 700)                # 15 batches, more than the threads hold at once
    rounds, big = 10_000, 1 << 40

    def deal_batch(rng, size):
        return rng.integers(-3, 40, size=size) * rng.choice([1, big], size=size, p=[0.999, 0.001])

    def settle_batch(dealt):
        time.sleep(0.002 * max(0, 5 - int(dealt[0]) % 6))      # uneven: later batches often finish first
        return {"main": dealt, "side": dealt % 7 - 1}

    rng = np.random.Generator(np.random.PCG64(11))
    tallies, updates = {"main": Tally(4), "side": Tally(4)}, []
    tally_rounds(lambda size: deal_batch(rng, size), settle_batch, rounds, tallies,
                 type("Bar", (), {"update": lambda self, n: updates.append(n)})())
    plain, reference = {bet: [0, 0, 0, {}] for bet in tallies}, np.random.Generator(np.random.PCG64(11))
    for size in sampling.batches(rounds):
        dealt = deal_batch(reference, size)
        for bet, nets in {"main": dealt, "side": dealt % 7 - 1}.items():
            sums = plain[bet]
            for net in sorted(set(nets.tolist())):            # a batch's new values in ascending order, as Tally's
                sums[3].setdefault(net, 0)
            for net in nets.tolist():
                sums[0], sums[1], sums[2] = sums[0] + 1, sums[1] + net, sums[2] + net * net
                sums[3][net] += 1
    assert updates == list(sampling.batches(rounds)) and sum(updates) == rounds
    for bet, tally in tallies.items():
        assert [tally.rounds, tally.total, tally.squares] == plain[bet][:3] and tally.denominator == 4
        assert list(tally.values.items()) == list(plain[bet][3].items())
    assert tallies["main"].squares > 2 ** 63
