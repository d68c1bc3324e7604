"""Casino Hold'em by brute force on a (reduced) deck: every situation, every continuation, dealt out, and every
round settled (ANTE + CALL and the AA Bonus) for the round statistics."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from plain_poker import ACE, PAIR, best_value, disjoint, five_card_value, integer_nets
from analyzer.poker.settlement import outcome


def count_every_deal(cards, qualifier: tuple) -> dict:
    """(hole, flop) -> Counter of (final category, outcome) over every turn/river and dealer pair (qualifier:
    the least qualifying best_value(), e.g. (1, 2) for a pair of fours).
    """
    value = lru_cache(maxsize=None)(lambda seven: best_value(seven))
    results = {}
    for hole in combinations(cards, 2):
        rest = [c for c in cards if c not in hole]
        for flop in combinations(rest, 3):
            counter = Counter()
            after_flop = [c for c in rest if c not in flop]
            for turn_river in combinations(after_flop, 2):
                board = flop + turn_river
                player = value(tuple(sorted(hole + board)))
                for dealer_hole in combinations([c for c in after_flop if c not in turn_river], 2):
                    dealer = value(tuple(sorted(dealer_hole + board)))
                    counter[player[0], outcome(player, dealer, qualifier)] += 1
            results[hole, flop] = counter
    return results


def collusion_deal(holes, flop, cards, qualifier: tuple, value_of=best_value) -> list[Counter]:
    """Per seat, the Counter of (final category, outcome) over every continuation from the cards no seat holds,
    when the seats pool `holes`.
    """
    flop = tuple(flop)
    pooled = set(flop).union(*holes)
    left = [c for c in cards if c not in pooled]
    counters = [Counter() for _ in holes]
    for turn_river in combinations(left, 2):
        board = flop + turn_river
        players = [value_of(tuple(hole) + board) for hole in holes]
        for dealer_hole in combinations([c for c in left if c not in turn_river], 2):
            dealer = value_of(dealer_hole + board)
            for counter, player in zip(counters, players):
                counter[player[0], outcome(player, dealer, qualifier)] += 1
    return counters


def collusion_every_deal(cards, qualifier: tuple, net, colluders: int = 2) -> tuple[Fraction, Fraction]:
    """(honest EV, a colluder's EV) per ANTE of one seat of `colluders` pooling seats, over every deal: the
    colluder calls when calling beats folding over the continuations from the cards left.
    """
    scale, nets = integer_nets(net)
    value = lru_cache(maxsize=None)(lambda mask: best_value([c for c in cards if mask >> c & 1]))
    # continuations as positions among the cards left after the hole cards and flop, and which of them
    # each union of the other seats' cards leaves: the same for every situation
    leaves = [(turn_river, dealer) for turn_river in combinations(range(len(cards) - 5), 2)
              for dealer in combinations([p for p in range(len(cards) - 5) if p not in turn_river], 2)]
    incidence = disjoint([turn_river + dealer for turn_river, dealer in leaves], 2 * (colluders - 1))
    fold = -scale * int(incidence[0].sum())
    honest = colluder = deals = 0
    for hole in combinations(cards, 2):
        for flop in combinations([c for c in cards if c not in hole], 3):
            bit = [1 << c for c in cards if c not in hole and c not in flop]
            shown, own = sum(1 << c for c in flop), sum(1 << c for c in hole)
            result = []
            for (turn, river), (first, second) in leaves:
                board = shown | bit[turn] | bit[river]
                player = value(board | own)
                result.append(nets[player[0], outcome(player, value(board | bit[first] | bit[second]), qualifier)])
            ev = incidence @ np.array(result)
            colluder += int(np.maximum(ev, fold).sum())
            honest += int(ev.sum()) if sum(result) > -scale * len(result) else fold * len(ev)
            deals += len(ev)
    return Fraction(honest, -fold * deals), Fraction(colluder, -fold * deals)


def aa_hand(five) -> str:
    """The AA Bonus hand of five cards (a name of rules.AA_HANDS), read off the plain evaluator."""
    value = five_card_value(list(five))
    category = value[0]
    if category == PAIR:
        return "pair_of_aces" if value[1] == ACE else "other_pair"
    return ("high_card", None, "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
            "straight_flush", "royal_flush")[category]


def optimal_call(counter: Counter, net) -> bool:
    """Call exactly when calling beats folding (-1 ANTE) over the situation's dealt continuations."""
    total = sum(counter.values())
    return sum(Fraction(n, total) * net(c, o) for (c, o), n in counter.items()) > -1


def settle_every_round(deals: dict, rules, call) -> Counter:
    """(ANTE + CALL net per ANTE, AA Bonus net per unit) -> rounds, over every round of `deals`
    (`count_every_deal`'s), call(hole, flop, counter) deciding; a fold loses the ANTE and the AA Bonus.
    """
    rounds = Counter()
    for (hole, flop), counter in deals.items():
        if call(hole, flop, counter):
            pay = rules.aa_pays[aa_hand(hole + flop)]
            aa = Fraction(-1) if pay is None else Fraction(pay)
            for (category, result), n in counter.items():
                rounds[rules.paytable.net(category, result), aa] += n
        else:
            rounds[Fraction(-1), Fraction(-1)] += sum(counter.values())
    return rounds


def seen_dealer_cards(cards, qualifier: tuple, paytable, ks=(0, 1, 2)) -> dict:
    """The exploit of K seen dealer hole cards at the flop, dealt out, for each K in `ks`: every hole pair H,
    flop F, set S of K of the dealer's hole cards and completion (the turn and river, the dealer's other
    2 - K cards).

    The exploit calls on (H, F, S) exactly when calling's EV over the completions beats folding's (-1), the
    honest optimum on (H, F) when its EV over every continuation does.  Returns {K: (deals, disagreements)}:
    deals[category][called][outcome] counts the deals (H, F, S, completion); disagreements counts those
    where the honest decision on (H, F) is not the exploit's on (H, F, S).  Each 7-card set is valued once.
    """
    scale, nets = integer_nets(paytable.net)
    values = {sum(1 << c for c in seven): best_value(seven) for seven in combinations(cards, 7)}
    results = {k: ([[[0] * 4 for _ in range(2)] for _ in range(10)], 0) for k in ks}

    def calls(counter):
        return sum(n * nets[key] for key, n in counter.items()) > -scale * sum(counter.values())

    for hole in combinations(cards, 2):
        rest = [c for c in cards if c not in hole]
        own = sum(1 << c for c in hole)
        for flop in combinations(rest, 3):
            left = [c for c in rest if c not in flop]
            shown = sum(1 << c for c in flop)
            by_dealer = Counter()                 # (the dealer's hole pair, (category, outcome)) -> turn/river pairs
            for turn, river in combinations(left, 2):
                board = shown | 1 << turn | 1 << river
                player = values[board | own]
                for dealer_hole in combinations([c for c in left if c != turn and c != river], 2):
                    dealer = values[board | 1 << dealer_hole[0] | 1 << dealer_hole[1]]
                    by_dealer[dealer_hole, (player[0], outcome(player, dealer, qualifier))] += 1
            every = Counter()
            by_seen = {k: {} for k in ks}
            for (dealer_hole, dealt), n in by_dealer.items():
                every[dealt] += n
                for k in ks:
                    for seen in combinations(dealer_hole, k):
                        by_seen[k].setdefault(seen, Counter())[dealt] += n
            honest = calls(every)
            for k in ks:
                deals, disagreements = results[k]
                for counter in by_seen[k].values():
                    called = calls(counter)
                    for (category, result), n in counter.items():
                        deals[category][called][result] += n
                    disagreements += (called != honest) * sum(counter.values())
                results[k] = deals, disagreements
    return results
