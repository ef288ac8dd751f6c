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


def test_a_count_chip_at_whole_pixels_is_the_same_anywhere_in_the_panel_and_stays_in_its_region() -> None:
    """The ring's count chips are placed at whole pixels and pasted from their last drawing over the panel's colour,
    keyed by what they show, not where: that holds only if a chip drawn anywhere the panel puts one gives the same
    pixels, all inside ``_chip_region`` (a tall polygon moved by whole pixels once came out a pixel apart:
    ``kit_sprites``)."""
    from itertools import product

    from PIL import Image

    from renderers import kit
    from renderers.wowminis import ring
    from renderers.wowminis.layout import HEIGHT, PANEL_BOX, WIDTH

    places = list(product(range(PANEL_BOX[0] + 20, PANEL_BOX[2] - 20, 41), range(PANEL_BOX[1] + 20, PANEL_BOX[3] - 20,
                                                                                  43)))
    for seat, shape, on_map, count in product((0, 1), ("hex", "round"), (True, False), (1, 3, 12)):
        canvas = Image.new("RGB", (WIDTH, HEIGHT), kit.PANEL)
        for px, py in places:
            ring.paint_chip(kit.Draw(canvas), px, py, ring.CHIP, seat, shape, on_map, count)
        regions = [ring._chip_region(px, py, count) for px, py in places]
        crops = {canvas.crop(region).tobytes() for region in regions}
        assert len(crops) == 1, (seat, shape, on_map, count)  # the same pixels at every place
        for region in regions:
            canvas.paste(kit.PANEL, region)
        assert canvas.getcolors() == [(WIDTH * HEIGHT, kit.PANEL)], (seat, shape, on_map, count)  # none outside


def test_count_chips_are_pasted_once_seen_and_the_picture_stays_the_same(no_drawn_copies: None) -> None:
    view = ENGINE.view(S.midgame(), None)
    drawn = [render(view, log_lines=S.LOG_EN) for _ in range(3)]  # type: ignore[arg-type]
    assert any(key[0][0] == "ring chip" for key in kit_palette_draw._kept_drawn)
    assert drawn[0] == drawn[1] == drawn[2] == _fresh(S.midgame())
