"""Casino Hold'em counting: every (hole cards, flop) suit class against every continuation, by the kernel.

The kernel (`cython_ext.holdem_enum`) counts, for every suit class of situations, the
continuations (turn/river x dealer hole pair) by the player's final category and the
outcome.  Those counts depend only on the deck and the qualifier, never on a paytable:
`SituationTable` is what pricing reads.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from analyzer.core.errors import InvariantError
from analyzer.core.exact import exact_sum
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges, default_jobs
from analyzer.core.strategy_file import pack_keys
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from cython_ext import handeval, holdem_enum
from cython_ext.isomorphism import canonical_keys

FULL_DECK_CLASSES = 1_286_792          # (hole, flop) suit classes of the 52-card deck


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


def _board_chunk(shared, deck: int, qualifier_rank: int, start: int, stop: int, threads: int) -> list:
    """Pass 1 on canonical boards start..stop-1: their packed results, one row per board."""
    boards = np.ascontiguousarray(shared["boards"][start:stop])
    results = np.zeros((stop - start, holdem_enum.PAIRS), dtype=np.uint64)
    holdem_enum.evaluate_boards(boards, deck, qualifier_rank, results, 0, stop - start, threads)
    return [Part("results", results, start)]


def _flop_chunk(shared, deck: int, start: int, stop: int, threads: int) -> list:
    """Pass 2 on canonical flops start..stop-1: their (hole pair x category x outcome) counts."""
    flops = np.ascontiguousarray(shared["flops"][start:stop])
    counts = np.zeros((stop - start, holdem_enum.PAIRS * holdem_enum.COUNTS_PER_SITUATION), dtype=np.uint32)
    holdem_enum.accumulate_flops(flops, deck, shared["board_class"], shared["board_perm"], shared["perm_pairs"],
                                 shared["results"], counts, 0, stop - start, threads)
    return [Part("counts", counts, start)]


def count_situations(rules: HoldemRules, progress=None, executor: Executor | None = None,
                     pieces: int | None = None) -> SituationTable:
    """Run both passes of the kernel as chunks and collect one row per situation class.

    Pass 1's chunks are ranges of canonical boards, pass 2's ranges of canonical flops
    (`pieces` of each; default four per worker); pass 2 reads pass 1's whole table,
    handed to every worker once.  Checks that the classes cover every raw situation once.
    """
    executor = executor or SerialExecutor(default_jobs())
    deck = rules.deck_mask
    qualifier_rank = handeval.dense_at_least(rules.qualifier_value)
    board_class, board_perm, boards = holdem_enum.board_classes(deck)
    every_flop = canonical_keys(np.array(list(combinations(rules.cards, 3)), dtype=np.uint8), (3,))
    flops, flop_orbits = np.unique(every_flop, axis=0, return_counts=True)
    pieces = pieces or max(8, 4 * executor.workers)
    threads = executor.threads_per_chunk
    pass1 = Totals({"results": ((len(boards), holdem_enum.PAIRS), np.uint64)})
    executor.run([Chunk(_board_chunk, (deck, qualifier_rank, a, b, threads)) for a, b in chunk_ranges(len(boards), pieces)],
                 pass1, {"boards": boards}, progress, "casino hold'em pass 1: boards")
    shared = {"flops": flops, "board_class": board_class, "board_perm": board_perm,
              "perm_pairs": holdem_enum.perm_pair_table(), "results": pass1["results"]}
    pass2 = Totals({"counts": ((len(flops), holdem_enum.PAIRS * holdem_enum.COUNTS_PER_SITUATION), np.uint32)})
    executor.run([Chunk(_flop_chunk, (deck, a, b, threads)) for a, b in chunk_ranges(len(flops), pieces)],
                 pass2, shared, progress, "casino hold'em pass 2: flops")
    del shared, pass1
    table = _collect_classes(rules, flops, flop_orbits,
                             pass2["counts"].reshape(len(flops), holdem_enum.PAIRS, N_CATEGORIES * N_OUTCOMES))
    table.n_flops, table.n_boards = len(flops), len(boards)
    if exact_sum(table.weights) != rules.raw_situations:
        raise InvariantError("Casino Hold'em situation classes do not cover every (hole, flop) situation exactly once")
    if len(rules.cards) == 52 and len(table) != FULL_DECK_CLASSES:
        raise InvariantError(f"{len(table):,} Casino Hold'em situation classes on the full deck, "
                             f"expected {FULL_DECK_CLASSES:,}")
    return table


def _collect_classes(rules: HoldemRules, flops: np.ndarray, flop_orbits: np.ndarray,
                     counts: np.ndarray) -> SituationTable:
    """One row per situation class, in key order, from the (canonical flop, hole pair) rows.

    A class's weight (raw situations it stands for) is the number of raw flops in its
    flop's class times the number of hole pairs that, with the canonical flop, fall in
    it: every raw flop of the class sees the same number of such hole pairs.
    """
    pair_cards = np.array([(a, b) for a in range(52) for b in range(a)], dtype=np.uint8)   # pair_index order
    in_deck = np.isin(pair_cards, rules.cards).all(axis=1)
    rows, flop_of, pair_of = [], [], []
    for f, flop in enumerate(flops):
        pairs = np.nonzero(in_deck & ~np.isin(pair_cards, flop).any(axis=1))[0]
        rows.append(np.hstack([pair_cards[pairs], np.repeat(flop[None, :], len(pairs), axis=0)]))
        flop_of.append(np.full(len(pairs), f))
        pair_of.append(pairs)
    situations = canonical_keys(np.ascontiguousarray(np.vstack(rows)), (2, 3))
    flop_of, pair_of = np.concatenate(flop_of), np.concatenate(pair_of)
    _, first, members = np.unique(pack_keys(situations), return_index=True, return_counts=True)
    return SituationTable(keys=situations[first],
                          weights=members.astype(np.int64) * flop_orbits[flop_of[first]].astype(np.int64),
                          counts=counts[flop_of[first], pair_of[first]].reshape(-1, N_CATEGORIES, N_OUTCOMES),
                          continuations=rules.continuations)
