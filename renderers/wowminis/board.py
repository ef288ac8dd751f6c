"""The map: hexes, terrain, spawn points, VP locations, coordinates, and the pieces on it.

The empty map (ground, terrain, spawn rings, VP stars, coordinates, the panel's card)
depends only on the map and on which seat holds which side, so it is drawn once and copied
(ARCHITECTURE.md §6); a snapshot draws the highlight, the tokens and any overlay on the copy.

A token fills its hex: the seat's colour, its three-letter name over its health (a number
on a two-tone strip, ``kit_board.draw_hp_strip``). Seat 0's tokens are hexes, seat 1's
discs, so teams differ by shape as well as colour. The active character stands on a yellow
hex that spills over the grid lines: the first thing the eye finds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.wowminis import rules_stats
from engines.wowminis.content import MapDef
from engines.wowminis.state import CharState, State
from renderers import kit, kit_board
from renderers.kit_panel import LegendEntry
from renderers.wowminis import coordinates, glyphs, ring
from renderers.wowminis.layout import (
    COORD_Y,
    HEIGHT,
    LEFT_X1,
    PANEL_BOX,
    WIDTH,
    HexGrid,
    active_char,
    grid_for,
    seat_colour,
    shape_of,
    token_size,
)
from renderers.wowminis.words import tr

Overlay = Callable[[ImageDraw.ImageDraw, HexGrid], None]


def _ints(points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    return [(round(x), round(y)) for x, y in points]


@lru_cache(maxsize=16)
def static_layer(map_json: str, sides: tuple[tuple[str, kit.RGB], ...]) -> Image.Image:
    """The whole canvas with the empty map; keyed by the map's JSON (a server pack may reuse a
    built-in id) and by the side colours (which seat holds side A)."""
    board = MapDef.model_validate_json(map_json)
    grid = grid_for(board.columns, board.rows)
    image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
    draw = kit.Draw(image)
    draw.rounded_rectangle(PANEL_BOX, radius=10, fill=kit.PANEL)
    paint_map(draw, board, grid, sides)
    return image


Cut = Callable[[ImageDraw.ImageDraw, str, MapDef, HexGrid], bool]
"""Puts a window's hexes and terrain on ``draw`` (its map's JSON and parsed map given) some faster way than
drawing them (``window.cut``); False when it cannot, and they are drawn."""


def paint_window(draw: ImageDraw.ImageDraw, map_json: str, sides: tuple[tuple[str, kit.RGB], ...],
                 grid: HexGrid, cut: Cut | None = None) -> None:
    """Over a whole-map canvas (RGB or its palette form), the map column cleared and ``grid``'s window drawn:
    its hexes and terrain by ``cut`` where it can, the rest as ``paint_map`` draws it."""
    board = MapDef.model_validate_json(map_json)
    full = grid_for(board.columns, board.rows)
    draw.rectangle((0, 0, LEFT_X1 + 2, round(full.bottom + COORD_Y)), fill=kit.BACKGROUND)
    cut_done = cut is not None and cut(draw, map_json, board, grid)
    paint_map(draw, board, grid, sides, ground=not cut_done)


def paint_map(draw: ImageDraw.ImageDraw, board: MapDef, grid: HexGrid, sides: tuple[tuple[str, kit.RGB], ...],
              *, ground: bool = True) -> None:
    """The hexes ``grid`` shows: ground, terrain (unless ``ground`` is False: a window cut them already), spawn
    rings, VP stars, and the coordinates around them."""
    if ground:
        paint_ground(draw, board, grid)
    paint_points(draw, board, grid, sides)
    with kit.region("board"):
        coordinates.draw(draw, grid)  # (a zoomed window's pasted from its scale's strips, issue 28)


def paint_ground(draw: ImageDraw.ImageDraw, board: MapDef, grid: HexGrid) -> None:
    """The hexes ``grid`` shows, each with its terrain, each inside its own outline (a cut of them is a cut of
    whole hexes: ``window.cut``)."""
    holes = {grid.at(label) for label in board.holes}
    terrain = {grid.at(label): kind for label, kind in board.terrain.items()}
    for col, row in grid.cells():
        if (col, row) in holes:
            continue
        points = grid.polygon(col, row)
        kind = terrain.get((col, row))
        if kind == "impassable":
            glyphs.paint_impassable(draw, points, grid.s)
            continue
        draw.polygon(_ints(points), fill=glyphs.GROUND, outline=glyphs.GRID_LINE, width=2)
        if kind == "cover":
            glyphs.paint_cover(draw, grid.polygon(col, row, 2))
        elif kind == "elevated":
            glyphs.paint_elevated(draw, points, grid.s)


def paint_points(draw: ImageDraw.ImageDraw, board: MapDef, grid: HexGrid,
                 sides: tuple[tuple[str, kit.RGB], ...]) -> None:
    """Spawn rings and VP stars on the hexes ``grid`` shows (over their ground: ``paint_ground`` first)."""
    colours = dict(sides)
    for point in board.spawn_points:
        cell = grid.at(point.at)
        if cell is not None:
            colour = colours.get(point.at, colours.get(point.side, glyphs.NEUTRAL))  # a dealt point: its seat's
            glyphs.paint_spawn(draw, *grid.centre(*cell), grid.s, colour)
    for label in board.vp_locations:
        cell = grid.at(label)
        if cell is not None:
            glyphs.paint_vp_rim(draw, grid.polygon(*cell, 1), grid.s)
            glyphs.paint_star(draw, *grid.centre(*cell), grid.s * 0.5)


# -- pieces ---------------------------------------------------------------------------------


def draw_board(draw: ImageDraw.ImageDraw, state: State, grid: HexGrid, *, under: Overlay | None = None,
               over: Overlay | None = None) -> None:
    """Everything on the map that changes: the active hex, overlays, totems, tokens."""
    active = active_char(state)
    cell = grid.at(active.pos) if active is not None else None
    if cell is not None:
        draw.polygon(_ints(grid.polygon(*cell, -3)), fill=kit.HIGHLIGHT, outline=kit.INK_DARK, width=2)
    if under is not None:
        under(draw, grid)
    action = _current_action(state)
    if action is not None:
        draw_action(draw, grid, *action, heads=False)
    _draw_pet_lines(draw, state, grid)
    occupied = {c.pos for c in state.chars.values() if c.pos}
    totems = sorted(state.totems.values(), key=lambda x: x.id)
    for totem in totems:
        if totem.pos not in occupied:
            _draw_totem(draw, grid, totem.pos, totem.short, totem.controller, crowded=False)
    for c in sorted(state.chars.values(), key=lambda x: x.id):
        if c.pos is not None and grid.at(c.pos) is not None:
            draw_token(draw, state, grid, c, active=active is not None and c.id == active.id)
    for totem in totems:  # a totem under a character: a small diamond over the token's west tip
        if totem.pos in occupied:
            _draw_totem(draw, grid, totem.pos, totem.short, totem.controller, crowded=True)
    if action is not None:
        draw_action(draw, grid, *action, heads=True)
    if over is not None:
        over(draw, grid)


def _current_action(state: State) -> tuple[str, list[str], list[str]] | None:
    """The ability being resolved (the innermost play on the stack): where its caster stands,
    where its targets stand, and its AOE area (407.2), as labels."""
    from engines.wowminis.state import PlayFrame

    frame = next((f for f in reversed(state.stack) if isinstance(f, PlayFrame)), None)
    if frame is None:
        return None
    caster = state.chars.get(frame.caster)
    if caster is None or caster.pos is None:
        return None
    spots: list[str] = []
    for tid in frame.targets:
        piece = state.chars.get(tid) or state.totems.get(tid)
        if piece is not None and piece.pos is not None and piece.pos != caster.pos:
            spots.append(piece.pos)
    if frame.space and not frame.area and frame.space != caster.pos:
        spots.append(frame.space)
    return caster.pos, list(dict.fromkeys(spots)), list(frame.area)


def draw_action(draw: ImageDraw.ImageDraw, grid: HexGrid, source: str, targets: list[str], area: list[str], *,
                 heads: bool) -> None:
    """Last action overlay (7.2): the AOE's hexes framed black and white (the kit's "this
    square" mark) and a white arrow from the caster to each target; shafts go under the
    tokens, arrowheads over them at the target's rim, so no name is covered."""
    import math

    a = grid.at(source)
    if a is None:
        return
    ax, ay = grid.centre(*a)
    if not heads:  # under the tokens, spilling over the grid lines: it shows as a rim round a token
        for label in area:  # and never crosses a name (names may spill past their hex's edges)
            cell = grid.at(label)
            if cell is not None:
                draw.polygon(_ints(grid.polygon(*cell, -3)), outline=kit.INK_DARK, width=8)
                draw.polygon(_ints(grid.polygon(*cell, -2)), outline=kit.INK, width=5)
    for label in targets:
        b = grid.at(label)
        if b is None:
            continue
        bx, by = grid.centre(*b)
        d = math.hypot(bx - ax, by - ay) or 1
        ux, uy = (bx - ax) / d, (by - ay) / d
        tip = (bx - ux * grid.s * 0.86, by - uy * grid.s * 0.86)
        if not heads:
            for w, colour in ((9, kit.INK_DARK), (4, kit.INK)):
                draw.line((round(ax), round(ay), round(tip[0]), round(tip[1])), fill=colour, width=w)
            continue
        size = grid.s * 0.5
        back = (tip[0] - ux * size, tip[1] - uy * size)
        head = [tip, (back[0] - uy * size * 0.55, back[1] + ux * size * 0.55),
                (back[0] + uy * size * 0.55, back[1] - ux * size * 0.55)]
        draw.polygon(_ints(head), fill=kit.INK, outline=kit.INK_DARK, width=2)


def draw_token(draw: ImageDraw.ImageDraw, state: State, grid: HexGrid, c: CharState, *, active: bool) -> None:
    """A character on its hex: name over health; pets smaller; Stealth as a dashed edge; a character under a mind
    control (400.3) in its controller's colour, ringed with its owner's."""
    cell = grid.at(c.pos)
    assert cell is not None
    cx, cy = grid.centre(*cell)
    s = grid.s
    size = token_size(grid)
    colour = seat_colour(c.controller)
    edge, edge_w = (kit.INK_DARK, 2) if not active else (kit.INK_DARK, 3)
    pet = c.kind == "pet"
    if pet or shape_of(state, c.controller) == "round":
        r = s * (0.72 if pet else 0.84)
        draw.ellipse((round(cx - r), round(cy - r), round(cx + r), round(cy + r)), fill=colour, outline=edge,
                     width=edge_w)
        box = (round(cx - s * 0.9), round(cy - s * 0.84), round(cx + s * 0.9), round(cy + s * 0.84))
    else:
        points = grid.polygon(*cell, max(3, s * 0.12))
        draw.polygon(_ints(points), fill=colour, outline=edge, width=edge_w)
        box = (round(cx - s * 0.9), round(cy - s * 0.78), round(cx + s * 0.9), round(cy + s * 0.78))
    if c.controller != c.owner:  # 400.3: under a mind control: its owner's colour rings the controller's token
        r = s * 0.98
        draw.ellipse((round(cx - r), round(cy - r), round(cx + r), round(cy + r)), outline=kit.INK_DARK,
                     width=max(4, round(s * 0.2)))
        draw.ellipse((round(cx - r), round(cy - r), round(cx + r), round(cy + r)), outline=seat_colour(c.owner),
                     width=max(2, round(s * 0.12)))
    kit.note("token", box, c.short)
    room = round(s * 2)  # the name may spill past the token's rim onto its hex's corners
    name_size = kit.fit_size(c.short, size, room, minimum=max(10, size * 2 // 3), stroke=kit.outline_width(size))
    strip = kit_board.strip_height(size)
    name_y = cy - strip / 2 + 1
    kit.draw_text(draw, (cx, name_y - s * 0.08), c.short, name_size, kit.INK, anchor="mm", outline=kit.INK_DARK)
    top = round(cy + s * 0.05)
    half = round(max(kit.text_width("12", size, kit.outline_width(size)) / 2 + 3, s * 0.52))
    hp = max(1, rules_stats.max_health(state, c))
    kit_board.draw_hp_strip(draw, (round(cx) - half, top, round(cx) + half, top + strip), hp - c.health, hp, size)
    if rules_stats.stealthed(state, c) or ("stealth" in c.defn.keywords and active):
        glyphs.dashed_polygon(draw, _ints(grid.polygon(*cell, 1)), kit.INK, 3, s * 0.28)


def _draw_pet_lines(draw: ImageDraw.ImageDraw, state: State, grid: HexGrid) -> None:
    """304: a thin line from each pet to its master, drawn under both tokens."""
    for c in state.chars.values():
        if c.kind != "pet" or c.master_id is None or c.pos is None:
            continue
        master = state.chars.get(c.master_id)
        a, b = grid.at(c.pos), grid.at(master.pos if master else None)
        if a is None or b is None:
            continue
        (ax, ay), (bx, by) = grid.centre(*a), grid.centre(*b)
        draw.line((round(ax), round(ay), round(bx), round(by)), fill=kit.INK_DARK, width=5)
        draw.line((round(ax), round(ay), round(bx), round(by)), fill=seat_colour(c.controller), width=2)


def _draw_totem(draw: ImageDraw.ImageDraw, grid: HexGrid, pos: str, short: str, seat: int, *, crowded: bool) -> None:
    """303: a diamond in the creator's colour; small in the hex's west tip when a character
    stands there too (totems share spaces), else big enough for its label."""
    cell = grid.at(pos)
    if cell is None:
        return
    cx, cy = grid.centre(*cell)
    s = grid.s
    if crowded:
        cx, cy, r = cx - s * 0.74, cy + s * 0.12, s * 0.3
    else:
        r = s * 0.9
    diamond = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    draw.polygon(_ints(diamond), fill=seat_colour(seat), outline=kit.INK_DARK, width=2)
    if not crowded:
        size = token_size(grid)
        label_size = kit.fit_size(short, size, round(s * 2.2), minimum=max(10, size * 2 // 3), stroke=2)
        kit.draw_text(draw, (cx, cy), short, label_size, kit.INK, anchor="mm", outline=kit.INK_DARK)
        kit.note("token", (round(cx - r), round(cy - r), round(cx + r), round(cy + r)), short)


# -- legend ---------------------------------------------------------------------------------


def legend(state: State, lang: str) -> list[LegendEntry]:
    """What the map shows, in the order a player meets it; only what this map has."""
    kinds = set(state.board.terrain.values())
    entries: list[LegendEntry] = []
    if "cover" in kinds:
        entries.append((glyphs.legend_cover, tr("legend.cover", lang)))
    if "elevated" in kinds:
        entries.append((glyphs.legend_elevated, tr("legend.elevated", lang)))
    if "impassable" in kinds:
        entries.append((glyphs.legend_impassable, tr("legend.impassable", lang)))
    entries.append((glyphs.legend_spawn, tr("legend.spawn", lang)))
    if state.board.vp_locations:
        ticks = "/".join(str(x) for x in state.scenario.vp_location_ticks)
        entries.append((glyphs.legend_vp, tr("legend.vp", lang, ticks=ticks)))
    entries.append((glyphs.legend_refresh, tr("legend.refresh", lang)))
    if state.chars:  # the ring's count chips (issue 27.5), named here only (not again under the roster)
        entries.append((ring.legend_chip, tr("legend.at_tick", lang)))
    return entries
