"""Worked examples of the specification's §5 not covered elsewhere (W6c, W12)."""

from __future__ import annotations

from engines.wowboard import actions as A
from engines.wowboard.content import builtin
from engines.wowboard.rules_challenge import targets
from engines.wowboard.rules_rewards import add_xp, level_for
from tests.wowboard.test_challenge import at, put
from tests.wowboard.test_turn import E, drafted

PACK = builtin()


def test_challenge_2_5_w6c_two_friendly_quest_groups_and_the_overlord_any_of_three_a_friend_may_join():
    # wowboard:W6c
    state = drafted()
    state.figures = {}
    warden = at(state, "warden", "crossroads")  # Horde, its faction's turn with two actions
    at(state, "arcanist", "crossroads")
    put(state, "f1", "mirefin", "green", "crossroads", quest="H-G01", faction="horde")
    put(state, "f2", "dunecur", "green", "crossroads", quest="H-G02", faction="horde")
    assert state.overlord is not None
    state.overlord.region = "crossroads"
    found = targets(state, PACK, warden)
    assert found == ["group:crossroads:dunecur:horde", "group:crossroads:mirefin:horde",
                     f"overlord:{state.overlord.id}"]
    legal = [a for a in E.legal_actions(state, warden.seat) if isinstance(a, A.Challenge) and a.character == "warden"]
    assert {a.target for a in legal} == set(found)
    assert {a.target for a in legal if a.invite == ["arcanist"]} == set(found)  # challenge.5: the friend may join
    state.characters["arcanist"].actions_left = 0  # a friend without an action cannot
    legal = [a for a in E.legal_actions(state, warden.seat) if isinstance(a, A.Challenge) and a.character == "warden"]
    assert all(a.invite == [] for a in legal)


def test_levels_1_w12_four_xp_move_the_marker_four_spaces():
    # wowboard:W12
    assert PACK.xp_levels[0] == 5  # the built-in track: level 2 at 5 XP
    xp, gained = add_xp(0, 4, PACK.xp_levels)
    assert (xp, gained, level_for(xp, PACK.xp_levels)) == (4, [], 1)  # four spaces, no level yet
    xp, gained = add_xp(xp, 4, PACK.xp_levels)
    assert (xp, gained) == (8, [2])  # the marker moves on and passes the level-2 space
