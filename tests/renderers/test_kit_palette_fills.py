"""Fills seen for the first time are pasted straight onto the picture, kept only when seen again (issue 28):
the pixels are those of kept fills, a first sighting keeps nothing, and a second one does."""

from __future__ import annotations

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


def test_first_second_and_later_sightings_give_the_drawn_pixels() -> None:
    text = "Turn 41 · a line never drawn before"
    kit_palette_draw._sighted.clear()
    kit_palette_draw._kept_fills.clear()  # (full after other tests' pictures, it would let one go to keep this)
    kept = len(kit_palette_draw._kept_fills)
    expected = _drawn(text, rgb=True).tobytes()
    assert _drawn(text, rgb=False).tobytes() == expected  # first sighting: pasted colour by colour
    assert len(kit_palette_draw._kept_fills) == kept, "a text seen once was kept"
    assert _drawn(text, rgb=False).tobytes() == expected  # second: built and kept
    assert len(kit_palette_draw._kept_fills) == kept + 1
    assert _drawn(text, rgb=False).tobytes() == expected  # then found


def test_the_sightings_remembered_are_bounded() -> None:
    kit_palette_draw._sighted.clear()
    kit_palette_draw._sighted.seen.update(dict.fromkeys(range(kit_palette_draw._SIGHTED)))
    _drawn("one more line, seen once", rgb=False)
    assert len(kit_palette_draw._sighted) <= kit_palette_draw._SIGHTED
