"""A game's face: what the pipeline, verify, sweep, design, the command line and the advisor call.

Every registered game's `game` module is a `Face`.  What only some games can do is an optional
capability, declared in the game's registry entry (`registry.Game.capabilities`) rather than found
by looking for attributes; tests/games/test_interface.py checks that every registered game is a
`Face`, has each capability it declares and none it does not.  The protocols name the call, not
the types, which are each game's own.
"""
from __future__ import annotations

import inspect
from typing import Protocol, runtime_checkable


@runtime_checkable
class Face(Protocol):
    """rules -> count -> analyse -> outputs, and the checks `analyzer verify` runs."""

    def load_rules(self, path) -> tuple:
        """(RuleFile, typed rules) of a rule file, checked; RuleError naming the key."""

    def check_limits(self, rule_file, rules) -> None:
        """Refuse, before counting, a value the published files cannot hold."""

    def count_fields(self, rules) -> dict:
        """Exactly the rule fields the count depends on (rule sets sharing them are counted once)."""

    def count(self, rules, executor=None, progress=None):
        """The paytable-free counts."""

    def analyse(self, rule_file, rules, count):
        """One rule set priced and decided on the count; the analysis keeps it as `.count`."""

    def outputs(self, analysis):
        """The results folder's content (`analyzer.figures.outputs.Outputs`)."""

    def key_figures(self, analysis) -> list:
        """The headline figures a sweep compares (`analyzer.figures.outputs.KeyFigure`)."""

    def check(self, report, rules, summary, strategy, samples, rounds, seed, progress=None) -> dict:
        """Add the game's checks to `report`; the Monte Carlo targets by wager."""

    def check_statistics(self, report, rules, summary, folder, counts, strategies=None) -> None:
        """Add the round statistics re-derived from `counts` to `report`."""


@runtime_checkable
class CachedCount(Protocol):
    """A count the count cache can keep: integer arrays and a little JSON, and back."""

    def table_arrays(self, table) -> tuple:
        """(arrays, meta) of a count."""

    def table_from_arrays(self, rules, arrays, meta):
        """The count back, or None when it does not fit these rules."""


@runtime_checkable
class StrategyFiles(Protocol):
    """A strategy file the advisor answers from, and the deals and refusals of its test vectors
    (docs/strategy-test-vectors.json): {rule set: [deal]} and [(rule set, deal, refusal name)]."""

    spec_deals: dict
    spec_refusals: list


@runtime_checkable
class DecisionTable(StrategyFiles, Protocol):
    """A decision for every situation class: the poker strategy files (optimal and basic), read with the
    registry entry's card groups (`advise_groups`); `start_files` compresses them while it analyses."""

    def analyse(self, rule_file, rules, count, start_files=False):
        """As `Face.analyse`."""


@runtime_checkable
class LiveShoe(StrategyFiles, Protocol):
    """A question about the shoe in play: `analyzer <game>` with the entry's `query_options`, and the
    advisor, which reads the strategy file with the game's `advice` module (`ShoeAdvice`)."""

    def live_shoe(self, rules, remove=None, counts=None) -> dict:
        """{"shoe", "cards", "ev" (bet -> Fraction), "best_bet"}."""


@runtime_checkable
class ShoeAdvice(Protocol):
    """The `advice` module of a LiveShoe game: light to import (it counts nothing until asked)."""

    def answers(self, header: dict, columns: dict):
        """An object with `shoe(remove=None, counts=None)` (the shoe a user means) and `answer(counts)`
        (as `LiveShoe.live_shoe` returns); KeyError, ValueError or InputError for a bad header."""


@runtime_checkable
class DerivableBasic(Protocol):
    """A basic strategy that `analyzer derive-basic` re-derives from the exact EVs."""

    def derive_basic(self, rule_file, rules, log=None) -> tuple:
        """(the strategy, how it was searched: a line for its file's comment)."""


@runtime_checkable
class Design(Protocol):
    """Payout design (`analyzer design`): one payout varied, the EV piecewise linear in it."""

    def design_problem(self, rule_file, rules, table, key, jackpot=None):
        """The `analyzer.design.piecewise.Problem` of varying the rule-file key `key`."""


@runtime_checkable
class ReadmeFigures(Protocol):
    """A block of the README rendered from the committed results (`analyzer.publish.readme`)."""

    def readme_figures(self, results) -> str:
        """The block's Markdown, from the results root `results`."""


CAPABILITIES = (CachedCount, DecisionTable, LiveShoe, DerivableBasic, Design, ReadmeFigures)


def members(protocol) -> dict:
    """{name: the protocol's function, or None for a data member} of a protocol and the protocols it extends."""
    found = {}
    for klass in reversed(protocol.__mro__):
        if klass is protocol or Protocol in klass.__bases__:
            found.update({name: None for name in klass.__dict__.get("__annotations__", {})})
            found.update({name: value for name, value in klass.__dict__.items()
                          if inspect.isfunction(value) and not name.startswith("_")})
    return found


def satisfies(face, protocol) -> bool:
    """Whether `face` (a module) has every member of `protocol`, each function callable as the protocol
    calls it: its parameters bound to the protocol's (a runtime `isinstance` checks names only)."""
    if not isinstance(face, protocol):
        return False
    for name, wanted in members(protocol).items():
        if wanted is None:
            continue
        params = list(inspect.signature(wanted).parameters.values())[1:]            # without self
        try:
            inspect.signature(getattr(face, name)).bind(
                *(p.name for p in params if p.default is inspect.Parameter.empty),
                **{p.name: p.default for p in params if p.default is not inspect.Parameter.empty})
        except (TypeError, ValueError):
            return False
    return True
