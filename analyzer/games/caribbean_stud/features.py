"""Caribbean Stud features a player can see (his five cards and the dealer's up card), for rule lists:
`FEATURES` is the vocabulary of `analyzer.strategy.language` for the basic strategies and the rule in words."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.poker.hands import CATEGORIES, HAND_WORDS, ONE_PAIR, RANK_LETTERS, RANK_PLURAL, RANK_SINGULAR
from analyzer.strategy.language import (Count, Feature, FeatureSet, Flag, Named, Strategy, computed_in_chunks,
                                        load_strategy, ordered_templates)
from cython_ext import handeval

GAME = "caribbean-stud"
ACTIONS = ("fold", "raise")
PLACES = ("highest", "second", "third", "fourth", "fifth")
UP_PAIRS = ("none",) + PLACES
GAP_WORDS = ("below",) + tuple(f"at least {n} ranks below" for n in range(2, 13))
NOT_APPLICABLE = -1
HIGH_CARD, ACE, KING = CATEGORIES.index("high_card"), 12, 11
RANK_NAMES = tuple(word.split(" ")[1] for word in RANK_SINGULAR)        # "2" .. "10", "jack" .. "ace"
# A hand's level, in poker order: a high card by its two highest ranks (ace-king), a pair by its
# rank, then each higher category.  Level i is LEVELS[i] = (category, leading ranks).
LEVELS = ([(HIGH_CARD, (high, second)) for high in range(1, len(RANK_LETTERS)) for second in range(high)]
          + [(ONE_PAIR, (rank,)) for rank in range(len(RANK_LETTERS))]
          + [(c, ()) for c in range(ONE_PAIR + 1, len(CATEGORIES))])
PAIR_LEVEL = LEVELS.index((ONE_PAIR, (0,)))             # the level of a pair of 2s
CATEGORY_LEVEL = LEVELS.index((ONE_PAIR + 1, ())) - (ONE_PAIR + 1)   # + category: a category's level


def _level_names(category: int, ranks: tuple) -> tuple:
    """(TOML name, words) of a level: ("AK", "ace-king"), ("66", "a pair of 6s"), ("two_pair", "two pair")."""
    if category == HIGH_CARD:
        return "".join(RANK_LETTERS[r] for r in ranks), "-".join(RANK_NAMES[r] for r in ranks)
    if category == ONE_PAIR:
        return RANK_LETTERS[ranks[0]] * 2, f"a pair of {RANK_PLURAL[ranks[0]]}"
    return CATEGORIES[category], HAND_WORDS[category]


def _card(place: int) -> Feature:
    subject = f"your {PLACES[place]} card"
    return Feature(PLACES[place], Named(RANK_LETTERS, RANK_SINGULAR),
                   f"the rank of {subject} (cards ordered by rank, highest first)",
                   {**ordered_templates(subject), "min": f"{subject} is {{value}} or better"})


def _gap(place: int) -> Feature:
    return Feature(f"up_below_{PLACES[place]}", Count(1, 12, GAP_WORDS),
                   f"how many ranks the up card is below your {PLACES[place]} card (none when it is not below)",
                   {"min": f"the up card is {{value}} your {PLACES[place]} card"}, missing=0)


FEATURES = {f.name: f for f in (
    Feature("hand", Named(CATEGORIES, HAND_WORDS), "the poker hand of your five cards",
            {"eq": "you hold {value}", "min": "you hold {value} or better", "max": "you hold {value} or less",
             "in": "you hold {values}"}),
    Feature("pair_rank", Named(RANK_LETTERS, RANK_PLURAL), "the rank of your pair, when you hold exactly one pair",
            {"eq": "you hold one pair of {value}", "min": "you hold one pair of {value} or higher",
             "max": "you hold one pair of {value} or lower", "between": "you hold one pair of {low} to {high}"},
            missing=NOT_APPLICABLE),
    Feature("level", Named(*zip(*(_level_names(*level) for level in LEVELS))),     # (names, words)
            "your hand's level: no pair by its two highest cards, one pair by its rank, then the categories",
            {"min": "your hand is {value} or better", "below": "your hand is below {value}"}, searched=False),
    Feature("ace_king", Flag(), "your cards include an ace and a king",
            {"true": "you hold an ace and a king", "false": "you do not hold both an ace and a king"}),
    *(_card(p) for p in range(5)),
    Feature("up_rank", Named(RANK_LETTERS, RANK_SINGULAR), "the rank of the dealer's up card",
            ordered_templates("the up card")),
    Feature("up_pairs", Named(UP_PAIRS, ("no",) + PLACES),
            "the highest of your cards whose rank the up card matches (none: see up_pairs_any)",
            {"eq": "the up card pairs your {value} card", "in": "the up card pairs your {values} card"}, missing=0),
    Feature("up_pairs_any", Flag(), "the up card's rank matches one of your cards",
            {"true": "the up card pairs one of your cards", "false": "the up card pairs none of your cards"}),
    *(_gap(p) for p in range(2, 5)),
)}

FEATURE_SET = FeatureSet(game=GAME, actions=ACTIONS, features=FEATURES, compute=lambda keys: compute(keys))


def compute(keys: np.ndarray) -> dict:
    """Every feature of every situation, {name: int8 array}: keys (n, 6) uint8, five cards then the up card.

    >>> from analyzer.core.cards import parse_cards
    >>> f = compute(np.array([parse_cards("Ah Kd 9s 5c 2h Qd")], dtype=np.uint8))
    >>> int(f["hand"][0]), int(f["ace_king"][0]), int(f["up_pairs"][0]), int(f["up_below_fourth"][0])
    (0, 1, 0, 0)
    """
    return computed_in_chunks(_compute_rows, keys, FEATURES)


def _compute_rows(keys: np.ndarray) -> dict:
    """compute() on one chunk of rows."""
    hand_cards = np.ascontiguousarray(keys[:, :5])
    # Column by column (numpy's sorts and reductions along a short row are slow): the five
    # ranks, highest first, by a sorting network.
    ranks = [(hand_cards[:, c] >> 2).astype(np.int8) for c in range(5)]
    for a, b in SORTING_NETWORK_5:
        ranks[a], ranks[b] = np.maximum(ranks[a], ranks[b]), np.minimum(ranks[a], ranks[b])
    up = (keys[:, 5] >> 2).astype(np.int8)
    values = handeval.evaluate_many(hand_cards)
    hand = handeval.categories(values).astype(np.int8)
    pair_rank = handeval.pair_ranks(values).astype(np.int8)
    up_pairs = np.zeros(len(keys), dtype=np.int8)
    for place in range(4, -1, -1):                       # the highest paired place wins
        up_pairs[ranks[place] == up] = place + 1
    has_ace = np.logical_or.reduce([r == ACE for r in ranks])
    has_king = np.logical_or.reduce([r == KING for r in ranks])
    high = ranks[0].astype(np.int16)
    level = np.where(hand == HIGH_CARD, high * (high - 1) // 2 + ranks[1],       # LEVELS' order
                     np.where(hand == ONE_PAIR, PAIR_LEVEL + pair_rank.astype(np.int16), CATEGORY_LEVEL + hand))
    out = {"hand": hand, "pair_rank": pair_rank, "level": level, "ace_king": has_ace & has_king,
           "up_rank": up, "up_pairs": up_pairs, "up_pairs_any": up_pairs > 0}
    for place, name in enumerate(PLACES):
        out[name] = ranks[place]
        if place >= 2:
            out[f"up_below_{name}"] = np.maximum(ranks[place] - up, 0)
    return out


# Compare-exchanges that sort five values, the larger value to a (a Bose-Nelson network; tested on every 0/1 input).
SORTING_NETWORK_5 = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))


STRATEGIES = Path(__file__).parent / "strategies"


def basic_strategy_path(rule_set: str) -> Path:
    """Where the committed rule list of a built-in rule set lives: strategies/caribbean_stud.<rule_set>.basic.toml."""
    return STRATEGIES / f"caribbean_stud.{rule_set}.basic.toml"


def basic_strategy(rule_set: str) -> Strategy | None:
    """The committed rule list of a built-in rule set, or None when the rule set has none."""
    path = basic_strategy_path(rule_set)
    return load_strategy(path, FEATURE_SET) if path.is_file() else None


def decisions(strategy: Strategy, values: dict) -> np.ndarray:
    """True where `strategy` raises, for every situation of the feature values (`compute`)."""
    return strategy.decide(values) == ACTIONS.index("raise")

