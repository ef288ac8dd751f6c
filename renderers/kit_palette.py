"""Fixed palettes: every colour a renderer draws, known before it draws.

Why: a PNG of a palette ("P") image encodes ~5x faster than RGB and is ~2.5x smaller, but
choosing a palette for each picture (Pillow's fast octree) cost more than drawing and
encoding together, and a palette chosen for one picture misses colours of the next
(errors up to 75/255). Our pictures use a known set of colours: flat fills, text whose
anti-aliasing is posterized to a few coverage levels (``kit.TEXT_LEVELS``), and a few
see-through tints. Their blends can be computed up front, so a renderer declares its
colours once, the palette is exact for all of them, and quantizing a snapshot is a table
look-up (~1 ms) whose result equals the drawn picture.

Pillow maps a colour to the palette entry nearest to the low corner of its 4x4x4 cell
(``ImagingPaletteCacheUpdate``; ties go to the lower index), so two entries in one cell,
or an entry whose corner lies nearer another entry, would not come back exactly.
``Palette`` checks that for each entry it adds, in order: flat colours first, then
blends; an entry that cannot be exact is dropped and listed in ``dropped`` (tests assert
that no flat colour is), and its pixels go to the nearest entry, a few levels away.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from types import ModuleType

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
MAX_COLOURS = 256


def _is_rgb(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value))


def constants(*modules: ModuleType) -> list[RGB]:
    """Every module-level colour of ``modules``: ``NAME = (r, g, b)``, tuples and dicts of them.

    Why introspection: a colour added to a module is in the palette without anyone
    remembering a list; the palette test then proves every one comes back exact.
    """
    found: list[RGB] = []
    for module in modules:
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            items: Iterable[object] = value.values() if isinstance(value, Mapping) else \
                value if isinstance(value, tuple) and not _is_rgb(value) else (value,)
            found += [item for item in items if _is_rgb(item)]  # type: ignore[misc]
    return list(dict.fromkeys(found))


def text_blends(ink: RGB, grounds: Iterable[RGB], levels: Iterable[int]) -> list[RGB]:
    """``ink`` drawn through a mask of each coverage level (1..254) over each ground,
    computed by Pillow itself so the palette holds exactly what ``draw.bitmap`` makes."""
    grounds = [g for g in dict.fromkeys(grounds) if g != ink]
    result: list[RGB] = []
    for level in levels:
        if 0 < level < 255 and grounds:
            strip = _strip(grounds)
            ImageDraw.Draw(strip, "RGBA").bitmap((0, 0), Image.new("L", strip.size, level), fill=ink)
            result += _pixels(strip)
    return result


def tints(colour: RGB, alpha: float, grounds: Iterable[RGB]) -> list[RGB]:
    """``colour`` at opacity ``alpha`` over each ground, as an RGBA draw paints it (``kit.rgba``)."""
    grounds = list(dict.fromkeys(grounds))
    if not grounds:
        return []
    strip = _strip(grounds)
    ImageDraw.Draw(strip, "RGBA").rectangle((0, 0, strip.width - 1, 0), fill=(*colour, round(alpha * 255)))
    return _pixels(strip)


def _strip(colours: list[RGB]) -> Image.Image:
    strip = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        strip.putpixel((x, 0), colour)
    return strip


def _pixels(strip: Image.Image) -> list[RGB]:
    return [strip.getpixel((x, 0)) for x in range(strip.width)]  # type: ignore[misc]


def _corner(colour: RGB) -> RGB:
    return (colour[0] & ~3, colour[1] & ~3, colour[2] & ~3)


def _dist(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


class Palette:
    """Up to 256 colours in priority order, each guaranteed to quantize to itself.

    Build it once (per arena, say) and call :meth:`quantize` per picture. ``flats`` are
    the colours that must be exact (a flat colour that cannot be is a design bug the
    tests report); ``blends`` fill the remaining room and are dropped when they would
    collide with an earlier entry in Pillow's colour cache.
    """

    def __init__(self, flats: Iterable[RGB], blends: Iterable[RGB] = ()) -> None:
        self.colours: list[RGB] = []
        self.dropped: list[RGB] = []
        self.flat_dropped: list[RGB] = []
        self._index: dict[RGB, int] = {}
        for colour in flats:
            if not self._add(colour):
                self.flat_dropped.append(colour)
        for colour in blends:
            self._add(colour)
        self.image = self._image()

    def _image(self) -> Image.Image:
        image = Image.new("P", (1, 1))
        # Exactly our entries: padding would add black entries that could win a dark cell.
        image.putpalette([v for colour in self.colours for v in colour] or [0, 0, 0])
        return image

    def extended(self, blends: Iterable[RGB]) -> Palette:
        """This palette plus ``blends`` (kept under the same rules); itself when none is new.

        Why: building a palette checks every pair of entries (~20 ms for 220); an arena's
        palette is the shared one plus the few colours its static layer adds, if any."""
        extra = [colour for colour in blends if colour not in self._index]
        if not extra:
            return self
        grown = copy.copy(self)
        grown.colours, grown.dropped, grown._index = list(self.colours), list(self.dropped), dict(self._index)
        for colour in extra:
            grown._add(colour)
        grown.image = grown._image()
        return grown

    def _add(self, colour: RGB) -> bool:
        """Append ``colour`` if it and every earlier entry still map to themselves."""
        if colour in self._index:
            return True
        if len(self.colours) >= MAX_COLOURS:
            self.dropped.append(colour)
            return False
        corner = _corner(colour)
        own = _dist(colour, corner)
        # An earlier entry at least as near this colour's corner wins the cell (ties: lower index).
        # This colour may not be nearer than an earlier entry to that entry's own corner.
        for entry in self.colours:
            if _dist(entry, corner) <= own:
                self.dropped.append(colour)
                return False
            entry_corner = _corner(entry)
            if _dist(colour, entry_corner) < _dist(entry, entry_corner):
                self.dropped.append(colour)
                return False
        self._index[colour] = len(self.colours)
        self.colours.append(colour)
        return True

    def __contains__(self, colour: object) -> bool:
        return colour in self._index

    def __len__(self) -> int:
        return len(self.colours)

    def __iter__(self) -> Iterator[RGB]:
        return iter(self.colours)

    def quantize(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) as a "P" image on this palette: exact for every entry, nearest
        entry for anything else. No dithering: dots would only add noise to flat colours."""
        return image.quantize(palette=self.image, dither=Image.Dither.NONE)
