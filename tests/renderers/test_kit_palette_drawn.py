"""Texts and chips copied from what they drew before over the same colour (``Draw.on_one_colour``, issue 28).

The claim: a palette picture whose texts and chips are pasted from kept copies is, byte for byte, the picture
drawn afresh, with the same pixels marked as colours the palette lacks, wherever the copies go (both parities
of a corner: a chip centres its text with ``round`` of a half pixel), and a region that does not hold one
colour is drawn, never pasted."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from renderers import kit, kit_ink, kit_palette, kit_palette_draw, kit_panel
from renderers.kit_palette import Palette
from renderers.warlord import palette as warlord_palette
from renderers.warlord import tiles

PANEL, OTHER, INK = tiles.TILE, tiles.TILE_SPENT, tiles.TILE_INK  # colours of Warlord's palette, as its tiles use
CHIPS = (tiles.BADGE, tiles.ITEM, tiles.STATE_CHIP)
SIZE = tiles.TEXT  # a Warlord tile's text: its chips are 31 px high, so a chip's text centre falls on a half pixel
WORDS = ("STORDITO", "Spada lunga ATT+2", "AC 14", "+5/+3", "Shield Wall", "SPENT", "♥3/5", "Mercenario")


@pytest.fixture(autouse=True)
def _fresh(no_drawn_copies: None) -> None:
    """Every test here starts and ends with no kept drawing (``conftest.no_drawn_copies``)."""


def _afresh(draw: kit_palette_draw.Draw, key: Any, region: Any, drawer: Callable[[], None],
            ground: Any = None) -> None:
    drawer()


Scene = Callable[[kit_palette_draw.Draw], None]


CELL_W, CELL_H, COLUMNS, ROWS = 300, 44, 3, 12
WIDTH, HEIGHT = CELL_W * COLUMNS, CELL_H * ROWS


def _scene(seed: int) -> Scene:
    """Texts on a known ground (their cell: nothing else is drawn in it) and chips, one in each cell of a
    grid, at corners of both parities, on two grounds; the words repeat, so most are copies."""
    rng = random.Random(seed)
    calls = [(rng.choice(("text", "chip")), column * CELL_W + rng.randrange(0, 4), row * CELL_H + rng.randrange(0, 4),
              row, rng.choice(WORDS), rng.choice(CHIPS)) for row in range(ROWS) for column in range(COLUMNS)]
    rng.shuffle(calls)

    def draw(on: kit_palette_draw.Draw) -> None:
        on.rectangle((0, HEIGHT // 2, WIDTH - 1, HEIGHT - 1), fill=OTHER)  # a second ground: the lower half
        for kind, x, y, row, word, fill in calls:
            ground = PANEL if row < ROWS // 2 else OTHER
            cell = (x - x % CELL_W, row * CELL_H, x - x % CELL_W + CELL_W - 1, row * CELL_H + CELL_H - 1)
            if kind == "text":
                kit_ink.draw_text(on, (x, y), word, SIZE, INK, ground=(ground, cell))
            else:
                kit_ink.draw_chip(on, x, y, kit_panel.Chip(word, fill), SIZE)

    return draw


def _drawn(scene: Scene, pal: Palette) -> tuple[bytes, bytes | None, bool]:
    picture = kit_palette_draw.blank((WIDTH, HEIGHT), PANEL, pal)
    on = kit_palette_draw.Draw(picture, pal)
    scene(on)
    return picture.tobytes(), None if on.dirty is None else on.dirty.whole().tobytes(), on.exact


@pytest.mark.parametrize("seed", range(6))
def test_texts_and_chips_pasted_from_copies_are_the_picture_drawn_afresh(seed: int,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pal = warlord_palette.shared()
    scene = _scene(seed)
    kept = [_drawn(scene, pal) for _ in range(3)]  # the second keeps, the third pastes nearly everything
    assert len(kit_palette_draw._kept_drawn) > 10
    monkeypatch.setattr(kit_palette_draw.Draw, "on_one_colour", _afresh)
    afresh = _drawn(scene, pal)
    assert kept[0] == kept[1] == kept[2] == afresh


def test_a_chip_at_the_other_parity_is_not_the_copy_of_this_one() -> None:
    """At 31 px a chip's text sits on ``round(y + 15.5 + 1)``, which rounds to the even side: one pixel
    down the chip's text moves by 0 or 2 pixels against the chip. The key names the parity of the top."""
    pal = warlord_palette.shared()
    chip = kit_panel.Chip("STORDITO", CHIPS[0])
    assert kit_panel.chip_height(SIZE) % 2 == 1

    def at(y: int, keep: bool) -> bytes:
        picture = kit_palette_draw.blank((200, 80), PANEL, pal)
        on = kit_palette_draw.Draw(picture, pal)
        if not keep:
            on.on_one_colour = lambda key, region, drawer, ground=None: drawer()  # type: ignore[method-assign]
        kit_ink.draw_chip(on, 10, y, chip, SIZE)
        return picture.crop((0, y, 200, y + 40)).tobytes()

    for y in (10, 10, 11, 11, 12, 13):  # kept at 10 (even), then asked for at odd and even tops
        assert at(y, keep=True) == at(y, keep=False), y
    assert at(10, keep=False) != at(11, keep=False)  # the parity is seen: the two are not one picture moved


def test_a_region_holding_two_colours_is_drawn_and_not_kept() -> None:
    pal = warlord_palette.shared()
    chip = kit_panel.Chip("AC 14", CHIPS[1])
    for _ in range(3):
        picture = kit_palette_draw.blank((200, 80), PANEL, pal)
        on = kit_palette_draw.Draw(picture, pal)
        on.rectangle((0, 30, 199, 79), fill=OTHER)
        kit_ink.draw_chip(on, 10, 20, chip, SIZE)  # across both colours
    # (its text, inside the chip's own colour, may be kept: what lies under it is one colour)
    assert [key for key in kit_palette_draw._kept_drawn if key[0][0] == "chip"] == []


def _flat_palette() -> Palette:
    """A palette of flat colours only: a text's edges are colours it lacks, marked on the picture."""
    return Palette([PANEL, INK, OTHER, *CHIPS, (255, 255, 255)])


def test_marks_of_colours_the_palette_lacks_are_made_again_by_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    pal = _flat_palette()

    def scene(on: kit_palette_draw.Draw) -> None:
        for x in (10, 200, 10):
            kit_ink.draw_text(on, (x, 20), "Shield Wall", SIZE, INK, ground=(PANEL, (0, 0, 599, 299)))

    kept = [_drawn(scene, pal) for _ in range(2)]
    assert kept[0][1] is not None and len(kit_palette_draw._kept_drawn) == 1
    (entry,) = kit_palette_draw._kept_drawn.values()
    assert entry[1] is not None  # the copy carries its marks
    monkeypatch.setattr(kit_palette_draw.Draw, "on_one_colour", _afresh)
    assert kept[0] == kept[1] == _drawn(scene, pal)


def test_a_drawing_that_leaves_the_palette_is_not_kept() -> None:
    """A flat colour the palette lacks makes the picture inexact (it is drawn again the RGB way): such a
    drawing is never kept."""
    pal = kit_palette.Palette([PANEL, INK])
    for _ in range(3):
        picture = kit_palette_draw.blank((200, 80), PANEL, pal)
        on = kit_palette_draw.Draw(picture, pal)
        on.on_one_colour(("box",), (10, 10, 40, 30), lambda on=on: on.rectangle((10, 10, 39, 29), fill=(1, 2, 3)),
                         PANEL)
        assert not on.exact
    assert len(kit_palette_draw._kept_drawn) == 0


def test_a_drawing_is_kept_at_its_second_sighting_and_pasted_at_its_third() -> None:
    pal = warlord_palette.shared()
    drawn: list[int] = []

    def once() -> tuple[bytes, int]:
        picture = kit_palette_draw.blank((100, 60), PANEL, pal)
        on = kit_palette_draw.Draw(picture, pal)

        def drawer() -> None:
            drawn.append(1)
            on.rectangle((12, 10, 30, 20), fill=INK)

        on.on_one_colour(("box", 1), (10, 10, 40, 30), drawer)
        return picture.tobytes(), len(kit_palette_draw._kept_drawn)

    first, second, third = once(), once(), once()
    assert [first[1], second[1], third[1]] == [0, 1, 1] and len(drawn) == 2
    assert first[0] == second[0] == third[0]
    assert Image.frombytes("P", (100, 60), third[0]).getpixel((20, 15)) == pal.colours.index(INK)
    assert kit.is_recording() is False


def test_a_caller_drawing_over_its_own_text_leaves_no_copy_of_that_mess(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up draws the legend of both languages at one place on its scratch, each text naming the
    scratch's colour as its ground although the other language's text lies there: the copy of such a region
    would carry the other text into every later picture (a golden of the legend showed "Mark = Marksmanship"
    over "Merc = Mercenary"). Only a region seen to hold one colour is kept."""
    pal = warlord_palette.shared()
    everything = (PANEL, (0, 0, WIDTH - 1, HEIGHT - 1))
    scratch = kit_palette_draw.Draw(kit_palette_draw.blank((WIDTH, HEIGHT), PANEL, pal), pal)
    for word in ("Merc = Mercenary", "Mark = Marksmanship", "Mark = Marksmanship", "Mark = Marksmanship"):
        kit_ink.draw_text(scratch, (20, 20), word, SIZE, INK, ground=everything)

    def clean(on: kit_palette_draw.Draw) -> None:
        kit_ink.draw_text(on, (300, 100), "Mark = Marksmanship", SIZE, INK, ground=everything)

    kept = _drawn(clean, pal)
    monkeypatch.setattr(kit_palette_draw.Draw, "on_one_colour", _afresh)
    assert kept == _drawn(clean, pal)
