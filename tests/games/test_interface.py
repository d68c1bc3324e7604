"""Every registered game is a Face, with exactly the optional capabilities its registry entry declares."""
import types

import pytest

import support
from analyzer.games import interface, registry


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda game: game.name)
def test_every_game_has_the_face_and_exactly_its_declared_capabilities(game):
    assert support.satisfies(game.module, interface.Face)
    for capability in interface.CAPABILITIES:
        assert support.satisfies(game.module, capability) == game.has(capability), capability.__name__
    assert set(game.capabilities) <= set(interface.CAPABILITIES)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda game: game.name)
def test_what_a_capability_needs_of_the_registry_entry(game):
    """A decision table is advised by card groups, a live shoe by its query options and its advice module, seen
    cards by the `seen` module."""
    assert bool(game.advise_groups) == game.has(interface.DecisionTable)
    assert bool(game.query_options) == game.has(interface.LiveShoe)
    assert not (game.has(interface.DecisionTable) and game.has(interface.LiveShoe))
    if game.has(interface.LiveShoe):
        assert support.satisfies(game.advice, interface.ShoeAdvice)
    assert bool(game.seen_help) == game.has(interface.SeenCards)
    if game.has(interface.SeenCards):
        assert support.satisfies(game.seen, interface.SeenDeals)
    if game.has(interface.CachedCount):
        assert game.kernels, "the count cache keys a count by the digests of the kernels it ran"


def face(**members) -> types.ModuleType:
    module = types.ModuleType("toy")
    vars(module).update(members)
    return module


def test_satisfies_can_fail():
    """A missing member, a function that cannot be called as the protocol calls it, a missing data member."""
    def table_arrays(table):
        return {}, {}

    def table_from_arrays(rules, arrays, meta):
        return None
    assert support.satisfies(face(table_arrays=table_arrays, table_from_arrays=table_from_arrays),
                               interface.CachedCount)
    assert not support.satisfies(face(table_arrays=table_arrays), interface.CachedCount)
    assert not support.satisfies(face(table_arrays=table_arrays, table_from_arrays=lambda rules, arrays: None),
                                   interface.CachedCount)
    assert not support.satisfies(face(live_shoe=lambda rules, remove=None, counts=None: {}, spec_deals={}),
                                   interface.LiveShoe)
    baccarat = registry.game("baccarat").module          # its analyse takes no start_files: no decision table
    assert support.satisfies(baccarat, interface.Face) and not support.satisfies(baccarat, interface.DecisionTable)
