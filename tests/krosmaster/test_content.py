"""Content packs: the built-in pack's coverage, user pack validation and merging."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.content import (
    AreaShape,
    Effect,
    EffectKind,
    Keyword,
    RangeType,
    SpellKind,
    builtin_pack,
    load_pack,
    merge_packs,
    push_cube_spell,
)


def test_builtin_pack_covers_every_range_area_effect_and_power():
    pack = builtin_pack()
    assert len(pack.figurines) >= 10
    spells = [s for f in pack.figurines for s in f.spells]
    assert {s.range.type for s in spells} == set(RangeType)
    assert {s.area for s in spells} >= set(AreaShape) - {AreaShape.NONE}
    kinds = {e.kind for s in spells for e in s.effects}
    assert kinds | {e.kind for e in push_cube_spell(1).effects} == set(EffectKind)  # 313.6a is the board's
    assert any(e.requires for s in spells for e in s.effects)  # 307.25/307.26 on an additional effect
    assert {p for f in pack.figurines for p in f.powers} == set(Keyword)
    assert {s.kind for s in spells} == set(SpellKind)
    assert {s.limit for s in spells} == {"unlimited", "per_turn", "per_target", "per_game"}
    assert any(s.cost.wounds for s in spells) and any(s.cost.mp for s in spells)
    assert any(s.range.modifiable for s in spells)
    assert any(f.custom_powers and f.custom_powers[0].fight_start for f in pack.figurines)
    big = [a for a in pack.arenas if a.width == a.height == 12]
    assert len(big) >= 2
    for arena in big:
        assert arena.trees and arena.bushes and arena.crates and arena.kamas and arena.demon_squares
    assert any(set(a.starting) == {"north", "south", "east", "west"} for a in pack.arenas)  # 103.2
    assert any(len([p for p in f.custom_powers if p.fight_start]) > 1 for f in pack.figurines)  # 103.10b
    assert any(e.this_spell for s in spells for e in s.effects)  # 314.1d
    assert any(e.element for s in spells for e in s.effects if e.kind is EffectKind.TURN_DAMAGE)  # 504.1


def test_builtin_rewards_cover_range_element_and_healing_bonuses():
    rewards = builtin_pack().rewards
    assert any(r.range for r in rewards)  # 306.3c
    assert any(r.element and r.type.value == "boost" for r in rewards)  # 602.7c: the Air Boost
    assert any(r.element and r.type.value == "equipment" for r in rewards)
    assert any(r.heal_bonus for r in rewards)  # 603.2b


def test_builtin_figurine_names_are_unique_and_versions_share_a_base_name():
    """Two built-in figurines were both called "Iron Warden": one is now "Iron Warden-Veteran" (201.3),
    with its id unchanged, and still counts as the same Krosmaster for 101.1d."""
    pack = builtin_pack()
    names = [f.name for f in pack.figurines]
    assert len(names) == len(set(names))
    veteran = pack.figurine("iron_warden_veteran")
    assert veteran.name == "Iron Warden-Veteran" and veteran.base_name == pack.figurine("iron_warden").name


def test_replace_effects_name_figurines_of_the_pack():
    pack = builtin_pack()
    forms = pack.forms(pack.figurines)
    assert forms and all(fid in {f.id for f in pack.figurines} for fid in forms)
    with pytest.raises(RuleError) as err:
        load_pack({"figurines": [{"id": "x", "name": "X", "level": 1, "initiative": 1, "ap": 6, "mp": 3, "hp": 5,
                                  "spells": [{"id": "s", "name": "S", "range": {"type": "self"}, "kind": "special",
                                              "effects": [{"kind": "replace"}]}]}]})
    assert err.value.key == "km.err.pack_invalid"
    shift = pack.figurine("wildshaper").spells[2].model_copy(
        update={"effects": [Effect(kind=EffectKind.REPLACE, figurine="nobody")]})
    with pytest.raises(RuleError) as err:
        pack.forms([pack.figurine("mire_imp").model_copy(update={"spells": [shift]})])
    assert err.value.key == "km.err.unknown_figurine" and "wildshaper" in err.value.params["known"]


def test_user_pack_errors_name_the_field():
    bad = {"figurines": [{"id": "x", "name": "X", "level": 1, "initiative": 1, "ap": 6, "mp": 3, "hp": 5,
                          "spells": [{"id": "s", "name": "S", "range": {"type": "ranged", "min": 3, "max": 1}}]}]}
    with pytest.raises(RuleError) as err:
        load_pack(bad)
    assert err.value.key == "km.err.pack_invalid"
    assert err.value.params["field"] == "figurines.0.spells.0.range"
    with pytest.raises(RuleError) as err:
        load_pack({"arenas": [{"id": "a", "name": "A", "trees": ["Z99"], "starting": {}}]})
    assert err.value.params["field"].startswith("arenas.0")


def test_pack_size_is_limited():
    with pytest.raises(RuleError) as err:
        load_pack({"name": "x" * 10, "figurines": [], "junk": "y" * 300_000})
    assert err.value.key == "km.err.pack_too_big"


def test_user_pack_merges_over_builtin_and_plays():
    user = {"name": "mine", "figurines": [
        {"id": "mire_imp", "name": "Mire Imp", "colour": "black", "level": 1, "initiative": 9, "ap": 6, "mp": 5,
         "hp": 4, "spells": [{"id": "nip", "name": "Nip", "range": {"type": "melee"}, "amount": 2}]},
        {"id": "titan", "name": "Titan", "colour": "gold", "level": 11, "initiative": 1, "ap": 6, "mp": 2,
         "hp": 30, "spells": [{"id": "stomp", "name": "Stomp", "range": {"type": "melee"}, "amount": 3}]}]}
    merged = merge_packs(builtin_pack(), load_pack(user))
    assert merged.figurine("mire_imp").initiative == 9
    assert merged.figurine("bone_crusher").level == 5
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="A", config={"team": ["titan", "mire_imp"]}),
                         SeatSetup(seat=1, user_id=2, name="B",
                                   config={"team": ["bone_crusher", "iron_warden", "ember_witch"]})],
                  content=user)
    state = ENGINE.new_game(setup, SeededDice(1))
    assert state.pieces["0a"].figurine.name == "Titan"
    assert ENGINE.load_state(state.model_dump_json()) == state
