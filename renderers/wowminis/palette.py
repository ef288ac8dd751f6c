"""Every colour a WoW Miniatures picture can hold, so a snapshot is quantized by a look-up.

Same idea as Krosmaster's (``renderers.kit_palette`` says why): built once per map from
flat colours (every module-level colour of the kit and of this package, by introspection),
text edges (each ink at the coverage levels of ``kit.TEXT_LEVELS`` over the grounds it is
written on), and the map's static layer in case a server's map draws something the lists
miss. Nothing is drawn with alpha and Pillow does not anti-alias shapes, so the lists are
complete; tests/renderers/test_wowminis_render.py checks that quantizing changes (next to)
no pixel.
"""

from __future__ import annotations

from functools import lru_cache

from renderers import kit, kit_board, kit_palette, kit_panel
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.wowminis import board, glyphs, layout, overlay, panel, ring

INKS: tuple[RGB, ...] = (kit.INK, kit.INK_DARK, kit.MUTED, kit.SUBTLE)
GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, glyphs.GROUND, glyphs.ROW_ACTIVE)
"""Where any ink may be written: the canvas, the panel, the map's ground and the active row."""


def flat_colours() -> list[RGB]:
    return kit_palette.constants(kit, kit_board, kit_panel, glyphs, layout, board, ring, panel, overlay)


def blend_colours(flats: list[RGB]) -> list[RGB]:
    """Text edges, the most common first (where two fall in one cell, the first stays exact)."""
    levels = kit.COVERAGE_LEVELS
    found: list[RGB] = []
    for ink in INKS:
        found += kit_palette.text_blends(ink, GROUNDS, levels)
    others = [c for c in flats if c not in GROUNDS]
    found += kit_palette.text_blends(kit.INK_DARK, others, levels)  # outlines of labels on anything
    for ground in others:
        found += kit_palette.text_blends(kit.text_on(ground), [ground], levels)
    found += kit_palette.text_blends(kit.INK, others, levels)
    return found


@lru_cache(maxsize=1)
def shared() -> Palette:
    flats = flat_colours()
    return Palette(flats, blend_colours(flats))


@lru_cache(maxsize=16)
def for_map(map_json: str, sides: tuple[tuple[str, RGB], ...]) -> Palette:
    """The shared palette plus any colour of this map's static layer the lists miss."""
    static = board.static_layer(map_json, sides)
    return shared().extended(colour for _count, colour in sorted(static.getcolors(1 << 16) or [], reverse=True))
