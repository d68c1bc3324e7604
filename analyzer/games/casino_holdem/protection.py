"""Casino Hold'em with seen dealer cards: what a player who sees K of the dealer's hole cards at the flop gains, exactly.

At the flop decision the player sees his hole cards H, the flop F and K = 0..2 of the dealer's two
hole cards (a set S; which of the two does not matter) and calls exactly when, given all that,
calling beats folding (an exact tie folds, as in the honest analysis).  Every deal is counted as
(H, F, S, the turn and river, the dealer's other 2 - K cards) by the player's final category x the
exploit's decision x the outcome; the figures follow from these counts and the paytable, exactly.
Where the exploit and the honest optimum (which sees no dealer card) decide otherwise is counted
over the same deals.  The main game only (ANTE and CALL): the AA Bonus is settled on the player's
hole cards and flop, so seeing dealer cards changes nothing of it (`AA_BONUS_NOTE`).

K = 0 is the honest analysis; K = 1 and 2 are counted by `cython_ext.holdem_leak`, flop class by
flop class, as chunks on the executor.  `tests/plain_casino_holdem.seen_dealer_cards` deals the same out in
plain Python.
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.core.errors import InputError, InvariantError
from analyzer.core.exact import INT64_MAX, exact_sum
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges, default_jobs
from analyzer.games.casino_holdem.count import SituationTable, canonical_flops, situation_classes
from analyzer.games.casino_holdem.price import figures, price
from analyzer.games.casino_holdem.rules import HoldemRules
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from analyzer.poker.protection import FOLD, PLAY as CALL, SeenCounts, SeenDealerCards
from analyzer.poker.statistics import grouped_counts
from cython_ext import handeval, holdem_enum, holdem_leak

HOLE, FLOP = 2, 3
SEEN_LIMIT = HOLE                # K is at most the dealer's hole cards
AA_BONUS_NOTE = ("The AA Bonus is settled on the player's hole cards and the flop alone: seeing the dealer's "
                 "cards leaves it unchanged (these figures are the main game's, ANTE and CALL).")


def deals_of_every_k(n: int, k: int) -> int:
    """Every deal (H, F, S, completion) of an n-card deck with K of the dealer's hole cards seen."""
    return (math.comb(n, HOLE) * math.comb(n - HOLE, FLOP) * math.comb(n - 5, k) * math.comb(n - 5 - k, 2)
            * math.comb(n - 7 - k, HOLE - k))


def seen_dealer_cards(rules: HoldemRules, table: SituationTable, k: int, executor: Executor | None = None,
                      progress=None) -> SeenDealerCards:
    """The exploit of K = 0..2 seen dealer hole cards under `rules`, from the honest counts `table` of its deck
    and qualifier (K = 0 needs nothing else; K = 1 and 2 are counted on `executor`, default this process on
    every core).  Raises InputError for K out of range or a paytable whose EVs the kernel cannot hold
    exactly; InvariantError where the counts do not cover every deal exactly once."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= SEEN_LIMIT:
        raise InputError(f"seen dealer cards: K = {k!r}; the dealer has {SEEN_LIMIT} hole cards (K = 0..{SEEN_LIMIT})")
    if table.continuations != rules.continuations or exact_sum(table.weights) != rules.raw_situations:
        raise InvariantError("seen dealer cards: the counts are not those of the rules' deck")
    priced = price(table, rules)
    call, _ = priced.optimal_call()
    honest = figures(priced, "optimal", "call exactly when calling beats folding (exact ties fold)", call)
    by_honest = honest_deals(table, call)
    if k == 0:
        counts = SeenCounts(0, by_honest, 0)
    else:
        counts = count_seen(rules, table, call, k, by_honest.sum(axis=1), executor, progress)
    if counts.total != deals_of_every_k(len(rules.cards), k):
        raise InvariantError(f"Casino Hold'em with {k} seen hole cards: the counts do not cover every deal exactly once")
    result = SeenDealerCards(counts, rules.paytable, rules.call_size, honest, AA_BONUS_NOTE)
    if k == 0 and (result.ev, result.play_probability) != (honest.ev, honest.p_call):
        raise InvariantError("Casino Hold'em with no seen hole card: the figures are not the honest optimum's")
    return result


def honest_deals(table: SituationTable, call: np.ndarray) -> np.ndarray:
    """Every honest deal (H, F, continuation) by [final category][the honest decision][outcome], Python integers."""
    deals = np.zeros((N_CATEGORIES, 2, N_OUTCOMES), dtype=object)
    groups = np.zeros(len(table), dtype=np.uint8)
    for decision, mask in ((CALL, call), (FOLD, ~call)):
        inside, _ = grouped_counts(table.counts, table.weights, groups, 1, mask)
        deals[:, decision] = np.array(inside[0].tolist(), dtype=object)
    return deals


def _seen_chunk(shared, k: int, qualifier_rank: int, nets: np.ndarray, fold_ev: int, completions: int, index: int,
                start: int, stop: int, threads: int) -> list:
    """The deals of canonical flops start..stop-1, then the disagreements: row `index` of the totals."""
    deals, disagreements = holdem_leak.count_seen(
        k, shared["cards"], qualifier_rank, shared["flops"], start, stop, shared["use_board"], shared["use_perm"],
        shared["perm_pairs"], shared["inverse"], shared["ranks"], shared["order"], shared["rep_start"], shared["rep_pair"], shared["rep_weight"],
        shared["rep_honest"], shared["category_of_rank"], nets, fold_ev, completions, threads)
    return [Part("totals", np.r_[deals.ravel(), disagreements].astype(np.uint64)[None], index)]


def count_seen(rules: HoldemRules, table: SituationTable, call: np.ndarray, k: int, every_deal: np.ndarray,
               executor: Executor | None, progress=None) -> SeenCounts:
    """K = 1 or 2: every canonical flop's situations in the compiled kernel, chunked.  every_deal:
    (categories, outcomes), the honest deals (each a K = 1 deal twice over, once per dealer card seen)."""
    n = len(rules.cards)
    nets, scale = rules.paytable.net_matrix()
    completions = math.comb(n - 5 - k, 2) * math.comb(n - 7 - k, HOLE - k)
    largest = max(abs(int(x)) for x in nets.ravel())
    if largest * completions * N_OUTCOMES >= 2**31 or deals_of_every_k(n, k) * 2 > INT64_MAX:
        raise InputError(f"seen dealer cards: the paytable's nets (x {scale}) are too large for the kernel's exact EVs")
    executor = executor or SerialExecutor(default_jobs())
    threads = max(1, executor.threads_per_chunk)
    deck = rules.deck_mask
    board_class, board_perm, boards = holdem_enum.board_classes(deck, threads)
    flops, flop_orbits = canonical_flops(rules)
    classes = situation_classes(rules, flops, flop_orbits)
    if not np.array_equal(classes.keys, table.keys):
        raise InvariantError("seen dealer cards: the counts' classes are not the rules' deck's")
    use_board, use_perm = holdem_enum.flop_uses(flops, deck, board_class, board_perm)
    del board_class, board_perm
    ranks, order = holdem_leak.board_ranks(boards, deck, threads)
    renamings = holdem_enum.PERMUTATIONS
    shared = {"inverse": np.array([renamings.index(tuple(int(s) for s in np.argsort(p))) for p in renamings],
                                  dtype=np.uint8), "ranks": ranks, "order": order,
              "cards": np.array(sorted(rules.cards), dtype=np.uint8), "flops": np.ascontiguousarray(flops),
              "use_board": use_board, "use_perm": use_perm, "perm_pairs": holdem_enum.perm_pair_table(),
              "rep_start": classes.rep_start,
              "rep_pair": classes.rep_pair, "rep_weight": classes.weights[classes.rep_row],
              "rep_honest": np.ascontiguousarray(call[classes.rep_row]).view(np.uint8),
              "category_of_rank": handeval.categories(handeval.ORDERED_VALUES).astype(np.uint8)}
    ranges = chunk_ranges(len(flops), 1 if executor.workers == 1 else 4 * executor.workers)
    cells = N_CATEGORIES * 2 * N_OUTCOMES
    totals = Totals({"totals": ((len(ranges), cells + 1), np.uint64)})
    qualifier_rank = handeval.dense_at_least(rules.qualifier_value)
    executor.run([Chunk(_seen_chunk, (k, qualifier_rank, nets.astype(np.int64), -completions * scale, completions,
                                      i, a, b, executor.threads_per_chunk))
                  for i, (a, b) in enumerate(ranges)], totals, shared, progress, f"casino hold'em: {k} seen hole cards")
    summed = np.array(totals["totals"].tolist(), dtype=object).sum(axis=0)
    deals = summed[:cells].reshape(N_CATEGORIES, 2, N_OUTCOMES)
    multiple = math.comb(HOLE, k)              # each honest deal is this many deals with K cards seen
    if k == HOLE:                              # the kernel counts the called deals; the folded are the rest
        deals[:, FOLD] = every_deal * multiple - deals[:, CALL]
    if (deals.sum(axis=1) != every_deal * multiple).any():
        raise InvariantError(f"Casino Hold'em with {k} seen hole cards: the deals are not the honest deals, "
                             f"{multiple} for each")
    return SeenCounts(k, deals, int(summed[cells]))
