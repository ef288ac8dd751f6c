"""A text's greyscale masks as FreeType gives them: what ``kit._glyph_masks`` caches and posterizes.

Why not drawn with ``ImageDraw.text`` (issue 28): that call asks the font for the very same mask
(``getmask2``) and blits it onto a blank canvas the size of the text's ``getbbox``, and the mask's own
offset and size are that box already. The measure, the canvas and the blit were ~0.2 ms of a new label's
~0.4 ms, and a table's first picture rasterises 20-50 labels it never drew. ``drawn`` keeps the old way,
as the reference ``tests/renderers/test_kit_masks.py`` holds ``masks`` equal to, and for a font that is
not FreeType's (the bundled bitmap font of a stripped install).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw, ImageFont

Masks = tuple[int, int, Image.Image, Image.Image | None]
"""(left, top, fill mask, stroke mask or None): the masks' top left from the anchor, and the masks, both
the size of the stroked text's box (at least 1 x 1)."""

_BLANK = Image.new("L", (1, 1), 0)


def masks(font: Any, text: str, stroke: int, anchor: str, *, fill: bool = True) -> Masks:
    """``text``'s fill mask and, with ``stroke``, its stroke mask (the stroke with the glyphs filled in, as
    ``ImageDraw.text`` draws a stroke in the text's own colour): the pixels ``drawn`` gives.

    ``fill`` False, with a ``stroke``: the stroke mask stands for the fill mask too, for a text whose fill is
    never drawn (the kit's bold: its stroke in its own colour covers its glyphs), which saves rasterising it."""
    if not isinstance(font, ImageFont.FreeTypeFont):
        left, top, fill_mask, stroke_mask = drawn(font, text, stroke, anchor)
        return left, top, fill_mask if fill or stroke_mask is None else stroke_mask, stroke_mask
    if stroke and not fill:
        stroke_core, (left, top) = font.getmask2(text, "L", stroke_width=stroke, anchor=anchor, ink=255,
                                                 stroke_filled=True)
        stroke_mask = _image(stroke_core, stroke_core.size, (0, 0))
        return left, top, stroke_mask, stroke_mask
    fill_core, (fill_x, fill_y) = font.getmask2(text, "L", anchor=anchor, ink=255)
    if not stroke:
        return fill_x, fill_y, _image(fill_core, fill_core.size, (0, 0)), None
    stroke_core, (left, top) = font.getmask2(text, "L", stroke_width=stroke, anchor=anchor, ink=255,
                                             stroke_filled=True)
    return (left, top, _image(fill_core, stroke_core.size, (fill_x - left, fill_y - top)),
            _image(stroke_core, stroke_core.size, (0, 0)))


def _image(core: Any, size: tuple[int, int], at: tuple[int, int]) -> Image.Image:
    """A FreeType mask as an ``Image`` of ``size`` (at least 1 x 1, as an empty text's canvas was) with the
    mask's top left at ``at``: the mask itself where it is that already."""
    width, height = max(1, size[0]), max(1, size[1])
    if at == (0, 0) and tuple(core.size) == (width, height):
        return _BLANK._new(core)
    canvas = Image.new("L", (width, height), 0)
    if core.size[0] and core.size[1]:
        canvas.im.paste(core, (at[0], at[1], at[0] + core.size[0], at[1] + core.size[1]))
    return canvas


def drawn(font: Any, text: str, stroke: int, anchor: str) -> Masks:
    """The masks drawn by ``ImageDraw.text`` on canvases of the text's box: the way before issue 28."""
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor, stroke_width=stroke))
    width, height = max(1, right - left), max(1, bottom - top)
    fill_mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(fill_mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    if not stroke:
        return left, top, fill_mask, None
    stroke_mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(stroke_mask).text((-left, -top), text, font=font, fill=255, anchor=anchor, stroke_width=stroke,
                                     stroke_fill=255)
    return left, top, fill_mask, stroke_mask
