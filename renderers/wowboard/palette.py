"""Every colour a WoW board game map picture can hold, so a snapshot is quantized by a look-up.

Same idea as the other games' (``renderers.kit_palette`` says why): flat colours (every module-level
colour of the kit and of this package, by introspection), text edges (each ink at the coverage
levels of ``kit.COVERAGE_LEVELS`` over the grounds it is written on), and the static layer's own
colours in case something there is missing from the lists. Shapes are not anti-aliased, so the
lists are complete; tests/wowboard/test_render.py checks that quantizing changes (next to) no pixel.
"""

from __future__ import annotations

import weakref

from PIL import Image

from renderers import kit, kit_bytes, kit_palette
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.wowboard import board, glyphs, layout, pieces, strip

INKS: tuple[RGB, ...] = (kit.INK, kit.SUBTLE, kit.MUTED)
GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, layout.DISC, pieces.PILL, strip.SPACE, strip.PLAYED)

_SHARED: list[Palette] = []
_FOR_STATIC = kit_bytes.Budget(1 << 20, lambda _key, _value: kit_bytes.ENTRY, board.STATIC_LAYERS)
"""By the static layer's id, each with a weak reference to its layer: ``board.static_layer`` lets layers go,
and a freed layer's id may be a later one's."""
_PANELS: list[Palette] = []


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
    found = _FOR_STATIC.found(id(static))
    if found is not None and found[0]() is static:
        return found[1]  # type: ignore[no-any-return]
    colours = sorted(static.getcolors(1 << 16) or [], reverse=True)
    made = shared().extended(colour for _count, colour in colours)  # type: ignore[misc]
    _FOR_STATIC.keep(id(static), (weakref.ref(static), made))
    return made


def panel_flats() -> list[RGB]:
    """The flat colours of the sheet and the combat panel: the kit's, the map's glyphs (tokens, tier
    shapes, the boss star and the Overlord crown) and those of ``panels`` and ``combat``."""
    from renderers.wowboard import combat, panels

    return kit_palette.constants(kit, layout, glyphs, panels, combat)


def panels_palette() -> Palette:
    """The fixed palette of the sheet and the combat panel, built once per process.

    Why a second palette: those pictures draw on other grounds (card boxes, dice) than the map, and
    one 256-colour table for both would have to drop text edges of one or the other."""
    if not _PANELS:
        from renderers.wowboard import combat, panels

        flats = panel_flats()
        levels = kit.COVERAGE_LEVELS
        grounds = (kit.BACKGROUND, kit.PANEL, *panels.GROUNDS)
        found: list[RGB] = []
        for ink in INKS:
            found += kit_palette.text_blends(ink, grounds, levels)
        others = [c for c in flats if c not in grounds]
        for ground in (*combat.FILLS, *layout.FACTION_COLOURS.values(), *others):
            found += kit_palette.text_blends(kit.text_on(ground), [ground], levels)
        for ink in combat.INKS:
            found += kit_palette.text_blends(ink, (combat.HOLLOW,), levels)
        found += kit_palette.text_blends(kit.INK, others, levels)
        found += kit_palette.text_blends(kit.INK_DARK, others, levels)
        _PANELS.append(Palette(flats, found))
    return _PANELS[0]
