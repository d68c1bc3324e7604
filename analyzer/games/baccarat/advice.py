"""The live-shoe question, for the advisor and `analyzer baccarat --remove/--counts`: each bet's exact EV now.
A strategy file's reference shoe is answered from its stored counts; any other shoe by the kernel, imported
only then, so that loading a strategy file counts nothing."""
from __future__ import annotations

from analyzer.core.errors import InputError
from analyzer.games.baccarat.price import MainOutcomes, bet_lines, rtp_of
from analyzer.games.baccarat.rules import BETS, BaccaratRules, rules_from_strategy_header
from analyzer.games.baccarat.shoe import parse_counts, remove_cards

COLUMNS = ("shoe", "banker_wins", "player_wins", "ties")


def counted(counts, rules: BaccaratRules) -> MainOutcomes:
    """The shoe's sequences by main outcome, counted (`count.count_outcomes`)."""
    from analyzer.games.baccarat.count import count_outcomes      # the kernel, once a shoe is to be counted
    return MainOutcomes.from_counts(count_outcomes(counts, rules))


def shoe_query(counts, rules: BaccaratRules, main: MainOutcomes | None = None) -> dict:
    """Each bet's exact EV per unit for this shoe (`main`: its outcomes, counted if not given) and the best bet
    (the first of BETS among equals)."""
    main = counted(counts, rules) if main is None else main
    evs = {bet: rtp_of(lines) - 1 for bet, lines in bet_lines(main, rules).items()}
    best = max(BETS, key=lambda bet: (evs[bet], -BETS.index(bet)))
    return {"shoe": list(counts), "cards": sum(counts), "ev": evs, "best_bet": best}


def _header_field(header: dict, name: str, kind, check, what: str):
    value = header.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) or not check(value):
        raise InputError(f"header field {name!r} is {'missing' if value is None else repr(value)}, not {what}")
    return value


class ShoeAnswers:
    """A Baccarat strategy file's rules and reference shoes (docs/strategy-format.md, section 6), checked for
    form; `answer` answers any shoe, `shoe` reads the shoe a user means."""

    def __init__(self, header: dict, columns: dict):
        _header_field(header, "decks", int, lambda v: v >= 1, "a number of decks")
        _header_field(header, "rules", dict, lambda v: True, "the rules as a table")
        for name in COLUMNS:
            if name not in columns:
                raise InputError(f"has no {name!r} column")
        if columns["shoe"].ndim != 2 or columns["shoe"].shape[1] != 10 or not len(columns["shoe"]):
            raise InputError("its shoe column is not 10 counts wide, or it has no rows")
        self.rules = rules_from_strategy_header(header)
        self.reference = {tuple(shoe): MainOutcomes(*map(int, outcomes)) for shoe, outcomes in zip(
            columns["shoe"].tolist(), zip(*(columns[name].tolist() for name in COLUMNS[1:])))}
        self.full_shoe = max(self.reference, key=sum)

    def shoe(self, remove: str | None = None, counts: str | None = None) -> tuple:
        """The shoe a user means: ten counts as text, or the cards dealt from the file's full shoe (neither: the
        full shoe), refused (ShoeError) unless it fits inside the full shoe."""
        if counts is not None:
            return parse_counts(counts, self.full_shoe)
        return self.full_shoe if remove is None else remove_cards(self.full_shoe, remove)

    def answer(self, counts) -> dict:
        """`shoe_query` for a shoe of 10 counts by value: a reference shoe from its stored counts."""
        return shoe_query(counts, self.rules, self.reference.get(tuple(counts)))


answers = ShoeAnswers
