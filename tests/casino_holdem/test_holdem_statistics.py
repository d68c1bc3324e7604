"""Casino Hold'em round statistics: every round of reduced decks dealt and settled in plain Python, the full deck's figures."""
from fractions import Fraction

import pytest

import support
from analyzer.core.exact import percent_str
from analyzer.games import registry
from plain_casino_holdem import aa_hand, count_every_deal, optimal_call, settle_every_round

HOLDEM = registry.game("casino-holdem")
DECKS = [("23456A", "cd", "1"), ("9TJQKA", "cd", "1/2")]         # flushes, straights, the wheel; royals


@pytest.fixture(scope="module", params=DECKS, ids=[d[0] + "-" + d[1] for d in DECKS])
def reduced(request, tmp_path_factory):
    ranks, suits, ratio = request.param
    path = support.reduced_deck(tmp_path_factory.mktemp("holdem"), "casino-holdem", ranks, suits,
                                more=[("ratio = 1 ", f'ratio = "{ratio}" ')])
    _, rules = HOLDEM.load_rules(path)
    analysis = support.analyse_one("casino-holdem", path)
    return rules, analysis, count_every_deal(list(rules.cards), (1, 2))       # a pair of fours or better


def brute_force(rules, deals, strategy):
    net = rules.paytable.net
    if strategy == "optimal":
        return settle_every_round(deals, rules, lambda hole, flop, counter: optimal_call(counter, net))
    if strategy == "always_call":
        return settle_every_round(deals, rules, lambda *_: True)
    assert strategy == "call_on_aa_win"
    return settle_every_round(deals, rules, lambda hole, flop, counter: optimal_call(counter, net)
                              or rules.aa_pays[aa_hand(hole + flop)] is not None)


@pytest.mark.parametrize("strategy", ["optimal", "always_call", "call_on_aa_win"])
def test_statistics_equal_every_round_dealt_out(reduced, strategy):
    """Distribution, variance and hit frequency of ANTE + CALL, the AA Bonus and both together, to the integer."""
    rules, analysis, deals = reduced
    rounds = brute_force(rules, deals, strategy)
    stats = analysis.statistics[strategy]
    ratio = rules.aa_ratio
    support.assert_statistics_equal(stats.main, support.marginal(rounds, 0))
    support.assert_statistics_equal(stats.side, support.marginal(rounds, 1))
    support.assert_statistics_equal(stats.combined, support.marginal(rounds, combine=lambda v: v[0] + ratio * v[1]))
    total = sum(rounds.values())
    mean_main = sum(v[0] * n for v, n in rounds.items()) / total
    mean_aa = sum(v[1] * n for v, n in rounds.items()) / total
    assert stats.covariance == sum((v[0] - mean_main) * (v[1] - mean_aa) * n for v, n in rounds.items()) / total
    assert stats.main.mean_wagered == analysis.strategies[strategy].average_wager


def test_full_deck_figures(holdem_analysis):
    """The full deck's optimal strategy: its statistics agree with its EV and RTPs, and are pinned."""
    stats = holdem_analysis.statistics["optimal"]
    optimal = holdem_analysis.strategies["optimal"]
    assert stats.main.mean == optimal.ev and stats.main.rtp == optimal.rtp and stats.side.rtp == optimal.aa_rtp
    assert stats.main.rounds == 27_813_810_024_000
    assert stats.main.variance == Fraction(300082722930351389873941, 43955001593816072760000)
    assert (stats.main.standard_deviation(4), stats.side.standard_deviation(4), stats.combined.standard_deviation(4)) \
        == ("2.6129", "2.8552", "4.3346")
    assert percent_str(stats.main.hit_frequency, 2) == "47.77%"
    assert stats.main.largest_win.value == 102
    joint = holdem_analysis.strategies["joint_optimal"]                     # combined play: the total EV and RTP
    both = holdem_analysis.statistics["joint_optimal"].combined
    assert both.mean == joint.ev + joint.aa_ratio * (joint.aa_rtp - 1)
    assert both.rtp == 1 + both.mean / (joint.average_wager + joint.aa_ratio)
