"""Krosmaster Arena board pictures: the arena, the pieces and a side panel (DESIGN.md §6).

``render`` turns a state into PNG bytes; ``render_preview`` adds what the active piece
could do (reachable squares with their MP cost, or a spell's targets and area). Both are
pure: they read the state, never change it, and the same state gives the same bytes.

Layout (1200 x 896 px): title bar on top; the board on the left with coordinates on all
four edges; the panel on the right with whose turn it is, then each player's timeline
(in 2-vs-2, team by team in framed boxes labelled "Team A" / "Team B").
Discord shows the picture ~500 px wide, so board labels are sized to stay readable at
that scale (about 10 px tall) and the turn banner is the largest thing in the panel.

The empty arena (ground, scenery, demon squares, coordinates) depends only on the arena,
so it is drawn once per arena and copied; a snapshot draws kamas, pieces and the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from common import i18n
from common.i18n import t
from engines.krosmaster.content import Arena
from engines.krosmaster.state import PieceState, PlayerState, State
from renderers import kit
from renderers.kit import RGB, Box, Grid

WIDTH = 1200
HEIGHT = 896
TITLE_H = 64
BOARD_AREA = HEIGHT - TITLE_H  # square region holding the board and its coordinate margins
MARGIN = 32
PANEL_LEFT = BOARD_AREA + 14
PANEL_WIDTH = WIDTH - PANEL_LEFT - 14

GROUND_A: RGB = (233, 222, 190)
GROUND_B: RGB = (219, 205, 168)
GRID_LINE: RGB = (150, 136, 104)
TREE: RGB = (31, 84, 52)
TREE_LIGHT: RGB = (52, 120, 72)
TRUNK: RGB = (101, 67, 33)
BUSH: RGB = (118, 178, 84)
BUSH_DARK: RGB = (64, 120, 50)
CRATE: RGB = (176, 120, 62)
CRATE_DARK: RGB = (105, 66, 30)
KAMA: RGB = kit.OKABE_ITO["orange"]
DEMON: RGB = kit.OKABE_ITO["reddish_purple"]
DEMON_DARK: RGB = (110, 40, 90)
ICE: RGB = (205, 235, 250)
ICE_DARK: RGB = (60, 130, 170)
RINK: RGB = (222, 238, 244)
MOVE: RGB = kit.OKABE_ITO["sky_blue"]
TARGET: RGB = kit.OKABE_ITO["orange"]
AREA: RGB = kit.OKABE_ITO["reddish_purple"]
FACE_COLOURS: dict[str, RGB] = {  # same hues as renderers/dice.py
    "critical": (213, 94, 0),
    "armor": (0, 114, 178),
    "lock": (204, 121, 167),
    "dodge": (0, 158, 115),
    "critical_dodge": (230, 159, 0),
    "dofus": (86, 180, 233),
}
FULL_ROW = 44  # px per timeline row below which rows collapse to one line
TIGHT_ROW = 50  # 2-vs-2: the least a two-line row needs with its smaller type (below: one line)
ROOMY_ROW = 58  # 2-vs-2: from here two-line rows get their larger type and spacing
RowLayout = Literal["full", "tight", "compact"]
SHAPES = ("circle", "square")  # seat 0 discs, seat 1 rounded squares: teams differ without colour
NO_POWERS: RGB = (178, 24, 43)  # the ring and slash of the 314.2d "no powers" sign: darker than any seat
TEAM_HEAD = 24  # px of a 2-vs-2 team box above its first player: the team's label
TEAM_PAD = 2  # px of the box below its last row (a row already ends with some space)
TEAM_GAP = 6  # px between a team box and what follows
TEAM_FILL: RGB = kit.mix(kit.PANEL, kit.INK, 0.06)

PreviewKind = Literal["move", "spell"]
Painter = Callable[[ImageDraw.ImageDraw, Box], None]


# -- geometry --------------------------------------------------------------------------


def grid_for(width: int, height: int) -> Grid:
    """Largest whole-pixel cell that fits the board area, centred in it."""
    cell = (BOARD_AREA - 2 * MARGIN) // max(width, height)
    left = (BOARD_AREA - cell * width) // 2
    top = TITLE_H + (BOARD_AREA - cell * height) // 2
    return Grid(left=left, top=top, cell=cell, cols=width, rows=height)


def _squares(labels: Iterable[str], grid: Grid) -> list[tuple[int, int]]:
    result = []
    for label in labels:
        square = kit.parse_label(label)
        if square is not None and 0 <= square[0] < grid.cols and 0 <= square[1] < grid.rows:
            result.append(square)
    return result


# -- scenery glyphs (shared by the board and the legend) ---------------------------------


def paint_tree(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A dark round canopy on a trunk: tall and solid because trees block line of sight."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w = x1 - x0
    draw.rectangle((x0 + w * 0.42, y0 + w * 0.55, x0 + w * 0.58, y1 - w * 0.08), fill=TRUNK)
    draw.ellipse((x0 + w * 0.1, y0 + w * 0.06, x1 - w * 0.1, y0 + w * 0.74), fill=TREE, outline=kit.INK_DARK,
                 width=max(1, w // 32))
    draw.ellipse((x0 + w * 0.26, y0 + w * 0.16, x0 + w * 0.5, y0 + w * 0.4), fill=TREE_LIGHT)


def paint_bush(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Three low light-green blobs: low and light because bushes do not block sight."""
    x0, y0, x1, _y1 = (round(v) for v in box)
    w = x1 - x0
    o = max(1, w // 32)
    for cx, r in ((0.3, 0.2), (0.7, 0.2), (0.5, 0.24)):
        cy = 0.62 if r < 0.22 else 0.5
        draw.ellipse((x0 + w * (cx - r), y0 + w * (cy - r), x0 + w * (cx + r), y0 + w * (cy + r)), fill=BUSH,
                     outline=BUSH_DARK, width=o)


def paint_crate(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A wooden box with a cross brace."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w = x1 - x0
    i = w * 0.14
    inner = (x0 + i, y0 + i, x1 - i, y1 - i)
    draw.rectangle(inner, fill=CRATE, outline=CRATE_DARK, width=max(2, w // 16))
    draw.line((inner[0], inner[1], inner[2], inner[3]), fill=CRATE_DARK, width=max(2, w // 20))
    draw.line((inner[0], inner[3], inner[2], inner[1]), fill=CRATE_DARK, width=max(2, w // 20))


def paint_demon(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A purple square with a horned mark: a demonic reward square."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w = x1 - x0
    draw.rectangle(box, fill=kit.mix(DEMON, (255, 255, 255), 0.25))
    draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=DEMON_DARK, width=max(1, w // 22))
    cx, cy, r = x0 + w / 2, y0 + w * 0.56, w * 0.2
    draw.polygon([(cx - r, cy - r * 0.2), (cx - r * 1.2, cy - r * 1.7), (cx - r * 0.3, cy - r * 0.8)], fill=DEMON_DARK)
    draw.polygon([(cx + r, cy - r * 0.2), (cx + r * 1.2, cy - r * 1.7), (cx + r * 0.3, cy - r * 0.8)], fill=DEMON_DARK)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEMON_DARK)


def paint_kama(draw: ImageDraw.ImageDraw, box: Box, count: int = 1) -> None:
    """A gold coin; the number of kamas on the square is written on it."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w = x1 - x0
    draw.ellipse(box, fill=KAMA, outline=kit.INK_DARK, width=max(1, w // 14))
    draw.ellipse((x0 + w * 0.18, y0 + w * 0.18, x1 - w * 0.18, y1 - w * 0.18), outline=(150, 100, 0),
                 width=max(1, w // 16))
    if w >= 18:
        kit.draw_text(draw, (x0 + w / 2, y0 + w / 2), str(count), max(10, int(w * 0.55)), kit.INK_DARK, anchor="mm",
                      bold=True)


def paint_ice(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A pale blue cube with a highlight edge (Frigost ice cubes, not in the engine yet)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w = x1 - x0
    i = round(w * 0.16)
    draw.rounded_rectangle((x0 + i, y0 + i, x1 - i, y1 - i), radius=max(2, w // 10), fill=ICE, outline=ICE_DARK,
                           width=max(2, w // 20))
    draw.line((x0 + 2 * i, y0 + 2 * i, x1 - 2 * i, y0 + 2 * i), fill=kit.INK, width=max(2, w // 20))


def ice_squares(state: State) -> list[str]:
    """Ice cube squares, if the engine ever stores them (``board.ice`` or ``arena.ice_cubes``).

    Read defensively with ``getattr`` so the renderer keeps working before and after the
    engine grows the field; a dict (square -> count) or a list of labels are both accepted.
    """
    for holder, name in ((state.board, "ice"), (state.board, "ice_cubes"), (state.board.arena, "ice_cubes")):
        value = getattr(holder, name, None)
        if value:
            return sorted(str(k) for k in value)
    return []


def _paint_swatch(colour: RGB, outline: RGB = kit.INK_DARK, width: int = 3) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box) -> None:
        draw.rectangle(box, fill=colour, outline=outline, width=width)

    return paint


# -- the static layer --------------------------------------------------------------------


@lru_cache(maxsize=16)
def _static_layer(arena_json: str) -> Image.Image:
    """The whole canvas with the empty arena; keyed by the arena's JSON, not only its id,
    because a server pack may redefine an arena under a built-in id."""
    arena = Arena.model_validate_json(arena_json)
    grid = grid_for(arena.width, arena.height)
    image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((PANEL_LEFT - 6, TITLE_H + 8, WIDTH - 6, HEIGHT - 8), fill=kit.PANEL)
    draw.rectangle((grid.left - 4, grid.top - 4, grid.right + 3, grid.bottom + 3), fill=kit.INK_DARK)
    for col, row in grid.squares():
        draw.rectangle(grid.box(col, row), fill=GROUND_A if (col + row) % 2 == 0 else GROUND_B, outline=GRID_LINE)
    for square in _squares(arena.rink, grid):  # 313.6a: the skating rink the ice cubes slide on
        draw.rectangle(grid.box(*square), fill=RINK, outline=GRID_LINE)
    for square in _squares(arena.demon_squares, grid):
        paint_demon(draw, grid.box(*square))
    for labels, paint in ((arena.crates, paint_crate), (arena.bushes, paint_bush), (arena.trees, paint_tree)):
        for square in _squares(labels, grid):
            paint(draw, grid.box(*square, inset=2))
    kit.draw_coordinates(draw, grid, size=max(18, min(26, grid.cell * 2 // 5)), margin=MARGIN)
    return image


# -- text helpers ------------------------------------------------------------------------


def _name(player: PlayerState, seat_names: Mapping[int, str] | None) -> str:
    if seat_names and player.seat in seat_names:
        return str(seat_names[player.seat])
    return player.name


def _acting_seats(state: State) -> list[int]:
    """Who must act now, mirroring the engine's decision without importing its class."""
    if state.phase == "over":
        return []
    if state.multi is not None and state.multi.gifts:  # 702.5: who gets the GG of a self-K.O.
        return [state.multi.gifts[0]["chooser"]]
    if state.multi is not None and state.multi.tension:  # 702.6: who loses a GG
        return [state.multi.tension[0]]
    if state.phase == "order_ties":
        return [p.seat for p in state.players if p.ties_pending]
    if state.phase == "choose_side":
        return [state.multi.seating[0] if state.multi is not None else state.opponent(state.first_seat).seat]
    if state.phase == "deploy":
        for seat in state.seat_order():
            if any(p.pos is None and not p.ko for p in state.pieces_of(seat)):
                return [seat]
        return []
    return [state.active_seat]


def team_of(state: State, seat: int) -> int | None:
    """The seat's 2-vs-2 team (703), None outside a team game."""
    multi = state.multi
    if multi is None or multi.mode != "teams" or not multi.teams:
        return None
    return multi.teams.get(seat)


def shape_of(state: State, seat: int) -> str:
    """Token shape: by seat (0 discs, 1 squares), in 2-vs-2 by team, so allies share a shape."""
    team = team_of(state, seat)
    return SHAPES[(seat if team is None else team) % 2]


def panel_groups(state: State, lang: str = "en") -> list[tuple[str | None, list[int]]]:
    """The panel's players, grouped: ``[(label, seats), ...]`` in the order they are drawn.

    1-vs-1 and free-for-all: one group without a label, seats in play order (section 7).
    2-vs-2 (703): one group per team, labelled "Team A" / "Team B"; team A is the first
    player's, and each team lists its players in play order (players 1-3, then 2-4).
    """
    order = list(state.multi.seating) if state.multi is not None else sorted(p.seat for p in state.players)
    known = {p.seat for p in state.players}
    order = [s for s in order if s in known] + sorted(known - set(order))
    if not any(team_of(state, s) is not None for s in order):
        return [(None, order)]
    teams: list[int | None] = []
    for seat in order:
        if team_of(state, seat) not in teams:
            teams.append(team_of(state, seat))
    return [(t("render.km.team", lang, letter=chr(ord("A") + i)), [s for s in order if team_of(state, s) == team])
            for i, team in enumerate(teams)]


def _signed(value: int, unit: str) -> str:
    return f"{value:+d} {unit}"


def _status_line(state: State, lang: str) -> str:
    phase = t(f"render.km.phase.{state.phase}", lang)
    if state.turn_number <= 0:
        return f"{t('render.km.setup', lang)} · {phase}"
    seats = len(state.players)  # section 7: a round is one turn of each player
    rnd = (state.turn_number + seats - 1) // seats
    return f"{t('render.km.round_turn', lang, round=rnd, turn=state.turn_number)} · {phase}"


# -- board layer ---------------------------------------------------------------------------


def _draw_start_squares(draw: ImageDraw.ImageDraw, state: State, grid: Grid) -> None:
    """During set-up the starting squares are tinted in the colour of the side's owner."""
    owners = {p.side: p.seat for p in state.players if p.side}
    for side, labels in state.board.arena.starting.items():
        seat = owners.get(side)
        colour = kit.team_colour(seat) if seat is not None else kit.MUTED
        for square in _squares(labels, grid):
            x0, y0, x1, y1 = grid.box(*square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=(*colour, 95))
            draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=(*colour, 255), width=3)


def _draw_kamas(draw: ImageDraw.ImageDraw, state: State, grid: Grid, occupied: set[tuple[int, int]]) -> None:
    for label, count in sorted(state.board.kamas.items()):
        if count <= 0:
            continue
        square = kit.parse_label(label)
        if square is None or not (0 <= square[0] < grid.cols and 0 <= square[1] < grid.rows):
            continue
        x0, y0, x1, y1 = grid.box(*square)
        c = grid.cell
        if square in occupied:  # a small coin in the corner, above the token, stays visible
            paint_kama(draw, (x1 - c * 0.42, y0 + 1, x1 - 1, y0 + c * 0.42 - 1), count)
        else:
            paint_kama(draw, (x0 + c * 0.2, y0 + c * 0.2, x1 - c * 0.2, y1 - c * 0.2), count)


def _frame(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int) -> None:
    """A border with a thin dark line inside, so it reads on sand, grass and tokens alike."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=colour, width=width)
    draw.rectangle((x0 + width, y0 + width, x1 - width, y1 - width), outline=kit.INK_DARK, width=1)


def _draw_active_frame(draw: ImageDraw.ImageDraw, box: Box, cell: int) -> None:
    """A thick yellow frame spilling over the grid lines: the first thing the eye finds.

    It is drawn before the pieces, so a neighbour's token stays whole on top of it.
    """
    x0, y0, x1, y1 = box
    out = max(4, cell // 12)
    draw.rectangle((x0 - out - 2, y0 - out - 2, x1 + out + 2, y1 + out + 2), fill=kit.HIGHLIGHT, outline=kit.INK_DARK,
                   width=2)


def paint_summon_mark(draw: ImageDraw.ImageDraw, box: Box, kind: str, colour: RGB = kit.INK) -> None:
    """315.1c: a small shape per summon kind, so a token tells what it is without reading a card."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(3, (x1 - x0) / 2 - 1)
    if kind == "creature":  # a paw: one pad, two toes
        draw.ellipse((cx - r * 0.6, cy - r * 0.1, cx + r * 0.6, cy + r * 0.9), fill=colour, outline=kit.INK_DARK)
        for dx in (-0.55, 0.55):
            draw.ellipse((cx + dx * r - r * 0.3, cy - r * 0.9, cx + dx * r + r * 0.3, cy - r * 0.3), fill=colour,
                         outline=kit.INK_DARK)
    elif kind == "bomb":  # a round bomb and its fuse
        draw.ellipse((cx - r * 0.8, cy - r * 0.5, cx + r * 0.8, cy + r), fill=kit.INK_DARK, outline=colour)
        draw.line((cx + r * 0.3, cy - r * 0.4, cx + r * 0.8, cy - r), fill=(240, 150, 40), width=2)
    elif kind == "turret":  # a crenellated tower
        draw.rectangle((cx - r * 0.7, cy - r * 0.4, cx + r * 0.7, cy + r), fill=colour, outline=kit.INK_DARK)
        for dx in (-0.7, -0.1, 0.5):
            draw.rectangle((cx + dx * r, cy - r, cx + (dx + 0.25) * r, cy - r * 0.4), fill=colour,
                           outline=kit.INK_DARK)
    else:  # trap: jaws, a diamond with a cross
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour, outline=kit.INK_DARK)
        draw.line((cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4), fill=kit.INK_DARK, width=2)
        draw.line((cx - r * 0.4, cy + r * 0.4, cx + r * 0.4, cy - r * 0.4), fill=kit.INK_DARK, width=2)


def paint_no_powers(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """314.2d: a prohibition sign (white disc, red ring and slash): the piece has lost its powers.

    The white disc keeps it visible on every team colour, the dark rim on sand and grass.
    """
    x0, y0, x1, y1 = box
    w = x1 - x0
    ring = max(2, round(w / 7))
    draw.ellipse(box, fill=kit.INK_DARK)
    draw.ellipse((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=kit.INK, outline=NO_POWERS, width=ring)
    k = 0.5 - 0.5 / 2 ** 0.5  # where the 45-degree diameter meets the circle
    draw.line((x0 + w * k + 2, y0 + w * k + 2, x1 - w * k - 2, y1 - w * k - 2), fill=NO_POWERS, width=ring)


def _summon_painter(kind: str) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box) -> None:
        paint_summon_mark(draw, box, kind, kit.MUTED)

    return paint


def _draw_trap(draw: ImageDraw.ImageDraw, piece: PieceState, box: Box) -> None:
    """315.6c: a trap lies flat on a free square, so it is drawn under pieces, not as a token."""
    x0, y0, x1, y1 = box
    colour = kit.team_colour(piece.owner)
    draw.rectangle((x0, y0, x1, y1), outline=colour, width=max(2, (x1 - x0) // 14))
    m = (x1 - x0) // 4
    paint_summon_mark(draw, (x0 + m, y0 + m, x1 - m, y1 - m), "trap", colour)


def _draw_pieces(draw: ImageDraw.ImageDraw, state: State, grid: Grid) -> None:
    size = max(14, min(28, grid.cell * 13 // 32))
    placed = []
    for piece in sorted(state.pieces.values(), key=lambda p: p.id):
        square = kit.parse_label(piece.pos or "") if piece.in_play else None
        if square is not None and 0 <= square[0] < grid.cols and 0 <= square[1] < grid.rows:
            if piece.summon == "trap":  # traps are public in part 2 (315.6 hides nothing)
                _draw_trap(draw, piece, grid.box(*square, inset=max(3, grid.cell // 10)))
            else:
                placed.append((piece, square))
    for piece, square in placed:
        if piece.id == state.active_piece and state.phase != "over":
            _draw_active_frame(draw, grid.box(*square), grid.cell)
    for piece, square in placed:
        active = piece.id == state.active_piece and state.phase != "over"
        inset = max(3, grid.cell // 16) if active else max(2, grid.cell // 20)
        if piece.summon is not None:  # 315.1: a summon is a smaller token with its kind marked
            inset += grid.cell // 8
        x0, y0, x1, y1 = grid.box(*square, inset=inset)
        kit.draw_token(draw, (x0, y0, x1, y1), kit.team_colour(piece.owner), piece.short, wounds=piece.wounds,
                       hp=piece.hp, shape=shape_of(state, piece.owner), size=size - 4 if piece.summon else size,
                       ring=kit.HIGHLIGHT if active else None)
        if piece.summon is not None:
            m = max(8, grid.cell // 4)
            sx1, sy0 = x1 + grid.cell // 10, y0 - grid.cell // 10
            paint_summon_mark(draw, (sx1 - m, sy0, sx1, sy0 + m), piece.summon, kit.team_colour(piece.owner))
        r = max(5, grid.cell // 10)
        dx = 0
        if piece.powers_lost:  # 314.2d: a "no powers" sign in the top-left corner, before the dice
            d = max(12, grid.cell * 2 // 7)
            paint_no_powers(draw, (x0 - 2, y0 - 2, x0 - 2 + d, y0 - 2 + d))
            dx = d
        for i, insp in enumerate(piece.inspirations[:2]):  # a small die per inspiration, top-left
            cx, cy = x0 + dx + r + i * (2 * r + 2), y0 + r
            draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=FACE_COLOURS.get(insp.face, kit.MUTED),
                           outline=kit.INK, width=1)


def _draw_highlight(draw: ImageDraw.ImageDraw, state: State, grid: Grid, highlight: Iterable[str] | None) -> None:
    """Caller-marked squares (or pieces by id), e.g. the squares of the last action."""
    if not highlight:
        return
    labels = []
    for item in highlight:
        piece = state.pieces.get(item)
        labels.append(piece.pos if piece is not None and piece.pos else item)
    for square in _squares(labels, grid):
        x0, y0, x1, y1 = grid.box(*square)
        draw.rectangle((x0, y0, x1, y1), outline=kit.INK_DARK, width=3)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=kit.INK, width=3)


# -- panel ------------------------------------------------------------------------------


def _face_tile(draw: ImageDraw.ImageDraw, x: int, y: int, face: str, lang: str, size: int) -> int:
    label = t(f"render.km.face.{face}", lang)
    w = kit.text_width(label, size, 1) + 10
    colour = FACE_COLOURS.get(face, kit.MUTED)
    draw.rounded_rectangle((x, y, x + w, y + size + 6), radius=4, fill=colour, outline=kit.INK, width=1)
    kit.draw_text(draw, (x + w / 2, y + (size + 6) / 2), label, size, kit.text_on(colour), anchor="mm", bold=True)
    return w


def _chip_width(text: str, size: int) -> int:
    return kit.text_width(text, size, 1) + 12


def _chip(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, colour: RGB, size: int) -> int:
    w = _chip_width(text, size)
    draw.rounded_rectangle((x, y, x + w, y + size + 6), radius=5, fill=colour)
    kit.draw_text(draw, (x + w / 2, y + (size + 6) / 2), text, size, kit.text_on(colour), anchor="mm", bold=True)
    return w


def _row_layout(row_h: int, four: bool) -> RowLayout:
    """Two lines per piece when they fit, else one ("compact", for big teams).

    Four-player tables (eight rows, and in 2-vs-2 two team labels) also have a "tight"
    two-line layout with smaller type, so 50-57 px rows keep AP/MP and squares without the
    wound bar running into the next row. 1-vs-1 keeps its single threshold.
    """
    if not four:
        return "full" if row_h >= FULL_ROW else "compact"
    return "full" if row_h >= ROOMY_ROW else "tight" if row_h >= TIGHT_ROW else "compact"


def _piece_row(panel: kit.Panel, state: State, piece: PieceState, index: int, lang: str, row_h: int,
               layout: RowLayout | None = None) -> None:
    """One timeline entry; a thin wound bar closes it, so a hurt piece stands out at a glance.

    Full rows (two lines): order, token, name, HP; then AP/MP, tokens, inspiration dice and
    square. Compact rows (one line, for big teams): order, token, name, tokens, dice, HP.
    A piece that lost its powers (314.2d) gets a white "no powers" tag before its tokens
    (the sign alone where the words do not fit) and its inspiration dice struck through.
    """
    draw = panel.draw
    x, y, w = panel.left, panel.y, panel.width
    active = piece.id == state.active_piece and state.phase != "over"
    layout = layout or _row_layout(row_h, False)
    full = layout != "compact"
    tight = layout == "tight"
    size = 17 if tight else 18 if full else 16
    small = size - 2
    ink = kit.INK_DARK if active else (kit.MUTED if piece.ko else kit.INK)
    if active:
        draw.rounded_rectangle((x - 6, y - 3, x + w + 4, y + row_h - 3), radius=6, fill=kit.HIGHLIGHT)
    colour = kit.team_colour(piece.owner) if not piece.ko else (96, 98, 104)
    mid = y + (size + 6) / 2
    kit.draw_text(draw, (x + 8, mid), f"{index}" if index else "-", small, ink if active else kit.MUTED, anchor="mm")
    chip_w = 52
    chip = (x + 20, y, x + 20 + chip_w, y + size + 6)
    draw.rounded_rectangle(chip, radius=(size + 6) // 2 if shape_of(state, piece.owner) == "circle" else 4, fill=colour,
                           outline=kit.INK_DARK)
    label_size = kit.fit_size(piece.short, small, chip_w - 6)
    kit.draw_text(draw, ((chip[0] + chip[2]) / 2, mid), piece.short, label_size, kit.INK, anchor="mm",
                  outline=kit.INK_DARK)
    name_x = chip[2] + 8
    if piece.summon is not None:  # 315: the kind's marker before the name
        paint_summon_mark(draw, (name_x, mid - size / 2, name_x + size, mid + size / 2), piece.summon, colour)
        name_x += size + 6
    ap, mp = t("render.km.ap", lang), t("render.km.mp", lang)
    if piece.ko:  # 308.1: off the board, wounds removed; only its place in the timeline is left
        right = _chip_width(t("render.km.ko", lang), small - 1)
        _chip(draw, x + w - right, y + 2, t("render.km.ko", lang), (150, 40, 40), small - 1)
    else:
        hp_text = f"{t('render.km.hp', lang)} {max(0, piece.hp - piece.wounds)}/{piece.hp}"
        if piece.summon == "trap":  # 315.6: a trap has no HP
            hp_text = ""
        right = kit.text_width(hp_text, size, 1)
        kit.draw_text(draw, (x + w, mid), hp_text, size, ink, anchor="rm", bold=True)
    badges = _badges(piece, ap, mp, t("render.km.hp", lang)) if not piece.ko else []
    if piece.powers_lost and not piece.ko:  # 314.2d: first; one-line rows keep only the sign, for the name
        badges.insert(0, ("lost", t("render.km.no_powers", lang) if full else ""))
    badge_w = sum(_badge_width(b, lang, small - 1) + 5 for b in badges) if not full else 0
    name = kit.fit(piece.figurine.name, size, x + w - right - 10 - name_x - badge_w)
    kit.draw_text(draw, (name_x, mid), name, size, ink, anchor="lm", bold=active)
    if piece.ko:
        draw.line((name_x, mid, name_x + kit.text_width(name, size), mid), fill=kit.MUTED, width=2)
        panel.y += row_h
        return
    if full:
        ly = y + size + (7 if tight else 9)
        line_mid = ly + (small + 4) / 2
        if active:
            stats = f"{ap} {piece.ap}/{piece.figurine.ap}   {mp} {piece.mp}/{piece.figurine.mp}"
        else:
            stats = f"{ap} {piece.figurine.ap}   {mp} {piece.figurine.mp}"
        kit.draw_text(draw, (name_x, line_mid), stats, small, ink, anchor="lm", bold=active)
        lx = name_x + kit.text_width(stats, small, 1) + 10
        where = piece.pos if piece.pos is not None else t("render.km.to_deploy", lang)
        kit.draw_text(draw, (x + w, line_mid), where, small, ink if active else kit.MUTED, anchor="rm", bold=active)
        room = x + w - kit.text_width(where, small, 1) - 8 - lx
        if badges and badges[0][0] == "lost" and badges[0][1] and \
                sum(_badge_width(b, lang, small - 1) + 5 for b in badges) > room:
            badges[0] = ("lost", "")  # the words do not fit before the square: the sign alone
        bar_y = ly + small + (6 if tight else 8)
    else:
        ly = y + 2
        lx = name_x + kit.text_width(name, size) + 8
        bar_y = y + size + 9
    for badge in badges:
        bw = _draw_badge(draw, lx, ly, badge, lang, small - 1)
        if piece.powers_lost and badge[0] == "face":  # the die's power is lost too: struck out
            tile_mid = ly + (small + 4) // 2
            draw.line((lx - 2, tile_mid, lx + bw + 2, tile_mid), fill=kit.INK_DARK, width=2)
        lx += bw + 5
    if piece.summon != "trap":
        kit.draw_hp_bar(draw, (name_x, bar_y, x + w, bar_y + (5 if full and not tight else 4)), piece.wounds,
                        piece.hp)
    panel.y += row_h


Badge = tuple[str, str]  # ("token", "+1 AP") or ("face", "critical")


def _badges(piece: PieceState, ap: str, mp: str, hp: str = "HP") -> list[Badge]:
    """AP/MP tokens (309.7, signed) and inspiration dice (403) sitting on a piece's card."""
    result: list[Badge] = [("token", _signed(v, unit)) for v, unit in ((piece.ap_tokens, ap), (piece.mp_tokens, mp))
                           if v]
    # 309.8/307.20: frozen tokens and frozen wounds, as blue chips
    result += [("frozen", _signed(v, unit)) for v, unit in ((piece.ap_frozen, ap), (piece.mp_frozen, mp)) if v]
    if piece.frozen_wounds:
        result.append(("frozen", f"{piece.frozen_wounds} {hp}"))
    result += [("face", insp.face) for insp in piece.inspirations]
    # 306: revealed demonic rewards by name; face-down ones only as "?" (their face is private).
    result += [("reward", kit.fit(c.reward.name, 13, 120)) for c in piece.rewards if c.face_up and c.reward]
    hidden = sum(1 for c in piece.rewards if not c.face_up)
    if hidden:
        result.append(("reward", "?" * hidden))
    return result


def _badge_width(badge: Badge, lang: str, size: int) -> int:
    kind, value = badge
    if kind == "face":
        return kit.text_width(t(f"render.km.face.{value}", lang), size - 1, 1) + 10
    if kind == "lost":
        return _chip_width(value, size) + size if value else size + 8
    return _chip_width(value, size)  # tokens and rewards are both chips


def _draw_badge(draw: ImageDraw.ImageDraw, x: int, y: int, badge: Badge, lang: str, size: int) -> int:
    kind, value = badge
    if kind == "face":
        return _face_tile(draw, x, y, value, lang, size - 1)
    if kind == "reward":
        return _chip(draw, x, y, value, kit.OKABE_ITO["reddish_purple"], size)
    if kind == "frozen":
        return _chip(draw, x, y, value, kit.OKABE_ITO["blue"], size)
    if kind == "lost":  # 314.2d: white, like the sign on the token, which it repeats
        w = _badge_width(badge, lang, size)
        draw.rounded_rectangle((x, y, x + w, y + size + 6), radius=5, fill=kit.INK, outline=NO_POWERS, width=2)
        paint_no_powers(draw, (x + 4, y + 3, x + 4 + size, y + 3 + size))
        if value:
            kit.draw_text(draw, (x + size + 6 + (w - size - 6) / 2, y + (size + 6) / 2), value, size, kit.INK_DARK,
                          anchor="mm", bold=True)
        return w
    colour = kit.OKABE_ITO["bluish_green"] if value.startswith("+") else kit.OKABE_ITO["vermillion"]
    return _chip(draw, x, y, value, colour, size)


def _player_header(panel: kit.Panel, state: State, player: PlayerState, name: str, lang: str, acting: bool,
                   position: int | None = None) -> None:
    draw = panel.draw
    x, y, w = panel.left, panel.y, panel.width
    colour = kit.team_colour(player.seat)
    draw.rectangle((x, y, x + 8, y + 30), fill=colour)
    stats = f"{t('render.km.gg', lang, count=player.gg)}   {t('render.km.kamas', lang, count=player.kamas)}"
    if player.resigned:  # out of the game: its pieces have left the arena (rules_resign)
        stats = t("render.km.resigned", lang)
    sw = kit.text_width(stats, 18, 1)
    if position is not None:  # 2-vs-2 lists players by team, so their play order is written (703.3)
        name = f"{position}. {name}"
    if acting:
        name = "» " + name
    kit.draw_text(draw, (x + 16, y + 15), kit.fit(name, 22, w - sw - 30), 22, kit.INK, anchor="lm", bold=True)
    kit.draw_text(draw, (x + w, y + 15), stats, 18, kit.INK, anchor="rm", bold=True)
    panel.y += 38


def _draw_panel(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
                banner: tuple[str, RGB, str] | None, legend: list[tuple[object, str]]) -> None:
    panel = kit.Panel(draw, PANEL_LEFT + 8, TITLE_H + 18, PANEL_WIDTH - 16)
    acting = _acting_seats(state)
    if banner is None:
        banner = _turn_banner(state, lang, seat_names, acting)
    text, colour, sub = banner
    panel.banner(text, colour, 30, sub=sub, sub_size=19)
    wild = t("render.km.wild_gg", lang, count=state.wild_gg)
    kit.draw_text(draw, (panel.left, panel.y), wild, 17, kit.INK, bold=True)
    kit.draw_text(draw, (panel.left + panel.width, panel.y), t("render.km.timeline", lang), 17, kit.MUTED,
                  anchor="ra")
    panel.y += 28
    if state.rewards.total:  # 306: the public side of the piles: tokens left and face-up tops
        _rewards_line(panel, state, lang)
    dice = state.inspiration_dice if state.phase == "inspiration" else state.tension if state.phase == \
        "tension_faces" else []
    if dice:  # the dice waiting for the active player's choice (402, 403)
        kit.draw_text(draw, (panel.left, panel.y + 12), t("render.km.dice", lang), 17, kit.INK, anchor="lm",
                      bold=True)
        dx = panel.left + kit.text_width(t("render.km.dice", lang), 17, 1) + 10
        for face in dice:
            dx += _face_tile(draw, dx, panel.y + 1, face, lang, 16) + 6
        panel.y += 32
    legend_h = _legend_height(legend, panel.width)
    groups = panel_groups(state, lang)
    teamed = any(label is not None for label, _seats in groups)
    available = HEIGHT - 22 - legend_h - panel.y - 44 * len(state.players)
    if teamed:
        available -= (TEAM_HEAD - 6 + TEAM_PAD + TEAM_GAP) * len(groups)
    total = sum(len(_panel_rows(state, p)) for p in state.players)
    row_h = min(60, available // max(total, 1))
    layout = _row_layout(row_h, state.multi is not None)
    if layout == "compact":
        row_h = max(24, min(34, row_h))
    seating = state.seat_order() if teamed else []
    for label, seats in groups:  # section 7: in play order 1-2-3-4; 703: team by team
        if label is not None:
            rows = sum(len(_panel_rows(state, state.player(s))) for s in seats)
            _team_box(panel, state, label, seats, 44 * len(seats) - 6 + rows * row_h)
        for i, player in enumerate(state.player(seat) for seat in seats):
            if label is None or i:  # a team box's label already separates its first player
                panel.rule(6)
            position = seating.index(player.seat) + 1 if teamed and player.seat in seating else None
            _player_header(panel, state, player, _name(player, seat_names), lang, player.seat in acting, position)
            for index, pid in _panel_rows(state, player):
                _piece_row(panel, state, state.pieces[pid], index, lang, row_h, layout)
        if label is not None:
            panel.y += TEAM_PAD + TEAM_GAP
    kit.draw_legend(draw, panel.left, HEIGHT - 14 - legend_h, panel.width, legend, size=15, swatch=18)


def _team_box(panel: kit.Panel, state: State, label: str, seats: list[int], body: int) -> None:
    """703: a framed box around a team's players, headed by its label and its token shape.

    Each player keeps its colour bar; the label and the frame say who plays together
    without relying on colour.
    """
    draw = panel.draw
    x, y, w = panel.left, panel.y, panel.width
    draw.rounded_rectangle((x - 10, y, x + w + 9, y + TEAM_HEAD + body + TEAM_PAD), radius=8, fill=TEAM_FILL,
                           outline=kit.SUBTLE, width=2)
    mid = y + TEAM_HEAD / 2 + 1
    g = 16
    glyph = (x + 2, mid - g / 2, x + 2 + g, mid + g / 2)
    if shape_of(state, seats[0]) == "circle":
        draw.ellipse(glyph, fill=kit.INK, outline=kit.INK_DARK)
    else:
        draw.rounded_rectangle(glyph, radius=3, fill=kit.INK, outline=kit.INK_DARK)
    text = label.upper()
    kit.draw_text(draw, (x + g + 10, mid), text, 20, kit.INK, anchor="lm", bold=True)
    tx = x + g + 10 + kit.text_width(text, 20, 1) + 12
    draw.line((tx, mid, x + w, mid), fill=kit.SUBTLE, width=2)
    panel.y += TEAM_HEAD


def _rewards_line(panel: kit.Panel, state: State, lang: str) -> None:
    """One line: per rank, the tokens left in its piles, then the names of the face-up tops."""
    counts: dict[str, int] = {}
    for pile in state.rewards.piles:
        counts[pile.rank.value] = counts.get(pile.rank.value, 0) + pile.count + (pile.top is not None)
    tops = [p.top.reward.name for p in state.rewards.piles if p.top is not None and p.top.reward is not None]
    text = f"{t('render.km.rewards', lang)}: " + " · ".join(f"{t(f'render.km.rank.{rank}', lang)} {n}"
                                                           for rank, n in counts.items())
    kit.draw_text(panel.draw, (panel.left, panel.y), kit.fit(text, 15, panel.width), 15, kit.MUTED)
    panel.y += 20
    if tops:
        kit.draw_text(panel.draw, (panel.left, panel.y), kit.fit(", ".join(tops), 15, panel.width), 15, kit.MUTED)
        panel.y += 20
    panel.y += 4


def _panel_rows(state: State, player: PlayerState) -> list[tuple[int, str]]:
    """The timeline in order (summoned creatures and turrets included, 315.3a/315.5a), then
    the player's bombs and traps in play, which have no turn (315.4a, 315.6a): index 0."""
    rows = list(enumerate(player.timeline, start=1))
    listed = set(player.timeline)
    rows += [(0, p.id) for p in sorted(state.pieces.values(), key=lambda p: p.id)
             if p.owner == player.seat and p.summon is not None and p.in_play and p.id not in listed]
    return rows


def _legend_height(legend: list[tuple[object, str]], width: int) -> int:
    img = Image.new("RGB", (1, 1))
    return kit.draw_legend(ImageDraw.Draw(img), 0, 0, width, legend, size=15, swatch=18)


def _turn_banner(state: State, lang: str, seat_names: Mapping[int, str] | None,
                 acting: list[int]) -> tuple[str, RGB, str]:
    if state.phase == "over":
        winners = state.winners or []
        reason_key = f"km.end.{state.end_reason}"
        known = state.end_reason and i18n.has(reason_key, lang)
        sub = t(reason_key, lang) if known else t("render.km.phase.over", lang)
        sub = sub[:1].upper() + sub[1:]
        if winners:
            names = ", ".join(_name(state.player(s), seat_names) for s in winners)
            return t("render.km.winner", lang, name=names), kit.team_colour(winners[0]), sub
        return t("render.km.draw", lang), kit.MUTED, sub
    if len(acting) == 1:
        player = state.player(acting[0])
        text = t("render.km.to_play", lang, name=_name(player, seat_names))
        colour = kit.team_colour(player.seat)
    else:
        text, colour = t("render.km.both", lang), kit.MUTED
    sub = t(f"render.km.phase.{state.phase}", lang)
    if state.phase == "turn" and state.active_piece in state.pieces:
        piece = state.pieces[state.active_piece]
        sub = t("render.km.active_piece", lang, short=piece.short, name=piece.figurine.name)
    return text, colour, sub


def _base_legend(state: State, lang: str) -> list[tuple[object, str]]:
    arena = state.board.arena
    entries: list[tuple[object, str]] = []
    if arena.trees:
        entries.append((paint_tree, t("render.km.legend.tree", lang)))
    if arena.bushes:
        entries.append((paint_bush, t("render.km.legend.bush", lang)))
    if arena.crates:
        entries.append((paint_crate, t("render.km.legend.crate", lang)))
    if ice_squares(state):
        entries.append((paint_ice, t("render.km.legend.ice", lang)))
    if arena.rink:
        entries.append((_paint_swatch(RINK, GRID_LINE), t("render.km.legend.rink", lang)))
    if any(p.ap_frozen or p.mp_frozen or p.frozen_wounds for p in state.pieces.values() if p.in_play):
        entries.append((_paint_swatch(kit.OKABE_ITO["blue"]), t("render.km.legend.frozen", lang)))
    if any(p.powers_lost for p in state.pieces.values() if p.in_play):
        entries.append((paint_no_powers, t("render.km.legend.no_powers", lang)))
    if state.board.kamas:
        entries.append((paint_kama_legend, t("render.km.legend.kama", lang)))
    if arena.demon_squares:
        entries.append((paint_demon, t("render.km.legend.demon", lang)))
    if state.phase in ("choose_side", "deploy"):
        entries.append((_paint_swatch(kit.mix(kit.MUTED, GROUND_A, 0.5)), t("render.km.legend.start", lang)))
    if state.active_piece and state.phase == "turn":
        entries.append((_paint_swatch(kit.HIGHLIGHT), t("render.km.legend.active", lang)))
    kinds = {p.summon for p in state.pieces.values() if p.summon is not None and p.in_play}
    for kind in ("creature", "bomb", "turret", "trap"):
        if kind in kinds:
            entries.append((_summon_painter(kind), t(f"render.km.legend.{kind}", lang)))
    return entries


def paint_kama_legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    paint_kama(draw, box, 1)


# -- entry points -----------------------------------------------------------------------


def _compose(
    state: State,
    lang: str,
    seat_names: Mapping[int, str] | None,
    highlight: Iterable[str] | None,
    overlay: Callable[[ImageDraw.ImageDraw, Grid], None] | None = None,
    overlay_top: Callable[[ImageDraw.ImageDraw, Grid], None] | None = None,
    extra_legend: list[tuple[object, str]] | None = None,
    banner: tuple[str, RGB, str] | None = None,
    busy: Iterable[str] = (),
) -> Image.Image:
    arena = state.board.arena
    image = _static_layer(arena.model_dump_json()).copy()
    grid = grid_for(arena.width, arena.height)
    draw = ImageDraw.Draw(image, "RGBA")
    if state.phase in ("choose_side", "deploy"):
        _draw_start_squares(draw, state, grid)
    if overlay is not None:
        overlay(draw, grid)
    occupied = {sq for p in state.pieces.values() if p.in_play and (sq := kit.parse_label(p.pos or ""))}
    occupied.update(sq for label in busy if (sq := kit.parse_label(label)))  # a printed MP cost
    for square in _squares(ice_squares(state), grid):
        paint_ice(draw, grid.box(*square, inset=2))
    _draw_kamas(draw, state, grid, occupied)
    _draw_pieces(draw, state, grid)
    for col, row in _squares(ice_squares(state), grid):  # 313.6b: a piece standing on a cube: a small cube
        if (col, row) in occupied:
            x0, y0, x1, _y1 = grid.box(col, row)
            size = (x1 - x0) * 0.42
            paint_ice(draw, (x1 - size, y0 - size * 0.1, x1 + size * 0.1, y0 + size))
    if overlay_top is not None:
        overlay_top(draw, grid)
    _draw_highlight(draw, state, grid, highlight)
    acting = _acting_seats(state)
    pill_text, pill_colour = None, None
    if state.phase == "over":
        text, colour, _sub = _turn_banner(state, lang, seat_names, acting)
        pill_text, pill_colour = text, colour
    elif len(acting) == 1:
        pill_text = t("render.km.to_play", lang, name=_name(state.player(acting[0]), seat_names))
        pill_colour = kit.team_colour(acting[0])
    title = f"{t('render.km.title', lang)} · {arena.name}"
    kit.draw_title_bar(draw, (0, 0, WIDTH, TITLE_H), title, _status_line(state, lang), pill_text, pill_colour)
    legend = _base_legend(state, lang) + (extra_legend or [])
    _draw_panel(draw, state, lang, seat_names, banner, legend)
    return image


def render_image(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 highlight: Iterable[str] | None = None) -> Image.Image:
    """The snapshot as a Pillow image (for tests and for callers that compose pictures)."""
    return _compose(state, lang, seat_names, highlight)


def render(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           highlight: Iterable[str] | None = None) -> bytes:
    """PNG of the board and panel.

    ``seat_names`` overrides player names (e.g. Discord display names) by seat;
    ``highlight`` marks squares (labels like ``"C7"``) or pieces (by id) with a white frame,
    typically the squares of the last action.
    """
    return kit.to_png(render_image(state, lang=lang, seat_names=seat_names, highlight=highlight))


def preview_image(
    state: State,
    squares: Mapping[str, str | int] | Iterable[str],
    kind: PreviewKind,
    area: Iterable[str] | None = None,
    *,
    target: str | None = None,
    lang: str = "en",
    seat_names: Mapping[int, str] | None = None,
    highlight: Iterable[str] | None = None,
) -> Image.Image:
    """See :func:`render_preview`; returns the Pillow image."""
    labels = {str(k).upper(): v for k, v in squares.items()} if isinstance(squares, Mapping) else \
        {str(k).upper(): "" for k in squares}
    # Only an ordered area says which square is the main target (the engine's ``area_for``
    # lists it first); a set's order depends on the hash seed, so it must not pick the aim.
    ordered = isinstance(area, Sequence) and not isinstance(area, str)
    area_list = [str(a).upper() for a in area] if area is not None else []
    aim = target.upper() if target else (area_list[0] if area_list and ordered else None)
    cell_font = 0

    def under(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        nonlocal cell_font
        colour = MOVE if kind == "move" else TARGET
        for square in _squares(labels, grid):
            x0, y0, x1, y1 = grid.box(*square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=(*colour, 150))
        for square in _squares(area_list, grid):
            x0, y0, x1, y1 = grid.box(*square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=(*AREA, 170))

    def over(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
        size = max(16, min(30, grid.cell * 15 // 32))
        width = max(3, grid.cell // 16)
        if kind == "move":
            for label, cost in labels.items():
                square = kit.parse_label(label)
                if square is None or not (0 <= square[0] < grid.cols and 0 <= square[1] < grid.rows):
                    continue
                x0, y0, x1, y1 = grid.box(*square)
                draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=(*kit.INK_DARK, 200), width=2)
                if cost != "":
                    kit.draw_text(draw, grid.centre(*square), str(cost), size, kit.INK_DARK, anchor="mm",
                                  outline=kit.INK)
            return
        for square in _squares(labels, grid):
            _frame(draw, grid.box(*square, inset=1), TARGET, width)
        for square in _squares(area_list, grid):
            _frame(draw, grid.box(*square, inset=1), AREA, width + 1)
        if aim:
            for square in _squares([aim], grid):
                _crosshair(draw, grid.box(*square), grid.cell)

    if kind == "move":
        caption = t("render.km.preview.move", lang, count=len(labels))
        legend: list[tuple[object, str]] = [(_paint_swatch(kit.mix(MOVE, GROUND_A, 0.3)),
                                              t("render.km.legend.move", lang))]
        colour = MOVE
    else:
        caption = t("render.km.preview.spell", lang, count=len(labels))
        legend = [(_paint_swatch(kit.mix(TARGET, GROUND_A, 0.3), TARGET), t("render.km.legend.target", lang))]
        if area_list:
            legend.append((_paint_swatch(kit.mix(AREA, GROUND_A, 0.3), AREA), t("render.km.legend.area", lang)))
        colour = TARGET
    piece = state.pieces.get(state.active_piece or "")
    sub = t("render.km.active_piece", lang, short=piece.short, name=piece.figurine.name) if piece else ""
    busy = [label for label, cost in labels.items() if cost != ""] if kind == "move" else []
    return _compose(state, lang, seat_names, highlight, under, over, legend, banner=(caption, colour, sub),
                    busy=busy)


def _crosshair(draw: ImageDraw.ImageDraw, box: Box, cell: int) -> None:
    """Corner brackets on the chosen target: visible without hiding the token inside."""
    x0, y0, x1, y1 = box
    arm = cell // 3
    for w, colour in ((7, kit.INK_DARK), (3, kit.INK)):
        for cx, cy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            draw.line((cx, cy, cx + dx * arm, cy), fill=colour, width=w)
            draw.line((cx, cy, cx, cy + dy * arm), fill=colour, width=w)


def render_preview(
    state: State,
    squares: Mapping[str, str | int] | Iterable[str],
    kind: PreviewKind,
    area: Iterable[str] | None = None,
    *,
    target: str | None = None,
    lang: str = "en",
    seat_names: Mapping[int, str] | None = None,
    highlight: Iterable[str] | None = None,
) -> bytes:
    """PNG of the board with what the active piece could do.

    ``kind="move"``: ``squares`` maps reachable squares to their MP cost, printed in each
    (a plain set just tints them). ``kind="spell"``: ``squares`` are the legal targets;
    ``area`` the squares hit when aiming at ``target``, which gets corner brackets; when
    ``target`` is omitted and ``area`` is a list (the engine's ``area_for`` lists the main
    target first) its first square is used, a set gives no brackets.
    """
    return kit.to_png(preview_image(state, squares, kind, area, target=target, lang=lang, seat_names=seat_names,
                                    highlight=highlight))
