"""Set-up, the class draft and the faction turn without combat (setup, faction-turn, rest, travel,
end-of-faction-turn; worked examples W3 and W4)."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard.engine import WowBoardEngine
from engines.wowboard.state import State

E = WowBoardEngine()


def new(duel: bool = False, first_pick: int = 0) -> State:
    seats = [SeatSetup(seat=0, user_id=1, name="ann"), SeatSetup(seat=1, user_id=2, name="bo")]
    return E.new_game(Setup(seats=seats, options={"duel": duel}), RecordedDice([], picks=[first_pick]))


def act(state: State, seat: int, data: dict) -> list:
    return E.apply(state, seat, E.parse_action(data), RecordedDice([]))


def drafted(duel: bool = False) -> State:
    state = new(duel)
    for cls in (["warden", "ranger"] if duel else ["warden", "ranger", "arcanist", "cantor"]):
        act(state, E.decision(state).seats[0], {"kind": "pick_class", "class_id": cls})
    return state


def test_setup_1_2_two_seats_one_faction_each_draft_round_robin_in_a_drawn_order_classes_unique():
    # wowboard:setup.2 wowboard:factions.1
    state = new(first_pick=1)
    assert [s.faction for s in state.seats] == ["horde", "alliance"] and state.draft_order == [1, 0, 1, 0]
    act(state, 1, {"kind": "pick_class", "class_id": "ranger"})
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "pick_class", "class_id": "ranger"})
    assert err.value.key == "wowboard.err.class_taken" and err.value.rule == "setup.2"
    assert [a.class_id for a in E.legal_actions(state, 0)] == ["warden", "arcanist", "cantor"]
    with pytest.raises(RuleError):
        act(state, 1, {"kind": "pick_class", "class_id": "warden"})  # not bob's pick


def test_setup_4_a_new_character_starts_at_home_with_level_one_capacities_and_five_gold():
    state = drafted()
    warden = state.characters["warden"]
    # level-1 Warden: 8 health and 3 energy, +2 health from its Hornfolk ancestry (health-energy.4)
    assert (warden.faction, warden.region, warden.level, warden.health, warden.energy, warden.gold) == (
        "horde", "cinderhold", 1, 10, 3, 5)
    assert warden.sheet and state.class_decks["warden"] and len(state.merchant) == 6  # setup.4, setup.6
    assert state.characters["ranger"].region == "havenford" and state.phase == "play"


def test_faction_turn_1_the_horde_goes_first_and_each_of_its_characters_gets_two_actions():
    state = drafted()
    assert state.active == "horde" and {c.id: c.actions_left for c in state.characters.values()} == {
        "warden": 2, "arcanist": 2, "ranger": 0, "cantor": 0}
    assert E.decision(state).seats == [0]


def test_faction_turn_2_w3_actions_interleave_and_a_fifth_is_refused():
    # wowboard:W3
    state = drafted()
    act(state, 0, {"kind": "travel", "character": "arcanist", "to": "kilnwatch"})
    act(state, 0, {"kind": "pass", "character": "warden"})
    act(state, 0, {"kind": "travel", "character": "warden", "to": "soot_mire"})
    act(state, 0, {"kind": "pass", "character": "arcanist"})
    assert state.phase == "management" and E.decision(state).kind == "management"
    with pytest.raises(RuleError):
        act(state, 0, {"kind": "pass", "character": "warden"})


def test_end_of_faction_turn_1_2_4_management_then_the_marker_moves_and_the_alliance_acts():
    # wowboard:end-of-faction-turn.2 wowboard:end-of-faction-turn.4
    state = drafted()
    for c in ("warden", "arcanist", "warden", "arcanist"):
        act(state, 0, {"kind": "pass", "character": c})
    act(state, 0, {"kind": "management_done"})
    assert state.turn == 2 and state.active == "alliance" and state.phase == "play"
    assert E.decision(state).seats == [1] and state.characters["ranger"].actions_left == 2
    with pytest.raises(RuleError) as err:
        act(state, 1, {"kind": "travel", "character": "warden", "to": "soot_mire"})
    assert err.value.key == "wowboard.err.not_your_character"


def test_rest_1_w4_regain_up_to_twice_the_level_split_as_chosen_and_one_curse_goes():
    # wowboard:W4
    state = drafted()
    warden = state.characters["warden"]
    act(state, 0, {"kind": "travel", "character": "warden", "to": "soot_mire"})
    warden.health, warden.energy, warden.curse = 3, 0, 2
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "rest", "character": "warden", "health": 2, "energy": 1})
    assert err.value.key == "wowboard.err.rest_total" and err.value.params["max"] == 2
    act(state, 0, {"kind": "rest", "character": "warden", "health": 1, "energy": 1})
    assert (warden.health, warden.energy, warden.curse) == (4, 1, 1)


def test_rest_2_in_a_friendly_town_three_times_the_level_and_every_curse_goes():
    state = drafted()
    warden = state.characters["warden"]  # at Cinderhold, a Horde town
    warden.health, warden.energy, warden.curse = 3, 0, 2
    act(state, 0, {"kind": "rest", "character": "warden", "health": 2, "energy": 1})
    assert (warden.health, warden.energy, warden.curse) == (5, 1, 0)
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "rest", "character": "warden", "health": 0, "energy": 3})
    assert err.value.key == "wowboard.err.rest_capacity" and err.value.params["energy"] == 2


def test_travel_3_the_enemy_start_region_is_not_a_destination_of_a_travel_action():
    state = drafted(duel=True)
    for a in E.legal_actions(state, 0):
        assert getattr(a, "to", None) != "havenford"
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "travel", "character": "warden", "to": "saintsbridge"})  # out of reach, flights too
    assert err.value.key == "wowboard.err.unreachable"


def test_faction_turn_every_listed_action_is_accepted():
    state = drafted()
    for action in E.legal_actions(state, 0):
        copy = state.model_copy(deep=True)
        E.apply(copy, 0, action, RecordedDice([]))
    assert E.load_state(state.model_dump_json()) == state
