"""Previews: what the active piece could do, drawn over the board (reachable squares with
their MP cost, or a spell's legal targets, its area and the chosen aim).

Each role has its own look so none can be read as terrain or as a team (checked by
tests/renderers/test_readability.py with simulated colour-vision deficiencies): sky-blue
squares with a number for moves; orange squares in an orange frame for targets; dark
diagonal stripes for the area, a pattern no square or token has; corner brackets for the
aim. Scenery is redrawn over the tints, so a tree inside a spell's range still reads as a
tree: whether such squares are legal targets is the engine's call (``spell_targets``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import ImageDraw

from common.i18n import t
from engines.krosmaster.content import name_in
from engines.krosmaster.state import State
from renderers import kit, kit_board
from renderers.kit import RGB, Box
from renderers.kit_board import Grid
from renderers.kit_panel import LegendEntry
from renderers.krosmaster import board, glyphs
from renderers.krosmaster.layout import DU, TEXT
from renderers.krosmaster.panel import Banner

PreviewKind = Literal["move", "spell"]
REACH_SWATCH: RGB = kit.mix(glyphs.GROUND_A, kit.REACH, kit.REACH_ALPHA)  # the legend's "reachable"
TARGET_SWATCH: RGB = kit.mix(glyphs.GROUND_A, kit.TARGET, kit.TARGET_ALPHA)  # the legend's "target"


@dataclass
class Preview:
    """The layers and words a preview adds to a snapshot."""

    under: board.Overlay
    over: board.Overlay
    legend: list[LegendEntry]
    banner: Banner
    busy: list[str] = field(default_factory=list)


def paint_area(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The area of effect's hatch (also the legend's swatch), over whatever the square shows."""
    step = max(6, (box[2] - box[0]) // 4)
    kit_board.hatch(draw, box, kit.AREA, kit.AREA_ALPHA, step, max(2, step // 3))


def _legend_target(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.rectangle(box, fill=TARGET_SWATCH, outline=kit.TARGET, width=3)


def _legend_area(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.rectangle(box, fill=glyphs.GROUND_A)
    paint_area(draw, box)
    draw.rectangle(box, outline=kit.INK_DARK, width=2)


def build(state: State, squares: Mapping[str, str | int] | Iterable[str], kind: PreviewKind,
          area: Iterable[str] | None, target: str | None, lang: str) -> Preview:
    """The preview for ``kind``: see ``renderers.krosmaster.render_preview`` for the arguments."""
    labels = {str(k).upper(): v for k, v in squares.items()} if isinstance(squares, Mapping) else \
        {str(k).upper(): "" for k in squares}
    # Only an ordered area says which square is the main target (the engine's ``area_for``
    # lists it first); a set's order depends on the hash seed, so it must not pick the aim.
    ordered = isinstance(area, Sequence) and not isinstance(area, str)
    area_list = [str(a).upper() for a in area] if area is not None else []
    aim = target.upper() if target else (area_list[0] if area_list and ordered else None)
    piece = state.pieces.get(state.active_piece or "")
    sub = [t("render.km.active_piece", lang, short=piece.short, name=name_in(piece.figurine, lang))] if piece else []
    if kind == "move":
        return _move(state, labels, lang, sub)
    return _spell(state, labels, area_list, aim, lang, sub)


def _move(state: State, labels: dict[str, str | int], lang: str, sub: list[str]) -> Preview:
    arena = state.board.arena

    def under(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        reach = set(grid.parse(labels))
        for square in reach:
            kit_board.tint(draw, grid.box(*square), kit.REACH, kit.REACH_ALPHA)
        board.draw_scenery(draw, arena, grid, only=reach & board.scenery_squares(arena, grid))  # crates are free

    def over(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        size = max(TEXT, min(DU(15), grid.cell * 15 // 32))
        for label, cost in labels.items():
            square = kit_board.parse_label(label)
            if square is None or not grid.contains(square):
                continue
            x0, y0, x1, y1 = grid.box(*square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=kit.rgba(kit.INK_DARK, 0.8), width=2)
            if cost != "":
                kit.draw_text(draw, grid.centre(*square), str(cost), size, kit.INK_DARK, anchor="mm", outline=kit.INK)

    legend: list[LegendEntry] = [(glyphs.swatch(REACH_SWATCH),
                                  t("render.km.legend.move", lang))]
    banner = (t("render.km.preview.move", lang, count=len(labels)), kit.REACH, sub)
    busy = [label for label, cost in labels.items() if cost != ""]
    return Preview(under, over, legend, banner, busy)


def _spell(state: State, labels: dict[str, str | int], area: list[str], aim: str | None, lang: str,
           sub: list[str]) -> Preview:
    arena = state.board.arena

    def under(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        targets, hit = set(grid.parse(labels)), set(grid.parse(area))
        for square in targets:
            kit_board.tint(draw, grid.box(*square), kit.TARGET, kit.TARGET_ALPHA)
        board.draw_scenery(draw, arena, grid, only=(targets | hit) & board.scenery_squares(arena, grid))
        for square in hit:
            paint_area(draw, grid.box(*square, inset=1))

    def over(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        width = max(3, grid.cell // 16)
        for square in grid.parse(labels):
            kit_board.frame(draw, grid.box(*square, inset=1), kit.TARGET, width)
        for square in grid.parse(area):
            kit_board.frame(draw, grid.box(*square, inset=1), kit.INK_DARK, width)
        for square in grid.parse([aim] if aim else []):
            kit_board.crosshair(draw, grid.box(*square), grid.cell)

    legend: list[LegendEntry] = [(_legend_target, t("render.km.legend.target", lang))]
    if area:
        legend.append((_legend_area, t("render.km.legend.area", lang)))
    banner = (t("render.km.preview.spell", lang, count=len(labels)), kit.TARGET, sub)
    return Preview(under, over, legend, banner)
