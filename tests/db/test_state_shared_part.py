"""A state field parsed once per distinct text and shared (``engines.core.state_versions.SharedPart``):
the Warlord cards' definitions, which a game never changes after set-up (issue 28).

The fast load must give exactly what the whole parse gives, or step aside: an old field order, a key of
the same name deeper in the state, an invalid state (whose error must stay the whole parse's).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engines.core.state_versions import SharedPart, StateSchema, StateUnreadable, parse_json
from engines.warlord import upgrades as warlord_upgrades
from tests.warlord.builders import E, fresh
from tests.warlord.playout import playout


class Defn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    power: int = 0


class Toy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = 1
    notes: dict[str, Any] = Field(default_factory=dict)
    defs: dict[str, Defn] = Field(default_factory=dict)
    units: dict[str, int] = Field(default_factory=dict)


def _schema(kept: int = 32) -> StateSchema[Toy]:
    return StateSchema(model=Toy, version=1, shared=SharedPart("defs", "units", TypeAdapter(dict[str, Defn]), kept))


def _toy(**defs: int) -> Toy:
    return Toy(defs={k: Defn(name=k.upper(), power=v) for k, v in defs.items()}, units={"u1": 3})


def test_shared_part_loads_what_the_whole_parse_loads_and_shares_the_definitions() -> None:
    schema = _schema()
    text = _toy(a=1, b=2).model_dump_json()
    first, second = schema.load(text), schema.load(text)
    assert first == second == Toy.model_validate_json(text)
    assert first.defs["a"] is second.defs["a"]  # parsed once, shared
    assert first.defs is not second.defs  # each state's dict is its own: adding to one leaves the other
    first.defs["c"] = Defn(name="C")
    assert "c" not in schema.load(text).defs
    assert first.units is not second.units  # everything else is each state's own parse


def test_shared_part_steps_aside_for_another_field_order() -> None:
    schema = _schema()
    data = json.loads(_toy(a=1).model_dump_json())
    reordered = json.dumps({"schema_version": 1, "units": data["units"], "defs": data["defs"], "notes": {}},
                           separators=(",", ":"))
    assert schema.shared is not None and schema.shared.load(Toy, reordered) is None
    assert schema.load(reordered) == Toy.model_validate_json(reordered)


def test_shared_part_is_not_fooled_by_the_same_key_deeper_in_the_state() -> None:
    """A user's note keyed like the field (and followed by the next key) comes first in the text: the rest
    parses, but its field is not empty, so the whole text is parsed instead."""
    schema = _schema()
    toy = _toy(a=1)
    toy.notes = {"defs": {"x": {"name": "X"}}, "units": 1}
    text = toy.model_dump_json()
    assert text.find('"defs":') < text.find('"defs":{"a"')  # the deeper key is found first
    assert schema.shared is not None and schema.shared.load(Toy, text) is None
    assert schema.load(text) == toy


def test_an_invalid_state_reports_the_whole_parse_error() -> None:
    schema = _schema()
    bad_defs = _toy(a=1).model_dump_json().replace('"power":1', '"power":"many"')
    bad_rest = _toy(a=1).model_dump_json().replace('"u1":3', '"u1":"three"')
    for text in (bad_defs, bad_rest):
        with pytest.raises(StateUnreadable) as caught:
            schema.load(text)
        assert caught.value.reason == "invalid"


def test_shared_part_keeps_a_bounded_number_of_texts() -> None:
    schema = _schema(kept=3)
    for power in range(10):
        schema.load(_toy(a=power).model_dump_json())
    assert schema.shared is not None and len(schema.shared.kept) == 3


def test_warlord_states_load_with_their_definitions_shared() -> None:
    text = fresh(2).model_dump_json()
    one, two = E.load_state(text), E.load_state(text)
    assert one == two == warlord_upgrades.State.model_validate_json(text)
    uid = next(iter(one.cards_def))
    assert one.cards_def[uid] is two.cards_def[uid]


@pytest.mark.parametrize("seed", [3, 11])
def test_warlord_playouts_never_change_a_definition_after_set_up(seed: int) -> None:
    """Why the definitions may be shared between states and games: set-up writes them, nothing after."""
    start = fresh(2).model_dump(mode="json")["cards_def"]
    end = playout(seed, 2, check_every=50)
    assert end.model_dump(mode="json")["cards_def"] == {k: v for k, v in start.items() if k in end.cards_def}
    assert set(end.cards_def) == set(start)


def test_a_render_worker_reads_a_warlord_view_with_its_definitions_shared() -> None:
    """``parse_json`` is how ``gm.workers.render_pool.render_view`` reads a picture's view."""
    view = E.view(fresh(2), 0)
    text = view.model_dump_json()
    one, two = parse_json(type(view), text), parse_json(type(view), text)
    assert one == two == type(view).model_validate_json(text)
    shown = next(iter(one.cards_def))
    assert one.cards_def[shown] is two.cards_def[shown]
    assert parse_json(Defn, '{"name":"x"}') == Defn(name="x")  # a model without a shared part: parsed whole
