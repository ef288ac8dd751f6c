"""The battlefield: army titles, rank labels at both row ends, the battle line and the tiles.

Army titles carry the player's name and colour and a "▶" when that player must act, so the
army on the table and the card in the player column name the same person in the same colour.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from engines.warlord.state import State
from renderers import kit, kit_ink, kit_panel
from renderers.kit import RGB
from renderers.warlord import tiles
from renderers.warlord.layout import DU, FIELD_X0, FIELD_X1, TEXT, TITLE_H, Plan
from renderers.warlord.panel import acting
from renderers.warlord.words import player_name, tr, trait

BATTLE: RGB = (66, 58, 52)
BATTLE_MARK: RGB = (150, 132, 110)
RANK_CHIP: RGB = (84, 88, 98)
ILLEGAL: RGB = kit.OKABE_ITO["vermillion"]


def draw_ground(draw: ImageDraw.ImageDraw, plan: Plan) -> None:
    """Under everything else on the field: the battle line."""
    _battle_line(draw, plan)


def draw_field(draw: ImageDraw.ImageDraw, state: State, plan: Plan, lang: str,
               seat_names: Mapping[int, str] | None, now: list[int] | None = None) -> None:
    """Army titles, dashed outlines of illegal ranks, rank labels and the tiles (``now``: ``acting(state)``,
    when the caller has it already)."""
    now = acting(state) if now is None else now
    for army in plan.armies:
        _title(draw, state, army.seat, army.title_y, lang, seat_names, army.seat in now and len(now) == 1)
        for row in army.rows:
            for _rank, box in row.illegal:
                _dashed_box(draw, box, ILLEGAL, DU(2))
            for x, rank, anchor in row.labels:
                _rank_label(draw, x, (row.top + row.bottom) // 2 if plan.duel else row.top, rank, anchor, lang,
                            any(r == rank for r, _ in row.illegal))
            for placed in row.tiles:
                tiles.draw_tile(draw, placed.spec, placed.box)


def _battle_line(draw: ImageDraw.ImageDraw, plan: Plan) -> None:
    x0, y0, x1, y1 = plan.battle
    if y1 <= y0 or x1 <= x0:
        return
    draw.rectangle(plan.battle, fill=BATTLE)
    step = DU(6)
    if plan.duel:  # a dashed mark along the middle: the line both front ranks face
        mid = (y0 + y1) // 2
        for x in range(x0, x1, 2 * step):
            draw.line((x, mid, min(x + step, x1), mid), fill=BATTLE_MARK, width=3)
    else:
        mid = (x0 + x1) // 2
        for y in range(y0, y1, 2 * step):
            draw.line((mid, y, mid, min(y + step, y1)), fill=BATTLE_MARK, width=3)


def _title(draw: ImageDraw.ImageDraw, state: State, seat: int, y: int, lang: str,
           seat_names: Mapping[int, str] | None, active: bool) -> None:
    p = state.player(seat)
    colour = kit.team_colour(seat)
    sw = DU(8)
    mid = y + TITLE_H // 2
    draw.rectangle((FIELD_X0, mid - sw // 2, FIELD_X0 + sw, mid + sw // 2), fill=colour, outline=kit.INK, width=2)
    text = player_name(state, seat, seat_names) + (f" · {trait(p.faction, lang)}" if p.faction else "")
    if not p.alive:
        text += f" · {tr('out', lang)}"
    x = FIELD_X0 + sw + DU(3)
    if active:
        chip = kit_panel.Chip("▶ " + tr("to_act", lang, name=player_name(state, seat, seat_names)), kit.HIGHLIGHT)
        w = kit_panel.chip_width(chip, TEXT)
        kit.draw_text(draw, (x, mid), kit.fit(text, TEXT, FIELD_X1 - x - w - DU(4), 1), TEXT, kit.INK, anchor="lm",
                      bold=True)
        kit_ink.draw_chip(draw, FIELD_X1 - w, mid - kit_panel.chip_height(TEXT) // 2, chip, TEXT)
    else:
        kit.draw_text(draw, (x, mid), kit.fit(text, TEXT, FIELD_X1 - x, 1), TEXT, kit.INK, anchor="lm", bold=True)


def _rank_label(draw: ImageDraw.ImageDraw, x: int, y: int, rank: int, anchor: str, lang: str,
                illegal: bool) -> None:
    """A rank number chip: centred on (x, y) at a row end ("m"), or top-left at (x, y) over a band's group."""
    text = tr("rank", lang, n=rank)
    fill = ILLEGAL if illegal else RANK_CHIP
    chip = kit_panel.Chip(text, fill)
    w = kit_panel.chip_width(chip, TEXT)
    h = kit_panel.chip_height(TEXT)
    if anchor == "m":
        left = x - w // 2
        left = max(FIELD_X0, min(left, FIELD_X1 - w))
        top = y - h // 2
    else:
        left, top = x, y
    kit_ink.draw_chip(draw, left, top, chip, TEXT)


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, width: int) -> None:
    """A dashed outline: "illegal" as a pattern as well as a colour."""
    x0, y0, x1, y1 = box
    dash = DU(6)
    for x in range(x0, x1, 2 * dash):
        draw.line((x, y0, min(x + dash, x1), y0), fill=colour, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=colour, width=width)
    for y in range(y0, y1, 2 * dash):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=width)

