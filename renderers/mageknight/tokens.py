"""The enemy rows: round tokens with everything a player needs to plan an attack or a block.

A token (spec §7): the colour ring *and* its letter (G/K/V/B/R/W), the name, armor in a
shield, attack with its element glyph, ability badges (F, FF, S, Br, P, Pz, Su) and
resistance pips (P/F/I) on the ring, Fame in a pill at the bottom. Statuses: defeated
(greyed and crossed out), blocked (a shield stamp), damage still to assign, the block a
token needs; each one also in words on the caption line under the token. A summoner's
drawn token sits small at its lower right during the block and damage phases. The current
targets are framed together.

Text inside a disc is placed line by line in the room the circle and the ring badges leave
at that height, so a badge never covers a word. When the full name does not fit, the short
name (``words.short_names``) is used, then armor and attack go on lines of their own; a
name is never cut with "…": one that fits no way is left out (the panel names targets), and
at assist's maximum (eight enemies, three summons, five units) the numbers stay, the names go.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from engines.mageknight.content import HIDDEN
from engines.mageknight.rules_base import is_summoner, unresolved_attackers
from engines.mageknight.rules_values import (
    armor_of,
    attack_of,
    block_need,
    damage_of,
    double_fortified,
    fame_of,
    fortified,
)
from engines.mageknight.state import CombatEnemy, State
from renderers import kit, kit_panel
from renderers.kit import RGB, Box
from renderers.kit_panel import Chip
from renderers.mageknight import glyphs
from renderers.mageknight.layout import CAPTION, DU, FAME_OVER, TEXT, TEXT_BIG, Pair, Slot, enemy_slots
from renderers.mageknight.pen import Item, chip_item, text_item
from renderers.mageknight.words import plain, tr

ABILITY_ORDER = ("fortified", "swift", "brutal", "poison", "paralyze", "summon")
ROW_GAP = DU(1)
Row = list[Item]


def text_size(d: int) -> int:
    """Text inside a token: 11 px at the preview (never less), bigger on a big token."""
    return max(TEXT, min(TEXT_BIG, round(d / 8.6)))


def _shield_item(value: int, muted: bool, size: int) -> Item:
    h = round(size * 1.4)
    w = max(round(size * 1.3), kit.text_width(str(value), size, 1) + DU(6))

    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        glyphs.paint_armor(draw, (x, y, x + w, y + h), value, size, muted)

    return Item(w, h, paint)


def _attack_items(value: int, element: str, ink: RGB, size: int, apart: bool = False) -> list[Item]:
    """A sword, the attack value, and the element's glyph (none for physical); ``apart``: the
    element glyphs as an item of their own (a line of their own on a small token)."""
    h = round(size * 1.4)
    sword, icon, gap = round(size * 0.75), round(size * 0.95), DU(1)
    text = str(value)
    tw = kit.text_width(text, size, 1)
    painters = glyphs.element_painters(element)

    def paint_value(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        glyphs.paint_sword(draw, (x, y + DU(1), x + sword, y + h - DU(1)))
        kit.draw_text(draw, (x + sword + gap, y + h / 2 + 1), text, size, ink, anchor="lm", bold=True)

    def paint_elements(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        for i, painter in enumerate(painters):
            left = x + i * (icon + gap)
            painter(draw, (left, y + (h - icon) // 2, left + icon, y + (h + icon) // 2))

    value_item = Item(sword + gap + tw, h, paint_value)
    if not painters:
        return [value_item]
    elements = Item(len(painters) * (icon + gap) - gap, h, paint_elements)
    if apart:
        return [value_item, elements]

    def paint_both(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        paint_value(draw, x, y)
        paint_elements(draw, x + value_item.width + gap, y)

    return [Item(value_item.width + gap + elements.width, h, paint_both)]


def ability_codes(enemy: CombatEnemy) -> list[str]:
    """The ability badges of a token, in a fixed order; "double" for A1 double fortification."""
    codes = []
    if double_fortified(enemy):
        codes.append("double")
    elif fortified(enemy):
        codes.append("fortified")
    codes += [a for a in ABILITY_ORDER if a != "fortified" and enemy.has(a)]
    return codes


def ability_chip(code: str, lang: str, muted: bool = False) -> Chip:
    """An ability badge (F, FF, S, Br...): the same chip on the token and in the legend."""
    return Chip(tr(f"render.mk.ability.{code}", lang), glyphs.DEFEATED_RING if muted else glyphs.ABILITY,
                ink=kit.INK_DARK)


# -- geometry ---------------------------------------------------------------------------


_DU1, _DU2, _DU3 = DU(1), DU(2), DU(3)
_SHIFTS = (0, -DU(3), DU(3), -DU(6), DU(6), -DU(9), DU(9))


def _ring(d: int) -> int:
    return max(_DU3, d // 18)


def _on_ring(box: Box, angle: float, w: int, h: int, outer: bool = False) -> Box:
    """A ``w`` x ``h`` badge centred on the ring at ``angle`` degrees (0 = right, 90 = top);
    ``outer``: on the disc's edge instead, taking less room from the text inside."""
    x0, y0, x1, y1 = box
    r = (x1 - x0) / 2 - (DU(1) if outer else _ring(x1 - x0) / 2)
    cx, cy = (x0 + x1) / 2 + r * math.cos(math.radians(angle)), (y0 + y1) / 2 - r * math.sin(math.radians(angle))
    return (round(cx - w / 2), round(cy - h / 2), round(cx - w / 2) + w, round(cy - h / 2) + h)


def _span(box: Box, ya: float, yb: float, badges: Sequence[Box]) -> tuple[float, float]:
    """The free x-range inside the disc between heights ``ya`` and ``yb``, badges excluded."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ri = (x1 - x0) / 2 - _ring(x1 - x0) - _DU1
    far = max(abs(ya - cy), abs(yb - cy))
    if far >= ri:
        return (cx, cx)
    half = math.sqrt(ri * ri - far * far)
    left, right = cx - half, cx + half
    for bx0, by0, bx1, by1 in badges:
        if by1 + _DU1 <= ya or by0 - _DU1 >= yb:
            continue
        if (bx0 + bx1) / 2 < cx:
            left = max(left, bx1 + _DU1)
        else:
            right = min(right, bx0 - _DU1)
    return (left, right)


def _place(box: Box, rows: list[Row], badges: Sequence[Box], bottom: float,
           force: bool = False) -> list[tuple[int, int, Item]] | None:
    """Positions for ``rows`` centred in the disc, or None when they do not fit (``force``:
    centred anyway).

    A few vertical offsets are tried (content a little above or below the centre) because
    the ring badges eat into different heights on each side."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    heights = [max(i.height for i in row) for row in rows]
    total = sum(heights) + ROW_GAP * (len(rows) - 1)
    for shift in _SHIFTS:
        top = cy - total / 2 + shift
        if top + total > bottom:
            if not force:
                continue
            top = max(y0 + _DU2, bottom - total)
        placed: list[tuple[int, int, Item]] = []
        y = top
        for row, h in zip(rows, heights, strict=True):
            left, right = _span(box, y, y + h, badges)
            gap = _DU2
            width = sum(i.width for i in row) + gap * (len(row) - 1)
            if width > right - left and not force:
                break
            x = cx - width / 2 if force else min(max(cx - width / 2, left), right - width)
            for item in row:
                placed.append((round(x), round(y + (h - item.height) / 2), item))
                x += item.width + gap
            y += h + ROW_GAP
        else:
            return placed
    return None


# -- one token ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Look:
    """How one token is drawn: language, labels, text size."""

    lang: str
    full: str
    short: str
    size: int = TEXT
    small: bool = False  # a drawn summon token: no armor, no Fame, its name in the caption


def _chip_at(chip: Chip, size: int) -> Callable[[ImageDraw.ImageDraw, Box], None]:
    return lambda d, b: kit_panel.draw_chip(d, b[0], b[1], chip, size)


def _pip(label: str, fill: RGB, size: int) -> Callable[[ImageDraw.ImageDraw, Box], None]:
    return lambda d, b: glyphs.paint_pip(d, b, label, fill, size)


def _badges(state: State, enemy: CombatEnemy, box: Box,
            look: Look) -> list[tuple[Box, Callable[[ImageDraw.ImageDraw, Box], None]]]:
    """The ring badges of a token: its letter, its resistance pips, the Fame defeating it gives now (a
    revealed duel die's +1 included, as the log adds it), the blocked stamp."""
    lang, size = look.lang, look.size
    chip_h = kit_panel.chip_height(size)
    defeated = enemy.status == "defeated"
    ring = glyphs.DEFEATED_RING if defeated else glyphs.RING.get(enemy.token.colour, kit.MUTED)
    letter = Chip(tr(f"render.mk.letter.{enemy.token.colour}", lang), ring, outline=kit.INK_DARK)
    found = [(_on_ring(box, 138, kit_panel.chip_width(letter, size), chip_h, outer=True), _chip_at(letter, size))]
    if enemy.token.id == HIDDEN:
        return found
    if not look.small:
        for i, resist in enumerate(r for r in ("physical", "fire", "ice") if r in enemy.token.resistances):
            label = tr(f"render.mk.resist.{resist}", lang)
            w = max(chip_h, kit.text_width(label, size, 1) + DU(4))
            fill = glyphs.DEFEATED_RING if defeated else glyphs.RESIST[resist]
            found.append((_on_ring(box, 168 + 30 * i, w, chip_h, outer=True), _pip(label, fill, size)))
        fame = Chip(str(fame_of(state, enemy)), glyphs.DEFEATED_RING if defeated else glyphs.FAME, outline=kit.INK_DARK,
                    ink=kit.INK_DARK, icon=glyphs.paint_star)
        found.append((_on_ring(box, 270, kit_panel.chip_width(fame, size), chip_h), _chip_at(fame, size)))
    if enemy.status == "blocked":
        w = round(size * 1.55)
        found.append((_on_ring(box, 48, w, round(w * 1.15)), glyphs.paint_stamp))
    return found


@dataclass(frozen=True)
class Parts:
    """What goes inside one token, built once and arranged by :meth:`rows` in several ways."""

    ink: RGB
    size: int
    shield: list[Item]
    attack: list[Item]  # sword, value and element glyphs together
    attack_apart: list[Item]  # sword and value, then the element glyphs
    chips: list[Item]

    @classmethod
    def of(cls, state: State, enemy: CombatEnemy, look: Look) -> Parts:
        defeated = enemy.status == "defeated"
        ink = kit.MUTED if defeated else kit.INK
        size = look.size
        shield = [] if look.small else [_shield_item(armor_of(state, enemy), defeated, size)]
        attack: list[Item] = []
        apart: list[Item] = []
        if not is_summoner(enemy):
            attack = _attack_items(attack_of(state, enemy), enemy.token.element, ink, size)
            apart = _attack_items(attack_of(state, enemy), enemy.token.element, ink, size, apart=True)
        chips = [chip_item(ability_chip(code, look.lang, defeated), size=size) for code in ability_codes(enemy)]
        return cls(ink, size, shield, attack, apart, chips)

    def rows(self, name: list[str], split: int = 0) -> list[Row]:
        """Name lines, armor and attack, ability badges (three a line). ``split`` makes them
        narrower for a small token: 1 puts armor and attack on lines of their own, 2 also
        the element glyphs (and two badges a line)."""
        rows: list[Row] = [[text_item(line, self.ink, bold=True, size=self.size)] for line in name]
        stats = [*self.shield, *(self.attack_apart if split >= 2 else self.attack)]
        rows += [[item] for item in stats] if split else [stats] if stats else []
        per = 3 if split < 2 else 2
        rows += [self.chips[i:i + per] for i in range(0, len(self.chips), per)]
        return rows


def _names(look: Look, inner: int) -> list[list[str]]:
    """Ways to write the name, best first: the full name on one line, then on two lines
    (wrapped at a few widths, as the disc narrows towards the top), then the short name."""
    size = look.size
    found: list[list[str]] = []
    if not look.small:
        for width in (inner, inner * 3 // 4, inner * 3 // 5):
            lines = kit.wrap(look.full, size, width, 1)
            if len(lines) <= 2 and not any(line.endswith("…") for line in lines) and lines not in found:
                found.append(lines)
        if [look.short] not in found:
            found.append([look.short])
    found.append([])
    return found


def draw_token(draw: ImageDraw.ImageDraw, state: State, enemy: CombatEnemy, box: Box, look: Look,
               avoid: Sequence[Box] = ()) -> None:
    """One enemy token in ``box`` (a square), with its badges and its text; ``avoid``: boxes
    drawn over it later (its summoned token), which its text keeps clear of."""
    defeated = enemy.status == "defeated"
    ring = glyphs.DEFEATED_RING if defeated else glyphs.RING.get(enemy.token.colour, kit.MUTED)
    d = box[2] - box[0]
    draw.ellipse(box, fill=glyphs.DEFEATED_FILL if defeated else glyphs.TOKEN_FILL, outline=ring, width=_ring(d))
    draw.ellipse(box, outline=kit.INK_DARK, width=2)
    if defeated:  # a cross under the text: crossed out, still readable
        i = d * 0.2
        for a, b in (((box[0] + i, box[1] + i), (box[2] - i, box[3] - i)), ((box[0] + i, box[3] - i),
                                                                              (box[2] - i, box[1] + i))):
            draw.line((*a, *b), fill=glyphs.DEFEATED_RING, width=max(DU(3), d // 16))
    badges = _badges(state, enemy, box, look)
    for badge_box, paint in badges:
        paint(draw, badge_box)
        kit.note("badge", badge_box)
    kit.note("token", box, plain(enemy.name))
    if enemy.token.id == HIDDEN:
        kit.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "?", look.size * 2, kit.INK,
                      anchor="mm", bold=True)
        return
    boxes = [*(b for b, _p in badges), *avoid]
    bottom = box[3] - (FAME_OVER if not look.small else _ring(d)) - DU(1)
    inner = d - 2 * _ring(d)
    names = _names(look, inner)  # ends with [] (no name): a token too small or a name too long
    attempts = [(name, split) for name in names for split in (0, 1, 2)]
    parts = Parts.of(state, enemy, look)
    for name, split in attempts:
        placed = _place(box, parts.rows(name, split), boxes, bottom)
        if placed is not None:
            break
    else:  # a token too small for anything else: the numbers around its centre, whatever they touch
        placed = _place(box, parts.rows([], 1), [], box[3], force=True) or []
    for x, y, item in placed:
        item.paint(draw, x, y)


# -- captions and rows --------------------------------------------------------------------------


def caption_chips(state: State, enemy: CombatEnemy, lang: str, short: bool = False) -> list[Chip]:
    """What happens to this enemy now, in words: defeated, blocked, out of reach or siege
    only (ranged phase), the block it needs, the damage still to assign (and how much is
    left of the one being assigned). ``short``: the same with fewer words, for a small
    token (the stamp, the cross and the badges on the token say the rest)."""
    def key(name: str) -> str:
        return f"render.mk.status.{name}_short" if short else f"render.mk.status.{name}"

    if enemy.token.id == HIDDEN:
        return []
    if enemy.status == "defeated":
        return [Chip("" if short else tr(key("defeated"), lang), glyphs.DEFEATED_RING, ink=kit.INK_DARK,
                     icon=lambda d, b: glyphs.paint_cross(d, b, kit.INK_DARK))]
    if enemy.status == "blocked":
        return [Chip("" if short else tr(key("blocked"), lang), glyphs.BLOCKED, ink=kit.INK,
                     icon=glyphs.paint_check if short else None)]
    if state.phase == "ranged_siege" and fortified(enemy):
        if double_fortified(enemy):
            return [Chip("" if short else tr(key("out_of_reach"), lang), glyphs.NEED, ink=kit.INK,
                         icon=glyphs.paint_cross if short else None)]
        return [Chip(tr(key("siege_only"), lang), glyphs.NEED, ink=kit.INK)]
    if is_summoner(enemy):
        return []
    step = state.damage
    if step is not None and step.enemy == enemy.uid:
        return [Chip(tr(key("assigning"), lang, left=step.remaining, total=step.total), glyphs.DAMAGE,
                     ink=kit.INK, icon=glyphs.paint_burst)]
    if state.phase == "assign_damage" and enemy in unresolved_attackers(state):
        return [Chip(tr(key("damage"), lang, amount=damage_of(state, enemy)), glyphs.DAMAGE, ink=kit.INK,
                     icon=glyphs.paint_burst)]
    if state.phase == "block" and enemy.status == "alive":
        return [Chip(tr(key("block_need"), lang, need=block_need(state, enemy)), glyphs.NEED, ink=kit.INK)]
    return []


def _split(chip: Chip, width: int) -> list[Chip]:
    """A chip wider than its slot, as one chip per wrapped line of its text (icon on the first)."""
    if kit_panel.chip_width(chip, TEXT) <= width:
        return [chip]
    room = width - (kit_panel.chip_width(Chip("", chip.fill, icon=chip.icon), TEXT) if chip.icon else 0) - DU(6)
    lines = kit.wrap(chip.text, TEXT, max(room, DU(20)), 1)
    return [Chip(line, chip.fill, chip.outline, chip.ink, chip.icon if i == 0 else None) for i, line in
            enumerate(lines)]


def caption_lines(chips: list[Chip], width: int) -> list[list[Chip]]:
    """Caption chips on as few lines as the slot's width allows; a chip wider than the slot
    is split into one chip per line of its words."""
    lines: list[list[Chip]] = []
    used = 0
    for chip in (part for whole in chips for part in _split(whole, width)):
        w = kit_panel.chip_width(chip, TEXT)
        if lines and used + DU(2) + w <= width:
            lines[-1].append(chip)
            used += DU(2) + w
        else:
            lines.append([chip])
            used = w
    return lines


def _draw_caption(draw: ImageDraw.ImageDraw, lines: list[list[Chip]], left: int, right: int, y: int) -> None:
    for line in lines:
        widths = [kit_panel.chip_width(c, TEXT) for c in line]
        x = (left + right - sum(widths) - DU(2) * (len(line) - 1)) // 2
        for chip, w in zip(line, widths, strict=True):
            kit_panel.draw_chip(draw, x, y, chip, TEXT)
            x += w + DU(2)
        y += CAPTION


def _frame(draw: ImageDraw.ImageDraw, slots: list[Slot]) -> None:
    """The outline around a run of targeted tokens (spec: "an outline grouping the targets")."""
    pad = DU(3)
    box = (min(s.box[0] for s in slots) - pad, min(s.box[1] for s in slots) - pad,
           max(s.box[2] for s in slots) + pad, max(s.box[3] for s in slots) + pad)
    draw.rounded_rectangle(box, radius=DU(8), outline=kit.INK_DARK, width=DU(3))
    inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
    draw.rounded_rectangle(inner, radius=DU(7), outline=glyphs.TARGET, width=DU(2))
    kit.note("target", box)


Captions = tuple[list[Chip], list[Chip], list[Chip]]  # with the summoned token's name, in words, short


def caption_variants(state: State, pair: Pair, lang: str) -> Captions:
    """A slot's caption three ways, longest first (they do not depend on the slot's size)."""
    enemy, small = pair
    full = caption_chips(state, enemy, lang)
    short = caption_chips(state, enemy, lang, short=True)
    named: list[Chip] = []
    if small is not None:
        named = [*full, Chip(plain(small.local_name(lang)), glyphs.RING["brown"], outline=kit.INK_DARK),
                 *caption_chips(state, small, lang)]
        full = [*full, *caption_chips(state, small, lang)]
        short = [*short, *caption_chips(state, small, lang, short=True)]
    return named, full, short


def pick_caption(variants: Captions, width: int) -> list[list[Chip]]:
    """The caption of a slot on one line if at all possible: the statuses in words (and a
    summoner's drawn token by name), else without that name, else the short forms; only
    when even those do not fit do they take more lines."""
    for chips in variants:
        if chips and _one_line(chips, width):
            return [chips]
    return caption_lines(variants[2], width)


def pair_captions(state: State, pair: Pair, width: int, lang: str) -> list[list[Chip]]:
    """The caption lines of one slot ``width`` px wide."""
    return pick_caption(caption_variants(state, pair, lang), width)


def _one_line(chips: list[Chip], width: int) -> bool:
    return sum(kit_panel.chip_width(c, TEXT) for c in chips) + DU(2) * (len(chips) - 1) <= width


def draw_enemies(draw: ImageDraw.ImageDraw, state: State, slots: list[Slot], lang: str, shorts: dict[str, str]) -> None:
    """Every token in its slot, the target outline behind them and the caption under each."""
    targets = set(state.staged.targets) if state.staged is not None else set()
    marked = [s for s in slots if s.enemy in targets or s.summoned in targets]
    runs: list[list[Slot]] = []
    for slot in marked:  # contiguous targets in a row share one outline
        if runs and runs[-1][-1].row == slot.row and slots.index(runs[-1][-1]) + 1 == slots.index(slot):
            runs[-1].append(slot)
        else:
            runs.append([slot])
    for run in runs:
        _frame(draw, run)
    by_uid = {e.uid: e for e in state.enemies}
    for slot in slots:
        enemy = by_uid[slot.enemy]
        size = text_size(slot.d)
        small = by_uid.get(slot.summoned or "")
        look = Look(lang, plain(enemy.local_name(lang)), shorts.get(enemy.uid, ""), size)
        draw_token(draw, state, enemy, slot.disc, look, [slot.small] if small is not None else [])
        if small is not None:
            draw_token(draw, state, small, slot.small, Look(lang, plain(small.local_name(lang)),
                                                            shorts.get(small.uid, ""), text_size(slot.ds), small=True))
        _draw_caption(draw, pair_captions(state, (enemy, small), slot.width, lang), slot.x, slot.x + slot.width,
                      slot.y + slot.d + FAME_OVER + DU(1))


def layout(state: State, area: Box, lang: str, variants: dict[str, Captions] | None = None) -> list[Slot]:
    """The enemy slots in ``area``, with room for each slot's caption lines (``variants``:
    the captions already worked out for this picture, by enemy)."""
    variants = {} if variants is None else variants

    def lines(pair: Pair, width: int) -> int:
        key = pair[0].uid
        if key not in variants:
            variants[key] = caption_variants(state, pair, lang)
        return max(1, len(pick_caption(variants[key], width)))

    return enemy_slots(state, area, lines)
