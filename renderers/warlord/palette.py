"""Every colour a Warlord table image can hold, so a snapshot is quantized by a look-up.

Same idea as the other games' (``renderers.kit_palette`` says why): flat colours (every
module-level colour of the kit and of this package, by introspection) and text edges (each
ink at the coverage levels of ``kit.COVERAGE_LEVELS`` over the grounds it is written on).
Nothing is drawn with alpha and Pillow does not anti-alias shapes, so the lists are
complete; tests/warlord/test_render.py checks that quantizing changes (next to) no pixel.
"""

from __future__ import annotations

from functools import lru_cache

from renderers import kit, kit_palette, kit_panel
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.warlord import field, overlay, panel, tiles

INKS: tuple[RGB, ...] = (kit.INK, kit.INK_DARK, kit.SUBTLE, kit.MUTED, tiles.TILE_INK, kit.HIGHLIGHT)
GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, *tiles.GROUNDS)
"""Where free text is written: the canvas, the player cards and the tiles."""


def flat_colours() -> list[RGB]:
    return kit_palette.constants(kit, kit_panel, tiles, field, panel, overlay)


def blend_colours(flats: list[RGB]) -> list[RGB]:
    """Text edges, the most common first (where two fall in one cell, the first stays exact)."""
    levels = kit.COVERAGE_LEVELS
    found: list[RGB] = []
    found += kit_palette.text_blends(tiles.TILE_INK, tiles.GROUNDS, levels)
    for ink in (kit.INK, kit.SUBTLE, kit.MUTED, kit.HIGHLIGHT):
        found += kit_palette.text_blends(ink, (kit.BACKGROUND, kit.PANEL), levels)
    others = [c for c in flats if c not in GROUNDS]
    for ground in others:  # chips: black or white text on their fill
        found += kit_palette.text_blends(kit.text_on(ground), [ground], levels)
    found += kit_palette.text_blends(kit.INK_DARK, others, levels)
    found += kit_palette.text_blends(kit.INK, others, levels)
    return found


@lru_cache(maxsize=1)
def shared() -> Palette:
    """The palette every Warlord picture uses (built once per process, ~20 ms)."""
    flats = flat_colours()
    return Palette(flats, blend_colours(flats))
