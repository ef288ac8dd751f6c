"""The side panel: banner (who acts, what to do), VP against the goal, the clock ring and
the roster (one row per character, in the order the clocks will call them).

Why a roster in clock order: the question players ask most is "who is next" (spec §8), and
ties are decided by a player (500.3c). Each row starts with the character's tick (and how
far it is ahead of the master), so a tie is two rows with the same tick, labelled with who
will choose. The row then holds the token's name chip, health, the action bar (names to
whoever may see them, card backs to the others, 7.3; exhausted cards lie on their side) and
the markers the map has no room for: Taunt, Protector, Stealth, a form, buffs and debuffs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import ImageDraw

from common.i18n import has
from engines.wowminis import rules_stats
from engines.wowminis.state import CharState, State, shown
from renderers import kit, kit_bytes, kit_ink, kit_panel
from renderers.kit import RGB
from renderers.kit_panel import Chip
from renderers.wowminis import glyphs, ring
from renderers.wowminis.layout import (
    CHIP_H,
    DU,
    LINE,
    PANEL_BOTTOM,
    PANEL_LEFT,
    PANEL_TOP,
    PANEL_WIDTH,
    TEXT,
    TEXT_BIG,
    acting,
    active_char,
    hidden_to,
    names,
    seat_colour,
)
from renderers.wowminis.words import drawn_name, named_params, plain, player_name, tr

Mode = Literal["full", "own", "compact", "lean", "bare"]
MODES: tuple[Mode, ...] = ("full", "own", "compact", "lean", "bare")
"""How much a roster row says, most first: every card's name; names on the viewer's own
cards (what a private picture is for) and on face-up ready cards (what can still be played
against you), exhausted ones as glyphs; card glyphs only; no health (the map has it); no
form chips. The first that fits the panel is drawn."""
PITCH = max(LINE, CHIP_H) + DU(1)
GAP = DU(3)
ROW_GAP = DU(1)
CARD_W = DU(9)
SWATCH = DU(11)
Paint = Callable[[ImageDraw.ImageDraw, int, int], None]


@dataclass(frozen=True)
class Item:
    """Something drawn on a roster line: its width and how to paint it at (x, top of line)."""

    width: int
    paint: Paint
    glue: bool = False  # moves to a new line together with the item before it


def chip_item(chip: Chip, *, glue: bool = False) -> Item:
    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        kit_ink.draw_chip(draw, x, y + (PITCH - DU(1) - CHIP_H) // 2, chip, TEXT)

    return Item(kit_panel.chip_width(chip, TEXT), paint, glue)


def text_item(text: str, fill: RGB = kit.INK, *, glue: bool = False, bold: bool = False) -> Item:
    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        kit_ink.draw_label(draw, (x, y + (PITCH - DU(1)) / 2 + 1), text, TEXT, fill, anchor="lm", bold=bold)

    return Item(kit.text_width(text, TEXT, 1 if bold else 0), paint, glue)


def glyph_item(painter: glyphs.Painter, width: int = CARD_W) -> Item:
    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        h = CHIP_H - 2
        top = y + (PITCH - DU(1) - h) // 2
        painter(draw, (x, top, x + width, top + h))

    return Item(width, paint)


def flow(items: Sequence[Item], width: int, indent: int) -> list[list[tuple[int, Item]]]:
    """Items on lines of ``width`` px: (x offset, item); glued items move with the one before, unless together
    they are wider than a line (a long card name with icons): then each goes on its own, as far as it fits."""
    lines: list[list[tuple[int, Item]]] = [[]]
    groups: list[list[Item]] = []
    for item in items:
        if item.glue and groups:
            groups[-1].append(item)
        else:
            groups.append([item])
    groups = [part for group in groups for part in
              ([group] if indent + sum(i.width for i in group) + GAP * (len(group) - 1) <= width else
               [[i] for i in group])]
    x = 0
    for group in groups:
        w = sum(i.width for i in group) + GAP * (len(group) - 1)
        if lines[-1] and x + w > width:
            lines.append([])
            x = indent
        for item in group:
            lines[-1].append((x, item))
            x += item.width + GAP
    return lines


# -- banner ---------------------------------------------------------------------------------


def banner(state: State, lang: str, seat_names: Mapping[int, str] | None) -> tuple[str, RGB, list[str]]:
    """Title, colour and lines: who must act and what to do, or who won and why."""
    who = names(state, seat_names)
    seats, kind = acting(state)
    if state.phase == "over" or kind == "over":
        winners = state.winners or []
        reason = f"end.{state.end_reason or 'honor'}"
        why = [tr(reason, lang)] if has(f"wowm.img.{reason}", lang) else []  # never an internal word
        if len(winners) == 1:
            return tr("banner.wins", lang, name=who.get(winners[0], "?")), seat_colour(winners[0]), why
        return tr("banner.draw", lang), kit.PANEL_LINE, why
    if kind == "choose_bar":
        waiting = ", ".join(who.get(s, "?") for s in seats)
        return tr("banner.choosing", lang), kit.PANEL_LINE, [tr("do.choose_bar", lang, names=waiting)]
    if not seats:
        return tr("banner.waiting", lang), kit.PANEL_LINE, []
    seat = seats[0]
    params = named_params(state, state.pending.params, lang) if state.pending is not None else {}
    c = active_char(state)
    params.setdefault("char", drawn_name(c.defn, lang) if c is not None else "")
    params["tick"] = state.tick
    key = f"do.{kind}"
    line = tr(key, lang, **params) if has(f"wowm.img.{key}", lang) else tr("do.other", lang)
    return tr("banner.to_act", lang, name=who.get(seat, "?")), seat_colour(seat), [line]


# -- VP -------------------------------------------------------------------------------------


def vp_items(state: State, lang: str, seat_names: Mapping[int, str] | None) -> list[Item]:
    """102.1: each player's VP against the goal, in the seat's colour. In 2 vs 2 the chips go by team, each
    team led by its total against its goal (the team wins as one, ``rules_parties``)."""
    who = names(state, seat_names)
    label = text_item(tr("vp_label", lang), kit.SUBTLE, bold=True)
    players = sorted(state.players, key=lambda x: (x.team if x.team is not None else -1, x.seat))
    items = [label]
    for p in players:
        if p.team is not None and p is next(q for q in players if q.team == p.team):
            team = [q for q in players if q.team == p.team]
            vp, goal = sum(q.vp for q in team), sum(q.goal or q.honor_total for q in team)
            items.append(text_item(tr("team_vp", lang, n=p.team + 1, vp=vp, goal=goal),
                                   kit.INK if vp >= goal > 0 else kit.SUBTLE, glue=False, bold=True))
        goal = p.goal or p.honor_total
        score = tr("vp", lang, name="", vp=p.vp, goal=goal).strip()
        # Chips flow onto a second line when both do not fit; only a name wider than the whole
        # panel (a user's text) is shortened, never the numbers.
        name = kit.fit(who[p.seat], TEXT, PANEL_WIDTH - DU(8) - kit.text_width(" " + score, TEXT, 1), 1)
        items.append(chip_item(Chip(tr("vp", lang, name=name, vp=p.vp, goal=goal), seat_colour(p.seat),
                                    outline=kit.INK if p.vp >= goal > 0 else None)))
    return items


# -- roster ---------------------------------------------------------------------------------


def order(state: State) -> list[CharState]:
    """Characters in the order the clocks call them: earliest clock first, then by id."""
    return sorted(state.chars.values(), key=lambda c: (c.clock, c.kind != "hero", c.controller, c.id))


def tie_line(state: State, lang: str, seat_names: Mapping[int, str] | None) -> str | None:
    """500.3c: while a tie question is open, the tick of the tie and who chooses (the owner if all are
    his; else, with two players, the non-active one). Once settled the label goes (issue 27.5): the
    ring's chips still show who else stands at that tick, and the next question will say it again."""
    pending = state.pending
    if state.phase != "play" or pending is None or pending.kind not in ("next_character", "first_character"):
        return None
    who = names(state, seat_names)
    groups: dict[int, list[CharState]] = {}
    for c in state.chars.values():
        groups.setdefault(c.clock, []).append(c)
    for clock in sorted(groups):
        tied = groups[clock]
        if len(tied) < 2:
            continue
        owners = {c.controller for c in tied}
        if state.pending is not None and state.pending.kind in ("next_character", "first_character") \
                and clock == state.master:
            chooser = state.pending.seat
        elif state.turns_taken == 0 and clock == state.master:  # 101.4: the first player picks the first
            chooser = state.first_seat
        elif len(owners) == 1:
            chooser = owners.pop()
        else:
            seats = [p.seat for p in sorted(state.players, key=lambda p: p.seat)]
            i = seats.index(state.active_seat) if state.active_seat in seats else 0
            chooser = next(s for s in seats[i + 1:] + seats[:i + 1] if s in owners)
        return tr("tie", lang, tick=shown(clock), name=kit.fit(who.get(chooser, "?"), TEXT, PANEL_WIDTH * 2 // 3))
    return None


def _card_items(state: State, c: CharState, viewer: int | None, lang: str, mode: Mode) -> list[Item]:
    items: list[Item] = []
    for card in c.bar:
        if card.zone == "set_aside" and card.defn is not None and mode != "bare":  # 302: the form in play
            key = "roster.form" if mode == "full" else "roster.form_short"
            chip = Chip(tr(key, lang, name=drawn_name(card.defn, lang)), glyphs.MARKER, outline=kit.INK)
            items.append(chip_item(chip))
            continue
        hide = hidden_to(c.controller, card.face_up, card.defn is not None, viewer)
        painter = glyphs.card_painter(face_up=card.face_up, ready=card.ready)
        named = mode == "full" or (mode == "own" and ((viewer is not None and c.controller == viewer)
                                                      or (card.face_up and card.ready)))
        if hide or not named or card.defn is None:
            items.append(glyph_item(painter, CARD_W if card.ready else CHIP_H - 2))
            continue
        text = tr("roster.card", lang, name=drawn_name(card.defn, lang), cost=card.defn.cost)
        fill = glyphs.SPENT if not card.ready else glyphs.CARD_FACE if card.face_up else glyphs.CARD_BACK
        items.append(chip_item(Chip(text, fill, icon=painter)))
    return items


def _markers(state: State, c: CharState, lang: str, mode: Mode) -> list[Item]:
    """Keywords as icon chips (the legend under the roster names them), then buffs and debuffs."""
    # glued to what comes before them: a row that wraps takes its last card along, so an icon never sits
    # alone on a line (a playtest saw Taunt and Stealth each on a line of their own)
    items = [chip_item(Chip("", glyphs.MARKER, icon=glyphs.KEYWORD_PAINTERS[k]), glue=True) for k in c.defn.keywords
             if k in glyphs.KEYWORD_PAINTERS]
    buffs = sum(1 for e in state.effects if e.target == c.id and e.kind == "buff")
    debuffs = sum(1 for e in state.effects if e.target == c.id and e.kind == "debuff")
    if buffs:
        items.append(chip_item(Chip(f"▲{buffs}", glyphs.BUFF), glue=True))
    if debuffs:
        items.append(chip_item(Chip(f"▼{debuffs}", glyphs.DEBUFF), glue=True))
    return items


def row_items(state: State, c: CharState, viewer: int | None, lang: str, mode: Mode, words: bool = True,
              health: Mapping[str, int] | None = None) -> list[Item]:
    """One roster row; ``words``: an off-map character's grey chip is followed by "off the map"; ``health``: each
    character's maximum health, when the caller has it (the panel lays its roster out in several modes)."""
    ahead = c.clock - state.master
    tick = str(shown(c.clock)) + (f" +{ahead}" if ahead > 0 else "")
    items = [chip_item(Chip(tick, glyphs.SLOT, ink=kit.INK))]
    colour = seat_colour(c.controller) if c.in_play else glyphs.OUT
    items.append(chip_item(Chip(c.short, colour, outline=seat_colour(c.controller) if not c.in_play else None,
                                ink=kit.INK), glue=True))
    if c.in_play and mode in ("lean", "bare"):
        pass  # the map shows the health of a character in play
    elif c.in_play:
        hp = health[c.id] if health is not None and c.id in health else max(1, rules_stats.max_health(state, c))
        items.append(text_item(f"{c.health}/{hp}", glue=True, bold=True))
    elif words and mode != "bare":  # bare (12 characters and a 2 vs 2 VP block): the grey chip alone says
        items.append(text_item(tr("roster.off_map", lang), kit.SUBTLE, glue=True))  # "off the map" (legend)
    if c.controller != c.owner:  # 400.3: who holds it during the nested turn
        holder = player_name(state, c.controller, None)
        items.append(chip_item(Chip(tr("roster.controlled", lang, player=holder), seat_colour(c.controller),
                                    outline=seat_colour(c.owner), ink=kit.INK)))
    items += _card_items(state, c, viewer, lang, mode)
    items += _markers(state, c, lang, mode)
    return items


def roster_lines(state: State, viewer: int | None, lang: str, mode: Mode, health: Mapping[str, int] | None = None
                 ) -> tuple[list[tuple[CharState, list]], bool]:
    """The roster's rows flowed into lines, and whether its off-map rows say "off the map" in words.

    Not when the words cost lines: with two cards and a keyword icon an off-map row did not fit in one line
    (the words are its widest item), and rows that wrap for their icons read worse than a grey chip the
    legend names (a playtest). All rows alike, so that they read alike; ``bare`` never has the words."""

    def laid(words: bool) -> list[tuple[CharState, list]]:
        return [(c, _row_lines(state, c, viewer, lang, mode, words, health)) for c in order(state)]

    def off_lines(rows: list[tuple[CharState, list]]) -> int:
        return sum(len(lines) for c, lines in rows if not c.in_play)

    rows = laid(mode != "bare")
    if mode == "bare" or all(len(lines) == 1 for c, lines in rows if not c.in_play):
        return rows, mode != "bare"
    without = laid(False)
    return (rows, True) if off_lines(rows) <= off_lines(without) else (without, False)


ROW_BYTES = 512 << 10
"""Heap bytes of roster rows kept laid out (``_row_lines``), counted at ``ROW_ENTRY`` each: ~250 rows, the rosters
of the tables a worker drew last, in the modes their panels tried."""
ROW_ENTRY = 2 << 10
_row_layouts = kit_bytes.Budget(ROW_BYTES, lambda _key, _value: ROW_ENTRY)


def _row_key(state: State, c: CharState, viewer: int | None, lang: str, mode: Mode, words: bool, hp: int
             ) -> Hashable:
    """Every value ``row_items`` reads for ``c``'s row, worked out: the same key, the same items and lines."""
    cards = tuple((card.zone, card.face_up, card.ready,
                   None if card.defn is None else (drawn_name(card.defn, lang), card.defn.cost),
                   hidden_to(c.controller, card.face_up, card.defn is not None, viewer)) for card in c.bar)
    buffs = sum(1 for e in state.effects if e.target == c.id and e.kind == "buff")
    debuffs = sum(1 for e in state.effects if e.target == c.id and e.kind == "debuff")
    holder = player_name(state, c.controller, None) if c.controller != c.owner else None
    return (lang, mode, words, viewer is not None and c.controller == viewer, c.clock, c.clock - state.master,
            c.controller, c.owner, c.in_play, c.short, c.health, hp, holder, cards, tuple(c.defn.keywords), buffs,
            debuffs)


def _row_lines(state: State, c: CharState, viewer: int | None, lang: str, mode: Mode, words: bool,
               health: Mapping[str, int] | None) -> list[list[tuple[int, Item]]]:
    """``c``'s row flowed into lines, kept by its ``_row_key`` (issue 28: a roster's layout, worked out for each
    mode the panel tries, was ~9 % of a picture, and a table's next picture shows most rows again)."""
    hp = health[c.id] if health is not None and c.id in health else max(1, rules_stats.max_health(state, c))
    key = _row_key(state, c, viewer, lang, mode, words, hp)
    found = _row_layouts.found(key)
    if found is None:  # (a kept layout is only read: its items are frozen, its lists never changed)
        found = _row_layouts.keep(key, flow(row_items(state, c, viewer, lang, mode, words, {c.id: hp}),
                                            PANEL_WIDTH - DU(4), DU(8)))
    return found  # type: ignore[no-any-return]


def roster_height(rows: list[tuple[CharState, list]]) -> int:
    return sum(len(lines) * PITCH + ROW_GAP for _c, lines in rows)


def draw_roster(draw: ImageDraw.ImageDraw, state: State, rows: list[tuple[CharState, list]], top: int) -> int:
    """Rows top-down; a row that would pass the panel's bottom is not drawn (never half)."""
    active = active_char(state)
    y = top
    for c, lines in rows:
        h = len(lines) * PITCH
        if y + h > PANEL_BOTTOM:
            break
        if active is not None and c.id == active.id:
            draw.rounded_rectangle((PANEL_LEFT - DU(2), y - 1, PANEL_LEFT + PANEL_WIDTH + DU(2), y + h),
                                   radius=DU(3), fill=glyphs.ROW_ACTIVE, outline=kit.HIGHLIGHT, width=2)
        for i, line in enumerate(lines):
            for x, item in line:
                item.paint(draw, PANEL_LEFT + DU(2) + x, y + i * PITCH)
        y += h + ROW_GAP
    return y - top


# -- the whole panel ---------------------------------------------------------------------


def draw_panel(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
               viewer: int | None, head: tuple[str, RGB, list[str]] | None = None,
               log_lines: Sequence[str] = ()) -> None:
    """Banner, VP, ring and roster top-down; the roster's cards lose their names (glyphs
    only) when the full roster would not fit, never a character's row."""
    title, colour, lines = head or banner(state, lang, seat_names)
    y = PANEL_TOP
    y += kit_panel.banner(draw, PANEL_LEFT, y, PANEL_WIDTH, title, lines, colour, TEXT_BIG, TEXT) + DU(3)
    vp = flow(vp_items(state, lang, seat_names), PANEL_WIDTH, 0)
    for i, line in enumerate(vp):
        for x, item in line:
            item.paint(draw, PANEL_LEFT + x, y + i * PITCH)
    y += len(vp) * PITCH + DU(3)
    tie = tie_line(state, lang, seat_names)
    # Beside the ring, the round and the tie in a narrow column; without the ring, full width.
    side_w = PANEL_WIDTH - ring.height() - DU(3)
    beside = [tr("round_short", lang, round=state.round), tr("tick_short", lang, tick=state.tick)]
    below: list[str] = []  # the tie goes under the ring when a word of it is too wide for the column
    if tie and all(kit.text_width(word, TEXT) <= side_w for word in tie.split()):
        beside += kit.wrap(tie, TEXT, side_w)
    elif tie:
        below = kit.wrap(tie, TEXT, PANEL_WIDTH)
    captions = [part for text in [tr("round", lang, round=state.round, tick=state.tick)] + ([tie] if tie else [])
                for part in kit.wrap(text, TEXT, PANEL_WIDTH)]
    # The roster keeps every character: its cards shrink to glyphs first, and only if even
    # that does not fit does the ring give way (the roster's ticks say the same, in words).
    tries: list[tuple[Mode, bool]] = [("full", True), ("own", True)]
    if viewer is not None:  # a private picture is for the viewer's own secret cards: they go last
        tries += [("own", False)]
    tries += [(m, True) for m in MODES[2:]] + [(MODES[-1], False)]
    health = {c.id: max(1, rules_stats.max_health(state, c)) for c in state.chars.values() if c.in_play}
    for mode, with_ring in tries:
        rows, words = roster_lines(state, viewer, lang, mode, health)
        legend_h = kit_panel.legend_height(kit_panel.legend_rows(legend_entries(state, lang, words), PANEL_WIDTH,
                                                                 TEXT, SWATCH), TEXT, SWATCH)
        top_h = max(ring.height(), len(beside) * LINE) + DU(1) + len(below) * LINE if with_ring \
            else len(captions) * LINE
        if y + top_h + DU(7) + roster_height(rows) + legend_h + DU(2) <= PANEL_BOTTOM:
            break
    if with_ring:
        ring.draw_ring(draw, state, PANEL_LEFT + ring.height() // 2, y)
        x = PANEL_LEFT + ring.height() + DU(3) + side_w / 2
        ty = y + (ring.height() - len(beside) * LINE) / 2
        for part in beside:
            kit_ink.draw_label(draw, (x, ty + LINE / 2), part, TEXT, kit.SUBTLE, anchor="mm")
            ty += LINE
        y += max(ring.height(), len(beside) * LINE) + DU(1)
        for part in below:
            kit.draw_text(draw, (PANEL_LEFT + PANEL_WIDTH / 2, y + LINE / 2), part, TEXT, kit.SUBTLE, anchor="mm")
            y += LINE
    else:
        for part in captions:
            kit.draw_text(draw, (PANEL_LEFT + PANEL_WIDTH / 2, y + LINE / 2), part, TEXT, kit.SUBTLE, anchor="mm")
            y += LINE
    y += DU(2)
    draw.line((PANEL_LEFT, y, PANEL_LEFT + PANEL_WIDTH, y), fill=kit.PANEL_LINE, width=2)
    y += DU(3)
    y += draw_roster(draw, state, rows, y)
    y += draw_legend(draw, state, lang, y, words)
    draw_log(draw, log_lines, y, PANEL_BOTTOM)


def legend_entries(state: State, lang: str, words: bool = True) -> list[kit_panel.LegendEntry]:
    """The roster's icons that this picture shows, named; the grey chip of a character off the map when its
    row does not say it in words (``roster_lines``). The ring's count chips (issue 27.5) are named once,
    under the map (``board.legend``), where there is always room: a playtest read them twice."""
    shown_keywords = {k for c in state.chars.values() for k in c.defn.keywords}
    entries: list[kit_panel.LegendEntry] = [(glyphs.KEYWORD_PAINTERS[k], tr(f"keyword.{k}", lang))
                                            for k in ("protector", "taunt", "stealth") if k in shown_keywords]
    if not words and any(not c.in_play for c in state.chars.values()):
        entries.append((_off_map_chip, tr("legend.off_map", lang)))
    if any(e.kind == "buff" for e in state.effects):
        entries.append((_arrow_chip("▲", glyphs.BUFF), tr("legend.buff", lang)))
    if any(e.kind == "debuff" for e in state.effects):
        entries.append((_arrow_chip("▼", glyphs.DEBUFF), tr("legend.debuff", lang)))
    return entries


def _off_map_chip(draw: ImageDraw.ImageDraw, box: kit.Box) -> None:
    """The roster's chip of a character off the map (403.3): grey, edged in its seat's colour."""
    draw.rounded_rectangle(box, radius=4, fill=glyphs.OUT, outline=seat_colour(0), width=2)


def _arrow_chip(sign: str, fill: RGB) -> glyphs.Painter:
    def paint(draw: ImageDraw.ImageDraw, box: kit.Box) -> None:
        draw.rounded_rectangle(box, radius=4, fill=fill)
        kit.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), sign, TEXT, kit.text_on(fill),
                      anchor="mm")

    return paint


def draw_legend(draw: ImageDraw.ImageDraw, state: State, lang: str, top: int, words: bool = True) -> int:
    """The icons' legend under the roster, whole rows only, when there is room."""
    rows = kit_panel.legend_rows(legend_entries(state, lang, words), PANEL_WIDTH, TEXT, SWATCH)
    while rows and top + DU(2) + kit_panel.legend_height(rows, TEXT, SWATCH) > PANEL_BOTTOM:
        rows = rows[:-1]
    if not rows:
        return 0
    return DU(2) + kit_panel.draw_legend(draw, PANEL_LEFT, top + DU(2), rows, TEXT, SWATCH)


def log_fit(lines: Sequence[str], width: int, room: int) -> list[tuple[str, bool]]:
    """The newest lines that fit whole in ``room`` text lines, wrapped, oldest first; a line
    that would not fit whole is left out with everything before it."""
    kept: list[list[str]] = []
    for line in reversed([plain(" ".join(str(x).split())) for x in lines if str(x).strip()]):
        wrapped = kit.wrap(line, TEXT, width)
        if sum(len(k) for k in kept) + len(wrapped) > room:
            break
        kept.insert(0, wrapped)
    return [(part, i == len(kept) - 1) for i, wrapped in enumerate(kept) for part in wrapped]


def draw_log(draw: ImageDraw.ImageDraw, lines: Sequence[str], top: int, bottom: int) -> None:
    """Whatever room the roster leaves: the last events, the newest in full white."""
    fitted = log_fit(lines, PANEL_WIDTH, (bottom - top - DU(4)) // LINE)
    if not fitted:
        return
    draw.line((PANEL_LEFT, top + DU(1), PANEL_LEFT + PANEL_WIDTH, top + DU(1)), fill=kit.PANEL_LINE, width=2)
    y = top + DU(3)
    for part, newest in fitted:
        kit.draw_text(draw, (PANEL_LEFT, y + LINE / 2 + 1), part, TEXT, kit.INK if newest else kit.SUBTLE, anchor="lm")
        y += LINE
