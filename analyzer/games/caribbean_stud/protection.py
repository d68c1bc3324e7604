"""Caribbean Stud with seen dealer cards: what a player who sees K of the dealer's hole cards gains, exactly.

Besides the up card the player sees K = 0..4 of the dealer's four hole cards (which ones does not
matter: the dealer's five cards are exchangeable) and raises exactly when, given his hand and the
1 + K cards, raising beats folding (an exact tie folds, as in the honest analysis).  Every deal is
counted as (player hand P, the set S of seen dealer cards, the dealer's other cards R), by the
player's category x the exploit's decision x the outcome; the figures follow from these counts and
the paytable, exactly.  Where the exploit and the honest optimum (which sees one of S's cards as
the up card) decide differently is counted over the deals with the up card distinguished among S.

K = 0 is the honest analysis and K = 4 (the whole hand) is settled by its counts per outcome; K = 1..3
are enumerated by `cython_ext.stud_leak` over the suit classes of S, as chunks on the executor.
`tests/plain_caribbean_stud.seen_dealer_cards` deals the same out in plain Python.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from analyzer.core.errors import InputError, InvariantError
from analyzer.core.exact import INT64_MAX, exact_group_sums
from analyzer.core.execution import Chunk, Executor, Part, SerialExecutor, Totals, chunk_ranges
from analyzer.games.caribbean_stud.count import HAND, SituationCounts
from analyzer.games.caribbean_stud.price import price
from analyzer.games.caribbean_stud.rules import StudRules
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from analyzer.poker.protection import SeenCounts, SeenDealerCards
from cython_ext import handeval, stud_enum, stud_leak
from cython_ext.isomorphism import canonical_keys

HOLE_CARDS = HAND - 1            # K is at most the dealer's hole cards


def seen_dealer_cards(rules: StudRules, table: SituationCounts, k: int, executor: Executor | None = None,
                      progress=None) -> SeenDealerCards:
    """The exploit of K = 0..4 seen hole cards under `rules`, from the honest counts `table` of its deck and
    qualifier (K = 0 and 4 need nothing else; K = 1..3 are counted on `executor`, default this process on
    every core).  Raises InputError for K out of range or a paytable whose EVs the kernel's 64 bits cannot
    hold; InvariantError where the counts do not cover every deal exactly once."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= HOLE_CARDS:
        raise InputError(f"seen dealer cards: K = {k!r}; the dealer has {HOLE_CARDS} hole cards (K = 0..{HOLE_CARDS})")
    if tuple(table.cards) != tuple(sorted(rules.cards)) or table.qualifier_rank != rules.qualifier_rank:
        raise InvariantError("seen dealer cards: the counts are not those of the rules' deck and qualifier")
    priced = price(table, rules)
    honest = priced.optimal_figures("optimal", "raise exactly when raising beats folding (exact ties fold)")
    raise_, _ = priced.optimal()
    by_honest = honest_deals(table, raise_)
    if k == 0:
        counts = SeenCounts(0, by_honest, 0, 1)
    elif k == HOLE_CARDS:
        counts = whole_hand_seen(rules, by_honest)
    else:
        counts = count_seen(rules, table, raise_, k, executor, progress)
    n = len(rules.cards)
    if counts.total != math.comb(n, HAND) * math.comb(n - HAND, 1 + k) * math.comb(n - HAND - 1 - k, HOLE_CARDS - k):
        raise InvariantError(f"Caribbean Stud with {k} seen hole cards: the counts do not cover every deal exactly once")
    result = SeenDealerCards(counts, rules.paytable, rules.raise_size, honest)
    if k == 0 and (result.ev, result.play_probability) != (honest.ev, honest.p_play):
        raise InvariantError("Caribbean Stud with no seen hole card: the figures are not the honest optimum's")
    return result


def honest_deals(table: SituationCounts, raise_: np.ndarray) -> np.ndarray:
    """Every honest deal (P, u, R) by [player category][the honest decision][outcome], Python integers."""
    groups = table.player_category.astype(np.int64) * 2 + raise_
    weights = table.weights.astype(np.int64)
    deals = np.zeros((N_CATEGORIES, 2, N_OUTCOMES), dtype=object)
    for o in range(N_OUTCOMES):
        deals[:, :, o] = exact_group_sums(groups, weights * table.counts[:, o], 2 * N_CATEGORIES).astype(object) \
            .reshape(N_CATEGORIES, 2)
    return deals


def whole_hand_seen(rules: StudRules, by_honest: np.ndarray) -> SeenCounts:
    """K = 4: the outcome is known, so the exploit raises exactly where its net beats -1.  Each deal (P, D)
    is among the honest deals (P, u, R) once for each of D's five cards as u (so the honest decision is
    compared on every one of them)."""
    nets, scale = rules.paytable.net_matrix()
    exploit = np.array([[int(nets[c, o]) > -scale for o in range(N_OUTCOMES)] for c in range(N_CATEGORIES)])
    per_deal = by_honest.sum(axis=1)                                     # (categories, outcomes)
    if any(int(x) % HAND for x in per_deal.ravel()):
        raise InvariantError("Caribbean Stud honest deals do not count each dealer hand once per up card")
    deals = np.zeros_like(by_honest)
    for c, o in itertools.product(range(N_CATEGORIES), range(N_OUTCOMES)):
        deals[c, int(exploit[c, o]), o] = int(per_deal[c, o]) // HAND
    disagreements = sum(int(by_honest[c, h, o]) for c, h, o in itertools.product(
        range(N_CATEGORIES), range(2), range(N_OUTCOMES)) if h != exploit[c, o])
    return SeenCounts(HOLE_CARDS, deals, disagreements, 1 + HOLE_CARDS)


def seen_classes(cards, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The suit classes of `size` cards of the deck (canonical, descending) and the raw sets each stands for."""
    rows = np.array([combo[::-1] for combo in itertools.combinations(sorted(cards), size)], dtype=np.uint8)
    keys, weights = np.unique(canonical_keys(rows, (size,)), axis=0, return_counts=True)
    return np.ascontiguousarray(keys), weights.astype(np.int64)


TYPES = ("hands", "rank_start", "type_start", "type_rank", "holding")   # stud_leak.hand_types' tables


def _seen_chunk(shared, cards: tuple, qualifier_rank: int, nets: np.ndarray, fold_ev: int, index: int, start: int,
                stop: int, threads: int) -> list:
    """The deals of the seen-card classes start..stop-1, then the disagreements: row `index` of the totals
    (one row per chunk, so that processes add into their own)."""
    deals, disagreements = stud_leak.count_seen(
        np.array(cards, dtype=np.uint8), shared["seen"][start:stop], shared["weights"][start:stop],
        shared["hand_rank"], {name: shared[name] for name in TYPES}, shared["honest"], shared["category_of_rank"],
        nets, fold_ev, qualifier_rank, threads)
    return [Part("totals", np.r_[deals.ravel(), disagreements].astype(np.uint64)[None], index)]


def count_seen(rules: StudRules, table: SituationCounts, raise_: np.ndarray, k: int, executor: Executor | None,
               progress=None) -> SeenCounts:
    """K = 1..3: every class of seen cards against every player hand, in the compiled kernel, chunked."""
    nets, scale = rules.paytable.net_matrix()
    n = len(table.cards)
    completions = math.comb(n - HAND - 1 - k, HOLE_CARDS - k)
    fold_ev = -completions * scale
    largest = max(abs(int(x)) for x in nets.ravel())
    if largest * completions * N_OUTCOMES + abs(fold_ev) > INT64_MAX:
        raise InputError(f"seen dealer cards: the paytable's nets (x {scale}) are too large for exact 64-bit EVs")
    if math.comb(n, HAND) * math.comb(n - HAND, 1 + k) * completions * (1 + k) > INT64_MAX:
        raise InvariantError("seen dealer cards: the deal counts would not fit 64 bits")
    cards = np.array(table.cards, dtype=np.uint8)
    seen, weights = seen_classes(table.cards, 1 + k)
    hand_rank = stud_leak.hand_ranks(cards)
    types = stud_leak.hand_types(cards, hand_rank)
    shared = {"seen": seen, "weights": weights, "hand_rank": hand_rank, **{name: types[name] for name in TYPES},
              "honest": stud_leak.honest_planes(cards, table.keys, raise_.view(np.uint8), types["order"]),
              "category_of_rank": handeval.categories(handeval.ORDERED_VALUES).astype(np.uint8)}
    executor = executor or SerialExecutor(stud_enum.default_threads())
    ranges = chunk_ranges(len(seen), 1 if executor.workers == 1 else 4 * executor.workers)
    cells = N_CATEGORIES * 2 * N_OUTCOMES
    totals = Totals({"totals": ((len(ranges), cells + 1), np.uint64)})
    executor.run([Chunk(_seen_chunk, (tuple(table.cards), int(table.qualifier_rank), nets.astype(np.int64), fold_ev,
                                      i, a, b, executor.threads_per_chunk))
                  for i, (a, b) in enumerate(ranges)], totals, shared, progress, f"caribbean stud: {k} seen hole cards")
    summed = np.array(totals["totals"].tolist(), dtype=object).sum(axis=0)
    return SeenCounts(k, summed[:cells].reshape(N_CATEGORIES, 2, N_OUTCOMES), int(summed[cells]), 1 + k)
