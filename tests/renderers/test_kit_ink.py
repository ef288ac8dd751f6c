"""Text and chips drawn as flat fills over a ground the caller names (renderers/kit_ink.py, issue 28), and
pictures drawn straight on their palette (renderers/kit_palette_draw.py).

Each is checked against the way it replaces: ``kit.draw_text`` and ``kit_panel.draw_chip`` on an RGB
canvas, pixel for pixel, and that canvas quantized on the palette, byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from renderers import kit, kit_ink, kit_palette, kit_palette_draw, kit_panel, kit_scene
from renderers.kit_palette import Palette

GROUNDS = (kit.BACKGROUND, kit.PANEL, kit.TEAM_COLOURS[0], kit.HIGHLIGHT)
INKS = (kit.INK, kit.INK_DARK, kit.MUTED)
SIZE = (420, 260)


def _palette() -> Palette:
    flats = [*GROUNDS, *INKS, kit.TEAM_COLOURS[1], kit.PANEL_LINE]
    return Palette(flats, [c for ink in INKS for c in kit_palette.text_blends(ink, flats, kit.COVERAGE_LEVELS)])


PALETTE = _palette()


def _striped() -> Image.Image:
    """A canvas whose colour changes every few rows and columns: any wrong ground shows."""
    image = Image.new("RGB", SIZE, kit.BACKGROUND)
    draw = kit.Draw(image)
    for k, y in enumerate(range(0, SIZE[1], 7)):
        draw.rectangle((0, y, SIZE[0] // 2, y + 3), fill=GROUNDS[k % len(GROUNDS)])
    return image


def _same(paint: Callable[[Any], object]) -> None:
    """``paint`` on a copy of the striped canvas, with ``kit_ink`` and the kit's way: the same pixels."""
    ours, theirs = _striped(), _striped()
    paint(kit.Draw(ours))
    with kit_ink.blended():
        paint(kit.Draw(theirs))
    assert ImageChops.difference(ours, theirs).getbbox() is None


@pytest.mark.parametrize("style", [{}, {"bold": True}, {"outline": kit.INK_DARK}])
@pytest.mark.parametrize("text", ["Shieldwall Recruit", "pgyjq · Ågé", "10"])
def test_text_on_its_ground_and_past_it_is_the_kits_text(style: dict[str, Any], text: str) -> None:
    """Wholly on a plain rectangle, and half over the stripes (those pixels blended the kit's way)."""
    def paint(draw: Any) -> None:
        draw.rectangle((220, 0, 419, 259), fill=kit.PANEL)
        kit_ink.draw_text(draw, (240, 60), text, 27, kit.INK, ground=(kit.PANEL, (220, 0, 419, 259)), anchor="lm",
                          **style)
        kit_ink.draw_text(draw, (150, 130), text, 27, kit.SUBTLE, ground=(kit.PANEL, (220, 0, 419, 259)),
                          anchor="lm", **style)
        kit_ink.draw_text(draw, (20, 200), text, 27, kit.INK, ground=(kit.PANEL, (300, 0, 419, 10)), **style)

    _same(paint)


@pytest.mark.parametrize("chip", [kit_panel.Chip("Spent", kit.TEAM_COLOURS[0]),
                                  kit_panel.Chip("gypsy pq", kit.HIGHLIGHT, outline=kit.INK_DARK),
                                  kit_panel.Chip("R4", kit.PANEL_LINE, ink=kit.INK),
                                  kit_panel.Chip("a chip wider than the masks pay for, far too wide", kit.PANEL)])
def test_a_chip_over_stripes_is_the_kits_chip_and_says_what_it_inked(chip: kit_panel.Chip) -> None:
    boxes: list[kit.Box] = []

    def paint(draw: Any) -> None:
        boxes.append(kit_ink.draw_chip(draw, 30, 40, chip, 27))

    _same(paint)
    before, after = _striped(), _striped()
    kit_ink.draw_chip(kit.Draw(after), 30, 40, chip, 27)
    changed = ImageChops.difference(before, after).getbbox()
    assert changed is not None
    x0, y0, x1, y1 = boxes[0]
    assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 and changed[3] <= y1


def test_recorded_text_and_chips_replay_to_the_same_pixels() -> None:
    """On a ``kit_scene.Recorder`` the flat fills are kept as blits: replayed, the same picture."""
    def paint(draw: Any) -> None:
        kit_ink.draw_chip(draw, 10, 10, kit_panel.Chip("gypsy", kit.HIGHLIGHT, outline=kit.INK_DARK), 27)
        kit_ink.draw_text(draw, (240, 90), "Vorga", 27, kit.INK, ground=(kit.BACKGROUND, (200, 60, 419, 259)),
                          anchor="lm", bold=True)

    entries: list[kit_scene.Entry] = []
    paint(kit_scene.Recorder(entries))
    replayed, direct = _striped(), _striped()
    kit_scene.replay(replayed, entries)
    paint(kit.Draw(direct))
    assert ImageChops.difference(replayed, direct).getbbox() is None


def _on_palette(paint: Callable[[Any], object]) -> tuple[bytes | None, bytes, bool]:
    """``paint`` drawn on the palette picture (its PNG, or None), the RGB canvas quantized, and ``exact``."""
    rgb = _striped()
    paint(kit.Draw(rgb))
    picture = PALETTE.quantize(_striped())
    draw = kit_palette_draw.Draw(picture, PALETTE)
    paint(draw)
    return kit_palette_draw.png(picture), kit.to_png(rgb, palette=PALETTE), draw.exact


def test_shapes_chips_and_text_drawn_on_the_palette_are_the_quantized_rgb_canvas() -> None:
    def paint(draw: Any) -> None:
        draw.rectangle((200, 20, 400, 120), fill=kit.PANEL, outline=kit.PANEL_LINE, width=3)
        draw.ellipse((20, 150, 90, 220), fill=kit.TEAM_COLOURS[1], outline=kit.INK_DARK, width=2)
        draw.polygon([(300, 150), (360, 170), (330, 240)], fill=kit.HIGHLIGHT, outline=kit.INK_DARK, width=3)
        draw.line((0, 250, 419, 140), fill=kit.INK, width=5)
        draw.rounded_rectangle((220, 30, 300, 60), radius=7, fill=kit.TEAM_COLOURS[0], outline=kit.INK, width=2)
        kit_ink.draw_chip(draw, 210, 70, kit_panel.Chip("gypsy", kit.HIGHLIGHT, outline=kit.INK_DARK), 27)
        kit.draw_text(draw, (30, 30), "over the stripes", 27, kit.INK, bold=True)  # a ground of many colours
        kit.draw_text(draw, (230, 100), "on the panel", 22, kit.MUTED)  # one colour under it
        kit.draw_text(draw, (320, 200), "12", 27, kit.INK, outline=kit.INK_DARK, anchor="mm")
        kit_ink.draw_text(draw, (220, 140), "known ground", 22, kit.INK,
                          ground=(kit.BACKGROUND, (200, 130, 419, 259)))

    png, whole, exact = _on_palette(paint)
    assert exact and png == whole


def _blend(ground: kit.RGB, ink: kit.RGB, level: int) -> kit.RGB:
    pixel = Image.new("RGB", (1, 1), ground)
    kit.Draw(pixel).bitmap((0, 0), Image.new("L", (1, 1), level), fill=ink)
    return pixel.getpixel((0, 0))  # type: ignore[return-value]


def _index(colour: kit.RGB) -> int:
    return PALETTE.quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))  # type: ignore[return-value]


def test_a_blend_over_a_colour_the_palette_lacks_is_not_guessed() -> None:
    """A text edge whose blend the palette dropped (``Palette.dropped``) holds a colour its index does not
    say. A second blend over that pixel, looked up from the index, would come out another colour than the
    RGB canvas quantized gives: the palette picture must say it cannot draw it (``exact`` False, and the
    renderer draws that picture the RGB way), never guess."""
    cases = [(ground, ink, level, ink2, level2) for ground in GROUNDS for ink in INKS for level in (85, 170)
             if _blend(ground, ink, level) not in PALETTE for ink2 in INKS + GROUNDS for level2 in (85, 170)
             if _index(_blend(_blend(ground, ink, level), ink2, level2))
             != _index(_blend(PALETTE.colours[_index(_blend(ground, ink, level))], ink2, level2))]
    assert cases, "no dropped blend changes a later blend: the case this guards against cannot happen here"
    ground, ink, level, ink2, level2 = cases[0]
    edge, over = Image.new("L", (8, 8), 0), Image.new("L", (8, 8), 0)
    edge.paste(level, (2, 2, 6, 6))  # the first text's edge...
    over.paste(level2, (3, 3, 5, 5))  # ...and the second's, over it

    def paint(draw: Any) -> None:
        draw.rectangle((0, 0, 40, 40), fill=ground)
        draw.bitmap((10, 10), edge, fill=ink)
        draw.bitmap((10, 10), over, fill=ink2)

    png, whole, exact = _on_palette(paint)
    assert not exact
    assert png != whole  # what drawing on, had nothing noticed, would have written
