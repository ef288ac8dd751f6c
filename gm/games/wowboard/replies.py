"""The private answers of ``/wowb``: a sheet, the map, the quests, the merchant, the fight, a card.

Each is for the asking player alone (``ephemeral``) and reads only the seat's own view; pictures are
drawn off the event loop by the render pool's threads, and the text still goes out if one fails.
"""

from __future__ import annotations

import logging
from typing import Any

from common.i18n import t
from engines.core.errors import TavoloError
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from gm.games.wowboard import choices, text
from gm.reply import Reply


def sheet_character(view: State, seat: int | None, who: str | None, lang: str = "en") -> str:
    """The character ``/wowb sheet`` shows: the one named, else the asking seat's first."""
    if who:
        return choices.resolve(view, list(view.characters), who, "character", lang)
    mine = choices.my_characters(view, seat)
    if not mine:
        raise TavoloError("wowboard.ui.name_a_character")
    return mine[0]


def sheet_reply(view: State, cid: str, lang: str) -> Reply:
    """``/wowb sheet``'s text: every sheet is public (spec §3.6)."""
    c = view.characters[cid]
    return Reply(title=text.char_label(view, cid, lang=lang, full=True),  # the hero beside the class (27.8)
                 text="\n".join(text.sheet_lines(view, c, lang)), ephemeral=True)


async def with_picture(reply: Reply, filename: str, draw: Any, *args: Any) -> Reply:
    """The private reply with its picture, drawn off the event loop (a thread of the render pool; the
    text goes out alone if the picture fails)."""
    from gm.reply import Image
    from gm.workers import render_pool

    try:
        reply.image = Image(filename, await render_pool.pool().call(draw, *args, remote=False))
    except render_pool.RenderFailed:
        logging.getLogger(__name__).exception("wowboard: private picture %s failed; text only", filename)
    return reply


async def map_reply(view: State, region: str | None, lang: str) -> Reply:
    """``/wowb map``: the map for the asking player alone, whole or cropped around a region."""
    from functools import partial

    from renderers.wowboard import render

    focus = None
    if region:
        focus = [choices.resolve(view, [r.id for r in pack_of(view).regions], region, "region", lang)]
    names = {s.seat: s.name for s in view.seats}
    reply = Reply(text=text.summary(view, lang) or t("wowboard.ui.panel_over", lang), ephemeral=True)
    return await with_picture(reply, "wowboard-map.png", partial(render, view, lang, names, focus=focus))


async def sheet_picture_reply(view: State, seat: int | None, who: str | None, lang: str) -> Reply:
    """``/wowb sheet``: the sheet's text and its picture (private)."""
    from renderers.wowboard import render_sheet

    cid = sheet_character(view, seat, who, lang)
    return await with_picture(sheet_reply(view, cid, lang), f"sheet-{cid}.png", render_sheet, view, cid, lang)


def quests_reply(view: State, lang: str) -> Reply:
    pack = pack_of(view)
    by_id = {q.id: q for q in pack.quests}
    lines = []
    for faction in ("horde", "alliance"):
        lines.append(f"**{text.faction_word(faction, lang)}**")
        for quest in view.quests:
            if quest.faction != faction or quest.card not in by_id:
                continue
            card = by_id[quest.card]
            where = sorted({text.name(view, view.figures[f].region, lang) for f in quest.figures if f in view.figures})
            lines.append(t("wowboard.ui.quest_line", lang, title=text.name(view, card.id, lang), level=card.level,
                           colour=t(f"wowboard.ui.colour.{card.colour}", lang), n=len(quest.figures),
                           regions=", ".join(where) or "—"))
    return Reply(title=t("wowboard.ui.quests_title", lang), text="\n".join(lines), ephemeral=True)


def merchant_reply(view: State, lang: str) -> Reply:
    from engines.wowboard.rules_sheet import card_of

    pack = pack_of(view)
    lines = []
    for item_id in dict.fromkeys(view.merchant):
        item = card_of(pack, item_id)
        lines.append(t("wowboard.ui.merchant_line", lang, name=text.name(view, item_id, lang),
                       gold=getattr(item, "gold", 0),
                       level=item.level, n=view.merchant.count(item_id)))
    return Reply(title=t("wowboard.ui.merchant_title", lang), text="\n".join(lines) or "—", ephemeral=True)


def combat_reply(view: State, lang: str) -> Reply:
    if view.combat is None:
        return Reply(text=t("wowboard.ui.no_combat", lang), ephemeral=True)
    lines = [text.combat_line(view, lang)]
    for cid in view.combat.participants:
        c = view.characters[cid]
        mark = " ✝" if cid in view.combat.fallen else ""
        lines.append(f"• {text.character_line(view, c, lang)}{mark}")
    for o in view.combat.opponents:
        name = text.stored_name(view, o.name, lang) if o.name else text.name(view, o.ref, lang)
        lines.append(t("wowboard.ui.opponent_line", lang, name=name, threat=o.threat,
                       attack=o.attack, health=o.health))
    return Reply(title=t("wowboard.ui.combat_title", lang), text="\n".join(lines), ephemeral=True)


def card_reply(view: State, name: str, lang: str) -> Reply:
    """``/wowb card``: any card, creature, region, quest or event of the game's pack, by name or its
    beginning (the text is written from the card's effect data, so en and it never drift)."""
    from gm.games.wowboard import cards

    pack = pack_of(view)
    found = cards.find(pack, name, lang)
    if not found:
        raise TavoloError("wowboard.ui.unknown_card", name=name[:40], known=cards.candidates(pack, lang))
    lines = [cards.found_text(item, pack, lang) for item in found[:3]]
    if len(found) > 3:
        lines.append(t("wowboard.ui.more_cards", lang, names=", ".join(f.label(lang) for f in found[3:12])))
    return Reply(text="\n\n".join(lines), ephemeral=True)
