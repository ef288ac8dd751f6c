"""The side panel: whose turn it is and what they must do, the round's facts, and every
player's pieces in timeline order with HP, AP/MP, square and statuses.

Readable at Discord's preview width (TABLE_UX.md): every text is at least ``TEXT`` (11
preview px); HP is a number, never a thin bar; statuses are chips that *flow* into free
room and onto new lines, so they never cover a name or a square; sentences wrap instead
of ending in "…". When the pieces do not all fit on two lines each, rows fall back to one
line (name and HP, statuses after), the active piece and the acting player's pieces last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import ImageDraw

from common import i18n
from common.i18n import t
from engines.krosmaster.content import name_in
from engines.krosmaster.state import PieceState, PlayerState, State
from renderers import kit, kit_panel
from renderers.kit import RGB
from renderers.kit_panel import Chip, Column
from renderers.krosmaster import glyphs
from renderers.krosmaster.layout import (
    DU,
    PANEL_BOTTOM,
    PANEL_LEFT,
    PANEL_TOP,
    PANEL_WIDTH,
    TEXT,
    TEXT_BIG,
    acting_seats,
    active_piece_id,
    player_name,
    shape_of,
    team_of,
)
from renderers.krosmaster.surface import painted

Banner = tuple[str, RGB, list[str]]  # headline, colour, lines under it
Mode = Literal["full", "compact", "cards"]  # how much each piece's row says, by room
MODES: tuple[Mode, ...] = ("full", "compact", "cards")

LINE = max(kit.line_height(TEXT), kit_panel.chip_height(TEXT)) + 1  # a text line that can hold a chip
ROW_GAP = DU(2)
INDEX_W = DU(7)
GAP = DU(3)
HEADER = LINE + DU(1)
TEAM_HEAD = LINE  # a 2-vs-2 team box's label line
TEAM_PAD = DU(2)
TEAM_GAP = DU(3)
TEAM_FILL: RGB = kit.mix(kit.PANEL, kit.INK, 0.06)
KO_RED: RGB = (150, 40, 40)
KO_GREY: RGB = (96, 98, 104)


# -- banner ------------------------------------------------------------------------------


def turn_banner(state: State, lang: str, seat_names: Mapping[int, str] | None) -> Banner:
    """Who must act and what they must do, or who won and why: said once, in the banner."""
    if state.phase == "over":
        reason_key = f"km.end.{state.end_reason}"
        known = bool(state.end_reason) and i18n.has(reason_key, lang)
        why = t(reason_key, lang) if known else t("render.km.phase.over", lang)
        why = why[:1].upper() + why[1:]
        if state.winners:
            names = ", ".join(player_name(state.player(s), seat_names) for s in state.winners)
            return t("render.km.winner", lang, name=names), kit.team_colour(state.winners[0]), [why]
        return t("render.km.draw", lang), kit.MUTED, [why]
    acting = acting_seats(state)
    if len(acting) == 1:
        player = state.player(acting[0])
        head, colour = t("render.km.to_play", lang, name=player_name(player, seat_names)), kit.team_colour(player.seat)
    else:
        head, colour = t("render.km.both", lang), kit.MUTED
    return head, colour, [_what_to_do(state, lang)]


def _what_to_do(state: State, lang: str) -> str:
    if state.multi is not None and state.multi.gifts:
        return t("render.km.do.give_gg", lang)
    if state.multi is not None and state.multi.tension:
        return t("render.km.do.tension_pick", lang)
    active = active_piece_id(state)
    if state.phase == "turn" and active is not None:
        piece = state.pieces[active]
        return t("render.km.do.turn", lang, short=piece.short, name=name_in(piece.figurine, lang))
    key = f"render.km.do.{state.phase}"
    return t(key, lang) if i18n.has(key, lang) else t(f"render.km.phase.{state.phase}", lang)


def status_line(state: State, lang: str) -> str:
    """"Round 3 · Turn 6" (section 7: a round is one turn of each player), or "Setup"."""
    if state.turn_number <= 0:
        return t("render.km.setup", lang)
    seats = len(state.players)
    rnd = (state.turn_number + seats - 1) // seats
    return t("render.km.round_turn", lang, round=rnd, turn=state.turn_number)


# -- groups ------------------------------------------------------------------------------


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


def panel_rows(state: State, player: PlayerState) -> list[tuple[int, str]]:
    """The timeline in order (summoned creatures and turrets included, 315.3a/315.5a), then
    the player's bombs and traps in play, which have no turn (315.4a, 315.6a): index 0."""
    rows = list(enumerate(player.timeline, start=1))
    listed = set(player.timeline)
    rows += [(0, p.id) for p in sorted(state.pieces.values(), key=lambda p: p.id)
             if p.owner == player.seat and p.summon is not None and p.in_play and p.id not in listed]
    return rows


# -- piece rows --------------------------------------------------------------------------


def _signed(value: int, unit: str) -> str:
    return f"{value:+d} {unit}"


@dataclass(frozen=True)
class Rows:
    """What every row of one picture shares: the state, the language, the chip column, and
    memos (words, row heights), because the layout measures each row in several modes."""

    state: State
    lang: str
    chip_w: int
    active: str | None
    words: dict[str, str] = field(default_factory=dict)
    heights: dict[tuple[str, str], int] = field(default_factory=dict)
    plans: dict[tuple[str, str, int, int], _Plan] = field(default_factory=dict)

    @classmethod
    def of(cls, state: State, lang: str) -> Rows:
        widest = max((kit.text_width(p.short, TEXT, kit.outline_width(TEXT)) for p in state.pieces.values()),
                     default=0)
        return cls(state, lang, widest + 2 * DU(3), active_piece_id(state))

    def word(self, key: str) -> str:
        """A translation without parameters, looked up once per picture."""
        if key not in self.words:
            self.words[key] = t(key, self.lang)
        return self.words[key]


def badges(piece: PieceState, rows: Rows, words: bool = True) -> list[Chip]:
    """A piece's statuses in the order they matter: no powers (314.2d), AP/MP tokens (309.7),
    frozen tokens and wounds (309.8/307.20), inspiration dice (403), demonic rewards (306),
    and "to deploy" before it has a square."""
    ap, mp, hp = rows.word("render.km.ap"), rows.word("render.km.mp"), rows.word("render.km.hp")
    chips: list[Chip] = []
    if piece.powers_lost:
        chips.append(Chip(rows.word("render.km.no_powers") if words else "", kit.INK, glyphs.NO_POWERS, kit.INK_DARK,
                          glyphs.paint_no_powers))
    for value, unit in ((piece.ap_tokens, ap), (piece.mp_tokens, mp)):
        if value:
            colour = kit.OKABE_ITO["bluish_green"] if value > 0 else kit.OKABE_ITO["vermillion"]
            chips.append(Chip(_signed(value, unit), colour))
    frozen = [_signed(v, unit) for v, unit in ((piece.ap_frozen, ap), (piece.mp_frozen, mp)) if v]
    if piece.frozen_wounds:
        frozen.append(f"{piece.frozen_wounds} {hp}")
    chips += [Chip(text, kit.OKABE_ITO["blue"]) for text in frozen]
    chips += [Chip(rows.word(f"render.km.face.{insp.face}"), glyphs.FACE_COLOURS.get(insp.face, kit.MUTED), kit.INK,
                   strike=piece.powers_lost) for insp in piece.inspirations]
    # 306: revealed demonic rewards by name; face-down ones only as "?" (their face is private).
    chips += [Chip(name_in(c.reward, rows.lang), kit.OKABE_ITO["reddish_purple"]) for c in piece.rewards
              if c.face_up and c.reward]
    hidden = sum(1 for c in piece.rewards if not c.face_up)
    if hidden:
        chips.append(Chip("?" * hidden, kit.OKABE_ITO["reddish_purple"]))
    if piece.pos is None and not piece.ko:
        chips.append(Chip(rows.word("render.km.to_deploy"), kit.PANEL_LINE, ink=kit.INK))
    return chips


@dataclass(frozen=True)
class _Item:
    """Something on a row that flows: HP, AP/MP, the name (compact rows) or a status chip."""

    kind: Literal["hp", "stat", "name", "chip"]
    text: str
    width: int
    chip: Chip | None = None


def _items(rows: Rows, piece: PieceState, layout: Mode, room: int) -> tuple[list[_Item], list[_Item]]:
    """(what follows the name on line 1, what flows from line 2) for a full row; for a
    compact row, everything flows from line 1 (HP, the name when it fits whole, statuses);
    for a card, HP left (as on the token) and statuses."""
    active = piece.id == rows.active
    chips = [_Item("chip", c.text, kit_panel.chip_width(c, TEXT), c) for c in badges(piece, rows, layout == "full")]
    stats = []
    if piece.summon != "trap":  # 315.6: a trap has no HP
        left = max(0, piece.hp - piece.wounds)
        hp = str(left) if layout == "cards" else f"{left}/{piece.hp}"
        stats.append(_Item("hp", hp, TEXT * 3 // 4 + DU(2) + kit.text_width(hp, TEXT, 1)))
    if layout == "cards":
        return [], stats + chips
    if layout == "compact":
        name = name_in(piece.figurine, rows.lang)
        width = kit.text_width(name, TEXT, 1 if active else 0)
        if sum(i.width + GAP for i in stats) + width <= room:  # the name, only if it fits whole
            stats.append(_Item("name", name, width))
        return [], stats + chips
    fig = piece.figurine
    if piece.summon in ("bomb", "trap"):  # 315.4a/315.6a: no turn of their own, so no AP or MP to spend
        return chips, stats
    for key, now, most in (("render.km.ap", piece.ap, fig.ap), ("render.km.mp", piece.mp, fig.mp)):
        text = f"{rows.word(key)} {now}/{most}" if active else f"{rows.word(key)} {most}"
        stats.append(_Item("stat", text, kit.text_width(text, TEXT, 1 if active else 0)))
    return chips, stats


@dataclass(frozen=True)
class _Plan:
    """A row laid out at ``y = 0`` (a row moves down by whole pixels): what measuring it found, so
    drawing it after ``choose_modes`` measured it does not lay it out again."""

    name: str
    placed: list[tuple[_Item, tuple[int, int]]]
    lines: int
    height: int


def _plan(rows: Rows, piece: PieceState, x: int, width: int, layout: Mode) -> _Plan:
    """Lay a (not K.O.) row out: the name, what follows it and what flows under it (``piece_row``)."""
    key = (piece.id, layout, x, width)
    found = rows.plans.get(key)
    if found is not None:
        return found
    chip_x = x + INDEX_W
    name_x = chip_x + rows.chip_w + GAP
    right = x + width
    chip_dy = (LINE - kit_panel.chip_height(TEXT)) // 2
    summon_w = TEXT + DU(2) if piece.summon is not None else 0
    active = piece.id == rows.active
    full = layout == "full"
    name = kit.fit(name_in(piece.figurine, rows.lang), TEXT, right - name_x - summon_w, 1) if full else ""
    name_end = name_x + summon_w + (kit.text_width(name, TEXT, 1 if active else 0) if full else 0)
    after_name, flowing = _items(rows, piece, layout, right - name_x - summon_w)
    first = kit_panel.fits([i.width for i in after_name], name_end + GAP, right, DU(2))
    flowing = after_name[first:] + flowing if not full else flowing + after_name[first:]
    spans = [] if full else [(name_end, right, chip_dy)]
    places, lines = kit_panel.flow([i.width for i in flowing], spans,
                                   lambda n: (name_x, right, (1 + n) * LINE + chip_dy), DU(3))
    placed = [(item, (name_end + GAP + sum(i.width + DU(2) for i in after_name[:k]), chip_dy))
              for k, item in enumerate(after_name[:first])] + list(zip(flowing, places, strict=True))
    plan = rows.plans[key] = _Plan(name, placed, lines, (1 + lines) * LINE + ROW_GAP)
    return plan


def piece_row(draw: ImageDraw.ImageDraw | None, rows: Rows, piece: PieceState, index: int, x: int, y: int,
              width: int, layout: Mode) -> int:
    """One timeline entry; returns its height. ``draw=None`` only measures.

    Full: order, the name chip (the piece's board label), the name and statuses while they
    fit; under the name HP (a heart and "5/7") and AP/MP (current/max for the active
    piece), the square under the chip. Compact: order, chip, HP, the name if it fits whole,
    statuses. Whatever does not fit flows onto the next line: nothing is cut or covered.
    A K.O. piece keeps its place in the timeline (308.1b): grey chip, name struck, "K.O.".
    """
    if draw is None and (piece.id, layout) in rows.heights:
        return rows.heights[piece.id, layout]
    active = piece.id == rows.active
    ink = kit.INK_DARK if active else (kit.MUTED if piece.ko else kit.INK)
    chip_x = x + INDEX_W
    name_x = chip_x + rows.chip_w + GAP
    right = x + width
    chip_dy = (LINE - kit_panel.chip_height(TEXT)) // 2
    summon_w = TEXT + DU(2) if piece.summon is not None else 0
    ko = Chip(rows.word("render.km.ko"), KO_RED)
    if piece.ko:
        return _ko_row(draw, rows, piece, index, x, y, right, ko)
    full = layout == "full"
    plan = _plan(rows, piece, x, width, layout)
    name, lines, height = plan.name, plan.lines, plan.height
    rows.heights[piece.id, layout] = height
    if draw is None:
        return height
    if active:
        draw.rounded_rectangle((x - DU(2), y - DU(1), right + DU(2), y + height - ROW_GAP + DU(1)), radius=DU(3),
                               fill=kit.HIGHLIGHT)
    mid = y + LINE / 2
    kit.draw_text(draw, (x + INDEX_W / 2 - 1, mid), f"{index}" if index else "-", TEXT, ink if active else kit.MUTED,
                  anchor="mm")
    _name_chip(draw, rows.state, piece, chip_x, y + chip_dy, rows.chip_w)
    if piece.summon is not None:  # 315: the kind's marker before the name
        glyphs.paint_summon_mark(draw, (name_x, mid - TEXT / 2, name_x + TEXT, mid + TEXT / 2), piece.summon,
                                 kit.team_colour(piece.owner))
    if full:
        kit.draw_text(draw, (name_x + summon_w, mid), name, TEXT, ink, anchor="lm", bold=active)
    if lines and piece.pos:  # the square, under the chip
        kit.draw_text(draw, (chip_x + rows.chip_w / 2, mid + LINE), piece.pos, TEXT, ink if active else kit.SUBTLE,
                      anchor="mm", bold=True)
    for item, (ix, iy) in plan.placed:
        _draw_item(draw, item, ix, y + iy - chip_dy + LINE / 2, ink, active)
    return height


def _ko_row(draw: ImageDraw.ImageDraw | None, rows: Rows, piece: PieceState, index: int, x: int, y: int, right: int,
            ko: Chip) -> int:
    height = LINE + ROW_GAP
    if draw is None:
        return height
    chip_dy = (LINE - kit_panel.chip_height(TEXT)) // 2
    ko_w = kit_panel.chip_width(ko, TEXT)
    name_x = x + INDEX_W + rows.chip_w + GAP
    mid = y + LINE / 2
    kit.draw_text(draw, (x + INDEX_W / 2 - 1, mid), f"{index}" if index else "-", TEXT, kit.MUTED, anchor="mm")
    _name_chip(draw, rows.state, piece, x + INDEX_W, y + chip_dy, rows.chip_w)
    name = name_in(piece.figurine, rows.lang)
    if kit.text_width(name, TEXT) <= right - ko_w - GAP - name_x:  # struck through: only if it fits whole
        box = kit.draw_text(draw, (name_x, mid), name, TEXT, kit.MUTED, anchor="lm")
        draw.line((name_x, mid, box[2], mid), fill=kit.MUTED, width=2)
    kit_panel.draw_chip(draw, right - ko_w, y + chip_dy, ko, TEXT)
    return height


def _draw_item(draw: ImageDraw.ImageDraw, item: _Item, x: int, mid: float, ink: RGB, active: bool) -> None:
    if item.chip is not None:
        painted(draw, kit_panel.draw_chip, x, round(mid - kit_panel.chip_height(TEXT) / 2), item.chip, TEXT)
    elif item.kind == "hp":
        heart = TEXT * 3 // 4
        kit_panel.paint_heart(draw, (x, round(mid - heart / 2), x + heart, round(mid + heart / 2)))
        kit.draw_text(draw, (x + heart + DU(2), mid), item.text, TEXT, ink, anchor="lm", bold=True)
    else:
        kit.draw_text(draw, (x, mid), item.text, TEXT, ink, anchor="lm", bold=active)


def player_cards(draw: ImageDraw.ImageDraw | None, rows: Rows, pieces: Sequence[tuple[int, PieceState]], x: int,
                 y: int, width: int) -> int:
    """The densest form, for crowded tables: each piece as a card (chip and HP, or "K.O."),
    its statuses right after it, cards side by side in timeline order. Returns the height."""
    groups: list[list[_Item]] = []
    for _index, piece in pieces:
        chip = _Item("chip", piece.short, rows.chip_w)
        if piece.ko:
            ko = Chip(rows.word("render.km.ko"), KO_RED)
            groups.append([chip, _Item("chip", ko.text, kit_panel.chip_width(ko, TEXT), ko)])
            continue
        _after, flowing = _items(rows, piece, "cards", 0)
        groups.append([chip, *flowing])
    layout, lines = kit_panel.flow_groups([[i.width for i in g] for g in groups], x, x + width, DU(2), DU(6))
    height = lines * LINE + ROW_GAP
    if draw is None:
        return height
    chip_dy = (LINE - kit_panel.chip_height(TEXT)) // 2
    for (_index, piece), group, places in zip(pieces, groups, layout, strict=True):
        for item, (ix, line) in zip(group, places, strict=True):
            iy = y + line * LINE
            if item.kind == "chip" and item.chip is None:
                _name_chip(draw, rows.state, piece, ix, iy + chip_dy, rows.chip_w)
            else:
                _draw_item(draw, item, ix, iy + LINE / 2, kit.INK, False)
    return height


def _name_chip(draw: ImageDraw.ImageDraw, state: State, piece: PieceState, x: int, y: int, w: int) -> None:
    """The piece's board label in its team colour and token shape (disc: pill, square: box)."""
    h = kit_panel.chip_height(TEXT)
    colour = KO_GREY if piece.ko else kit.team_colour(piece.owner)
    radius = h // 2 if shape_of(state, piece.owner) == "circle" else DU(2)
    kit.note("chip", (x, y, x + w, y + h), piece.short, TEXT)
    painted(draw, _label_chip, (x, y, x + w, y + h), radius, colour, piece.short)


def _label_chip(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], radius: int, colour: RGB,
                short: str) -> None:
    """A board label on a chip: depends on its arguments only (``surface.painted`` keeps its calls)."""
    x, y, x1, y1 = box
    w, h = x1 - x, y1 - y
    draw.rounded_rectangle(box, radius=radius, fill=colour, outline=kit.INK_DARK)
    stroke = kit.outline_width(TEXT)
    size = kit.fit_size(short, TEXT, w - 4, minimum=TEXT, stroke=stroke)
    kit.draw_text(draw, (x + w / 2, y + h / 2 + 1), short, size, kit.INK, anchor="mm", outline=kit.INK_DARK)


# -- players and teams -------------------------------------------------------------------


def _header_lines(player: PlayerState, name: str, lang: str, width: int) -> tuple[str, int]:
    stats = f"{t('render.km.gg', lang, count=player.gg)}   {t('render.km.kamas', lang, count=player.kamas)}"
    if player.resigned:  # out of the game: its pieces have left the arena (rules_resign)
        stats = t("render.km.resigned", lang)
    room = width - DU(8) - kit.text_width(stats, TEXT, 1) - GAP
    return stats, 1 if kit.text_width(name, TEXT, 1) <= room else 2


def player_header(draw: ImageDraw.ImageDraw | None, state: State, player: PlayerState, name: str, lang: str,
                  acting: bool, position: int | None, x: int, y: int, width: int) -> int:
    """The player's colour bar, name (» when they must act) and GG and kamas (or "Resigned")."""
    if position is not None:  # 2-vs-2 lists players by team, so their play order is written (703.3)
        name = f"{position}. {name}"
    if acting:
        name = "» " + name
    stats, lines = _header_lines(player, name, lang, width)
    height = HEADER + (lines - 1) * LINE
    if draw is None:
        return height
    draw.rectangle((x, y + DU(1), x + DU(4), y + height - DU(3)), fill=kit.team_colour(player.seat))
    mid = y + LINE / 2
    shown = kit.fit(name, TEXT, width - DU(8), 1)  # a user's name: cut only past a whole line
    kit.draw_text(draw, (x + DU(8), mid), shown, TEXT, kit.INK, anchor="lm", bold=True)
    kit.draw_text(draw, (x + width, mid + (lines - 1) * LINE), stats, TEXT, kit.INK, anchor="rm", bold=True)
    return height


def _team_box(draw: ImageDraw.ImageDraw, state: State, label: str, seats: list[int], x: int, y: int, width: int,
              body: int) -> None:
    """703: a framed box around a team's players, headed by its label and its token shape.

    Each player keeps its colour bar; the label and the frame say who plays together
    without relying on colour.
    """
    draw.rounded_rectangle((x - DU(3), y, x + width + DU(3), y + TEAM_HEAD + body + TEAM_PAD), radius=DU(4),
                           fill=TEAM_FILL, outline=kit.SUBTLE, width=2)
    mid = y + TEAM_HEAD / 2 + 1
    g = TEXT * 3 // 4
    glyph = (x + 2, round(mid - g / 2), x + 2 + g, round(mid + g / 2))
    if shape_of(state, seats[0]) == "circle":
        draw.ellipse(glyph, fill=kit.INK, outline=kit.INK_DARK)
    else:
        draw.rounded_rectangle(glyph, radius=3, fill=kit.INK, outline=kit.INK_DARK)
    text = label.upper()
    box = kit.draw_text(draw, (x + g + DU(5), mid), text, TEXT, kit.INK, anchor="lm", bold=True)
    draw.line((box[2] + DU(6), mid, x + width, mid), fill=kit.SUBTLE, width=2)


# -- the whole panel ---------------------------------------------------------------------


def _facts(col: Column, state: State, lang: str) -> None:
    """Round and turn, the wild GG, the reward piles' public side (306): wrapped, never cut."""
    items = [status_line(state, lang), t("render.km.wild_gg", lang, count=state.wild_gg)]
    if state.rewards.total:
        counts: dict[str, int] = {}
        for pile in state.rewards.piles:
            counts[pile.rank.value] = counts.get(pile.rank.value, 0) + pile.count + (pile.top is not None)
        items.append(f"{t('render.km.rewards', lang)}: " + " · ".join(f"{t(f'render.km.rank.{rank}', lang)} {n}"
                                                                   for rank, n in counts.items()))
        tops = [name_in(p.top.reward, lang) for p in state.rewards.piles
                if p.top is not None and p.top.reward is not None]
        if tops:
            items.append(f"{t('render.km.face_up', lang)}: {', '.join(tops)}")
    for line in kit_panel.words_flow(items, TEXT, col.width, DU(5)):
        for dx, text in line:
            kit.draw_text(col.draw, (col.left + dx, col.y), text, TEXT, kit.SUBTLE, bold=True)
        col.space(kit.line_height(TEXT))
    col.space(DU(2))


def _dice(col: Column, state: State, lang: str) -> None:
    """The dice waiting for the active player's choice (402, 403), as face chips."""
    dice = state.inspiration_dice if state.phase == "inspiration" else state.tension if state.phase == \
        "tension_faces" else []
    if not dice:
        return
    label = t("render.km.dice", lang)
    chips = [Chip(t(f"render.km.face.{face}", lang), glyphs.FACE_COLOURS.get(face, kit.MUTED), kit.INK)
             for face in dice]
    start, end = col.left + kit.text_width(label, TEXT, 1) + GAP, col.left + col.width
    places, extra = kit_panel.flow([kit_panel.chip_width(c, TEXT) for c in chips], [(start, end, col.y)],
                                   lambda n: (start, end, col.y + (n + 1) * LINE), DU(3))
    kit.draw_text(col.draw, (col.left, col.y + LINE / 2), label, TEXT, kit.INK, anchor="lm", bold=True)
    for chip, (x, y) in zip(chips, places, strict=True):
        kit_panel.draw_chip(col.draw, x, y, chip, TEXT)
    col.space((1 + extra) * LINE + DU(2))


def pieces_block(draw: ImageDraw.ImageDraw | None, rows: Rows, player: PlayerState, mode: Mode, x: int, y: int,
                 width: int) -> int:
    """A player's pieces in ``mode``; returns the height. The active piece always gets a full
    row (its AP and MP left are what its player plays with); in cards mode it comes first."""
    state = rows.state
    pieces = [(i, state.pieces[pid]) for i, pid in panel_rows(state, player)]
    height = 0
    if mode == "cards":
        for i, piece in pieces:
            if piece.id == rows.active:
                height += piece_row(draw, rows, piece, i, x, y + height, width, "full")
        rest = [(i, p) for i, p in pieces if p.id != rows.active]
        return height + (player_cards(draw, rows, rest, x, y + height, width) if rest else 0)
    for i, piece in pieces:
        height += piece_row(draw, rows, piece, i, x, y + height, width, "full" if piece.id == rows.active else mode)
    return height


def choose_modes(rows: Rows, seats: Sequence[int], room: int, acting: Sequence[int]) -> dict[int, Mode]:
    """The roomiest mode that fits for every player alike (full, compact, then cards), then
    the acting player's own block one step roomier if that still fits."""
    state = rows.state
    memo: dict[tuple[int, Mode], int] = {}

    def cost(seat: int, mode: Mode) -> int:
        if (seat, mode) not in memo:
            memo[seat, mode] = pieces_block(None, rows, state.player(seat), mode, PANEL_LEFT, 0, PANEL_WIDTH)
        return memo[seat, mode]

    uniform = next((m for m in MODES if sum(cost(s, m) for s in seats) <= room), "cards")
    modes: dict[int, Mode] = dict.fromkeys(seats, uniform)
    for seat in acting:
        if seat not in modes:
            continue
        for better in MODES[:MODES.index(modes[seat])]:
            if sum(cost(s, modes[s]) for s in seats) - cost(seat, modes[seat]) + cost(seat, better) <= room:
                modes[seat] = better
                break
    return modes


def draw_panel(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
               banner: Banner | None, legend_rows: Sequence[kit_panel.LegendRow]) -> None:
    """The whole panel, top to bottom; ``legend_rows`` are legend rows that did not fit under the board."""
    col = Column(draw, PANEL_LEFT, PANEL_TOP, PANEL_WIDTH)
    head, colour, lines = banner or turn_banner(state, lang, seat_names)
    col.space(kit_panel.banner(draw, col.left, col.y, col.width, head, lines, colour, TEXT_BIG, TEXT) + DU(4))
    _facts(col, state, lang)
    _dice(col, state, lang)
    acting = acting_seats(state)
    rows = Rows.of(state, lang)
    groups = panel_groups(state, lang)
    teamed = any(label is not None for label, _seats in groups)
    seating = state.seat_order() if teamed else []
    legend_h = kit_panel.legend_height(legend_rows, TEXT, DU(10))
    heads = {s: _player_block_head(state, s, seat_names, lang, acting, seating) for _label, seats in groups
             for s in seats}
    furniture = sum(heads.values()) - DU(3) * len(groups)  # no separator above a group's first player
    furniture += sum(TEAM_HEAD + TEAM_PAD + TEAM_GAP for label, _s in groups if label is not None)
    modes = choose_modes(rows, list(heads), PANEL_BOTTOM - legend_h - col.y - furniture, acting)
    for label, seats in groups:  # section 7: in play order 1-2-3-4; 703: team by team
        if label is not None:
            body = sum(heads[s] + pieces_block(None, rows, state.player(s), modes[s], col.left, 0, col.width)
                       for s in seats)
            _team_box(draw, state, label, seats, col.left, col.y, col.width, body - DU(3))
            col.space(TEAM_HEAD)
        for i, seat in enumerate(seats):
            player = state.player(seat)
            if label is None and i:  # a team box's label already separates its first player
                col.rule(DU(3))
            elif label is not None and i:
                col.space(DU(3))
            position = seating.index(seat) + 1 if teamed and seat in seating else None
            col.space(player_header(draw, state, player, player_name(player, seat_names), lang, seat in acting,
                                    position, col.left, col.y, col.width))
            col.space(pieces_block(draw, rows, player, modes[seat], col.left, col.y, col.width))
        if label is not None:
            col.space(TEAM_PAD + TEAM_GAP)
    if legend_rows:
        kit_panel.draw_legend(draw, col.left, PANEL_BOTTOM - legend_h, legend_rows, TEXT, DU(10))


def _player_block_head(state: State, seat: int, seat_names: Mapping[int, str] | None, lang: str, acting: list[int],
                       seating: list[int]) -> int:
    """Height of a player's header plus the separator before it (rows are counted apart)."""
    player = state.player(seat)
    position = seating.index(seat) + 1 if seat in seating else None
    return DU(3) + player_header(None, state, player, player_name(player, seat_names), lang, seat in acting, position,
                                 PANEL_LEFT, 0, PANEL_WIDTH)
