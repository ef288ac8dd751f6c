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


def test_defense_phase_1_the_group_picks_the_opponent_when_the_choice_matters():
    # wowboard:defense-phase.1
    from tests.wowboard.test_turn import E, act

    state = fight([("mirefin", "green"), ("mirefin", "red")])  # green 3/2, red 5/4
    C.roll_attack(state, pool(blue=4), None, RecordedDice([8, 8, 8, 8]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    d = E.decision(state)
    assert (d.kind, d.seats) == ("hit_target", [0]) and state.pending[0].options == ["f0", "f1"]
    assert state.pending[0].default == "f0" and state.combat.step == "hit_target"
    act(state, 0, {"kind": "choose", "value": "f1"})  # the red one: 4 hits, the green one stays
    assert [o.ref for o in state.combat.opponents] == ["f0"] and "f1" not in state.figures
    assert state.characters["warden"].health == 8 - 3 and state.combat.round == 2  # alone: its 3 wounds


def test_defense_phase_1_no_question_when_every_fitting_opponent_falls_anyway_or_all_are_alike():
    state = fight([("mirefin", "green"), ("mirefin", "red")])
    C.roll_attack(state, pool(blue=6), None, RecordedDice([8] * 6))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    assert state.combat is None and not state.pending  # 6 hits fell both
    twins = fight([("mirefin", "green"), ("mirefin", "green")])
    C.roll_attack(twins, pool(blue=3), None, RecordedDice([8] * 3))
    C.reroll(twins, [], RecordedDice([]))
    C.defense(twins)
    assert not twins.pending and len(twins.combat.opponents) == 1 and twins.combat.boxes.damage == 1  # W29


def test_defense_phase_3_the_question_also_opens_at_the_resolution_and_the_round_follows_the_answer():
    # wowboard:defense-phase.3
    from tests.wowboard.test_turn import act

    state = fight([("mirefin", "green"), ("mirefin", "red")])
    C.roll_attack(state, pool(red=4), None, RecordedDice([8] * 4))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": 4})  # 8 attack − 4 defense; the 4 defense hits move to damage
    assert state.pending[0].kind == "hit_target" and state.combat.round == 1
    act(state, 0, {"kind": "choose", "value": "f0"})
    assert [o.ref for o in state.combat.opponents] == ["f1"] and state.combat.boxes.damage == 2  # carried over
    assert state.combat.round == 2 and state.combat.attack.character == "warden"


def test_power_cards_4_a_lone_ranger_with_a_companion_is_asked_for_the_split():
    # wowboard:power-cards.4
    from tests.wowboard.test_turn import E, act

    state = fight([("mirefin", "green")], who=("ranger",))
    ranger = state.characters["ranger"]
    state.class_decks["ranger"].remove("boar")
    ranger.sheet["active"].card, ranger.sheet["active"].companion_health = "boar", 3
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    assert E.decision(state).kind == "assign_wounds"
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 3}, "companions": {"ranger": 2}})
    assert ranger.health == 8 - 1 and ranger.sheet["active"].companion_health == 1


def test_power_cards_3_w8_an_instant_is_offered_by_name_paid_on_use_and_not_offered_without_energy():
    # wowboard:W8 wowboard:dice-pool.1
    from engines.core.dice import SeededDice
    from tests.wowboard.test_turn import E

    def rolled(instants: list[str]) -> int:
        state = fight([("mirefin", "red")], who=("arcanist",))
        state.characters["arcanist"].energy = 1
        assert [a.instants for a in E.legal_actions(state, 0)] == [[], ["pre:instant"]]  # it costs 1
        events = E.apply(state, 0, E.parse_action({"kind": "roll", "instants": instants}), SeededDice(3))
        assert state.characters["arcanist"].energy == 1 - len(instants)  # paid on use only
        return len(next(e for e in events if e.key.endswith("pool_rolled")).params["dice"].split())

    assert rolled(["pre:instant"]) > rolled([])  # its dice join the pool this round
    broke = fight([("mirefin", "red")], who=("arcanist",))
    broke.characters["arcanist"].energy = 0
    assert [a.instants for a in E.legal_actions(broke, 0)] == [[]]  # no energy: not offered


def test_power_cards_4_a_companion_may_take_an_abilitys_wounds_the_placement_waits_for_the_answer():
    # wowboard:power-cards.4 wowboard:reroll.2
    from tests.wowboard.test_turn import E, act

    state = fight([("mirefin", "red")], who=("ranger",))  # each red 1 wounds
    ranger = state.characters["ranger"]
    state.class_decks["ranger"].remove("boar")
    ranger.sheet["active"].card, ranger.sheet["active"].companion_health = "boar", 3
    C.roll_attack(state, pool(blue=1, red=2), None, RecordedDice([8, 1, 1]))
    C.reroll(state, [], RecordedDice([]))
    d = E.decision(state)
    assert (d.kind, d.seats) == ("companion_wounds", [1]) and state.pending[0].options == ["0", "1", "2"]
    assert state.pending[0].default == "2" and state.combat.resume == "checks" and ranger.health == 8
    events = act(state, 1, {"kind": "choose", "value": "1"})
    assert ranger.sheet["active"].companion_health == 2
    assert next(e.params["n"] for e in events if e.key.endswith(".wounded")) == 1  # the other one: the ranger
    assert next(e for e in events if e.key.endswith("hits_placed")).params["damage"] == 1
