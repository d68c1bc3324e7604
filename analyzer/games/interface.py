"""A game's face: what the pipeline, verify, sweep, design, the command line and the advisor call.

Every registered game's `game` module is a `Face`; what only some games can do is a capability its registry
entry declares (tests/games/test_interface.py checks both).  The protocols name the calls, not the types.
"""
from __future__ import annotations

from importlib import import_module
from typing import Protocol, runtime_checkable


@runtime_checkable
class Face(Protocol):
    """rules -> count -> analyse -> outputs, and `analyzer verify`'s checks.  `check_limits` refuses before
    counting what the published files cannot hold; `count_fields` are the rule fields the paytable-free count
    depends on (rule sets sharing them are counted once); the analysis keeps its count as `.count`; `check`
    returns the Monte Carlo targets by wager."""

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
    """A count the count cache keeps as (arrays, meta); back from them, None when they do not fit the rules."""

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
    """A decision per situation class (the poker strategy files, read with the entry's `advise_groups`);
    `start_files` compresses them while it analyses."""

    def analyse(self, rule_file, rules, count, start_files=False): ...


@runtime_checkable
class LiveShoe(StrategyFiles, Protocol):
    """The shoe in play (`analyzer <game>` with the entry's `query_options`): {"shoe", "cards", "ev" (bet ->
    Fraction), "best_bet"}; the advisor reads the strategy file with the game's `advice`."""

    def live_shoe(self, rules, remove=None, counts=None) -> dict: ...


@runtime_checkable
class ShoeAdvice(Protocol):
    """A LiveShoe game's light `advice` module: `answers` reads a strategy file's header and columns into an
    object with `shoe(remove=None, counts=None)`, the shoe a user means, and `answer(counts)` (as `live_shoe`)."""

    def answers(self, header: dict, columns: dict): ...


@runtime_checkable
class SeenCards(Protocol):
    """Dealer cards seen, one deal at a time (`advise --seen`, `audit`): the play's counts by (category, outcome)
    over every completion of what the player does not see, given his groups, the dealer's cards `seen` and the
    `dead` ones elsewhere; the advisor reaches it through the game's light `seen` module (`SeenDeals`)."""

    def seen_counts(self, rules, groups, seen=(), dead=()): ...


@runtime_checkable
class SeenDeals(SeenCards, Protocol):
    """A SeenCards game's `seen` module: also its rules' loader, actions, the most dealer cards a leak may show,
    and a decision log's card columns, one row read by `log_deal` into an `analyzer.poker.seen.LoggedDeal`."""

    ACTIONS: tuple
    SEEN_LIMIT: int
    LOG_COLUMNS: dict

    def load_rules(self, path) -> tuple: ...
    def log_deal(self, fields: dict): ...


@runtime_checkable
class DerivableBasic(Protocol):
    """`analyzer derive-basic`: (the basic strategy re-derived from the exact EVs, its seeding, its parameters)."""

    def derive_basic(self, rule_file, rules, log=None) -> tuple: ...


@runtime_checkable
class Design(Protocol):
    """`analyzer design`: the `analyzer.design.problem.Problem` of varying rule-file key `key` (made before
    counting; its model is built on the count)."""

    def design_problem(self, rule_file, rules, key, jackpot=None): ...


@runtime_checkable
class ReadmeFigures(Protocol):
    """A block of the README rendered from the game's committed results folder (`analyzer.publish.readme`)."""

    def readme_figures(self, results) -> str: ...


@runtime_checkable
class Protection(Protocol):
    """`analyzer protect <game>` (the entry's `protect_scenarios` and `protect_options` as {dest: value}):
    `protection_scenario` checks the options and names the scenario's folder before any counting; `protect`
    computes the leak as an `analyzer.figures.protection.Leak`, calling count() if it needs the honest counts."""

    def protection_scenario(self, rules, options: dict) -> str: ...
    def protect(self, rule_file, rules, options: dict, count, executor=None, progress=None): ...


CAPABILITIES = (CachedCount, DecisionTable, LiveShoe, SeenCards, DerivableBasic, Design, ReadmeFigures, Protection)


# the faces' attributes no analysis needs (payout design, protection, seen cards, README figures): each
# "module.attribute" of the game's package, imported when first asked for
ON_FIRST_USE = {"design_problem": "design.problem", "protect": "protect.protect",
                "protection_scenario": "protect.protection_scenario", "readme_figures": "readme.readme_figures",
                "seen_counts": "seen.seen_counts"}


def on_first_use(package: str):
    """A face's module `__getattr__` (PEP 562) importing ON_FIRST_USE's attributes of `package` when first
    asked for; AttributeError for a game without that module (hasattr, the capability checks, see False)."""
    def attribute(name: str):
        module, _, member = ON_FIRST_USE.get(name, "").rpartition(".")
        if module:
            try:
                return getattr(import_module(f"{package}.{module}"), member)
            except ModuleNotFoundError as missing:
                if missing.name != f"{package}.{module}":
                    raise
        raise AttributeError(f"module {package}.game has no attribute {name!r}")
    return attribute
