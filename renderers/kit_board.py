"""Square boards: grid geometry, edge coordinates, tokens with HP strips, square highlights.

Shared by every game drawn on a square grid. Sizes come in as canvas pixels chosen by the
game through ``kit.Scale``, so these helpers never decide how big text is, only where it
goes; the caller passes ``kit.Scale.min_text`` or more.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import RGB, Box


def column_label(col: int) -> str:
    return chr(ord("A") + col)


def parse_label(label: str) -> tuple[int, int] | None:
    """``"C7"`` to ``(2, 6)``; None for anything that is not a square label."""
    text = label.strip().upper()
    if not 2 <= len(text) <= 6 or not text[0].isalpha() or not (text[1:].isdecimal() and text.isascii()):
        return None
    return ord(text[0]) - ord("A"), int(text[1:]) - 1


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

    def squares(self) -> Iterator[tuple[int, int]]:
        for row in range(self.rows):
            for col in range(self.cols):
                yield col, row

    def contains(self, square: tuple[int, int]) -> bool:
        return 0 <= square[0] < self.cols and 0 <= square[1] < self.rows

    def parse(self, labels: Iterable[str]) -> list[tuple[int, int]]:
        """The squares of ``labels`` that lie on this grid; anything else is skipped."""
        result = []
        for label in labels:
            square = parse_label(label)
            if square is not None and self.contains(square):
                result.append(square)
        return result


def draw_coordinates(draw: ImageDraw.ImageDraw, grid: Grid, size: int, fill: RGB = kit.INK, margin: int = 0) -> None:
    """Column letters above and below, row numbers left and right of the grid.

    All four edges are labelled: a player reading a square near the far edge should not
    have to trace a line across the board (that is where misreadings happen).
    """
    gap = margin // 2 if margin else size
    for col in range(grid.cols):
        x = grid.left + col * grid.cell + grid.cell / 2
        kit.draw_text(draw, (x, grid.top - gap), column_label(col), size, fill, anchor="mm", bold=True)
        kit.draw_text(draw, (x, grid.bottom + gap), column_label(col), size, fill, anchor="mm", bold=True)
    for row in range(grid.rows):
        y = grid.top + row * grid.cell + grid.cell / 2
        kit.draw_text(draw, (grid.left - gap, y), str(row + 1), size, fill, anchor="mm", bold=True)
        kit.draw_text(draw, (grid.right + gap, y), str(row + 1), size, fill, anchor="mm", bold=True)


# -- tokens ----------------------------------------------------------------------------


def strip_height(size: int) -> int:
    """Height of a token's HP strip that holds a number of ``size`` px (its digits, no more)."""
    return round(size * 0.8) + 2


def draw_hp_strip(draw: ImageDraw.ImageDraw, box: Box, wounds: int, hp: int, size: int) -> None:
    """HP left as a number on a two-tone bar: green for life left, dark grey for wounds.

    Why a number: at Discord's preview size a bar of 16 ticks is a thin line; "5" is read
    at a glance, and the split still shows how hurt the piece is. Lightness, not hue,
    separates the two parts, so the bar reads in greyscale too.
    """
    x0, y0, x1, y1 = box
    hp = max(hp, 1)
    left = max(0, hp - max(0, wounds))
    radius = max(2, (y1 - y0) // 3)
    draw.rounded_rectangle(box, radius=radius, fill=kit.HP_LOST, outline=kit.INK_DARK)
    split = x0 + 1 + round((x1 - x0 - 2) * left / hp)
    if left:
        draw.rounded_rectangle((x0 + 1, y0 + 1, max(x0 + 1 + 2 * radius, split), y1 - 1), radius=radius,
                               fill=kit.HP_LEFT)
    kit.draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), str(left), size, kit.INK, anchor="mm",
                  outline=kit.INK_DARK)


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
    show_hp: bool = True,
    label_room: int = 0,
) -> None:
    """A piece: a disc (or rounded square) in the team colour, its short name, its HP left.

    Two shapes let teams differ by outline as well as colour; the name carries a dark
    outline so it reads on any team colour and may spill over the token's rim up to
    ``label_room`` px (its square); only a name longer than that (``STO2``) shrinks.
    ``ring`` recolours the token's edge (active piece).
    """
    x0, y0, x1, y1 = box
    w = x1 - x0
    strip = strip_height(size) if show_hp else 0
    edge, edge_w = (ring, max(3, w // 14)) if ring is not None else (kit.INK_DARK, 2)
    if shape == "circle":
        draw.ellipse(box, fill=colour, outline=edge, width=edge_w)
    else:
        draw.rounded_rectangle(box, radius=w // 5, fill=colour, outline=edge, width=edge_w)
    stroke = kit.outline_width(size)
    room = max(w - 2, label_room)
    label_size = kit.fit_size(short, size, room, minimum=max(10, size * 2 // 3), stroke=stroke)
    cy = (y0 + y1 - strip) / 2 + 1
    kit.draw_text(draw, ((x0 + x1) / 2, cy), kit.fit(short, label_size, room, stroke), label_size, kit.INK,
                  anchor="mm", outline=kit.INK_DARK)
    if show_hp:
        draw_hp_strip(draw, (x0 + 1, y1 - strip, x1 - 1, y1), wounds, hp, size)


# -- square highlights -----------------------------------------------------------------


def tint(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, alpha: float) -> None:
    """Fill a square with a see-through colour (``draw`` must be an RGBA draw)."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=kit.rgba(colour, alpha))


@lru_cache(maxsize=32)
def _hatch_mask(width: int, height: int, step: int, line: int, alpha: int) -> Image.Image:
    """Diagonal stripes as a greyscale mask, cached: every hatched square of a size is the same."""
    mask = Image.new("L", (width, height), 0)
    d = ImageDraw.Draw(mask)
    for c in range(-height, width + height, step):
        d.line((c, height, c + height, 0), fill=alpha, width=line)
    return mask


def hatch(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, alpha: float, step: int, line: int) -> None:
    """Diagonal stripes over a square: a pattern, so it cannot be mistaken for any flat fill."""
    x0, y0, x1, y1 = box
    draw.bitmap((x0, y0), _hatch_mask(x1 - x0, y1 - y0, step, line, round(alpha * 255)), fill=colour)


def frame(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int) -> None:
    """A border with a thin dark line inside, so it reads on sand, grass and tokens alike."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=colour, width=width)
    draw.rectangle((x0 + width, y0 + width, x1 - width, y1 - width), outline=kit.INK_DARK, width=1)


def mark(draw: ImageDraw.ImageDraw, box: Box, width: int = 3) -> None:
    """Black then white frame: "this square", e.g. the squares of the last action."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=kit.INK_DARK, width=width)
    draw.rectangle((x0 + width, y0 + width, x1 - width, y1 - width), outline=kit.INK, width=width)


def active_frame(draw: ImageDraw.ImageDraw, box: Box, cell: int) -> None:
    """A thick yellow block spilling over the grid lines: the first thing the eye finds.

    Drawn before the pieces, so a neighbour's token stays whole on top of it; its dark
    edge keeps it apart from sand for readers who see yellow and sand alike (tritanopia).
    """
    x0, y0, x1, y1 = box
    out = max(4, cell // 12)
    draw.rectangle((x0 - out - 2, y0 - out - 2, x1 + out + 2, y1 + out + 2), fill=kit.HIGHLIGHT,
                   outline=kit.INK_DARK, width=2)


def crosshair(draw: ImageDraw.ImageDraw, box: Box, cell: int) -> None:
    """Corner brackets on the chosen target: visible without hiding the token inside."""
    x0, y0, x1, y1 = box
    arm = cell // 3
    for w, colour in ((7, kit.INK_DARK), (3, kit.INK)):
        for cx, cy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            draw.line((cx, cy, cx + dx * arm, cy), fill=colour, width=w)
            draw.line((cx, cy, cx, cy + dy * arm), fill=colour, width=w)
