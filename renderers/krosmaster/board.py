"""The arena: squares, scenery, kamas, pieces, highlights, and the legend that explains them.

The empty arena (ground, scenery, demon squares, coordinates, the panel's card) depends
only on the arena, so it is drawn once per arena and copied (ARCHITECTURE.md §6); a snapshot
draws start squares, kamas, pieces and marks on the copy.

Sizes: cells are 26 preview px (52 on the canvas), the smallest that holds a three-letter
name and an HP number at 11 preview px; every label on the board uses ``TEXT`` or more,
except a name longer than three letters (``STO2``), which shrinks to fit its token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from common.i18n import t
from engines.krosmaster.content import Arena
from engines.krosmaster.state import PieceState, State
from renderers import kit, kit_board
from renderers.kit_board import Grid
from renderers.kit_panel import LegendEntry
from renderers.krosmaster import glyphs
from renderers.krosmaster.layout import (
    HEIGHT,
    MARGIN,
    PANEL_BOX,
    TEXT,
    WIDTH,
    active_piece_id,
    grid_for,
    shape_of,
)
from renderers.krosmaster.surface import painted

Overlay = Callable[[ImageDraw.ImageDraw, Grid], None]


@lru_cache(maxsize=16)
def static_layer(arena_json: str) -> Image.Image:
    """The whole canvas with the empty arena; keyed by the arena's JSON, not only its id,
    because a server pack may redefine an arena under a built-in id."""
    arena = Arena.model_validate_json(arena_json)
    grid = grid_for(arena.width, arena.height)
    image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
    draw = kit.Draw(image)
    draw.rounded_rectangle(PANEL_BOX, radius=10, fill=kit.PANEL)
    draw.rectangle((grid.left - 4, grid.top - 4, grid.right + 3, grid.bottom + 3), fill=kit.INK_DARK)
    for col, row in grid.squares():
        colour = glyphs.GROUND_A if (col + row) % 2 == 0 else glyphs.GROUND_B
        draw.rectangle(grid.box(col, row), fill=colour, outline=glyphs.GRID_LINE)
    for square in grid.parse(arena.rink):  # 313.6a: the skating rink the ice cubes slide on
        draw.rectangle(grid.box(*square), fill=glyphs.RINK, outline=glyphs.GRID_LINE)
    for square in grid.parse(arena.demon_squares):
        glyphs.paint_demon(draw, grid.box(*square))
    draw_scenery(draw, arena, grid)
    with kit.region("board"):
        kit_board.draw_coordinates(draw, grid, size=max(TEXT * 3 // 4, min(TEXT, grid.cell * 9 // 20)), margin=MARGIN)
    return image


def draw_scenery(draw: ImageDraw.ImageDraw, arena: Arena, grid: Grid,
                 only: set[tuple[int, int]] | None = None) -> None:
    """Crates, bushes and trees (on ``only`` squares when given: redrawn over a highlight)."""
    for labels, paint in ((arena.crates, glyphs.paint_crate), (arena.bushes, glyphs.paint_bush),
                          (arena.trees, glyphs.paint_tree)):
        for square in grid.parse(labels):
            if only is None or square in only:
                paint(draw, grid.box(*square, inset=2))


def scenery_squares(arena: Arena, grid: Grid) -> set[tuple[int, int]]:
    return set(grid.parse([*arena.trees, *arena.bushes, *arena.crates]))


def draw_board(draw: ImageDraw.ImageDraw, state: State, grid: Grid, *, highlight: Iterable[str] | None = None,
               under: Overlay | None = None, over: Overlay | None = None, busy: Iterable[str] = ()) -> None:
    """Everything on the arena that changes with the state; ``under``/``over`` are a preview's
    layers (below and above the pieces), ``busy`` squares hold printed text (kamas move aside)."""
    if state.phase in ("choose_side", "deploy"):
        _draw_start_squares(draw, state, grid)
    if under is not None:
        under(draw, grid)
    occupied = {sq for p in state.pieces.values() if p.in_play and (sq := kit_board.parse_label(p.pos or ""))}
    occupied.update(sq for label in busy if (sq := kit_board.parse_label(label)))
    ice = grid.parse(glyphs.ice_squares(state))
    for square in ice:
        glyphs.paint_ice(draw, grid.box(*square, inset=2))
    _draw_kamas(draw, state, grid, occupied)
    _draw_pieces(draw, state, grid)
    for col, row in ice:  # 313.6b: a piece standing on a cube: a small cube in the corner
        if (col, row) in occupied:
            x0, y0, x1, _y1 = grid.box(col, row)
            size = (x1 - x0) * 0.42
            glyphs.paint_ice(draw, (round(x1 - size), round(y0 - size * 0.1), round(x1 + size * 0.1),
                                    round(y0 + size)))
    if over is not None:
        over(draw, grid)
    _draw_highlight(draw, state, grid, highlight)


def _draw_start_squares(draw: ImageDraw.ImageDraw, state: State, grid: Grid) -> None:
    """During set-up the starting squares are tinted in the colour of the side's owner."""
    owners = {p.side: p.seat for p in state.players if p.side}
    for side, labels in state.board.arena.starting.items():
        seat = owners.get(side)
        colour = kit.team_colour(seat) if seat is not None else kit.MUTED
        for square in grid.parse(labels):
            x0, y0, x1, y1 = grid.box(*square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=kit.rgba(colour, 0.37))
            draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=colour, width=3)


def _draw_kamas(draw: ImageDraw.ImageDraw, state: State, grid: Grid, occupied: set[tuple[int, int]]) -> None:
    for label, count in sorted(state.board.kamas.items()):
        square = kit_board.parse_label(label)
        if count <= 0 or square is None or not grid.contains(square):
            continue
        x0, y0, x1, y1 = grid.box(*square)
        c = grid.cell
        if square in occupied:  # a coin on the top-right corner stays clear of a token or a printed cost
            paint = (round(x1 - c * 0.4), round(y0 - c * 0.12), round(x1 + c * 0.12), round(y0 + c * 0.4))
            painted(draw, glyphs.paint_kama, paint, count, TEXT)
        else:
            m = round(c * 0.15)
            painted(draw, glyphs.paint_kama, (x0 + m, y0 + m, x1 - m, y1 - m), count, TEXT)


def _draw_trap(draw: ImageDraw.ImageDraw, piece: PieceState, box: kit.Box) -> None:
    """315.6c: a trap lies flat on a free square, so it is drawn under pieces, not as a token."""
    x0, y0, x1, y1 = box
    colour = kit.team_colour(piece.owner)
    draw.rectangle(box, outline=colour, width=max(2, (x1 - x0) // 14))
    m = (x1 - x0) // 4
    glyphs.paint_summon_mark(draw, (x0 + m, y0 + m, x1 - m, y1 - m), "trap", colour)


def _draw_pieces(draw: ImageDraw.ImageDraw, state: State, grid: Grid) -> None:
    size = max(TEXT * 2 // 3, min(TEXT, grid.cell * 7 // 16))
    active_id = active_piece_id(state)
    placed = []
    for piece in sorted(state.pieces.values(), key=lambda p: p.id):
        square = kit_board.parse_label(piece.pos or "") if piece.in_play else None
        if square is not None and grid.contains(square):
            if piece.summon == "trap":  # traps are public in part 2 (315.6 hides nothing)
                _draw_trap(draw, piece, grid.box(*square, inset=max(3, grid.cell // 10)))
            else:
                placed.append((piece, square))
    for piece, square in placed:
        if piece.id == active_id:
            kit_board.active_frame(draw, grid.box(*square), grid.cell)
    for piece, square in placed:
        active = piece.id == active_id
        inset = max(2, grid.cell // 18)
        if piece.summon is not None:  # 315.1: a summon is a slightly smaller token with its kind marked
            inset += grid.cell // 26
        x0, y0, x1, y1 = grid.box(*square, inset=inset)
        painted(draw, kit_board.draw_token, (x0, y0, x1, y1), kit.team_colour(piece.owner), piece.short,
                wounds=piece.wounds, hp=piece.hp, shape=shape_of(state, piece.owner), size=size,
                ring=kit.HIGHLIGHT if active else None, show_hp=piece.summon != "trap", label_room=grid.cell - 2)
        if piece.summon is not None:
            m = max(8, grid.cell // 4)
            sx1, sy0 = x1 + grid.cell // 10, y0 - grid.cell // 10
            glyphs.paint_summon_mark(draw, (sx1 - m, sy0, sx1, sy0 + m), piece.summon, kit.team_colour(piece.owner))
        r = max(5, grid.cell // 10)
        dx = 0
        if piece.powers_lost:  # 314.2d: a "no powers" sign in the top-left corner, before the dice
            d = max(12, grid.cell * 2 // 7)
            glyphs.paint_no_powers(draw, (x0 - 2, y0 - 2, x0 - 2 + d, y0 - 2 + d))
            dx = d
        for i, insp in enumerate(piece.inspirations[:2]):  # a small die per inspiration, top-left
            cx, cy = x0 + dx + r + i * (2 * r + 2), y0 + r
            draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=glyphs.FACE_COLOURS.get(insp.face, kit.MUTED),
                           outline=kit.INK, width=1)


def _draw_highlight(draw: ImageDraw.ImageDraw, state: State, grid: Grid, highlight: Iterable[str] | None) -> None:
    """Caller-marked squares (or pieces by id), e.g. the squares of the last action."""
    if not highlight:
        return
    labels = []
    for item in highlight:
        piece = state.pieces.get(item)
        labels.append(piece.pos if piece is not None and piece.pos else item)
    for square in grid.parse(labels):
        kit_board.mark(draw, grid.box(*square))


def legend(state: State, lang: str) -> list[LegendEntry]:
    """What the board shows right now, in the order a player meets it."""
    arena = state.board.arena
    entries: list[LegendEntry] = []
    if arena.trees:
        entries.append((glyphs.paint_tree, t("render.km.legend.tree", lang)))
    if arena.bushes:
        entries.append((glyphs.paint_bush, t("render.km.legend.bush", lang)))
    if arena.crates:
        entries.append((glyphs.paint_crate, t("render.km.legend.crate", lang)))
    if glyphs.ice_squares(state):
        entries.append((glyphs.paint_ice, t("render.km.legend.ice", lang)))
    if arena.rink:
        entries.append((glyphs.swatch(glyphs.RINK, glyphs.GRID_LINE), t("render.km.legend.rink", lang)))
    if state.board.kamas:
        entries.append((glyphs.paint_kama_legend, t("render.km.legend.kama", lang)))
    if arena.demon_squares:
        entries.append((glyphs.paint_demon, t("render.km.legend.demon", lang)))
    if any(p.in_play and p.pos and p.summon != "trap" for p in state.pieces.values()):
        entries.append((glyphs.paint_hp_legend, t("render.km.legend.hp", lang)))
    if any(p.ap_frozen or p.mp_frozen or p.frozen_wounds for p in state.pieces.values() if p.in_play):
        entries.append((glyphs.swatch(kit.OKABE_ITO["blue"]), t("render.km.legend.frozen", lang)))
    if any(p.powers_lost for p in state.pieces.values() if p.in_play):
        entries.append((glyphs.paint_no_powers, t("render.km.legend.no_powers", lang)))
    if state.phase in ("choose_side", "deploy"):
        entries.append((glyphs.swatch(glyphs.START_SWATCH), t("render.km.legend.start", lang)))
    if active_piece_id(state) and state.phase == "turn":
        entries.append((glyphs.swatch(kit.HIGHLIGHT), t("render.km.legend.active", lang)))
    kinds = {p.summon for p in state.pieces.values() if p.summon is not None and p.in_play}
    for kind in ("creature", "bomb", "turret", "trap"):
        if kind in kinds:
            entries.append((glyphs.summon_painter(kind), t(f"render.km.legend.{kind}", lang)))
    return entries
