"""World of Warcraft: The Board Game content: the "Embervale" pack (spec §4), as data.

The map (28 regions in 7 areas, 46 roads, towns, flight paths, start regions, graveyards and drawing
coordinates), the P1 creature types, the class level tables, the turn track and the XP track live here;
the cards (class sheets and decks, ancestries, items, quests, bosses, events, the Overlord) are
``content_cards``. Everything is validated with pydantic and checked for consistency (every road runs
both ways, every reference exists, quests fit the figure supply), so a broken pack is refused whole
with the field that is wrong. The checks that read the whole pack (``check_cards``) live here, above the
card schemas they read.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core.errors import RuleError
from engines.core.packs import compact_size, find_by_id, read_pack_file, validate_pack
from engines.wowboard.content_cards import (
    ABILITY_PARAMS,
    TRIGGER_OPS,
    TRIGGER_TIMINGS,
    Ancestry,
    Boss,
    ClassCard,
    ClassSheet,
    Event,
    Item,
    Overlord,
    Quest,
)

Faction = Literal["horde", "alliance"]
Tier = Literal["green", "blue", "red"]
FACTIONS: tuple[Faction, Faction] = ("horde", "alliance")
MAX_PACK_BYTES = 1_000_000  # spec §3.1: this system's packs are large (class decks, quests, items, events)


def enemy_of(faction: Faction) -> Faction:
    return "alliance" if faction == "horde" else "horde"


class Region(BaseModel):
    """A region of the map (travel, rest, overlord): features belong to a faction (its town, its flight
    path, its start region) and only that faction may use them; graveyards serve everyone."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)  # issue 26.10: optional, ``local_name`` falls back to name
    area: str = Field(min_length=1, max_length=4)
    x: int = Field(ge=0, le=20)
    y: int = Field(ge=0, le=20)
    start: Faction | None = None
    town: Faction | None = None
    flight: Faction | None = None
    graveyard: bool = False
    adjacent: list[str] = Field(default_factory=list, max_length=12)


class CreatureType(BaseModel):
    """A creature type (stun-curse.2): one threat for the type, attack and health per figure tier, a
    finite supply per tier (quests.4) and one ability in the engine's vocabulary (spec §4.2)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)  # issue 26.10: optional, ``local_name`` falls back to name
    supply: dict[Tier, int]
    threat: int = Field(ge=1, le=9)
    stats: dict[Tier, tuple[int, int]]  # tier -> (attack, health)
    ability: dict[str, dict[str, Any]] = Field(default_factory=dict)


class ClassDef(BaseModel):
    """A class's health and energy capacity by level 1–5 (health-energy.1), and the faction it is locked to,
    if any (setup.3: such a class has one sheet face and always joins that faction)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)  # issue 26.10: optional, ``local_name`` falls back to name
    faction: Faction | None = None  # setup.3: a faction-locked class (P2)
    health: list[int] = Field(min_length=5, max_length=5)
    energy: list[int] = Field(min_length=5, max_length=5)


class TrackDef(BaseModel):
    """The turn track (end-of-faction-turn.2–3): spaces 1..N then End; event and item icons."""

    model_config = ConfigDict(extra="forbid")
    spaces: int = Field(ge=2, le=60)
    events: list[int] = Field(default_factory=list)
    items: dict[int, Literal["triangle", "square", "circle"]] = Field(default_factory=dict)


class Pack(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    version: int = 1
    areas: dict[str, str]
    areas_it: dict[str, str] = Field(default_factory=dict, max_length=20)  # an area's Italian name (optional)
    regions: list[Region] = Field(max_length=80)
    creatures: list[CreatureType] = Field(default_factory=list, max_length=40)
    classes: list[ClassDef] = Field(default_factory=list, max_length=20)
    track: TrackDef
    xp_levels: list[int] = Field(min_length=4, max_length=4)  # XP spaces of levels 2, 3, 4 and 5 (levels.2)
    # the cards (content_cards.py; spec §4.3-§4.8)
    class_sheets: list[ClassSheet] = Field(default_factory=list, max_length=20)
    ancestries: list[Ancestry] = Field(default_factory=list, max_length=12)
    class_cards: list[ClassCard] = Field(default_factory=list, max_length=400)
    items: list[Item] = Field(default_factory=list, max_length=200)
    quests: list[Quest] = Field(default_factory=list, max_length=200)  # built-in ×5 (38 each) fits, issue 28.5
    bosses: list[Boss] = Field(default_factory=list, max_length=20)
    events: list[Event] = Field(default_factory=list, max_length=80)
    overlords: list[Overlord] = Field(default_factory=list, max_length=6)

    @model_validator(mode="after")
    def _decrees_join_the_events(self) -> Pack:
        """overlord.3, setup.8: an Overlord's own cards are event cards like any other (drawn, resolved, named
        by id), so they join ``events`` here, marked with their Overlord; the set-up shuffles them in only when
        that Overlord rules. A card already listed (a pack read back from its own dump) is not added twice."""
        known = {e.id: e for e in self.events}
        for lord in self.overlords:
            for card in lord.decrees:
                if card.id not in known:
                    self.events.append(card)
                    known[card.id] = card
                elif known[card.id] != card:
                    raise ValueError(f"event {card.id} is listed twice with different text")
        return self

    def region(self, rid: str) -> Region:
        return find_by_id(self.regions, rid, "wowboard.err.unknown_region", "name")

    def start_of(self, faction: Faction) -> Region:
        return next(r for r in self.regions if r.start == faction)


DATA = Path(__file__).resolve().parent / "data" / "builtin_v1.json"
DATA_FULL = Path(__file__).resolve().parent / "data" / "builtin_v2.json"
"""The full base game's classes and ancestries (issue 30 items 1 and 8): v1 plus the two faction-locked
classes, the Hexer and the eight ancestries. v1 stays the starter set that two-seat tables play by default."""


@lru_cache(maxsize=1)
def builtin() -> Pack:
    """The shipped pack; ``builtin_v1.json`` is never changed once released (new balance = a new file)."""
    return read_pack_file(DATA, load_pack)


@lru_cache(maxsize=1)
def builtin_full() -> Pack:
    """The shipped full pack (``builtin_v2.json``), never changed once released either."""
    return read_pack_file(DATA_FULL, load_pack)


BUILTIN_KEY = "builtin@1"
BUILTIN_FULL_KEY = "builtin@2"
_SERVER_PACKS: dict[str, Pack] = {}
"""Server packs met by this process, by key (``<id>#<hash>``). Why a registry: a game's state names its
pack by key instead of carrying ~45 KB of cards in every saved position; the table layer hands the pack
to the engine whenever it loads a game that uses one (``WowBoardEngine.use_content``)."""
_LIST_KEYS = {"class_sheets": "class_id"}  # the field that identifies an entry of each list (default ``id``)


def over_builtin(data: Any) -> dict[str, Any]:
    """A server pack laid over the built-in one: an entry with a built-in id replaces it, a new id is added,
    ``areas`` merge, any other field given replaces the built-in value. A server adds quests or items
    without copying the map."""
    if not isinstance(data, dict):
        raise RuleError("wowboard.err.pack_invalid", field="pack", error="not an object")
    base: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    for key, value in data.items():
        if key == "name":
            continue  # the file's own title; the pack is stored under the command's name
        if isinstance(value, list) and isinstance(base.get(key), list) and all(isinstance(v, dict) for v in value):
            field = _LIST_KEYS.get(key, "id")
            index = {item.get(field): i for i, item in enumerate(base[key]) if isinstance(item, dict)}
            for item in value:
                where = index.get(item.get(field)) if isinstance(item, dict) else None
                if where is None:
                    base[key].append(item)
                else:
                    base[key][where] = item
        elif key in ("areas", "areas_it") and isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key].update(value)
        else:
            base[key] = value
    return base


def checked_server_pack(data: Any) -> Pack:
    """A server pack as ``/wowb-admin pack`` imports it: over the built-in pack, checked whole (module
    level: the import runs it in a budgeted child process, ``gm.packs.reading.read_pack``). The upload
    itself is held to ``MAX_PACK_BYTES``; the merged pack may be as large as the upload and the built-in
    pack together, so an upload within its limit is never refused for what it was merged with."""
    if isinstance(data, dict) and (size := compact_size(data)) > MAX_PACK_BYTES:
        raise RuleError("wowboard.err.pack_too_big", size=size, limit=MAX_PACK_BYTES)
    merged = over_builtin(data)
    return load_pack(merged, max_bytes=MAX_PACK_BYTES + compact_size(json.loads(DATA.read_text(encoding="utf-8"))))


class ServerUpload(BaseModel):
    """A server pack as uploaded (only what the server changes), kept as is once the merged pack checks out:
    what is stored stays small and re-merges over the built-in pack the same way every time."""

    model_config = ConfigDict(extra="allow")


def checked_upload(data: Any) -> ServerUpload:
    """``/wowb-admin pack``'s check (module level: it runs in the budgeted child process)."""
    checked_server_pack(data)
    return ServerUpload.model_validate(data)


def changed_entries(pack: Pack) -> int:
    """How many entries of a (merged) server pack are new or differ from the built-in pack's."""
    base = builtin().model_dump(mode="json")
    mine = pack.model_dump(mode="json")
    changed = 0
    for key, entries in mine.items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            continue
        field = _LIST_KEYS.get(key, "id")
        known = {e.get(field): e for e in base.get(key, [])}
        changed += sum(1 for e in entries if known.get(e.get(field)) != e)
    return changed


def pack_key(data: Any) -> str:
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
    pack_id = str(data.get("id", "server")) if isinstance(data, dict) else "server"
    return f"{pack_id[:40]}#{digest[:12]}"


def register_pack(data: Any) -> str:
    """Validate a server pack (over the built-in one) and remember it by key; the key names it in states."""
    key = pack_key(data)
    if key not in _SERVER_PACKS:
        _SERVER_PACKS[key] = checked_server_pack(data)
    return key


def server_pack_keys() -> list[str]:
    return list(_SERVER_PACKS)


def pack_by_key(key: str) -> Pack:
    """The pack a state names. A key this process has not met falls back to the latest pack registered
    with the same id (a server that re-imported its pack mid-game keeps playing, on the new cards)."""
    if key == BUILTIN_KEY:
        return builtin()
    if key == BUILTIN_FULL_KEY:
        return builtin_full()
    found = _SERVER_PACKS.get(key)
    if found is None:
        same = [k for k in _SERVER_PACKS if k.split("#")[0] == key.split("#")[0]]
        if not same:
            raise RuleError("wowboard.err.pack_not_loaded", name=key.split("#")[0])
        found = _SERVER_PACKS[same[-1]]
    return found


def load_pack(data: Any, max_bytes: int = MAX_PACK_BYTES) -> Pack:
    """A validated pack whose map is consistent: known neighbours, two-way roads, one start per faction,
    known areas, creature stats for every tier with a supply; then its cards (``check_cards``)."""
    pack = validate_pack(Pack, data, "wowboard", max_bytes)
    ids = {r.id for r in pack.regions}
    by_id = {r.id: r for r in pack.regions}
    for r in pack.regions:
        if r.area not in pack.areas:
            raise RuleError("wowboard.err.pack_map", region=r.id, problem=f"area {r.area}")
        for n in r.adjacent:
            if n not in ids:
                raise RuleError("wowboard.err.pack_map", region=r.id, problem=f"unknown neighbour {n}")
            if r.id not in by_id[n].adjacent:
                raise RuleError("wowboard.err.pack_map", region=r.id, problem=f"one-way road to {n}")
    for faction in FACTIONS:
        if sum(r.start == faction for r in pack.regions) != 1:
            raise RuleError("wowboard.err.pack_map", region="-", problem=f"{faction} needs one start region")
    for c in pack.creatures:
        if set(c.supply) != set(c.stats):
            raise RuleError("wowboard.err.pack_map", region=c.id, problem="stats and supply name other tiers")
    check_cards(pack)
    return pack


# --- checks against the whole pack -------------------------------------------------------------------------------
def _fail(field: str, problem: str) -> RuleError:
    return RuleError("wowboard.err.pack_content", field=field, problem=problem)


def _ref(field: str, kind: str, name: str, ids: set[str]) -> None:
    if name not in ids:
        raise RuleError("wowboard.err.pack_ref", field=field, kind=kind, name=name, known=", ".join(sorted(ids)))


def check_ability(field: str, ability: dict[str, dict[str, Any]], creature_ids: set[str]) -> None:
    """One known keyword with exactly its parameters (stun-curse.1)."""
    for word, params in ability.items():
        if word not in ABILITY_PARAMS:
            _ref(f"{field}.ability", "ability", word, set(ABILITY_PARAMS))
        if set(params) != ABILITY_PARAMS[word]:
            raise _fail(f"{field}.ability.{word}", f"takes {', '.join(sorted(ABILITY_PARAMS[word])) or 'nothing'}")
        if word == "summon":
            _ref(f"{field}.ability.summon.type", "creature", str(params["type"]), creature_ids)


def _check_triggers(pack: Pack) -> None:
    """card-limits.8, combat-general.4: an effect at the start or end of the reroll step acts on the rolled
    dice (``rules_spot``), where only these ops mean something; anything else would be silently skipped."""
    groups: list[tuple[str, list[Any]]] = [(f"class_cards.{c.id}", c.effects) for c in pack.class_cards]
    groups += [(f"items.{i.id}", i.effects) for i in pack.items]
    groups += [(f"ancestries.{a.id}", a.effects) for a in pack.ancestries]
    groups += [(f"events.{e.id}", e.effects) for e in pack.events]
    groups += [(f"class_sheets.{s.class_id}.{a.id}", a.preprinted.effects) for s in pack.class_sheets
               for a in s.areas if a.preprinted is not None]
    for field, effects in groups:
        for n, effect in enumerate(effects):
            if effect.timing in TRIGGER_TIMINGS and not {o.op for o in effect.ops} <= set(TRIGGER_OPS):
                raise _fail(f"{field}.effects.{n}", f"at {effect.timing} an effect does only {', '.join(TRIGGER_OPS)}")


def check_cards(pack: Pack) -> None:
    """Every reference resolves and every card fits its class sheet; a quest never needs more figures of a
    type/tier than the supply holds (quests.4), spawns avoid start regions (nobody could reach them), the
    Overlord's route runs along roads and stays out of start regions (overlord.1, §4.8)."""
    regions = {r.id: r for r in pack.regions}
    starts = {r.id for r in pack.regions if r.start}
    creatures = {c.id: c for c in pack.creatures}
    _check_triggers(pack)
    classes = {c.id for c in pack.classes}
    items = {i.id: i for i in pack.items}
    all_ids = [x.id for group in (pack.class_cards, pack.items, pack.quests, pack.events, pack.bosses,
                                  pack.overlords, pack.ancestries) for x in group]
    dup = [i for i, n in Counter(all_ids).items() if n > 1]
    if dup:
        raise _fail(dup[0], "the same id twice")
    for c in pack.creatures:
        check_ability(f"creatures.{c.id}", c.ability, set(creatures))
    sheets = {s.class_id: s for s in pack.class_sheets}
    if len(sheets) != len(pack.class_sheets):
        raise _fail("class_sheets", "two sheets for one class")
    for cid in classes - set(sheets):
        raise _fail(f"class_sheets.{cid}", "missing")
    ancestries = {a.id for a in pack.ancestries}
    locked = {c.id: c.faction for c in pack.classes}
    for s in pack.class_sheets:
        _ref(f"class_sheets.{s.class_id}", "class", s.class_id, classes)
        lock = locked[s.class_id]
        if set(s.faces) != ({lock} if lock else set(FACTIONS)):  # setup.3: a locked class has its faction's face
            raise _fail(f"class_sheets.{s.class_id}.faces", f"needs the faces {lock or 'horde and alliance'}")
        for faction, face in s.faces.items():
            _ref(f"class_sheets.{s.class_id}.faces.{faction}.ancestry", "ancestry", face.ancestry, ancestries)
    for card in pack.class_cards:
        field = f"class_cards.{card.id}"
        _ref(f"{field}.class_id", "class", card.class_id, classes)
        sheet = sheets[card.class_id]
        if card.unique is not None and card.unique not in sheet.unique:
            _ref(f"{field}.unique", "unique category", card.unique, set(sheet.unique))
        if card.power_type and not any(card.power_type in a.accepts for a in sheet.areas):
            raise _fail(f"{field}.power_type", f"the {card.class_id} sheet has no {card.power_type} area")
        if card.companion_health is not None and card.unique != sheet.companion:
            raise _fail(f"{field}.companion_health", "only the class's companion category has health")
    decks = {i.deck for i in pack.items}
    for q in pack.quests:
        field = f"quests.{q.id}"
        need: Counter[tuple[str, str]] = Counter()
        for n, s in enumerate(q.spawns):
            _ref(f"{field}.spawns.{n}.type", "creature", s.type, set(creatures))
            _ref(f"{field}.spawns.{n}.region", "region", s.region, set(regions))
            if s.region in starts:
                raise _fail(f"{field}.spawns.{n}.region", "creatures never stand in a start region")
            need[(s.type, s.tier)] += s.count
        for (kind, tier), n in need.items():
            if n > creatures[kind].supply.get(tier, 0):
                raise _fail(f"{field}.spawns", f"needs {n} {tier} {kind}, the supply has "
                            f"{creatures[kind].supply.get(tier, 0)}")
        for n, d in enumerate(q.rewards.items):
            if d.deck not in decks:
                raise _fail(f"{field}.rewards.items.{n}.deck", f"the pack has no {d.deck} items")
        for sid in q.rewards.special_choice:
            _ref(f"{field}.rewards.special_choice", "special item", sid,
                 {i for i, it in items.items() if it.deck == "special"})
    bosses = {b.id for b in pack.bosses}
    for b in pack.bosses:
        check_ability(f"bosses.{b.id}", b.ability, set(creatures))
    for ev in pack.events:
        field = f"events.{ev.id}"
        if ev.boss is not None:
            _ref(f"{field}.boss", "boss", ev.boss, bosses)
        if ev.overlord is not None:  # setup.8: the card of an Overlord this pack has
            _ref(f"{field}.overlord", "overlord", ev.overlord, {o.id for o in pack.overlords})
        for name, value in (("region", ev.region), ("area", ev.area)):
            if value is not None:
                _ref(f"{field}.{name}", name, value, set(regions) if name == "region" else set(pack.areas))
        for n, rid in enumerate(ev.war_regions):  # events.6: an enemy could never stand in a start region
            _ref(f"{field}.war_regions.{n}", "region", rid, set(regions))
            if rid in starts:
                raise _fail(f"{field}.war_regions.{n}", "a war is never fought in a start region")
        for n, op in enumerate(ev.ops):
            if op.type is not None:
                _ref(f"{field}.ops.{n}.type", "creature", op.type, set(creatures))
                if (op.count or 0) > creatures[op.type].supply.get(op.tier or "", 0):
                    raise _fail(f"{field}.ops.{n}.count", "more figures than the supply")
            if op.region is not None:
                _ref(f"{field}.ops.{n}.region", "region", op.region, set(regions))
            if op.to is not None and op.region is not None:  # travel.6: a road that exists on the map
                _ref(f"{field}.ops.{n}.to", "region", op.to, set(regions))
                if op.to not in regions[op.region].adjacent:
                    raise _fail(f"{field}.ops.{n}.to", f"no road from {op.region} to {op.to}")
            if op.area is not None:
                _ref(f"{field}.ops.{n}.area", "area", op.area, set(pack.areas))
    for o in pack.overlords:
        check_ability(f"overlords.{o.id}", o.ability, set(creatures))
        for n, rid in enumerate(o.route):
            _ref(f"overlords.{o.id}.route.{n}", "region", rid, set(regions))
            if rid in starts:
                raise _fail(f"overlords.{o.id}.route.{n}", "the Overlord never enters a start region")
        hops = list(zip(o.route, o.route[1:], strict=False))
        for n, (a, b) in enumerate(hops):
            if b not in regions[a].adjacent:
                raise _fail(f"overlords.{o.id}.route.{n + 1}", f"no road from {a} to {b}")
        if o.behaviour == "wander" and o.route[o.loop_from] not in regions[o.route[-1]].adjacent:
            raise _fail(f"overlords.{o.id}.loop_from", f"no road from {o.route[-1]} back to {o.route[o.loop_from]}")
