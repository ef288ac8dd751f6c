"""The kit's text as pixels: its font (``font``), a text's greyscale masks as FreeType gives them
(``masks``), and those masks posterized and cached (``_glyph_masks``); ``kit`` names all three.

Why not drawn with ``ImageDraw.text`` (issue 28): that call asks the font for the very same mask
(``getmask2``) and blits it onto a blank canvas the size of the text's ``getbbox``, and the mask's own
offset and size are that box already. The measure, the canvas and the blit were ~0.2 ms of a new label's
~0.4 ms, and a table's first picture rasterises 20-50 labels it never drew. ``drawn`` keeps the old way,
as the reference ``tests/renderers/test_kit_masks.py`` holds ``masks`` equal to, and for a font that is
not FreeType's (the bundled bitmap font of a stripped install). A text made of glyphs the kit already cut is
put together from them (``kit_compose``) instead of rasterised again: the same masks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from renderers import kit_bytes, kit_compose, kit_glyphs

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
FONT_FILE = kit_glyphs.FONT_FILE

Masks = tuple[int, int, Image.Image, Image.Image | None]
"""(left, top, fill mask, stroke mask or None): the masks' top left from the anchor, and the masks, both
the size of the stroked text's box (at least 1 x 1)."""

_BLANK = Image.new("L", (1, 1), 0)


def table_point(image: Image.Image, lut: list[int], mode: str | None = None) -> Image.Image:
    """``image.point(lut, mode)`` for a table of 256 ints, without Pillow's rounding of each entry in Python
    (~0.1 ms a call, as much as posterizing a new label's mask: issue 28)."""
    return image._new(image.im.point(lut, mode or image.mode))


def masks(font: Any, text: str, stroke: int, anchor: str, *, fill: bool = True) -> Masks:
    """``text``'s fill mask and, with ``stroke``, its stroke mask (the stroke with the glyphs filled in, as
    ``ImageDraw.text`` draws a stroke in the text's own colour): the pixels ``drawn`` gives.

    ``fill`` False, with a ``stroke``: the stroke mask stands for the fill mask too, for a text whose fill is
    never drawn (the kit's bold: its stroke in its own colour covers its glyphs), which saves rasterising it."""
    if not isinstance(font, ImageFont.FreeTypeFont):
        left, top, fill_mask, stroke_mask = drawn(font, text, stroke, anchor)
        return left, top, fill_mask if fill or stroke_mask is None else stroke_mask, stroke_mask
    composed = kit_compose.masks(font, text, stroke, anchor, fill=fill)
    if composed is not None:  # from the glyphs' cached masks: the same pixels, a tenth of the time
        left, top, fill_core, stroke_core = composed
        fill_image = _BLANK._new(fill_core)
        if stroke_core is None:
            return left, top, fill_image, None
        return left, top, fill_image, fill_image if stroke_core is fill_core else _BLANK._new(stroke_core)
    return rasterised(font, text, stroke, anchor, fill=fill)


def rasterised(font: ImageFont.FreeTypeFont, text: str, stroke: int, anchor: str, *, fill: bool = True) -> Masks:
    """``masks`` as FreeType rasterises the whole text: for a text ``kit_compose`` cannot put together, and the
    reference its tests hold the composed masks equal to."""
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


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """The kit's font at ``size`` px; cached because loading costs ~1 ms.

    A subset of DejaVu Sans Condensed ships with the code (renderers/fonts, ~180 KB): Pillow's
    bundled font has no accented letters, so Italian words, players' names and signs such as
    "→" or "÷" came out as empty boxes. Its widths are close to the bundled font's, so layouts
    keep their fit; without the file (a stripped install) the bundled font still draws."""
    try:
        return ImageFont.truetype(str(FONT_FILE), size=size)
    except OSError:
        return ImageFont.load_default(size=size)


TEXT_LEVELS = 4
"""Coverage levels of anti-aliased text (0, 85, 170, 255). Why not 256: each level is one
blend of the ink with the ground, and the fixed palette (``kit_palette``) must hold every
blend; four levels look like full anti-aliasing at 500 px and keep the palette small."""
COVERAGE_LEVELS: tuple[int, ...] = tuple(round(i * 255 / (TEXT_LEVELS - 1)) for i in range(TEXT_LEVELS))
_COVERAGE = [COVERAGE_LEVELS[round(v * (TEXT_LEVELS - 1) / 255)] for v in range(256)]


GLYPH_BYTES = 12 << 20
"""Heap bytes of glyph masks kept per process (~5 KB a label with its stroke mask: ~2,400 labels), counted
as the heap holds them (``kit_bytes``): 4,096 labels by count had grown to ~23 MB a render worker; 8 MB
missed 1.6 times as often over 1,200 tables (``bench/render_caches.py``)."""


@kit_bytes.cached(GLYPH_BYTES)
def _glyph_masks(text: str, size: int, stroke: int, anchor: str) -> tuple[int, int, Image.Image, Image.Image | None]:
    """Greyscale masks of ``text`` (and of its stroke), with their offset from the anchor.

    Rasterising text is the slowest part of a snapshot (a stroked label costs ~1-4 ms);
    most labels repeat from one snapshot to the next, so the masks are cached and each
    draw is a blit. The masks are what Pillow itself would draw, posterized to
    ``TEXT_LEVELS`` coverage levels so that every edge pixel is a colour of the palette.
    """
    # A 1 px stroke is the kit's bold (an outline is 2 px at least): its stroke alone is drawn, in its colour, so
    # the stroke mask stands for its fill mask (one rasterisation of a new bold label, not two: issue 28).
    left, top, fill_mask, stroke_mask = masks(font(size), text, stroke, anchor, fill=stroke != BOLD_STROKE)
    if stroke_mask is None:
        return left, top, table_point(fill_mask, _COVERAGE), None
    stroke_mask = table_point(stroke_mask, _COVERAGE)
    return left, top, stroke_mask if fill_mask is stroke_mask else table_point(fill_mask, _COVERAGE), stroke_mask


BOLD_STROKE = 1
"""The stroke of a bold text (``draw_text``): its own colour, over glyphs it covers."""
