"""Fills are pasted straight onto the palette picture, colour by colour, and nothing of them is kept (issue 28):
the pixels are the drawn ones however often a text comes back, a colour the palette lacks is marked where it
stays, and a fill's masks are not held alive by the drawing."""

from __future__ import annotations

import gc
import weakref

from PIL import Image, ImageDraw

from renderers import kit, kit_ink, kit_palette_draw
from renderers.warlord import palette

SIZE = (240, 40)


def _drawn(text: str, rgb: bool) -> Image.Image:
    """``text`` on a plain ground, by the palette way or by the RGB way (the reference), as RGB pixels."""
    pal = palette.shared()
    ground = (kit.BACKGROUND, (0, 0, SIZE[0] - 1, SIZE[1] - 1))
    if rgb:
        image = Image.new("RGB", SIZE, kit.BACKGROUND)
        kit.draw_text(ImageDraw.Draw(image), (6, 8), text, 22, kit.INK)
        return image
    picture = kit_palette_draw.blank(SIZE, kit.BACKGROUND, pal)
    draw = kit_palette_draw.Draw(picture, pal)
    kit_ink.draw_text(draw, (6, 8), text, 22, kit.INK, ground=ground)
    assert draw.exact
    return picture.convert("RGB")


def test_a_text_drawn_again_and_again_gives_the_drawn_pixels() -> None:
    text = "Turn 41 · a line never drawn before"
    expected = _drawn(text, rgb=True).tobytes()
    for _time in range(3):  # once fills were kept at the second sighting and found at the third
        assert _drawn(text, rgb=False).tobytes() == expected


def _box_mask(size: tuple[int, int], box: tuple[int, int, int, int]) -> Image.Image:
    mask = Image.new("1", size)
    ImageDraw.Draw(mask).rectangle(box, fill=1)
    return mask


def test_a_colour_the_palette_lacks_is_marked_where_no_later_fill_covers_it() -> None:
    pal = palette.shared()
    picture = kit_palette_draw.blank((60, 30), kit.BACKGROUND, pal)
    draw = kit_palette_draw.Draw(picture, pal)
    lacking = (1, 2, 3)
    assert lacking not in draw.held
    under = _box_mask((20, 10), (0, 0, 11, 9))  # the lacking colour, columns 0-11
    over = _box_mask((20, 10), (8, 0, 19, 9))  # a held colour over columns 8-19
    draw.fills((30, 12), ((under, lacking), (over, kit.INK)))
    assert draw.dirty is not None
    assert draw.dirty.whole().getbbox() == (30, 12, 38, 22)  # columns 0-7 of the fill: the lacking colour stayed there
    pixels = picture.load()
    assert pixels[30, 12] == kit_palette_draw._quantized(pal, lacking)
    assert pixels[38, 12] == draw.held[kit.INK] and pixels[49, 21] == draw.held[kit.INK]
    assert pixels[29, 12] == pixels[50, 12] == draw.held[kit.BACKGROUND]  # nothing outside the masks


def test_a_fill_keeps_no_mask_alive() -> None:
    """The masks belong to the glyph cache, which lets them go; a fills cache kept them past it (issue 28)."""
    pal = palette.shared()
    picture = kit_palette_draw.blank((60, 30), kit.BACKGROUND, pal)
    draw = kit_palette_draw.Draw(picture, pal)
    masks = ((_box_mask((20, 10), (0, 0, 11, 9)), kit.INK), (_box_mask((20, 10), (4, 2, 15, 7)), kit.PANEL))
    for _time in range(3):
        draw.fills((5, 5), masks)
    gone = [weakref.ref(mask) for mask, _colour in masks]
    del masks
    gc.collect()
    assert all(ref() is None for ref in gone)
