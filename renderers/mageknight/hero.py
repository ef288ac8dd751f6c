"""The right column's second half: the hero, the mana, and a legend of what the picture uses.

The hero (spec §7): level, armor, hand limit, the knock-out bar (Wound cards put into the
hand this combat against the unmodified hand limit, B6) as clear segments *and* a number,
the hand (cards face up only when the view shows them: the public view hides them), Fame
and Reputation of this combat. The mana: Source dice by face (a letter on each, used and
depleted dice shaded), crystals and tokens. The legend lists only the badges on the tokens,
so it stays short and always explains what is in front of the player.
"""

from __future__ import annotations

from dataclasses import replace

from PIL import ImageDraw

from engines.mageknight.content import HIDDEN, WOUND, EnemyColour
from engines.mageknight.state import State
from renderers import kit
from renderers.kit_panel import Chip
from renderers.mageknight import glyphs
from renderers.mageknight.layout import CHIP_H, DU, TEXT
from renderers.mageknight.pen import SPACE, Item, Pen, chip_item, glyph_item, phrase_items, text_item
from renderers.mageknight.tokens import ability_chip, ability_codes
from renderers.mageknight.words import plain, tr

KO_SEGMENT = DU(9)


def _ko_bar(wounds: int, limit: int, room: int | None = None) -> Item:
    """Segments for the hand limit, the ones reached filled; "2/5" follows it. ``room``: the width the row
    leaves for the bar, whose segments narrow to fit it (a longer label, "Colpo di Grazia", in Italian)."""
    limit = max(1, limit)
    segment = KO_SEGMENT if room is None else max(DU(4), min(KO_SEGMENT, room // limit))
    width = limit * segment

    def paint(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        h = CHIP_H - DU(4)
        top = y + (CHIP_H - h) // 2 + 1
        for i in range(limit):
            box = (x + i * segment, top, x + (i + 1) * segment - DU(1), top + h)
            draw.rectangle(box, fill=glyphs.WOUND if i < wounds else kit.HP_LOST, outline=kit.INK_DARK)
        kit.note("ko_bar", (x, top, x + width, top + h))

    return Item(width, CHIP_H, paint, glue=True)


def draw_hero(pen: Pen, state: State, lang: str, cards: bool = True) -> None:
    """Level, armor and hand limit, the knock-out bar, the hand (its cards by name when the
    view shows them and ``cards`` leaves room), Fame and Reputation."""
    hero = state.hero
    pen.text(tr("render.mk.hero.title", lang, level=hero.level), bold=True)
    facts = phrase_items(tr("render.mk.hero.armor", lang, armor=hero.armor, limit=hero.hand_limit))
    pen.items([glyph_item(glyphs.paint_shield), replace(facts[0], glue=True), *facts[1:]], gap=SPACE)
    label, count = tr("render.mk.hero.ko", lang), f"{hero.combat_hand_wounds}/{hero.hand_limit}"
    room = pen.width - kit.text_width(label, TEXT) - kit.text_width(count, TEXT, 1) - 3 * DU(3)
    ko = [text_item(label), _ko_bar(hero.combat_hand_wounds, hero.hand_limit, room),
          text_item(count, bold=True, glue=True)]
    if hero.knocked_out:
        ko.append(chip_item(Chip(tr("render.mk.hero.knocked_out", lang), glyphs.WOUND, ink=kit.INK)))
    pen.items(ko)
    wounds = hero.hand.count(WOUND)
    cards = [c for c in hero.hand if c != WOUND]
    hand = [text_item(tr("render.mk.hero.hand", lang, cards=len(cards)))]
    if wounds:
        hand += [glyph_item(glyphs.paint_wound), text_item(tr("render.mk.hero.wounds", lang, wounds=wounds),
                                                            glue=True)]
    pen.items(hand)
    shown = [c for c in cards if c != HIDDEN and c in state.cards]
    if shown and cards:
        chips = []
        for card_id in shown:
            card = state.cards[card_id]
            fill = glyphs.MANA[card.colour]
            chips.append(chip_item(Chip(plain(card.local_name(lang)), fill, outline=kit.INK_DARK)))
        pen.items(chips, gap=DU(2))
    if hero.paralyzed:
        pen.text(tr("render.mk.hero.paralyzed", lang), kit.SUBTLE)
    pen.items(phrase_items(tr("render.mk.hero.fame", lang, fame=state.fame, rep=_rep(state.reputation))), gap=SPACE)


def _rep(change: int) -> str:
    """The combat's change of Reputation (+1, -2, ±0): a change, never a total (issue 27.8)."""
    return f"{change:+d}" if change else "±0"


def die_depleted(state: State, face: str) -> bool:
    """M46: by day black mana is depleted, by night gold is (a die that can pay for nothing)."""
    return (face == "black" and state.day) or (face == "gold" and not state.day)


def _die(state: State, face: str, used: bool, lang: str) -> Item:
    """A Source die: a rounded square in the face's colour with its letter; shaded when used
    (struck through) or depleted."""
    letter = tr(f"render.mk.face_letter.{face}", lang)
    shade = used or die_depleted(state, face)
    fill = glyphs.MANA_SHADED[face] if shade else glyphs.MANA[face]
    chip = Chip(letter, fill, outline=kit.INK if face == "black" else kit.INK_DARK, strike=used)
    return chip_item(chip)


def _crystal(colour: str, count: int, lang: str) -> Item:
    letter = tr(f"render.mk.face_letter.{colour}", lang)
    chip = Chip(f"{letter} {count}", kit.PANEL_LINE, ink=kit.INK,
                icon=lambda d, b, c=glyphs.MANA[colour]: glyphs.paint_crystal(d, b, c))
    return chip_item(chip)


def draw_mana(pen: Pen, state: State, lang: str) -> None:
    """Source dice, crystals and mana tokens, each group on its own lines after its label. A die is named by
    its colour's word ("blu", "bianco": two letters looked alike at board size), so a long Source (an assist
    table's five dice) wraps under its first die instead of running off the panel."""
    crystals = [(c, n) for c, n in state.hero.crystals.items() if n > 0]
    groups = [("render.mk.mana.source", [_die(state, d.face, d.used, lang) for d in state.source]),
              ("render.mk.mana.crystals", [_crystal(c, n, lang) for c, n in sorted(crystals)]),
              ("render.mk.mana.tokens", [_die(state, c, False, lang) for c in state.hero.tokens])]
    for key, chips in groups:
        if not chips:
            continue
        label = text_item(tr(key, lang))
        pen.items([label, _glued(chips[0]), *chips[1:]], gap=DU(2), indent=label.width + DU(2))


def _glued(item: Item) -> Item:
    return Item(item.width, item.height, item.paint, glue=True)


# -- legend ----------------------------------------------------------------------------------


def legend_items(state: State, lang: str) -> list[Item]:
    """The badges and glyphs drawn on the tokens, each followed by what it means."""
    enemies = [e for e in state.enemies if e.token.id != HIDDEN]
    codes: list[str] = []
    for enemy in enemies:
        codes += [c for c in ability_codes(enemy) if c not in codes]
    items: list[Item] = []
    for code in codes:
        items += [chip_item(ability_chip(code, lang)), text_item(tr(f"render.mk.legend.{code}", lang), glue=True)]
    resists = [r for r in ("physical", "fire", "ice") if any(r in e.token.resistances for e in enemies)]
    for resist in resists:
        items += [_pip_item(resist, lang), text_item(tr(f"render.mk.legend.resist_{resist}", lang), glue=True)]
    elements = {e.token.element for e in enemies}
    if elements & {"fire", "cold_fire"}:
        items += [glyph_item(glyphs.paint_flame), text_item(tr("render.mk.legend.fire", lang), glue=True)]
    if elements & {"ice", "cold_fire"}:
        items += [glyph_item(glyphs.paint_snowflake), text_item(tr("render.mk.legend.ice", lang), glue=True)]
    if "cold_fire" in elements:
        items += [glyph_item(glyphs.paint_flame), glyph_item(glyphs.paint_snowflake, glue=True),
                  text_item(tr("render.mk.legend.cold_fire", lang), glue=True)]
    for colour in dict.fromkeys(e.token.colour for e in enemies if e.token.colour in glyphs.RING):
        items += _colour_items(colour, lang)
    if enemies:
        items += [glyph_item(glyphs.paint_star), text_item(tr("render.mk.legend.fame", lang), glue=True)]
    return items


def _colour_items(colour: EnemyColour, lang: str) -> list[Item]:
    """The ring's letter (W, K, G… in Italian Bi, Gr, Ve…) and the colour it stands for (issue 27.9)."""
    letter = Chip(tr(f"render.mk.letter.{colour}", lang), glyphs.RING[colour], outline=kit.INK_DARK)
    return [chip_item(letter), text_item(tr(f"mk.colour.{colour}", lang), glue=True)]


def _pip_item(resist: str, lang: str) -> Item:
    letter = tr(f"render.mk.resist.{resist}", lang)
    size = max(CHIP_H, kit.text_width(letter, TEXT, 1) + DU(4))
    return glyph_item(lambda d, b: glyphs.paint_pip(d, b, letter, glyphs.RESIST[resist], TEXT), size)
