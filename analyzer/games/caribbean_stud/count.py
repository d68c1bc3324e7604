"""Caribbean Stud situations: the suit classes of (player hand, dealer up card) and their paytable-free counts.

A class key is `canonical_keys(rows, (5, 1))` (hand descending, then the up card); `count_classes` counts
every class's dealer completions by the compiled kernel (`cython_ext.stud_enum`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.exact import CHUNK, exact_group_sums, exact_masked_sum, exact_sum
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges
from analyzer.poker.settlement import N_CATEGORIES
from cython_ext import stud_enum

HAND, SITUATION = 5, 6
FULL_DECK_CLASSES = 5_649_150            # (hand, up card) classes of the 52-card deck


@dataclass
class SituationCounts:
    """Every situation class of a deck, sorted by key, with its exact dealer-completion counts."""

    cards: tuple                 # the deck
    qualifier_rank: int          # the dealer qualifies with a dense rank >= this
    keys: np.ndarray             # (m, 6) uint8: canonical hand (descending) then up card
    weights: np.ndarray          # (m,) uint8: raw situations per class (at most 24)
    counts: np.ndarray           # (m, 4) uint32: not qualified / player wins / tie / dealer wins
                                 # (a view of a (4, m) array: each column contiguous)
    player_rank: np.ndarray      # (m,) uint16: dense rank of the player's hand
    player_category: np.ndarray  # (m,) uint8: category of the player's hand
    completions: int             # C(n - 6, 4): dealer completions of one situation
    derived: dict = field(default_factory=dict, repr=False)   # what is computed from the counts once (features)

    def __post_init__(self):
        # a count does not change once made: what is derived from it and kept (`derived`) stays true
        for array in (self.keys, self.weights, self.counts, self.player_rank, self.player_category):
            array.flags.writeable = False

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def raw_situations(self) -> int:
        """C(n, 5) x (n - 5): every (hand, up card) pair."""
        n = len(self.cards)
        return math.comb(n, HAND) * (n - HAND)


def consistent(table: SituationCounts) -> bool:
    """Whether the counts keep the totals every true count does (the count cache's check of what it reads):
    each class's outcomes add up to its completions; the dealer fails to qualify as often as the classes' own
    ranks say; a non-qualifying hand never wins or ties; where both qualify, the player wins as often as he
    loses (the hands swap).  Moving one deal between two outcomes of a class breaks at least one of them."""
    n, w, counts = len(table.cards), table.weights, table.counts      # (each column of counts contiguous)
    qualifies = table.player_rank >= table.qualifier_rank
    both = w * qualifies

    def weighted(weights, column) -> int:
        # sum of weights x counts in int64, a chunk at a time: (at most 255) x completions x classes bounds it
        return sum(int(np.dot(weights[i:i + CHUNK].astype(np.int64), column[i:i + CHUNK].astype(np.int64)))
                   for i in range(0, len(column), CHUNK))
    return bool(table.completions == math.comb(n - SITUATION, 4)
                and (counts.sum(axis=1, dtype=np.uint64) == table.completions).all()
                and weighted(w, counts[:, 0]) * (n - HAND)
                == exact_masked_sum(w, ~qualifies) * HAND * math.comb(n - HAND, HAND)
                and exact_masked_sum(counts[:, 1], ~qualifies) == exact_masked_sum(counts[:, 2], ~qualifies) == 0
                and weighted(both, counts[:, 1]) == weighted(both, counts[:, 3]))


def situation_classes(cards) -> tuple[np.ndarray, np.ndarray]:
    """(keys, weights) of every (hand, up card) suit class of the deck, sorted by key (compiled; the deck
    holds the same ranks in each suit, its suits the first of c, d, h, s)."""
    return stud_enum.situation_classes(np.array(sorted(cards), dtype=np.uint8))


def _count_chunk(shared, cards: tuple, qualifier_rank: int, start: int, stop: int, threads: int) -> list:
    """Counts of the situation classes start..stop-1 (each chunk sweeps every hand itself)."""
    counts, player_rank, player_category = stud_enum.count_situations(
        np.array(cards, dtype=np.uint8), shared["keys"][start:stop], qualifier_rank, threads)
    return [Part("counts", counts, start), Part("player_rank", player_rank, start),
            Part("player_category", player_category, start)]


def count_classes(cards, qualifier_rank: int, executor: Executor | None = None) -> SituationCounts:
    """Every situation class of the deck with its dealer-completion counts, in chunks (ranges of classes)
    run by `executor`; checks that the classes cover every raw situation exactly once."""
    cards = tuple(sorted(cards))
    keys, weights = situation_classes(cards)
    n = len(cards)
    if exact_sum(weights) != math.comb(n, HAND) * (n - HAND):
        raise InvariantError("Caribbean Stud situation classes do not cover every (hand, up card) situation exactly once")
    if n == 52 and len(keys) != FULL_DECK_CLASSES:
        raise InvariantError(f"{len(keys):,} Caribbean Stud situation classes on the full deck, "
                             f"expected {FULL_DECK_CLASSES:,}")
    executor = executor or SerialExecutor(stud_enum.default_threads())
    m = len(keys)
    totals = Totals({"counts": ((m, 4), np.uint32), "player_rank": ((m,), np.uint16),
                     "player_category": ((m,), np.uint8)})
    # one chunk per worker and a few more: every chunk repeats the (cheap) sweep over all hands
    pieces = 1 if executor.workers == 1 else 2 * executor.workers
    executor.run([Chunk(_count_chunk, (cards, int(qualifier_rank), a, b, executor.threads_per_chunk))
                  for a, b in chunk_ranges(m, pieces)], totals, {"keys": keys}, None, "caribbean stud: classes")
    counts = np.ascontiguousarray(totals["counts"].T).T            # each outcome's column contiguous (as
                                                                   # the kernel's: one chunk copies nothing)
    return SituationCounts(cards=cards, qualifier_rank=int(qualifier_rank), keys=keys, weights=weights,
                           counts=counts, player_rank=totals["player_rank"],
                           player_category=totals["player_category"], completions=math.comb(n - SITUATION, 4))


def hand_category_counts(table: SituationCounts) -> list[int]:
    """How many of the deck's C(n, 5) hands fall in each category (from the class weights)."""
    per_up = len(table.cards) - HAND
    totals = [int(t) for t in exact_group_sums(table.player_category, table.weights, N_CATEGORIES)]
    if sum(totals) != table.raw_situations or any(t % per_up for t in totals):
        raise InvariantError("Caribbean Stud class weights do not split evenly over the up cards")
    return [t // per_up for t in totals]
