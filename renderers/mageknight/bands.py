"""The left column's bands around the enemies: the phase track and the site on top, the
units and the last log lines below.

- Phase track (spec §7): four boxes, Ranged/Siege · Block · Damage · Attack; the current
  one filled in the highlight colour *and* in bold, the past ones dimmed, so the order and
  the position read without colour.
- Site row: the site (battlements when it is fortified), day or night (sun or moon), the
  mode, and in a duel the Interactive Combat die (hidden until its phase).
- Units: one card each with armor, resistances, wound marks (0-2 Wound cards), and in
  words ready/spent, destroyed (greyed, crossed) and "soaked" (N3e).
- Log: the last lines the table said (``log_lines``), newest at the bottom, wrapped whole;
  an older line that does not fit is left out, never cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from engines.mageknight.rules_base import units_allowed
from engines.mageknight.state import FORTIFIED_SITES, State, UnitState
from renderers import kit, kit_panel
from renderers.kit_panel import Chip
from renderers.mageknight import glyphs
from renderers.mageknight.layout import (
    CHIP_H,
    DU,
    LEFT_X0,
    LEFT_X1,
    LINE,
    LOG_LINES,
    PHASES,
    SITE_TOP,
    TEXT,
    TRACK_H,
    TRACK_TOP,
)
from renderers.mageknight.pen import Item, Pen, chip_item, glyph_item
from renderers.mageknight.words import plain, tr

ARROW = DU(7)


# -- top ----------------------------------------------------------------------------------


def draw_track(draw: ImageDraw.ImageDraw, state: State, lang: str) -> None:
    """The four phase boxes across the left column, joined by small arrows."""
    draw_phase_track(draw, state.phase, lang)


def draw_phase_track(draw: ImageDraw.ImageDraw, phase: str, lang: str) -> None:
    """:func:`draw_track` for a phase (all it depends on, with the language)."""
    labels = [tr(f"render.mk.phase.{p}", lang) for p in PHASES]
    natural = [kit.text_width(text, TEXT, 1) + DU(8) for text in labels]
    room = LEFT_X1 - LEFT_X0 - ARROW * (len(PHASES) - 1)
    extra = max(0, room - sum(natural)) // len(PHASES)
    current = PHASES.index(phase) if phase in PHASES else (len(PHASES) if phase == "over" else -1)
    x = LEFT_X0
    for i, (text, width) in enumerate(zip(labels, natural, strict=True)):
        w = width + extra
        box = (x, TRACK_TOP, x + w, TRACK_TOP + TRACK_H)
        if i == current:
            draw.rounded_rectangle(box, radius=DU(4), fill=glyphs.TARGET, outline=kit.INK_DARK, width=DU(1) + 1)
            ink = kit.INK_DARK
        else:
            draw.rounded_rectangle(box, radius=DU(4), fill=kit.PANEL, outline=kit.PANEL_LINE, width=2)
            ink = kit.MUTED if i < current else kit.INK
        kit.draw_text(draw, (x + w / 2, TRACK_TOP + TRACK_H / 2 + 1), text, TEXT, ink, anchor="mm", bold=i == current)
        kit.note("phase", box, text + (" *" if i == current else ""))
        x += w
        if i < len(PHASES) - 1:
            mid = TRACK_TOP + TRACK_H / 2
            draw.polygon([(x + DU(2), mid - DU(3)), (x + ARROW - DU(2), mid), (x + DU(2), mid + DU(3))],
                         fill=kit.MUTED)
            x += ARROW


def _site_chips(state: State, lang: str) -> list[Chip]:
    site = tr(f"render.mk.site.{state.site}", lang)
    chips = []
    if state.site in FORTIFIED_SITES:
        chips.append(Chip(tr("render.mk.site.fortified", lang, site=site), kit.PANEL_LINE, ink=kit.INK,
                          icon=glyphs.paint_tower))
    else:
        chips.append(Chip(site, kit.PANEL_LINE, ink=kit.INK))
    if state.day:
        chips.append(Chip(tr("render.mk.day", lang), kit.PANEL_LINE, ink=kit.INK, icon=glyphs.paint_sun))
    else:
        chips.append(Chip(tr("render.mk.night", lang), kit.PANEL_LINE, ink=kit.INK, icon=glyphs.paint_moon))
    die = state.interactive
    if state.mode == "duel" and die is not None:
        if die.face is None or (not die.revealed and state.phase == "setup"):
            chips.append(Chip(tr("render.mk.die.hidden", lang), kit.PANEL_LINE, ink=kit.INK))
        else:
            face = tr(f"render.mk.colour.{die.face}", lang)
            key = "render.mk.die.revealed" if die.revealed else "render.mk.die.secret"
            chips.append(Chip(tr(key, lang, face=face), glyphs.MANA[die.face], outline=kit.INK_DARK))
    elif state.mode == "challenge" and state.tier is not None:
        chips.append(Chip(tr("render.mk.mode.challenge", lang, tier=state.tier), kit.PANEL_LINE, ink=kit.INK))
    else:
        chips.append(Chip(tr(f"render.mk.mode.{state.mode}", lang, tier=state.tier or 0), kit.PANEL_LINE, ink=kit.INK))
    return chips


def site_chips(state: State, lang: str) -> tuple[Chip, ...]:
    """The site row's chips (all :func:`draw_site` depends on)."""
    return tuple(_site_chips(state, lang))


def draw_site(draw: ImageDraw.ImageDraw, state: State, lang: str) -> None:
    """Site, day or night, mode: chips in a row under the track (whole chips only)."""
    draw_site_chips(draw, site_chips(state, lang))


def draw_site_chips(draw: ImageDraw.ImageDraw, chips: Sequence[Chip]) -> None:
    """:func:`draw_site` for its chips."""
    x = LEFT_X0
    for chip in chips:
        w = kit_panel.chip_width(chip, TEXT)
        if x + w > LEFT_X1:
            break
        kit_panel.draw_chip(draw, x, SITE_TOP, chip, TEXT)
        x += w + DU(3)


# -- units ----------------------------------------------------------------------------------

UNIT_PAD = DU(3)
UNIT_GAP = DU(4)


def _unit_width(count: int) -> int:
    return min(DU(120), (LEFT_X1 - LEFT_X0 - UNIT_GAP * (count - 1)) // max(1, count))


def _unit_rows(unit: UnitState, lang: str, inner: int) -> tuple[list[str], list[Item], list[Item]]:
    """(name lines, stats items, status chips) of a unit card."""
    lines = kit.wrap(plain(unit.local_name(lang)), TEXT, inner, 1)  # a long custom name takes more lines
    muted = unit.destroyed
    w = max(DU(15), kit.text_width(str(unit.card.armor), TEXT, 1) + DU(6))
    stats = [glyph_item(lambda d, b: glyphs.paint_armor(d, b, unit.card.armor, TEXT, muted), size=w)]
    for resist in (r for r in ("physical", "fire", "ice") if r in unit.card.resistances):
        letter = tr(f"render.mk.resist.{resist}", lang)
        fill = glyphs.DEFEATED_RING if muted else glyphs.RESIST[resist]
        stats.append(glyph_item(lambda d, b, t=letter, f=fill: glyphs.paint_pip(d, b, t, f, TEXT),
                                max(CHIP_H, kit.text_width(letter, TEXT, 1) + DU(4))))
    stats += [glyph_item(glyphs.paint_wound, size=DU(10)) for _ in range(unit.wounds)]
    chips: list[Item] = []
    if unit.destroyed:
        chips.append(chip_item(Chip(tr("render.mk.unit.destroyed", lang), glyphs.DESTROYED, outline=kit.INK,
                                    ink=kit.INK, icon=glyphs.paint_cross)))
    else:
        ready = unit.ready and not unit.wounds  # a wounded unit cannot be activated (M39, M44)
        key = "ready" if ready else ("wounded" if unit.wounds and unit.ready else "spent")
        chips.append(chip_item(Chip(tr(f"render.mk.unit.{key}", lang),
                                    glyphs.READY if ready else glyphs.SPENT, ink=kit.INK if not ready else None)))
        if unit.soaked:
            chips.append(chip_item(Chip(tr("render.mk.unit.soaked", lang), glyphs.SOAKED)))
    return lines, stats, chips


def units_height(state: State, lang: str) -> int:
    """Height of the units band: the tallest card, or one line when there are none."""
    if not state.units or not units_allowed(state):
        return LINE + DU(2)
    width = _unit_width(len(state.units))
    return max(_unit_card(None, u, lang, 0, 0, width) for u in state.units)


def _unit_card(draw: ImageDraw.ImageDraw | None, unit: UnitState, lang: str, x: int, y: int, width: int) -> int:
    """Draw (or with ``draw=None`` measure) one unit's text; returns the card's height."""
    inner = width - 2 * UNIT_PAD
    lines, stats, chips = _unit_rows(unit, lang, inner)
    pen = Pen(draw, x + UNIT_PAD, inner, y + UNIT_PAD)
    name = plain(unit.local_name(lang))
    bold = all(kit.text_width(word, TEXT, 1) <= inner for word in name.split())
    for line in (lines if bold else kit.wrap(name, TEXT, inner)):  # narrow cards: plain, not cut
        pen.text(line, kit.MUTED if unit.destroyed else kit.INK, bold=bold)
    pen.space(DU(1))  # room for a descender ("Squadra d'Assedio") above the chips
    pen.items([*stats, *chips], gap=DU(2))  # one line when the card is wide enough
    return pen.y - y + UNIT_PAD


def draw_units(draw: ImageDraw.ImageDraw, state: State, lang: str, top: int, height: int) -> None:
    """The unit cards side by side, all as tall as the tallest (or one line saying why none fight)."""
    if not units_allowed(state):
        kit.draw_text(draw, (LEFT_X0, top + LINE / 2 + 1), tr("render.mk.unit.not_here", lang), TEXT, kit.MUTED,
                      anchor="lm")
        return
    if not state.units:
        kit.draw_text(draw, (LEFT_X0, top + LINE / 2 + 1), tr("render.mk.unit.none", lang), TEXT, kit.MUTED,
                      anchor="lm")
        return
    width = _unit_width(len(state.units))
    x = LEFT_X0
    for unit in state.units:
        box = (x, top, x + width, top + height)
        destroyed = unit.destroyed
        draw.rounded_rectangle(box, radius=DU(4), fill=glyphs.DEFEATED_FILL if destroyed else glyphs.CARD_FILL,
                               outline=kit.PANEL_LINE, width=2)
        if destroyed:
            i = DU(6)
            draw.line((x + i, top + i, x + width - i, top + height - i), fill=glyphs.DEFEATED_RING, width=DU(2))
            draw.line((x + i, top + height - i, x + width - i, top + i), fill=glyphs.DEFEATED_RING, width=DU(2))
        _unit_card(draw, unit, lang, x, top, width)
        kit.note("unit", box, plain(unit.name))
        x += width + UNIT_GAP


# -- log ------------------------------------------------------------------------------------


LogLine = tuple[str, bool]  # a wrapped piece of a log line, and whether it is the newest line


def log_layout(lines: Sequence[str] | None, most: int = LOG_LINES) -> list[LogLine]:
    """The wrapped text of the last lines that fit in ``most`` text lines (``LOG_LINES`` at
    most), oldest first; a line that would not fit whole is left out with everything before it."""
    if not lines or most <= 0:
        return []
    width = LEFT_X1 - LEFT_X0
    kept: list[list[str]] = []
    used = 0
    for line in reversed([plain(str(x)) for x in lines if str(x).strip()][-LOG_LINES:]):
        wrapped = kit.wrap(" ".join(line.split()), TEXT, width)
        if used + len(wrapped) > min(most, LOG_LINES):
            break
        kept.insert(0, wrapped)
        used += len(wrapped)
    return [(part, i == len(kept) - 1) for i, wrapped in enumerate(kept) for part in wrapped]


def log_height(lines: list[LogLine]) -> int:
    """The log band's height: nothing at all without log lines, so the enemies get the room."""
    return len(lines) * LINE + DU(4) if lines else 0


def draw_log(draw: ImageDraw.ImageDraw, lines: list[LogLine], top: int) -> None:
    """The log under a thin rule; the newest line in full white, older ones dimmer."""
    if not lines:
        return
    draw.line((LEFT_X0, top + DU(1), LEFT_X1, top + DU(1)), fill=kit.PANEL_LINE, width=2)
    y = top + DU(3)
    for line, newest in lines:
        kit.draw_text(draw, (LEFT_X0, y + LINE / 2 + 1), line, TEXT, kit.INK if newest else kit.SUBTLE, anchor="lm")
        y += LINE
