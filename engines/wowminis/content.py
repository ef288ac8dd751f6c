"""Content schemas for WoW Miniatures (characters, action cards, maps, scenario) and pack loading.

Cards and characters are data (DESIGN §9) so servers can import their own packs. The rules
engine implements a *bounded vocabulary* (``content_vocab.py``): the effect steps (``Step.op``), selectors
(``Step.who``), trigger events (``TriggerDef.on``), react conditions (``ReactWhen``) and keywords
below. A card whose text needs more is shown to players and resolved with GM overrides (103.1).

Why these shapes:
- A card *is* its ability (``ActionCardDef`` extends ``AbilityDef``): 300.4 gives each card one
  payment or react ability whose cost is the printed cost; buff/form/pet/totem cards add the
  created object's description as a payload (700.2b).
- ``physical`` is derived from the damage type when not given (A22: melee and ranged are
  physical, the six schools magic) and may be overridden per attack (600.1c).
- Every model refuses unknown keys, so a typo in a pack names its field instead of being lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core.errors import RuleError
from engines.core.packs import merge_by_id, read_pack_file, validate_pack

# re-exported: callers import the whole vocabulary from content
from engines.wowminis.content_vocab import FACTIONS as FACTIONS
from engines.wowminis.content_vocab import (
    PHYSICAL_TYPES,
    CardType,
    Category,
    DamageType,
    Duration,
    Faction,
    Keyword,
    ReactWhen,
    ReplaceOn,
    ReplaceOp,
    Selector,
    Side,
    SpawnCapture,
    Stat,
    StepOp,
    Terrain,
    TriggerOn,
)
from engines.wowminis.names_walk import named_in as named_in

DATA_DIR = Path(__file__).resolve().parent / "data"
MAX_PACK_BYTES = 512 * 1024
MAX_CHARACTERS = 200
MAX_CARDS = 400
MAX_MAPS = 30
MAX_SCENARIOS = 30



class ContentModel(BaseModel):
    """Content refuses unknown keys so pack authors see their typo named."""

    model_config = ConfigDict(extra="forbid")


class RangeDef(ContentModel):
    """405.2: distance at most ``max`` and at least ``min`` (405.2a), with clear LOS unless ``los`` is off (103.1)."""

    min: int = Field(0, ge=0, le=30)
    max: int = Field(1, ge=0, le=30)
    los: bool = True

    @model_validator(mode="after")
    def _ordered(self) -> RangeDef:
        if self.min > self.max:
            raise ValueError("range min is above max")
        return self


class TargetDef(ContentModel):
    """What an ability targets (407): ``side`` enemy/ally characters, ``self``, a ``space`` (AOE or a
    destination) or nothing; ``count`` targets, or up to ``count`` when ``up_to`` (407.1b)."""

    side: Literal["enemy", "ally", "self", "space", "none"] = "enemy"
    count: int = Field(1, ge=1, le=6)
    up_to: bool = False
    aoe: bool = False  # 407.2: a space plus a triangle orientation
    range: RangeDef = Field(default_factory=RangeDef)
    totems: bool = True  # attacks may target enemy totems (407.1a); buffs, debuffs and heals never do
    space_range: int = Field(0, ge=0, le=10)  # a destination chosen with the play (teleport/move steps)


class Modifier(ContentModel):
    """A signed stat change (104.2). ``attack_kind`` limits an attack change to physical or magic
    attacks; ``while_in`` makes it apply only while standing in that terrain (708.3a)."""

    stat: Stat
    delta: int = Field(ge=-20, le=20)
    attack_kind: Literal["any", "physical", "magic"] = "any"
    while_in: Literal["cover", "elevated"] | None = None


class Step(ContentModel):
    """One effect step, resolved in text order (706.3). Unused fields keep their defaults."""

    op: StepOp
    who: Selector = "target"
    amount: int = Field(1, ge=-20, le=20)
    radius: int = Field(1, ge=0, le=10)
    minimum: int = Field(0, ge=0, le=10)
    damage_type: DamageType | None = None  # next_attack: convert to this type (600.1c)
    only: Literal["any", "physical", "physical_ranged", "magic"] = "any"  # next_attack filter
    set_critical: bool = False  # next_attack: after rerolls set one die to a critical (105.3a)
    steps: list[Step] = Field(default_factory=list)  # nested: criticals granted, "if you do", "may"
    attack: AbilityDef | None = None  # new_attack


class TriggerDef(ContentModel):
    """A triggered ability (704.2). ``ticks`` limits tick events to shown values (A6);
    ``health_le`` is read right after the event (704.2b, E11); ``no_critical`` reads the completed
    roll (105.3b, E3); ``once_per_wave`` dedupe is by name and affected character (704.2c, A26)."""

    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    on: TriggerOn
    ticks: list[int] = Field(default_factory=list)
    steps: list[Step] = Field(min_length=1)
    health_le: int | None = None
    no_critical: bool = False


class AuraDef(ContentModel):
    """An ongoing ability (704.3) giving stat modifiers to allies around its source. ``within``
    uses range (distance and LOS, A19); ``adjacent`` needs no LOS."""

    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    who: Literal["adjacent_allies", "allies_within"] = "adjacent_allies"
    radius: int = Field(1, ge=0, le=10)
    modifiers: list[Modifier] = Field(min_length=1)


class Restriction(ContentModel):
    """202/300.2: a card fits a character matching any listed name, race, class or spec; empty = generic."""

    names: list[str] = Field(default_factory=list)
    races: list[str] = Field(default_factory=list)
    classes: list[str] = Field(default_factory=list)
    specs: list[str] = Field(default_factory=list)

    @property
    def generic(self) -> bool:
        return not (self.names or self.races or self.classes or self.specs)


class AbilityDef(ContentModel):
    """A payment or react ability (700.2): a main attack, a bottom-box or form ability, a card.

    Attacks use ``power``/``damage_type``/``pre``/``after``/``critical`` (600-602); heals use
    ``power`` as heal power and ``critical_bonus`` (402.2a); other abilities run ``steps``."""

    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    cost: int = Field(0, ge=0, le=9)
    category: Category = "action"
    type: CardType = "attack"
    target: TargetDef = Field(default_factory=TargetDef)
    power: int = Field(0, ge=0, le=12)
    damage_type: DamageType | None = None
    physical: bool | None = None
    pre: list[Step] = Field(default_factory=list)  # 600.4
    after: list[Step] = Field(default_factory=list)  # 602.3
    critical: list[Step] = Field(default_factory=list)  # 601.1c, 602.2, 602.5
    critical_bonus: int = Field(0, ge=0, le=5)  # heals: +N on a critical (402.2a)
    steps: list[Step] = Field(default_factory=list)
    when: ReactWhen | None = None  # reacts only (701.1)
    text: str = ""
    text_it: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> AbilityDef:
        if self.type == "attack" and self.damage_type is None:
            raise ValueError("an attack needs a damage_type (600.1b)")
        if self.category == "react" and self.when is None:
            raise ValueError("a react needs a when condition (701.1)")
        if self.target.aoe and self.target.side != "space":
            raise ValueError("an AOE targets a space (407.2)")
        return self

    @property
    def is_physical(self) -> bool:
        """600.1c/A22: physical xor magic; melee and ranged default to physical."""
        if self.physical is not None:
            return self.physical
        return self.damage_type in PHYSICAL_TYPES


class ReplaceDef(ContentModel):
    """709.1/709.2a: a damage replacement a buff carries, from the closed vocabulary ``ReplaceOp``.
    ``on`` says whose damage it changes: the damage this character would take or would deal. Who
    controls it (and so who orders it against the others, 709.2a) is the player who cast the buff."""

    on: ReplaceOn
    op: ReplaceOp
    amount: int = Field(1, ge=0, le=10)  # add/reduce: by how much; halve ignores it


class BuffDef(ContentModel):
    """What a buff or debuff card attaches (301): modifiers, counters (301.2e), triggers, and the
    few bounded special abilities the pack needs (103.2 prohibition, 709 replacements, 105.3)."""

    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    duration: Duration = "permanent"
    modifiers: list[Modifier] = Field(default_factory=list)
    counters: list[Modifier] = Field(default_factory=list)
    triggers: list[TriggerDef] = Field(default_factory=list)
    cant_be_attacked: bool = False  # 103.2
    prevent: int = Field(0, ge=0, le=20)  # 709: the next N damage is prevented instead
    move_teleport: int = Field(0, ge=0, le=6)  # 709.5: the natural move becomes a teleport up to N
    replace: list[ReplaceDef] = Field(default_factory=list, max_length=3)  # 709.2: damage replacements
    forced_reroll: int = Field(0, ge=0, le=3)  # 105.3: the next attack roll rerolls N successes


class FormDef(ContentModel):
    """302: the stats a form changes and the payment abilities it grants (302.3)."""

    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    modifiers: list[Modifier] = Field(default_factory=list)
    abilities: list[AbilityDef] = Field(default_factory=list)


class PetDef(ContentModel):
    """304: a pet is a character without a bar; movement 2 unless given (A5)."""

    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    race: str = "beast"
    armor: int = Field(0, ge=0, le=10)
    resist: int = Field(0, ge=0, le=10)
    health: int = Field(1, ge=1, le=30)
    movement: int = Field(2, ge=0, le=6)
    main_attack: AbilityDef
    keywords: list[Keyword] = Field(default_factory=list)


class TotemDef(ContentModel):
    """303: a token with health and optional defence dice (A24), auras and triggers."""

    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    health: int = Field(1, ge=1, le=20)
    armor: int = Field(0, ge=0, le=10)
    resist: int = Field(0, ge=0, le=10)
    auras: list[AuraDef] = Field(default_factory=list)
    triggers: list[TriggerDef] = Field(default_factory=list)


class ActionCardDef(AbilityDef):
    """202/300: an action card; its ability is the card itself, the payload describes what it creates."""

    restriction: Restriction = Field(default_factory=Restriction)
    talent_tree: str = ""
    once_per_game: bool = False  # 400.3b
    buff: BuffDef | None = None
    form: FormDef | None = None
    pet: PetDef | None = None
    totem: TotemDef | None = None

    @model_validator(mode="after")
    def _payload(self) -> ActionCardDef:
        need = {"buff": self.buff, "debuff": self.buff, "form": self.form, "pet": self.pet, "totem": self.totem}
        if self.type in need and need[self.type] is None:
            raise ValueError(f"a {self.type} card needs its {'buff' if self.type == 'debuff' else self.type} payload")
        return self


class CharacterDef(ContentModel):
    """201: a character card. Movement is not printed; it is 2 (404.1, A5)."""

    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    faction: Faction
    race: str = Field(min_length=1, max_length=40)
    char_class: str | None = None  # 201: the Monster icon is not a class
    spec: str | None = None
    honor: int = Field(ge=0, le=30)
    legendary: bool = False  # A3
    armor: int = Field(ge=0, le=10)
    resist: int = Field(ge=0, le=10)
    health: int = Field(ge=1, le=30)
    movement: int = Field(2, ge=0, le=6)
    main_attack: AbilityDef
    abilities: list[AbilityDef] = Field(default_factory=list)
    keywords: list[Keyword] = Field(default_factory=list)
    protector_reach: int = Field(1, ge=1, le=4)  # A23
    auras: list[AuraDef] = Field(default_factory=list)
    triggers: list[TriggerDef] = Field(default_factory=list)
    pool: list[str] = Field(default_factory=list)  # default action cards offered with it (A1)
    text: str = ""
    text_it: str = ""


class SpawnPoint(ContentModel):
    """406.3b: a spawn point of side A, side B or neutral (A33)."""

    at: str
    side: Side


class MapDef(ContentModel):
    """A hex map (flat-top, odd-q labels, A1 top left): terrain, spawn points and VP locations."""

    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    columns: int = Field(ge=4, le=30)
    rows: int = Field(ge=4, le=30)
    holes: list[str] = Field(default_factory=list)  # hexes that are not spaces (A20)
    terrain: dict[str, Terrain] = Field(default_factory=dict)
    spawn_points: list[SpawnPoint] = Field(min_length=2)
    vp_locations: list[str] = Field(default_factory=list)




class ScenarioDef(ContentModel):
    """100.1/102/403.2: the scenario's party rules and scoring; the standard Battleground by default.

    A scenario is data in the pack (``Pack.scenarios``), picked in the lobby with ``scenario:<id>``
    and copied into the game, so a saved game keeps the rules it started with. ``map`` and
    ``honor_goal`` are defaults the lobby's own ``map``/``goal`` options still override."""

    id: str = Field("standard", min_length=1, max_length=40)
    name: str = Field("Battleground", min_length=1, max_length=60)
    name_it: str = Field("", max_length=60)  # issue 26: the Italian name; "" reads ``name``
    text: str = Field("", max_length=300)
    text_it: str = Field("", max_length=300)
    map: str | None = None
    party_size: int = Field(3, ge=1, le=6)
    same_faction: bool = True
    pool_per_char: int = Field(3, ge=1, le=6)
    bar_per_char: int = Field(2, ge=0, le=4)
    one_legendary: bool = True  # A3
    vp_kill: int = Field(4, ge=0, le=20)
    vp_kill_legendary: int = Field(8, ge=0, le=40)
    vp_location_ticks: list[int] = Field(default_factory=lambda: [5, 10])
    vp_location_points: int = Field(1, ge=0, le=5)
    respawn: bool = True  # 403.1: False = permanent death, a destroyed character never returns
    spawn_capture: SpawnCapture = "never"  # 406.3b
    death_clock_penalty: int = Field(2, ge=0, le=9)
    honor_goal: int | None = Field(None, ge=1, le=200)  # a table override of 102.1's goal

    def goal(self, options: dict[str, Any]) -> int | None:
        """102.1: the VP a table with these lobby options plays to when something other than the party's Honor
        sets it (the ``goal`` option, else this scenario's), or None: the Honor is the goal."""
        goal = options.get("goal") or self.honor_goal
        return int(goal) if goal else None


class Pack(ContentModel):
    """A content pack: the built-in one, or a server's (same id replaces, new ids are added)."""

    name: str = "pack"
    characters: list[CharacterDef] = Field(default_factory=list, max_length=MAX_CHARACTERS)
    cards: list[ActionCardDef] = Field(default_factory=list, max_length=MAX_CARDS)
    maps: list[MapDef] = Field(default_factory=list, max_length=MAX_MAPS)
    scenarios: list[ScenarioDef] = Field(default_factory=list, max_length=MAX_SCENARIOS)  # 100.1

    def character(self, key: str) -> CharacterDef:
        found = find(self.characters, key)
        if found is None:
            raise RuleError("wowm.err.unknown_character", name=key, known=known(c.name for c in self.characters))
        return found

    def card(self, key: str) -> ActionCardDef:
        found = find(self.cards, key)
        if found is None:
            raise RuleError("wowm.err.unknown_card", name=key, known=known(c.name for c in self.cards))
        return found

    def map(self, key: str) -> MapDef:
        found = find(self.maps, key)
        if found is None:
            raise RuleError("wowm.err.unknown_map", name=key, known=known(m.id for m in self.maps))
        return found

    def scenario(self, key: str) -> ScenarioDef:
        """100.1: a scenario by id or name; ``standard`` is always there, even in a pack without any."""
        found = find(self.scenarios, key)
        if found is None and norm(key) == "standard":
            return ScenarioDef()
        if found is None:
            raise RuleError("wowm.err.option", option="scenario", value=key[:20],
                            allowed=", ".join(sorted({"standard", *(s.id for s in self.scenarios)})))
        return found


def plain(ability: AbilityDef) -> AbilityDef:
    """A card's ability without the card's own fields, as a resolution frame stores it: a field
    typed ``AbilityDef`` would silently drop a card's payload on the JSON round trip."""
    if type(ability) is AbilityDef:
        return ability
    return AbilityDef.model_validate(ability.model_dump(include=set(AbilityDef.model_fields)))


def local_name(item: Any, lang: str) -> str:
    """A named thing (character, ability, card, aura, map…) in the reader's language: its ``name_it``
    in Italian when the pack gives one (issue 26: Italian is a full language), else its ``name``."""
    name = str(getattr(item, "name", ""))
    return str(getattr(item, "name_it", "") or name) if lang == "it" else name


def named_things(pack: Pack) -> Iterable[Any]:
    """Every named thing of a pack: its characters, cards, maps and scenarios and what they hold."""
    return named_in([pack.characters, pack.cards, pack.maps, pack.scenarios])


def italian_names(values: Iterable[Any]) -> dict[str, str]:
    """English name → Italian name of every named thing in ``values`` that has an Italian name: the
    engine words its events and questions with the pack's ``name``, and an Italian reader gets these."""
    return {thing.name: thing.name_it for thing in named_in(values) if thing.name_it and thing.name_it != thing.name}


def norm(text: str) -> str:
    """Names people type: case, spaces, dashes and apostrophes are forgiven."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def find(items: Iterable[Any], key: str) -> Any:
    """By id, then by name in either language, then by an unambiguous prefix of any (TABLE_UX: names
    people use)."""
    items = list(items)
    wanted = norm(key)

    def spellings(item: Any) -> list[str]:
        return [norm(s) for s in (item.id, item.name, getattr(item, "name_it", "")) if s]

    for item in items:
        if wanted in spellings(item):
            return item
    hits = [i for i in items if any(s.startswith(wanted) for s in spellings(i))] if wanted else []
    return hits[0] if len(hits) == 1 else None


def known(names: Iterable[str]) -> str:
    """The valid names an "unknown …" error lists."""
    return ", ".join(sorted(set(names))) or "—"


def fits(card: ActionCardDef, char: CharacterDef) -> bool:
    """300.2: a generic card fits anyone; otherwise any listed name, race, class or spec matches.
    Forms keep race and class (302.1), so the check reads the printed card only."""
    r = card.restriction
    if r.generic:
        return True
    return (norm(char.name) in {norm(n) for n in r.names} or char.race in r.races
            or (char.char_class is not None and char.char_class in r.classes)
            or (char.spec is not None and char.spec in r.specs))


def party_error(problem: str, size: int, party: list[CharacterDef] | None = None, rule: str = "100.2") -> RuleError:
    """100.2 (100.1 for another scenario's party rules, 100.3 a limited build): what is wrong with this party,
    worded from a key with the facts that make it wrong (playtest: "mixed factions" for a party of four
    did not say which): how many were named, which character is there twice, which are the legendaries,
    which are not of the first one's faction."""
    party = party or []  # here beside the data it reads: both set-up and the limited build (100.3) use it
    names: list[str] = []
    if problem == "duplicate":
        names = list(dict.fromkeys(c.name for c in party if sum(o.id == c.id for o in party) > 1))
    elif problem == "legendary":
        names = [c.name for c in party if c.legendary]
    elif problem == "faction" and party:
        names = [c.name for c in party if c.faction != party[0].faction]
    return RuleError("wowm.err.party", rule=rule, problem=problem, problem_key=f"wowm.party_problem.{problem}",
                     size=size, given=len(party), names=names, count=len(names),
                     lead=party[0].name if party else "")


def load_pack(data: dict[str, Any]) -> Pack:
    """Validate a pack dict (server packs, ``/wowm-admin pack``); the first problem names its field."""
    pack = validate_pack(Pack, data, "wowm", MAX_PACK_BYTES)
    _check_references(pack)
    return pack


def _check_references(pack: Pack) -> None:
    """Cross-field checks pydantic cannot see: unique ids, pools naming cards, map labels."""
    for label, items in (("characters", pack.characters), ("cards", pack.cards), ("maps", pack.maps),
                         ("scenarios", pack.scenarios)):
        ids = [norm(i.id) for i in items]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise RuleError("wowm.err.pack_invalid", field=label, error=f"duplicate id {dupes[0]}")
    for m in pack.maps:
        _check_map(m)


def _check_map(m: MapDef) -> None:
    from_labels = [*m.holes, *m.terrain, *(s.at for s in m.spawn_points), *m.vp_locations]
    for text in from_labels:
        col, row = _label_parts(text)
        if col is None or not (0 <= col < m.columns and 0 <= row < m.rows):
            raise RuleError("wowm.err.pack_invalid", field=f"maps.{m.id}", error=f"{text} is not on the map")
    blocked = set(m.holes) | {h for h, t in m.terrain.items() if t == "impassable"}
    for s in m.spawn_points:
        if s.at in blocked:
            raise RuleError("wowm.err.pack_invalid", field=f"maps.{m.id}", error=f"spawn point {s.at} is impassable")
    for side in ("A", "B"):
        if not any(s.side in (side, "neutral") for s in m.spawn_points):
            raise RuleError("wowm.err.pack_invalid", field=f"maps.{m.id}", error=f"no spawn point for side {side}")


def _label_parts(text: str) -> tuple[int | None, int]:
    letters = "".join(ch for ch in text if ch.isalpha()).upper()
    digits = "".join(ch for ch in text if ch.isdigit())
    if not letters or not digits or letters + digits != text.upper():
        return None, 0
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - ord("A") + 1
    return col - 1, int(digits) - 1


@cache
def builtin_pack() -> Pack:
    """The pack shipped with the engine (original names and numbers, spec §4.2); cached."""
    return read_pack_file(DATA_DIR / "builtin.json", load_pack)


def merge_packs(base: Pack, extra: Pack | None) -> Pack:
    """A server pack on top of the built-in one: same id replaces, new ids are added."""
    return merge_by_id(base, extra, ("characters", "cards", "maps", "scenarios"))


def pack_for(content: dict[str, Any] | None) -> Pack:
    """The content a game uses: built-in, plus the server's pack when one is given."""
    return merge_packs(builtin_pack(), load_pack(content) if content else None)


Step.model_rebuild()
AbilityDef.model_rebuild()
