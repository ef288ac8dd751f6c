"""A writing cursor for the panels: wrapped text and flowing items, measured or drawn.

Why: the right column stacks a banner, the open column, the hero, the mana and a legend
whose lengths depend on the state; each block is first measured (``draw=None``) so the
column can decide what fits, then drawn with the same code, so measuring and drawing
cannot disagree. Items (a chip, a glyph with a number, a word) flow onto the next line
when a line is full, so nothing is cut and nothing covers anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from renderers import kit, kit_panel
from renderers.kit import RGB
from renderers.kit_panel import Chip
from renderers.mageknight.layout import CHIP_H, DU, LINE, TEXT


@dataclass(frozen=True)
class Item:
    """One thing on a line: text, a chip, or a painted glyph; ``paint`` draws at its top-left."""

    width: int
    height: int
    paint: Callable[[ImageDraw.ImageDraw, int, int], None]
    glue: bool = False  # keep on the same line as the item before it (a label and its value)
    line_end: Item | None = None  # what is drawn instead when a line breaks after it ("Armor 3", not "Armor 3 ·")


def text_item(text: str, ink: RGB = kit.INK, *, bold: bool = False, glue: bool = False, size: int = TEXT) -> Item:
    """One piece of text that never breaks (a word, a number, a fact)."""
    w = kit.text_width(text, size, 1 if bold else 0)
    h = kit.line_height(size)

    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        kit.draw_text(draw, (x, y + h / 2 + 1), text, size, ink, anchor="lm", bold=bold)

    return Item(w, h, paint, glue)


def word_items(text: str, ink: RGB = kit.INK, *, bold: bool = False) -> list[Item]:
    """A sentence as one item per word, so it wraps inside :meth:`Pen.items` (use a gap of
    ``SPACE``) and a chip can follow its last word on the same line. The last word is glued
    to the one before it, so a number never ends up alone on a line ("Attack" / "1")."""
    words = text.split()
    return [text_item(word, ink, bold=bold, glue=i == len(words) - 1 and i > 0) for i, word in enumerate(words)]


def phrase_items(text: str, ink: RGB = kit.INK, *, bold: bool = False) -> list[Item]:
    """A line of facts joined by " · " as one item per fact, so a line breaks only between
    facts ("Armor 3 · Hand limit 5" never leaves "mano 5" alone on the next line); the dot
    stays with the fact before it."""
    parts = text.split(" · ")
    items = []
    for i, part in enumerate(parts):
        bare = text_item(part, ink, bold=bold)
        if i < len(parts) - 1:  # a line that breaks after it ends without the dot (issue 27.9)
            dotted = text_item(part + " ·", ink, bold=bold)
            bare = Item(dotted.width, dotted.height, dotted.paint, dotted.glue, line_end=bare)
        items.append(bare)
    return items


SPACE = kit.text_width("a a", TEXT) - kit.text_width("aa", TEXT)


def chip_item(chip: Chip, *, glue: bool = False, size: int = TEXT) -> Item:
    """A kit chip (a status, a badge, a die) as an item."""

    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        kit_panel.draw_chip(draw, x, y, chip, size)

    return Item(kit_panel.chip_width(chip, size), kit_panel.chip_height(size), paint, glue)


def glyph_item(painter: Callable[[ImageDraw.ImageDraw, tuple[int, int, int, int]], None], size: int = CHIP_H - 4,
               *, glue: bool = False) -> Item:
    """A painted glyph (a shield, a wound card), vertically centred on the text line."""

    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        top = y + (max(LINE, CHIP_H) - size) // 2
        painter(draw, (x, top, x + size, top + size))

    return Item(size, max(LINE, CHIP_H), paint, glue)


@dataclass
class Pen:
    """A cursor down a column ``width`` px wide from (``left``, ``y``); ``draw=None`` measures."""

    draw: ImageDraw.ImageDraw | None
    left: int
    width: int
    y: int

    def text(self, text: str, fill: RGB = kit.INK, *, bold: bool = False, indent: int = 0) -> None:
        """Wrapped text (every word kept); lines after the first are indented by ``indent``."""
        first = True
        for line in _wrap_hanging(text, self.width, indent, bold):
            x = self.left + (0 if first else indent)
            if self.draw is not None:
                kit.draw_text(self.draw, (x, self.y + LINE / 2 + 1), line, TEXT, fill, anchor="lm", bold=bold)
            self.y += LINE
            first = False

    def items(self, items: Sequence[Item], gap: int = DU(3), indent: int = 0) -> None:
        """Items side by side, onto new lines (indented) when a line is full; glued items
        move with the one before them."""
        if not items:
            return
        groups: list[list[Item]] = []
        for item in items:
            if item.glue and groups:
                groups[-1].append(item)
            else:
                groups.append([item])
        pitch = max(LINE, CHIP_H) + DU(1)
        lines: list[list[Item]] = [[]]
        x, line_left = self.left, self.left
        for group in groups:
            width = sum(i.width for i in group) + gap * (len(group) - 1)
            if x > line_left and x + width > self.left + self.width:
                lines.append([])
                x = line_left = self.left + indent
            lines[-1].extend(group)
            x += width + gap
        for number, line in enumerate(lines):
            if line and line[-1].line_end is not None:
                line[-1] = line[-1].line_end
            x = self.left + (indent if number else 0)
            for item in line:
                if self.draw is not None:
                    item.paint(self.draw, x, self.y + (pitch - DU(1) - item.height) // 2)
                x += item.width + gap
            self.y += pitch

    def space(self, px: int) -> None:
        """Move down without drawing."""
        self.y += px

    def rule(self) -> None:
        """A thin separator between blocks of the panel."""
        gap = DU(4)
        if self.draw is not None:
            self.draw.line((self.left, self.y + gap // 2, self.left + self.width, self.y + gap // 2),
                           fill=kit.PANEL_LINE, width=2)
        self.y += gap


def _wrap_hanging(text: str, width: int, indent: int, bold: bool) -> list[str]:
    stroke = 1 if bold else 0
    first = kit.wrap(text, TEXT, width, stroke)
    if indent <= 0 or len(first) <= 1:
        return first
    rest = " ".join(first[1:])
    return [first[0], *kit.wrap(rest, TEXT, width - indent, stroke)]
