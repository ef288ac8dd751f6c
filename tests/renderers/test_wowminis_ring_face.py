"""Issue 28: the clock ring's face (track, pointer, slots and numbers) is pasted from its last drawing at the same
place over the panel's colour (``kit_palette_draw.Draw.on_one_colour``); its chips are drawn every time."""

from __future__ import annotations

from engines.wowminis import ENGINE
from renderers import kit_palette_draw
from renderers.wowminis import render
from tests.renderers import wowminis_states as S


def _fresh(state: object) -> bytes:
    kit_palette_draw._kept_drawn.clear()
    kit_palette_draw._sighted_drawn.clear()
    return render(ENGINE.view(state, None), log_lines=S.LOG_EN)  # type: ignore[arg-type]


def _faces() -> list[tuple[object, ...]]:
    return [key for key in kit_palette_draw._kept_drawn if key[0][0] == "ring"]


def test_the_face_is_kept_at_its_second_drawing_and_the_picture_stays_the_same(no_drawn_copies: None) -> None:
    view = ENGINE.view(S.midgame(), None)
    drawn = [render(view, log_lines=S.LOG_EN) for _ in range(3)]  # type: ignore[arg-type]
    assert len(_faces()) == 1  # kept at the second drawing, pasted at the third
    assert drawn[0] == drawn[1] == drawn[2] == _fresh(S.midgame())


def test_another_master_tick_is_another_face(no_drawn_copies: None) -> None:
    first = S.midgame()
    later = first.model_copy(update={"master": first.master % 10 + 1})
    for _ in range(2):
        render(ENGINE.view(first, None), log_lines=S.LOG_EN)  # type: ignore[arg-type]
    pictures = [render(ENGINE.view(later, None), log_lines=S.LOG_EN) for _ in range(3)]  # type: ignore[arg-type]
    assert len(_faces()) == 2
    assert pictures[0] == pictures[2] == _fresh(later)
    assert pictures[2] != _fresh(first)
