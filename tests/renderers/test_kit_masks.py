"""``kit_masks.masks`` takes FreeType's masks as they come (issue 28): the same pixels, at the same offsets,
as drawing the text with ``ImageDraw.text`` on a canvas of its box, which it replaced."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import kit, kit_masks
from tests.renderers.masks import assert_same_masks

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ·:;,.'!?★⚄àèéìòùÈ-—()→÷jfgyQ"
_ANCHORS = ("la", "lt", "lm", "ls", "ld", "ma", "mt", "mm", "ms", "md", "ra", "rt", "rm", "rs", "rd")


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=_LETTERS, max_size=32), size=st.integers(9, 44),
       stroke=st.sampled_from((0, 0, 1, 2, 3, 4)), anchor=st.sampled_from(_ANCHORS))
def test_freetype_masks_are_the_drawn_masks(text: str, size: int, stroke: int, anchor: str) -> None:
    font = kit.font(size)
    assert_same_masks(kit_masks.masks(font, text, stroke, anchor), kit_masks.drawn(font, text, stroke, anchor))


def test_an_empty_text_still_gets_a_one_pixel_wide_mask() -> None:
    """An empty label's canvas was at least 1 x 1: drawing code reads its size."""
    for stroke in (0, 2):
        left, top, fill, stroke_mask = kit_masks.masks(kit.font(20), "", stroke, "la")
        assert fill.size[0] >= 1 and fill.size[1] >= 1
        assert_same_masks((left, top, fill, stroke_mask), kit_masks.drawn(kit.font(20), "", stroke, "la"))


def test_a_font_without_freetype_is_drawn() -> None:
    """The bundled bitmap font (an install without the kit's font file) has no ``getmask2`` offsets."""
    from PIL import ImageFont

    bitmap = ImageFont.load_default_imagefont()
    found = kit_masks.masks(bitmap, "Turn 3", 0, "la")
    assert found[3] is None and found[2].getbbox() is not None
    assert_same_masks(found, kit_masks.drawn(bitmap, "Turn 3", 0, "la"))


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=_LETTERS, min_size=1, max_size=24), size=st.integers(10, 40),
       anchor=st.sampled_from(_ANCHORS))
def test_bold_text_is_pillows_stroke_in_its_own_colour(text: str, size: int, anchor: str) -> None:
    """The kit's bold rasterises only its stroke (its fill is never drawn): the picture is still Pillow's text
    with a 1 px stroke of its own colour, posterized to the kit's levels."""
    from PIL import Image, ImageDraw

    canvas = (12 * size + 40, 3 * size + 20)
    ours = Image.new("L", canvas, 0)
    kit.draw_text(ImageDraw.Draw(ours), (20, size + 10), text, size, 255, anchor=anchor, bold=True)  # type: ignore[arg-type]
    pillows = Image.new("L", canvas, 0)
    ImageDraw.Draw(pillows).text((20, size + 10), kit.kit_glyphs.drawable(text), font=kit.font(size), fill=255,
                                 anchor=anchor, stroke_width=kit.BOLD_STROKE, stroke_fill=255)
    assert ours.tobytes() == pillows.point(kit._COVERAGE).tobytes()
