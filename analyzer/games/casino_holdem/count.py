"""Casino Hold'em counting: every (hole cards, flop) suit class against every continuation, by the kernel.

`cython_ext.holdem_enum` counts each class's continuations (turn/river x dealer hole pair) by final category
and outcome in two passes: pass 1 evaluates each suit class of 5-card boards once, pass 2 adds each flop's
boards into its classes' representatives.  In this process a chunk is a range of boards doing both passes in
place; elsewhere pass 1's chunks are board ranges merged into one table, pass 2's flop ranges.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.exact import exact_sum
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges, default_jobs
from analyzer.formats.strategy_file import pack_keys
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from cython_ext import handeval, holdem_enum
from cython_ext.isomorphism import canonical_keys

FULL_DECK_CLASSES = 1_286_792          # (hole, flop) suit classes of the 52-card deck
BOARDS_PER_CHUNK = 4_096               # in-process pass 1 scratch: 4,096 x 1,326 x 8 bytes = 43 MB


@dataclass
class SituationTable:
    """Every suit class of (hole cards, flop) situations with its continuation counts."""

    keys: np.ndarray          # (n, 5) uint8: canonical hole cards (descending), then flop (descending)
    weights: np.ndarray       # (n,) int64: raw situations the class stands for
    counts: np.ndarray        # (n, 10, 4) uint32: continuations by final category x outcome
    continuations: int        # continuations of every situation
    n_flops: int = 0          # canonical flops and boards of the deck (how the work was split)
    n_boards: int = 0
    derived: dict = field(default_factory=dict, repr=False)   # computed from the keys and counts once (features, statistics)

    def __len__(self):
        return len(self.keys)


@dataclass
class Classes:
    """The situation classes of a deck, in key order, each with its representative (flop, hole pair)."""

    keys: np.ndarray          # (n, 5) uint8, sorted
    weights: np.ndarray       # (n,) int64
    rep_start: np.ndarray     # (n_flops + 1,) int64: flop f's representatives are rep_start[f]..rep_start[f+1]-1
    rep_pair: np.ndarray      # (n,) uint16: each representative's hole pair (pair_index), in flop order
    rep_row: np.ndarray       # (n,) int32: each representative's class (row of keys), in flop order


def canonical_flops(rules: HoldemRules) -> tuple[np.ndarray, np.ndarray]:
    """The deck's canonical flops (suit classes of 3 cards, sorted) and the raw flops each stands for."""
    every_flop = canonical_keys(np.array(list(combinations(rules.cards, 3)), dtype=np.uint8), (3,))
    return np.unique(every_flop, axis=0, return_counts=True)


def situation_classes(rules: HoldemRules, flops: np.ndarray, flop_orbits: np.ndarray) -> Classes:
    """Every suit class of (hole, flop), from the (canonical flop, hole pair) pairs of the deck: its weight is its
    flop class's raw flops x its hole pairs on the canonical flop, its representative its lowest hole pair."""
    rep_flop, rep_pair, members, keys = holdem_enum.situation_representatives(flops, rules.deck_mask)
    packed = pack_keys(keys)
    order = np.argsort(packed, kind="stable")                 # the classes in key order
    if len(order) > 1 and not (packed[order[1:]] > packed[order[:-1]]).all():
        raise InvariantError("two Casino Hold'em situation classes have one key")
    rep_flop, rep_pair = rep_flop[order], rep_pair[order]
    by_flop = np.argsort(rep_flop, kind="stable")
    return Classes(keys=keys[order], weights=members[order] * flop_orbits[rep_flop].astype(np.int64),
                   rep_start=np.searchsorted(rep_flop[by_flop], np.arange(len(flops) + 1)).astype(np.int64),
                   rep_pair=rep_pair[by_flop], rep_row=by_flop.astype(np.int32))


def _boards_in_place(shared, out, deck: int, qualifier_rank: int, start: int, stop: int,
                     segments: tuple, threads: int) -> None:
    """Both passes for boards start..stop-1 (`segments`: the (first, last) segments of their uses)."""
    results = shared["scratch"][:stop - start]
    holdem_enum.evaluate_boards(shared["boards"][start:stop], deck, qualifier_rank, results, 0, stop - start,
                                threads)
    first, last = segments
    holdem_enum.accumulate_uses(results, start, shared["perm_pairs"], shared["use_board"], shared["use_perm"],
                                shared["segment_start"][first:last + 1], shared["segment_flop"][first:last],
                                shared["rep_start"], shared["rep_pair"], out["counts"], 0, threads)


def _board_chunk(shared, deck: int, qualifier_rank: int, start: int, stop: int, threads: int) -> list:
    """Pass 1 on canonical boards start..stop-1: their packed results, one row per board."""
    boards = np.ascontiguousarray(shared["boards"][start:stop])
    results = np.zeros((stop - start, holdem_enum.PAIRS), dtype=np.uint64)
    holdem_enum.evaluate_boards(boards, deck, qualifier_rank, results, 0, stop - start, threads)
    return [Part("results", results, start)]


def _flop_chunk(shared, start: int, stop: int, threads: int) -> list:
    """Pass 2 on canonical flops start..stop-1: their representatives' counts, in flop order."""
    rep_start, per_flop = shared["rep_start"], len(shared["use_board"]) // (len(shared["rep_start"]) - 1)
    first_row, last_row = int(rep_start[start]), int(rep_start[stop])
    counts = np.zeros((last_row - first_row, holdem_enum.COUNTS_PER_SITUATION), dtype=np.uint32)
    holdem_enum.accumulate_uses(shared["results"], 0, shared["perm_pairs"], shared["use_board"], shared["use_perm"],
                                np.arange(start, stop + 1, dtype=np.int64) * per_flop,
                                np.arange(start, stop, dtype=np.int32), rep_start, shared["rep_pair"], counts,
                                first_row, threads)
    return [Part("counts", counts, first_row)]


def count_situations(rules: HoldemRules, progress=None, executor: Executor | None = None,
                     pieces: int | None = None) -> SituationTable:
    """Both passes of the kernel as chunks, one row per situation class (`pieces`: ranges of boards, then of
    flops); checks that the classes cover every raw situation once and count every continuation once."""
    executor = executor or SerialExecutor(default_jobs())
    deck = rules.deck_mask
    qualifier_rank = handeval.dense_at_least(rules.qualifier_value)
    board_class, board_perm, boards = holdem_enum.board_classes(deck, max(1, executor.threads_per_chunk))
    flops, flop_orbits = canonical_flops(rules)
    classes = situation_classes(rules, flops, flop_orbits)
    if exact_sum(classes.weights) != rules.raw_situations:
        raise InvariantError("Casino Hold'em situation classes do not cover every (hole, flop) situation exactly once")
    if len(rules.cards) == 52 and len(classes.keys) != FULL_DECK_CLASSES:
        raise InvariantError(f"{len(classes.keys):,} Casino Hold'em situation classes on the full deck, "
                             f"expected {FULL_DECK_CLASSES:,}")
    use_board, use_perm = holdem_enum.flop_uses(flops, deck, board_class, board_perm)
    del board_class, board_perm
    counts = _both_passes(executor, deck, qualifier_rank, boards, flops, classes, use_board, use_perm, pieces,
                          progress)
    holdem_enum.permute_rows(counts, classes.rep_row)        # representatives' flop order -> class order
    if not (counts.sum(axis=1, dtype=np.uint64) == rules.continuations).all():
        raise InvariantError("a Casino Hold'em situation class does not count every continuation exactly once")
    return SituationTable(keys=classes.keys, weights=classes.weights,
                          counts=counts.reshape(-1, N_CATEGORIES, N_OUTCOMES), continuations=rules.continuations,
                          n_flops=len(flops), n_boards=len(boards))


def _both_passes(executor: Executor, deck: int, qualifier_rank: int, boards: np.ndarray, flops: np.ndarray,
                 classes: Classes, use_board: np.ndarray, use_perm: np.ndarray, pieces: int | None,
                 progress) -> np.ndarray:
    """The representatives' counts, (n, COUNTS_PER_SITUATION) uint32 in flop order, by the executor's chunks."""
    shared = {"boards": boards, "perm_pairs": holdem_enum.perm_pair_table(), "rep_start": classes.rep_start,
              "rep_pair": classes.rep_pair}
    shape = (len(classes.keys), holdem_enum.COUNTS_PER_SITUATION)
    threads = executor.threads_per_chunk
    if executor.in_process:
        ranges = chunk_ranges(len(boards), pieces or -(-len(boards) // BOARDS_PER_CHUNK))
        shared.update(_segments(use_board, use_perm, len(flops), ranges),
                      scratch=np.zeros((max(b - a for a, b in ranges), holdem_enum.PAIRS), dtype=np.uint64))
        bounds = shared.pop("chunk_segments")
        totals = Totals({"counts": (shape, np.uint32)})
        executor.run([Chunk(_boards_in_place, (deck, qualifier_rank, a, b, (int(s), int(t)), threads), in_place=True)
                      for (a, b), s, t in zip(ranges, bounds, bounds[1:])],
                     totals, shared, progress, "casino hold'em: boards")
        return totals["counts"]
    pieces = pieces or max(8, 4 * executor.workers)
    pass1 = Totals({"results": ((len(boards), holdem_enum.PAIRS), np.uint64)})
    executor.run([Chunk(_board_chunk, (deck, qualifier_rank, a, b, threads))
                  for a, b in chunk_ranges(len(boards), pieces)],
                 pass1, {"boards": boards}, progress, "casino hold'em pass 1: boards")
    shared.update(results=pass1["results"], use_board=use_board, use_perm=use_perm)
    del pass1
    pass2 = Totals({"counts": (shape, np.uint32)})
    executor.run([Chunk(_flop_chunk, (a, b, threads)) for a, b in chunk_ranges(len(flops), pieces)],
                 pass2, shared, progress, "casino hold'em pass 2: flops")
    return pass2["counts"]


def _segments(use_board: np.ndarray, use_perm: np.ndarray, n_flops: int, ranges: list) -> dict:
    """The uses grouped by board range, then by flop: the reordered uses, each (range, flop) segment's first
    use (and the end) and flop, and where each range's segments start (chunk_segments)."""
    per_flop = len(use_board) // n_flops
    starts = np.array([a for a, _ in ranges], dtype=np.int64)
    chunk = np.searchsorted(starts, use_board, side="right") - 1
    order = np.argsort(chunk, kind="stable")                    # within a range, uses stay in flop order
    chunk, flop = chunk[order], (order // per_flop).astype(np.int32)
    new_segment = np.ones(len(order), dtype=bool)
    new_segment[1:] = (chunk[1:] != chunk[:-1]) | (flop[1:] != flop[:-1])
    first_use = np.flatnonzero(new_segment)
    return {"use_board": use_board[order], "use_perm": use_perm[order],
            "segment_start": np.append(first_use, len(order)).astype(np.int64),
            "segment_flop": flop[first_use],
            "chunk_segments": np.searchsorted(chunk[first_use], np.arange(len(ranges) + 1))}
