"""400.3-400.3c, mind control in a 2 vs 2 team game (issue 29.2 with 29.1's teams, 400.2).

Teams are seats 0 + 2 against 1 + 3 (``tests.wowminis.test_multiplayer``). Thrak (seat 1) plays the built-in
Borrowed Will on Brannoc (seat 0): for that nested turn Brannoc's allies and enemies are his controller's
*team's* (400.3a through the one ``relation`` helper), so he may be made to strike his own team, and he goes
back to his owner when that turn ends (400.3c).
"""

from __future__ import annotations

from engines.wowminis import ENGINE
from engines.wowminis.rules_board import relation
from engines.wowminis.rules_targeting import target_sets
from engines.wowminis.state import State
from tests.wowminis.builders import act, give, keys, legal_kinds, pass_all, put, turn
from tests.wowminis.test_multiplayer import board4

ROLL = [9, 9, 9, 9, 1, 1, 1, 1]  # four hits, no blocks


def _teams() -> State:
    """Brannoc (seat 0) on E5 between his party's Lyssara (D5), his teammate's Mossback (E4) and the other
    team's Teodric (F5, seat 3); Thrak (seat 1) on E7 holds Borrowed Will."""
    state = board4(4, teams=True)
    put(state, "thrak-2", "E7")
    put(state, "brannoc-1", "E5", ahead=2)
    put(state, "lyssara-1", "D5", ahead=3)
    put(state, "mossback-3", "E4", ahead=3, health=2)
    put(state, "teodric-4", "F5", ahead=3)
    give(state, "thrak-2", "borrowed_will")
    return state


def _targets(state: State) -> set[str]:
    brannoc = state.chars["brannoc-1"]
    return {t for combo in target_sets(state, brannoc, brannoc.defn.main_attack) for t in combo}


def _take(state: State) -> list:
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability=state.chars["thrak-2"].bar[0].id, targets=["brannoc-1"])
    return events + pass_all(state)


def test_400_3_400_3a_400_3c_mind_control_in_2v2_turns_a_character_on_its_own_team() -> None:
    own = _teams()
    turn(own, "brannoc-1")
    assert _targets(own) == {"teodric-4"}  # his own turn: only the other team is his enemy (400.2)

    state = _teams()
    brannoc, mossback = state.chars["brannoc-1"], state.chars["mossback-3"]
    assert "controlled" in keys(_take(state))
    assert state.turn is not None and state.turn.char == "brannoc-1" and state.active_seat == 1
    assert brannoc.owner == 0 and brannoc.controller == 1
    # 400.3a: seen from the controller's team: his owner's team are enemies, the controller's teammate an ally
    assert [relation(state, brannoc.controller, s) for s in range(4)] == ["enemy", "ally", "enemy", "ally"]
    assert _targets(state) == {"lyssara-1", "mossback-3"}
    offered = {tuple(a.targets) for a in ENGINE.legal_actions(state, 1) if a.kind == "play" and a.ability == "main"}
    assert offered == {("lyssara-1",), ("mossback-3",)}  # never the controller's teammate Teodric
    assert legal_kinds(state, 0) == legal_kinds(state, 2) == legal_kinds(state, 3) == set()  # the controller's

    events = act(state, 1, "play", ability="main", targets=["mossback-3"], roll=ROLL)  # his teammate's Mossback
    events += pass_all(state, roll=ROLL)
    assert mossback.pos is None and "destroyed" in keys(events)
    vp = [e.params for e in events if e.key == "wowm.ev.vp"]
    assert [(p["seat"], p["amount"]) for p in vp] == [(1, 4)]  # 403.2c: the controller, an enemy of seat 2
    assert [p.vp for p in state.players] == [0, 4, 0, 0]

    events = act(state, 1, "end_turn")  # 400.3c: that turn's end gives him back
    assert keys(events)[-3:] == ["turn_ended", "control_reverted", "turn_resumed"]
    assert brannoc.controller == 0 and state.controls == []
    assert [relation(state, brannoc.controller, s) for s in range(4)] == ["ally", "enemy", "ally", "enemy"]
    assert state.turn is not None and state.turn.char == "thrak-2" and state.active_seat == 1
    assert "main" not in {getattr(a, "ability", None) for a in ENGINE.legal_actions(state, 0)}


def test_400_3_the_controllers_teammate_cannot_be_taken_in_2v2() -> None:
    """A teammate's character is an ally of the controller (400.2), so Borrowed Will can't take it (400.3)."""
    state = _teams()
    put(state, "teodric-4", "E6", ahead=3)
    turn(state, "thrak-2")
    targets = {tuple(a.targets) for a in ENGINE.legal_actions(state, 1)
               if a.kind == "play" and a.ability == state.chars["thrak-2"].bar[0].id}
    assert ("brannoc-1",) in targets and ("teodric-4",) not in targets
