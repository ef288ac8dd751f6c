"""Shared drawing kit for every game renderer (DESIGN.md §6).

Renderers are pure functions from a state to PNG bytes, so this module only holds
stateless helpers and caches keyed by immutable inputs. Why a kit at all: every board
picture must read the same way in a Discord chat (shown ~400-550 px wide), so the
palette, the fonts, the coordinate labels, tokens, bars and the title bar are shared.

Colours come from the Okabe-Ito palette, which stays distinguishable for the common
colour-vision deficiencies; on top of that every meaning carried by a colour is also
carried by a shape, a letter or a number, so nothing relies on hue alone.
Text uses Pillow's bundled scalable font (``ImageFont.load_default(size=N)``), so no
font file ships and output is identical wherever Pillow's FreeType build is the same.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

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
HIGHLIGHT: RGB = OKABE_ITO["yellow"]
HP_LEFT: RGB = OKABE_ITO["bluish_green"]
HP_LOST: RGB = (70, 70, 74)


def team_colour(seat: int) -> RGB:
    """The colour of a seat; seats beyond four reuse the palette (no game seats that many)."""
    return TEAM_COLOURS[seat % len(TEAM_COLOURS)]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend ``a`` towards ``b`` by ``t`` (0..1); used for tints without alpha compositing."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def text_on(colour: RGB) -> RGB:
    """Black or white text, whichever contrasts more with ``colour`` (WCAG relative luminance)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * channel(colour[0]) + 0.7152 * channel(colour[1]) + 0.0722 * channel(colour[2])
    return INK_DARK if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else INK


# -- text ------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """Pillow's bundled scalable font at ``size`` px; cached because loading costs ~1 ms."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, stroke: int = 0) -> int:
    """Advance width in px; cached because layout is recomputed for every fit and column."""
    left, _top, right, _bottom = font(size).getbbox(text, stroke_width=stroke)
    return int(right - left)


def fit_size(text: str, size: int, max_width: int, minimum: int = 10) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``max_width`` px."""
    while size > minimum and text_width(text, size) > max_width:
        size -= 1
    return size


@lru_cache(maxsize=4096)
def _glyph_masks(text: str, size: int, stroke: int, anchor: str) -> tuple[int, int, Image.Image, Image.Image | None]:
    """Greyscale masks of ``text`` (and of its stroke), with their offset from the anchor.

    Rasterising text is the slowest part of a snapshot (a stroked label costs ~1-4 ms);
    most labels repeat from one snapshot to the next, so the masks are cached and each
    draw is a blit. The masks are what Pillow itself would draw, so the result matches.
    """
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=stroke))
    w, h = max(1, right - left), max(1, bottom - top)
    fill_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(fill_mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    stroke_mask = None
    if stroke:
        stroke_mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(stroke_mask).text((-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=stroke,
                                         stroke_fill=255)
    return left, top, fill_mask, stroke_mask


def fit(text: str, size: int, max_width: int) -> str:
    """Shorten ``text`` with an ellipsis so it fits ``max_width`` px (names come from users)."""
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…" if text else ""


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
) -> None:
    """Text with optional fake bold (a stroke in the same colour) or a contrasting outline.

    The bundled font has no bold face; a 1 px stroke in the text colour reads as bold and
    keeps small labels legible once Discord scales the picture down.
    """
    if not text:
        return
    stroke = max(2, size // 9) if outline is not None else (1 if bold else 0)
    left, top, fill_mask, stroke_mask = _glyph_masks(text, size, stroke, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    if stroke_mask is not None:
        draw.bitmap((x, y), stroke_mask, fill=outline if outline is not None else fill)
    draw.bitmap((x, y), fill_mask, fill=fill)


def pill(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, text: str, size: int, *, outline: RGB | None = None) -> None:
    """A rounded label in a solid colour, text in black or white for contrast."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=(y1 - y0) // 2, fill=colour, outline=outline, width=2 if outline else 0)
    room = x1 - x0 - (y1 - y0)
    size = fit_size(text, size, room, minimum=max(10, size * 2 // 3))
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), fit(text, size, room), size, text_on(colour), anchor="mm",
              bold=True)


# -- boards ----------------------------------------------------------------------------


def column_label(col: int) -> str:
    return chr(ord("A") + col)


@dataclass(frozen=True)
class Grid:
    """Where a square grid sits on the canvas; row 0 is drawn at the top ("north")."""

    left: int
    top: int
    cell: int
    cols: int
    rows: int

    @property
    def right(self) -> int:
        return self.left + self.cell * self.cols

    @property
    def bottom(self) -> int:
        return self.top + self.cell * self.rows

    def box(self, col: int, row: int, inset: int = 0) -> Box:
        x = self.left + col * self.cell
        y = self.top + row * self.cell
        return (x + inset, y + inset, x + self.cell - inset, y + self.cell - inset)

    def centre(self, col: int, row: int) -> tuple[int, int]:
        return (self.left + col * self.cell + self.cell // 2, self.top + row * self.cell + self.cell // 2)

    def squares(self) -> Iterable[tuple[int, int]]:
        for row in range(self.rows):
            for col in range(self.cols):
                yield col, row


def parse_label(label: str) -> tuple[int, int] | None:
    """``"C7"`` to ``(2, 6)``; None for anything that is not a square label."""
    text = label.strip().upper()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    return ord(text[0]) - ord("A"), int(text[1:]) - 1


def draw_coordinates(draw: ImageDraw.ImageDraw, grid: Grid, size: int, fill: RGB = INK, margin: int = 0) -> None:
    """Column letters above and below, row numbers left and right of the grid.

    All four edges are labelled: a player reading a square near the far edge should not
    have to trace a line across the board (that is where misreadings happen).
    """
    gap = margin // 2 if margin else size
    for col in range(grid.cols):
        x = grid.left + col * grid.cell + grid.cell / 2
        draw_text(draw, (x, grid.top - gap), column_label(col), size, fill, anchor="mm", bold=True)
        draw_text(draw, (x, grid.bottom + gap), column_label(col), size, fill, anchor="mm", bold=True)
    for row in range(grid.rows):
        y = grid.top + row * grid.cell + grid.cell / 2
        draw_text(draw, (grid.left - gap, y), str(row + 1), size, fill, anchor="mm", bold=True)
        draw_text(draw, (grid.right + gap, y), str(row + 1), size, fill, anchor="mm", bold=True)


def draw_hp_bar(draw: ImageDraw.ImageDraw, box: Box, wounds: int, hp: int) -> None:
    """Remaining life in green, wounds in dark grey, one tick per point when they fit.

    Lightness (not hue) separates the two parts, so the bar reads in greyscale too.
    """
    x0, y0, x1, y1 = box
    hp = max(hp, 1)
    left = max(0, hp - max(0, wounds))
    draw.rectangle(box, fill=HP_LOST, outline=INK_DARK)
    split = x0 + 1 + round((x1 - x0 - 2) * left / hp)
    if left:
        draw.rectangle((x0 + 1, y0 + 1, split, y1 - 1), fill=HP_LEFT)
    step = (x1 - x0 - 2) / hp
    if step >= 4:
        for i in range(1, hp):
            x = round(x0 + 1 + step * i)
            draw.line((x, y0 + 1, x, y1 - 1), fill=INK_DARK)


def draw_token(
    draw: ImageDraw.ImageDraw,
    box: Box,
    colour: RGB,
    short: str,
    *,
    wounds: int = 0,
    hp: int = 1,
    shape: str = "circle",
    size: int = 24,
    ring: RGB | None = None,
) -> None:
    """A piece: a disc (or rounded square) in the team colour, its short name, a wound bar.

    Two shapes let teams differ by outline as well as colour; the name carries a dark
    outline so it reads on any team colour and after downscaling, and shrinks only when
    a long name (``STO2``) would not fit. ``ring`` recolours the token's edge (active piece).
    """
    x0, y0, x1, y1 = box
    w = x1 - x0
    bar_h = max(7, w // 7)
    body = (x0, y0, x1, y1 - bar_h - 1)
    edge, edge_w = (ring, max(3, w // 14)) if ring is not None else (INK_DARK, 2)
    if shape == "circle":
        draw.ellipse(body, fill=colour, outline=edge, width=edge_w)
    else:
        draw.rounded_rectangle(body, radius=w // 6, fill=colour, outline=edge, width=edge_w)
    cx, cy = (body[0] + body[2]) / 2, (body[1] + body[3]) / 2
    label_size = fit_size(short, size, w - 6)
    draw_text(draw, (cx, cy + 1), fit(short, label_size, w - 4), label_size, INK, anchor="mm", outline=INK_DARK)
    draw_hp_bar(draw, (x0, y1 - bar_h, x1, y1), wounds, hp)


# -- page furniture --------------------------------------------------------------------


def draw_title_bar(
    draw: ImageDraw.ImageDraw,
    box: Box,
    title: str,
    subtitle: str,
    active: str | None = None,
    active_colour: RGB | None = None,
    *,
    size: int = 28,
) -> None:
    """Game and round on the left, the active player as a big coloured pill on the right."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=BACKGROUND)
    draw.line((x0, y1 - 1, x1, y1 - 1), fill=PANEL_LINE, width=2)
    mid = (y0 + y1) / 2
    draw_text(draw, (x0 + 16, mid), title, size, INK, anchor="lm", bold=True)
    tx = x0 + 16 + text_width(title, size, 1) + 18
    draw_text(draw, (tx, mid), subtitle, size - 4, SUBTLE, anchor="lm")
    if active and active_colour is not None:
        width = min(max(text_width(active, size, 1) + 2 * (y1 - y0), 200), (x1 - x0) // 2)
        pill(draw, (x1 - 12 - width, y0 + 8, x1 - 12, y1 - 8), active_colour, active, size, outline=INK)


@dataclass
class Panel:
    """A text column with a moving cursor, so renderers stack lines without pixel sums."""

    draw: ImageDraw.ImageDraw
    left: int
    top: int
    width: int
    y: int = 0

    def __post_init__(self) -> None:
        self.y = self.top

    def text(self, text: str, size: int, fill: RGB = INK, *, bold: bool = False, indent: int = 0,
             gap: int = 4) -> None:
        draw_text(self.draw, (self.left + indent, self.y), fit(text, size, self.width - indent), size, fill,
                  bold=bold)
        self.y += size + gap

    def banner(self, text: str, colour: RGB, size: int, *, height: int | None = None, sub: str | None = None,
               sub_size: int = 18) -> None:
        """A filled block in ``colour``: used for whose turn it is, the loudest fact on the page."""
        h = height or (size + 20 + (sub_size + 6 if sub else 0))
        self.draw.rounded_rectangle((self.left, self.y, self.left + self.width, self.y + h), radius=10,
                                    fill=colour, outline=INK, width=2)
        ink = text_on(colour)
        cy = self.y + 10 + size / 2
        big = fit_size(text, size, self.width - 24, minimum=max(12, size * 2 // 3))  # shrink before cutting
        draw_text(self.draw, (self.left + self.width / 2, cy), fit(text, big, self.width - 20), big, ink,
                  anchor="mm", bold=True)
        if sub:
            draw_text(self.draw, (self.left + self.width / 2, cy + size / 2 + 6 + sub_size / 2),
                      fit(sub, sub_size, self.width - 20), sub_size, ink, anchor="mm")
        self.y += h + 8

    def rule(self, gap: int = 8) -> None:
        self.draw.line((self.left, self.y + gap // 2, self.left + self.width, self.y + gap // 2), fill=PANEL_LINE,
                       width=1)
        self.y += gap

    def space(self, px: int) -> None:
        self.y += px


def draw_legend(
    draw: ImageDraw.ImageDraw,
    left: int,
    top: int,
    width: int,
    entries: Sequence[tuple[object, str]],
    *,
    size: int = 16,
    swatch: int = 20,
) -> int:
    """Swatches with labels, wrapped in rows; returns the height used.

    An entry's first item is a colour, or a callable ``(draw, box) -> None`` that paints
    the same glyph the board uses, so the legend cannot drift from the drawing.
    """
    x, y = left, top
    row_h = max(size, swatch) + 8
    for painter, label in entries:
        w = swatch + 6 + text_width(label, size) + 16
        if x > left and x + w > left + width:
            x, y = left, y + row_h
        box = (x, y, x + swatch, y + swatch)
        if callable(painter):
            painter(draw, box)
        else:
            draw.rectangle(box, fill=painter, outline=INK_DARK)  # type: ignore[arg-type]
        draw_text(draw, (x + swatch + 6, y + swatch / 2), label, size, INK, anchor="lm")
        x += w
    return y + row_h - top


# -- output ----------------------------------------------------------------------------

PNG_LEVEL = 3
"""zlib level 3 is the strongest of zlib's fast strategy: ~20% bigger files than 6 at half
the encoding time, and encoding is most of a snapshot's cost."""


def to_png(image: Image.Image, *, palette: bool = True, level: int = PNG_LEVEL) -> bytes:
    """Encode as PNG with no metadata (no time, no text chunks), so bytes depend on pixels only.

    ``palette`` first reduces the picture to 256 colours (fast octree, no dithering):
    these drawings hold a few thousand colours, mostly anti-aliasing, so the loss is
    invisible (mean error < 1/255, flat colours exact) while the file is ~2.5x smaller
    and encoding is faster than deflating full RGB. Quantizing is deterministic.
    """
    if palette and image.mode in ("RGB", "RGBA"):
        image = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()
