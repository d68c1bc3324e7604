"""Baccarat: the kernel against a card-by-card brute force, published figures, exact identities."""
import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer.core.exact import percent_str
from analyzer.games import registry
from analyzer.games.baccarat import advice, count, price
from analyzer.games.baccarat.count import count_outcomes, count_outcomes_python
from plain_baccarat import count_every_sequence
from analyzer.games.baccarat.rules import BETS
from analyzer.games.baccarat.shoe import ShoeError, remove_cards

BACCARAT = registry.game("baccarat")


def as_counter(counts):
    return {(p, b, 4 + k): int(counts[p, b, k])
            for p in range(10) for b in range(10) for k in range(3) if counts[p, b, k]}


ONE_SUIT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]          # A..9, T, J, Q, K of one suit


@pytest.mark.parametrize("deck", [ONE_SUIT, [0, 0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9]],
                         ids=["one-suit", "twelve-cards"])
def test_kernel_equals_card_by_card_brute_force(deck, baccarat_rules):
    _, rules = baccarat_rules
    shoe = [deck.count(v) for v in range(10)]
    kernel = as_counter(count_outcomes(shoe, rules))
    brute = dict(count_every_sequence(deck, rules))
    assert kernel == brute
    assert sum(brute.values()) == math.perm(len(deck), 6)


def odd_tableau(baccarat_rules, tmp_path):
    """The operator's rules with a tableau unlike the standard one."""
    rule_file, _ = baccarat_rules
    text = rule_file.raw.decode().replace("player_draws_on = [0, 1, 2, 3, 4, 5]", "player_draws_on = [0, 2, 4, 6]")
    text = text.replace("natural = [8, 9]", "natural = [9]").replace("6 = [6, 7]", "6 = [0, 6, 7, 9]")
    text = text.replace("banker_draws_when_player_stands = [0, 1, 2, 3, 4, 5]", "banker_draws_when_player_stands = [1, 3, 5]")
    assert text.count("[0, 2, 4, 6]") and text.count("[0, 6, 7, 9]") and text.count("[1, 3, 5]")
    path = tmp_path / "odd.toml"
    path.write_text(text)
    return BACCARAT.load_rules(path)[1]


def test_kernel_equals_brute_force_on_an_odd_tableau(baccarat_rules, tmp_path):
    """A tableau unlike the standard one: the kernel must follow the rule data, not habit."""
    rules = odd_tableau(baccarat_rules, tmp_path)
    shoe = [ONE_SUIT.count(v) for v in range(10)]
    assert as_counter(count_outcomes(shoe, rules)) == dict(count_every_sequence(ONE_SUIT, rules))


@pytest.mark.parametrize("seed", range(3))
def test_kernel_equals_python_integer_walk(seed, baccarat_rules):
    _, rules = baccarat_rules
    rng = random.Random(seed)
    shoe = [max(0, n - rng.randrange(6)) for n in rules.full_shoe()]
    kernel = count_outcomes(shoe, rules)
    python = count_outcomes_python(shoe, rules)
    assert (kernel == python).all()


def test_full_shoe_counts_every_ordered_six_card_sequence(baccarat_rules):
    _, rules = baccarat_rules
    counts = count_outcomes(rules.full_shoe(), rules)
    assert sum(rules.full_shoe()) == 416
    assert sum(int(x) for x in counts.ravel()) == 416 * 415 * 414 * 413 * 412 * 411


def test_published_rtps(baccarat_rules):
    rule_file, rules = baccarat_rules
    analysis = support.analyse_one("baccarat")
    shown = {bet: percent_str(analysis.rtp(bet), 2) for bet in BETS}
    assert shown == {"banker": "98.94%", "player": "98.76%", "tie": "85.64%"}
    # Exact house edges, pinned (well-known: 1.0579%, 1.2351%, 14.3596%).
    assert 1 - analysis.rtp("banker") == Fraction(114753351728, 10847218479825)
    assert 1 - analysis.rtp("player") == Fraction(241149546272, 19524993263685)
    assert 1 - analysis.rtp("tie") == Fraction(103841353768, 723147898655)


def test_effect_of_removal_balances(baccarat_rules):
    """Burning a random card does not change a bet: sum over values of count x EoR is exactly 0."""
    _, rules = baccarat_rules
    effects = price.effect_of_removal(rules, count.count_shoes(count.analysis_shoes(rules), rules))
    shoe = rules.full_shoe()
    for bet in BETS:
        assert sum(shoe[v] * effects[v][bet] for v in range(10)) == 0
    assert effects[5]["banker"] != 0


def test_large_shoe_switches_to_python_integers(baccarat_rules, monkeypatch):
    _, rules = baccarat_rules
    calls = []
    real = count.count_outcomes_python
    monkeypatch.setattr(count, "count_outcomes_python", lambda c, r: calls.append(1) or real(c, r))
    at_limit = [1448 - 9 * 144] + [144] * 9            # 1,448 cards: 1448**6 < 2**63
    count_outcomes(at_limit, rules)
    assert not calls
    over = [at_limit[0] + 1] + at_limit[1:]           # 1,449 cards: would overflow int64
    counts = count.count_outcomes(over, rules)
    assert calls and sum(counts.ravel()) == math.perm(1449, 6)


def test_commission_rounding_table(baccarat_rules):
    rule_file, rules = baccarat_rules
    analysis = support.analyse_one("baccarat")
    by_stake = {s: rtp for s, _, rtp in analysis.stake_rtps}
    nominal = analysis.rtp("banker")
    assert by_stake[Fraction(1, 5)] == nominal                   # 0.20 -> 0.39 exactly
    assert by_stake[Fraction(1, 10)] < nominal                   # 0.10 -> 0.19, not 0.195
    for stake, rtp in by_stake.items():
        assert (rtp == nominal) == ((stake * 100) % 20 == 0)     # loses exactly off multiples of 0.20


def test_live_shoe_query(baccarat_rules):
    _, rules = baccarat_rules
    shoe = remove_cards(rules.full_shoe(), "5,5,9,K")
    assert shoe == (127, 32, 32, 32, 32, 30, 32, 32, 32, 31)
    answer = advice.shoe_query(shoe, rules)
    assert answer["best_bet"] == "banker"
    main = price.MainOutcomes.from_counts(count_outcomes(shoe, rules))
    assert answer["ev"]["tie"] == Fraction(8 * main.tie - main.banker - main.player, main.total)
    with pytest.raises(ShoeError, match="no card of value 9"):
        remove_cards((0, 6, 0, 0, 0, 0, 0, 0, 0, 0), "9")


def test_tie_nine_to_one_variant(baccarat_rules, tmp_path):
    rule_file, rules = baccarat_rules
    path = tmp_path / "tie9.toml"
    path.write_text(rule_file.raw.decode().replace("tie = 8 ", "tie = 9 ").replace('rule_set = "operator"', 'rule_set = "tie9"'))
    _, variant = BACCARAT.load_rules(path)
    main = price.MainOutcomes.from_counts(count_outcomes(variant.full_shoe(), variant))
    assert advice.shoe_query(variant.full_shoe(), variant)["ev"]["tie"] == Fraction(10 * main.tie, main.total) - 1


@pytest.mark.parametrize("tableau", ["operator", "odd"])
def test_the_monte_carlo_tableau_is_the_plain_one_on_every_six_values(baccarat_rules, tmp_path, tableau):
    """checks.play_rounds (whole arrays) equals rules.play_round on all 10**6 sequences of six values."""
    from analyzer.games.baccarat.checks import final_totals, play_rounds
    rules = baccarat_rules[1] if tableau == "operator" else odd_tableau(baccarat_rules, tmp_path)
    values = np.array(list(itertools.product(range(10), repeat=6)), dtype=np.int64)
    player, banker = play_rounds(values, final_totals(rules))
    plain = np.array([rules.play_round(row)[:2] for row in values.tolist()])
    assert (player == plain[:, 0]).all() and (banker == plain[:, 1]).all()
