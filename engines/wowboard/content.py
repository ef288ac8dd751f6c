"""World of Warcraft: The Board Game content: the "Embervale" pack (spec §4), as data.

The map (28 regions in 7 areas, 46 roads, towns, flight paths, start regions, graveyards and drawing
coordinates), the P1 creature types, the class level tables, the turn track and the XP track live here;
the cards (class sheets and decks, ancestries, items, quests, bosses, events, the Overlord) are
``content_cards``. Everything is validated with pydantic and checked for consistency (every road runs
both ways, every reference exists, quests fit the figure supply), so a broken pack is refused whole
with the field that is wrong.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core.errors import RuleError
from engines.core.packs import known, validate_pack
from engines.wowboard.content_cards import (
    Ancestry,
    Boss,
    ClassCard,
    ClassSheet,
    Event,
    Item,
    Overlord,
    Quest,
    check_cards,
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
    supply: dict[Tier, int]
    threat: int = Field(ge=1, le=9)
    stats: dict[Tier, tuple[int, int]]  # tier -> (attack, health)
    ability: dict[str, dict[str, Any]] = Field(default_factory=dict)


class ClassDef(BaseModel):
    """A class's health and energy capacity by level 1–5 (health-energy.1)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
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
    quests: list[Quest] = Field(default_factory=list, max_length=120)
    bosses: list[Boss] = Field(default_factory=list, max_length=20)
    events: list[Event] = Field(default_factory=list, max_length=80)
    overlords: list[Overlord] = Field(default_factory=list, max_length=6)

    def region(self, rid: str) -> Region:
        for r in self.regions:
            if r.id == rid:
                return r
        raise RuleError("wowboard.err.unknown_region", name=rid, known=known(r.id for r in self.regions))

    def start_of(self, faction: Faction) -> Region:
        return next(r for r in self.regions if r.start == faction)


DATA = Path(__file__).resolve().parent / "data" / "builtin_v1.json"


@lru_cache(maxsize=1)
def builtin() -> Pack:
    """The shipped pack; ``builtin_v1.json`` is never changed once released (new balance = a new file)."""
    return load_pack(json.loads(DATA.read_text(encoding="utf-8")))


BUILTIN_KEY = "builtin@1"
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
        elif key == "areas" and isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key].update(value)
        else:
            base[key] = value
    return base


def checked_server_pack(data: Any) -> Pack:
    """A server pack as ``/wowb-admin pack`` imports it: over the built-in pack, checked whole (module
    level: the import runs it in a budgeted child process, ``gm.content_packs.read_pack``)."""
    return load_pack(over_builtin(data))


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
    found = _SERVER_PACKS.get(key)
    if found is None:
        same = [k for k in _SERVER_PACKS if k.split("#")[0] == key.split("#")[0]]
        if not same:
            raise RuleError("wowboard.err.pack_not_loaded", name=key.split("#")[0])
        found = _SERVER_PACKS[same[-1]]
    return found


def load_pack(data: Any) -> Pack:
    """A validated pack whose map is consistent: known neighbours, two-way roads, one start per faction,
    known areas, creature stats for every tier with a supply; then its cards (``check_cards``)."""
    pack = validate_pack(Pack, data, "wowboard", MAX_PACK_BYTES)
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
