"""Baccarat round statistics: every ordered deal of small shoes settled from the rule file; the published SDs."""
from fractions import Fraction

import pytest

import support
from analyzer.figures.distribution import WagerStatistics
from analyzer.games.baccarat.analysis import PAIRS, pair_statistics
from analyzer.games.baccarat.count import count_outcomes
from analyzer.games.baccarat.price import MainOutcomes, banker_win_return, bet_outcomes
from plain_baccarat import count_every_sequence, settle_every_sequence
from analyzer.games.baccarat.rules import BETS

TWELVE = [0, 0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9]


@pytest.fixture(scope="module")
def small(baccarat_rules):
    _, rules = baccarat_rules
    shoe = [TWELVE.count(v) for v in range(10)]
    return rules, MainOutcomes.from_counts(count_outcomes(shoe, rules)), count_every_sequence(TWELVE, rules)


def test_each_bet_and_pair_equals_every_sequence(small):
    rules, main, sequences = small
    rounds = settle_every_sequence(sequences, rules)
    joint = bet_outcomes(main, rules)
    for i, bet in enumerate(BETS):
        support.assert_statistics_equal(WagerStatistics.from_outcomes(joint, bet, None), support.marginal(rounds, i))
    for pair in PAIRS:
        i, j = BETS.index(pair[0]), BETS.index(pair[1])
        stats = pair_statistics(joint, pair)
        support.assert_statistics_equal(stats, support.marginal(rounds, combine=lambda v: v[i] + v[j]))
        assert stats.mean_wagered == 2
        total = sum(rounds.values())
        means = [sum(v[k] * n for v, n in rounds.items()) / total for k in (i, j)]
        assert joint.covariance(*pair) == sum((v[i] - means[0]) * (v[j] - means[1]) * n
                                              for v, n in rounds.items()) / total


@pytest.mark.parametrize("stake", [Fraction(1, 10), Fraction(3, 10), Fraction(1)])
def test_banker_at_a_stake_equals_every_sequence(small, stake):
    rules, main, sequences = small
    rounds = settle_every_sequence(sequences, rules, stake)
    stats = WagerStatistics.from_outcomes(bet_outcomes(main, rules, banker_win_return(rules, stake)), "banker", None)
    support.assert_statistics_equal(stats, support.marginal(rounds, 0))


def test_published_standard_deviations():
    """8-deck Baccarat, SD per unit bet: BANKER 0.93, PLAYER 0.95, TIE 2.64 (published, rounded)."""
    analysis = support.analyse_one("baccarat")
    shown = {bet: analysis.statistics[bet].sd_per_unit_wagered(2) for bet in BETS}
    assert shown == {"banker": "0.93", "player": "0.95", "tie": "2.64"}
    assert {bet: analysis.statistics[bet].standard_deviation(6) for bet in BETS} == \
        {"banker": "0.927372", "player": "0.951153", "tie": "2.640872"}
    assert analysis.covariance("banker", "player") < 0 < analysis.covariance("banker", "tie")
    by_stake = dict(analysis.stake_statistics)
    assert by_stake[Fraction(1, 5)] == analysis.statistics["banker"]           # 0.20 pays 0.39 exactly
    assert by_stake[Fraction(1, 10)].variance < analysis.statistics["banker"].variance
