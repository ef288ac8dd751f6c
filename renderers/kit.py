"""Shared drawing kit for every game renderer (ARCHITECTURE.md §6): palette, scale, text, PNG.

Renderers are pure functions from a state to PNG bytes, so the kit only holds stateless
helpers and caches keyed by immutable inputs. Why a kit at all: every board picture must
read the same way in a Discord chat, where it is shown about 500 px wide (TABLE_UX.md),
so the palette, the text sizes and the furniture are shared. The kit is split by job:

- ``kit`` (this module): palette, the preview scale, text (fit, wrap, draw), recording of
  what was drawn (for tests), PNG output;
- ``kit_palette``: fixed palettes (every colour a renderer draws), so PNGs are quantized
  by a look-up instead of per picture;
- ``kit_board``: square grids, coordinates, tokens with HP strips, square highlights;
- ``kit_panel``: the side column (banner, chips and their flow, legend, icons);
- ``kit_colour``: perceived colour distance, with colour-vision deficiency simulated;
- ``kit_glyphs``: text cut down to the glyphs the bundled font has (``draw_text`` passes every
  text through it), with substitutes chosen on purpose and any "?" recorded for the tests;
- ``kit_scene``: a picture recorded as draw commands, re-drawn only in the bands that changed;
- ``kit_replay``: recorded commands drawn straight on the palette's indexes (no quantizing);
- ``kit_palette_draw``: a picture drawn straight on its palette's indexes as it is drawn;
- ``kit_ink``: text and chips on a ground the caller names, drawn as flat fills;
- ``kit_png``: palette PNGs written band by band, with a cache of compressed bands;
- ``kit_masks``: the font and a text's masks (``kit.font`` and ``kit._glyph_masks`` are its);
- ``kit_compose``: a text's masks and box put together from its glyphs' cached ones (FreeType's pixels);
- ``kit_sprites``: parts of a palette picture kept by what they show, pasted wherever they go.

Colours come from the Okabe-Ito palette, which stays distinguishable for the common
colour-vision deficiencies; on top of that every meaning carried by a colour is also
carried by a shape, a pattern, a letter or a number, so nothing relies on hue alone.
Text uses a subset of DejaVu Sans Condensed shipped in ``renderers/fonts`` (Latin with
accents, arrows, mathematical signs), so output is identical wherever Pillow's FreeType
build is the same.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import kit_compose, kit_glyphs, kit_png
from renderers.kit_masks import (  # noqa: F401  (the kit's text: ``kit.font``, ``kit._glyph_masks``…)
    _COVERAGE,
    BOLD_STROKE,
    COVERAGE_LEVELS,
    GLYPH_BYTES,
    TEXT_LEVELS,
    Font,
    _glyph_masks,
    font,
)
from renderers.kit_palette import Palette

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

# -- palette ---------------------------------------------------------------------------

OKABE_ITO: dict[str, RGB] = {
    "black": (0, 0, 0),
    "orange": (230, 159, 0),
    "sky_blue": (86, 180, 233),
    "bluish_green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "reddish_purple": (204, 121, 167),
}
"""Okabe & Ito (2008), "Color Universal Design": eight hues safe for colour-blind readers."""

TEAM_COLOURS: tuple[RGB, ...] = (
    OKABE_ITO["blue"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["bluish_green"],
    OKABE_ITO["reddish_purple"],
)
"""Seat 0 is blue and seat 1 vermillion: the pair with the most contrast for every CVD type."""

BACKGROUND: RGB = (43, 45, 49)  # Discord's dark theme, so the picture blends into the chat
PANEL: RGB = (54, 57, 63)
PANEL_LINE: RGB = (80, 84, 92)
INK: RGB = (255, 255, 255)
INK_DARK: RGB = (20, 20, 24)
MUTED: RGB = (170, 174, 182)
SUBTLE: RGB = (214, 217, 222)  # secondary text that must survive downscaling
HIGHLIGHT: RGB = OKABE_ITO["yellow"]  # the active piece or row
HP_LEFT: RGB = OKABE_ITO["bluish_green"]
HP_LOST: RGB = (70, 70, 74)

# Highlight roles every game shares: where a piece may go, what a spell may aim at and what
# it would hit. Opacities were chosen with ``kit_colour`` so that each stays at least
# ΔE00 12 from the ground, rink and demon fills and from every team colour, for normal
# vision and the three dichromacies; the area is a hatch, a pattern no fill or token uses.
REACH: RGB = OKABE_ITO["sky_blue"]
REACH_ALPHA = 0.8
TARGET: RGB = OKABE_ITO["orange"]
TARGET_ALPHA = 0.75
AREA: RGB = INK_DARK
AREA_ALPHA = 0.6


def team_colour(seat: int) -> RGB:
    """The colour of a seat; seats beyond four reuse the palette (no game seats that many)."""
    return TEAM_COLOURS[seat % len(TEAM_COLOURS)]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend ``a`` towards ``b`` by ``t`` (0..1); used for tints without alpha compositing."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def rgba(colour: RGB, alpha: float) -> tuple[int, int, int, int]:
    """``colour`` with an opacity in 0..1, for drawing on an ``ImageDraw.Draw(image, "RGBA")``."""
    return (*colour, round(alpha * 255))


def text_on(colour: RGB) -> RGB:
    """Black or white text, whichever contrasts more with ``colour`` (WCAG relative luminance)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * channel(colour[0]) + 0.7152 * channel(colour[1]) + 0.0722 * channel(colour[2])
    return INK_DARK if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else INK


# -- scale -----------------------------------------------------------------------------

PREVIEW_WIDTH = 500
"""Discord shows a posted picture about this wide (TABLE_UX.md); layouts are designed at it."""
MIN_PREVIEW_TEXT = 11
"""The smallest text size, in preview pixels, for anything a player needs to read."""


@dataclass(frozen=True)
class Scale:
    """Converts sizes in *preview pixels* (as seen at 500 px wide) to canvas pixels.

    Why: a layout written in preview pixels says what players actually see, and the
    readability rule (nothing below 11 px) becomes one number, ``min_text``. The canvas is
    rendered larger than the preview (crisper when opened, same look when shrunk).
    """

    width: int

    def __call__(self, preview_px: float) -> int:
        return round(preview_px * self.width / PREVIEW_WIDTH)

    @property
    def min_text(self) -> int:
        """Smallest font size in canvas pixels that is still 11 px in the preview."""
        return math.ceil(MIN_PREVIEW_TEXT * self.width / PREVIEW_WIDTH)

    def preview(self, canvas_px: float) -> float:
        """A canvas size as players see it in the preview."""
        return canvas_px * PREVIEW_WIDTH / self.width


# -- recording (tests look at what was drawn, not only at pixels) ------------------------


@dataclass(frozen=True)
class Mark:
    """One thing drawn: ``kind`` is "text" or a furniture name ("chip", "badge"...)."""

    kind: str
    box: Box
    text: str = ""
    size: int = 0
    region: str = ""


_marks: ContextVar[list[Mark] | None] = ContextVar("kit_marks", default=None)
_region: ContextVar[str] = ContextVar("kit_region", default="")


@contextmanager
def recording() -> Iterator[list[Mark]]:
    """Collect every text and chip drawn in this context: ``with kit.recording() as marks:``.

    Tests use it to check sizes, overlaps and cut text from the layout itself, which says
    *why* a picture is wrong where a pixel diff only says *where*. It costs one lookup per
    draw when nobody records.
    """
    marks: list[Mark] = []
    token = _marks.set(marks)
    try:
        yield marks
    finally:
        _marks.reset(token)


@contextmanager
def region(name: str) -> Iterator[None]:
    """Tag the marks drawn inside (e.g. "board", "panel", "legend")."""
    token = _region.set(name)
    try:
        yield
    finally:
        _region.reset(token)


def is_recording() -> bool:
    """Whether marks are being recorded (a renderer that draws a cached part of a picture once, and so
    notes its marks once, draws it afresh when they are wanted)."""
    return _marks.get() is not None


@contextmanager
def held() -> Iterator[list[Mark] | None]:
    """Hold back the marks drawn inside (a layout tried and maybe thrown away): ``keep`` adds them to
    the recording afterwards. Yields None (and costs nothing) when nobody records."""
    if _marks.get() is None:
        yield None
        return
    marks: list[Mark] = []
    token = _marks.set(marks)
    try:
        yield marks
    finally:
        _marks.reset(token)


def keep(marks: list[Mark] | None) -> None:
    """Add marks held back by ``held`` to the current recording, if any."""
    recorded = _marks.get()
    if recorded is not None and marks:
        recorded.extend(marks)


def note(kind: str, box: tuple[float, float, float, float], text: str = "", size: int = 0) -> None:
    """Record a mark if someone is recording; renderers call it for chips and badges."""
    marks = _marks.get()
    if marks is not None:
        marks.append(Mark(kind, (round(box[0]), round(box[1]), round(box[2]), round(box[3])), text, size,
                          _region.get()))


# -- text ------------------------------------------------------------------------------


FONT_FILE = kit_glyphs.FONT_FILE


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, stroke: int = 0) -> int:
    """Advance width in px; cached because layout is recomputed for every fit and column."""
    face = font(size)
    left, _top, right, _bottom = kit_compose.box(face, text, "la", stroke) or face.getbbox(text, stroke_width=stroke)
    return int(right - left)


def line_height(size: int) -> int:
    """Pitch between lines of ``size`` px text: capitals and most descenders, no more."""
    return round(size * 1.12)


def fit_size(text: str, size: int, max_width: int, minimum: int = 10, stroke: int = 0) -> int:
    """The largest font size up to ``size`` (not below ``minimum``) at which ``text`` fits."""
    while size > minimum and text_width(text, size, stroke) > max_width:
        size -= 1
    return size


def fit(text: str, size: int, max_width: int, stroke: int = 0) -> str:
    """Shorten ``text`` with an ellipsis so it fits ``max_width`` px.

    A last resort for text that comes from users (a 40-letter player name); anything
    the game itself writes is wrapped (:func:`wrap`) or laid out so it fits.
    """
    if text_width(text, size, stroke) <= max_width:
        return text
    while text and text_width(text + "…", size, stroke) > max_width:
        text = text[:-1]
    return text + "…" if text else ""


def wrap(text: str, size: int, max_width: int, stroke: int = 0) -> list[str]:
    """Break ``text`` into lines of whole words that fit ``max_width`` px.

    Why: a sentence players need (why the game ended, what to do now) must never end in
    "…". Only a single word wider than the whole line is shortened.
    """
    lines: list[str] = []
    current, advance = "", 0.0
    space = _advance(" ", size)
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        estimate = advance + space + _advance(word, size) if current else _advance(word, size)
        if current and _wider(candidate, estimate, size, max_width, stroke):
            lines.append(current)
            candidate, estimate = word, _advance(word, size)
        current, advance = candidate, estimate
    if current or not lines:
        lines.append(current)
    return [fit(line, size, max_width, stroke) for line in lines]


@lru_cache(maxsize=8192)
def _advance(word: str, size: int) -> float:
    """How far ``word`` moves the pen: a wrapped line's width is known within a few px from its words'."""
    return float(font(size).getlength(word))


def _wider(line: str, advance: float, size: int, max_width: int, stroke: int) -> bool:
    """Whether ``text_width(line)`` passes ``max_width``, measured in FreeType (~0.09 ms) only where ``advance``
    (its words' and spaces' advances) leaves it in doubt: ``wrap`` measured every longer prefix (issue 28).
    A line's ink box is 0.5 px narrower to 2 x stroke + 3.4 px wider than its advances (bearings, kerning
    across a space, the stroke: 20,000 random lines, sizes 10-48); ``tests/renderers/test_kit_wrap.py``."""
    if advance - _WRAP_SLACK > max_width:
        return True
    if advance + 2 * stroke + size // 8 + _WRAP_SLACK <= max_width:
        return False
    return text_width(line, size, stroke) > max_width


_WRAP_SLACK = 4
"""Pixels of doubt ``_wider`` leaves on each side of its estimate, beyond the bounds it was measured within."""


def outline_width(size: int) -> int:
    """Width of the contrasting outline :func:`draw_text` gives labels on busy ground."""
    return max(2, size // 9)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB = INK,
    *,
    anchor: str = "la",
    bold: bool = False,
    outline: RGB | None = None,
) -> Box:
    """Text with optional fake bold (a stroke in the same colour) or a contrasting outline.

    The bundled font has no bold face; a 1 px stroke in the text colour reads as bold and
    keeps labels legible once Discord scales the picture down. Returns the box inked.
    """
    if not text:
        return (round(xy[0]), round(xy[1]), round(xy[0]), round(xy[1]))
    text = kit_glyphs.drawable(text)  # never an empty box; a "?" is recorded, and tests fail on it
    stroke = outline_width(size) if outline is not None else (BOLD_STROKE if bold else 0)
    left, top, fill_mask, stroke_mask = _glyph_masks(text, size, stroke, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    width, height = fill_mask.size
    blits = getattr(draw, "blits", None)  # a kit_scene.Recorder keeps a text as one command
    if blits is not None:
        if stroke_mask is None:
            blits((x, y), height, ((fill_mask, fill),))
        elif outline is None:  # a bold stroke already covers the glyphs in their colour
            blits((x, y), height, ((stroke_mask, fill),))
        else:
            blits((x, y), height, ((stroke_mask, outline), (fill_mask, fill)))
    else:
        if stroke_mask is not None:
            draw.bitmap((x, y), stroke_mask, fill=outline if outline is not None else fill)
        if outline is not None or stroke_mask is None:
            draw.bitmap((x, y), fill_mask, fill=fill)
    box = (x, y, x + width, y + height)
    if _marks.get() is not None:
        note("text", box, text, size)
    return box


# -- drawing ---------------------------------------------------------------------------


class Draw(ImageDraw.ImageDraw):
    """Pillow's ``ImageDraw`` with the two calls a snapshot repeats most made cheaper.

    Why: a board picture draws ~35 rounded rectangles (chips, HP strips, banners) and
    converts ~200 colours; Pillow draws each rounded rectangle as eight arcs and pie slices
    and converts each colour anew, which together cost about a third of the drawing. Here a
    rounded rectangle of a given size is rasterised once into masks (what Pillow itself
    draws) and then blitted, and colour conversions are remembered. The pixels are the
    same as Pillow's (tests/renderers/test_kit.py compares them).
    """

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        self._inks: dict[tuple[object, object], tuple[int | None, int | None]] = {}

    def _getink(self, ink: object, fill: object = None) -> tuple[int | None, int | None]:  # type: ignore[override]
        key = (ink, fill)
        try:
            return self._inks[key]
        except KeyError:
            result = self._inks[key] = super()._getink(ink, fill)  # type: ignore[arg-type]
            return result
        except TypeError:  # an unhashable colour (a list): no memo
            return super()._getink(ink, fill)  # type: ignore[arg-type]

    def bitmap(self, xy: Any, bitmap: Image.Image, fill: Any = None) -> None:
        """Pillow's ``bitmap`` without reloading the mask (ours are always loaded)."""
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is not None:
            self.draw.draw_bitmap(xy, bitmap.im, ink)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """Pillow's ``polygon``, whose outline wider than 1 px is clipped by a mask of the fill the size of the
        whole picture (a 2 MB image made and cleared for each hex of a map: 0.06 ms); here the mask and the
        outline's drawing are only the polygon's box (0.014 ms), the same pixels (tests/renderers/test_kit.py)."""
        ink, fill_ink = self._getink(outline, fill)
        box = _polygon_box(xy, width, self.im.size) if ink is not None and ink != fill_ink and width > 1 else None
        if box is None:
            super().polygon(xy, fill, outline, width)
            return
        if fill_ink is not None:
            self.draw.draw_polygon(xy, fill_ink, 1)
        moved = [(x - box[0], y - box[1]) for x, y in xy]
        mask = Image.core.fill("1", (box[2] - box[0], box[3] - box[1]), 0)
        Image.core.draw(mask, 0).draw_polygon(moved, 1, 1)
        region = self.im.crop(box)
        Image.core.draw(region, 0).draw_polygon(moved, ink, 0, width * 2 - 1, mask)
        self.im.paste(region, box)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None,
                          width: int = 1, *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        parts = rounded_parts(xy, radius, fill, outline, width, corners)
        if parts is None:
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        for at, mask, colour in parts:
            self.bitmap(at, mask, fill=colour)


def _polygon_box(xy: Any, width: int, size: tuple[int, int]) -> Box | None:
    """The box a polygon's masked outline can touch, or None where only Pillow's way is sure to give its pixels
    (points not given as whole-pixel pairs, a polygon reaching the picture's edge)."""
    if not isinstance(xy, list | tuple):
        return None
    try:
        xs, ys = zip(*xy, strict=True)
    except (TypeError, ValueError):  # a flat list of numbers, points that are not pairs, no point at all
        return None
    if {*map(type, xs), *map(type, ys)} != {int}:
        return None
    box = (min(xs) - width, min(ys) - width, max(xs) + width + 1, max(ys) + width + 1)
    return box if box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1] else None


class Shifted:
    """A surface (a ``Draw`` or a ``kit_scene.Recorder``) whose calls land ``dx``, ``dy`` px away.

    Why: a part laid out in its own coordinates (a legend band under a map, a strip over a crop,
    the map's pieces in a crop) is drawn straight onto the picture instead of on an image of its
    own that is then pasted. Text is placed (rounded) in the part's coordinates before it moves,
    as it was when the part was drawn apart and pasted, so the pixels are the same; shapes are
    moved by whole pixels, which Pillow draws alike anywhere."""

    def __init__(self, draw: Any, dx: int, dy: int) -> None:
        self.draw, self.dx, self.dy = draw, dx, dy

    def _moved(self, xy: Any) -> Any:
        dx, dy = self.dx, self.dy
        if xy and isinstance(xy[0], (int, float)):
            return tuple(v + (dy if i % 2 else dx) for i, v in enumerate(xy))
        return [(x + dx, y + dy) for x, y in xy]

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.draw.rectangle(self._moved(xy), fill, outline, width)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.draw.ellipse(self._moved(xy), fill, outline, width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1,
                          *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        self.draw.rounded_rectangle(self._moved(xy), radius, fill, outline, width, corners=corners)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.draw.polygon(self._moved(xy), fill, outline, width)

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        self.draw.line(self._moved(xy), fill, width, joint)

    def bitmap(self, xy: Any, bitmap: Image.Image, fill: Any = None) -> None:
        self.draw.bitmap((xy[0] + self.dx, xy[1] + self.dy), bitmap, fill)

    def blits(self, xy: Any, height: int, masks: tuple[tuple[Image.Image, Any], ...]) -> None:
        at = (xy[0] + self.dx, xy[1] + self.dy)
        blits = getattr(self.draw, "blits", None)
        if blits is not None:
            blits(at, height, masks)
            return
        for mask, colour in masks:  # what ``draw_text`` draws on a plain ``Draw``, in the same order
            self.draw.bitmap(at, mask, colour)


class Layer:
    """A picture's static layer made on demand: a ground colour and parts of cached images put on it.

    Why: ``kit_scene.encode`` draws a scene over its static layer and tells two layers apart by
    identity, and a picture whose size depends on the state (a map crop, a panel as tall as its
    content) would need one whole image per size, each several MB, kept as long as a scene holds
    it. A ``Layer`` holds only the recipe (kept small, cached by the renderer per size), and
    ``copy`` paints a fresh canvas, which is what ``kit_scene.encode`` and a direct draw need."""

    mode = "RGB"

    def __init__(self, size: tuple[int, int], ground: RGB,
                 parts: tuple[tuple[Image.Image, Box | None, tuple[int, int]], ...] = (),
                 fills: tuple[tuple[Box, RGB], ...] = ()) -> None:
        self.size = size
        self.width, self.height = size
        self.ground = ground
        self.fills = fills  # (box, colour): blocks of another ground, painted first
        self.parts = parts  # (image, the box of it to take or None for all of it, where it goes)

    def copy(self) -> Image.Image:
        image = Image.new("RGB", self.size, self.ground)
        for box, colour in self.fills:
            image.paste(colour, box)
        for source, box, at in self.parts:
            image.paste(source if box is None else source.crop(box), at)
        return image


Blit = tuple[tuple[int, int], Image.Image, Any]  # where, the mask, the colour


def rounded_parts(xy: Any, radius: float, fill: Any, outline: Any, width: int,
                  corners: tuple[bool, bool, bool, bool] | None) -> list[Blit] | None:
    """A rounded rectangle as the mask blits that draw it (fill, then outline), or None where
    Pillow's own drawing is used: corners left square, fractional sides, or a side too small or
    too big for a mask to pay (``Draw.rounded_rectangle``; ``kit_scene`` records the blits)."""
    box = tuple(xy) if len(xy) == 4 else None
    edge = 2 * width + 2  # a box thinner than its outline: Pillow draws past it, leave it to Pillow
    if corners is not None or box is None or not all(type(v) is int for v in box) or \
            not edge <= box[2] - box[0] <= _MASKED_SIDE or not edge <= box[3] - box[1] <= _MASKED_SIDE or \
            type(radius) is not int:
        return None
    x0, y0, x1, y1 = box
    fill_mask, outline_mask = _rounded_masks(x1 - x0, y1 - y0, radius, width if outline is not None else 0,
                                             fill is not None)
    parts: list[Blit] = []
    if fill_mask is not None:
        parts.append(((x0, y0), fill_mask, fill))
    if outline_mask is not None:
        parts.append(((x0, y0), outline_mask, outline))
    return parts


_MASKED_SIDE = 160
"""Above this many pixels a side, a mask blit (cost ~ area) is slower than Pillow's slices."""


@lru_cache(maxsize=512)
def _rounded_masks(w: int, h: int, radius: int, width: int, filled: bool) -> tuple[Image.Image | None,
                                                                                 Image.Image | None]:
    """Where Pillow's rounded rectangle (0, 0, w, h) puts its fill and its outline, as masks."""
    shape = Image.new("L", (w + 1, h + 1), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w, h), radius, fill=1 if filled else None,
                                            outline=2 if width else None, width=width)
    fill_mask = shape.point([255 if v == 1 else 0 for v in range(256)]) if filled else None
    outline_mask = shape.point([255 if v == 2 else 0 for v in range(256)]) if width else None
    return fill_mask, outline_mask


# -- output ----------------------------------------------------------------------------

PNG_LEVEL = 2
"""zlib level for palette pictures (bench/render_krosmaster.py boards): 2.5 ms and 47 KiB.
Level 1 is 3% faster but 9% bigger; level 3 costs 17% more time to save another 8%."""


def to_png(image: Image.Image, *, palette: Palette | bool = True, level: int = PNG_LEVEL) -> bytes:
    """Encode as PNG with no metadata (no time, no text chunks), so bytes depend on pixels only.

    ``palette`` is the picture's fixed palette (``kit_palette.Palette``): every colour
    the renderer draws comes back exact, and a palette picture encodes ~5x faster than
    RGB. ``True`` (for pictures without a declared palette) picks 256 colours per picture
    with Pillow's fast octree, ~10 ms for a board; ``False`` keeps RGB.
    """
    if isinstance(palette, Palette):
        image = palette.quantize(image)
    elif palette and image.mode in ("RGB", "RGBA"):
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if kit_png.suits(image):  # bands seen in earlier pictures are not compressed again
        return kit_png.encode(image, level=level)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()
