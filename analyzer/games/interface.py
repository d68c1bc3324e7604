"""A game's face: what the pipeline, verify, sweep, design, the command line and the advisor call.

Every registered game's `game` module is a `Face`.  What only some games can do is an optional
capability, declared in the game's registry entry (`registry.Game.capabilities`) rather than found
by looking for attributes; tests/games/test_interface.py checks that every registered game is a
`Face`, has each capability it declares and none it does not, each function callable as declared.  The protocols name the call, not
the types, which are each game's own.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Face(Protocol):
    """rules -> count -> analyse -> outputs, and the checks `analyzer verify` runs: `load_rules` gives
    (RuleFile, typed rules), refusing a bad file (RuleError naming the key); `check_limits` refuses, before
    counting, a value the published files cannot hold; `count_fields` are exactly the rule fields the
    paytable-free `count` depends on (rule sets sharing them are counted once); `analyse` prices and decides
    one rule set on the count (the analysis keeps it as `.count`); `outputs` is the results folder's content
    (`analyzer.figures.outputs.Outputs`), `key_figures` the headline figures a sweep compares; `check` adds
    the game's checks to a verification report and returns its Monte Carlo targets by wager, and
    `check_statistics` the round statistics re-derived from a count."""

    def load_rules(self, path) -> tuple: ...
    def check_limits(self, rule_file, rules) -> None: ...
    def count_fields(self, rules) -> dict: ...
    def count(self, rules, executor=None, progress=None): ...
    def analyse(self, rule_file, rules, count): ...
    def outputs(self, analysis): ...
    def key_figures(self, analysis) -> list: ...
    def check(self, report, rules, summary, strategy, samples, rounds, seed, progress=None) -> dict: ...
    def check_statistics(self, report, rules, summary, folder, counts, strategies=None) -> None: ...


@runtime_checkable
class CachedCount(Protocol):
    """A count the count cache can keep: (arrays, meta) of a count, and the count back from them (None when
    they do not fit these rules)."""

    def table_arrays(self, table) -> tuple: ...
    def table_from_arrays(self, rules, arrays, meta): ...


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

    def analyse(self, rule_file, rules, count, start_files=False): ...


@runtime_checkable
class LiveShoe(StrategyFiles, Protocol):
    """A question about the shoe in play, `analyzer <game>` with the entry's `query_options`: {"shoe", "cards",
    "ev" (bet -> Fraction), "best_bet"}; the advisor reads the strategy file with the game's `advice`."""

    def live_shoe(self, rules, remove=None, counts=None) -> dict: ...


@runtime_checkable
class ShoeAdvice(Protocol):
    """A LiveShoe game's `advice` module, light to import (it counts nothing until asked): `answers` reads a
    strategy file's header and columns (KeyError, ValueError or InputError for a bad one) into an object with
    `shoe(remove=None, counts=None)`, the shoe a user means, and `answer(counts)`, as `live_shoe` answers."""

    def answers(self, header: dict, columns: dict): ...


@runtime_checkable
class SeenCards(Protocol):
    """Dealer cards seen, one deal at a time (`analyzer advise --seen`, `analyzer audit`): the play's counts by
    (final category, outcome) over every completion of what the player does not see, given his card groups, the
    dealer's hole cards `seen` and the cards `dead` known to be elsewhere (other seats'); the advisor reaches
    it through the game's light `seen` module (`SeenDeals`)."""

    def seen_counts(self, rules, groups, seen=(), dead=()): ...


@runtime_checkable
class SeenDeals(SeenCards, Protocol):
    """A SeenCards game's `seen` module: also its rules' loader, its actions (fold, play), the most dealer cards a
    leak may show, and a decision log's card columns ({column: what}), one row read by `log_deal` into an
    `analyzer.poker.seen.LoggedDeal` (ColumnError naming the column)."""

    ACTIONS: tuple
    SEEN_LIMIT: int
    LOG_COLUMNS: dict

    def load_rules(self, path) -> tuple: ...
    def log_deal(self, fields: dict): ...


@runtime_checkable
class DerivableBasic(Protocol):
    """A basic strategy `analyzer derive-basic` re-derives from the exact EVs: (the strategy, how its search
    was seeded, the search's parameters)."""

    def derive_basic(self, rule_file, rules, log=None) -> tuple: ...


@runtime_checkable
class Design(Protocol):
    """Payout design (`analyzer design`): the `analyzer.design.problem.Problem` of varying rule-file key
    `key`, the EV piecewise linear in it (made before counting; its model is built on the count)."""

    def design_problem(self, rule_file, rules, key, jackpot=None): ...


@runtime_checkable
class ReadmeFigures(Protocol):
    """A block of the README rendered from the game's committed results folder (`analyzer.publish.readme`)."""

    def readme_figures(self, results) -> str: ...


@runtime_checkable
class Protection(Protocol):
    """Game protection (`analyzer protect <game>`, with the registry entry's `protect_scenarios` and
    `protect_options` as {dest: value}): `protection_scenario` checks the options against the rules and names the
    scenario's folder (InputError naming the option) before any counting; `protect` computes that leak, exactly
    or as estimates, as an `analyzer.figures.protection.Leak`, calling count() for the honest counts if it needs
    them.  The published anchors are data beside it, the game folder's `protection_anchors.toml`."""

    def protection_scenario(self, rules, options: dict) -> str: ...
    def protect(self, rule_file, rules, options: dict, count, executor=None, progress=None): ...


CAPABILITIES = (CachedCount, DecisionTable, LiveShoe, SeenCards, DerivableBasic, Design, ReadmeFigures, Protection)

