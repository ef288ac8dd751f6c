"""601 prerequisites, 602 the eight steps, 603 heals, 604 specials, 205.3 punch, 308 examples."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE, spell_targets
from engines.krosmaster.actions import Choose
from engines.krosmaster.rules_damage import damage_for
from tests.krosmaster.builders import ARMOR, CRIT, DODGE, DOFUS, LOCK, act, cast, end_turn, fig, find, game, keys, spell

MELEE = {"type": "melee"}


def duel(caster_kw=None, target_kw=None, spells=None, gg=(6, 6), wild=1):
    """Caster "a" on E5 next to target "z" on E6; each side has a spare piece far away."""
    caster = fig("a", spells=spells or [spell("s")], **(caster_kw or {}))
    return game([("a", caster, 0, "E5"), ("b", fig("b"), 0, "A1"), ("z", fig("z", **(target_kw or {})), 1, "E6"),
                 ("y", fig("y"), 1, "L12")], gg=gg, wild=wild)


def test_205_3_every_krosmaster_can_punch():
    state = duel()
    assert {p.spell.id for p in spell_targets(state, "punch")} == {"punch"}
    events = cast(state, "punch", "E6", [LOCK, LOCK])  # no critical, no armor: 1 neutral damage
    assert state.pieces["z"].wounds == 1 and state.pieces["a"].ap == 1
    assert find(events, "damage").params["element"] == "neutral"


def test_601_3a_per_turn_601_3b_per_target_601_3c_per_game():
    spells = [spell("blue", limit="per_turn", cost={"ap": 1}), spell("purple", limit="per_target", cost={"ap": 1}),
              spell("red", limit="per_game", cost={"ap": 1})]
    caster = fig("a", spells=spells, ap=12)
    state = game([("a", caster, 0, "E5"), ("y", fig("y"), 1, "E6"), ("z", fig("z"), 1, "F5")])
    cast(state, "blue", "E6", [LOCK, LOCK])
    with pytest.raises(RuleError) as err:
        cast(state, "blue", "F5")
    assert err.value.rule == "601.3a"
    cast(state, "purple", "E6", [LOCK, LOCK])
    with pytest.raises(RuleError) as err:
        cast(state, "purple", "E6")
    assert err.value.rule == "601.3b"
    cast(state, "purple", "F5", [LOCK, LOCK])  # another target is fine
    cast(state, "red", "E6", [LOCK, LOCK])
    with pytest.raises(RuleError) as err:
        cast(state, "red", "F5")
    assert err.value.key == "km.err.unknown_spell"  # 205.2a: gone from the profile
    assert "red" in state.pieces["a"].used_game


def test_601_4a_b_costs_in_ap_and_mp():
    state = duel(spells=[spell("s", cost={"ap": 7}), spell("m", cost={"ap": 1, "mp": 4})])
    with pytest.raises(RuleError) as err:
        cast(state, "s", "E6")
    assert err.value.rule == "601.4a"
    with pytest.raises(RuleError) as err:
        cast(state, "m", "E6")
    assert err.value.rule == "601.4b"


def test_601_4c_wound_cost_needs_room_on_the_card():
    # Gultard (25 HP, 24 wounds) cannot pay a 2-wound spell.
    state = duel(caster_kw={"hp": 25}, spells=[spell("vapour", cost={"ap": 1, "wounds": 2})])
    state.pieces["a"].wounds = 24
    with pytest.raises(RuleError) as err:
        cast(state, "vapour", "E6")
    assert err.value.rule == "601.4c"
    assert not spell_targets(state, "vapour")


def test_602_2b_ko_by_wound_cost_and_spell_still_resolves():
    # Jo Gular (7 HP, 6 wounds) pays one wound, is K.O. at the end of step 1, the spell goes on.
    state = duel(caster_kw={"hp": 7, "level": 1}, spells=[spell("punish", cost={"ap": 1, "wounds": 1})])
    state.pieces["a"].wounds = 6
    events = cast(state, "punish", "E6", [LOCK, LOCK])
    # 602.2a: the wound cost is placed at step 1, before anything else of the spell.
    assert keys(events)[:4] == ["km.cast", "km.wound_cost", "km.ko", "km.gg_taken"]
    assert state.pieces["a"].ko and state.pieces["z"].wounds == 2
    assert state.wild_gg == 0 and state.player(1).gg == 7  # 305.2: the wild GG goes first
    assert state.phase == "turn" and state.active_piece == "b"  # the next piece takes over


def test_602_2b_game_ends_mid_spell_when_a_player_wins():
    state = duel(caster_kw={"hp": 7, "level": 1}, spells=[spell("punish", cost={"ap": 1, "wounds": 1})],
                 gg=(1, 3), wild=0)
    state.pieces["a"].wounds = 6
    events = cast(state, "punish", "E6")  # no dice: the spell never reaches step 4
    assert state.winners == [1] and state.pieces["z"].wounds == 0
    assert "km.critical_roll" not in keys(events)


def test_602_4d_ko_during_additional_effects_ends_the_game_before_damage():
    state = duel(target_kw={"hp": 3, "level": 6}, spells=[spell("hex", effects=[{"kind": "wounds", "value": 3}])],
                 gg=(2, 6), wild=0)
    events = cast(state, "hex", "E6")
    assert state.pieces["z"].ko and state.winners == [0]
    assert "km.critical_roll" not in keys(events)


def test_602_7b_critical_against_armor_moves_damage_by_one():
    assert [duel_damage(c, a) for c, a in ((1, 0), (0, 1), (1, 1), (2, 1))] == [3, 1, 2, 3]


def duel_damage(crit: int, armor: int) -> int:
    caster = fig("a")
    return damage_for(spell("s", amount=2), game([("a", caster, 0, "A1"), ("z", fig("z"), 1, "A2")]).pieces["a"],
                      fig_piece(), crit, armor)


def fig_piece(**kw):
    return game([("z", fig("z", **kw), 1, "A2")]).pieces["z"]


def test_602_7c_worked_example_sums_to_four():
    # Base 1, +2 and +2 of bonus air damage, equal critical and armor, -1 air resistance = 4.
    to_fu_ti = spell("tofu", amount=1, element="air",
                     effects=[{"kind": "element_damage", "value": 2, "element": "air"},
                              {"kind": "element_damage", "value": 2, "element": "air"}])
    target = fig_piece(powers=["resist_air"])
    caster = fig_piece()
    assert damage_for(to_fu_ti, caster, target, 1, 1) == 4


def test_602_7d_damage_never_negative():
    target = fig_piece(powers=["toughness", "armor"])
    assert damage_for(spell("s", amount=1), fig_piece(), target, 0, 2) == 0


def test_308_3_life_steal_limited_to_wounds_inflicted_and_present():
    # Fré Gato (10 HP, 2 wounds) crits Guy (6 HP, 5 wounds) for 2: one wound lands, one heals.
    trick = spell("trick", range=MELEE, amount=1, element="water", effects=[{"kind": "life_steal"}])
    state = duel(caster_kw={"hp": 10}, target_kw={"hp": 6, "level": 1}, spells=[trick])
    state.pieces["a"].wounds = 2
    state.pieces["z"].wounds = 5
    events = cast(state, "trick", "E6", [CRIT, LOCK])
    assert find(events, "critical_roll").params["successes"] == 1  # 602.5a: one die, its critical face succeeds
    assert find(events, "damage").params["damage"] == 2
    assert find(events, "damage").params["wounds"] == 1
    assert find(events, "life_steal").params["healed"] == 1
    assert state.pieces["a"].wounds == 1 and state.pieces["z"].ko


def test_308_4_heal_cannot_remove_more_wounds_than_present():
    # Kristombo (17 HP, 1 wound) heals himself 1 + 1 for the critical: only 1 wound comes off.
    discharge = spell("discharge", kind="heal", range={"type": "self"}, amount=1)
    state = duel(caster_kw={"hp": 17}, spells=[discharge])
    state.pieces["a"].wounds = 1
    events = cast(state, "discharge", "E5", [CRIT])  # no armor roll for heals (603.2a)
    # 603.1: a heal spell deals no damage; it removes wounds.
    assert "km.damage" not in keys(events)
    assert find(events, "healed").params == {"piece": "a", "name": "A", "heal": 2, "healed": 1, "total": 0,
                                             "hp": 17}
    assert "km.armor_roll" not in keys(events)


def test_603_2b_heal_adds_healing_power_and_critical():
    mend = spell("mend", kind="heal", range={"type": "ranged", "min": 0, "max": 2}, amount=1,
                 effects=[{"kind": "extra_heal", "value": 1}])
    state = duel(caster_kw={"powers": ["healing"]}, spells=[mend])
    state.pieces["z"].wounds = 8
    cast(state, "mend", "E6", [DOFUS])  # 1 + 1 written + 1 Healing (307.17, 307.17a) + 1 critical
    assert state.pieces["z"].wounds == 4  # 603.2c: the healed wounds come off the target's card


def test_604_special_spells_skip_rolls_and_damage():
    boost = spell("boost", kind="special", range={"type": "ranged", "min": 0, "max": 1}, amount=0,
                  effects=[{"kind": "mp_tokens", "value": 2}])
    state = duel(spells=[boost])
    events = cast(state, "boost", "E6")
    # 604.1: no damage, no healing; 604.2: steps 4 to 7 are skipped (no dice above).
    assert keys(events) == ["km.cast", "km.mp_tokens"]
    assert state.pieces["z"].mp_tokens == 2


def test_602_9_pending_effects_are_ordered_by_the_active_player():
    # Life steal and a counterattack are both pending: the active player picks the order.
    bite = spell("bite", range=MELEE, amount=3, effects=[{"kind": "life_steal"}])
    state = duel(caster_kw={"hp": 10, "level": 3}, target_kw={"powers": ["counterattack"]}, spells=[bite])
    state.pieces["a"].wounds = 9
    cast(state, "bite", "E6", [LOCK, LOCK])
    assert state.phase == "order_effects"
    decision = ENGINE.decision(state)
    assert decision.kind == "order_effects" and len(decision.options) == 2  # 314.1b: the active player orders
    by_kind = {o.label_key: o.value for o in decision.options}
    # Resolving the counterattack first would K.O. the caster; life steal first saves it (602.9 example 4).
    act(state, Choose(value=by_kind["km.pending.life_steal"]))
    assert state.phase == "turn"
    assert state.pieces["a"].wounds == 9 - 3 + 1 and not state.pieces["a"].ko


def test_602_9b_pending_effect_fizzles_when_its_piece_is_gone():
    bite = spell("bite", range=MELEE, amount=3, effects=[{"kind": "life_steal"}])
    state = duel(caster_kw={"hp": 10, "level": 3}, target_kw={"powers": ["counterattack"]}, spells=[bite])
    state.pieces["a"].wounds = 9
    cast(state, "bite", "E6", [LOCK, LOCK])
    options = {o.label_key: o.value for o in ENGINE.decision(state).options}
    events = act(state, Choose(value=options["km.pending.counterattack"]))
    assert "km.ko" in keys(events) and "km.effect_fizzled" in keys(events)
    assert state.pieces["a"].ko


def test_308_5b_counterattack_wounds_are_placed_not_inflicted_so_they_do_not_chain():
    state = game([("a", fig("a", powers=["counterattack"], spells=[spell("s", range=MELEE)]), 0, "E5"),
                  ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    events = cast(state, "s", "E6", [LOCK, LOCK])
    assert keys(events).count("km.counterattack") == 1
    assert state.pieces["a"].wounds == 1  # 308.5a: a placed wound is still received by the piece


def test_cast_then_end_turn_uses_next_piece():
    state = game([("a", fig("a"), 0, "E5"), ("b", fig("b"), 0, "A1"), ("z", fig("z"), 1, "E6")])
    cast(state, "hit", "E6", [ARMOR, DODGE])
    end_turn(state)
    assert state.active_piece == "b"  # 504.2: the next piece of the timeline starts its turn
