"""Text and chips drawn as flat fills where the caller knows what lies under them (issue 28).

Why: blitting a text's anti-aliased mask blends every pixel of its box, four channels each, with what
lies below (Pillow's ``fill_mask_L``): ~25 µs for a 300 x 22 px label, and a Warlord table draws ~120
texts. Where the colour under a text is known, what each pixel becomes is known before drawing: the
ink where the mask is full, one fixed blend of ink and ground per coverage level
(``kit.COVERAGE_LEVELS``) elsewhere. So the mask is cut once into one two-level ("1") mask per colour
it gives (``_cut``, ``_inks``), and the text is drawn as flat fills: on an RGB picture pasted at once
from a swatch (``_sprite``: one pass, no arithmetic), on a palette picture as one paste of their
indexes (``kit_palette_draw.Draw.fills``), on a recorder as blits. Rounded rectangles (chips) are
two-level masks already (``kit.rounded_parts``) and are drawn the same way; a chip's text knows its
ground from the chip's own masks.

Why the pixels are the same: each blend colour is computed by Pillow's own blit of that level over
a pixel of the ground, and only where the ground is known: a caller names a rectangle (``Ground``)
in which nothing but that colour has been drawn yet, and the pixels of a text outside it (a
descender below a chip, a line's top under the line above) are blended the kit's way. ``blended()``
draws every text and chip the kit's way; the games' tests compare their pictures drawn both ways
pixel for pixel. A ``kit.Draw``, a ``kit_palette_draw.Draw``, a ``kit_scene.Recorder`` or a
``kit.Shifted`` takes the fills (``blits``, ``fills``, else ``bitmap``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from renderers import kit, kit_bytes, kit_glyphs, kit_masks, kit_panel
from renderers.kit import RGB, Box

Ground = tuple[RGB, Box]
"""A colour and the rectangle (inclusive corners) where nothing but it has been drawn yet."""
Geometry = tuple[Any, ...]
"""Where a text's ground is known, relative to the text's mask: ("rect", x0, y0, x1, y1), or
("chip", dx, dy, width, height, radius, outline width, filled) for a chip at (dx, dy)."""
Flat = tuple[tuple[Image.Image, int, int, int], ...]
"""Two-level masks with what their pixels get: (mask, ground class, stroke level, fill level)."""
Loose = tuple[tuple[Image.Image, int, int, bool], ...]
"""Cropped masks of the pixels over an unknown ground: (mask, x, y, is the stroke), blended."""

_blended: ContextVar[bool] = ContextVar("kit_ink_blended", default=False)
_INDEX = [kit.COVERAGE_LEVELS.index(v) if v in kit.COVERAGE_LEVELS else 0 for v in range(256)]
_INDEX4 = [4 * i for i in _INDEX]
_CLASS16 = [(16 * v) & 255 for v in range(256)]
_ONE_GROUND = [v + 16 if v else 0 for v in range(256)]
_NONZERO = [255 if v else 0 for v in range(256)]
_IS = [[255 if v == value else 0 for v in range(256)] for value in range(64)]
"""``_IS[value]``: a look-up table keeping the pixels equal to ``value`` (a key is below 64)."""


@contextmanager
def blended() -> Iterator[None]:
    """Draw every text and chip of this module as the kit does (tests compare the two pictures)."""
    token = _blended.set(True)
    try:
        yield
    finally:
        _blended.reset(token)


_point = kit_masks.table_point  # (Pillow's own rounding of the table was most of the cost of cutting a new text)


def _levels(text: str, size: int, stroke: int, anchor: str, outlined: bool) -> tuple[int, int, Image.Image,
                                                                                    Image.Image | None, Image.Image]:
    """The glyph masks (``kit._glyph_masks``) and a key image of what each pixel gets from the text:
    4 x stroke level + fill level (indexes of ``kit.COVERAGE_LEVELS``); a bold text blits only its
    stroke, in its own colour, and a plain one only its fill (``kit.draw_text``)."""
    left, top, fill_mask, stroke_mask = kit._glyph_masks(text, size, stroke, anchor)
    if stroke_mask is not None and outlined:
        key = ImageChops.add(_point(stroke_mask, _INDEX4), _point(fill_mask, _INDEX))
    elif stroke_mask is not None:
        key = _point(stroke_mask, _INDEX4)
    else:
        key = _point(fill_mask, _INDEX)
    return left, top, fill_mask, stroke_mask, key


def _classes(geometry: Geometry, size: tuple[int, int]) -> Image.Image:
    """Per pixel of a text's mask: 0 where its ground is unknown, else which ground (1: the rectangle's
    or the chip's fill, 2: the chip's outline)."""
    classes = Image.new("L", size, 0)
    if geometry[0] == "rect":
        ImageDraw.Draw(classes).rectangle(geometry[1:], fill=1)
        return classes
    _kind, dx, dy, width, height, radius, outline, filled = geometry
    fill_mask, outline_mask = kit._rounded_masks(width, height, radius, outline, filled)
    for value, mask in ((1, fill_mask), (2, outline_mask)):  # the outline is drawn over the fill
        if mask is not None:
            classes.paste(value, (-dx, -dy), mask)
    return classes


@lru_cache(maxsize=512)
def _cut(text: str, size: int, stroke: int, anchor: str, outlined: bool, geometry: Geometry | None
         ) -> tuple[int, int, int, int, Flat, Loose]:
    """``text``'s masks cut by what each pixel gets: (left, top, width, height, flat, loose).

    ``geometry`` None: the whole text lies on one known ground."""
    left, top, fill_mask, stroke_mask, key = _levels(text, size, stroke, anchor, outlined)
    width, height = key.size
    if geometry is None:  # one ground under it all (class 1)
        coded = _point(key, _ONE_GROUND)
    else:
        classes = _classes(geometry, key.size)
        coded = ImageChops.add(key, _point(classes, _CLASS16))
    flat = []
    for _count, value in sorted(coded.getcolors(256) or [], reverse=True):  # the largest part first
        ground, inked = divmod(value, 16)
        if ground and inked:
            flat.append((_point(coded, _IS[value], "1"), ground, inked // 4, inked % 4))
    loose: list[tuple[Image.Image, int, int, bool]] = []
    if geometry is None:
        return left, top, width, height, tuple(flat), tuple(loose)
    unknown = _point(classes, _IS[0])
    for mask, is_stroke in ((stroke_mask, True), (fill_mask, False)):
        if mask is None or (not is_stroke and stroke_mask is not None and not outlined):
            continue
        part = ImageChops.multiply(mask, unknown)
        box = part.getbbox()
        if box is not None:
            loose.append((part.crop(box), box[0], box[1], is_stroke))
    return left, top, width, height, tuple(flat), tuple(loose)


@lru_cache(maxsize=4096)
def _colour(ground: RGB, first: RGB | None, first_level: int, second: RGB, second_level: int) -> RGB:
    """The colour Pillow gives a pixel of ``ground`` under a blit of ``first`` at ``first_level`` (an
    index of ``kit.COVERAGE_LEVELS``), then of ``second`` at ``second_level``: computed by Pillow."""
    pixel = Image.new("RGB", (1, 1), ground)
    draw = kit.Draw(pixel)
    if first is not None and first_level:
        draw.bitmap((0, 0), Image.new("L", (1, 1), kit.COVERAGE_LEVELS[first_level]), fill=first)
    if second_level:
        draw.bitmap((0, 0), Image.new("L", (1, 1), kit.COVERAGE_LEVELS[second_level]), fill=second)
    return pixel.getpixel((0, 0))  # type: ignore[return-value]


def _blit(draw: Any, xy: tuple[int, int], height: int, parts: tuple[tuple[Image.Image, Any], ...]) -> None:
    blits = getattr(draw, "blits", None)  # a kit_scene.Recorder keeps them as one command
    fills = getattr(draw, "fills", None)  # a palette picture pastes two-level masks at once
    if blits is not None:
        blits(xy, height, parts)
    elif fills is not None and len(parts) > 1 and all(mask.mode == "1" for mask, _colour in parts):
        fills(xy, parts)
    else:
        for mask, colour in parts:
            draw.bitmap(xy, mask, fill=colour)


INK_BYTES = 8 << 20
"""Heap bytes of texts' inks kept per process, their masks counted (``kit_bytes``): 4,096 by count kept the
cut masks alive past ``_cut``'s own cache, ~10 KB each, ~12 MB a render worker after 1,500 tables; 3 MB
missed 8 times as often (a quarter of the look-ups) and cost pictures ~1-2 ms each."""


@kit_bytes.cached(INK_BYTES)
def _inks(text: str, size: int, stroke: int, anchor: str, fill: RGB, outline: RGB | None, grounds: tuple[RGB, ...],
          geometry: Geometry | None) -> Inks:
    """What drawing ``text`` over ``grounds`` takes: the flat fills (mask, colour) and the blends of the
    pixels over an unknown ground (cropped mask, x, y, colour), in the kit's order (``_cut``)."""
    _left, _top, _width, _height, flat, loose = _cut(text, size, stroke, anchor, outline is not None, geometry)
    if outline is not None:
        parts = tuple((mask, _colour(grounds[ground - 1], outline, s, fill, f)) for mask, ground, s, f in flat)
    else:  # a bold stroke is blitted in the text's own colour
        parts = tuple((mask, _colour(grounds[ground - 1], None, 0, fill, s or f)) for mask, ground, s, f in flat)
    stroke_ink = outline if outline is not None else fill
    return parts, tuple((mask, dx, dy, stroke_ink if is_stroke else fill) for mask, dx, dy, is_stroke in loose)


Inks = tuple[tuple[tuple[Image.Image, RGB], ...], tuple[tuple[Image.Image, int, int, RGB], ...]]


@lru_cache(maxsize=512)
def _sprite(key: tuple[Any, ...]) -> tuple[Image.Image, Image.Image] | None:
    """What the flat fills of ``_inks(*key)`` write, as one RGB picture and the mask of the pixels written:
    pasted on an RGB picture at once, one pass instead of one per colour (``_draw_inks``). A text on one
    ground is drawn on a swatch of it the kit's way, which gives those very colours (``_colour``).
    ~5 bytes a pixel: fewer kept than the cuts, which a palette picture pastes from (``Draw.fills``)."""
    text, size, stroke, anchor, fill, outline, grounds, geometry = key
    if geometry is None:
        _left, _top, fill_mask, stroke_mask = kit._glyph_masks(text, size, stroke, anchor)
        sprite = Image.new("RGB", fill_mask.size, grounds[0])
        swatch = kit.Draw(sprite)
        if stroke_mask is not None:
            swatch.bitmap((0, 0), stroke_mask, fill=outline if outline is not None else fill)
        if outline is not None or stroke_mask is None:
            swatch.bitmap((0, 0), fill_mask, fill=fill)
        inked = fill_mask if stroke_mask is None else \
            stroke_mask if outline is None else ImageChops.lighter(stroke_mask, fill_mask)
        return sprite, _point(inked, _NONZERO, "1")
    parts, _loose = _inks(*key)
    if not parts:
        return None
    size = parts[0][0].size
    sprite, written = Image.new("RGB", size), Image.new("1", size)
    for mask, colour in parts:
        sprite.paste(colour, (0, 0), mask)
        written.paste(1, (0, 0), mask)
    return sprite, written


def _draw_inks(draw: Any, x: int, y: int, height: int, key: tuple[Any, ...]) -> None:
    """The text ``_inks(*key)`` says, with its mask's top left at (x, y): on an RGB picture (a ``kit.Draw``)
    its flat fills pasted at once, on a palette picture (``kit_palette_draw.Draw``) as one paste of their
    indexes (or, over one colour, the copy of what it drew there before: ``Draw.on_one_colour``), on anything
    else (a recorder) as blits; then its blends, the kit's way."""
    if type(draw) is kit.Draw:
        sprite = _sprite(key)
        if sprite is not None:
            picture, written = sprite
            draw.im.paste(picture.im, (x, y, x + picture.width, y + picture.height), written.im)
        if key[-1] is None:  # all on one known ground: nothing blended
            return
        loose = _inks(*key)[1]
        _draw_loose(draw, x, y, loose)
        return
    parts, loose = _inks(*key)
    on_one_colour = getattr(draw, "on_one_colour", None)
    if on_one_colour is not None and parts:  # a palette picture: the same text over the same colour, copied
        width, tall = parts[0][0].size
        on_one_colour(("text", key), (x, y, x + width, y + tall), lambda: _draw_parts(draw, x, y, height, parts, loose),
                      key[6][0] if key[-1] is None else None)  # (no geometry: the whole box is on the ground)
        return
    _draw_parts(draw, x, y, height, parts, loose)


def _draw_parts(draw: Any, x: int, y: int, height: int, parts: tuple[tuple[Image.Image, Any], ...],
                loose: tuple[tuple[Image.Image, int, int, RGB], ...]) -> None:
    """A text's flat fills (``_inks``) at (x, y), then its blends."""
    fills = getattr(draw, "fills", None)
    if parts and fills is not None:
        fills((x, y), parts)
    elif parts:
        _blit(draw, (x, y), height, parts)
    _draw_loose(draw, x, y, loose)


def _draw_loose(draw: Any, x: int, y: int, loose: tuple[tuple[Image.Image, int, int, RGB], ...]) -> None:
    for mask, dx, dy, colour in loose:  # over what the caller did not know: the kit's blend
        _blit(draw, (x + dx, y + dy), mask.size[1], ((mask, colour),))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB = kit.INK,
              *, ground: Ground | None, anchor: str = "la", bold: bool = False, outline: RGB | None = None) -> Box:
    """``kit.draw_text`` with what lies under it: ``ground`` is a colour and the rectangle (inclusive)
    where nothing else has been drawn yet (None: drawn the kit's way). Same arguments, same pixels, same
    marks, and the box inked, to give the next line its ``ground``."""
    if ground is None or not text or _blended.get():
        return kit.draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold, outline=outline)
    colour, (rx0, ry0, rx1, ry1) = ground
    text = kit_glyphs.drawable(text)
    stroke = kit.outline_width(size) if outline is not None else (1 if bold else 0)
    left, top, fill_mask, _stroke = kit._glyph_masks(text, size, stroke, anchor)
    width, height = fill_mask.size
    x, y = round(xy[0]) + left, round(xy[1]) + top
    if rx0 <= x and ry0 <= y and x + width - 1 <= rx1 and y + height - 1 <= ry1:
        geometry: Geometry | None = None  # all on the ground: the common case, one cut per text
    else:
        x0, y0, x1, y1 = max(rx0 - x, 0), max(ry0 - y, 0), min(rx1 - x, width - 1), min(ry1 - y, height - 1)
        if x0 > x1 or y0 > y1:  # no pixel of it on the known ground
            return kit.draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold, outline=outline)
        geometry = ("rect", x0, y0, x1, y1)
    _draw_inks(draw, x, y, height, (text, size, stroke, anchor, fill, outline, (colour,), geometry))
    box = (x, y, x + width, y + height)
    kit.note("text", box, text, size)
    return box


def draw_label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB = kit.INK, *,
               anchor: str = "la", bold: bool = False, outline: RGB | None = None) -> Box:
    """``kit.draw_text`` of a short label that recurs where its caller cannot name the ground (a zoomed window's
    coordinates, a roster's health): on a palette picture, over one colour, the copy of what it drew there before
    (``Draw.on_one_colour``, which looks at the box first). Same arguments, pixels, marks and box.

    Why not every text (issue 28): the copies share one budget per process, and long or one-off lines (a log, a
    banner) would push out the labels that come back in every picture (tried: ``bench/README.md``, eighteenth
    session). A label's pixels depend on its words, size, stroke, anchor and colours, not on where it goes: the
    kit rounds its place to whole pixels."""
    on_one_colour = getattr(draw, "on_one_colour", None)
    if on_one_colour is None or not text or kit.is_recording():
        return kit.draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold, outline=outline)
    text = kit_glyphs.drawable(text)
    stroke = kit.outline_width(size) if outline is not None else (kit.BOLD_STROKE if bold else 0)
    left, top, fill_mask, _stroke = kit._glyph_masks(text, size, stroke, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    box = (x, y, x + fill_mask.width, y + fill_mask.height)
    on_one_colour(("label", text, size, stroke, anchor, fill, outline), box,
                  lambda: kit.draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold, outline=outline))
    return box


@lru_cache(maxsize=512)
def _rounded(w: int, h: int, radius: int, width: int, filled: bool, outlined: bool
             ) -> tuple[Image.Image | None, Image.Image | None] | None:
    """``kit._rounded_masks`` as two-level masks (they hold only 0 and 255: the same pixels), or None
    where the kit draws that rounded rectangle with Pillow's slices (``kit.rounded_parts``)."""
    if kit.rounded_parts((0, 0, w, h), radius, 1 if filled else None, 1 if outlined else None, width, None) is None:
        return None
    fill_mask, outline_mask = kit._rounded_masks(w, h, radius, width if outlined else 0, filled)
    return (fill_mask.convert("1") if fill_mask is not None else None,
            outline_mask.convert("1") if outline_mask is not None else None)


def rounded_rectangle(draw: Any, xy: Box, radius: int, fill: RGB | None = None, outline: RGB | None = None,
                      width: int = 1) -> bool:
    """``draw.rounded_rectangle`` with the kit's masks drawn as flat fills; returns whether it was drawn
    from masks (else by Pillow's slices, where ``kit.rounded_parts`` says masks do not pay)."""
    x0, y0, x1, y1 = xy
    masks = None if _blended.get() else _rounded(x1 - x0, y1 - y0, radius, width, fill is not None,
                                                    outline is not None)
    if masks is None or not all(type(v) is int for v in xy):
        draw.rounded_rectangle(xy, radius, fill, outline, width)
        return False
    fill_mask, outline_mask = masks
    parts: list[tuple[Image.Image, Any]] = []
    if fill_mask is not None:
        parts.append((fill_mask, fill))
    if outline_mask is not None:
        parts.append((outline_mask, outline))
    if parts:
        _blit(draw, (x0, y0), y1 - y0 + 1, tuple(parts))
    return True


def draw_chip(draw: ImageDraw.ImageDraw, x: int, y: int, chip: kit_panel.Chip, size: int) -> Box:
    """``kit_panel.draw_chip``, drawn as flat fills (same pixels, same marks); returns the box it inked: the
    chip's, and its text's where a descender hangs below it (what a ``Ground`` drawn next must leave out).

    On a palette picture a chip of words alone, over one colour, is the copy of what it drew there before
    (``Draw.on_one_colour``): its text is centred with ``round`` of a half pixel, so its key names the
    parity of its top."""
    if _blended.get():  # (the box is only read for grounds, which this mode does not use)
        box = kit_panel.draw_chip(draw, x, y, chip, size)
        return (box[0], box[1], box[2] + 1, box[3] + 1)
    on_one_colour = getattr(draw, "on_one_colour", None)
    if on_one_colour is None or chip.icon is not None or chip.strike or not chip.text or type(x) is not int \
            or type(y) is not int:
        return _draw_chip(draw, x, y, chip, size)
    w, h = kit_panel.chip_width(chip, size), kit_panel.chip_height(size)
    radius, width = max(4, h // 4), 2 if chip.outline else 0
    if _rounded(w, h, radius, width, True, chip.outline is not None) is None:  # drawn by Pillow's slices
        return _draw_chip(draw, x, y, chip, size)
    left, top, fill_mask, _stroke = kit._glyph_masks(kit_glyphs.drawable(chip.text), size, 1, "lm")
    tx0, ty0 = x + max(5, size // 4) + left, round(y + h / 2 + 1) + top
    inked = _union((x, y, x + w + 1, y + h + 1), (tx0, ty0, tx0 + fill_mask.size[0], ty0 + fill_mask.size[1]))
    on_one_colour(("chip", chip, size, y & 1), inked, lambda: _draw_chip(draw, x, y, chip, size))
    return inked


def _draw_chip(draw: ImageDraw.ImageDraw, x: int, y: int, chip: kit_panel.Chip, size: int) -> Box:
    """``draw_chip`` drawn: its rounded rectangle and icon, then its text."""
    w, h = kit_panel.chip_width(chip, size), kit_panel.chip_height(size)
    box = (x, y, x + w, y + h)
    radius, width = max(4, h // 4), 2 if chip.outline else 0
    masked = rounded_rectangle(draw, box, radius, chip.fill, chip.outline, width)
    pad = max(5, size // 4)
    tx = x + pad
    if chip.icon is not None:
        g = h - 4
        chip.icon(draw, (x + pad // 2 + 1, y + 2, x + pad // 2 + 1 + g, y + 2 + g))
        tx += g + (pad // 2 if chip.text else 0)
    inked = (box[0], box[1], box[2] + 1, box[3] + 1)  # Pillow draws the far sides too
    if chip.text:
        ink = chip.ink or kit.text_on(chip.fill)
        if masked and chip.icon is None:  # the chip's own masks say what lies under each pixel
            text = kit_glyphs.drawable(chip.text)
            left, top, fill_mask, _stroke = kit._glyph_masks(text, size, 1, "lm")
            tx0, ty0 = round(tx) + left, round(y + h / 2 + 1) + top
            geometry = ("chip", tx0 - x, ty0 - y, w, h, radius, width if chip.outline is not None else 0, True)
            rim = chip.outline if chip.outline is not None else chip.fill
            _draw_inks(draw, tx0, ty0, fill_mask.size[1], (text, size, 1, "lm", ink, None, (chip.fill, rim), geometry))
            text_box = (tx0, ty0, tx0 + fill_mask.size[0], ty0 + fill_mask.size[1])
            kit.note("text", text_box, text, size)
        else:
            text_box = kit.draw_text(draw, (tx, y + h / 2 + 1), chip.text, size, ink, anchor="lm", bold=True)
        inked = _union(inked, text_box)
    if chip.strike:
        draw.line((x - 2, y + h // 2, x + w + 2, y + h // 2), fill=kit.INK_DARK, width=max(2, size // 8))
        inked = _union(inked, (x - 2, y, x + w + 3, y + h + 1))
    kit.note("chip", box, chip.text, size)
    return inked


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
