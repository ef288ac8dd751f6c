"""Card text of World of Warcraft: The Board Game (``/wowb card``, lists, autocomplete), written from
the pack's data in the reader's language.

Spec §4.1–§4.2: a card's effects are data in a closed vocabulary and the words come from locale
templates, so English and Italian always say the same thing and always say what the engine does.
``common.wowboard_card_words`` holds the vocabulary's words (shared with the pictures); this module
puts whole cards together (class cards, items, pre-printed cards, ancestries, creatures, bosses, the
Overlord, events, quests, regions, class sheets) and finds a card by id or by the start of its name.
Pure Python, no discord: the cog and ``gm.games.wowboard.presenter`` call it.

Names are the pack's, in the reader's language (``name_it``/``title_it`` in Italian where the pack has
one, issue 26.10; ``content_cards.local_name``); every other word is localized.
A ``text_override`` (a pack's own wording for a GM-resolved oddity) is a single string with no Italian
twin in the schema: it is shown in both languages, marked as untranslated in Italian.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from common.wowboard_card_words import (
    ability_text,
    area_name,
    creature_name,
    deck,
    effects_text,
    event_op_text,
    faction,
    gist,
    region_name,
    tier,
    w,
)
from engines.wowboard.content import ClassDef, CreatureType, Pack, Region, builtin
from engines.wowboard.content_cards import (
    Ancestry,
    Boss,
    CardArea,
    ClassCard,
    Event,
    Item,
    ItemDraw,
    Overlord,
    PrePrinted,
    Quest,
    local_name,
)
from gm.games.choices import clip
from gm.games.names import Name, listing
from gm.games.names import find as names_find

LINE_MAX = 100  # Discord's limit for an autocomplete choice's name
SEP = " · "

Card = ClassCard | Item
Kind = Literal["class_card", "item", "creature", "region", "quest", "boss", "event", "overlord", "ancestry", "class",
               "preprinted"]
Thing = ClassCard | Item | CreatureType | Region | Quest | Boss | Event | Overlord | Ancestry | ClassDef | CardArea


def _pack(pack: Pack | None) -> Pack:
    """The pack that names things; the built-in one when the caller has none at hand."""
    return pack if pack is not None else builtin()


def _cap(text: str) -> str:
    """Sentence case for a piece that also works mid-sentence ("each faction draws…")."""
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------------------- class cards and items
def class_name(pack: Pack | None, class_id: str, lang: str = "en") -> str:
    for c in _pack(pack).classes:
        if c.id == class_id:
            return local_name(c, lang)
    return class_id


def unique_name(pack: Pack | None, category: str, lang: str) -> str:
    """A unique category ("Stance") in the reader's language, from the sheet that defines it."""
    if lang == "it":
        for sheet in _pack(pack).class_sheets:
            if category in sheet.unique_it:
                return sheet.unique_it[category]
    return category


def kind_word(card: ClassCard, lang: str) -> str:
    """"instant power", "talent": the type that decides where it goes and how its energy is paid."""
    return w(f"kind.{card.power_type if card.kind == 'power' else 'talent'}", lang)


def item_type(item: Item, lang: str) -> str:
    """"armor (leather), helm add-on": type icon, trait and add-on function (equipping.3, .6)."""
    text = w(f"item.{item.type}", lang)
    if item.trait and item.trait != item.type:
        text += f" ({w(f'trait.{item.trait}', lang)})"
    if item.addon:
        text += ", " + w(f"addon.{item.addon}", lang)
    return text


def _energy(card: Card, lang: str) -> str:
    """An active power pays on equip (power-cards.2), an instant on each use (power-cards.3)."""
    if not card.energy:
        return ""
    if isinstance(card, ClassCard) and card.power_type == "active":
        return w("card.energy_equip", lang, n=card.energy)
    if isinstance(card, ClassCard) and card.power_type == "instant":
        return w("card.energy_use", lang, n=card.energy)
    return w("card.energy", lang, n=card.energy)


def _rules(card: Card | PrePrinted | Ancestry, lang: str) -> list[str]:
    override = getattr(card, "text_override", None)
    if override:
        return [w("card.override", lang, text=override)]
    return effects_text(card.effects, lang)


def card_text(card: Card | PrePrinted | Ancestry, lang: str, pack: Pack | None = None) -> str:
    """The full rules text: a title line (name, type, level), a line of costs and notes (gold, energy
    and when it is paid, unique category, deck, soulbound, Bag use), then one sentence per effect —
    timing, condition, energy cost, every op with its numbers — or the pack's ``text_override``."""
    if isinstance(card, ClassCard):
        head = w("card.head", lang, name=local_name(card, lang), kind=kind_word(card, lang), level=card.level,
                 **{"class": class_name(pack, card.class_id, lang)})
        notes = [w("card.gold", lang, n=card.gold) if card.kind == "power" else "", _energy(card, lang),
                 w("card.unique", lang, name=unique_name(pack, card.unique, lang)) if card.unique else ""]
    elif isinstance(card, Item):
        head = w("item.head", lang, name=local_name(card, lang), type=item_type(card, lang), level=card.level)
        notes = [w("item.deck", lang, deck=deck(card.deck, lang)), w("card.gold", lang, n=card.gold),
                 _energy(card, lang), w("item.soulbound", lang) if card.soulbound else "",
                 w("item.bag_works", lang) if card.type == "bag" else "",
                 w("item.consumable", lang) if card.consumable else ""]
    elif isinstance(card, Ancestry):
        head, notes = w("ancestry.head", lang, name=local_name(card, lang)), []
    else:
        head = local_name(card, lang)
        notes = [w("card.energy_use", lang, n=card.energy)] if card.energy else []
    lines = [head]
    if any(notes):
        lines.append(SEP.join(n for n in notes if n))
    return "\n".join(lines + _rules(card, lang))


def card_line(card: Card, lang: str, pack: Pack | None = None) -> str:
    """One line of at most 100 characters: name · type and level · cost · what it does (clipped)."""
    level = w("line.level", lang, n=card.level)
    if isinstance(card, ClassCard):
        kind = f"{class_name(pack, card.class_id, lang)}, {kind_word(card, lang)} {level}"
        gold = card.gold if card.kind == "power" else 0
    else:
        kind, gold = f"{item_type(card, lang)} {level}", card.gold
    cost = " ".join(x for x in (w("line.gold", lang, n=gold) if gold else "",
                                w("line.energy", lang, n=card.energy) if card.energy else "") if x)
    what = card.text_override or gist(card.effects, lang)
    head = SEP.join(x for x in (clip(local_name(card, lang), 40), kind, cost) if x)
    room = LINE_MAX - len(head) - len(SEP)
    if room < 12:
        return clip(head, LINE_MAX)
    return head + SEP + clip(what, room)


# ---------------------------------------------------------------------------- creatures, bosses, the Overlord
def creature_text(creature_type: CreatureType, lang: str, pack: Pack | None = None) -> str:
    """Threat, attack and health per figure tier with the supply of each (stun-curse.2, quests.4), and
    the ability as the engine applies it."""
    c = creature_type
    lines = [w("creature.head", lang, name=local_name(c, lang), threat=c.threat)]
    order = ("green", "blue", "red")  # weakest to strongest (stun-curse.2)
    for name, (attack, health) in sorted(c.stats.items(), key=lambda kv: order.index(kv[0])):
        lines.append(w("creature.tier", lang, tier=w(f"tier.{name}", lang), attack=attack, health=health,
                       n=c.supply.get(name, 0)))
    lines.append(w("ability.label", lang, text=ability_text(c.ability, lang, _pack(pack))))
    return "\n".join(lines)


def items_reward(draws: list[ItemDraw], lang: str) -> list[str]:
    """Item icons (quest-rewards.5): one card, or draw several and keep one."""
    return [w("reward.item_one", lang, deck=deck(d.deck, lang)) if d.draw == 1
            else w("reward.item_draw", lang, n=d.draw, deck=deck(d.deck, lang)) for d in draws]


def boss_text(boss: Boss, lang: str, pack: Pack | None = None) -> str:
    """An event boss (events.5): its values, its ability and what each survivor earns."""
    lines = [w("boss.head", lang, name=local_name(boss, lang), threat=boss.threat, attack=boss.attack,
               health=boss.health),
             w("ability.label", lang, text=ability_text(boss.ability, lang, _pack(pack)))]
    reward = ", ".join([w("boss.reward", lang, gold=boss.reward.gold_each), *items_reward(boss.reward.items, lang)])
    return "\n".join([*lines, reward + "."])


def overlord_text(overlord: Overlord, lang: str, pack: Pack | None = None) -> str:
    """Both sides (overlord.2: 4 or 6 characters), the ability, and the wandering route by region name
    (overlord.3, §4.8) with the wounds it deals where it stops."""
    p = _pack(pack)
    o = overlord
    lines = [w("overlord.head", lang, name=local_name(o, lang))]
    for side, s in sorted(o.sides.items()):
        lines.append(w("overlord.side", lang, n=side, threat=s.threat, attack=s.attack, health=s.health))
    lines.append(w("ability.label", lang, text=ability_text(o.ability, lang, p)))
    lines.append(w("overlord.start", lang, region=region_name(p, o.route[0], lang)))
    if o.behaviour == "wander":
        route = " → ".join(region_name(p, r, lang) for r in o.route)
        lines.append(w("overlord.wander", lang, route=route, loop=region_name(p, o.route[o.loop_from], lang)))
        if o.arrival_wounds:
            lines.append(w("overlord.arrival", lang, n=o.arrival_wounds))
    elif o.decrees:  # overlord.3: its own event cards join the deck in its games (setup.8)
        titles = ", ".join(local_name(d, lang) for d in o.decrees)
        lines.append(w("overlord.decrees", lang, n=len(o.decrees), titles=titles))
    else:
        lines.append(w("overlord.static", lang))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- events, quests, regions
def event_text(event_card: Event, lang: str, pack: Pack | None = None) -> str:
    """Title, kind and destiny number (events.7), what it does, and how long it stays (events.1, .5)."""
    p = _pack(pack)
    e = event_card
    lines = [w("event.head", lang, title=local_name(e, lang), kind=w(f"event_kind.{e.kind}", lang), destiny=e.destiny)]
    if e.text_override:
        lines.append(w("card.override", lang, text=e.text_override))
        return "\n".join(lines)
    if e.boss is not None:
        boss = next((b for b in p.bosses if b.id == e.boss), None)
        lines.append(_cap(w("event.boss", lang, boss=local_name(boss, lang) if boss else e.boss,
                            region=region_name(p, e.region or "", lang))) + ".")
        if boss is not None:
            lines.extend(boss_text(boss, lang, p).split("\n"))
    lines += [_cap(event_op_text(op, lang, p)) + "." for op in e.ops]
    if e.kind == "war" and len(e.war_regions) == 2:  # events.6
        lines.append(w("event.war", lang, first=region_name(p, e.war_regions[0], lang),
                       second=region_name(p, e.war_regions[1], lang), n=e.war_gold) + ".")
    if e.kind == "auction":  # events.3: the card is the item
        lines += [w("event.auction", lang), *effects_text(e.effects, lang)]
    if e.until == "quest_in_area" and e.area:
        lines.append(w("event.until_area", lang, area=area_name(p, e.area, lang)))
    if e.kind == "bonus":  # events.2: a bonus card chains into the next draw
        lines.append(w("event.bonus_note", lang))
    if any(op.who in ("stronger", "weaker") for op in e.ops):  # events.4
        lines.append(w("event.strength_note", lang))
    return "\n".join(lines)


def quest_text(quest: Quest, pack: Pack | None, lang: str) -> str:
    """Title, colour, level and faction (quests.1), the creatures it places and where (quests.3:
    independents belong to nobody), and the rewards (quest-rewards)."""
    p = _pack(pack)
    q = quest
    lines = [w("quest.head", lang, title=local_name(q, lang), colour=w(f"quest_colour.{q.colour}", lang), level=q.level,
               faction=faction(q.faction, lang))]
    spawns = [w("quest.spawn_quest" if s.role == "quest" else "quest.spawn_free", lang, count=s.count,
                tier=tier(s.tier, lang, s.count), type=creature_name(p, s.type, lang),
                region=region_name(p, s.region, lang))
              for s in q.spawns]
    lines.append(w("quest.creatures", lang, list="; ".join(spawns)))
    rewards = [w("card.gold", lang, n=q.rewards.gold), w("reward.xp", lang, n=q.rewards.xp),
               *items_reward(q.rewards.items, lang)]
    if q.rewards.special_choice:
        names = [next((local_name(i, lang) for i in p.items if i.id == sid), sid) for sid in q.rewards.special_choice]
        rewards.append(w("reward.special", lang, names=", ".join(names)))
    lines.append(w("quest.rewards", lang, list=", ".join(rewards)))
    return "\n".join(lines)


def region_text(region: Region, pack: Pack | None, lang: str) -> str:
    """The area, the features and whose they are (start/town/flight belong to one faction, graveyards
    to everyone; travel.3–4, overlord.1) and the roads out by region name (travel.1)."""
    p = _pack(pack)
    r = region
    lines = [w("region.head", lang, name=local_name(r, lang), area=area_name(p, r.area, lang))]
    features = [w(f"region.{key}", lang, faction=faction(owner, lang))
                for key, owner in (("start", r.start), ("town", r.town), ("flight", r.flight)) if owner]
    if r.graveyard:
        features.append(w("region.graveyard", lang))
    if features:
        lines.append(_cap(SEP.join(features)))
    if r.adjacent:
        lines.append(w("region.roads", lang, names=", ".join(region_name(p, a, lang) for a in r.adjacent)))
    return "\n".join(lines)


def area_accepts(area: CardArea, lang: str) -> str:
    """What a sheet area takes: card types, and the item traits when it is not "All" (equipping.3)."""
    accepts = ", ".join(w(f"kind.{a}" if a in ("instant", "active", "stance") else f"item.{a}", lang)
                        for a in area.accepts)
    if area.traits and area.traits != area.accepts:  # a wand area takes wand items: said once
        accepts += " (" + ", ".join(w(f"trait.{x}", lang) for x in area.traits) + ")"
    return accepts


def preprinted_text(area: CardArea, lang: str) -> str:
    """A card printed on a sheet area (equipping.1): in play while the area is uncovered."""
    card = area.preprinted
    if card is None:
        return area_accepts(area, lang)
    lines = [w("preprinted.head", lang, name=local_name(card, lang), area=area_accepts(area, lang))]
    if card.energy:
        lines.append(w("card.energy_use", lang, n=card.energy))
    return "\n".join(lines + _rules(card, lang))


def class_text(cls: ClassDef, pack: Pack | None, lang: str) -> str:
    """A class sheet: health and energy by level (health-energy.1), its seven areas with what they take
    and their pre-printed cards (equipping.1), its unique categories."""
    p = _pack(pack)
    lines = [w("class.head", lang, name=local_name(cls, lang)),
             w("class.levels", lang, health="/".join(map(str, cls.health)), energy="/".join(map(str, cls.energy)))]
    sheet = next((s for s in p.class_sheets if s.class_id == cls.id), None)
    if sheet is None:
        return "\n".join(lines)
    for n, area in enumerate(sheet.areas, 1):
        text = w("class.area", lang, n=n, accepts=area_accepts(area, lang))
        if area.preprinted is not None:
            printed = area.preprinted
            cost = f" ({w('card.energy_use', lang, n=printed.energy)})" if printed.energy else ""
            name = local_name(printed, lang) + cost
            text += "; " + w("class.printed", lang, text=f"{name} — " + " ".join(_rules(printed, lang)))
        lines.append(text)
    if sheet.unique:
        lines.append(w("card.unique", lang, name=", ".join(unique_name(p, u, lang) for u in sheet.unique)))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- finding things by name
@dataclass(frozen=True)
class Found:
    """One thing ``/wowb card <name>`` can show: its kind, id, printed names and the pack object."""

    kind: Kind
    id: str
    name: str
    obj: Thing
    name_it: str = ""

    def label(self, lang: str) -> str:
        """The name in the reader's language."""
        return self.name_it if lang == "it" and self.name_it else self.name


def _found(kind: Kind, ident: str, thing: Thing | PrePrinted) -> tuple[Kind, str, str, str]:
    return kind, ident, local_name(thing, "en"), local_name(thing, "it")


def catalogue(pack: Pack) -> list[Found]:
    """Everything with a name, in a stable order (cards first: they are what players look up most)."""
    out: list[tuple[Kind, str, str, str, Thing]] = []
    groups: list[tuple[Kind, list[Any]]] = [
        ("class_card", pack.class_cards), ("item", pack.items), ("creature", pack.creatures), ("boss", pack.bosses),
        ("overlord", pack.overlords), ("event", pack.events), ("quest", pack.quests), ("region", pack.regions),
        ("ancestry", pack.ancestries), ("class", pack.classes)]
    for kind, things in groups:
        out += [(*_found(kind, x.id, x), x) for x in things]
    out += [(*_found("preprinted", f"{s.class_id}:{a.id}", a.preprinted), a) for s in pack.class_sheets
            for a in s.areas if a.preprinted is not None]
    return [Found(kind, ident, en, thing, it) for kind, ident, en, it, thing in out]


def _spellings(found: Found) -> tuple[str, ...]:
    """What a player may type for a thing: its id, both names, and both without apostrophes ("bellkeepers")."""
    names = (found.name, found.name_it)
    return (found.id, *names, *(n.replace("'", "").replace("\u2019", "") for n in names if n))


def find(pack: Pack, name: str, lang: str = "en") -> list[Found]:
    """Things ``name`` names, by the shared resolver (``gm.games.names.find``, issue 26.1): an id or a name
    in either language, a prefix, a later word, a piece of a word, a close typo; every thing that fits
    at the best of those tiers. Case, accents, ``-``/``_`` and spacing do not matter."""
    items = catalogue(pack)
    named = [Name(str(i), f.label(lang), _spellings(f)) for i, f in enumerate(items)]
    _tier, hits = names_find(name, named)
    return [items[int(hit.value)] for hit in hits]


def candidates(pack: Pack, lang: str) -> str:
    """The names a miss lists (``gm.games.names.listing``: the first ones, then how many more)."""
    return listing(Name(f.id, f.label(lang)) for f in catalogue(pack))


def found_text(found: Found, pack: Pack, lang: str) -> str:
    """The full text of whatever ``find`` returned."""
    obj = found.obj
    if isinstance(obj, ClassCard | Item | Ancestry):
        return card_text(obj, lang, pack)
    if isinstance(obj, CreatureType):
        return creature_text(obj, lang, pack)
    if isinstance(obj, Boss):
        return boss_text(obj, lang, pack)
    if isinstance(obj, Overlord):
        return overlord_text(obj, lang, pack)
    if isinstance(obj, Event):
        return event_text(obj, lang, pack)
    if isinstance(obj, Quest):
        return quest_text(obj, pack, lang)
    if isinstance(obj, Region):
        return region_text(obj, pack, lang)
    if isinstance(obj, CardArea):
        return preprinted_text(obj, lang)
    return class_text(obj, pack, lang)


def found_line(found: Found, pack: Pack, lang: str) -> str:
    """One ≤ 100-character line for autocomplete: a card's ``card_line``, else name · kind."""
    if isinstance(found.obj, ClassCard | Item):
        return card_line(found.obj, lang, pack)
    return clip(f"{found.label(lang)}{SEP}{w(f'found.{found.kind}', lang)}", LINE_MAX)
