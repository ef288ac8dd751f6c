"""Every colour a WoW board game map picture can hold, so a snapshot is quantized by a look-up.

Same idea as the other games' (``renderers.kit_palette`` says why): flat colours (every module-level
colour of the kit and of this package, by introspection), text edges (each ink at the coverage
levels of ``kit.COVERAGE_LEVELS`` over the grounds it is written on), and the static layer's own
colours in case something there is missing from the lists. Shapes are not anti-aliased, so the
lists are complete; tests/wowboard/test_render.py checks that quantizing changes (next to) no pixel.
"""

from __future__ import annotations

from PIL import Image

from renderers import kit, kit_palette
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.wowboard import board, glyphs, layout, pieces, strip

INKS: tuple[RGB, ...] = (kit.INK, kit.SUBTLE, kit.MUTED)
GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, layout.DISC, pieces.PILL, strip.SPACE, strip.PLAYED)

_SHARED: list[Palette] = []
_FOR_STATIC: dict[int, Palette] = {}


def flat_colours() -> list[RGB]:
    return kit_palette.constants(kit, layout, glyphs, board, pieces, strip)


def blend_colours(flats: list[RGB]) -> list[RGB]:
    """Text edges, the most common first (where two fall in one cell, the first stays exact)."""
    levels = kit.COVERAGE_LEVELS
    found: list[RGB] = []
    for ink in INKS:
        found += kit_palette.text_blends(ink, GROUNDS, levels)
    for ink in (strip.EVENT, strip.ITEM):
        found += kit_palette.text_blends(ink, (kit.PANEL,), levels)
    others = [c for c in flats if c not in GROUNDS]
    for ground in others:
        found += kit_palette.text_blends(kit.text_on(ground), [ground], levels)
    found += kit_palette.text_blends(kit.INK, others, levels)
    found += kit_palette.text_blends(kit.INK_DARK, others, levels)
    return found


def shared() -> Palette:
    """Built once per process (~20 ms)."""
    if not _SHARED:
        flats = flat_colours()
        _SHARED.append(Palette(flats, blend_colours(flats)))
    return _SHARED[0]


def for_static(static: Image.Image) -> Palette:
    """The shared palette plus any colour of this static layer the lists miss (once per layer)."""
    key = id(static)
    if key not in _FOR_STATIC:
        colours = sorted(static.getcolors(1 << 16) or [], reverse=True)
        _FOR_STATIC[key] = shared().extended(colour for _count, colour in colours)  # type: ignore[misc]
    return _FOR_STATIC[key]
