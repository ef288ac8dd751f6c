"""The header across the top and the player column on the right of the Warlord table image.

Header: turn and phase in big type, whose order it is as a chip in that player's colour with
a "▶" (so it reads without colour too), the initiative order with every roll (ties shown as
earlier rounds), consecutive passes, and one line per thing in progress: the open reaction
window (its trigger, never who is being asked: spec §7 leaks nothing), a reform, an attack,
the end of the game. Player column: one card per player (hand, deck, discard with its top
card, removed, Warlord HP), outlined in yellow and marked "▶" for whoever must act, then a
legend of the tile marks and the newest log lines that fit. Under the armies, as wide as the field: the
states and every abbreviation the picture's tiles draw (``footer_rows``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from common.i18n import has, t
from engines.warlord.engine import WarlordEngine
from engines.warlord.rules_common import hit_points
from engines.warlord.rules_ranks import illegal_ranks
from engines.warlord.state import PlayerState, State, StrikeFrame, WindowFrame
from renderers import kit, kit_ink, kit_panel
from renderers.kit import RGB
from renderers.warlord.layout import (
    CHIP_H,
    DU,
    FIELD_X0,
    FIELD_X1,
    MARGIN,
    PANEL_W,
    PANEL_X0,
    TEXT,
    TEXT_BIG,
    WIDTH,
)
from renderers.warlord.tiles import CLASS_KEYS, off_faction
from renderers.warlord.words import card_name, plain, player_name, tr, tr_or

LINE = kit.line_height(TEXT) + DU(1)
WINDOW_FILL: RGB = kit.HIGHLIGHT
REFORM_FILL: RGB = kit.OKABE_ITO["vermillion"]
ATTACK_FILL: RGB = kit.OKABE_ITO["orange"]
OVER_FILL: RGB = kit.OKABE_ITO["sky_blue"]
ACTIVE_EDGE: RGB = kit.HIGHLIGHT
CARD_PAD = DU(3)
_FAR = 1 << 20
"""A bottom below any picture: the header and the column draw first in their rows, so the ground of
their next line is the canvas down to the picture's end (``kit_ink.Ground``)."""


_ENGINE = WarlordEngine()


@dataclass(frozen=True)
class HeadLine:
    """One line of the header: plain text, or a chip (filled) for things in progress."""

    text: str
    fill: RGB | None = None


def acting(state: State) -> list[int]:
    """Seats that must act now: the engine's own open decision (the seat a reaction window asks, the
    attacker choosing a target, the army reforming, the seat whose order it is, the seats still to
    answer a secret choice), so the picture never disagrees with the text under it."""
    decision = _ENGINE.decision(state)
    return list(decision.seats) if decision is not None else []


def top_strike(state: State) -> StrikeFrame | None:
    for frame in reversed(state.stack):
        if isinstance(frame, StrikeFrame):
            return frame
    return None


def head_lines(state: State, lang: str, seat_names: Mapping[int, str] | None) -> list[HeadLine]:
    """The header's lines under the title: initiative, then what is in progress."""
    lines: list[HeadLine] = []
    name = lambda seat: player_name(state, seat, seat_names)  # noqa: E731
    if state.initiative:
        rounds = state.initiative_rolls
        last = rounds[-1] if rounds else {}
        parts = []
        for seat in state.initiative:
            rolls = [r[str(seat)] for r in rounds if str(seat) in r]
            shown = str(last.get(str(seat), "")) if last else ""
            if len(rolls) > 1:
                shown += " (" + tr("tie", lang) + " " + "/".join(str(v) for v in rolls[:-1]) + ")"
            parts.append(f"{name(seat)} {shown}".strip())
        text = f"{tr('initiative', lang)}: " + " › ".join(parts)
    else:
        text = tr("initiative_none", lang)
    if state.phase == "orders":
        text += " · " + tr("passes", lang, n=state.consecutive_passes)
    lines.append(HeadLine(text))
    top = state.stack[-1] if state.stack else None
    if isinstance(top, WindowFrame):
        trigger = tr(f"trigger.{top.trigger}", lang)
        lines.append(HeadLine(tr("window", lang, trigger=trigger), WINDOW_FILL))
    if state.reforming is not None:
        ranks = ", ".join(tr("rank", lang, n=k) for k in illegal_ranks(state.player(state.reforming).ranks))
        lines.append(HeadLine(f"{tr('reform', lang, name=name(state.reforming))} · {tr('illegal', lang)}: {ranks}",
                              REFORM_FILL))
    if state.attack is not None and state.attack.attacker in state.cards:
        lines.append(HeadLine(tr("attack", lang, name=card_name(state, state.attack.attacker, lang),
                                 made=state.attack.made, total=state.attack.total), ATTACK_FILL))
    if state.phase == "over" and state.end_reason:  # the winner is the title line's big chip (``_act_text``)
        lines.append(HeadLine(plain(t(f"warlord.end.{state.end_reason}", lang))))
    if len(state.players) > 2:
        lines.append(HeadLine(tr("front_note", lang)))
    return lines


def _title(state: State, lang: str) -> str:
    phase = tr(f"phase.{state.phase}", lang)
    return f"{tr('turn', lang, n=state.turn)} · {phase}" if state.turn else phase


def _act_text(state: State, lang: str, seat_names: Mapping[int, str] | None,
              now: list[int] | None = None) -> tuple[str, RGB] | None:
    if state.phase == "over":
        if state.winners:
            names = ", ".join(player_name(state, s, seat_names) for s in state.winners)
            return "★ " + tr("winner", lang, names=names), OVER_FILL
        return tr("draw_game", lang), OVER_FILL
    seats = acting(state) if now is None else now
    if not seats:
        return None
    if len(seats) == 1:
        return "▶ " + tr("to_act", lang, name=player_name(state, seats[0], seat_names)), kit.team_colour(seats[0])
    if state.stack and state.stack[-1].kind == "window":  # a reaction window asks these seats at once
        return "▶ " + tr("to_act", lang, name=", ".join(player_name(state, s, seat_names) for s in seats)), \
            kit.HIGHLIGHT
    return "▶ " + tr("all_choose", lang), kit.HIGHLIGHT


def header_height(state: State, lang: str, seat_names: Mapping[int, str] | None) -> int:
    return MARGIN + _title_h() + sum(_line_h(h) for h in head_lines(state, lang, seat_names)) + DU(2)


def _title_h() -> int:
    return kit.line_height(TEXT_BIG) + DU(4)


def _line_h(line: HeadLine) -> int:
    return CHIP_H + DU(1.5) if line.fill is not None else LINE


def draw_header(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
                now: list[int] | None = None) -> int:
    """Title, the acting chip on the right of the title, then the lines; returns the bottom (``now``:
    ``acting(state)``, when the caller has it already: the engine's decision costs more than the header)."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    y = MARGIN
    act = _act_text(state, lang, seat_names, now)
    right = x1
    floor = 0  # the first row below everything drawn so far: the ground of what comes next lies under it
    if act is not None:
        text, fill = act
        size = TEXT_BIG
        width = kit.text_width(text, size, 1) + 2 * DU(4)
        width = min(width, (x1 - x0) // 2)
        text = kit.fit(text, size, width - 2 * DU(4), 1)
        box = (x1 - width, y, x1, y + _title_h() - DU(1))
        radius = DU(3)
        kit_ink.rounded_rectangle(draw, box, radius, fill, kit.INK, 3)
        inside = (box[0] + radius + 1, box[1] + 4, box[2] - radius - 1, box[3] - 4)  # clear of its rim and corners
        inked = kit_ink.draw_text(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), text, size,
                                  kit.text_on(fill), ground=(fill, inside), anchor="mm", bold=True)
        kit.note("chip", box, text, size)
        right = box[0] - DU(4)
        floor = max(box[3] + 1, inked[3])
    title = kit.fit(_title(state, lang), TEXT_BIG, right - x0, 1)
    inked = kit_ink.draw_text(draw, (x0, y + _title_h() // 2), title, TEXT_BIG, kit.INK,
                              ground=(kit.BACKGROUND, (0, 0, right + DU(4) - 1, _FAR)), anchor="lm", bold=True)
    floor = max(floor, inked[3])
    y += _title_h()
    for line in head_lines(state, lang, seat_names):
        if line.fill is None:
            for part in kit.wrap(line.text, TEXT, x1 - x0)[:1]:
                inked = kit_ink.draw_text(draw, (x0, y + LINE // 2), part, TEXT, kit.SUBTLE,
                                          ground=(kit.BACKGROUND, (0, floor, WIDTH - 1, _FAR)), anchor="lm")
        else:
            chip = kit_panel.Chip(kit.fit(line.text, TEXT, x1 - x0 - DU(8), 1), line.fill, outline=kit.INK_DARK)
            inked = kit_ink.draw_chip(draw, x0, y, chip, TEXT)
        floor = max(floor, inked[3])
        y += _line_h(line)
    return y + DU(2)


# -- player column ---------------------------------------------------------------------------


def _counts(p: PlayerState) -> tuple[int, int]:
    """(hand, deck) sizes: the lists in a full state, the counts a view leaves instead."""
    hand = p.hand_count if p.hand_count is not None and not p.hand else len(p.hand)
    deck = p.deck_count if p.deck_count is not None and not (p.deck_pool or p.deck_top) \
        else len(p.deck_pool) + len(p.deck_top)
    return hand, deck


def player_lines(state: State, p: PlayerState, lang: str) -> list[str]:
    hand, deck = _counts(p)
    lines = [f"{tr('hand', lang, n=hand)} · {tr('deck', lang, n=deck)}"]
    top = [u for u in p.discard if u in state.cards]
    if top:
        lines.append(tr("discard_top", lang, n=len(p.discard), name=card_name(state, top[-1], lang)))
    else:
        lines.append(tr("discard", lang, n=len(p.discard)))
    lines.append(tr("removed", lang, n=len(p.removed)))
    wl = p.warlord
    if p.resigned:  # out by choice: "Warlord fallen" would tell the table a story that did not happen
        lines.append(tr("resigned", lang))
    elif wl is not None and wl in state.chars and wl in state.cards:
        hp = hit_points(state, wl)
        lines.append(tr("warlord_hp", lang, left=max(0, hp - state.chars[wl].wounds), hp=hp))
    elif wl is not None:
        lines.append(tr("warlord_gone", lang))
    if not p.alive and not p.resigned:
        lines.append(tr("out", lang))
    return lines


def _inner() -> int:
    """Text width inside a player card: its padding and the seat's colour bar taken off."""
    return PANEL_W - 2 * CARD_PAD - DU(3)


def card_rows(state: State, p: PlayerState, lang: str) -> list[str]:
    """``player_lines`` as drawn: a line too wide for the card goes on over more rows, never cut.

    Why: at 500 px the discard pile's top card was cut ("Scarti 2: Risana la C…"), and that card is
    public news the table reads there. A too-wide discard line breaks after its count, so the card's
    name starts a row of its own (two if it needs them); any other line wraps by words."""
    inner = _inner()
    top = [u for u in p.discard if u in state.cards]
    name = card_name(state, top[-1], lang) if top else ""
    rows: list[str] = []
    for line in player_lines(state, p, lang):
        if kit.text_width(line, TEXT) <= inner:
            rows.append(line)
        elif name and line.endswith(name) and line[:-len(name)].strip():
            rows.append(line[:-len(name)].rstrip())
            rows += kit.wrap(name, TEXT, inner)
        else:
            rows += kit.wrap(line, TEXT, inner)
    return rows


def card_height(state: State, p: PlayerState, lang: str, rows: Sequence[str] | None = None) -> int:
    """A player card's height; ``rows``: its ``card_rows`` when the caller has them."""
    return 2 * CARD_PAD + LINE * (1 + len(card_rows(state, p, lang) if rows is None else rows))


CardRows = Mapping[int, Sequence[str]]
"""Each seat's ``card_rows``, worked out once a picture (``renderers.warlord._Frame``): the column's height
needs them before anything is drawn, and its drawing needs them again."""


def column_height(state: State, lang: str, top: int, log_lines: Sequence[str] = (),
                  cards: CardRows | None = None) -> int:
    """Bottom of the player cards, the legend and the newest log entry (older entries take what is left).

    Why the newest entry counts: a discard line on two rows made the cards taller, and on the least
    height the game-over picture lost "alice wins the game." from its log; the picture grows instead."""
    y = top + sum(card_height(state, p, lang, None if cards is None else cards[p.seat]) + DU(3)
                  for p in state.players)
    y += LINE * len(_legend(state, lang)) + DU(2)
    if log_lines:
        y += LINE * len(kit.wrap(plain(log_lines[-1]), TEXT, PANEL_W - DU(2)))
    return y


def _short_words(state: State, lang: str) -> list[str]:
    """"G = guerriero", "Contr = Contrattacco": each abbreviation the tiles of this picture draw (class letters,
    skill, feats, badges), with the word the card texts use, so the legend explains every one it shows and
    no more (a legend of every feat would crowd the column)."""
    classes: dict[str, None] = {}
    feats: dict[str, None] = {}
    badges: dict[str, None] = {}
    for uid in state.chars:
        if uid not in state.cards:
            continue
        d = state.defn(uid)
        classes[d.cls if d.cls in CLASS_KEYS else "classless"] = None
        feats.update(dict.fromkeys(sorted(d.feats)))
        badges.update(dict.fromkeys(key for trait, key in (("Astral", "astral"), ("Ethereal", "ethereal"),
                                                           (state.loyalty_exempt, "mercenary")) if d.has(trait)))
    if any(off_faction(state, uid) for uid in state.chars if uid in state.cards):
        badges["off_faction"] = None
    entries = [f"{tr(f'cls.{c}', lang)} = {plain(t(f'warlord.ui.cls.{c}', lang))}"
               for c in CLASS_KEYS if c in classes and c != "any"]
    if classes:
        entries.append(f"{tr('skill', lang, n='')} = {plain(t('warlord.ui.stat.skill', lang))}")
    entries += [f"{tr_or(f'feat.{f}', lang, f[:3].title())} = {_full('warlord.ui.feat.' + f, lang, f.title())}"
                for f in feats]
    entries += [f"{tr(f'badge.{b}', lang)} = "
                + (tr("legend_off_faction", lang) if b == "off_faction" else _full(f"warlord.ui.trait.{b}", lang, b))
                for b in badges]
    return entries


def _full(key: str, lang: str, fallback: str) -> str:
    return plain(t(key, lang) if has(key, lang) else fallback)


def _packed(entries: list[str], inner: int, gap: str = "  ") -> list[str]:
    """Entries packed whole into lines ``inner`` wide; one wider than that wraps rather than being cut."""
    lines: list[str] = []
    for entry in entries:
        joined = f"{lines[-1]}{gap}{entry}" if lines else entry
        if lines and kit.text_width(joined, TEXT) <= inner:
            lines[-1] = joined
        else:
            lines += kit.wrap(entry, TEXT, inner)
    return lines


def _legend(state: State, lang: str) -> list[str]:
    """The column's legend: the marks every tile may carry (separated by two spaces in the locale)."""
    return _packed(tr("legend", lang).split("  "), PANEL_W - 2 * CARD_PAD)


FOOTER_GAP = "   "
"""Between two entries of the legend under the armies."""


def _footer_entries(state: State, lang: str) -> list[str]:
    return [*tr("legend_state", lang).split(" · "), *_short_words(state, lang)]


def footer_rows(state: State, lang: str) -> list[list[tuple[int, str]]]:
    """The legend under the armies, as wide as the field: what a tile's colour band and tag say about its
    state, then every abbreviation this picture's tiles draw. Under the armies, not in the player column:
    a crowded band of 3–4 armies runs on under the column, and a long legend there would cover its tiles.

    Each row is its entries with their offsets from the field's left, drawn one text each (issue 28): which
    abbreviations a picture needs changes as cards come and go, and a whole row cut anew cost ~0.4 ms of
    FreeType a row in the pictures where it changed (2.2-2.5 ms of the slowest pictures), while each entry
    is met again and again."""
    inner = FIELD_X1 - FIELD_X0
    gap = round(kit.font(TEXT).getlength(FOOTER_GAP))
    rows: list[list[tuple[int, str]]] = []
    right = 0  # where the last row's ink ends
    for entry in _footer_entries(state, lang):
        width = kit.text_width(entry, TEXT)
        if rows and right + gap + width <= inner:
            rows[-1].append((right + gap, entry))
            right += gap + width
            continue
        for piece in kit.wrap(entry, TEXT, inner):  # one wider than the field wraps rather than being cut
            rows.append([(0, piece)])
            right = kit.text_width(piece, TEXT)
    return rows


def footer_lines(state: State, lang: str) -> list[str]:
    """``footer_rows`` as the text each row reads."""
    return [FOOTER_GAP.join(entry for _x, entry in row) for row in footer_rows(state, lang)]


FooterRows = list[list[tuple[int, str]]]


def footer_height(state: State, lang: str, rows: FooterRows | None = None) -> int:
    """The legend's height under the armies; ``rows``: its ``footer_rows`` when the caller has them."""
    return LINE * len(footer_rows(state, lang) if rows is None else rows) + DU(2)


def draw_footer(draw: ImageDraw.ImageDraw, state: State, lang: str, top: int, rows: FooterRows | None = None) -> None:
    """``footer_rows`` (``rows`` when the caller has them) from ``top`` down, left of the player column (the
    canvas is plain there)."""
    floor = top
    for k, row in enumerate(footer_rows(state, lang) if rows is None else rows):
        below, left = floor, 0
        for x, entry in row:
            inked = kit_ink.draw_text(draw, (FIELD_X0 + x, top + DU(2) + k * LINE + LINE // 2), entry, TEXT,
                                      kit.MUTED, ground=(kit.BACKGROUND, (left, floor, PANEL_X0 - 1, _FAR)),
                                      anchor="lm")
            below, left = max(below, inked[3]), inked[2] + 1
        floor = below


def draw_column(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
                top: int, bottom: int, log_lines: Sequence[str], now: list[int] | None = None,
                clear: int = PANEL_X0, cards: CardRows | None = None) -> None:
    """Player cards, the legend, then the newest log lines that fit above ``bottom``. ``clear``: the
    first column right of anything drawn before the column (the field's arrow may reach into it); ``cards``:
    each seat's ``card_rows`` when the caller has them."""
    x0, x1 = PANEL_X0, PANEL_X0 + PANEL_W
    inner = _inner()
    asked = set(acting(state) if now is None else now)
    y = top
    floor = 0  # the first row below the last card: the canvas is plain under it
    for p in state.players:
        rows = card_rows(state, p, lang) if cards is None else cards[p.seat]
        h = card_height(state, p, lang, rows)
        active = p.seat in asked and len(asked) == 1
        box = (x0, y, x1, y + h)
        draw.rounded_rectangle(box, radius=DU(3), fill=kit.PANEL, outline=ACTIVE_EDGE if active else kit.PANEL_LINE,
                               width=DU(2) if active else 2)
        draw.rectangle((x0 + 3, y + DU(2), x0 + 3 + DU(2), y + h - DU(2)), fill=kit.team_colour(p.seat))
        # the card's inside: clear of its rim (at most DU(2) wide), its corners and its colour bar
        inside = (max(x0 + DU(3), x0 + 3 + DU(2)) + 1, y + DU(2) + 1, x1 - DU(3) - 1, y + h - DU(2) - 1)
        lx = x0 + CARD_PAD + DU(3)
        name = player_name(state, p.seat, seat_names)
        if active:
            name = "▶ " + name
        inked = kit_ink.draw_text(draw, (lx, y + CARD_PAD + LINE // 2), kit.fit(name, TEXT, inner, 1), TEXT,
                                  kit.HIGHLIGHT if active else kit.INK, ground=(kit.PANEL, inside), anchor="lm",
                                  bold=True)
        for k, line in enumerate(rows, start=1):
            ground = (kit.PANEL, (inside[0], max(inside[1], inked[3]), inside[2], inside[3]))
            inked = kit_ink.draw_text(draw, (lx, y + CARD_PAD + k * LINE + LINE // 2), line, TEXT, kit.SUBTLE,
                                      ground=ground, anchor="lm")
        floor = y + h + 1
        y += h + DU(3)
    for line in _legend(state, lang):
        inked = kit_ink.draw_text(draw, (x0 + CARD_PAD, y + LINE // 2), line, TEXT, kit.MUTED,
                                  ground=(kit.BACKGROUND, (clear, floor, WIDTH - 1, _FAR)), anchor="lm")
        floor = max(floor, inked[3])
        y += LINE
    y += DU(2)
    _draw_log(draw, log_lines, x0, y, bottom, (clear, floor))


def _draw_log(draw: ImageDraw.ImageDraw, log_lines: Sequence[str], x0: int, top: int, bottom: int,
              clear: tuple[int, int] = (PANEL_X0, 0)) -> None:
    """Newest lines last, whole lines only: as many of the newest as fit between ``top`` and ``bottom``.
    ``clear``: the column and the row from which the canvas is plain (``draw_column``)."""
    room = max(0, (bottom - top) // LINE)
    if not room or not log_lines:
        return
    wrapped: list[str] = []
    for entry in reversed(log_lines):
        lines = kit.wrap(plain(entry), TEXT, PANEL_W - DU(2))
        if len(wrapped) + len(lines) > room:
            break
        wrapped = lines + wrapped
    draw.line((x0, top - DU(1), x0 + PANEL_W, top - DU(1)), fill=kit.PANEL_LINE, width=2)
    left, floor = clear[0], max(clear[1], top - DU(1) + 2)  # (a 2 px line takes its row and the one above)
    for k, line in enumerate(wrapped):
        inked = kit_ink.draw_text(draw, (x0, top + k * LINE + LINE // 2), line, TEXT, kit.INK,
                                  ground=(kit.BACKGROUND, (left, floor, WIDTH - 1, _FAR)), anchor="lm")
        floor = max(floor, inked[3])
