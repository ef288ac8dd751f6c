"""What the character sheet and the combat panel share: canvas, colours, bars, tokens and names.

Both pictures are a column of text blocks whose height depends on the state (a sheet with a full Bag,
a combat with 21 dice), so each is recorded as draw calls and then drawn on a canvas as tall as what
was used (:class:`Sheet`): no second layout pass to keep in step with the drawing. They are 1000 px
wide like the map, with the same smallest text (``layout.TEXT``, 11 px once Discord shows them 500 px wide).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from common import wowboard_names as names
from engines.wowboard.content import Pack
from engines.wowboard.state import Character, State
from renderers import kit, kit_scene
from renderers.kit import RGB
from renderers.wowboard.layout import TEXT, WIDTH, class_code, faction_colour
from renderers.wowboard.words import plain, seat_name

MARGIN = 14
TALL = 3000
"""The drawing canvas's height; every picture is cut to what it used (a sheet is ~1000-1500 px)."""
TITLE = 32
BIG = 26
LINE = kit.line_height(TEXT)

CARD: RGB = (62, 66, 74)
CARD_LINE: RGB = (98, 104, 116)
EMPTY_CARD: RGB = (48, 50, 55)
HEALTH: RGB = kit.OKABE_ITO["bluish_green"]
ENERGY: RGB = kit.OKABE_ITO["sky_blue"]
SPENT: RGB = (78, 80, 86)
OVER: RGB = kit.OKABE_ITO["yellow"]
GOLD: RGB = kit.OKABE_ITO["orange"]
STUN: RGB = kit.OKABE_ITO["reddish_purple"]
CURSE: RGB = (150, 110, 200)
ZERO: RGB = (74, 77, 84)
GROUNDS: tuple[RGB, ...] = (CARD, EMPTY_CARD)
"""Where panel text is written besides the kit's background and panel (the palette needs the edges)."""


class Sheet:
    """A column of blocks with a cursor, recorded as draw calls (``kit_scene.Recorder``): the picture is
    as tall as what was drawn plus a margin (at most ``TALL``), known only once everything is placed,
    so the calls are kept and then drawn on a canvas of that height (:meth:`layer`, :meth:`finish`)."""

    def __init__(self) -> None:
        self.entries: list[kit_scene.Entry] = []
        self.draw = kit_scene.Recorder(self.entries)
        self.y = MARGIN

    def height(self) -> int:
        return min(TALL, self.y + MARGIN)

    def layer(self) -> kit.Layer:
        """The picture's static layer: the background, as tall as the picture."""
        return blank(self.height())

    def finish(self) -> Image.Image:
        """The picture, drawn at once."""
        image = self.layer().copy()
        kit_scene.replay(image, self.entries)
        return image


@lru_cache(maxsize=64)
def blank(height: int) -> kit.Layer:
    """The ground of a panel ``height`` px tall (a recipe, so a scene compares its pictures by it)."""
    return kit.Layer((WIDTH, height), kit.BACKGROUND)


def char_name(pack: Pack, c: Character, lang: str = "en") -> str:
    """The character's one name, as the text names it (``common.wowboard_names``, issue 27.8): its class."""
    return plain(names.class_name(pack, c.class_id, lang))


def full_name(pack: Pack, c: Character, lang: str = "en") -> str:
    """The class with the hero of the faction's sheet face beside it (health-energy.4): the sheet's title."""
    return plain(names.full_name(pack, c.class_id, c.faction, lang))


def token_text(c: Character) -> str:
    """The character's map token ("WA1": class code and seat number), so the pictures name it alike."""
    return f"{class_code(c.class_id)}{c.seat + 1}"


def owner(state: State, c: Character, seat_names: Mapping[int, str] | None) -> str:
    return seat_name({s.seat: s.name for s in state.seats}, c.seat, seat_names)


def token(draw: ImageDraw.ImageDraw, x: int, y: int, c: Character, size: int = TEXT) -> int:
    """The map token of ``c`` (faction fill; Horde square-cornered, Alliance round); returns its right edge."""
    text = token_text(c)
    colour = faction_colour(c.faction)
    w, h = kit.text_width(text, size, 1) + 14, size + 8
    draw.rounded_rectangle((x, y, x + w, y + h), radius=4 if c.faction == "horde" else h // 2, fill=colour,
                           outline=kit.INK, width=2)
    kit.draw_text(draw, (x + w / 2, y + h / 2 + 1), text, size, kit.text_on(colour), anchor="mm", bold=True)
    kit.note("token", (x, y, x + w, y + h), text, size)
    return x + w


def chip(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: RGB, *, outline: RGB | None = None) -> int:
    """A rounded label; returns its right edge."""
    w, h = kit.text_width(text, TEXT, 1) + 16, TEXT + 8
    draw.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=fill, outline=outline, width=2 if outline else 0)
    kit.draw_text(draw, (x + w / 2, y + h / 2 + 1), text, TEXT, kit.text_on(fill), anchor="mm", bold=True)
    kit.note("chip", (x, y, x + w, y + h), text, TEXT)
    return x + w


def chip_width(text: str) -> int:
    return kit.text_width(text, TEXT, 1) + 16


def bar(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, value: int, cap: int, colour: RGB,
        height: int = 18) -> None:
    """One segment per point of capacity: filled for what is left, dark for what is missing, and
    yellow for tokens above capacity (a running "gain"). Segments read as a count, not only a length."""
    total = max(cap, value, 1)
    gap = 2 if total <= 24 else 1
    seg = max(3, (width - gap * (total - 1)) // total)
    for i in range(total):
        x0 = x + i * (seg + gap)
        fill = OVER if i >= cap else colour if i < value else SPENT
        draw.rectangle((x0, y, x0 + seg - 1, y + height - 1), fill=fill)
    kit.note("bar", (x, y, x + total * (seg + gap) - gap, y + height), f"{value}/{cap}")


def title(draw: ImageDraw.ImageDraw, x: int, y: int, text: str) -> int:
    """A section title with a rule under it; returns the y below."""
    kit.draw_text(draw, (x, y), text, BIG, kit.INK, bold=True)
    y += kit.line_height(BIG) + 4
    draw.line((x, y, WIDTH - MARGIN, y), fill=kit.PANEL_LINE, width=2)
    return y + 8


def wrapped(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, fill: RGB = kit.INK, *,
            size: int = TEXT, bold: bool = False, indent: int = 0) -> int:
    """Text wrapped to ``width`` (whole words, never cut); lines after the first indented. Returns y below."""
    first = True
    for line in _wrap(text, size, width, indent, bold):
        kit.draw_text(draw, (x + (0 if first else indent), y), line, size, fill, bold=bold)
        y += kit.line_height(size)
        first = False
    return y


def wrapped_height(text: str, width: int, *, size: int = TEXT, bold: bool = False, indent: int = 0) -> int:
    return len(_wrap(text, size, width, indent, bold)) * kit.line_height(size)


def _wrap(text: str, size: int, width: int, indent: int, bold: bool) -> list[str]:
    stroke = 1 if bold else 0
    lines = kit.wrap(text, size, width, stroke)
    if indent and len(lines) > 1:
        rest = kit.wrap(" ".join(lines[1:]), size, width - indent, stroke)
        lines = [lines[0], *rest]
    return lines
