"""Caribbean Stud round statistics: every deal of reduced decks settled in plain Python; the published SD; J."""
from fractions import Fraction

import pytest

import support
from analyzer.core.exact import percent_str
from analyzer.games import registry
import plain_caribbean_stud as reference
from analyzer.games.caribbean_stud.progressive import rtp_at
from plain_poker import five_card_value

STUD = registry.game("caribbean-stud")
ACE_KING = (0, 12, 11)


@pytest.fixture(scope="module", params=[("9TJQKA", "cd", 0), ("23456A", "cd", 1)], ids=["9TJQKA-cd", "23456A-cd-standard"])
def reduced(request, tmp_path_factory):
    ranks, suits, builtin = request.param
    path = support.variant(tmp_path_factory.mktemp("stud"), "caribbean-stud",
                           [('ranks = "23456789TJQKA"', f'ranks = "{ranks}"'), ('suits = "cdhs"', f'suits = "{suits}"')],
                           "small", builtin)
    _, rules = STUD.load_rules(path)
    return rules, support.analyse_one("caribbean-stud", path), reference.whole_game(rules.cards, ACE_KING)


def raise_rule(rules, strategy):
    def optimal(hand, up, counts):
        category = five_card_value(hand)[0]
        return sum(Fraction(n, sum(counts)) * rules.paytable.net(category, o) for o, n in enumerate(counts)) > -1
    return {"optimal": optimal, "raise_everything": lambda *_: True,
            "raise_pair_or_better": lambda hand, up, counts: five_card_value(hand)[0] >= 1}[strategy]


@pytest.mark.parametrize("strategy", ["optimal", "raise_everything", "raise_pair_or_better"])
def test_statistics_equal_every_deal_settled(reduced, strategy):
    """ANTE + raise, the progressive at a jackpot level and both together, to the integer; the functions of J."""
    rules, analysis, game = reduced
    level = rules.progressive.levels[2]
    rounds = reference.settle_every_round(game, rules, raise_rule(rules, strategy), level)
    stats = analysis.statistics[strategy]
    support.assert_statistics_equal(stats.main, support.marginal(rounds, 0))
    combined = dict(analysis.combined[strategy].at_levels)[level]
    ratio = analysis.progressive_ratio
    support.assert_statistics_equal(combined.combined, support.marginal(rounds, combine=lambda v: v[0] + ratio * v[1]))
    total = sum(rounds.values())
    means = [sum(v[i] * n for v, n in rounds.items()) / total for i in (0, 1)]
    covariance = sum((v[0] - means[0]) * (v[1] - means[1]) * n for v, n in rounds.items()) / total
    assert combined.covariance == covariance
    functions = analysis.combined[strategy].functions
    assert rtp_at(functions.covariance, level) == covariance
    assert rtp_at(functions.variance, level) == combined.combined.variance
    assert rtp_at(functions.mean, level) == combined.combined.mean
    assert rtp_at(functions.rtp, level) == combined.combined.rtp


def test_progressive_alone_equals_the_hands(reduced):
    """The progressive per unit staked at every level, against the deck's hands settled one by one."""
    from itertools import combinations
    rules, analysis, _ = reduced
    for level, stats in analysis.progressive_at:
        hands = {}
        for five in combinations(rules.cards, 5):
            net = reference.progressive_net(rules.progressive, five_card_value(five)[0], level)
            hands[net] = hands.get(net, 0) + 1
        support.assert_statistics_equal(stats, hands)
        assert rtp_at(analysis.moments.variance_text, level) == stats.variance
        assert rtp_at(analysis.moments.mean_text, level) == stats.mean


def test_published_standard_deviation(stud_analyses):
    """Caribbean Stud, standard paytable, optimal strategy: SD 2.24 per ANTE (published, rounded)."""
    standard = stud_analyses["standard"].statistics["optimal"].main
    assert standard.standard_deviation(2) == "2.24"
    assert standard.standard_deviation(6) == "2.242950"
    assert standard.variance == Fraction(22719091725783712107649, 4515976528139586510000)
    assert stud_analyses["standard"].statistics["optimal"].main.mean == stud_analyses["standard"].strategies["optimal"].ev
    assert percent_str(standard.hit_frequency, 2) == "38.55%"
