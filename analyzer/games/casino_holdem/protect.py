"""Casino Hold'em's game-protection scenarios (`analyzer protect casino-holdem`): seen dealer hole cards at the
flop, exact (when `protection.py`, its count, is built), and colluding seats, estimated; each a `Leak`."""
from __future__ import annotations

from importlib import import_module

from analyzer.core.errors import InputError
from analyzer.figures.protection import Leak
from analyzer.games.casino_holdem import collusion
from analyzer.games.casino_holdem.price import price
from analyzer.poker.protection import collusion_leak, seen_leak

GAME = "casino-holdem"
DEALER_HOLE = 2
MIN_COLLUDERS = 2
MAIN_GAME_ONLY = ("The main game only (ANTE and CALL): the AA Bonus is settled on the player's own cards and is "
                  "unchanged.")


def _seen_module():
    """analyzer.games.casino_holdem.protection, or a one-line refusal where this build has none."""
    try:
        return import_module("analyzer.games.casino_holdem.protection")
    except ModuleNotFoundError as error:
        if error.name != "analyzer.games.casino_holdem.protection":
            raise
        raise InputError("--dealer-cards: Casino Hold'em's seen-dealer-cards count "
                         "(analyzer/games/casino_holdem/protection.py) is not in this build yet") from None


def protection_scenario(rules, options: dict) -> str:
    """The folder name of the scenario `options` ask for ({"dealer_cards": K} or {"colluders": N, "deals", "seed"}),
    checked before any counting: InputError naming the option."""
    k, n = options.get("dealer_cards"), options.get("colluders")
    if k is not None:
        if not 1 <= k <= DEALER_HOLE:
            raise InputError(f"--dealer-cards {k}: the Casino Hold'em dealer has {DEALER_HOLE} hole cards "
                             f"(K = 1..{DEALER_HOLE})")
        _seen_module()
        return f"dealer-cards-{k}"
    seats = min(collusion.MAX_COLLUDERS,
                (len(rules.cards) - collusion.FLOP - collusion.DEALT_AFTER) // collusion.HOLE)
    if not MIN_COLLUDERS <= n <= seats:
        raise InputError(f"--colluders {n}: {MIN_COLLUDERS} to {seats} Casino Hold'em seats can pool their hole "
                         "cards at one table of this deck")
    return f"colluders-{n}"


def protect(rule_file, rules, options: dict, count, executor=None, progress=None) -> Leak:
    """The leak `options` ask for under `rules`; count() gives the honest counts of their deck and qualifier."""
    protection_scenario(rules, options)
    if options.get("dealer_cards") is not None:
        k = options["dealer_cards"]
        result = _seen_module().seen_dealer_cards(rules, count(), k, executor, progress)
        return seen_leak(GAME, k, result, "call", "at the flop decision", notes=(MAIN_GAME_ONLY,))
    estimate = collusion.estimate(price(count(), rules), options["colluders"], options["deals"], options["seed"],
                                  progress=progress)
    return collusion_leak(GAME, estimate, "their hole cards before calling at the flop", "call",
                          notes=(MAIN_GAME_ONLY,))
