"""Every colour a Mage Knight picture can hold, so a snapshot is quantized by a look-up.

Same idea as Krosmaster's (``renderers.kit_palette`` says why): a fixed palette makes the
PNG ~5x faster to encode than RGB and saves the per-picture quantizer. Built once per
process from:

- flat colours: every module-level colour of the kit and of this package, found by
  introspection (a colour added to ``glyphs`` is covered without editing this file);
- text edges: each ink at the anti-aliasing levels of ``kit.TEXT_LEVELS`` over the grounds
  it is written on: the four inks over the backgrounds, and over every other flat colour
  the ink ``kit.text_on`` picks for it (plus white, which chips may force).

Nothing here is drawn with alpha, and Pillow draws shapes without anti-aliasing, so these
lists are complete; ``tests/renderers/test_mageknight_render.py`` renders the sample
combats and checks that quantizing changes no pixel.
"""

from __future__ import annotations

from functools import lru_cache

from renderers import kit, kit_palette, kit_panel
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.mageknight import bands, glyphs, hero, layout, panel, tokens

INKS: tuple[RGB, ...] = (kit.INK, kit.INK_DARK, kit.MUTED, kit.SUBTLE)
GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, glyphs.TOKEN_FILL, glyphs.DEFEATED_FILL, glyphs.CARD_FILL)
"""Where any ink may be written: the canvas, the panel, tokens and unit cards."""


def flat_colours() -> list[RGB]:
    """Every module-level colour of the kit and of this package (``kit_palette.constants``)."""
    return kit_palette.constants(kit, kit_panel, glyphs, layout, tokens, bands, panel, hero)


def blend_colours(flats: list[RGB]) -> list[RGB]:
    """Text edges, the most common first (where two fall in one cell, the first stays exact)."""
    levels = kit.COVERAGE_LEVELS
    found: list[RGB] = []
    for ink in INKS:
        found += kit_palette.text_blends(ink, GROUNDS, levels)
    others = [c for c in flats if c not in GROUNDS]
    for ground in others:
        found += kit_palette.text_blends(kit.text_on(ground), [ground], levels)
    found += kit_palette.text_blends(kit.INK, others, levels)
    return found


@lru_cache(maxsize=1)
def palette() -> Palette:
    """The palette of every board and hand picture (the same for all: no per-game layer)."""
    flats = flat_colours()
    return Palette(flats, blend_colours(flats))
