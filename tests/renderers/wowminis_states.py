"""WoW Miniatures sample states for the picture tests.

The three main ones (opening, midgame, finished) come from the engine's own samples
(``engines.wowminis.samples``: seeded games played through the rules), frozen as JSON next to
the goldens (``golden/wowm_<name>.state.json``). Why frozen: the engine is still growing,
and a picture test should fail when the *picture* changes, not every time a rule change
makes the seeded game take another path. ``UPDATE_GOLDEN=1`` refreshes the JSON from the
samples together with the PNGs, so the goldens always show a state the game really reached.

The other states are variations built on those (a new map, pieces moved, a pet, totems,
an attack being resolved, long names) for the readability tests: the densest pictures the
game can make, and the spec's 405.4 line-of-sight example.
"""

from __future__ import annotations

from functools import cache

from engines.wowminis import samples
from engines.wowminis.content import AbilityDef, CharacterDef, MapDef, SpawnPoint, TotemDef
from engines.wowminis.state import CharState, Effect, PlayFrame, State, TotemState
from tests.renderers import golden

LOG_EN = ["Aria chose Elowen to act first.", "Grushka attacks Lyssara: 3 hits, 1 blocked, 2 damage."]
LOG_IT = ["Aria sceglie Elowen per agire per prima.", "Grushka attacca Lyssara: 3 colpi, 1 bloccato, 2 danni."]
BUILDERS = {"opening": samples.opening_state, "midgame": samples.midgame_state, "finished": samples.finished_state}


@cache
def _frozen(name: str) -> str:
    path = golden.GOLDEN_DIR / f"wowm_{name}.state.json"
    if golden.updating() or not path.is_file():
        text = BUILDERS[name]().model_dump_json(indent=1)
        if golden.updating():
            path.write_text(text + "\n", encoding="utf-8")
        return text
    return path.read_text(encoding="utf-8")


def frozen(name: str) -> State:
    """A fresh copy of a frozen sample (tests may change it)."""
    return State.model_validate_json(_frozen(name))


def opening() -> State:
    return frozen("opening")


def midgame() -> State:
    return frozen("midgame")


def finished() -> State:
    return frozen("finished")


def heroes_only(state: State) -> State:
    """The variations below place the six heroes themselves: the sample's pets and totems go."""
    state.chars = {k: c for k, c in state.chars.items() if c.kind == "hero"}
    state.totems = {}
    return state


def los_405_4() -> State:
    """The spec's 405.4 example on a 12 x 12 map: source C5, target B8, cover only on C6:
    blocked, though the outer path C5-B5-B6-B7-B8 is clear."""
    state = heroes_only(midgame())
    state.board = MapDef(id="test_12", name="Test 12", columns=12, rows=12, terrain={"C6": "cover"},
                         spawn_points=[SpawnPoint(at="A1", side="A"), SpawnPoint(at="L12", side="B")])
    state.effects = []
    spots = iter(["C5", "H2", "J9", "K4", "E11", "L6"])
    for c in state.chars.values():
        c.pos = next(spots)
    state.stack = []
    return state


def _pet_def() -> CharacterDef:
    bite = AbilityDef(id="bite", name="Bite", power=2, damage_type="melee")
    return CharacterDef(id="wolf", name="Grey Wolf", faction="horde", race="beast", honor=0, armor=1, resist=0,
                        health=4, main_attack=bite)


def crowded() -> State:
    """Everything at once near each other: a pet with its master, totems (one under a
    character), Stealth, buffs and debuffs, an AOE attack being resolved, a long name,
    clocks tied between seats, and a character waiting to respawn."""
    state = heroes_only(midgame())
    chars = sorted(state.chars.values(), key=lambda c: (c.controller, c.id))
    mine = [c for c in chars if c.controller == 0]
    theirs = [c for c in chars if c.controller == 1]
    for c, pos in zip(mine + theirs, ["F6", "F7", None, "G6", "G7", "H7"], strict=True):
        c.pos = pos
    mine[2].clock = state.master + 3  # destroyed, waiting to respawn
    master = theirs[0]
    state.chars["wolf-2"] = CharState(id="wolf-2", owner=1, controller=1, kind="pet", master_id=master.id,
                                      defn=_pet_def(), short="WOL", pos="H6", clock=state.master, health=3)
    totem = TotemDef(id="ward", name="Springwell Totem", health=2)
    state.totems = {"t1": TotemState(id="t1", controller=1, creator=master.id, defn=totem, short="SPR", pos="G6"),
                    "t2": TotemState(id="t2", controller=1, creator=master.id, defn=totem, short="SPR", pos="I8")}
    theirs[1].defn = theirs[1].defn.model_copy(update={"keywords": ["stealth", "taunt"]})
    base = state.effects[0] if state.effects else None
    if base is not None:
        state.effects = [base.model_copy(update={"id": f"e{i}", "target": c.id, "kind": kind})
                         for i, (c, kind) in enumerate([(mine[0], "buff"), (mine[0], "debuff"), (theirs[2], "debuff"),
                                                        (theirs[2], "debuff")])]
    for c in chars:
        c.clock = state.master if c.pos else c.clock
    attack = AbilityDef(id="blast", name="Arcane Blast", power=3, damage_type="arcane",
                        target={"side": "space", "aoe": True, "range": {"max": 4}})
    state.stack = [PlayFrame(id=99, seat=0, caster=mine[0].id, ability=attack, targets=[], space="G7",
                             area=["G7", "H7", "G6"], defenders=[theirs[0].id, theirs[1].id, theirs[2].id])]
    state.players[1].name = "Bartholomew the Unready of Westfall"
    return state


def effect_kinds(state: State) -> list[str]:
    return [e.kind for e in state.effects if isinstance(e, Effect)]
