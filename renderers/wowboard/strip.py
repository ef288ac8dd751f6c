"""The status strip over the map: the turn, who acts, each faction's XP and eligible quests, the
merchant, which seat is which number, and the turn track (spec §4.9, §4.10).

The track is spaces 1..N and End; an event space carries an "E" under it and an item space its
deck's shape (triangle, square, circle) with an "I"; spaces already played are dimmed and the
current one is yellow with a thick outline (the marker), so the position reads without colour.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from engines.wowboard.content import FACTIONS, Pack
from engines.wowboard.state import State
from renderers import kit
from renderers.kit import RGB
from renderers.wowboard.layout import MARGIN, STRIP_BOTTOM, TEXT, WIDTH, faction_colour
from renderers.wowboard.words import faction_name, seat_name, tr

SPACE: RGB = (62, 65, 72)
PLAYED: RGB = (40, 41, 45)
EVENT: RGB = kit.OKABE_ITO["orange"]
ITEM: RGB = kit.OKABE_ITO["sky_blue"]
LINE_1 = 8
LINE_2 = 42
TRACK_Y = 78
TRACK_H = 30
ICON_Y = TRACK_Y + TRACK_H + 3
END_W = 66


def _chip(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: RGB, radius: int) -> int:
    w = kit.text_width(text, TEXT) + 16
    draw.rounded_rectangle((x, y, x + w, y + 30), radius=radius, fill=fill)
    kit.draw_text(draw, (x + w / 2, y + 16), text, TEXT, kit.text_on(fill), anchor="mm")
    kit.note("chip", (x, y, x + w, y + 30), text, TEXT)
    return x + w


def over_text(state: State, lang: str) -> str:
    """The game-over chip names who won (issue 27.7): the winners' faction, or a draw (victory.1-2)."""
    if state.winners:
        return tr("over_won", lang, faction=faction_name(state.seat(state.winners[0]).faction, lang))
    return tr("over_drawn", lang) if state.winners == [] else tr("over", lang)


def draw_strip(draw: ImageDraw.ImageDraw, state: State, pack: Pack, lang: str,
               seat_names: Mapping[int, str] | None) -> None:
    draw.rectangle((0, 0, WIDTH, STRIP_BOTTOM - 4), fill=kit.PANEL)
    total = pack.track.spaces
    turn = min(state.turn, total)
    head = tr("turn", lang, turn=turn, total=total) if state.turn <= total else tr("end", lang)
    who = faction_name(state.active, lang)
    if state.phase == "over":
        tail = over_text(state, lang)
    elif state.phase == "draft":
        tail = tr("draft", lang)
    elif state.phase == "management":
        tail = tr("management", lang, faction=who)
    else:
        tail = tr("acts", lang, faction=who)
    box = kit.draw_text(draw, (MARGIN, LINE_1 + 15), head, TEXT, kit.INK, anchor="lm", bold=True)
    active_fill = faction_colour(state.active) if state.phase != "over" else kit.PANEL_LINE
    chip_end = _chip(draw, box[2] + 14, LINE_1, tail, active_fill, 4 if state.active == "horde" else 15)
    merchant = tr("merchant", lang, n=len(state.merchant))
    sold = kit.draw_text(draw, (WIDTH - MARGIN, LINE_1 + 15), merchant, TEXT, kit.SUBTLE, anchor="rm")
    x = MARGIN
    for faction in FACTIONS:
        xp = sum(c.xp for c in state.of_faction(faction))
        quests = sum(q.faction == faction for q in state.quests)
        text = f"{faction_name(faction, lang)} · {tr('xp', lang, xp=xp)} · {tr('quests', lang, n=quests)}"
        x = _chip(draw, x, LINE_2, text, faction_colour(faction), 4 if faction == "horde" else 15) + 10
    names = {s.seat: s.name for s in state.seats}
    entries = [f"{s.seat + 1} {seat_name(names, s.seat, seat_names)}" for s in state.seats]
    room = WIDTH - MARGIN - x
    rows = [(LINE_2, room, entries)]
    if entries and kit.text_width("  ".join(entries), TEXT) > room:  # five or six seats: two lines of names
        top_room = sold[0] - 24 - chip_end
        top: list[str] = []
        while len(top) < len(entries) - 1 and kit.text_width("  ".join([*top, entries[len(top)]]), TEXT) <= top_room:
            top.append(entries[len(top)])
        rows = [(LINE_1, top_room, top), (LINE_2, room, entries[len(top):])]
    for y, width, row in rows:
        legend = "  ".join(row)
        if row and kit.text_width(legend, TEXT) > width:  # still too long: each name shortened alike
            each = (width - kit.text_width("  ", TEXT) * (len(row) - 1)) // len(row)
            legend = "  ".join(kit.fit(e, TEXT, each) for e in row)
        if legend and width > 4 * TEXT:
            kit.draw_text(draw, (WIDTH - MARGIN if y == LINE_2 else sold[0] - 24, y + 15), kit.fit(legend, TEXT, width),
                          TEXT, kit.SUBTLE, anchor="rm")
    _draw_track(draw, pack, state.turn, lang)


def _edge(current: bool, played: bool) -> RGB:
    """A track space's outline. A coming space's is light: two-digit numbers nearly fill their spaces, and
    with the faint line of a played one "21 22 23" ran together at 500 px (a playtest)."""
    return kit.INK if current else kit.PANEL_LINE if played else kit.MUTED


def _draw_track(draw: ImageDraw.ImageDraw, pack: Pack, turn: int, lang: str) -> None:
    total = pack.track.spaces
    step = (WIDTH - 2 * MARGIN - END_W) / total
    for i in range(1, total + 2):
        x0 = MARGIN + round((i - 1) * step)
        x1 = MARGIN + round(i * step) - 2 if i <= total else WIDTH - MARGIN
        current = i == turn or (i == total + 1 and turn > total)
        fill = kit.HIGHLIGHT if current else PLAYED if i < turn else SPACE
        draw.rectangle((x0, TRACK_Y, x1, TRACK_Y + TRACK_H), fill=fill, outline=_edge(current, i < turn),
                       width=3 if current else 1)
        label = str(i) if i <= total else tr("end", lang)
        ink = kit.text_on(fill) if current else kit.MUTED if i < turn else kit.INK
        kit.draw_text(draw, ((x0 + x1) / 2, TRACK_Y + TRACK_H / 2 + 1), label, TEXT, ink, anchor="mm")
        cx = (x0 + x1) // 2
        if i in pack.track.events:
            kit.draw_text(draw, (cx, ICON_Y), "E", TEXT, EVENT, anchor="ma", bold=True)
        shape = pack.track.items.get(i)
        if shape:
            _item_icon(draw, cx, ICON_Y + 2, shape)


def _item_icon(draw: ImageDraw.ImageDraw, cx: int, y: int, shape: str) -> None:
    """The item deck's shape, outlined, with an "I" inside (an item draw on this space)."""
    s = 13
    if shape == "triangle":
        draw.polygon([(cx, y - 2), (cx + s + 2, y + 2 * s - 3), (cx - s - 2, y + 2 * s - 3)], outline=ITEM, width=2)
    elif shape == "square":
        draw.rectangle((cx - s, y, cx + s, y + 2 * s - 4), outline=ITEM, width=2)
    else:
        draw.ellipse((cx - s, y - 1, cx + s, y + 2 * s - 3), outline=ITEM, width=2)
    kit.draw_text(draw, (cx, y + s - 1), "I", TEXT - 0, ITEM, anchor="mm")


# -- the compact strip over a map crop (spec §7: "map crop around the touched regions + status strip") ---------

WINDOW_STEP = 42
"""A track space's width in the compact strip: two digits of ``TEXT`` and a little air."""


def draw_compact(draw: ImageDraw.ImageDraw, state: State, pack: Pack, lang: str,
                 seat_names: Mapping[int, str] | None, width: int) -> int:
    """The status strip laid out for a crop ``width`` px wide (550-800), from the top-left corner on a
    ground of ``kit.PANEL``: the same facts as the full strip, flowed onto as many lines as they need,
    and the turn track as a window around the marker (the spaces just played, the current one, and as
    many coming ones as fit, with their event and item icons), since 31 spaces of readable text do not
    fit a narrow picture. Returns its height."""
    total = pack.track.spaces
    turn = min(state.turn, total)
    head = tr("turn", lang, turn=turn, total=total) if state.turn <= total else tr("end", lang)
    who = faction_name(state.active, lang)
    tail = over_text(state, lang) if state.phase == "over" else tr("draft", lang) if state.phase == "draft" else \
        tr("management", lang, faction=who) if state.phase == "management" else tr("acts", lang, faction=who)
    box = kit.draw_text(draw, (MARGIN, LINE_1 + 15), head, TEXT, kit.INK, anchor="lm", bold=True)
    active_fill = faction_colour(state.active) if state.phase != "over" else kit.PANEL_LINE
    x = box[2] + 14
    y = LINE_1
    if x + kit.text_width(tail, TEXT) + 16 > width - MARGIN:
        x, y = MARGIN, y + 34
    _chip(draw, x, y, tail, active_fill, 4 if state.active == "horde" else 15)
    x, y = MARGIN, y + 34
    items: list[tuple[str, RGB | None, int]] = []
    for faction in FACTIONS:
        xp = sum(c.xp for c in state.of_faction(faction))
        quests = sum(q.faction == faction for q in state.quests)
        text = f"{faction_name(faction, lang)} · {tr('xp', lang, xp=xp)} · {tr('quests', lang, n=quests)}"
        items.append((text, faction_colour(faction), 4 if faction == "horde" else 15))
    items.append((tr("merchant", lang, n=len(state.merchant)), None, 0))
    names = {s.seat: s.name for s in state.seats}
    for s in state.seats:
        items.append((kit.fit(f"{s.seat + 1} {seat_name(names, s.seat, seat_names)}", TEXT, width - 2 * MARGIN), None,
                      0))
    for text, fill, radius in items:
        w = kit.text_width(text, TEXT) + 16
        if x > MARGIN and x + w > width - MARGIN:
            x, y = MARGIN, y + 34
        if fill is None:
            kit.draw_text(draw, (x, y + 15), text, TEXT, kit.SUBTLE, anchor="lm")
            x += w + 10
        else:
            x = _chip(draw, x, y, text, fill, radius) + 10
    y += 38
    y = _track_window(draw, pack, state.turn, lang, y, width)
    return y + 6


def _track_window(draw: ImageDraw.ImageDraw, pack: Pack, turn: int, lang: str, top: int, width: int) -> int:
    total = pack.track.spaces
    spaces = list(range(1, total + 2))
    fit = max(3, (width - 2 * MARGIN - END_W) // WINDOW_STEP + 1)
    first = max(0, min(turn - 3, len(spaces) - fit))
    shown = spaces[first:first + fit]
    x = MARGIN
    for i in shown:
        end = i == total + 1
        x1 = x + (END_W if end else WINDOW_STEP) - 2
        current = i == turn or (end and turn > total)
        fill = kit.HIGHLIGHT if current else PLAYED if i < turn else SPACE
        draw.rectangle((x, top, x1, top + TRACK_H), fill=fill, outline=_edge(current, i < turn),
                       width=3 if current else 1)
        ink = kit.text_on(fill) if current else kit.MUTED if i < turn else kit.INK
        kit.draw_text(draw, ((x + x1) / 2, top + TRACK_H / 2 + 1), str(i) if not end else tr("end", lang), TEXT, ink,
                      anchor="mm")
        cx = (x + x1) // 2
        if i in pack.track.events:
            kit.draw_text(draw, (cx, top + TRACK_H + 3), "E", TEXT, EVENT, anchor="ma", bold=True)
        shape = pack.track.items.get(i)
        if shape:
            _item_icon(draw, cx, top + TRACK_H + 5, shape)
        x = x1 + 2
    return top + TRACK_H + 3 + 30
