"""Caribbean Stud rank patterns: the classes grouped by the hand's dense rank and the up card's rank.  Every
feature a rule list reads is a function of the pattern, so rule lists are fitted, decided and priced on the
patterns (about 97,000 against 5.65 M classes) and their decisions spread to the classes."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.core.cards import RANKS
from analyzer.poker.decision_table import SignSums
from cython_ext import stud_patterns

N_PATTERNS = stud_patterns.N_PATTERNS           # pattern numbers: dense rank x 13 + up rank


def class_patterns(rank: np.ndarray, up_rank: np.ndarray) -> np.ndarray:
    """Each class's pattern number: dense rank x 13 + the up card's rank (int32)."""
    pattern = np.multiply(rank, len(RANKS), dtype=np.int32)         # made in place: one array, no temporaries
    pattern += up_rank
    return pattern


def up_ranks(keys: np.ndarray) -> np.ndarray:
    """The rank of each class's up card (the key's sixth card), one byte a class."""
    return np.right_shift(keys[:, 5], 2)


@dataclass(frozen=True)
class Patterns:
    """The patterns a table's classes fall in (any one class of a pattern, `keys`, stands for all of it)."""

    numbers: np.ndarray          # the pattern numbers that hold classes, ascending
    sizes: np.ndarray            # how many classes each has
    keys: np.ndarray             # (p, 6) the key of the first class of each
    rank: np.ndarray             # the dense rank of each
    class_rank: np.ndarray = field(repr=False)     # the table's dense ranks (not a copy, when contiguous)
    class_up_rank: np.ndarray = field(repr=False)  # its up cards' ranks

    @classmethod
    def of(cls, keys: np.ndarray, rank: np.ndarray) -> "Patterns":
        rank, up_rank = np.ascontiguousarray(rank), up_ranks(keys)
        first, sizes = stud_patterns.pattern_classes(rank, up_rank)
        numbers = np.flatnonzero(first >= 0)
        chosen = first[numbers]
        return cls(numbers, sizes[numbers], keys[chosen], rank[chosen], rank, up_rank)

    def __len__(self) -> int:
        return len(self.numbers)

    def _by_number(self, values: np.ndarray) -> np.ndarray:
        """One byte per pattern number from one byte-sized value per pattern (0 where no class is)."""
        by_number = np.zeros(N_PATTERNS, dtype=np.uint8)
        by_number[self.numbers] = values.view(np.uint8)
        return by_number

    def spread(self, values: np.ndarray) -> np.ndarray:
        """Per class, the value of its pattern (values: one per pattern, of a one-byte dtype, e.g. bool)."""
        return stud_patterns.spread(self.class_rank, self.class_up_rank, self._by_number(values)).view(values.dtype)

    def classes_in(self, chosen: np.ndarray) -> np.ndarray:
        """The indices (ascending) of the classes whose pattern is chosen (chosen: bool, one per pattern)."""
        return stud_patterns.classes_in(self.class_rank, self.class_up_rank, self._by_number(chosen),
                                        int(self.sizes[chosen].sum()))

    def sign_sums(self, weights: np.ndarray, gain: np.ndarray) -> SignSums:
        """Per pattern, the weight and the gain of its classes by the sign of their gain, from per-class gains
        by NumPy (the pricing kernel makes them without per-class gains)."""
        pattern = class_patterns(self.class_rank, self.class_up_rank)
        return SignSums.of(pattern, N_PATTERNS, weights, gain).take(self.numbers)


def patterns_of(table) -> Patterns:
    """The patterns of a table (a `SituationCounts`), made once and kept with the count for every rule set on it."""
    if "rule patterns" not in table.derived:
        table.derived["rule patterns"] = Patterns.of(table.keys, table.player_rank)
    return table.derived["rule patterns"]
