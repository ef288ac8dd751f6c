"""factions.2 in a fight: under ``faction_decisions: leader`` the attack order (combat-round.1, pvp-combat.2)
and the wound split (defense-phase.2, pvp-defense.2) are voted on by every seat of the faction, and on
disagreement the seat whose character has the most XP decides; by default (``any``) the first seat to answer
still speaks for the faction.

The table is the four-seat full game of ``test_card_mechanics`` (Horde: arcanist on seat 0, ranger on seat 3;
Alliance: warden on seat 1, cantor on seat 2). The arcanist challenges the green Dunecur (attack 3) in the mire
and invites the ranger; every die shows 1, so both miss and the Dunecur's 3 wounds are split at the defense.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import ENGINE
from engines.wowboard.state import SCHEMA_VERSION, State
from gm.games.wowboard.text import event_text
from tests.wowboard.test_card_mechanics import FIGHT_AT, seat, table
from tests.wowboard.test_pvp import boxes, to_defense

FIXTURES = Path(__file__).parent / "fixtures"
ARCANIST, RANGER, WARDEN, CANTOR = 0, 3, 1, 2  # the seats of the four-seat table


def act(state: State, who: int, action: dict[str, object]) -> list[Event]:
    return ENGINE.apply(state, who, action, RecordedDice([1] * 12))  # type: ignore[arg-type]


def keys(events: list[Event]) -> list[str]:
    return [e.key.rsplit(".", 1)[1] for e in events]


def group_fight(leader: bool = True, ranger_xp: int = 4) -> State:
    """The arcanist and the ranger (two seats of the Horde) against the Dunecur, at the attack order step."""
    state = table("arcanist", "ranger")
    if leader:
        state.options["faction_decisions"] = "leader"
    state.characters["ranger"].xp = ranger_xp  # the ranger's seat leads the Horde on XP
    assert (seat(state, "arcanist"), seat(state, "ranger")) == (ARCANIST, RANGER)
    act(state, ARCANIST, {"kind": "challenge", "character": "arcanist",
                          "target": f"group:{FIGHT_AT}:dunecur:free", "invite": ["ranger"]})
    act(state, RANGER, {"kind": "choose", "value": "accept"})
    assert state.combat is not None and state.combat.step == "order"
    return state


def to_wounds(state: State) -> None:
    """Both attack phases miss (every die a 1, nothing rerolled): the Dunecur's 3 wounds are due."""
    while (d := ENGINE.decision(state)) is not None and d.kind in ("pool", "reroll"):
        act(state, d.seats[0], {"kind": "roll"} if d.kind == "pool" else {"kind": "reroll", "dice": []})
    assert state.combat is not None and state.combat.step == "wounds" and state.combat.pending_wounds == 3


def healths(state: State) -> tuple[int, int]:
    return state.characters["arcanist"].health, state.characters["ranger"].health


# ---------------------------------------------------------------------------- leader: a normal fight
def test_factions_2_leader_orders_the_attack_when_the_horde_seats_disagree() -> None:
    # wowboard:factions.2 wowboard:combat-round.1
    state = group_fight()
    d = ENGINE.decision(state)
    assert d is not None and (d.kind, d.seats, d.simultaneous) == ("attack_order", [ARCANIST, RANGER], True)
    events = act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    assert keys(events) == ["order_vote"] and state.combat.step == "order"  # one vote settles nothing
    assert ENGINE.decision(state).seats == [RANGER]  # type: ignore[union-attr]
    assert ENGINE.legal_actions(state, ARCANIST) == []  # a seat votes once
    events = act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    assert keys(events)[:3] == ["order_vote", "leader_orders", "attack_order"]
    decided = events[1]
    assert decided.params["seat"] == RANGER and decided.params["player"] == "dave"
    assert state.combat.order == ["ranger", "arcanist"] and state.combat.attack.character == "ranger"
    assert state.combat.votes == {}


def test_factions_2_leader_splits_the_wounds_when_the_horde_seats_disagree() -> None:
    # wowboard:factions.2 wowboard:defense-phase.2
    state = group_fight()
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, RANGER, {"kind": "set_order", "order": ["arcanist", "ranger"]})  # agreed: nobody decides
    to_wounds(state)
    before = healths(state)
    d = ENGINE.decision(state)
    assert d is not None and (d.kind, d.seats, d.simultaneous) == ("assign_wounds", [ARCANIST, RANGER], True)
    events = act(state, ARCANIST, {"kind": "assign_wounds", "split": {"ranger": 3}})  # "the ranger takes them"
    assert keys(events) == ["wounds_vote"] and healths(state) == before
    events = act(state, RANGER, {"kind": "assign_wounds", "split": {"arcanist": 3, "ranger": 0}})
    assert keys(events)[:2] == ["wounds_vote", "leader_splits"] and events[1].params["seat"] == RANGER
    assert healths(state) == (before[0] - 3, before[1])  # the leader's split landed, not the first one


def test_factions_2_leader_the_arcanists_seat_decides_once_it_leads_on_xp() -> None:
    # wowboard:factions.2
    state = group_fight(ranger_xp=0)
    state.characters["arcanist"].xp = 5
    act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    events = act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    assert events[1].params["seat"] == ARCANIST and state.combat.order == ["arcanist", "ranger"]


def test_factions_2_leader_agreement_needs_no_leader_and_a_tie_on_xp_goes_to_the_dice() -> None:
    # wowboard:factions.2
    state = group_fight(ranger_xp=0)
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, RANGER, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    to_wounds(state)
    act(state, ARCANIST, {"kind": "assign_wounds", "split": {"ranger": 3}})
    events = act(state, RANGER, {"kind": "assign_wounds", "split": {"arcanist": 0, "ranger": 3}})  # the same split
    assert not any(k.startswith("leader_") for k in keys(events))
    state = group_fight(ranger_xp=0)  # both on 0 XP: the dice pick the leader among the two seats
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    events = ENGINE.apply(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]},  # type: ignore[arg-type]
                          RecordedDice([1] * 12, picks=[1]))
    assert keys(events)[1:3] == ["leader_drawn", "leader_orders"] and events[1].params["seat"] == RANGER
    assert state.combat.order == ["ranger", "arcanist"]


def test_factions_2_leader_a_vote_the_fight_would_refuse_is_refused_and_not_counted() -> None:
    # wowboard:factions.2 wowboard:defense-phase.2
    state = group_fight()
    with pytest.raises(RuleError) as err:
        act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist"]})
    assert err.value.key == "wowboard.err.attack_order" and state.combat.votes == {}
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, RANGER, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    to_wounds(state)
    with pytest.raises(RuleError) as err:
        act(state, RANGER, {"kind": "assign_wounds", "split": {"ranger": 2}})
    assert err.value.key == "wowboard.err.wound_split" and state.combat.votes == {}


def test_factions_2_leader_a_seat_that_resigns_mid_vote_leaves_the_answer_to_its_teammate() -> None:
    # wowboard:factions.2
    state = group_fight()
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, ARCANIST, {"kind": "resign"})  # the arcanist goes to the ranger's seat: one seat, no vote
    d = ENGINE.decision(state)
    assert d is not None and (d.seats, d.simultaneous) == ([RANGER], False)
    events = act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    assert "leader_orders" not in keys(events) and state.combat.order == ["ranger", "arcanist"]


# ---------------------------------------------------------------------------- the default: unchanged
def test_factions_2_any_the_first_horde_seat_orders_the_attack_and_splits_the_wounds() -> None:
    # wowboard:factions.2 wowboard:combat-round.1 wowboard:defense-phase.2
    state = group_fight(leader=False)
    d = ENGINE.decision(state)
    assert d is not None and (d.kind, d.seats, d.simultaneous) == ("attack_order", [ARCANIST, RANGER], False)
    events = act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    assert "order_vote" not in keys(events) and state.combat.order == ["arcanist", "ranger"]
    to_wounds(state)
    before = healths(state)
    assert not ENGINE.decision(state).simultaneous  # type: ignore[union-attr]
    events = act(state, ARCANIST, {"kind": "assign_wounds", "split": {"ranger": 3}})
    assert "wounds_vote" not in keys(events) and healths(state) == (before[0], before[1] - 3)


# ---------------------------------------------------------------------------- leader: PvP
def pvp_fight(leader: bool = True) -> State:
    """The arcanist challenges the Alliance in the mire with the ranger: two against two (pvp-combat.1)."""
    state = table("arcanist", "ranger", "warden", "cantor")
    state.figures = {}
    if leader:
        state.options["faction_decisions"] = "leader"
    state.characters["ranger"].xp, state.characters["cantor"].xp = 4, 2
    act(state, ARCANIST, {"kind": "challenge", "character": "arcanist", "target": "pvp", "invite": ["ranger"]})
    act(state, RANGER, {"kind": "choose", "value": "accept"})
    assert state.combat is not None and state.combat.kind == "pvp"
    return state


def test_factions_2_leader_in_pvp_each_faction_votes_its_order_and_its_leader_settles_it() -> None:
    # wowboard:factions.2 wowboard:pvp-combat.2
    state = pvp_fight()
    d = ENGINE.decision(state)
    assert d is not None and (d.seats, d.params["faction"], d.simultaneous) == ([ARCANIST, RANGER], "horde", True)
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    d = ENGINE.decision(state)
    assert d is not None and (d.seats, d.params["faction"]) == ([WARDEN, CANTOR], "alliance")
    act(state, WARDEN, {"kind": "set_order", "order": ["warden", "cantor"]})
    events = act(state, CANTOR, {"kind": "set_order", "order": ["cantor", "warden"]})
    assert events[1].key.endswith("leader_orders") and events[1].params["seat"] == CANTOR
    assert state.combat.order == ["ranger", "cantor", "arcanist", "warden"]  # pvp-combat.2: the sides alternate


def test_factions_2_leader_in_pvp_the_victim_factions_leader_splits_its_wounds() -> None:
    # wowboard:factions.2 wowboard:pvp-defense.2
    state = pvp_fight()
    boxes(state, "alliance", damage=2)  # two hits on the Horde, nothing on the Alliance
    boxes(state, "horde")
    to_defense(state)
    d = ENGINE.decision(state)
    assert d is not None and (d.kind, d.seats, d.params["faction"], d.simultaneous) == (
        "assign_wounds", [ARCANIST, RANGER], "horde", True)
    before = healths(state)
    act(state, ARCANIST, {"kind": "assign_wounds", "split": {"ranger": 2}})
    events = act(state, RANGER, {"kind": "assign_wounds", "split": {"arcanist": 1, "ranger": 1}})
    assert "leader_splits" in keys(events)
    assert healths(state) == (before[0] - 1, before[1] - 1)


def test_factions_2_any_in_pvp_the_first_seat_of_the_faction_orders_it() -> None:
    # wowboard:factions.2 wowboard:pvp-combat.2
    state = pvp_fight(leader=False)
    assert not ENGINE.decision(state).simultaneous  # type: ignore[union-attr]
    act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    assert state.combat.orders["horde"] == ["ranger", "arcanist"] and ENGINE.decision(state).params["faction"] == \
        "alliance"  # type: ignore[union-attr]


# ---------------------------------------------------------------------------- the words and saved games
def test_factions_2_the_votes_and_the_leaders_split_read_with_names_in_both_languages() -> None:
    # wowboard:factions.2
    state = group_fight()
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    act(state, RANGER, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    to_wounds(state)
    votes = act(state, ARCANIST, {"kind": "assign_wounds", "split": {"ranger": 3}})
    votes += act(state, RANGER, {"kind": "assign_wounds", "split": {"arcanist": 2, "ranger": 1}})
    for lang in ("en", "it"):
        lines = [event_text(e, lang) or "" for e in votes if "vote" in e.key or "leader_" in e.key]
        assert len(lines) == 3 and all("{" not in line and "arcanist" not in line for line in lines), lines
        assert "dave" in lines[-1] and ("Arcanist 2" if lang == "en" else "Arcanista 2") in lines[-1]


def test_factions_2_a_frozen_v6_fight_loads_as_v7_and_its_attack_order_is_voted() -> None:
    # wowboard:factions.2
    text = (FIXTURES / "fight_leader_order.v6.json").read_text()
    assert '"schema_version": 6' in text and '"votes"' not in text and '"faction_decisions": "leader"' in text
    state = ENGINE.load_state(text)
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION >= 7
    assert state.combat is not None and state.combat.votes == {} and state.combat.step == "order"
    assert ENGINE.decision(state).seats == [ARCANIST, RANGER]  # type: ignore[union-attr]
    state.characters["ranger"].xp = 3
    act(state, ARCANIST, {"kind": "set_order", "order": ["arcanist", "ranger"]})
    assert ENGINE.load_state(state.model_dump_json()).combat.votes == state.combat.votes  # type: ignore[union-attr]
    act(state, RANGER, {"kind": "set_order", "order": ["ranger", "arcanist"]})
    assert state.combat.order == ["ranger", "arcanist"]
