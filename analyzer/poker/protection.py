"""What both poker games' leaks are worth, as `analyzer.figures.protection.Leak`s: seen dealer cards (exact) and
colluding seats (estimated), each with its figures, its tables and its method in words.

The games compute (`games/*/protection.py`'s `seen_dealer_cards`, `games/*/collusion.py`'s `estimate`); this
module only says what their results mean, once for both games.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.core.exact import decimal_str
from analyzer.figures.distribution import RoundOutcomes, WagerStatistics
from analyzer.figures.protection import EDGE, Leak, LeakFigure
from analyzer.figures.tables import EXACT, ROOT, Table
from analyzer.poker.settlement import N_CATEGORIES, N_OUTCOMES
from analyzer.poker.statistics import COMPONENTS, MAIN, WAGERED

FOLD, PLAY = 0, 1                # the decision axis of the deal counts


@dataclass(frozen=True)
class SeenCounts:
    """Every deal with K dealer cards seen, counted exactly (Python integers): deals[category][fold, play][outcome]
    by the player's final category; `disagreements` where the honest optimum decides otherwise, counted over
    every deal `distinguished` times (Caribbean Stud: once per seen card that may be the up card)."""

    k: int
    deals: np.ndarray
    disagreements: int
    distinguished: int = 1

    @property
    def total(self) -> int:
        """Every deal counted."""
        return int(self.deals.sum())

    @property
    def disagreement_deals(self) -> int:
        """The deals the disagreements are counted over."""
        return self.total * self.distinguished


@dataclass
class SeenDealerCards:
    """The exact figures of the exploit of K seen dealer cards, per ANTE, beside the honest optimum's (`honest.ev`);
    `play_size` is the play bet (Stud's raise, Hold'em's CALL) per ANTE."""

    counts: SeenCounts
    paytable: object
    play_size: Fraction
    honest: object
    note: str = ""

    @property
    def k(self) -> int:
        """The dealer's cards seen."""
        return self.counts.k

    @property
    def play_probability(self) -> Fraction:
        """How often the exploit makes the play bet, over every deal."""
        return Fraction(int(self.counts.deals[:, PLAY].sum()), self.counts.total)

    @property
    def ev(self) -> Fraction:
        """The player's EV per ANTE (his edge; the house edge is -ev)."""
        deals, net = self.counts.deals, self.paytable.net
        played = sum(int(deals[c, PLAY, o]) * net(c, o) for c in range(N_CATEGORIES) for o in range(N_OUTCOMES))
        return (played - int(deals[:, FOLD].sum())) / self.counts.total

    @property
    def house_edge(self) -> Fraction:
        """The house's edge per ANTE (negative: the player's edge)."""
        return -self.ev

    @property
    def average_wager(self) -> Fraction:
        """ANTE + play bet x P(play), per ANTE."""
        return 1 + self.play_size * self.play_probability

    @property
    def rtp(self) -> Fraction:
        """Returned (stakes included) over wagered."""
        return 1 + self.ev / self.average_wager

    @property
    def gain(self) -> Fraction:
        """What the seen cards are worth per ANTE: the exploit's EV less the honest optimum's."""
        return self.ev - self.honest.ev

    @property
    def disagreement(self) -> Fraction:
        """How often the exploit decides otherwise than the honest optimum."""
        return Fraction(self.counts.disagreements, self.counts.disagreement_deals)

    @property
    def outcomes(self) -> RoundOutcomes:
        """Every deal as rows (main, wagered, played, side = the player's final category), as the honest analysis
        has them."""
        deals, net = self.counts.deals, self.paytable.net
        wagered = 1 + self.play_size
        rows = []
        for c in range(N_CATEGORIES):
            rows.append(((-1, 1, 0, c), int(deals[c, FOLD].sum())))
            rows += [((net(c, o), wagered, 1, c), int(deals[c, PLAY, o])) for o in range(N_OUTCOMES)]
        return RoundOutcomes(COMPONENTS, rows)

    @property
    def statistics(self) -> WagerStatistics:
        """The round's net per ANTE against ANTE + play bet: distribution, variance, hit frequency, ..."""
        return WagerStatistics.from_outcomes(self.outcomes, MAIN, WAGERED)


def seen_leak(game: str, k: int, result, play: str, seen_words: str, notes=()) -> Leak:
    """The leak of K seen dealer cards from the game's exact result (house_edge, ev, rtp, gain, disagreement,
    statistics: the round's net per ANTE against what was wagered); `play` names the decision ("raise",
    "call"), `seen_words` says which cards are seen and when."""
    stats = result.statistics
    honest = result.ev - result.gain
    figures = (
        LeakFigure(EDGE, "player's edge per ANTE (the exploit's EV)", result.ev, headline=True),
        LeakFigure("house_edge", "house edge per ANTE", result.house_edge),
        LeakFigure("rtp", "RTP (returned, stakes included, over wagered)", result.rtp),
        LeakFigure("gain", "gain over honest optimal play, per ANTE", result.gain, headline=True),
        LeakFigure("honest_ev", "honest optimal play's EV per ANTE (K = 0)", honest),
        LeakFigure("disagreement", f"how often the exploit's {play}/fold differs from the honest optimum",
                   result.disagreement),
        LeakFigure("variance", "variance of the round's net per ANTE", stats.variance),
        LeakFigure("hit_frequency", "probability the round wins", stats.hit_frequency),
        LeakFigure("average_wager", "average wager per ANTE", stats.mean_wagered),
    )
    distribution = Table([("Net per ANTE", EXACT), ("Probability", EXACT), "Deals"],
                         [[v.value, v.probability, v.count] for v in stats.distribution])
    spread = Table([("Variance", EXACT), ("SD", ROOT), ("Hit frequency", EXACT), ("Push", EXACT), ("Loss", EXACT)],
                   [[stats.variance, stats.variance, stats.hit_frequency, stats.push_probability,
                     stats.loss_probability]])
    cards = "card" if k == 1 else "cards"
    return Leak(game=game, scenario=f"dealer-cards-{k}", kind="dealer-cards",
                title=f"{k} dealer hole {cards} seen {seen_words}", parameters={"dealer_cards": k}, figures=figures,
                method=(f"Every deal is enumerated.  Given his cards and the {k} seen hole {cards}, the player "
                        f"{play}s exactly when {play}ing beats folding, each EV counted over every completion of "
                        "the cards he does not see (an exact tie folds, as in honest play).  The disagreement is "
                        f"counted over the deals where the honest optimum decides otherwise.  Exact fractions; "
                        "decimals rounded from them."),
                notes=tuple(notes),
                tables=(("Distribution of the net", distribution), ("Spread", spread)))


def collusion_leak(game: str, estimate, share: str, play: str, notes=()) -> Leak:
    """The leak of N colluding seats from the game's `CollusionFigures` (estimates from sampled deals, each
    with its 99.9% interval); `share` says what each seat shows the others."""
    n = estimate.colluders
    figures = (
        LeakFigure(EDGE, "each seat's edge per ANTE (seats' average)", estimate=estimate.seat_average,
                   headline=True),
        LeakFigure("table_ev", f"the table's combined EV per round, in ANTEs (sum over the {n} seats)",
                   estimate=estimate.table),
        LeakFigure("differs", f"how often a seat's {play}/fold differs from the honest optimum",
                   estimate=estimate.differs_average),
        LeakFigure("honest_ev", "honest optimal play's EV per ANTE (exact)", estimate.honest_ev),
    )
    seats = Table(["Seat", "Edge per ANTE", "99.9% interval", "Gain per ANTE", "Gain's 99.9% interval"],
                  [[i + 1, decimal_str(s.mean, 8), " .. ".join(s.interval(places=8)), decimal_str(g.mean, 8),
                    " .. ".join(g.interval(places=8))] for i, (s, g) in enumerate(zip(estimate.seats, estimate.gains))])
    return Leak(game=game, scenario=f"colluders-{n}", kind="colluders",
                title=f"{n} colluding seats pooling {share}",
                parameters={"colluders": n, "deals": estimate.deals, "seed": estimate.seed}, figures=figures,
                method=(f"{estimate.deals:,} deals of {n} seats are sampled (PCG64, seed {estimate.seed}).  In each, "
                        f"every seat {play}s exactly when {play}ing beats folding given every pooled card, that EV "
                        "counted exactly over every completion of the dealer's hand from the cards no seat holds.  "
                        "What is sampled is each seat's gain over honest play, whose EV is known exactly: a seat's "
                        "edge is the honest EV plus his mean gain.  ESTIMATES, each with its 99.9% confidence "
                        "interval (normal approximation): never exact."),
                notes=tuple(notes), tables=(("Each seat", seats),))

