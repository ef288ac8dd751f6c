"""The side column of a board picture: banner, chips laid out without overlap, legend, icons.

Why these shapes: at Discord's preview width the column is ~150 px wide, so every line is
precious. Text wraps instead of being cut, and chips (statuses, dice, tokens) *flow*: each
goes into the first free span of a line, and onto a new line when none is left, so a chip
never covers a name or a square label.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from renderers import kit
from renderers.kit import RGB, Box

Painter = Callable[[ImageDraw.ImageDraw, Box], None]
LegendEntry = tuple[Painter | RGB, str]


# -- icons -----------------------------------------------------------------------------


def paint_heart(draw: ImageDraw.ImageDraw, box: Box, colour: RGB = kit.OKABE_ITO["vermillion"]) -> None:
    """A heart: "HP" without a word, so a line keeps room for the numbers."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w / 4
    draw.ellipse((x0, y0, x0 + 2 * r + 1, y0 + 2 * r + 1), fill=colour)
    draw.ellipse((x1 - 2 * r - 1, y0, x1, y0 + 2 * r + 1), fill=colour)
    draw.polygon([(x0 + 0.3, y0 + r * 1.3), (x1 - 0.3, y0 + r * 1.3), (x0 + w / 2, y0 + h)], fill=colour)


# -- chips -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chip:
    """A small rounded label: a status, a die face, a token count, a reward.

    ``icon`` paints a glyph before the text (or alone, with empty text); ``strike`` draws
    a line through it (e.g. a die whose power is lost). Text is black or white, whichever
    reads on ``fill``, unless ``ink`` says otherwise.
    """

    text: str
    fill: RGB
    outline: RGB | None = None
    ink: RGB | None = None
    icon: Painter | None = None
    strike: bool = False


def chip_height(size: int) -> int:
    """A chip is as tall as its text plus a few px: lines of chips stack without wasting room."""
    return size + 4


def chip_width(chip: Chip, size: int) -> int:
    pad = max(5, size // 4)
    icon = chip_height(size) - 4 if chip.icon is not None else 0
    text = kit.text_width(chip.text, size, 1) if chip.text else 0
    return pad + icon + (pad // 2 if icon and text else 0) + text + pad


def draw_chip(draw: ImageDraw.ImageDraw, x: int, y: int, chip: Chip, size: int) -> Box:
    """Draw ``chip`` with its top-left at (x, y); returns its box (also recorded as a "chip")."""
    w, h = chip_width(chip, size), chip_height(size)
    box = (x, y, x + w, y + h)
    draw.rounded_rectangle(box, radius=max(4, h // 4), fill=chip.fill, outline=chip.outline,
                           width=2 if chip.outline else 0)
    pad = max(5, size // 4)
    tx = x + pad
    if chip.icon is not None:
        g = h - 4
        chip.icon(draw, (x + pad // 2 + 1, y + 2, x + pad // 2 + 1 + g, y + 2 + g))
        tx += g + (pad // 2 if chip.text else 0)
    if chip.text:
        kit.draw_text(draw, (tx, y + h / 2 + 1), chip.text, size, chip.ink or kit.text_on(chip.fill), anchor="lm",
                      bold=True)
    if chip.strike:
        draw.line((x - 2, y + h // 2, x + w + 2, y + h // 2), fill=kit.INK_DARK, width=max(2, size // 8))
    kit.note("chip", box, chip.text, size)
    return box


Span = tuple[int, int, int]  # x0, x1, y of free room on a line


def fits(widths: Sequence[int], x0: int, x1: int, gap: int) -> int:
    """How many of the leading items fit side by side between ``x0`` and ``x1``."""
    x, count = x0, 0
    for w in widths:
        if x + w > x1:
            break
        x += w + gap
        count += 1
    return count


def flow(widths: Sequence[int], spans: Iterable[Span], new_line: Callable[[int], Span], gap: int
         ) -> tuple[list[tuple[int, int]], int]:
    """Place items of ``widths`` left to right into free ``spans``, in order, never overlapping.

    Each item goes into the current span if it fits, else into the next span, else onto a
    new line (``new_line(n)`` gives the span of the n-th extra line). Returns the top-left
    of every item and how many extra lines were used. An item wider than a whole new line
    still gets a line of its own (it will overflow to the right, never onto text).
    """
    queue = list(spans)
    positions: list[tuple[int, int]] = []
    extra = 0
    x0 = x1 = y = cursor = 0
    fresh = started = False  # fresh: the current span is a whole new line
    for w in widths:
        while not started or cursor + w > x1:
            if started and fresh and cursor == x0:
                break  # wider than a whole line: alone on its line
            if queue:
                (x0, x1, y), fresh = queue.pop(0), False
            else:
                (x0, x1, y), fresh = new_line(extra), True
                extra += 1
            cursor, started = x0, True
        positions.append((cursor, y))
        cursor += w + gap
    return positions, extra


def flow_groups(groups: Sequence[Sequence[int]], x0: int, x1: int, gap: int, group_gap: int
                ) -> tuple[list[list[tuple[int, int]]], int]:
    """Lay out groups of items (a piece's card and its statuses) on lines from ``x0`` to ``x1``.

    A group starts on the current line only if it fits whole; a group wider than a line
    gets lines of its own, and the next group starts on a fresh line, so a status is
    never read as belonging to the group after it. Returns each item's (x, line index)
    and the number of lines.
    """
    result: list[list[tuple[int, int]]] = []
    line, cursor, shared = 0, x0, False  # shared: the current line already holds a group
    for widths in groups:
        total = sum(widths) + gap * max(0, len(widths) - 1)
        if shared and cursor + total > x1:
            line, cursor, shared = line + 1, x0, False
        places = []
        for w in widths:
            if cursor + w > x1 and cursor > x0:
                line, cursor = line + 1, x0
            places.append((cursor, line))
            cursor += w + gap
        result.append(places)
        if total > x1 - x0:  # it wrapped: the next group gets a fresh line
            line, cursor, shared = line + 1, x0, False
        else:
            cursor, shared = cursor - gap + group_gap, True
    lines = line + (1 if shared else 0)
    return result, lines


# -- text blocks -----------------------------------------------------------------------


def banner(draw: ImageDraw.ImageDraw, left: int, top: int, width: int, title: str, lines: Sequence[str],
           colour: RGB, size: int, sub_size: int, *, measure: bool = False) -> int:
    """A filled block in ``colour`` with a big title and wrapped lines below; returns its height.

    Used for the loudest fact on the page: whose turn it is and what they must do, or who
    won and why. Nothing in it is ever cut: the title shrinks (not below ``sub_size``),
    then wraps; the lines wrap. ``measure`` computes the height without drawing.
    """
    pad = max(6, size // 4)
    room = width - 2 * pad
    big = kit.fit_size(title, size, room, minimum=sub_size, stroke=1)
    heads = kit.wrap(title, big, room, 1)
    subs = [part for line in lines if line for part in kit.wrap(line, sub_size, room)]
    height = pad + len(heads) * kit.line_height(big) + len(subs) * kit.line_height(sub_size) + pad
    if measure:
        return height
    draw.rounded_rectangle((left, top, left + width, top + height), radius=pad, fill=colour, outline=kit.INK, width=2)
    ink = kit.text_on(colour)
    y = top + pad
    for line in heads:
        kit.draw_text(draw, (left + width / 2, y + kit.line_height(big) / 2), line, big, ink, anchor="mm", bold=True)
        y += kit.line_height(big)
    for line in subs:
        kit.draw_text(draw, (left + width / 2, y + kit.line_height(sub_size) / 2), line, sub_size, ink, anchor="mm")
        y += kit.line_height(sub_size)
    return height


def words_flow(items: Sequence[str], size: int, width: int, gap: int) -> list[list[tuple[int, str]]]:
    """Short facts ("Round 3 · Turn 6", "Wild GG: 1") side by side, wrapping as whole items.

    Returns lines of (x offset, text); an item longer than a line is itself word-wrapped.
    """
    lines: list[list[tuple[int, str]]] = [[]]
    x = 0
    for item in items:
        parts = kit.wrap(item, size, width) if kit.text_width(item, size, 1) > width else [item]
        for part in parts:
            w = kit.text_width(part, size, 1)
            if lines[-1] and x + w > width:
                lines.append([])
                x = 0
            lines[-1].append((x, part))
            x += w + gap
    return [line for line in lines if line]


# -- legend ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LegendItem:
    """A placed legend entry: x offset in its row, the entry, and its label's lines."""

    x: int
    entry: LegendEntry
    lines: tuple[str, ...]


LegendRow = list[LegendItem]


def legend_rows(entries: Sequence[LegendEntry], width: int, size: int, swatch: int) -> list[LegendRow]:
    """Entries (a painter or a colour, and a label) in rows that fit ``width``.

    A label too long for a whole row wraps under itself, so the legend never runs off its
    column nor ends in "…" ("Bomb (explodes at its summoner's turn)" in a narrow panel).
    """
    room = width - swatch - size // 3
    rows: list[LegendRow] = [[]]
    x = 0
    for entry in entries:
        label = entry[1]
        lines = tuple(kit.wrap(label, size, room)) if kit.text_width(label, size) > room else (label,)
        w = swatch + size // 3 + max(kit.text_width(line, size) for line in lines) + size
        if rows[-1] and (x + w - size > width or len(lines) > 1):
            rows.append([])
            x = 0
        rows[-1].append(LegendItem(x, entry, lines))
        x += w
        if len(lines) > 1:  # a wrapped entry keeps its rows to itself
            rows.append([])
            x = 0
    return [row for row in rows if row]


def legend_height(rows: Sequence[LegendRow], size: int, swatch: int) -> int:
    return sum(_row_height(row, size, swatch) for row in rows)


def _row_height(row: LegendRow, size: int, swatch: int) -> int:
    lines = max(len(item.lines) for item in row)
    return max(kit.line_height(size) * lines, swatch) + 2


def draw_legend(draw: ImageDraw.ImageDraw, left: int, top: int, rows: Sequence[LegendRow], size: int,
                swatch: int) -> int:
    """Draw legend rows from :func:`legend_rows`; returns the height used.

    A painter draws the same glyph the board uses, so the legend cannot drift from the
    drawing; a plain colour becomes a square swatch.
    """
    y = top
    lh = kit.line_height(size)
    for row in rows:
        row_h = _row_height(row, size, swatch)
        for item in row:
            painter = item.entry[0]
            sy = y + (min(row_h, lh + 2) - swatch) // 2
            box = (left + item.x, sy, left + item.x + swatch, sy + swatch)
            if callable(painter):
                painter(draw, box)
            else:
                draw.rectangle(box, fill=painter, outline=kit.INK_DARK)
            for i, line in enumerate(item.lines):
                kit.draw_text(draw, (left + item.x + swatch + size // 3, y + 1 + lh / 2 + i * lh), line, size, kit.INK,
                              anchor="lm")
        y += row_h
    return y - top


@dataclass
class Column:
    """A text column with a moving cursor, so renderers stack blocks without pixel sums."""

    draw: ImageDraw.ImageDraw
    left: int
    top: int
    width: int
    y: int = 0

    def __post_init__(self) -> None:
        self.y = self.top

    def text(self, text: str, size: int, fill: RGB = kit.INK, *, bold: bool = False) -> None:
        """Wrapped text: every word is kept."""
        for line in kit.wrap(text, size, self.width, 1 if bold else 0):
            kit.draw_text(self.draw, (self.left, self.y), line, size, fill, bold=bold)
            self.y += kit.line_height(size)

    def rule(self, gap: int) -> None:
        self.draw.line((self.left, self.y + gap // 2, self.left + self.width, self.y + gap // 2), fill=kit.PANEL_LINE,
                       width=1)
        self.y += gap

    def space(self, px: int) -> None:
        self.y += px
