"""Recorded calls drawn on palette indexes (renderers/kit_replay.py), parts drawn where they go
(``kit.Shifted``) and static layers made from parts (``kit.Layer``): issue 28.

Each is checked against the way it replaces, pixel for pixel or byte for byte: the calls replayed on an
RGB canvas and quantized whole (``kit.to_png``), a part drawn on an image of its own and pasted."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops

from renderers import kit, kit_palette, kit_replay, kit_scene
from renderers.kit_palette import Palette

GROUNDS = (kit.BACKGROUND, kit.PANEL, kit.TEAM_COLOURS[0], kit.HIGHLIGHT)
INKS = (kit.INK, kit.INK_DARK, kit.MUTED)


def _palette() -> Palette:
    flats = [*GROUNDS, *INKS, kit.TEAM_COLOURS[1], kit.PANEL_LINE, kit.HP_LEFT]
    blends = [c for ink in INKS for c in kit_palette.text_blends(ink, flats, kit.COVERAGE_LEVELS)]
    return Palette(flats, blends)


PALETTE = _palette()


def _paint(draw: Any) -> None:
    """A bit of everything the renderers draw: grounds, texts on one ground, across two grounds and
    outlined across them, clipped at the edges, shapes of every kind and wide outlines."""
    draw.rectangle((0, 0, 199, 59), fill=kit.PANEL)
    draw.rectangle((200, 0, 399, 59), fill=kit.TEAM_COLOURS[0])
    draw.rounded_rectangle((20, 70, 140, 100), radius=8, fill=kit.HIGHLIGHT, outline=kit.INK_DARK, width=2)
    draw.rounded_rectangle((150, 70, 390, 140), radius=12, fill=kit.PANEL, outline=kit.PANEL_LINE, width=3)
    kit.draw_text(draw, (30, 85.5), "Chip 12", 22, kit.INK_DARK, anchor="lm", bold=True)  # on one ground
    kit.draw_text(draw, (170, 30), "across ÷ grounds", 22, kit.INK, anchor="lm")  # two grounds: a table
    kit.draw_text(draw, (150, 45), "outlined", 22, kit.INK, anchor="lm", outline=kit.INK_DARK)  # through RGB
    kit.draw_text(draw, (-9, 120), "clipped left", 22, kit.MUTED)
    kit.draw_text(draw, (350, 280), "clipped below", 22, kit.INK)
    draw.ellipse((40, 160, 110, 230), fill=kit.TEAM_COLOURS[1], outline=kit.INK, width=4)
    draw.polygon([(150.5, 160), (200, 170.25), (190, 230), (160, 225.5)], fill=kit.HP_LEFT, outline=kit.INK_DARK,
                 width=3)  # a wide outline: Pillow's mask
    draw.polygon([(220, 160), (260, 200), (220, 240)], fill=kit.INK, outline=kit.INK, width=2)
    draw.line((250, 160, 390, 230), fill=kit.HIGHLIGHT, width=5)
    draw.line([(250, 240), (300, 200), (350, 250)], fill=kit.INK, width=7, joint="curve")
    draw.rectangle((300, 150, 380, 190), outline=kit.INK, width=2)
    kit.draw_text(draw, (310, 170), "box", 22, kit.INK, anchor="lm")


def _entries(paint: Callable[[Any], None] = _paint) -> list[kit_scene.Entry]:
    entries: list[kit_scene.Entry] = []
    paint(kit_scene.Recorder(entries))
    return entries


def _rgb(static: Any, entries: list[kit_scene.Entry]) -> bytes:
    image = static.copy()
    kit_scene.replay(image, entries)
    return kit.to_png(image, palette=PALETTE)


def test_a_picture_drawn_on_indexes_is_the_rgb_picture_quantized() -> None:
    static = Image.new("RGB", (400, 300), kit.BACKGROUND)
    entries = _entries()
    assert {entry[0][0] for entry in entries} >= {"blits", "rectangle", "ellipse", "polygon", "line"}
    assert kit_replay.png(static, PALETTE, entries) == _rgb(static, entries)
    assert kit_replay.png(static, PALETTE, entries) == _rgb(static, entries)  # with the tiles kept


def test_a_layer_of_parts_is_drawn_on_as_its_copy() -> None:
    part = Image.new("RGB", (120, 80), kit.PANEL)
    kit.Draw(part).ellipse((10, 10, 60, 60), fill=kit.HIGHLIGHT)
    layer = kit.Layer((400, 300), kit.BACKGROUND, ((part, (0, 0, 100, 70), (250, 200)), (part, None, (0, 220))),
                      (((0, 150, 400, 160), kit.INK_DARK),))
    copy = layer.copy()
    assert copy.getpixel((260, 210)) == kit.PANEL and copy.getpixel((0, 155)) == kit.INK_DARK
    assert copy.getpixel((5, 225)) == kit.PANEL and copy.getpixel((399, 299)) == kit.BACKGROUND
    assert kit_replay.layer(layer, PALETTE).tobytes() == PALETTE.quantize(copy).tobytes()
    entries = _entries()
    assert kit_replay.png(layer, PALETTE, entries) == _rgb(layer, entries)


def test_a_tables_pictures_on_indexes_are_whole_draws_in_any_order() -> None:
    static = Image.new("RGB", (400, 300), kit.BACKGROUND)

    def moved(dx: int) -> list[kit_scene.Entry]:
        def paint(draw: Any) -> None:
            _paint(draw)
            draw.rectangle((10 + dx, 250, 60 + dx, 290), fill=kit.TEAM_COLOURS[1])
            kit.draw_text(draw, (12 + dx, 270), f"{dx}", 22, kit.INK, anchor="lm")
        return _entries(paint)

    pictures = [moved(dx) for dx in (0, 40, 40, 80, 0, 200)]
    kit_scene.forget()
    for order in (pictures, pictures[::-1], pictures[::2]):
        for entries in order:
            assert kit_replay.encode("replay test", static, PALETTE, entries) == _rgb(static, entries)
    kit_scene.forget()


def test_a_call_with_alpha_goes_the_rgb_way() -> None:
    static = Image.new("RGB", (200, 100), kit.BACKGROUND)
    entries: list[kit_scene.Entry] = []
    kit_scene.Recorder(entries, "RGBA").rectangle((10, 10, 100, 60), fill=kit.rgba(kit.HIGHLIGHT, 0.5))
    assert not kit_replay.indexable(entries)
    assert kit_replay.png(static, PALETTE, entries) == _rgb(static, entries)


def test_threads_drawing_at_once_each_get_their_picture() -> None:
    static = Image.new("RGB", (400, 300), kit.BACKGROUND)
    entries = _entries()
    expected = _rgb(static, entries)
    barrier = threading.Barrier(4)

    def draw(_n: int) -> bool:
        barrier.wait()
        return all(kit_replay.png(static, PALETTE, entries) == expected for _ in range(10))

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(draw, range(4)))


@pytest.mark.parametrize("surface", ["draw", "recorder"])
def test_a_part_drawn_shifted_is_the_part_drawn_apart_and_pasted(surface: str) -> None:
    """Text at half pixels, shapes and wide outlines: the legend under a map, a strip over a crop."""
    def part(draw: Any) -> None:
        draw.line((12, 4, 380, 4), fill=kit.PANEL_LINE, width=2)
        for i, x in enumerate((12, 95.5, 181, 260.5)):
            draw.rounded_rectangle((int(x), 12, int(x) + 40, 42), radius=8, fill=kit.PANEL, outline=kit.INK, width=2)
            kit.draw_text(draw, (x + 20.5, 27.5), f"W{i}", 22, kit.INK, anchor="mm")
            kit.draw_text(draw, (x + 45, 27), "word", 22, kit.SUBTLE, anchor="lm", bold=i % 2 == 0)
        draw.polygon([(300, 50), (315, 75), (285, 75)], fill=kit.HIGHLIGHT, outline=kit.INK, width=2)
        draw.ellipse((330, 50, 360, 80), outline=kit.INK, width=3)

    apart = Image.new("RGB", (400, 90), kit.BACKGROUND)
    part(kit.Draw(apart))
    expected = Image.new("RGB", (500, 300), kit.BACKGROUND)
    expected.paste(apart, (37, 151))
    picture = Image.new("RGB", (500, 300), kit.BACKGROUND)
    if surface == "draw":
        part(kit.Shifted(kit.Draw(picture), 37, 151))
    else:
        entries: list[kit_scene.Entry] = []
        part(kit.Shifted(kit_scene.Recorder(entries), 37, 151))
        kit_scene.replay(picture, entries)
    assert ImageChops.difference(picture, expected).getbbox() is None


def test_marks_held_back_are_kept_only_when_asked() -> None:
    assert not kit.is_recording()
    with kit.held() as nothing:
        kit.note("chip", (0, 0, 1, 1))
    assert nothing is None
    with kit.recording() as marks:
        assert kit.is_recording()
        with kit.held() as tried:
            kit.note("chip", (0, 0, 1, 1), "thrown away")
        with kit.held() as kept:
            kit.note("chip", (0, 0, 1, 1), "kept")
        kit.keep(kept)
    assert tried is not None and [m.text for m in marks] == ["kept"]
