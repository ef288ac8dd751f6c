"""The character sheet (health-energy, equipping, power-cards, card-limits): areas, capacity, equip and
unequip in the management step, talents on level gain, and the effects a character has in play.

Everything here is a pure function over ``State``. Each ``check_*`` raises the ``RuleError`` a player
would see and changes nothing, so ``legal_actions`` can filter candidates through the very same checks
the action uses; each ``do_*`` calls its check first and returns events.

Where a card lives (power-cards.5, items.3): an unbought class card in ``state.class_decks``; a bought
power in the Spellbook or on one sheet area; an item in the Bag, on one area as its normal card, or on
one area as an add-on. A slot with ``card=None`` shows its pre-printed card, which counts as equipped
until covered (equipping.1). The Bag may hold a fourth item only for as long as the owner takes to
answer the overflow (items.3): equipping and unequipping report it with the event ``bag_overflow`` and
the engine opens that decision (``rules_items.resolve_overflow`` answers it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Ancestry, CardArea, ClassCard, ClassSheet, Effect, Item
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_conditions import holds
from engines.wowboard.state import Character, Slot, State

BAG_LIMIT = 3  # items.3
MAX_TALENTS = 4  # power-cards.6: one per level 2-5
POWER_AREAS = ("instant", "active", "stance")  # area types that hold powers (a pre-printed one is a power)

SourceKind = Literal["power", "talent", "item", "preprinted", "ancestry"]


@dataclass(frozen=True)
class ActiveEffect:
    """One effect a character has in play, with what combat needs to use it: the source id for the
    once-per-round bookkeeping (card-limits.4, ``pre:<area>`` for a pre-printed card) and the printed
    energy an instant pays on each use (power-cards.3; 0 for everything else, an active power paid it
    when it was equipped, power-cards.2)."""

    source: str
    kind: SourceKind
    power_type: str | None
    energy: int
    effect: Effect


# --- look-ups ------------------------------------------------------------------------------------------------------
def sheet_of(pack: Pack, class_id: str) -> ClassSheet:
    return next(s for s in pack.class_sheets if s.class_id == class_id)


def card_of(pack: Pack, card: str) -> ClassCard | Item:
    """A class card or an item by id; ids are unique across the pack (content check)."""
    for c in pack.class_cards:
        if c.id == card:
            return c
    for i in pack.items:
        if i.id == card:
            return i
    raise RuleError("wowboard.err.unknown_card", name=card)


def ancestry_of(pack: Pack, c: Character) -> Ancestry:
    """health-energy.4: the ancestry printed on the sheet face of the character's faction."""
    aid = sheet_of(pack, c.class_id).faces[c.faction].ancestry
    return next(a for a in pack.ancestries if a.id == aid)


def area_of(pack: Pack, c: Character, area: str) -> CardArea:
    areas = sheet_of(pack, c.class_id).areas
    for a in areas:
        if a.id == area:
            return a
    raise RuleError("wowboard.err.unknown_area", rule="equipping.1", area=area,
                    known=", ".join(a.id for a in areas))


def located(c: Character, card: str) -> tuple[str, str | None]:
    """Where one of the character's cards lies: ("spellbook"|"bag", None), ("area"|"addon", area id) or
    ("none", None)."""
    if card in c.spellbook:
        return "spellbook", None
    if card in c.bag:
        return "bag", None
    for aid, slot in c.sheet.items():
        if slot.card == card:
            return "area", aid
        if card in slot.addons:
            return "addon", aid
    return "none", None


# --- set-up --------------------------------------------------------------------------------------------------------
def new_sheet(pack: Pack, class_id: str) -> dict[str, Slot]:
    """equipping.1: every area present and uncovered, so each pre-printed card is active from the start."""
    return {a.id: Slot() for a in sheet_of(pack, class_id).areas}


def new_class_deck(pack: Pack, class_id: str) -> list[str]:
    """power-cards.1: the class's powers and talents, all unbought (public, so order is irrelevant)."""
    return [c.id for c in pack.class_cards if c.class_id == class_id]


def start_character(state: State, c: Character) -> None:
    """The set-up call for a new character (setup.4): its empty sheet and its unbought class deck."""
    pack = pack_of(state)
    c.sheet = new_sheet(pack, c.class_id)
    state.class_decks[c.id] = new_class_deck(pack, c.class_id)


# --- capacity ------------------------------------------------------------------------------------------------------
def _holds(state: State, c: Character, effect: Effect) -> bool:
    """Conditions that can be judged out of combat (``rules_conditions``); any combat condition does not
    hold for a passive capacity (a capacity that flickers with the dice would make no sense)."""
    cond = effect.condition
    if cond is None:
        return True
    return cond.kind in ("level_at_least", "in_region_with") and holds(state, c, "", cond)


def capacity_of(state: State, c: Character) -> tuple[int, int]:
    """health-energy.1: the level table plus the passive ``capacity`` ops the character has in play
    (equipped cards, talents, ancestry). A ``participants`` bonus counts for its owner too (the owner is
    always among the participants); a friend's bonus in combat is combat's business."""
    cls = next(k for k in pack_of(state).classes if k.id == c.class_id)
    health, energy = cls.health[c.level - 1], cls.energy[c.level - 1]
    for a in equipped_effects(state, c, "passive"):
        if not _holds(state, c, a.effect):
            continue
        for op in a.effect.ops:
            if op.op == "capacity" and op.target in (None, "self", "participants"):
                if op.stat == "health":
                    health += op.n or 0
                else:
                    energy += op.n or 0
    return health, energy


def trim_to_capacity(state: State, c: Character) -> list[Event]:
    """health-energy.2–3: tokens above capacity go at once, except what a running "gain" allows
    (``c.overcap``, stat -> tokens above capacity, cleared by ``end_gain``) and what a finished gain left
    (``c.kept``, ``settle_kept``)."""
    max_h, max_e = capacity_of(state, c)
    lost_h = max(0, c.health - max_h - c.overcap.get("health", 0) - c.kept.get("health", 0))
    lost_e = max(0, c.energy - max_e - c.overcap.get("energy", 0) - c.kept.get("energy", 0))
    if not lost_h and not lost_e:
        return []
    c.health -= lost_h
    c.energy -= lost_e
    return [ev("trimmed", name=c.id, health=lost_h, energy=lost_e)]


def end_gain(state: State, c: Character) -> list[Event]:
    """health-energy.2, reading §6.15: the granting ability is over (end of combat, or of the action out of
    combat): the gained tokens above capacity go (not those a finished gain left: ``kept``)."""
    c.overcap = {}
    return trim_to_capacity(state, c)


def settle_kept(state: State, c: Character) -> None:
    """health-energy.2 (our reading for a gain that lands when its ability is over, Dawn Chorus at the end
    of a fight): those tokens above capacity stay on the sheet until they are lost or spent, like any token
    (the seed removes tokens only when spent, lost, or when a capacity bonus ends); a regain adds none while
    the character is at or above capacity. So ``kept`` never exceeds what is still above capacity."""
    if not c.kept:
        return
    max_h, max_e = capacity_of(state, c)
    room = {"health": max(0, c.health - max_h), "energy": max(0, c.energy - max_e)}
    c.kept = {stat: min(n, room[stat]) for stat, n in c.kept.items() if min(n, room[stat]) > 0}


# --- equip / unequip -----------------------------------------------------------------------------------------------
def managing(state: State, seat: int, ref: str) -> Character:
    """equipping.2: a character of yours, in your own faction's management step, before you confirm it."""
    c = state.characters.get(ref.strip().casefold())
    if c is None or c.seat != seat:
        raise RuleError("wowboard.err.not_your_character", rule="equipping.2", name=ref)
    if (state.phase not in ("management", "final_management") or c.faction != state.active
            or seat in state.management_done):  # victory.2: the final management step too
        raise RuleError("wowboard.err.not_management", rule="equipping.2")
    return c


def _slot_type(card: ClassCard | Item) -> str:
    return (card.power_type or "") if isinstance(card, ClassCard) else card.type


def _fits(area: CardArea, card: ClassCard | Item, c: Character) -> None:
    """equipping.3–4: the type icon, the item trait (areas without traits take "All"), the level."""
    kind = _slot_type(card)
    if kind not in area.accepts:
        rule = "equipping.4" if "stance" in (kind, *area.accepts) else "equipping.3"
        raise RuleError("wowboard.err.wrong_area", rule=rule, card=card.name, area=area.id,
                        accepts=", ".join(area.accepts))
    if isinstance(card, Item) and area.traits and card.trait not in area.traits:
        raise RuleError("wowboard.err.wrong_trait", rule="equipping.3", card=card.name, area=area.id,
                        traits=", ".join(area.traits))
    if card.level > c.level:  # items.5: stored, never equipped above the level
        raise RuleError("wowboard.err.level_too_high", rule="equipping.3", card=card.name, level=card.level,
                        have=c.level)


def check_equip(state: State, seat: int, char: str, card: str, area: str) -> Character:
    """equipping.2–6, power-cards.2: everything that can refuse an equip, without changing anything, so
    ``legal_actions`` can offer exactly the (card, area) pairs that pass."""
    c = managing(state, seat, char)
    pack = pack_of(state)
    obj = card_of(pack, card)
    where, _ = located(c, card)
    if where not in ("spellbook", "bag"):  # power-cards.5 / equipping.7: from the Spellbook or the Bag
        raise RuleError("wowboard.err.not_ready_to_equip", rule="equipping.3", name=c.id, card=obj.name)
    a = area_of(pack, c, area)
    _fits(a, obj, c)
    slot = c.sheet.setdefault(a.id, Slot())
    if isinstance(obj, Item) and obj.addon is not None:  # equipping.6
        base = card_of(pack, slot.card) if slot.card else None
        if not isinstance(base, Item) or base.addon is not None:
            raise RuleError("wowboard.err.addon_needs_item", rule="equipping.6", card=obj.name, area=a.id)
        taken = [x for x in slot.addons if getattr(card_of(pack, x), "addon", None) == obj.addon]
        if taken:
            raise RuleError("wowboard.err.addon_taken", rule="equipping.6", card=obj.name, area=a.id,
                            other=card_of(pack, taken[0]).name)
        return c
    if isinstance(obj, ClassCard):
        if obj.unique is not None:  # equipping.5: the card leaving this area does not count
            for aid, other in c.sheet.items():
                o = card_of(pack, other.card) if other.card and aid != a.id else None
                if isinstance(o, ClassCard) and o.unique == obj.unique:
                    raise RuleError("wowboard.err.unique_taken", rule="equipping.5", card=obj.name,
                                    category=obj.unique, other=o.name)
        if obj.power_type == "active" and c.energy < obj.energy:  # power-cards.2: paid now
            raise RuleError("wowboard.err.no_energy_to_equip", rule="power-cards.2", card=obj.name,
                            energy=obj.energy, have=c.energy)
    return c


def _to_store(pack: Pack, c: Character, card: str) -> None:
    """equipping.7: a power goes back to the Spellbook, an item to the Bag (which may overflow)."""
    (c.spellbook if isinstance(card_of(pack, card), ClassCard) else c.bag).append(card)


def _clear_area(pack: Pack, c: Character, area: str) -> list[str]:
    """Empty an area (equipping.3): its normal card and its add-ons (which cannot stand alone, reading)
    go back; a companion's tokens go with it (power-cards.4). The pre-printed card shows again."""
    slot = c.sheet.setdefault(area, Slot())
    freed = ([slot.card] if slot.card else []) + slot.addons
    for card in freed:
        _to_store(pack, c, card)
    c.sheet[area] = Slot()
    return freed


def _overflow(c: Character) -> list[Event]:
    return [ev("bag_overflow", name=c.id, items=", ".join(c.bag))] if len(c.bag) > BAG_LIMIT else []


def do_equip(state: State, seat: int, char: str, card: str, area: str) -> list[Event]:
    """equipping.3: the area is emptied first (its card and add-ons back to Spellbook/Bag), then the card
    goes in; an active power pays its energy now (power-cards.2), a companion gets its tokens (.4). An
    add-on is stacked instead (equipping.6). A lost capacity bonus trims at once (health-energy.3)."""
    c = check_equip(state, seat, char, card, area)
    pack = pack_of(state)
    obj = card_of(pack, card)
    (c.spellbook if card in c.spellbook else c.bag).remove(card)
    events: list[Event] = []
    if isinstance(obj, Item) and obj.addon is not None:
        c.sheet[area].addons.append(card)  # equipping.6
    else:
        covered = next((f"pre:{a.id}" for a in sheet_of(pack, c.class_id).areas if a.id == area
                        and a.preprinted is not None), None) if c.sheet[area].card is None else None
        if covered:  # equipping.1: the printed power no longer counts until this card comes off
            events.append(ev("printed_covered", name=c.id, card=covered))
        freed = _clear_area(pack, c, area)
        if freed:
            events.append(ev("unequipped", name=c.id, cards=", ".join(card_of(pack, x).name for x in freed)))
        slot = c.sheet[area]
        slot.card = card
        if isinstance(obj, ClassCard) and obj.power_type == "active":
            c.energy -= obj.energy  # power-cards.2; an instant pays on each use instead (power-cards.3)
            slot.companion_health = obj.companion_health  # power-cards.4
    events.append(ev("equipped", name=c.id, card=obj.name, area=area))
    return events + trim_to_capacity(state, c) + _overflow(c)


def check_unequip(state: State, seat: int, char: str, card: str) -> Character:
    """equipping.2, .7: only a card lying on the sheet, in the own management step."""
    c = managing(state, seat, char)
    if located(c, card)[0] not in ("area", "addon"):
        raise RuleError("wowboard.err.not_equipped", rule="equipping.7", name=c.id,
                        card=card_of(pack_of(state), card).name)
    return c


def do_unequip(state: State, seat: int, char: str, card: str) -> list[Event]:
    """equipping.7: powers to the Spellbook, items to the Bag; a fourth Bag item opens the overflow."""
    c = check_unequip(state, seat, char, card)
    return unequip(state, c, card)


def unequip(state: State, c: Character, card: str) -> list[Event]:
    """The move itself, also used by the equipping.2 exceptions (selling from the sheet in Town, defeat,
    a companion's last token) which skip the management check."""
    pack = pack_of(state)
    where, area = located(c, card)
    if area is None:
        raise RuleError("wowboard.err.not_equipped", rule="equipping.7", name=c.id, card=card_of(pack, card).name)
    if where == "addon":
        c.sheet[area].addons.remove(card)
        _to_store(pack, c, card)
        freed = [card]
    else:
        freed = _clear_area(pack, c, area)
    events = [ev("unequipped", name=c.id, cards=", ".join(card_of(pack, x).name for x in freed))]
    return events + trim_to_capacity(state, c) + _overflow(c)


# --- talents -------------------------------------------------------------------------------------------------------
def talent_options(state: State, char: str, level: int) -> list[str]:
    """power-cards.6: the unbought talents of the class with requirement ≤ the new level, if the bar of
    that level is still empty and fewer than four talents are taken (levels 2–5)."""
    c = state.characters[char]
    if not 2 <= level <= c.level or level in c.talents or len(c.talents) >= MAX_TALENTS:
        return []
    pack = pack_of(state)
    out = []
    for cid in state.class_decks.get(c.id, []):
        obj = card_of(pack, cid)
        if isinstance(obj, ClassCard) and obj.kind == "talent" and obj.level <= level:
            out.append(cid)
    return out


def check_take_talent(state: State, seat: int, char: str, card: str, level: int) -> Character:
    """power-cards.6: the answer must be one of ``talent_options`` (the decision offers exactly those)."""
    c = state.characters.get(char)
    if c is None or c.seat != seat:
        raise RuleError("wowboard.err.not_your_character", rule="power-cards.6", name=char)
    options = talent_options(state, c.id, level)
    if card not in options:
        pack = pack_of(state)
        raise RuleError("wowboard.err.talent_not_offered", rule="power-cards.6", level=level,
                        known=", ".join(card_of(pack, x).name for x in options) or "-")
    return c


def do_take_talent(state: State, seat: int, char: str, card: str, level: int) -> list[Event]:
    """power-cards.6 (decision ``talent`` of levels.3): the talent leaves the class deck for the bar of
    that level; a capacity talent raises the capacity at once (no refill here: levels.3 refills)."""
    c = check_take_talent(state, seat, char, card, level)
    state.class_decks[c.id].remove(card)
    c.talents[level] = card
    return [ev("talent_taken", name=c.id, card=card_of(pack_of(state), card).name, level=level)]


# --- effects in play -----------------------------------------------------------------------------------------------
def _effects(out: list[ActiveEffect], source: str, kind: SourceKind, power_type: str | None, energy: int,
             effects: list[Effect], timing: str | None) -> None:
    for e in effects:
        if timing is None or e.timing == timing:
            out.append(ActiveEffect(source, kind, power_type, energy, e))


def equipped_effects(state: State, char: Character | str, timing: str | None = None) -> list[ActiveEffect]:
    """card-limits.1–2: what the character has in play — equipped cards and add-ons, uncovered pre-printed
    cards, talents, the ancestry, and Bag-type items of its level straight from the Bag. Conditions are
    left to the caller (most need the dice); ``timing=None`` returns every timing."""
    c = state.characters[char] if isinstance(char, str) else char
    pack = pack_of(state)
    out: list[ActiveEffect] = []
    for area in sheet_of(pack, c.class_id).areas:
        slot = c.sheet.get(area.id, Slot())
        if slot.card is None:
            if area.preprinted is not None:  # equipping.1
                ptype = area.accepts[0] if area.accepts[0] in POWER_AREAS else None
                _effects(out, f"pre:{area.id}", "preprinted", ptype, area.preprinted.energy if ptype == "instant"
                         else 0, area.preprinted.effects, timing)
            continue
        for cid in [slot.card, *slot.addons]:
            obj = card_of(pack, cid)
            if isinstance(obj, ClassCard):
                _effects(out, cid, "power", obj.power_type, obj.energy if obj.power_type == "instant" else 0,
                         obj.effects, timing)
            else:
                _effects(out, cid, "item", None, obj.energy, obj.effects, timing)
    for cid in c.talents.values():
        _effects(out, cid, "talent", None, 0, card_of(pack, cid).effects, timing)
    anc = ancestry_of(pack, c)
    _effects(out, anc.id, "ancestry", None, 0, anc.effects, timing)
    for cid in c.auction_items:  # events.3: an auction item works from the table, with no item rules
        _effects(out, cid, "item", None, 0, next(e for e in pack.events if e.id == cid).effects, timing)
    for cid in c.bag:  # card-limits.2, items.5
        obj = card_of(pack, cid)
        if isinstance(obj, Item) and obj.type == "bag" and obj.level <= c.level:
            _effects(out, cid, "item", None, obj.energy, obj.effects, timing)
    return out


def equip_options(state: State, seat: int, char: str | None = None) -> list[tuple[str, str, str]]:
    """(character, card, area) for every equip the rules accept now (equipping.2–6), tried on a copy:
    ``check_equip`` may fill in an empty slot and must never touch the caller's state."""
    if state.phase not in ("management", "final_management"):
        return []
    pack = pack_of(state)
    out = []
    trial = state.model_copy(deep=True)
    for c in state.characters.values():
        if c.seat != seat or (char and c.id != char):
            continue
        areas = [a.id for a in sheet_of(pack, c.class_id).areas]
        for card in [*c.spellbook, *c.bag]:
            for area in areas:
                try:
                    check_equip(trial, seat, c.id, card, area)
                except RuleError:
                    continue
                out.append((c.id, card, area))
    return out
