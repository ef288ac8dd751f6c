"""The built-in pack (spec §4: original names, the number ranges of the real game) and server packs."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight.content import ABILITIES, builtin_pack, load_pack, merge_packs, pack_for

PACK = builtin_pack()
RANGES = {  # colour -> (armor, attack, fame) ranges of the built-in tokens (spec §4.1)
    "green": ((2, 4), (0, 5), (2, 4)), "grey": ((4, 6), (2, 5), (3, 4)), "violet": ((4, 6), (0, 5), (4, 5)),
    "brown": ((4, 7), (3, 6), (4, 5)), "red": ((8, 9), (5, 8), (7, 10)), "white": ((6, 8), (5, 8), (5, 8)),
}


def test_32_enemies_in_six_colours_within_the_ranges():
    assert len(PACK.enemies) == 32
    assert Counter(e.colour for e in PACK.enemies) == {"green": 7, "grey": 5, "violet": 5, "brown": 7, "red": 4,
                                                       "white": 4}
    for enemy in PACK.enemies:
        armor, attack, fame = RANGES[enemy.colour]
        assert armor[0] <= enemy.armor <= armor[1], enemy.id
        assert attack[0] <= enemy.attack <= attack[1], enemy.id
        assert fame[0] <= enemy.fame <= fame[1], enemy.id
    assert len({e.name for e in PACK.enemies}) == 32


def test_every_ability_resistance_and_element_is_exercised():
    abilities = Counter(a for e in PACK.enemies for a in e.abilities)
    assert all(abilities[a] >= 2 for a in ABILITIES)
    resist = Counter(r for e in PACK.enemies for r in e.resistances)
    assert all(resist[r] >= 3 for r in ("physical", "fire", "ice"))
    assert sum({"fire", "ice"} <= set(e.resistances) for e in PACK.enemies) >= 3
    assert {e.element for e in PACK.enemies} == {"physical", "fire", "ice", "cold_fire"}
    brown = [e for e in PACK.enemies if e.colour == "brown"]
    assert not any(e.has("summon") for e in brown)
    assert {"swift", "brutal", "poison", "paralyze"} <= {a for e in brown for a in e.abilities}


def test_the_hero_deck_has_16_cards_and_every_card_a_sideways_use():
    deck = [c for c in PACK.cards if not c.advanced]
    assert sum(c.copies for c in deck) == 16 and len([c for c in PACK.cards if c.advanced]) == 5
    assert {c.colour for c in deck} == {"red", "blue", "green", "white"}
    assert all(c.basic and c.powered for c in PACK.cards)


def test_ten_units_with_armor_resistances_and_abilities():
    assert len(PACK.units) == 10 and all(u.abilities for u in PACK.units)
    assert {u.level for u in PACK.units} == {1, 2, 3, 4}
    assert sum(bool(u.resistances) for u in PACK.units) == 4
    assert any(a.mana for u in PACK.units for a in u.abilities)


@pytest.mark.parametrize("data, field", [
    ({"enemies": [{"id": "x", "name": "X", "colour": "pink", "armor": 3, "attack": 3}]}, "enemies.0.colour"),
    ({"enemies": [{"id": "x", "name": "X", "colour": "green", "armor": 0, "attack": 3}]}, "pack"),
    ({"cards": [{"id": "wound", "name": "W", "colour": "red", "basic": [{"kind": "heal", "amount": 1}],
                 "powered": [{"kind": "heal", "amount": 1}]}]}, "pack"),
    ({"units": [{"id": "u", "name": "U", "armor": 3}, {"id": "u", "name": "V", "armor": 3}]}, "pack"),
    ({"enemies": [{"id": "s", "name": "S", "colour": "brown", "armor": 3, "abilities": ["summon"],
                   "summons": "brown"}]}, "pack"),
])
def test_bad_server_packs_name_the_field(data, field):
    with pytest.raises(RuleError) as err:
        load_pack(data)
    assert err.value.key == "mk.err.pack_invalid" and err.value.params["field"] == field


def test_a_pack_too_big_or_not_an_object_is_refused():
    with pytest.raises(RuleError) as err:
        load_pack({"name": "x" * 10, "enemies": [], "padding": "y" * 300_000})
    assert err.value.key == "mk.err.pack_too_big"
    with pytest.raises(RuleError):
        load_pack([])  # type: ignore[arg-type]


def test_a_server_pack_replaces_and_adds_tokens_and_is_dealt():
    extra = {"name": "house", "enemies": [
        {"id": "g_tusk", "name": "Tusk Riders", "colour": "green", "armor": 3, "attack": 4, "fame": 2}]}
    merged = merge_packs(PACK, load_pack(extra))
    assert merged.enemy("g_tusk").name == "Tusk Riders" and len(merged.enemies) == 32
    only = {"name": "house", "enemies": [{**extra["enemies"][0], "id": "house_green"}]}
    assert len(pack_for(only).enemies) == 33
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=0, user_id=1, name="a")], options={"seed": 1},
                                  content=only), SeededDice(1))
    assert state.enemies[0].token.colour == "green"
