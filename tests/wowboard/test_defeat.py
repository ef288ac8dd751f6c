"""Defeat and respawn (character-defeat.2–3)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.wowboard.content import builtin
from engines.wowboard.rules_defeat import defeat, respawn, respawn_options
from tests.wowboard.test_turn import drafted

PACK = builtin()


def test_character_defeat_2_the_nearest_graveyards_or_the_start_region_ties_all_offered():
    state = drafted()
    warden = state.characters["warden"]
    assert respawn_options(PACK, warden, "lantern_glade") == ["crossroads", "hollow_oak", "cinderhold"]
    assert respawn_options(PACK, warden, "crossroads") == ["hollow_oak", "old_quarry", "orchard_gate", "cinderhold"]


def test_character_defeat_3_health_and_energy_one_no_actions_no_tokens_then_the_chosen_respawn():
    state = drafted()
    warden = state.characters["warden"]
    warden.region, warden.health, warden.stun, warden.curse = "wolfden", 0, 1, 2
    defeat(state, PACK, warden, "wolfden")
    assert (warden.health, warden.energy, warden.actions_left, warden.stun, warden.curse) == (1, 1, 0, 0, 0)
    assert state.pending[-1].kind == "respawn" and state.pending[-1].default == "cinderhold"
    with pytest.raises(RuleError) as err:
        respawn(state, 0, "havenford")
    assert err.value.key == "wowboard.err.respawn_where"
    respawn(state, 0, "hollow_oak")
    assert warden.region == "hollow_oak" and state.pending == []


def test_w22_item_cards_offered_for_a_reward_are_seen_only_by_the_rewarded_seat():
    # wowboard:W22
    from engines.wowboard.engine import WowBoardEngine
    from engines.wowboard.state import Pending

    state = drafted()
    drawn = [state.item_decks["triangle"].pool.pop(), state.item_decks["triangle"].pool.pop()]
    state.pending.insert(0, Pending(kind="keep_item", seats=[0], character="warden", options=drawn,
                                    default=drawn[0]))
    engine = WowBoardEngine()
    assert engine.view(state, 0).pending[0].options == drawn
    for seat in (1, None):
        hidden = engine.view(state, seat)
        text = hidden.model_dump_json()
        assert hidden.pending[0].options == ["?", "?"] and not [c for c in drawn if f'"{c}"' in text]
        deck = hidden.item_decks["triangle"]
        assert len(deck) == len(state.item_decks["triangle"]) and set(deck.cards()) <= {"?"}


def _last_stand(bag: list[str], health: int = 2):
    from engines.core.dice import RecordedDice
    from engines.wowboard import rules_combat as C
    from tests.wowboard.test_combat import fight, pool

    state = fight([("mirefin", "green")])  # attack 3
    warden = state.characters["warden"]
    warden.health, warden.bag = health, list(bag)
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": 3})
    return state, warden


def test_character_defeat_1_a_last_chance_heal_keeps_the_character_in_the_fight_then_the_rest_lands():
    # wowboard:character-defeat.1 wowboard:combat-general.2
    from tests.wowboard.test_turn import E, act

    state, warden = _last_stand(["healing_draught"])
    d = E.decision(state)
    assert (d.kind, d.seats) == ("last_chance", [0]) and warden.health == 0
    assert state.pending[0].options == ["healing_draught", "none"] and state.pending[0].n == 1
    assert state.combat.step == "last_chance" and "warden" not in state.combat.fallen
    act(state, 0, {"kind": "choose", "value": "healing_draught"})
    assert warden.health == 3 - 1 and warden.bag == []  # healed 3, then the wound left over
    assert "healing_draught" in state.item_decks["triangle"].bottom  # a spent consumable (items.6)
    assert state.combat.round == 2 and not state.pending


def test_character_defeat_1_declining_the_last_chance_falls_and_nothing_usable_asks_nothing():
    # wowboard:character-defeat.1
    from tests.wowboard.test_turn import act

    state, warden = _last_stand(["healing_draught"])
    act(state, 0, {"kind": "choose", "value": "none"})
    assert state.combat is None and warden.bag == ["healing_draught"]
    assert [p.kind for p in state.pending] == ["respawn"]
    state, warden = _last_stand([])
    assert state.combat is None and [p.kind for p in state.pending] == []  # fell at once (respawn: engine)
    assert warden.health == 0


def test_character_defeat_1_a_once_per_combat_talent_is_offered_once_and_paid():
    # wowboard:character-defeat.1
    from engines.wowboard.rules_defeat import last_chance_options
    from tests.wowboard.test_turn import act

    state, warden = _last_stand([], health=2)
    assert state.combat is None  # no talent yet
    state, warden = _last_stand([], health=9)
    warden.talents = {2: "second_wind"}
    assert last_chance_options(state, warden) == ["second_wind"]
    state.combat.once_used.append("warden:second_wind")
    assert last_chance_options(state, warden) == []
    state.combat.once_used.clear()
    warden.health = 0
    from engines.wowboard.rules_defeat import open_last_chance

    assert open_last_chance(state, warden, 0)
    act(state, 0, {"kind": "choose", "value": "second_wind"})
    assert warden.health == 2 and state.combat.once_used == ["warden:second_wind"]


def test_character_defeat_1_a_last_chance_at_the_reroll_step_lets_the_character_place_its_hits():
    # wowboard:character-defeat.1 wowboard:reroll.2
    from engines.core.dice import RecordedDice
    from engines.wowboard import rules_combat as C
    from tests.wowboard.test_combat import fight, pool
    from tests.wowboard.test_turn import E, act

    state = fight([("mirefin", "red")])  # each red 1 wounds
    warden = state.characters["warden"]
    warden.health, warden.bag = 1, ["healing_draught"]
    C.roll_attack(state, pool(blue=2, red=1), None, RecordedDice([8, 8, 1]))
    C.reroll(state, [], RecordedDice([]))
    assert E.decision(state).kind == "last_chance" and state.combat.attack.step == "placement"
    events = {e.key.rsplit(".", 1)[1]: e.params for e in act(state, 0, {"kind": "choose",
                                                                        "value": "healing_draught"})}
    assert events["last_chance_used"]["n"] == 3  # back to 3 health
    assert events["hits_placed"]["damage"] == 2  # its two blue hits count (then the red one hits back)
    assert events["wounds_due"]["n"] == 5


def test_character_defeat_1_a_last_chance_against_a_scorch_at_the_rounds_start():
    # wowboard:character-defeat.1
    from tests.wowboard.test_turn import E, act, drafted

    state = drafted()
    state.figures = {}
    state.characters["warden"].region = state.overlord.region = "old_quarry"
    warden = state.characters["warden"]
    warden.health, warden.bag = 1, ["healing_draught"]
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "overlord:ash_wyrm"})
    assert E.decision(state).kind == "last_chance" and state.combat.resume == "round_start"
    assert state.combat.attack is None  # nobody attacks before the answer
    act(state, 0, {"kind": "choose", "value": "healing_draught"})
    assert warden.health == 3 and state.combat.attack.character == "warden" and state.combat.resume == ""
    fresh = drafted()
    fresh.figures = {}
    fresh.characters["warden"].region = fresh.overlord.region = "old_quarry"
    fresh.characters["warden"].health, fresh.characters["warden"].bag = 1, ["healing_draught"]
    act(fresh, 0, {"kind": "challenge", "character": "warden", "target": "overlord:ash_wyrm"})
    act(fresh, 0, {"kind": "choose", "value": "none"})
    assert fresh.combat is None and [p.kind for p in fresh.pending] == ["respawn"]  # the fight is lost
