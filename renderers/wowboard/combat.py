"""The combat panel (spec §7 "a combat panel message"; combat-round, dice-pool, reroll, token-placement,
defense-phase, pvp-combat).

What a player needs to act on the panel's buttons: where and which round, whose attack phase it is
and what they may do now, the two sides (characters with health and energy, the fallen crossed out;
opponents with threat, attack and health; in PvP, each faction's characters), the current dice and
the boxes.

Dice are d8 tiles in their colour, each with its index (1..n, the number the reroll toggles use)
on a tag at its corner. A hit (value at or above the attack phase's threat, ``rules_boxes.place``)
is a filled tile with a thick white frame; a miss is hollow (dark inside, coloured rim) with a
muted number, so hit and miss differ by shape and contrast, not hue. A rerolled die carries a
yellow "↻" badge in its bottom-right corner and "was N" under it; each die's colour is also a letter under it.

The combat state is being extended for PvP (per-faction boxes); this module reads whatever is there
(:func:`box_sets`, :func:`sides`) and falls back to the one set of boxes of a normal combat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from common.wowboard_card_words import opponent_name
from engines.wowboard.combat_state import Combat, Die, Opponent
from engines.wowboard.content import FACTIONS, Pack
from engines.wowboard.content_cards import local_name
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.state import Character, State
from renderers import kit
from renderers.kit import RGB
from renderers.wowboard import cardtext, glyphs
from renderers.wowboard.layout import TEXT, WIDTH
from renderers.wowboard.panels import (
    CARD,
    CARD_LINE,
    CURSE,
    EMPTY_CARD,
    ENERGY,
    HEALTH,
    LINE,
    MARGIN,
    STUN,
    TITLE,
    Sheet,
    bar,
    char_name,
    chip,
    owner,
    title,
    token,
    wrapped,
    wrapped_height,
)
from renderers.wowboard.words import faction_name, plain, tr

DIE_COLOURS: dict[str, RGB] = {"blue": kit.OKABE_ITO["blue"], "red": kit.OKABE_ITO["vermillion"],
                               "green": kit.OKABE_ITO["bluish_green"]}
HOLLOW: RGB = (30, 31, 35)
CROSS: RGB = kit.OKABE_ITO["vermillion"]
TAG: RGB = (20, 20, 24)
BOX_FILL: RGB = (58, 61, 68)
ATTRITION: RGB = (150, 150, 158)
FILLS: tuple[RGB, ...] = (*DIE_COLOURS.values(), kit.HIGHLIGHT, TAG, HEALTH, ENERGY, STUN, CURSE)
"""Grounds text is written on (the palette needs their edges)."""
INKS: tuple[RGB, ...] = (kit.MUTED, kit.SUBTLE)
"""Inks written on a hollow die."""

COLUMN_GAP = 12
COLUMN_W = (WIDTH - 2 * MARGIN - COLUMN_GAP) // 2
PAD = 10
BAR_LABEL = 190
DIE = 76
DIE_STEP = 96
VALUE = 36
BOX_KEYS = ("damage", "defense", "armor", "attrition")
BOX_COLOURS: dict[str, RGB] = {"damage": DIE_COLOURS["blue"], "defense": DIE_COLOURS["red"],
                               "armor": DIE_COLOURS["green"], "attrition": ATTRITION}


# -- reading the combat state (tolerant of the PvP fields being added) ----------------------------------


def box_sets(combat: Combat) -> list[tuple[str | None, Any]]:
    """Each faction's boxes when the combat keeps them per faction (PvP), else the one set."""
    for _name, value in combat:
        if isinstance(value, Mapping) and value and all(hasattr(v, "damage") for v in value.values()):
            return [(str(k), v) for k, v in sorted(value.items(), key=lambda kv: FACTIONS.index(kv[0])
                                                   if kv[0] in FACTIONS else 9)]
    boxes = combat.boxes
    if isinstance(boxes, Mapping):  # a dict of plain dicts
        return [(str(k), v) for k, v in boxes.items()]
    return [(None, boxes)]


def versus(state: State, combat: Combat) -> bool:
    """Whether characters fight characters: PvP, the final battle at the End (``rules_pvp`` runs both),
    or any fight whose participants belong to both factions."""
    factions = {state.characters[c].faction for c in [*combat.participants, *combat.fallen] if c in state.characters}
    return combat.kind in ("pvp", "final") or len(factions) > 1


def sides(state: State, combat: Combat) -> list[tuple[str, list[str]]]:
    """The characters of each side: per faction when characters fight characters (a ``sides`` field if
    the state has one, else by the characters' factions), else the one group."""
    if not versus(state, combat):
        return [(combat.faction, list(combat.participants))]
    declared = getattr(combat, "sides", None)
    if isinstance(declared, Mapping) and declared:
        by = {str(k): list(v) for k, v in declared.items()}
    else:
        by = {f: [c for c in combat.participants if c in state.characters and state.characters[c].faction == f]
              for f in FACTIONS}
    fallen = [c for c in combat.fallen if c in state.characters]
    for cid in fallen:  # a fallen character stays on its side, crossed out
        faction = state.characters[cid].faction
        if cid not in by.setdefault(faction, []):
            by[faction].append(cid)
    return [(f, by.get(f, [])) for f in FACTIONS]


def is_hit(die: Die, threat: int) -> bool:
    """token-placement.1: a die at or above the threat is a hit."""
    return die.value >= threat


# -- drawing -------------------------------------------------------------------------------------------


def _step_text(state: State, combat: Combat, pack: Pack, lang: str) -> str:
    """What the fight waits for now. PvP fields (``wounds_due`` per faction, ``winner``) are read when
    the combat has them, so the panel works before and after they exist. An open question about one
    character (a last chance, a companion's share) is what the table waits for, so it titles the panel
    (issue 27.7)."""
    top = state.pending[0] if state.pending else None
    if top is not None and top.kind in ("last_chance", "companion_wounds") and top.character in state.characters:
        return tr(f"combat.q_{top.kind}", lang, name=char_name(pack, state.characters[top.character], lang))
    if combat.step == "order":
        return tr("combat.order", lang)
    if combat.step == "hit_assign":
        return tr("combat.hit_assign", lang)
    if combat.step == "armor":
        return tr("combat.armor", lang)
    due = getattr(combat, "wounds_due", None)
    if combat.step == "wounds" and isinstance(due, Mapping) and any(due.values()):
        return " · ".join(tr("combat.wounds_of", lang, faction=faction_name(str(f), lang), n=n)
                          for f, n in sorted(due.items()) if n)
    if combat.step == "wounds":
        return tr("combat.wounds", lang, n=combat.pending_wounds)
    if combat.step == "over":
        winner = getattr(combat, "winner", None)
        return tr("combat.winner", lang, faction=faction_name(winner, lang)) if winner else tr("combat.over", lang)
    attack = combat.attack
    if attack is None or attack.character not in state.characters:
        return tr("combat.order", lang)
    text = tr("combat.attacks", lang, name=char_name(pack, state.characters[attack.character], lang))
    if attack.step == "reroll":
        allowed = tr("combat.reroll", lang, n=attack.reroll) if attack.reroll else tr("combat.no_reroll", lang)
        return f"{text} · {allowed}"
    if attack.step in ("pool", "stun", "placement"):
        return f"{text} · {tr(f'combat.{attack.step}', lang)}"
    return text


def _header(sheet: Sheet, state: State, combat: Combat, pack: Pack, lang: str) -> None:
    draw = sheet.draw
    region = plain(local_name(pack.region(combat.region), lang)) if combat.region else ""
    head = tr(f"combat.{combat.kind}", lang, region=region, round=combat.round)
    step = _step_text(state, combat, pack, lang)
    room = WIDTH - 2 * MARGIN - 20
    height = 10 + wrapped_height(head, room, size=TITLE, bold=True) + 8 + wrapped_height(step, room - 16) + 18
    top = sheet.y
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + height), radius=12, fill=kit.PANEL,
                           outline=CARD_LINE, width=2)
    y = wrapped(draw, MARGIN + 10, top + 10, room, head, kit.INK, size=TITLE, bold=True) + 6
    lines = kit.wrap(step, TEXT, room - 16, 1)
    h = len(lines) * LINE + 8
    draw.rounded_rectangle((MARGIN + 10, y, MARGIN + 10 + max(kit.text_width(s, TEXT, 1) for s in lines) + 16,
                            y + h), radius=6, fill=kit.HIGHLIGHT)
    for line in lines:
        kit.draw_text(draw, (MARGIN + 18, y + 4), line, TEXT, kit.text_on(kit.HIGHLIGHT), bold=True)
        y += LINE
    kit.note("step", (MARGIN + 10, y - len(lines) * LINE, WIDTH - MARGIN, y), step)
    sheet.y = top + height + 12


def _fighter_height(c: Character) -> int:
    return PAD + (TEXT + 8) + 8 + 2 * (LINE + 6) + PAD


def _draw_fighter(draw: ImageDraw.ImageDraw, x: int, y: int, state: State, pack: Pack, c: Character,
                  combat: Combat, lang: str, seat_names: Mapping[int, str] | None) -> int:
    """One character: token, name and player; health and energy bars; Stun and Curse; the attacker
    has a yellow frame and a pointer, a fallen one is dimmed, struck through and crossed out."""
    height = _fighter_height(c)
    fallen = c.id in combat.fallen
    acting = combat.attack is not None and combat.attack.character == c.id and not fallen
    draw.rounded_rectangle((x, y, x + COLUMN_W, y + height), radius=10, fill=EMPTY_CARD if fallen else CARD,
                           outline=kit.HIGHLIGHT if acting else CARD_LINE, width=5 if acting else 2)
    kit.note("fighter", (x, y, x + COLUMN_W, y + height), ("fallen " if fallen else "acting " if acting else "") + c.id)
    cx, cy = x + PAD, y + PAD
    right = token(draw, cx, cy, c)
    name = char_name(pack, c, lang)
    who = owner(state, c, seat_names)
    ink = kit.MUTED if fallen else kit.INK
    room = x + COLUMN_W - PAD - (right + 10)
    label = kit.fit(f"{name} · {who}", TEXT, room, 1)
    box = kit.draw_text(draw, (right + 10, cy + (TEXT + 8) / 2 + 1), label, TEXT, ink, anchor="lm", bold=True)
    if fallen:
        draw.line((box[0] - 2, (box[1] + box[3]) // 2, box[2] + 2, (box[1] + box[3]) // 2), fill=kit.INK, width=3)
    cy += TEXT + 16
    max_h, max_e = capacity_of(state, c)
    bar_w = COLUMN_W - 2 * PAD - BAR_LABEL
    for label, value, cap, colour in ((tr("health", lang, n=c.health, cap=max_h), c.health, max_h, HEALTH),
                                      (tr("energy", lang, n=c.energy, cap=max_e), c.energy, max_e, ENERGY)):
        kit.draw_text(draw, (cx, cy), label, TEXT, ink)
        bar(draw, cx + BAR_LABEL, cy + 3, bar_w, value, cap, colour)
        cy += LINE + 6
    chips = [(tr("stun", lang, n=c.stun), STUN)] if c.stun else []
    chips += [(tr("curse", lang, n=c.curse), CURSE)] if c.curse else []
    if fallen:
        chips.insert(0, (tr("combat.fallen", lang), CROSS))
        draw.line((x + 8, y + 8, x + COLUMN_W - 8, y + height - 8), fill=CROSS, width=5)
        draw.line((x + 8, y + height - 8, x + COLUMN_W - 8, y + 8), fill=CROSS, width=5)
    cxr = x + COLUMN_W - PAD
    for text, fill in reversed(chips):  # right-aligned on the name row's far side would cover it: bottom right
        w = kit.text_width(text, TEXT, 1) + 16
        chip(draw, cxr - w, y + height - PAD - (TEXT + 8), text, fill, outline=kit.INK)
        cxr -= w + 6
    return height


def _opponent_glyph(draw: ImageDraw.ImageDraw, x: int, y: int, state: State, o: Opponent) -> tuple[int, str]:
    """The map's glyph for an opponent (tier shape, boss star, Overlord crown); returns (width, tier letter)."""
    if o.kind == "boss":
        glyphs.star(draw, x, y)
        return glyphs.BADGE_W, ""
    if o.kind == "overlord":
        glyphs.crown(draw, x, y)
        return glyphs.BADGE_W, ""
    figure = state.figures.get(o.ref)
    if figure is None:
        return 0, ""
    glyphs.tier_shape(draw, x + 2, y + 7, figure.tier, 18)
    return 24, glyphs.TIER_LETTERS[figure.tier]


def _opponent_lines(o: Opponent, pack: Pack, lang: str) -> list[str]:
    """Its values, then its ability in words (what the dice it reads will do)."""
    return [tr("combat.foe", lang, threat=o.threat, attack=o.attack, health=o.health),
            *cardtext.ability_text(o.ability, lang, pack)]


def _opponent_height(o: Opponent, pack: Pack, lang: str) -> int:
    return PAD + 32 + sum(wrapped_height(s, COLUMN_W - 2 * PAD) for s in _opponent_lines(o, pack, lang)) + PAD


def _draw_opponent(draw: ImageDraw.ImageDraw, x: int, y: int, state: State, pack: Pack, o: Opponent, lang: str
                   ) -> int:
    height = _opponent_height(o, pack, lang)
    draw.rounded_rectangle((x, y, x + COLUMN_W, y + height), radius=10, fill=CARD, outline=CARD_LINE, width=2)
    cx, cy = x + PAD, y + PAD
    w, letter = _opponent_glyph(draw, cx, cy, state, o)
    name = plain(opponent_name(pack, o, lang)) + (f" {letter}" if letter else "")
    kit.draw_text(draw, (cx + w + 8, cy + 16), name, TEXT, kit.INK, anchor="lm", bold=True)
    cy += 32
    for i, line in enumerate(_opponent_lines(o, pack, lang)):
        cy = wrapped(draw, cx, cy, COLUMN_W - 2 * PAD, line, kit.SUBTLE if i == 0 else kit.INK)
    kit.note("opponent", (x, y, x + COLUMN_W, y + height), f"{o.ref} {o.threat}/{o.attack}/{o.health}")
    return height


def _column(sheet: Sheet, x: int, y: int, heading: str, rows: list[tuple[int, Any]]) -> int:
    """A titled column of boxes; returns its bottom."""
    kit.draw_text(sheet.draw, (x, y), heading, TEXT + 4, kit.INK, bold=True)
    y += kit.line_height(TEXT + 4) + 6
    for height, paint in rows:
        paint(x, y)
        y += height + 8
    return y


def _sides(sheet: Sheet, state: State, combat: Combat, pack: Pack, lang: str,
           seat_names: Mapping[int, str] | None) -> None:
    draw = sheet.draw
    columns: list[tuple[str, list[tuple[int, Any]]]] = []

    def fighter(c: Character) -> tuple[int, Any]:
        return _fighter_height(c), lambda x, y: _draw_fighter(draw, x, y, state, pack, c, combat, lang, seat_names)

    for faction, ids in sides(state, combat):
        chars = [state.characters[i] for i in ids if i in state.characters]
        heading = faction_name(faction, lang) if versus(state, combat) else tr("combat.characters", lang)
        columns.append((heading, [fighter(c) for c in chars]))
    if not versus(state, combat):
        rows: list[tuple[int, Any]] = [
            (_opponent_height(o, pack, lang), lambda x, y, o=o: _draw_opponent(draw, x, y, state, pack, o, lang))
            for o in combat.opponents]
        if combat.defeated:
            rows.append((LINE, lambda x, y: kit.draw_text(draw, (x, y), tr("combat.defeated", lang,
                                                                           n=len(combat.defeated)), TEXT,
                                                          kit.SUBTLE)))
        columns.append((tr("combat.opponents", lang), rows))
    bottom = sheet.y
    for i, (heading, rows) in enumerate(columns[:2]):
        with kit.region(f"side{i}"):
            bottom = max(bottom, _column(sheet, MARGIN + i * (COLUMN_W + COLUMN_GAP), sheet.y, heading, rows))
    sheet.y = bottom + 6


def draw_die(draw: ImageDraw.ImageDraw, x: int, y: int, index: int, die: Die, hit: bool, lang: str) -> None:
    """One die in the box (x, y, x + DIE, y + DIE): an octagon (a d8's outline), filled for a hit and
    hollow for a miss, its index on a dark tag at the top-left corner and "↻" at the top right when
    rerolled (bottom right). Under it, its colour's letter and what it showed before the reroll."""
    colour = DIE_COLOURS.get(die.colour, ATTRITION)
    c = 20
    shape = [(x + c, y), (x + DIE - c, y), (x + DIE, y + c), (x + DIE, y + DIE - c), (x + DIE - c, y + DIE),
             (x + c, y + DIE), (x, y + DIE - c), (x, y + c)]
    if hit:
        draw.polygon(shape, fill=colour, outline=kit.INK, width=4)
        ink = kit.text_on(colour)
    else:
        draw.polygon(shape, fill=HOLLOW, outline=colour, width=6)
        ink = kit.MUTED
    kit.draw_text(draw, (x + DIE / 2, y + DIE / 2 + 2), str(die.value), VALUE, ink, anchor="mm", bold=hit)
    tag = str(index)
    tw = max(kit.text_width(tag, TEXT, 1) + 12, TEXT + 6)
    draw.rounded_rectangle((x - 8, y - 8, x - 8 + tw, y - 8 + TEXT + 6), radius=6, fill=TAG, outline=kit.INK,
                           width=2)
    kit.draw_text(draw, (x - 8 + tw / 2, y - 8 + (TEXT + 6) / 2 + 1), tag, TEXT, kit.INK, anchor="mm", bold=True)
    if die.rerolled:  # in the octagon's cut corner, away from the next die's index tag
        _reroll_badge(draw, x + DIE - TEXT + 2, y + DIE - TEXT + 2)
    under = tr(f"fx.letter.{die.colour}", lang)
    if die.rerolled:
        under += f" · {tr('combat.was', lang, n=die.first)}"
    kit.draw_text(draw, (x + DIE / 2, y + DIE + 6), under, TEXT, kit.SUBTLE, anchor="ma")
    kit.note("die", (x, y, x + DIE, y + DIE), f"{index} {die.colour} {die.value} {'hit' if hit else 'miss'}"
             f"{' rerolled' if die.rerolled else ''}")


def _reroll_badge(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    size = TEXT + 6
    draw.ellipse((x, y, x + size, y + size), fill=kit.HIGHLIGHT, outline=kit.INK_DARK, width=2)
    kit.draw_text(draw, (x + size / 2, y + size / 2 + 1), "↻", TEXT, kit.INK_DARK, anchor="mm", bold=True)


def _dice(sheet: Sheet, state: State, combat: Combat, pack: Pack, lang: str) -> None:
    attack = combat.attack
    if attack is None or attack.character not in state.characters:
        if combat.kind != "normal" and combat.step == "wounds" and combat.rolled:
            _round_dice(sheet, state, combat, pack, lang)
        return
    draw = sheet.draw
    name = char_name(pack, state.characters[attack.character], lang)
    sheet.y = title(draw, MARGIN, sheet.y, tr("combat.dice", lang, name=name))
    facts = [tr("combat.threat", lang, n=attack.threat)]
    if attack.dice:
        hits = sum(is_hit(d, attack.threat) for d in attack.dice)
        facts.append(tr("combat.hits", lang, hits=hits, misses=len(attack.dice) - hits))
    facts.append(tr("combat.values", lang, reroll=attack.reroll, attrition=attack.attrition))
    lost = sum(attack.phantom.values())
    if lost:
        facts.append(tr("combat.phantom", lang, n=lost))
    sheet.y = wrapped(draw, MARGIN, sheet.y, WIDTH - 2 * MARGIN, " · ".join(facts), kit.INK, bold=True) + 14
    if not attack.dice:
        kit.draw_text(draw, (MARGIN, sheet.y), tr("combat.no_dice", lang), TEXT, kit.MUTED)
        sheet.y += LINE + 10
        return
    _dice_row(sheet, attack.dice, attack.threat, lang)
    _legend(sheet, lang)


def _dice_row(sheet: Sheet, dice: list[Die], threat: int, lang: str) -> None:
    per_row = (WIDTH - 2 * MARGIN - 10) // DIE_STEP
    for i, die in enumerate(dice):
        row, col = divmod(i, per_row)
        draw_die(sheet.draw, MARGIN + 10 + col * DIE_STEP, sheet.y + 8 + row * (DIE + LINE + 22), i + 1, die,
                 is_hit(die, threat), lang)
    sheet.y += 8 + ((len(dice) + per_row - 1) // per_row) * (DIE + LINE + 22)


def _round_dice(sheet: Sheet, state: State, combat: Combat, pack: Pack, lang: str) -> None:
    """PvP wound steps (pvp-defense.2-3): each attacker's dice of this round, so the wounds being split
    can be traced to the hits that caused them (issue 27.7: the boxes are already emptied by then)."""
    draw = sheet.draw
    sheet.y = title(draw, MARGIN, sheet.y, tr("combat.round_dice", lang, round=combat.round))
    for cid, rolled in combat.rolled.items():
        if cid not in state.characters or not rolled.dice:
            continue
        hits = sum(is_hit(d, rolled.threat) for d in rolled.dice)
        facts = " · ".join((char_name(pack, state.characters[cid], lang), tr("combat.threat", lang, n=rolled.threat),
                            tr("combat.hits", lang, hits=hits, misses=len(rolled.dice) - hits)))
        sheet.y = wrapped(draw, MARGIN, sheet.y, WIDTH - 2 * MARGIN, facts, kit.INK, bold=True) + 4
        _dice_row(sheet, rolled.dice, rolled.threat, lang)
    _legend(sheet, lang)


def _legend(sheet: Sheet, lang: str) -> None:
    """Filled = hit, hollow = miss, ↻ = rerolled: drawn with the dice's own shapes."""
    draw = sheet.draw
    x, y, s = MARGIN, sheet.y, TEXT + 4
    for hit, key in ((True, "combat.legend_hit"), (False, "combat.legend_miss")):
        if hit:
            draw.rectangle((x, y, x + s, y + s), fill=DIE_COLOURS["blue"], outline=kit.INK, width=2)
        else:
            draw.rectangle((x, y, x + s, y + s), fill=HOLLOW, outline=DIE_COLOURS["blue"], width=4)
        box = kit.draw_text(draw, (x + s + 8, y + s / 2 + 1), tr(key, lang), TEXT, kit.SUBTLE, anchor="lm")
        x = box[2] + 24
    _reroll_badge(draw, x, y - 1)
    kit.draw_text(draw, (x + TEXT + 14, y + s / 2 + 1), tr("combat.legend_reroll", lang), TEXT, kit.SUBTLE,
                  anchor="lm")
    sheet.y = y + s + 16


def _boxes(sheet: Sheet, combat: Combat, lang: str) -> None:
    draw = sheet.draw
    sets = box_sets(combat)
    for faction, boxes in sets:
        heading = tr("combat.boxes_of", lang, faction=faction_name(faction, lang)) if faction and len(sets) > 1 \
            else tr("combat.boxes", lang)
        sheet.y = title(draw, MARGIN, sheet.y, heading)
        w = (WIDTH - 2 * MARGIN - 3 * COLUMN_GAP) // 4
        for i, key in enumerate(BOX_KEYS):
            n = int(getattr(boxes, key, 0) if not isinstance(boxes, Mapping) else boxes.get(key, 0))
            x = MARGIN + i * (w + COLUMN_GAP)
            _box(draw, x, sheet.y, w, key, n, lang)
        sheet.y += 96 + 12


def _box(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, key: str, n: int, lang: str) -> None:
    """A box: its name, its count big, and one pip per token (up to 10), under a band of the colour
    whose hits go there (blue damage, red defense, green armor)."""
    h = 96
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=BOX_FILL, outline=CARD_LINE, width=2)
    draw.rectangle((x + 2, y + 2, x + w - 2, y + 9), fill=BOX_COLOURS[key])
    kit.draw_text(draw, (x + 10, y + 16), tr(f"combat.box.{key}", lang), TEXT, kit.SUBTLE)
    kit.draw_text(draw, (x + w - 12, y + 16), str(n), VALUE, kit.INK if n else kit.MUTED, anchor="ra", bold=True)
    for i in range(min(n, 10)):
        px = x + 10 + i * 21
        draw.ellipse((px, y + h - 30, px + 17, y + h - 13), fill=BOX_COLOURS[key], outline=kit.INK)
    kit.note("box", (x, y, x + w, y + h), f"{key} {n}")


def combat_sheet(state: State, pack: Pack, lang: str = "en", seat_names: Mapping[int, str] | None = None) -> Sheet:
    """The combat panel's draw calls (a short "no combat" card when there is none)."""
    sheet = Sheet()
    combat = state.combat
    if combat is None:
        kit.draw_text(sheet.draw, (MARGIN, sheet.y), tr("combat.none", lang), TITLE, kit.INK, bold=True)
        sheet.y += kit.line_height(TITLE)
        return sheet
    with kit.region("header"):
        _header(sheet, state, combat, pack, lang)
    _sides(sheet, state, combat, pack, lang, seat_names)
    with kit.region("dice"):
        _dice(sheet, state, combat, pack, lang)
    with kit.region("boxes"):
        _boxes(sheet, combat, lang)
    return sheet


def combat_image(state: State, pack: Pack, lang: str = "en", seat_names: Mapping[int, str] | None = None
                 ) -> Image.Image:
    """The combat panel as a Pillow image."""
    return combat_sheet(state, pack, lang, seat_names).finish()

