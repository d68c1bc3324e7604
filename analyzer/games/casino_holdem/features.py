"""Casino Hold'em features a player can see (hole cards + flop), per situation, for basic strategies: each a
function of the five cards unchanged by renaming suits; `FEATURES` is the strategy language's vocabulary."""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.execution import default_jobs
from analyzer.poker.hands import CATEGORIES, HAND_WORDS, ONE_PAIR, RANK_LETTERS, RANK_PLURAL, RANK_SINGULAR
from analyzer.strategy.language import (Count, Feature, FeatureSet, Flag, Named, Strategy, computed_in_chunks,
                                        load_strategy, ordered_templates)
from cython_ext import handeval, holdem_features

GAME = "casino-holdem"
ACTIONS = ("fold", "call")
ACE = 12
NOT_APPLICABLE = -1

PAIR_TYPES = ("none", "on_board", "one_hole_card", "pocket")
PAIR_TYPE_WORDS = ("not a pair", "on the board", "made with one hole card", "a pocket pair")
STRAIGHT_DRAWS = ("none", "inside", "open_ended")
DRAWS = ("none", "inside_straight", "open_ended_straight", "flush")
DRAW_WORDS = ("nothing", "an inside straight draw", "an open-ended straight draw", "four to a flush")
STRAIGHT_DRAW_WORDS = ("no straight draw", "an inside straight draw", "an open-ended straight draw")
BOARD_SUITS_WORDS = ("rainbow", "two-suited", "monotone")

# Straights as rank masks: ace-high down to the wheel (A-2-3-4-5, the ace low).
STRAIGHT_MASKS = tuple(sum(1 << (r % 13) for r in range(top - 4, top + 1)) for top in range(12, 2, -1))


FEATURES = {f.name: f for f in (
    Feature("hand", Named(CATEGORIES, HAND_WORDS), "the best poker hand of your five cards (hole cards and flop)",
            {"eq": "you hold {value}", "ne": "you do not hold {value}", "min": "you hold {value} or better",
             "max": "you hold {value} or less", "between": "you hold {low} to {high}",
             "in": "you hold {values}", "not_in": "you hold neither {values}"}),
    Feature("pair_rank", Named(RANK_LETTERS, RANK_PLURAL), "the rank of your pair, when you hold exactly one pair",
            {"eq": "you hold one pair of {value}",
             "min": "you hold one pair of {value} or higher", "max": "you hold one pair of {value} or lower",
             "between": "you hold one pair of {low} to {high}"}, missing=NOT_APPLICABLE),
    Feature("pair_type", Named(PAIR_TYPES, PAIR_TYPE_WORDS),
            "where your one pair comes from: both cards on the board, one hole card pairing a board card, "
            "or a pocket pair (both hole cards)",
            {"eq": "your pair is {value}", "ne": "your pair is not {value}", "in": "your pair is {values}"},
            missing=PAIR_TYPES.index("none")),
    Feature("board_above_pair", Count(0, 3, ("no board card", "one board card", "two board cards",
                                             "three board cards")),
            "how many board cards rank above your one pair (0: top pair, or an overpair)",
            {"eq": "{value} ranks above your pair", "min": "at least {value} ranks above your pair",
             "max": "at most {value} ranks above your pair"}, missing=NOT_APPLICABLE),
    Feature("kicker", Named(RANK_LETTERS, RANK_SINGULAR),
            "your highest hole card outside your one pair (none with a pocket pair)",
            ordered_templates("your kicker"), missing=NOT_APPLICABLE, term="kicker"),
    Feature("high_hole", Named(RANK_LETTERS, RANK_SINGULAR), "the higher of your two hole cards",
            ordered_templates("your higher hole card")),
    Feature("low_hole", Named(RANK_LETTERS, RANK_SINGULAR), "the lower of your two hole cards",
            ordered_templates("your lower hole card")),
    Feature("overcards", Count(0, 2, ("no overcard", "one overcard", "two overcards")),
            "how many of your hole cards rank above every board card",
            {"eq": "you hold {value}", "min": "you hold at least {value}", "max": "you hold at most {value}"},
            term="overcard"),
    Feature("flush_draw", Flag(), "four of your five cards are of one suit",
            {"true": "you hold four to a flush", "false": "you do not hold four to a flush"}),
    Feature("flush_draw_hole_cards", Count(1, 2, ("one hole card", "both hole cards")),
            "how many of your hole cards are in your four to a flush",
            {"eq": "your four to a flush uses {value}"}, missing=0),
    Feature("three_flush", Count(1, 2, ("one hole card", "both hole cards")),
            "three of your five cards are of one suit, with at least one hole card among them "
            "(how many hole cards); none when you hold four to a flush or a flush",
            {"eq": "you hold three to a flush with {value}", "min": "you hold three to a flush with at least {value}"},
            missing=0, term="three to a flush"),
    Feature("straight_draw", Named(STRAIGHT_DRAWS, STRAIGHT_DRAW_WORDS),
            "one rank (inside) or two ranks (open-ended, including double inside draws) would complete a "
            "straight; none when you already hold a straight or better",
            {"eq": "you hold {value}", "ne": "you do not hold {value}", "min": "you hold {value} or better"}),
    Feature("draw", Named(DRAWS, DRAW_WORDS),
            "your best draw, by outs: four to a flush (9 outs), an open-ended straight draw (8), an inside "
            "straight draw (4), or none",
            {"eq": "your best draw is {value}", "min": "your best draw is at least {value}",
             "max": "your best draw is at most {value}"}),
    Feature("suited_hole", Flag(), "your two hole cards are of one suit",
            {"true": "your hole cards are suited", "false": "your hole cards are not suited"}),
    Feature("board_paired", Flag(), "two or three board cards share a rank",
            {"true": "the board is paired", "false": "the board is not paired"}),
    Feature("board_suits", Count(1, 3, BOARD_SUITS_WORDS),
            "the most board cards of one suit (1: rainbow, 2: two-suited, 3: monotone)",
            {"eq": "the board is {value}", "ne": "the board is not {value}"}),
    Feature("board_high", Named(RANK_LETTERS, RANK_SINGULAR), "the highest board card",
            ordered_templates("the highest board card")),
    Feature("board_middle", Named(RANK_LETTERS, RANK_SINGULAR), "the middle board card (by rank)",
            ordered_templates("the middle board card")),
    Feature("board_low", Named(RANK_LETTERS, RANK_SINGULAR), "the lowest board card",
            ordered_templates("the lowest board card")),
    Feature("board_deuces_treys", Count(0, 3, ("no 2 or 3", "one 2 or 3", "two 2s or 3s", "three 2s or 3s")),
            "how many board cards are 2s or 3s (a dealer pair of them does not qualify)",
            {"eq": "the board shows {value}", "min": "the board shows at least {value}",
             "max": "the board shows at most {value}"}),
    Feature("aa_bonus_win", Flag(), "your five cards hold a pair of aces or better (an AA Bonus win)",
            {"true": "you hold a pair of aces or better", "false": "you hold less than a pair of aces"}),
)}

FEATURE_SET = FeatureSet(game=GAME, actions=ACTIONS, features=FEATURES, compute=lambda keys: compute(keys))


def compute(keys: np.ndarray) -> dict:
    """Every feature of every situation: keys (n, 5) uint8 = 2 hole cards then 3 flop cards, any order, by
    the compiled kernel (`compute_reference` is its definition, in NumPy).

    >>> from analyzer.core.cards import parse_cards
    >>> f = compute(np.array([parse_cards("Ah Kd Qs 7h 2c")], dtype=np.uint8))
    >>> int(f["hand"][0]), int(f["overcards"][0]), int(f["pair_rank"][0])
    (0, 2, -1)
    """
    keys = np.ascontiguousarray(keys, dtype=np.uint8)
    if set(holdem_features.FEATURE_NAMES) != set(FEATURES):
        raise InvariantError("the compiled Casino Hold'em features and the declared ones differ")
    values = np.empty((len(holdem_features.FEATURE_NAMES), len(keys)), dtype=np.int8)
    holdem_features.features_into(keys, values, default_jobs())
    return dict(zip(holdem_features.FEATURE_NAMES, values))


def compute_reference(keys: np.ndarray) -> dict:
    """`compute` in NumPy column operations, a chunk of rows at a time: the features' plain definition."""
    return computed_in_chunks(_compute_rows, keys, FEATURES)


def _compute_rows(keys: np.ndarray) -> dict:
    """compute_reference() on one chunk of rows."""
    n = len(keys)
    # Column by column: numpy's reductions along a short row are slow.
    ranks = [(keys[:, c] >> 2).astype(np.int16) for c in range(5)]
    suits = [(keys[:, c] & 3).astype(np.int16) for c in range(5)]
    hole, flop = ranks[:2], ranks[2:]
    high_hole, low_hole = np.maximum(*hole), np.minimum(*hole)

    values = handeval.evaluate_many(keys)
    hand = handeval.categories(values).astype(np.int16)
    pair_rank = handeval.pair_ranks(values).astype(np.int16)
    one_pair = hand == ONE_PAIR

    pocket = one_pair & (hole[0] == hole[1])
    with_hole = one_pair & ~pocket & ((hole[0] == pair_rank) | (hole[1] == pair_rank))
    on_board = one_pair & ~pocket & ~with_hole
    pair_type = np.select([pocket, with_hole, on_board],
                          [PAIR_TYPES.index(t) for t in ("pocket", "one_hole_card", "on_board")], 0).astype(np.int16)
    board_above = np.where(one_pair, _count_true(f > pair_rank for f in flop), NOT_APPLICABLE).astype(np.int16)
    outside = [np.where(h == pair_rank, NOT_APPLICABLE, h) for h in hole]
    kicker = np.where(one_pair & ~pocket, np.maximum(*outside), NOT_APPLICABLE).astype(np.int16)

    board_low, board_high = np.minimum.reduce(flop), np.maximum.reduce(flop)
    board_middle = flop[0] + flop[1] + flop[2] - board_low - board_high
    overcards = _count_true(h > board_high for h in hole).astype(np.int16)

    suit_counts, hole_suit_counts = _suit_counts(suits), _suit_counts(suits[:2])
    flop_suit_counts = _suit_counts(suits[2:])
    most_of_one_suit = np.maximum.reduce(suit_counts)
    flush_draw = most_of_one_suit == 4
    draw_suit = np.argmax(np.stack(suit_counts, axis=1), axis=1)      # the first suit with the most cards
    hole_in_draw_suit = np.choose(draw_suit, hole_suit_counts)
    draw_hole_cards = np.where(flush_draw, hole_in_draw_suit, 0).astype(np.int16)
    suited_hole = suits[0] == suits[1]
    three_suit = most_of_one_suit == 3                 # at most one suit can hold three of five cards
    three_flush = np.where(three_suit, hole_in_draw_suit, 0).astype(np.int16)

    rank_mask = np.zeros(n, dtype=np.int32)
    for column in ranks:
        rank_mask |= 1 << column.astype(np.int32)
    completing = _completing_ranks()[rank_mask]
    has_straight_or_better = hand >= CATEGORIES.index("straight")
    straight_draw = np.where(has_straight_or_better, 0, np.minimum(completing, 2)).astype(np.int16)

    draw = np.where(flush_draw, DRAWS.index("flush"), straight_draw).astype(np.int16)
    board_paired = (board_low == board_middle) | (board_middle == board_high)
    aa_win = (hand >= CATEGORIES.index("two_pair")) | (pair_rank == ACE)
    deuces_treys = _count_true(f <= RANK_LETTERS.index("3") for f in flop)

    return {
        "hand": hand, "pair_rank": pair_rank, "pair_type": pair_type, "board_above_pair": board_above,
        "kicker": kicker, "high_hole": high_hole, "low_hole": low_hole, "overcards": overcards,
        "flush_draw": flush_draw, "flush_draw_hole_cards": draw_hole_cards, "three_flush": three_flush,
        "straight_draw": straight_draw, "draw": draw, "suited_hole": suited_hole, "board_paired": board_paired,
        "board_suits": np.maximum.reduce(flop_suit_counts), "board_high": board_high,
        "board_middle": board_middle, "board_low": board_low,
        "board_deuces_treys": deuces_treys, "aa_bonus_win": aa_win,
    }


def _suit_counts(suits: list) -> list:
    """For each suit 0..3, how many of each row's cards (columns of suits) are of it."""
    packed = np.zeros(len(suits[0]), dtype=np.int32)        # four 4-bit counters, one per suit
    for column in suits:
        packed += np.left_shift(1, 4 * column.astype(np.int32))
    return [(packed >> (4 * suit)) & 15 for suit in range(4)]


def _count_true(conditions) -> np.ndarray:
    """Per row, how many of the boolean arrays hold."""
    return sum(condition.astype(np.int16) for condition in conditions)


@functools.cache
def _completing_ranks() -> np.ndarray:
    """For every 13-bit rank mask, how many ranks it lacks that would complete a straight with it."""
    masks = np.arange(1 << 13, dtype=np.int32)
    completing = np.zeros(len(masks), dtype=np.int16)
    for rank in range(13):
        with_rank = masks | (1 << rank)
        makes = np.zeros(len(masks), dtype=bool)
        for straight in STRAIGHT_MASKS:
            makes |= (with_rank & straight) == straight
        completing += (makes & ((masks >> rank) & 1 == 0)).astype(np.int16)
    return completing


STRATEGIES = Path(__file__).parent / "strategies"


def basic_strategy(name: str = "basic") -> Strategy:
    """The committed Casino Hold'em rule list strategies/casino_holdem.<name>.toml (beside this module)."""
    return load_strategy(STRATEGIES / f"casino_holdem.{name}.toml", FEATURE_SET)


def of_table(table) -> dict:
    """Every feature of every class of a counted table (computed once, kept on it until `let_go`)."""
    if "basic_features" not in table.derived:
        table.derived["basic_features"] = compute(table.keys)
    return table.derived["basic_features"]


def let_go(table) -> None:
    """Stop keeping the table's features (27 MB on the full deck)."""
    table.derived.pop("basic_features", None)


def decisions(strategy: Strategy, values: dict) -> np.ndarray:
    """True where `strategy` calls, for every situation of the feature values (`compute`, `of_table`)."""
    return strategy.decide(values) == ACTIONS.index("call")
