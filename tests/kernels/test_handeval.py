"""The hand evaluator: exhaustive category counts, an independent evaluator, and a plain reference."""
import random

import pytest

from plain_poker import best_value
from cython_ext import handeval

phevaluator = pytest.importorskip("phevaluator")


def test_five_card_categories_exhaustive():
    # high card .. royal flush, over all 2,598,960 five-card hands
    assert handeval.category_counts(5) == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]


def test_seven_card_categories_exhaustive():
    # over all 133,784,560 seven-card hands
    assert handeval.category_counts(7) == [23294460, 58627800, 31433400, 6461620, 6180020,
                                           4047644, 3473184, 224848, 37260, 4324]


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_agrees_with_phevaluator(n_cards):
    """phevaluator ranks 1 (royal) .. 7462 (7-5-4-3-2); the dense rank must be its mirror image."""
    rng = random.Random(n_cards)
    for _ in range(100_000):
        cards = rng.sample(range(52), n_cards)
        ours = handeval.dense(handeval.evaluate(cards))
        assert ours == 7462 - phevaluator.evaluate_cards(*cards), cards


def test_orders_hands_as_the_plain_reference():
    rng = random.Random(7)
    hands = [rng.sample(range(52), 7) for _ in range(20_000)]
    scored = sorted((handeval.evaluate(h), best_value(h)) for h in hands)
    for (value_a, ref_a), (value_b, ref_b) in zip(scored, scored[1:]):
        assert (value_a < value_b) == (ref_a < ref_b) and (value_a == value_b) == (ref_a == ref_b)
    for value, ref in scored:
        assert handeval.category(value) == ref[0]


def test_dense_rank_covers_every_distinct_hand():
    royal = handeval.evaluate([48, 44, 40, 36, 32])          # As Ks Qs Js Ts... spades: suit 0 = clubs
    worst = handeval.evaluate([0, 4, 8, 12, 21])              # 7-5-4-3-2 offsuit
    assert handeval.dense(royal) == 7461 and handeval.dense(worst) == 0


@pytest.mark.parametrize("cards,problem", [([1, 2, 3, 4], "5 to 7"), ([1, 1, 2, 3, 4], "twice"),
                                           ([1, 2, 3, 4, 52], "outside")])
def test_rejects_bad_hands(cards, problem):
    with pytest.raises(ValueError, match=problem):
        handeval.evaluate(cards)
