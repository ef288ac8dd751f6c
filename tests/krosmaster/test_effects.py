"""605 additional effects and 309 token rules."""

from __future__ import annotations

import pytest

from engines.krosmaster.rules_tokens import add_tokens
from tests.krosmaster.builders import ARMOR, CRIT, LOCK, arena, cast, fig, find, game, keys, spell

LINE = {"type": "line", "min": 1, "max": 6}


def setup(effects, target_sq="E7", caster_sq="E5", board=None, target_kw=None, **spell_kw):
    s = spell("s", range=spell_kw.pop("range", LINE), effects=effects, **spell_kw)
    return game([("a", fig("a", spells=[s]), 0, caster_sq), ("b", fig("b"), 0, "A1"),
                 ("z", fig("z", **(target_kw or {})), 1, target_sq), ("y", fig("y"), 1, "L12")], board=board)


def test_605_1_to_605_4_tokens_on_each_target():
    state = setup([{"kind": "ap_tokens", "value": -2}, {"kind": "mp_tokens", "value": 1}])
    cast(state, "s", "E7", [LOCK, LOCK])
    z = state.pieces["z"]
    assert (z.ap_tokens, z.mp_tokens) == (-2, 1)  # 605.4a: -X AP; 605.1a: +X MP (602.4c: on the target)
    state = setup([{"kind": "ap_tokens", "value": 1}, {"kind": "mp_tokens", "value": -2}])
    cast(state, "s", "E7", [LOCK, LOCK])
    z = state.pieces["z"]
    assert (z.ap_tokens, z.mp_tokens) == (1, -2)  # 605.3a: +X AP; 605.2a: -X MP


def test_309_7_opposite_tokens_cancel_and_309_6_minus_tokens_capped_at_max():
    z = game([("z", fig("z", ap=3), 1, "A1")]).pieces["z"]
    assert add_tokens(z, "ap", 2) == 2 and z.ap_tokens == 2
    assert add_tokens(z, "ap", -3) == 3 and z.ap_tokens == -1  # two cancel, one stays
    assert add_tokens(z, "ap", -5) == 2 and z.ap_tokens == -3  # never more -1 tokens than AP max


@pytest.mark.parametrize(("element", "rule"),
                         [("water", "605.5a"), ("air", "605.6a"), ("earth", "605.7a"), ("fire", "605.8a")])
def test_605_5_to_605_8_bonus_elemental_damage_at_step_6(element, rule):
    state = setup([{"kind": "element_damage", "value": 2, "element": element}], amount=1)
    events = cast(state, "s", "E7", [LOCK, LOCK])
    damage = find(events, "damage").params
    assert damage["damage"] == 3
    assert {"reason": "element_damage", "rule": rule, "amount": 2} in damage["modifiers"]


def test_605_9_push_is_partial_when_blocked():
    state = setup([{"kind": "push", "value": 3}], board=arena(trees=["E10"]))
    cast(state, "s", "E7", [LOCK, LOCK])
    # 605.9a: straight away from the caster; 605.9b, 314.3, 602.4b: as far as it can, then the tree stops it.
    assert state.pieces["z"].pos == "E9"


def test_605_10_pull_stops_next_to_the_caster():
    state = setup([{"kind": "pull", "value": 5}], target_sq="E9")
    cast(state, "s", "E9", [LOCK, LOCK])
    assert state.pieces["z"].pos == "E6"  # 605.10a: straight towards the caster
    state = setup([{"kind": "pull", "value": 5}], target_sq="E9", board=arena(bushes=["E7"]))
    cast(state, "s", "E9", [LOCK, LOCK])
    assert state.pieces["z"].pos == "E8"  # 605.10b: the bush's square cannot be crossed


def test_605_16_retreat_and_605_17_advance_move_the_caster():
    state = setup([{"kind": "retreat", "value": 2}])
    cast(state, "s", "E7", [LOCK, LOCK])
    assert state.pieces["a"].pos == "E3"  # 605.16a: away from the main target
    state = setup([{"kind": "advance", "value": 4}], target_sq="E9")
    cast(state, "s", "E9", [LOCK, LOCK])
    assert state.pieces["a"].pos == "E8"  # 605.17a: towards the main target
    state = setup([{"kind": "retreat", "value": 2}], board=arena(bushes=["E3"]))
    cast(state, "s", "E7", [LOCK, LOCK])
    assert state.pieces["a"].pos == "E4"  # 605.16b: as far as the free squares go
    state = setup([{"kind": "advance", "value": 4}], target_sq="E9", board=arena(bushes=["E7"]))
    cast(state, "s", "E9", [LOCK, LOCK])
    assert state.pieces["a"].pos == "E6"  # 605.17b


def test_605_11_armor_piercing_removes_one_armor_die():
    state = setup([{"kind": "armor_piercing"}], target_kw={"powers": ["armor"]})
    events = cast(state, "s", "E7", [LOCK, ARMOR])  # one armor die instead of two
    # 605.11a, 602.6c: one die fewer at step 5; 314.1a: written among the step-3 effects, it waits for step 5.
    assert len(find(events, "armor_roll").rolls) == 1


def test_605_12_605_13_steal_gives_tokens_for_each_placed():
    state = setup([{"kind": "steal_ap", "value": 2}, {"kind": "steal_mp", "value": 1}])
    state.pieces["z"].ap_tokens = 1  # one -1 cancels this +1: still placed
    cast(state, "s", "E7", [LOCK, LOCK])
    assert state.pieces["z"].ap_tokens == -1 and state.pieces["z"].mp_tokens == -1
    assert state.pieces["a"].ap_tokens == 2 and state.pieces["a"].mp_tokens == 1  # 605.13a AP, 605.12a MP


def test_605_14_605_15_immediate_gain_goes_into_the_bars():
    state = setup([{"kind": "gain_ap", "value": 2}, {"kind": "gain_mp", "value": 1}])
    cast(state, "s", "E7", [LOCK, LOCK])
    a = state.pieces["a"]
    assert (a.ap, a.mp) == (6 - 2 + 2, 4)  # 605.15a AP, 605.14a MP: into the bars, not as tokens


def test_605_18_life_steal_resolves_at_step_8():
    state = setup([{"kind": "life_steal"}], amount=3)
    state.pieces["a"].wounds = 5
    events = cast(state, "s", "E7", [LOCK, LOCK])
    assert keys(events)[-1] == "km.life_steal"  # 605.18a, 314.1a: it waits for step 8
    assert state.pieces["a"].wounds == 2  # as many wounds removed as were inflicted


def test_swap_exchanges_caster_and_main_target():
    state = setup([{"kind": "swap"}], kind="special", amount=0)
    cast(state, "s", "E7")
    assert state.pieces["a"].pos == "E7" and state.pieces["z"].pos == "E5"


def test_307_18_insensitive_blocks_moves_and_tokens_from_others():
    state = setup([{"kind": "push", "value": 2}, {"kind": "mp_tokens", "value": -1}, {"kind": "swap"}],
                  target_kw={"powers": ["insensitive"]})
    events = cast(state, "s", "E7", [LOCK, LOCK])
    z = state.pieces["z"]
    # 307.18a; 314.2a: the power's continuous effect is in force before the one-off effects apply.
    assert z.pos == "E7" and z.mp_tokens == 0 and z.wounds == 2
    assert keys(events).count("km.insensitive") == 3


def test_605_9_push_from_a_diagonal_uses_the_chosen_direction():
    s = {"range": {"type": "ranged", "min": 1, "max": 6}}
    state = setup([{"kind": "push", "value": 1}], target_sq="G7", **s)
    cast(state, "s", "G7", [CRIT, LOCK], direction="E")
    assert state.pieces["z"].pos == "H7"
