"""WoW board game words at the table: names for the ids the engine speaks in, the summary line, event
lines and the per-seat control panel (spec §7).

The engine's events and decisions carry ids (``warden``, ``crown_peak``, ``healing_draught``) so they stay
language-free; people read names. ``names_of`` maps every id the pack defines to its name once per pack,
and ``event_text`` swaps them in before the template is filled, so no player ever reads a raw id.
Characters are named by their class (one character per class in a game: setup.2), and by the seat
that plays them where that helps.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from common import wowboard_names as names
from common.i18n import SUPPORTED, has, t
from engines.core.events import Event
from engines.wowboard.content_cards import local_name
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import Character, State
from gm.games.wowboard.cards import area_accepts  # imported with the game, not by the first move it words

NS = "wowboard"
# Event parameters that hold ids to be named (lists arrive as "a, b" strings or lists).
# Names stored in English (a quest's title, an event's creature) are named in the reader's language too.
_NAMED_PARAMS = frozenset({"kind", "title", "cards", "before", "name", "region", "to", "from", "card", "item",
                           "items", "target", "names", "foes",
                           "character", "characters", "class", "creature", "boss", "quest", "order", "kept",
                           "options", "path", "winner", "loser", "talent", "power", "powers", "area", "who",
                           "attackers", "defenders", "receiver", "kept_by", "type", "by",
                           "first", "second", "partner", "give", "take", "titles"})


@lru_cache(maxsize=32)
def _names(pack_key: str, lang: str = "en") -> dict[str, str]:
    from engines.wowboard.content import pack_by_key

    pack = pack_by_key(pack_key)
    found: dict[str, str] = {}
    for group in (pack.regions, pack.creatures, pack.classes, pack.class_cards, pack.items, pack.bosses,
                  pack.overlords, pack.ancestries, pack.quests, pack.events):
        for item in group:
            found[item.id] = local_name(item, lang)
    return found

_AUCTION_EVENTS = frozenset({"wowboard.ev.auction_opened", "wowboard.ev.auction_bids", "wowboard.ev.auction_tie",
                             "wowboard.ev.auction_unsold", "wowboard.ev.auction_won", "wowboard.ev.auction_items_lost"})
"""events.3: the auction's lines, whose ``bids`` and ``dice`` are "seat amount" pairs to name."""


def names_of(pack_key: str, lang: str = "en") -> dict[str, str]:
    """Every id of the pack → its name in ``lang`` (issue 26.10: the Italian name where the pack gives one)."""
    return _names(pack_key, lang)


@lru_cache(maxsize=32)
def _renames(pack_key: str, lang: str) -> dict[str, str]:
    """English name → the name in ``lang``: what a state stored as a name (a fight's opponents, an
    event's creature) reads as in Italian."""
    english = _names(pack_key, "en")
    return {english[i]: local for i, local in _names(pack_key, lang).items() if english[i] != local}


def _every_name(lang: str = "en") -> dict[str, str]:
    """Names of the built-in pack and of every server pack this process holds (an event carries no pack),
    by id and, in Italian, by English name too."""
    from engines.wowboard.content import BUILTIN_FULL_KEY, BUILTIN_KEY, server_pack_keys

    found: dict[str, str] = {}
    for key in (BUILTIN_FULL_KEY, BUILTIN_KEY, *server_pack_keys()):  # the full edition first: v1 names win
        found.update(_renames(key, lang))
        found.update(_names(key, lang))
    return found


def warm_names() -> None:
    """The built-in packs read and their names indexed in every language (the presenter's ``warm_words``):
    the first move worded after a start read both packs on the event loop, ~12 ms (bench/acts.py --parts)."""
    for lang in SUPPORTED:
        _every_name(lang)


def name(view: State, ident: str | None, lang: str = "en") -> str:
    """The name people read for an id of this game's pack, in ``lang`` (the id itself when the pack has no
    name)."""
    if not ident:
        return ""
    return names_of(view.pack, lang).get(ident, ident)


def stored_name(view: State, english: str, lang: str) -> str:
    """A name the state keeps in English (a fight's opponent) in the reader's language."""
    return _renames(view.pack, lang).get(english, english) if lang != "en" else english


def printed_name(class_id: str, source: str, lang: str) -> str | None:
    """The name of a pre-printed card (``pre:<area>``, equipping.1) on a class sheet: "Spark", "Mend"."""
    from engines.wowboard.content import BUILTIN_KEY, pack_by_key, server_pack_keys

    if not source.startswith("pre:"):
        return None
    for key in (BUILTIN_KEY, *server_pack_keys()):
        for sheet in pack_by_key(key).class_sheets:
            area = next((a for a in sheet.areas if a.id == source[4:]), None) if sheet.class_id == class_id else None
            if area is not None and area.preprinted is not None:
                return local_name(area.preprinted, lang)
    return None


def source_name(view: State, char: str, source: str, lang: str = "en") -> str:
    """A card a character uses, by the name printed on it: a pre-printed card by its sheet's name."""
    c = view.characters.get(char)
    return (printed_name(c.class_id, source, lang) if c is not None else None) or name(view, source, lang)


def aliases(view: State, ident: str) -> tuple[str, ...]:
    """Every spelling of an id a player may type: the id, the English and the Italian name (the resolver
    accepts both languages in both languages, issue 26.1); for a class or its character, the hero printed
    on its sheet face too ("Vezza", issue 27.8)."""
    found = (ident, name(view, ident, "en"), name(view, ident, "it"))
    pack = pack_of(view)
    if any(k.id == ident for k in pack.classes):
        c = view.characters.get(ident)
        found += names.hero_aliases(pack, ident, c.faction if c is not None else None)
    return tuple(dict.fromkeys(found))


def char_name(view: State, cid: str, lang: str = "en") -> str:
    """A character's one name in every line, button and answer: its class (``common.wowboard_names``, the
    rule the pictures use too)."""
    return names.class_name(pack_of(view), view.characters[cid].class_id if cid in view.characters else cid, lang)


def char_full(view: State, cid: str, lang: str = "en") -> str:
    """The class with the hero beside it, "Arcanist (Vezza Cindertongue)", where both help (a sheet)."""
    c = view.characters.get(cid)
    return names.full_name(pack_of(view), c.class_id, c.faction, lang) if c is not None else name(view, cid, lang)


def option_label(view: State, value: str, lang: str) -> str:
    """An answer as people read it: a name, "Healing Draught → Ranger" for an item and who receives it,
    "decline"/"none" in the reader's words."""
    if value in ("decline", "accept", "none", "damage", "defense", "use"):
        key = f"wowboard.ui.option.{value}"
        return t(key, lang) if has(key, lang) else value
    if has(f"wowboard.ui.colour.{value}", lang):  # a quest deck
        return t(f"wowboard.ui.colour.{value}", lang)
    if ">" in value:  # card-limits.6: an order of triggers, "Windreader, then Falcon Sight"
        return " → ".join(name(view, key.partition("#")[0], lang) for key in value.split(">"))
    if "@" in value:
        card, _, who = value.partition("@")
        whom = char_name(view, who, lang)
        return f"{name(view, card, lang)} → {whom}"
    if value in view.characters:
        return char_name(view, value, lang)
    if value.startswith("pre:") and view.pending and view.pending[0].character:  # a printed power (Mend)
        return source_name(view, view.pending[0].character, value, lang)
    kind, _, rest = value.partition(":")
    if kind in ("overlord", "boss"):  # an opponent that may fall (defense-phase.1)
        return name(view, rest, lang)
    if kind == "minion":  # overlord.3: an Overlord's minion, "Zealot 1"
        ctype, _, k = rest.partition(":")
        return f"{name(view, ctype, lang)} {k}"
    return name(view, value, lang)


def faction_word(faction: str | None, lang: str) -> str:
    key = f"wowboard.ui.faction.{faction}"
    return t(key, lang) if faction and has(key, lang) else str(faction or "")


def seat_name(view: State, seat: int, seat_names: list[str] | None = None) -> str:
    if seat_names and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return next((s.name for s in view.seats if s.seat == seat), str(seat))


def char_label(view: State, cid: str, seat_names: list[str] | None = None, lang: str = "en",
               full: bool = False) -> str:
    """"Warden (alice)": the character's one name, the seat says whose it is; ``full`` puts the hero beside
    the class, "Warden (Grusk Ironhide) · alice" (a sheet)."""
    c = view.characters.get(cid)
    if c is None:
        return name(view, cid, lang)
    if full:
        return f"{char_full(view, cid, lang)} · {seat_name(view, c.seat, seat_names)}"
    return f"{char_name(view, cid, lang)} ({seat_name(view, c.seat, seat_names)})"


def _named(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        if value in names:
            return names[value]
        if ", " in value:
            return ", ".join(names.get(part, part) for part in value.split(", "))
        if " → " in value:
            return " → ".join(names.get(part, part) for part in value.split(" → "))
        return value
    if isinstance(value, list | tuple):
        return ", ".join(str(names.get(str(v), v)) for v in value)
    return value


def _named_pairs(value: str, names: dict[str, str]) -> str:
    """"warden 2, ranger 1" (an id and a number each, events.3) with the ids named."""
    out = []
    for part in value.split(", "):
        ident, _, n = part.rpartition(" ")
        out.append(f"{names.get(ident, ident)} {n}" if ident else part)
    return ", ".join(out)


def event_text(event: Event, lang: str) -> str | None:
    """The event's template with ids turned into names and factions into the reader's words."""
    if not event.key.startswith(f"{NS}.") or not has(event.key, lang):
        return None
    names = _every_name(lang)
    params = {k: (_named(v, names) if k in _NAMED_PARAMS else v) for k, v in event.params.items()}
    who = str(event.params.get("name", ""))
    card = event.params.get("card")
    if isinstance(card, str) and card.startswith("pre:"):  # a pre-printed card, named as its sheet prints it
        params["card"] = printed_name(who, card, lang) or card
    if isinstance(event.params.get("cards"), list):
        params["cards"] = ", ".join(printed_name(who, c, lang) or names.get(c, c) for c in event.params["cards"])
    for key in ("faction", "winner_faction", "other_faction"):
        if isinstance(params.get(key), str):
            params[key] = faction_word(params[key], lang)
    if event.key == "wowboard.ev.rested" and not event.params.get("curses"):  # no curse: say less
        if not event.params.get("health") and not event.params.get("energy"):
            return t("wowboard.ui.ev_passed", lang, name=params.get("name", ""))
        return t("wowboard.ui.ev_rested", lang, name=params.get("name", ""), health=event.params.get("health", 0),
                 energy=event.params.get("energy", 0))
    colour = event.params.get("colour")
    if isinstance(colour, str) and has(f"wowboard.ui.colour.{colour}", lang):  # a quest's colour
        params["colour"] = t(f"wowboard.ui.colour.{colour}", lang)
    if event.key in ("wowboard.ev.trade_offered", "wowboard.ev.traded", "wowboard.ev.trade_declined"):  # items.7
        for side, gold in (("give", "gold"), ("take", "take_gold")):
            parts = [p for p in str(params.get(side, "")).split(", ") if p and p != "-"]
            if event.params.get(gold):
                parts.append(t("wowboard.ui.trade_gold", lang, n=event.params[gold]))
            params[side] = ", ".join(parts) or t("wowboard.ui.trade_nothing", lang)
    for key in ("bids", "dice") if event.key in _AUCTION_EVENTS else ():  # "warden 2" pairs
        if isinstance(params.get(key), str):
            params[key] = _named_pairs(params[key], names)
    if event.key in ("wowboard.ev.wounds_vote", "wowboard.ev.leader_splits") and isinstance(params.get("split"), str):
        params["split"] = _named_pairs(params["split"], names)  # factions.2: a wound split voted on
    if event.key == "wowboard.ev.auction_opened" and isinstance(params.get("gold"), str):
        params["gold"] = _named_pairs(params["gold"], names)
    token = event.params.get("token")
    if isinstance(token, str) and has(f"wowboard.ui.war_colour.{token}", lang):  # events.6: a pair of war tokens
        params["token"] = t(f"wowboard.ui.war_colour.{token}", lang)
    tier = event.params.get("tier")
    if isinstance(tier, str) and has(f"wowboard.ui.tier.{tier}", lang):
        params["tier"] = t(f"wowboard.ui.tier.{tier}", lang)
    _term_words(event, params, lang)
    if event.key in ("wowboard.ev.pool_rolled", "wowboard.ev.rerolled") and not event.params.get("dice"):
        return t("wowboard.ui.ev_no_dice", lang, name=params.get("name", ""))  # not "Cantor rolls: ."
    target = event.params.get("target")
    if isinstance(target, str):
        params["target"] = target_words(target, names, lang)
    return t(event.key, lang, **params)


def _term_words(event: Event, params: dict[str, Any], lang: str) -> None:
    """Engine words that are game terms, in the reader's language: a stat, an item deck ("triangle" →
    "triangolo"), an event card's kind, the sheet area a card goes to ("instant" → "instant power")."""
    stat = event.params.get("stat")
    if isinstance(stat, str) and has(f"wowboard.card.stat.{stat}", lang):
        params["stat"] = t(f"wowboard.card.stat.{stat}", lang)
    deck = event.params.get("deck")
    if isinstance(deck, str) and has(f"wowboard.card.deck.{deck}", lang):
        params["deck"] = t(f"wowboard.card.deck.{deck}", lang)
    kind = event.params.get("kind")
    if event.key == "wowboard.ev.event_drawn" and has(f"wowboard.card.event_kind.{kind}", lang):
        params["kind"] = t(f"wowboard.card.event_kind.{kind}", lang)
    if event.key == "wowboard.ev.equipped":
        params["area"] = area_words(str(event.params.get("name", "")), str(event.params.get("area", "")), lang)


def area_words(class_id: str, area: str, lang: str) -> str:
    """A sheet area as what it takes ("instant power", "melee weapon (blade, axe)"), not its id."""
    from engines.wowboard.content import BUILTIN_KEY, pack_by_key, server_pack_keys

    for key in (BUILTIN_KEY, *server_pack_keys()):
        for sheet in pack_by_key(key).class_sheets:
            found = next((a for a in sheet.areas if a.id == area), None) if sheet.class_id == class_id else None
            if found is not None:
                return area_accepts(found, lang)
    return area


def target_words(target: str, names: dict[str, str], lang: str) -> str:
    """A challenge target as people say it: "Dunecur (Horde)", a boss's name, "the enemies here"."""
    if target == "pvp":
        return t("wowboard.ui.target_pvp", lang)
    kind, _, rest = target.partition(":")
    if kind == "group":
        _region, ctype, owner = ([*rest.split(":"), "", "", ""])[:3]
        whose = t("wowboard.ui.independent", lang) if owner == "free" else faction_word(owner, lang)
        return f"{names.get(ctype, ctype)} ({whose})"
    return names.get(rest, rest) if kind in ("boss", "overlord") else names.get(target, target)


# ---------------------------------------------------------------------------- summary and panel
def character_line(view: State, c: Character, lang: str, seat_names: list[str] | None = None,
                   full: bool = False) -> str:
    """One character at a glance: where, health/energy, level and XP, gold, actions left, tokens."""
    from engines.wowboard.rules_sheet import capacity_of

    most_h, most_e = capacity_of(view, c)
    parts = [t("wowboard.ui.char_line", lang, name=char_label(view, c.id, seat_names, lang, full),
               region=name(view, c.region, lang),
               health=c.health, most_health=most_h, energy=c.energy, most_energy=most_e, level=c.level, xp=c.xp,
               gold=c.gold)]
    if view.phase == "play" and c.faction == view.active and view.combat is None:
        parts.append(t("wowboard.ui.actions_left", lang, n=c.actions_left))
    if c.stun:
        parts.append(t("wowboard.ui.stunned", lang, n=c.stun))
    if c.curse:
        parts.append(t("wowboard.ui.cursed", lang, n=c.curse))
    return " · ".join(parts)


def combat_line(view: State, lang: str, seat_names: list[str] | None = None) -> str:
    combat = view.combat
    if combat is None:
        return ""
    if combat.kind != "normal":  # PvP or the final battle: the other side is characters
        key = "wowboard.ui.summary_final" if combat.kind == "final" else "wowboard.ui.summary_pvp"
        line = t(key, lang, region=name(view, combat.region, lang), round=combat.round)
    else:
        foes = ", ".join(stored_name(view, o.name, lang) if o.name else name(view, o.ref, lang)
                         for o in combat.opponents) or "—"
        line = t("wowboard.ui.summary_fight", lang, region=name(view, combat.region, lang), round=combat.round,
                 foes=foes)
    attack = combat.attack
    if attack is not None:
        line += " · " + t("wowboard.ui.summary_attacker", lang,
                          name=char_label(view, attack.character, seat_names, lang),
                          threat=attack.threat)
        if attack.dice:
            line += " · " + dice_text(attack.dice, attack.threat)
    if combat.kind == "normal":
        b = combat.boxes
        line += " · " + t("wowboard.ui.boxes", lang, damage=b.damage, defense=b.defense, armor=b.armor,
                          attrition=b.attrition)
    return line


def dice_text(dice: list[Any], threat: int) -> str:
    """Each die numbered as the reroll buttons number it, a hit in bold, a miss plain."""
    out = []
    for i, die in enumerate(dice, start=1):
        mark = f"**{die.value}**" if die.value >= threat else str(die.value)
        out.append(f"{i}:{mark}{'↻' if die.rerolled else ''}")
    return " ".join(out)


def summary(view: State, lang: str, seat_names: list[str] | None = None) -> str:
    """Turn and faction, the fight in progress, the open question; who acts is the decision line's job."""
    if view.phase == "over":
        return ""
    if view.phase == "draft":  # who plays which faction (setup.1, setup.3), before anyone picks
        sides = " · ".join(f"{faction_word(f, lang)}: " + ", ".join(seat_name(view, s.seat, seat_names)
                                                                     for s in view.seats if s.faction == f)
                           for f in ("horde", "alliance"))
        if view.factions_open:  # setup.3: the factions are dealt once the draft is over
            sides = t("wowboard.ui.summary_draft_open", lang, seats=", ".join(
                t("wowboard.ui.seat_two", lang, name=seat_name(view, s.seat, seat_names)) if s.draft_picks > 1
                else seat_name(view, s.seat, seat_names) for s in view.seats))
        return t("wowboard.ui.summary_draft", lang) + "\n" + sides
    pack = pack_of(view)
    if view.turn > pack.track.spaces:  # victory.2: the marker reached the End
        lines = [t("wowboard.ui.summary_end", lang)]
    else:
        lines = [t("wowboard.ui.summary_turn", lang, turn=view.turn, last=pack.track.spaces,
                   faction=faction_word(view.active, lang))]
    if view.combat is not None:
        lines.append(combat_line(view, lang, seat_names))
    lines += table_events_lines(view, lang)
    return "\n".join(lines)


def table_events_lines(view: State, lang: str) -> list[str]:
    """The wars on the map with their tokens (events.6) and an auction waiting for bids (events.3: how many
    are sealed, never how much)."""
    pack = pack_of(view)
    lines = []
    for card_id, token in view.wars.items():
        card = next((e for e in pack.events if e.id == card_id), None)
        if card is not None and len(card.war_regions) == 2:
            first, second = (name(view, r, lang) for r in card.war_regions)
            lines.append(t("wowboard.ui.war_line", lang, title=name(view, card_id, lang),
                           token=t(f"wowboard.ui.war_colour.{token}", lang), first=first, second=second,
                           n=card.war_gold))
    top = view.pending[0] if view.pending else None
    if top is not None and top.kind == "auction_bid":  # the view masks the amounts, not who has bid
        lines.append(t("wowboard.ui.auction_line", lang, title=name(view, top.target, lang), n=len(top.bids),
                       of=len(top.seats)))
    return lines


def sheet_lines(view: State, c: Character, lang: str) -> list[str]:
    """A character's sheet as text: equipped cards by area, spellbook, Bag, talents (the picture's twin)."""
    lines = [character_line(view, c, lang)]

    def worn_line(area: str, card: str | None, addons: list[str]) -> str:
        extra = f" + {', '.join(name(view, a, lang) for a in addons)}" if addons else ""
        return f"{area_words(c.class_id, area, lang)}: {name(view, card, lang)}{extra}"

    worn = [worn_line(area, slot.card, slot.addons) for area, slot in c.sheet.items() if slot.card or slot.addons]
    lines.append(t("wowboard.ui.sheet_equipped", lang, cards="; ".join(worn) or "—"))
    lines.append(t("wowboard.ui.sheet_spellbook", lang,
                   cards=", ".join(name(view, x, lang) for x in c.spellbook) or "—"))
    lines.append(t("wowboard.ui.sheet_bag", lang, cards=", ".join(name(view, x, lang) for x in c.bag) or "—"))
    if c.talents:
        lines.append(t("wowboard.ui.sheet_talents", lang,
                       cards=", ".join(f"{lv}: {name(view, x, lang)}" for lv, x in sorted(c.talents.items()))))
    return lines


def prompt_words(view: State, params: dict[str, Any], lang: str, hidden: str = "?") -> dict[str, Any]:
    """A decision's parameters in words (TABLE_UX "never show internal words"): the public question and
    the private panel both read them from here, so the two never name the same options differently.
    ``hidden`` is what the view writes for a card the viewer may not see."""
    out = dict(params)
    if isinstance(params.get("character"), str):
        out["character"] = name(view, view.characters[params["character"]].class_id, lang) \
            if params["character"] in view.characters else name(view, params["character"], lang)
    if params.get("card") and isinstance(params.get("character"), str):  # an optional trigger's card
        out["card"] = source_name(view, params["character"], str(params["card"]), lang)
    if isinstance(params.get("options"), str):
        out["options"] = ", ".join(option_label(view, o, lang) for o in params["options"].split(", ") if o)
        if view.pending and hidden in view.pending[0].options:  # the decision's words come from the whole
            # state; the cards a reward drew are the group's to see (spec §3.6), not the channel's
            out["options"] = t("wowboard.ui.hidden_options", lang, n=len(view.pending[0].options))
    return out
