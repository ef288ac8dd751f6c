"""Every colour a Krosmaster picture can hold, so a snapshot is quantized by a look-up.

Built once per arena (``for_arena``) from four sources (``renderers.kit_palette`` says why):

- flat colours: every module-level colour of the kit and of this package, found by
  introspection, so a colour added to a module is covered without editing this file;
- tints: the see-through fills (reachable squares, targets, starting squares, the
  hatched area, the move preview's square outline) over what they can cover;
- text: each ink at every coverage level of ``kit.TEXT_LEVELS`` over the grounds it is
  drawn on (panel, chips, tokens, squares);
- the arena's static layer, in case a content pack draws something the lists miss.

The picture test (tests/renderers/test_palette.py) renders every golden and readability
state and checks that quantizing changes no pixel; a colour it reports belongs in one of
the lists below.
"""

from __future__ import annotations

from functools import lru_cache

from renderers import kit, kit_board, kit_palette, kit_panel
from renderers.kit import RGB
from renderers.kit_palette import Palette
from renderers.krosmaster import board, glyphs, layout, panel, preview

OKABE = tuple(colour for name, colour in kit.OKABE_ITO.items() if name != "black")
SQUARES: tuple[RGB, ...] = (glyphs.GROUND_A, glyphs.GROUND_B, glyphs.RINK, glyphs.DEMON, glyphs.DEMON_MARK)
"""What a square can show where a tint goes (its grid line is never tinted)."""
SCENERY: tuple[RGB, ...] = (glyphs.TREE, glyphs.TREE_LIGHT, glyphs.TRUNK, glyphs.BUSH, glyphs.BUSH_DARK,
                            glyphs.CRATE, glyphs.CRATE_DARK, kit.INK_DARK)
"""Scenery is redrawn over a spell's targets, so the hatched area can lie on it."""
PANEL_GROUNDS: tuple[RGB, ...] = (kit.BACKGROUND, kit.PANEL, panel.TEAM_FILL)
FILLS: tuple[RGB, ...] = (*OKABE, panel.KO_RED, panel.KO_GREY, kit.HP_LOST, kit.PANEL_LINE, kit.MUTED, kit.INK,
                          glyphs.NO_POWERS, glyphs.KAMA_RIM)
"""Chips, banners, name chips, tokens and HP strips: what a label or its outline sits on."""
START_ALPHA = 0.37  # board._draw_start_squares


def blend_colours() -> list[RGB]:
    """Text edges and see-through fills, the most common first: where two blends fall within
    a few levels of each other only the first stays exact (``kit_palette.Palette``)."""
    levels = kit.COVERAGE_LEVELS
    reach = kit_palette.tints(kit.REACH, kit.REACH_ALPHA, SQUARES)
    target = kit_palette.tints(kit.TARGET, kit.TARGET_ALPHA, SQUARES)
    marked = (*SCENERY, glyphs.KAMA, glyphs.KAMA_RIM)  # what a move cost or a square's outline may overlap
    return [
        # the panel's text, the legend and the coordinates
        *kit_palette.text_blends(kit.INK, PANEL_GROUNDS, levels),
        *kit_palette.text_blends(kit.MUTED, (*PANEL_GROUNDS, kit.HIGHLIGHT), levels),
        *kit_palette.text_blends(kit.SUBTLE, PANEL_GROUNDS, levels),
        # the highlights: reachable squares, targets, starting squares, the hatched area
        *reach, *target,
        *(c for seat in (*kit.TEAM_COLOURS, kit.MUTED) for c in kit_palette.tints(seat, START_ALPHA, SQUARES)),
        *kit_palette.text_blends(kit.AREA, (*SQUARES, *target, *SCENERY), [round(kit.AREA_ALPHA * 255)]),
        *kit_palette.tints(kit.INK_DARK, 0.8, (*reach, kit.HIGHLIGHT, *marked)),  # preview._move's square frame
        # white labels on chips, tokens and over their dark outline; the move costs' white outline
        *kit_palette.text_blends(kit.INK, (*FILLS, kit.INK_DARK, *reach, *marked), levels),
        # dark text and outlines: light chips, the active row, kamas, tokens, squares (tinted
        # too: a token's label may spill over a target or a reachable square), move costs
        *kit_palette.text_blends(kit.INK_DARK, (*FILLS, kit.HIGHLIGHT, glyphs.GROUND_A, glyphs.GROUND_B, *marked,
                                                *target, *reach), levels),
    ]


@lru_cache(maxsize=1)
def declared() -> tuple[tuple[RGB, ...], tuple[RGB, ...]]:
    """(flat colours, blends): the same for every arena, computed once per process."""
    flats = kit_palette.constants(kit, kit_board, kit_panel, glyphs, layout, panel, board, preview)
    return tuple(flats), tuple(blend_colours())


@lru_cache(maxsize=1)
def shared() -> Palette:
    """The declared colours as a palette, built once per process (~20 ms)."""
    return Palette(*declared())


@lru_cache(maxsize=16)
def for_arena(arena_json: str) -> Palette:
    """The palette of one arena's pictures: the shared one, plus any colour of its static
    layer the lists miss (most common first). Cached like ``board.static_layer``, by the
    arena's JSON."""
    static = board.static_layer(arena_json)
    return shared().extended(colour for _count, colour in sorted(static.getcolors(1 << 16) or [], reverse=True))
