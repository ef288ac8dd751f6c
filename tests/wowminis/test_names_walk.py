"""The walk that finds a position's Italian names skips fields that can hold no named thing (issue 28:
~half the CPU of a move's walk), and finds exactly what the walk of every field found."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from pydantic import BaseModel

from engines.wowminis import ENGINE
from engines.wowminis.content import italian_names, named_in
from engines.wowminis.state import CharState, State
from tests.wowminis import builders
from tests.wowminis.playout import new_game, positions


def _every_field(values: Iterable[Any]) -> Iterable[Any]:
    """The walk before issue 28's pruning: every field of every model."""
    for value in values:
        if isinstance(value, BaseModel):
            if isinstance(getattr(value, "name_it", None), str):
                yield value
            yield from _every_field(getattr(value, field) for field in type(value).model_fields)
        elif isinstance(value, list):
            yield from _every_field(value)
        elif isinstance(value, dict):
            yield from _every_field(value.values())


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 4), (3, 2)])
def test_the_pruned_walk_finds_what_the_whole_walk_found_at_every_position(seed: int, players: int) -> None:
    state, dice = new_game(seed, players=players)
    seen = 0
    for position, seat in positions(state, dice, seed, 400):
        for view in (ENGINE.view(position, None), ENGINE.view(position, seat)):
            assert [id(thing) for thing in named_in([view])] == [id(thing) for thing in _every_field([view])]
        seen += 1
    assert seen > 50


def test_the_walk_skips_counters_ids_and_unnamed_models_but_not_what_holds_content() -> None:
    from engines.wowminis.content import AbilityDef, CharacterDef
    from engines.wowminis.names_walk import _plan

    named, walked = _plan(CharState)
    assert not named and "defn" in walked and "health" not in walked and "pos" not in walked and "id" not in walked
    assert {"chars", "pool", "stack", "effects", "board", "scenario"} <= set(_plan(State)[1])
    assert "active_seat" not in _plan(State)[1]
    assert _plan(CharacterDef)[0] and _plan(AbilityDef)[0]
    assert "target" not in _plan(AbilityDef)[1] and "range" not in _plan(AbilityDef)[1]  # no name below them


def test_a_server_packs_nested_italian_name_is_still_found() -> None:
    """A made-up character whose attack has an Italian name of its own: the name sits two models down
    (the character's definition, its attack), under fields the pruning keeps."""
    state = builders.board()
    builders.custom(state, "zed", 0, None, name_it="Zed il Grigio",
                    main_attack={"id": "zed_hit", "name": "Grey Swipe", "name_it": "Zampata Grigia", "cost": 3,
                                 "power": 3, "damage_type": "melee"})
    names = italian_names([ENGINE.view(state, None)])
    assert names["Zed"] == "Zed il Grigio"
    assert names["Grey Swipe"] == "Zampata Grigia"
