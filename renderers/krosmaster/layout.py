"""Where things go on a Krosmaster picture, and the small facts about a state every part needs.

The canvas is 1000 x 748 px and designed in *preview pixels* (``DU``): Discord shows it
about 500 px wide, so ``DU(11)`` is the 11 px below which nothing important may go
(TABLE_UX.md) and every size here reads as what players see. Why 1000 px and not more:
the picture looks the same at 500 px whatever the canvas, and PNG encoding (most of a
snapshot's cost) grows with the pixel count; at 2x the preview it is still sharp when
opened full size.

Left column: the board (coordinates on all four edges) and, under it, the legend.
Right column: the panel (banner, facts, players and their timelines).
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.krosmaster.state import PlayerState, State
from renderers import kit
from renderers.kit_board import Grid

WIDTH = 1000
HEIGHT = 748  # 4:3-ish like before, so Discord shows it at the same height
DU = kit.Scale(WIDTH)
TEXT = DU.min_text  # 22 px: every text a player needs is at least this big
TEXT_BIG = DU(14)  # the banner's headline

BOARD = DU(340)  # side of the square holding the board and its coordinate margins
MARGIN = DU(14)  # coordinate margin on each edge
LEGEND_TOP = BOARD + DU(1)
LEGEND_LEFT = DU(5)
LEGEND_WIDTH = BOARD - 2 * LEGEND_LEFT
SWATCH = DU(10)

PANEL_BOX = (BOARD + DU(4), DU(4), WIDTH - DU(4), HEIGHT - DU(4))  # the panel's grey card
PANEL_LEFT = PANEL_BOX[0] + DU(4)
PANEL_TOP = PANEL_BOX[1] + DU(4)
PANEL_WIDTH = PANEL_BOX[2] - DU(3) - PANEL_LEFT
PANEL_BOTTOM = PANEL_BOX[3] - DU(3)

SHAPES = ("circle", "square")  # seat 0 discs, seat 1 rounded squares: teams differ without colour


def grid_for(width: int, height: int) -> Grid:
    """Largest whole-pixel cell that fits the board area, centred in it."""
    cell = (BOARD - 2 * MARGIN) // max(width, height)
    left = (BOARD - cell * width) // 2
    top = (BOARD - cell * height) // 2
    return Grid(left=left, top=top, cell=cell, cols=width, rows=height)


# -- facts about a state -------------------------------------------------------------------


def player_name(player: PlayerState, seat_names: Mapping[int, str] | None) -> str:
    """The name people know the player by (Discord display name when the caller has it)."""
    if seat_names and player.seat in seat_names:
        return str(seat_names[player.seat])
    return player.name


def acting_seats(state: State) -> list[int]:
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


def active_piece_id(state: State) -> str | None:
    """The piece whose turn it is, only while it is one (not once the game is over)."""
    return state.active_piece if state.phase != "over" and state.active_piece in state.pieces else None
