"""Issue 29.6a: an area ability's preview (407.2) offers every orientation it may legally take, not only the
first: a select of up to six, each drawing the preview again pointing that way."""

from __future__ import annotations

import asyncio

from engines.wowminis import ENGINE
from engines.wowminis.rules_targeting import aoe_choices
from gm.games.wowminis import choices, presenter
from gm.games.wowminis.jobs import ability_job
from renderers.wowminis import overlay
from tests.wowminis.builders import board, give, put, turn


def _mage() -> tuple:
    state = board(("teodric,brannoc,lyssara", "thrak,grushka,vorzul"))
    put(state, "teodric-1", "D4")
    put(state, "thrak-2", "D2", ahead=3)
    card, = give(state, "teodric-1", "cinder_rain", face_up=True)
    turn(state, "teodric-1")
    return state, state.chars["teodric-1"], card


def test_407_2_the_area_select_offers_every_legal_orientation_and_nothing_else() -> None:
    state, c, card = _mage()
    placements = aoe_choices(state, c, card.defn)
    legal = {o for _, o, _ in placements}
    assert len(legal) == 6  # on the open map every way is legal somewhere
    offered = choices.area_orientations(state, c, card.defn, "en")
    values = [choices.parse_placement(f.value) for f in offered]
    assert sorted(o for _, o in values) == sorted(legal)
    assert all(any((s, o) == (p[0], p[1]) for p in placements) for s, o in values)  # each a legal placement
    first = placements[0][0]
    here = {o for s, o, _ in placements if s == first}
    assert {o for s, o in values if s == first} == here  # from the shown space wherever it may point that way


def test_407_2_an_orientation_legal_nowhere_is_not_offered() -> None:
    state, c, card = _mage()
    placements = aoe_choices(state, c, card.defn)
    blocked = {o for _, o, _ in placements} - {0}
    only = [p for p in placements if p[1] in blocked]
    import gm.games.wowminis.choices as module

    original = module.aoe_choices
    module.aoe_choices = lambda *_: only  # type: ignore[assignment]
    try:
        offered = choices.area_orientations(state, c, card.defn, "it")
    finally:
        module.aoe_choices = original  # type: ignore[assignment]
    assert sorted(choices.parse_placement(f.value)[1] for f in offered) == sorted(blocked)  # type: ignore[index]
    assert all("verso" in f.label for f in offered)


def test_407_2_the_preview_draws_the_chosen_orientation_and_replies_with_the_select(monkeypatch) -> None:
    state, c, card = _mage()
    placements = aoe_choices(state, c, card.defn)
    other = next(p for p in placements if p[1] != placements[0][1])
    _, _, area, _, _ = overlay.ability(state, None, card.id, "en", (other[0], other[1]))
    assert area == other[2]
    _, _, default, _, _ = overlay.ability(state, None, card.id, "en", ("Z9", 7))  # not legal: the first one
    assert default == placements[0][2]

    async def drawn(job, *args):  # the render worker, in line
        return job(*args)

    monkeypatch.setattr(presenter, "_drawn", drawn)
    view = ENGINE.view(state, 0)
    reply = asyncio.run(presenter.ability_preview_reply(view, 0, card.id, "en", "g.1", ["p1", "p2"],
                                                        placement=f"{other[0]}/{other[1]}"))
    select, = reply.selects
    assert select.custom_id == f"tv1:wowm:g.1:aoeview:{card.id}" and len(select.options) == 6
    assert reply.image is not None and reply.image.data == ability_job(view.model_dump_json(), card.id, c.id, "en",
                                                                       0, ["p1", "p2"], (other[0], other[1]))
    plain = asyncio.run(presenter.ability_preview_reply(view, 0, "main", "en", "g.1", ["p1", "p2"]))
    assert not plain.selects  # a single-target attack has no orientation
