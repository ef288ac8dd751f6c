"""The End of the track and the final battle (end-of-faction-turn.2, victory.2–3)."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowboard import rules_pvp as P
from engines.wowboard.combat_state import BoxState
from engines.wowboard.rules_fight import settle
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.state import State
from tests.wowboard.test_turn import E, act, drafted


def last_turn(horde_xp: int = 5, alliance_xp: int = 3) -> State:
    """Turn 30, the Alliance's management step: its confirmation moves the marker to the End."""
    state = drafted()
    state.turn, state.active, state.phase = 30, "alliance", "management"
    for c in state.characters.values():
        c.actions_left = 0
    state.characters["warden"].xp = horde_xp
    state.characters["ranger"].xp = alliance_xp
    state.characters["warden"].region = "soot_mire"  # the battle ignores regions
    state.characters["ranger"].region = "green_hill"
    state.characters["cantor"].health = 2
    state.characters["arcanist"].energy = 0
    return state


def to_battle(state: State, dice=None) -> list:
    events = E.apply(state, 1, E.parse_action({"kind": "management_done"}), dice or RecordedDice([]))
    first = state.final_attackers
    seat = 0 if first == "horde" else 1
    events += E.apply(state, seat, E.parse_action({"kind": "management_done"}), RecordedDice([]))
    events += E.apply(state, 1 - seat, E.parse_action({"kind": "management_done"}), RecordedDice([]))
    return events


def test_victory_2_the_end_stops_play_the_richer_faction_attacks_everyone_refills_and_manages():
    # wowboard:victory.2 wowboard:end-of-faction-turn.2
    state = last_turn()
    events = act(state, 1, {"kind": "management_done"})
    keys = [e.key for e in events]
    assert state.turn == 31 and state.phase == "final_management" and state.final_attackers == "horde"
    assert "wowboard.ev.final_called" in keys and "wowboard.ev.faction_turn" not in keys
    assert not any(k.endswith(("event_drawn", "merchant_item")) for k in keys)  # no icon at the End
    for c in state.characters.values():
        assert (c.health, c.energy) == capacity_of(state, c) and c.actions_left == 0
    d = E.decision(state)
    assert (d.kind, d.seats, d.params["faction"]) == ("final_management", [0], "horde")  # attackers first
    assert [a.kind for a in E.legal_actions(state, 0)] == ["management_done"] and E.legal_actions(state, 1) == []
    with pytest.raises(RuleError):
        act(state, 1, {"kind": "management_done"})
    act(state, 0, {"kind": "management_done"})
    d = E.decision(state)
    assert (d.kind, d.seats, d.params["faction"]) == ("final_management", [1], "alliance")
    act(state, 1, {"kind": "management_done"})
    combat = state.combat
    assert state.phase == "final_battle" and combat.kind == "final" and combat.faction == "horde"
    assert sorted(combat.participants) == ["arcanist", "cantor", "ranger", "warden"]  # wherever they stand
    assert E.decision(state).kind == "attack_order" and E.decision(state).params["faction"] == "horde"


def test_victory_2_the_final_management_lets_a_seat_equip_before_confirming():
    # wowboard:victory.2 wowboard:equipping.2
    state = last_turn()
    act(state, 1, {"kind": "management_done"})
    warden = state.characters["warden"]
    area = next(iter(warden.sheet))
    with pytest.raises(RuleError) as err:  # still the management rules: only cards it holds
        act(state, 0, {"kind": "equip", "character": "warden", "card": "nothing_here", "area": area})
    assert err.value.key != "wowboard.err.not_management"
    with pytest.raises(RuleError) as err:  # the Alliance's turn to manage comes after the Horde's
        act(state, 1, {"kind": "equip", "character": "ranger", "card": "nothing_here", "area": area})
    assert err.value.key == "wowboard.err.not_your_turn"


def test_victory_2_equal_xp_a_recorded_die_picks_the_attackers():
    # wowboard:victory.2
    state = last_turn(horde_xp=4, alliance_xp=4)
    events = act_with(state, 1, {"kind": "management_done"}, RecordedDice([7]))
    tie = next(e for e in events if e.key == "wowboard.ev.final_tie")
    assert tie.rolls == [7] and tie.params["faction"] == "alliance" and state.final_attackers == "alliance"
    assert E.decision(state).seats == [1]


def act_with(state: State, seat: int, data: dict, dice) -> list:
    return E.apply(state, seat, E.parse_action(data), dice)


def test_victory_3_the_faction_with_survivors_wins_and_nobody_respawns():
    # wowboard:victory.3
    state = last_turn()
    to_battle(state)
    state.characters["cantor"].energy = 0  # no Mend to pay for: no last chance (character-defeat.1)
    combat = state.combat
    combat.attack, combat.step = None, "attack"
    combat.pvp_boxes = {"horde": BoxState(damage=30), "alliance": BoxState(damage=3)}
    events = P.begin_defense(state) + settle(state, RecordedDice([]), combat)
    act(state, 0, {"kind": "assign_wounds", "split": {"warden": 3, "arcanist": 0}})
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 15, "cantor": 15}})
    assert state.phase == "over" and state.winners == [0] and state.end_reason == "final_battle"
    assert state.combat is None and state.pending == [] and E.decision(state) is None
    out = E.outcome(state)
    assert out is not None and out.winners == [0] and out.reason_key == "wowboard.end.final_battle"
    assert not any(k.key.endswith("loot") for k in events)


def test_victory_3_both_factions_wiped_at_once_is_a_draw():
    # wowboard:victory.3 wowboard:pvp-defense.5
    state = last_turn()
    to_battle(state)
    state.characters["cantor"].energy = 0  # no Mend to pay for: no last chance (character-defeat.1)
    combat = state.combat
    combat.attack, combat.step = None, "attack"
    combat.pvp_boxes = {"horde": BoxState(damage=40), "alliance": BoxState(damage=40)}
    P.begin_defense(state)
    settle(state, RecordedDice([]), combat)
    act(state, 0, {"kind": "assign_wounds", "split": {"warden": 20, "arcanist": 20}})
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 20, "cantor": 20}})
    assert state.phase == "over" and state.winners == [] and state.end_reason == "draw"
    out = E.outcome(state)
    assert out is not None and out.winners == [] and out.reason_key == "wowboard.end.draw"


def test_victory_3_a_final_battle_played_through_the_engine_ends_the_game():
    # wowboard:victory.3
    for seed in range(4):
        state = last_turn()
        dice = SeededDice(seed)
        for _ in range(400):
            d = E.decision(state)
            if d is None:
                break
            E.apply(state, d.seats[0], E.legal_actions(state, d.seats[0])[0], dice)
        assert state.phase == "over" and state.winners in ([0], [1], [])
        assert E.load_state(state.model_dump_json()) == state
