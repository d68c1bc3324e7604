"""Caribbean Stud by brute force: every dealer completion dealt and compared, in plain Python.

Slow and obvious on purpose: the kernels and the whole analysis are checked against it, to the
integer.  A qualifier is a value tuple of `plain_poker` (a dealer qualifies when
his value is at least that).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np

from plain_poker import disjoint, five_card_value, integer_nets
from analyzer.poker.settlement import outcome
from cython_ext.isomorphism import canonical_keys

HAND, SITUATION, N_SUITS = 5, 6, 4


def deal_every_completion(hand, up, deck, qualifier: tuple, value_of=five_card_value) -> tuple:
    """(not qualified, player wins, tie, dealer wins) over every 4-card completion of the dealer
    (`value_of`: any evaluator that orders hands as poker does).
    """
    counts = [0, 0, 0, 0]
    player = value_of(list(hand))
    rest = [c for c in deck if c not in hand and c != up]
    for completion in combinations(rest, 4):
        counts[outcome(player, value_of([up, *completion]), qualifier)] += 1
    return tuple(counts)


def collusion_deal(hands, up, deck, qualifier: tuple, value_of=five_card_value) -> list[tuple]:
    """Per seat, `deal_every_completion`'s counts when the seats pool `hands`: the dealer's four hole cards
    come from the cards no seat holds."""
    pooled = {c for hand in hands for c in hand}
    return [deal_every_completion(hand, up, [c for c in deck if c not in pooled or c in hand], qualifier, value_of)
            for hand in hands]


def collusion_every_deal(deck, qualifier: tuple, net, colluders: int = 2) -> tuple[Fraction, Fraction]:
    """(honest EV, a colluder's EV) per ANTE of one seat of `colluders` pooling seats, over every deal.

    The colluder raises when raising beats folding over the completions from the cards left; honest
    play over every completion of his own situation.  The up card is taken in one suit only.
    """
    scale, nets = integer_nets(net)
    value = {five: five_card_value(five) for five in combinations(deck, HAND)}
    # which completions (positions among the cards left after seat one's hand and the up card) each
    # union of the other seats' cards leaves: the same for every such situation
    incidence = disjoint(list(combinations(range(len(deck) - HAND - 1), 4)), HAND * (colluders - 1))
    fold = -scale * int(incidence[0].sum())
    honest = colluder = 0
    for up in [c for c in deck if c % N_SUITS == min(deck) % N_SUITS]:
        others = [c for c in deck if c != up]
        dealer = {four: value[tuple(sorted((up, *four)))] for four in combinations(others, 4)}
        for hand in combinations(others, HAND):
            player = value[hand]
            result = np.array([nets[player[0], outcome(player, dealer[four], qualifier)]
                               for four in combinations([c for c in others if c not in hand], 4)])
            ev = incidence @ result
            colluder += int(np.maximum(ev, fold).sum())
            honest += int(ev.sum()) if result.sum() > -scale * len(result) else fold * len(ev)
    deals = len(incidence) * math.comb(len(deck) - 1, HAND) * (len(deck) // len({c % N_SUITS for c in deck}))
    return Fraction(honest, -fold * deals), Fraction(colluder, -fold * deals)


def whole_game(deck, qualifier: tuple) -> dict:
    """{(hand, up): outcome counts} for every hand (sorted tuple) and up card of a small deck."""
    deck = sorted(deck)
    values = {five: five_card_value(five) for five in combinations(deck, 5)}
    result = {}
    for hand in combinations(deck, 5):
        player = values[hand]
        for up in deck:
            if up in hand:
                continue
            counts = [0, 0, 0, 0]
            rest = [c for c in deck if c not in hand and c != up]
            for completion in combinations(rest, 4):
                dealer = values[tuple(sorted((up, *completion)))]
                counts[outcome(player, dealer, qualifier)] += 1
            result[hand, up] = tuple(counts)
    return result


def optimal_ev(game: dict, net) -> tuple[Fraction, Fraction]:
    """(EV per ANTE, probability of raising) of optimal play over every situation of `game` (net(category,
    outcome) per ANTE; raise exactly when strictly better than -1).
    """
    total_ev, raises = Fraction(0), 0
    for (hand, _), counts in game.items():
        category = five_card_value(hand)[0]
        ev_raise = sum(Fraction(n, sum(counts)) * net(category, o) for o, n in enumerate(counts))
        if ev_raise > -1:
            total_ev += ev_raise
            raises += 1
        else:
            total_ev -= 1
    return total_ev / len(game), Fraction(raises, len(game))


def situation_classes(cards) -> tuple[np.ndarray, np.ndarray]:
    """(keys, weights) of every (hand, up card) suit class of the deck, sorted by key, in numpy: the canonical
    hands are those canonical_keys leaves unchanged; an up card's class opens its tie group of suits.
    """
    deck = np.array(sorted(cards), dtype=np.uint8)
    n_suits = len({c % N_SUITS for c in cards})
    hands = np.array([five[::-1] for five in combinations(deck.tolist(), HAND)], dtype=np.uint8)  # descending
    canonical = hands[(canonical_keys(hands, (HAND,)) == hands).all(axis=1)]
    canonical = canonical[np.lexsort(canonical.T[::-1])]                      # by key bytes
    ranks = (canonical // N_SUITS).astype(np.int64)
    suits = canonical % N_SUITS
    masks = np.stack([((suits == s) << ranks).sum(axis=1) for s in range(N_SUITS)], axis=1)
    # Tie groups: canonical suits are ordered by descending mask, so equal masks are adjacent.
    first = np.ones(masks.shape, dtype=bool)
    first[:, 1:] = masks[:, 1:] != masks[:, :-1]
    first[:, n_suits:] = False
    group_size = np.zeros(masks.shape, dtype=np.int64)
    for s in range(n_suits - 1, -1, -1):
        continues = masks[:, s] == masks[:, s + 1] if s + 1 < n_suits else np.zeros(len(masks), dtype=bool)
        group_size[:, s] = 1 + np.where(continues, group_size[:, s + 1] if s + 1 < n_suits else 0, 0)
    factorial = np.array([math.factorial(k) for k in range(N_SUITS + 1)], dtype=np.int64)
    orbit = math.factorial(n_suits) // np.prod(factorial[np.where(first, group_size, 0)], axis=1)
    # Up cards: deck cards outside the hand whose suit opens its tie group.
    card_suit = np.arange(52) % N_SUITS
    up_ok = np.zeros((len(canonical), 52), dtype=bool)
    up_ok[:, deck] = True
    up_ok[np.arange(len(canonical))[:, None], canonical] = False
    up_ok &= first[:, card_suit]
    per_hand = up_ok.sum(axis=1)
    # Row-major order: by hand (already sorted by key), then up card ascending.
    keys = np.empty((int(per_hand.sum()), SITUATION), dtype=np.uint8)
    keys[:, :HAND] = np.repeat(canonical, per_hand, axis=0)
    keys[:, HAND] = np.broadcast_to(np.arange(52, dtype=np.uint8), up_ok.shape)[up_ok]
    weights = (orbit[:, None] * group_size[:, card_suit]).astype(np.uint8)[up_ok]
    return keys, weights


def progressive_net(prog, category: int, jackpot) -> Fraction:
    """The progressive's net per unit staked for a hand of this category at jackpot J."""
    share, pays = prog.jackpot_share[category], prog.pays[category]
    returned = share * Fraction(jackpot) + pays
    if prog.stake_returned and (share or pays):
        returned += prog.stake
    return returned / prog.stake - 1


def settle_every_round(game: dict, rules, raise_, jackpot) -> Counter:
    """(ANTE + raise net per ANTE, progressive net per unit staked) -> rounds, over every deal of `game`
    (`whole_game`'s), raise_(hand, up, counts) deciding.
    """
    rounds = Counter()
    for (hand, up), counts in game.items():
        category = five_card_value(hand)[0]
        side = progressive_net(rules.progressive, category, jackpot)
        if raise_(hand, up, counts):
            for result, n in enumerate(counts):
                rounds[rules.paytable.net(category, result), side] += n
        else:
            rounds[Fraction(-1), side] += sum(counts)
    return rounds


def seen_dealer_cards(deck, qualifier: tuple, paytable, k: int) -> tuple[list, int]:
    """The exploit of K seen hole cards besides the up card, dealt out: (deals, disagreements).

    deals[category][raised][outcome] counts the deals (hand, 1 + K seen cards, completion) with the
    exploit raising when its EV beats -1; disagreements counts them with each seen card as the up
    card in turn where the honest decision differs.
    """
    deck = sorted(deck)
    values = {five: five_card_value(five) for five in combinations(deck, HAND)}

    def counts_of(player, seen, left, unseen):
        counts = [0] * 4
        for completion in combinations(left, unseen):
            counts[outcome(player, values[tuple(sorted(seen + completion))], qualifier)] += 1
        return counts

    def raises(category, counts):
        return sum(Fraction(n, sum(counts)) * paytable.net(category, o) for o, n in enumerate(counts)) > -1

    deals = [[[0] * 4 for _ in range(2)] for _ in range(10)]
    disagreements = 0
    for hand in combinations(deck, HAND):
        player, rest = values[hand], [c for c in deck if c not in hand]
        category = player[0]
        honest = {up: raises(category, counts_of(player, (up,), [c for c in rest if c != up], 4)) for up in rest}
        for seen in combinations(rest, 1 + k):
            counts = counts_of(player, seen, [c for c in rest if c not in seen], 4 - k)
            raised = raises(category, counts)
            for o, n in enumerate(counts):
                deals[category][raised][o] += n
            disagreements += sum(honest[up] != raised for up in seen) * sum(counts)
    return deals, disagreements
