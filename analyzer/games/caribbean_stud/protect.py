"""Caribbean Stud's game-protection scenarios (`analyzer protect caribbean-stud`): seen dealer hole cards, exact,
and colluding seats, estimated; each described as a `Leak` for publishing."""
from __future__ import annotations

from analyzer.core.errors import InputError
from analyzer.figures.protection import Leak
from analyzer.games.caribbean_stud import collusion, protection
from analyzer.games.caribbean_stud.price import price
from analyzer.poker.protection import collusion_leak, seen_leak

GAME = "caribbean-stud"
MIN_COLLUDERS = 2


def protection_scenario(rules, options: dict) -> str:
    """The folder name of the scenario `options` ask for ({"dealer_cards": K} or {"colluders": N, "deals", "seed"}),
    checked before any counting: InputError naming the option."""
    k, n = options.get("dealer_cards"), options.get("colluders")
    if k is not None:
        if not 1 <= k <= protection.HOLE_CARDS:
            raise InputError(f"--dealer-cards {k}: the Caribbean Stud dealer has {protection.HOLE_CARDS} hole cards "
                             f"besides the up card (K = 1..{protection.HOLE_CARDS})")
        return f"dealer-cards-{k}"
    seats = min(collusion.MAX_COLLUDERS, (len(rules.cards) - collusion.DEALER_HOLE - 1) // collusion.HAND)
    if not MIN_COLLUDERS <= n <= seats:
        raise InputError(f"--colluders {n}: {MIN_COLLUDERS} to {seats} Caribbean Stud seats can pool their hands at "
                         "one table of this deck")
    return f"colluders-{n}"


def protect(rule_file, rules, options: dict, count, executor=None, progress=None) -> Leak:
    """The leak `options` ask for under `rules`; count() gives the honest counts of their deck and qualifier."""
    protection_scenario(rules, options)
    if options.get("dealer_cards") is not None:
        k = options["dealer_cards"]
        result = protection.seen_dealer_cards(rules, count(), k, executor, progress)
        return seen_leak(GAME, k, result, "raise", "besides the up card, before raising")
    estimate = collusion.estimate(price(count(), rules), options["colluders"], options["deals"], options["seed"],
                                  progress=progress)
    return collusion_leak(GAME, estimate, "their five-card hands before raising", "raise")
