"""Normal combat step by step (combat-round, dice-pool, reroll, token-placement, defense-phase, stun-curse;
worked examples W28, W32–W34)."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard import rules_combat as C
from engines.wowboard.content import builtin
from engines.wowboard.content_cards import Condition, Effect, Op
from engines.wowboard.state import ActiveQuest, Figure
from tests.wowboard.test_turn import drafted

PACK = builtin()


def pool(blue: int = 0, red: int = 0, green: int = 0, reroll: int = 0, attrition: int = 0) -> list[Effect]:
    ops = [Op(op="add_dice", colour=c, n=n) for c, n in (("blue", blue), ("red", red), ("green", green)) if n]
    extra = ([Op(op="reroll", n=reroll)] if reroll else []) + ([Op(op="attrition", n=attrition)] if attrition else [])
    return [Effect(timing="dice_pool", ops=ops)] + ([Effect(timing="passive", ops=extra)] if extra else [])


def fight(figures: list[tuple[str, str]], region: str = "soot_mire", who: tuple[str, ...] = ("warden",)):
    state = drafted()
    state.figures, state.quests = {}, []  # the set-up's quests aside: only this fight's figures
    for c in who:
        state.characters[c].region = region
        state.characters[c].health = 8
    for i, (ctype, tier) in enumerate(figures):
        state.figures[f"f{i}"] = Figure(id=f"f{i}", type=ctype, tier=tier, region=region, quest="H-G01",
                                        faction="horde")
    state.quests.append(ActiveQuest(card="H-G01", faction="horde", figures=list(state.figures)))
    C.start(state, PACK, list(who), f"group:{region}:{figures[0][0]}:horde")
    if state.combat.step == "attack":
        C.begin_attack(state)
    return state


def test_token_placement_w32_a_lone_warrior_against_a_green_and_a_red_creature():
    # wowboard:W32
    # wowboard:token-placement.2 wowboard:token-placement.3 wowboard:stun-curse.2 wowboard:combat-general.1
    state = fight([("mirefin", "green"), ("mirefin", "red")])
    warden = state.characters["warden"]
    C.roll_attack(state, pool(3, 3, 4, reroll=3, attrition=1), None, RecordedDice([7, 6, 2, 1, 1, 8, 8, 3, 2, 4]))
    assert state.combat.attack.reroll == 3
    C.reroll(state, [3, 7], RecordedDice([6, 2]))  # a red 1 and a green 3; one red 1 stays
    assert warden.health == 7  # the creature's ability: a red 1 wounds
    assert state.combat.boxes.model_dump() == {"damage": 2, "defense": 2, "armor": 1, "attrition": 1}
    C.defense(state)
    assert [o.ref for o in state.combat.opponents] == ["f1"] and "f0" not in state.figures  # the green one
    assert state.combat.pending_wounds == 2
    C.assign_wounds(state, {"warden": 2})
    assert warden.health == 5 and state.combat.round == 2 and state.combat.boxes.damage == 3  # carried over


def test_reroll_2_w33_the_abilitys_faces_are_read_after_the_rerolls():
    # wowboard:W33
    state = fight([("mirefin", "red")])
    warden = state.characters["warden"]
    C.roll_attack(state, pool(red=3, reroll=2), None, RecordedDice([1, 1, 1]))
    C.reroll(state, [0, 1], RecordedDice([4, 1]))
    assert warden.health == 8 - 2


def test_reroll_2_w34_a_character_felled_by_the_ability_places_no_tokens():
    # wowboard:W34
    state = fight([("mirefin", "red")])
    state.characters["warden"].health = 1
    C.roll_attack(state, pool(blue=2, red=1), None, RecordedDice([8, 8, 1]))
    C.reroll(state, [], RecordedDice([]))
    assert state.combat is None  # alone, fallen: the combat is lost
    assert state.characters["warden"].health == 0


def test_dice_pool_3_two_dice_per_stun_token_or_the_character_falls():
    state = fight([("mirefin", "green")])
    state.characters["warden"].stun = 1
    events = C.roll_attack(state, pool(blue=1, green=2), ["green"], RecordedDice([5]))
    assert "wowboard.ev.stun_removed" in [e.key for e in events]
    assert [d.colour for d in state.combat.attack.dice] == ["blue"]
    state2 = fight([("mirefin", "green")])
    state2.characters["warden"].stun = 1
    C.roll_attack(state2, pool(blue=1), None, RecordedDice([]))
    assert state2.combat is None and state2.characters["warden"].health == 0


def test_dice_pool_1_w26_a_pool_has_no_condition_reads_the_other_dice():
    # wowboard:W26
    effects = [*pool(blue=5, green=1, reroll=2),
               Effect(timing="dice_pool", condition=Condition(kind="pool_has_no", colour="red"),
                      ops=[Op(op="add_dice", colour="green", n=3)])]
    counts, reroll, _attrition, _threat = C.pool_counts(effects, 1)
    assert {c.value: n for c, n in counts.items()} == {"blue": 5, "red": 0, "green": 4} and reroll == 2
    with_staff = [*effects, Effect(timing="passive", ops=[Op(op="add_dice", colour="red", n=1)])]
    counts, *_ = C.pool_counts(with_staff, 1)
    assert {c.value: n for c, n in counts.items()}["green"] == 1  # the amulet gives nothing beside red


def test_combat_round_1_w28_every_participant_attacks_in_the_chosen_order_then_one_defense():
    # wowboard:W28
    state = fight([("dunecur", "green")], region="crossroads", who=("warden", "arcanist"))
    assert state.combat.step == "order"
    with pytest.raises(RuleError):
        C.set_order(state, ["warden"])
    C.set_order(state, ["arcanist", "warden"])
    assert state.combat.attack.character == "arcanist"
    C.roll_attack(state, pool(blue=1), None, RecordedDice([2]))
    C.reroll(state, [], RecordedDice([]))
    assert state.combat.attack.character == "warden"
    C.roll_attack(state, pool(blue=1), None, RecordedDice([2]))
    C.reroll(state, [], RecordedDice([]))
    assert state.combat.step == "hit_assign" and state.combat.attack is None


def test_stun_curse_4_a_curse_lowers_reroll_and_attrition_and_curse_if_adds_one():
    state = fight([("grave_eater", "green")])
    warden = state.characters["warden"]
    warden.curse = 1
    C.roll_attack(state, pool(green=1, reroll=2, attrition=1), None, RecordedDice([1]))
    assert (state.combat.attack.reroll, state.combat.attack.attrition) == (1, 0)
    C.reroll(state, [], RecordedDice([]))
    assert warden.curse == 2  # a green 1 against a grave-eater


def test_stun_curse_3_a_webspinner_stuns_on_two_ones_and_combat_round_2_the_end_clears_stun():
    state = fight([("webspinner", "green")])
    C.roll_attack(state, pool(blue=3), None, RecordedDice([1, 1, 5]))
    C.reroll(state, [], RecordedDice([]))
    assert state.characters["warden"].stun == 1
    C.end(state, won=False)
    assert state.characters["warden"].stun == 0 and state.combat is None


def test_defense_phase_1_a_zealot_ignores_the_first_damage_hit_each_round():
    state = fight([("zealot", "green")])  # health 3
    C.roll_attack(state, pool(blue=3), None, RecordedDice([8, 8, 8]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    assert state.combat is not None and state.combat.boxes.damage == 2  # 3 hits, the first ignored


def test_defense_phase_2_pack_hunters_hit_harder_together():
    state = fight([("dunecur", "green"), ("dunecur", "green"), ("dunecur", "green")])  # attack 3 each
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    assert state.combat.pending_wounds == 3 * (3 + 2)  # +1 per other, at most +2


def test_defense_phase_2_the_wound_split_must_add_up():
    state = fight([("mirefin", "green")])
    C.roll_attack(state, pool(blue=1), None, RecordedDice([2]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    with pytest.raises(RuleError) as err:
        C.assign_wounds(state, {"warden": 1})
    assert err.value.rule == "defense-phase.2"
    C.assign_wounds(state, {"warden": 3})
    assert state.characters["warden"].health == 5
