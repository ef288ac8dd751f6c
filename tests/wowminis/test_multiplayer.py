"""Issue 29.1: more than two players (101.1), teams (400.2, 500.3c), VP with several enemies (403.2c) and
victory among several parties (102.1, 102.2). Readings: ``engines/wowminis/rules_parties.py``.

Seats 0-3 play Alliance, Horde, Monsters and Alliance again (``<card id>-<seat+1>``); with ``teams`` the
1st and 3rd seats (0, 2) play against the 2nd and 4th (1, 3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from common.i18n import t
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowminis import ENGINE
from engines.wowminis.rules_board import relation
from engines.wowminis.rules_clock import spawn_points
from engines.wowminis.rules_destroy import check_victory
from engines.wowminis.rules_react import open_window
from engines.wowminis.rules_stats import armor
from engines.wowminis.rules_targeting import target_sets
from engines.wowminis.state import SCHEMA_VERSION, State
from tests.wowminis.builders import act, event, keys, put, turn

PARTIES = ("elowen,brannoc,lyssara", "thrak,grushka,vorzul", "cinderjaw,mossback,skarn", "teodric,ysolde,dannic")
V3 = Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowminis.v3.json"


def seats(count: int) -> list[SeatSetup]:
    return [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}", config={"party": PARTIES[i]}) for i in range(count)]


def new(count: int = 4, *, teams: bool = False, map_id: str = "stonefang_pass") -> State:
    options = {"map": map_id, "first": "1", **({"teams": "yes"} if teams else {})}
    return ENGINE.new_game(Setup(seats=seats(count), options=options), SeededDice(1))


def board4(count: int = 4, *, teams: bool = False) -> State:
    """Past set-up on the big map: phase ``play``, empty bars, nobody on the map, clocks out of the way."""
    state = new(count, teams=teams)
    state.pool = {p.seat: [] for p in state.players}
    state.phase, state.stage, state.turns_taken = "play", "match", 1
    for c in state.chars.values():
        c.clock = state.master + 9
    for p in state.players:
        p.bar_done, p.auto_reroll, p.pool_public = True, "failures", False
    return state


# --- 101.1: who may sit at the table -------------------------------------------------------------


def test_101_1_two_three_or_four_players_and_teams_only_with_four() -> None:
    assert ENGINE.player_counts({}) == (2, 3, 4)
    assert ENGINE.player_counts({"teams": "yes"}) == (4,) and ENGINE.min_players_for({"teams": "yes"}) == 4
    for count in (1, 5):
        with pytest.raises(RuleError) as info:
            ENGINE.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i}") for i in range(count)]),
                            SeededDice(1))
        assert info.value.rule == "101.1" and info.value.key == "wowm.err.players"
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(Setup(seats=seats(3), options={"teams": "yes"}), SeededDice(1))
    assert info.value.key == "wowm.err.players"
    english, italian = t(info.value.key, "en", count=3), t(info.value.key, "it", count=3)
    assert "2, 3 or 4" in english and "2, 3 o 4" in italian and english != italian
    with pytest.raises(RuleError) as info:
        ENGINE.validate_options({"teams": "maybe"})
    assert info.value.params["option"] == "teams"


def test_101_1_three_and_four_parties_start_with_their_own_pools_and_clocks() -> None:
    for count in (3, 4):
        state = new(count)
        assert [p.seat for p in state.players] == list(range(count)) and state.first_seat == 0
        assert sorted(state.pool) == list(range(count))
        assert all(c.clock == 1 and c.pos is None for c in state.chars.values())  # 101.3
        assert ENGINE.decision(state).seats == list(range(count))  # 101.2a: every seat at once, in secret
        assert all(p.team is None for p in state.players)


def test_403_1_free_for_all_deals_one_spawn_point_per_seat_clockwise_round_the_map() -> None:
    four = new(4)
    assert [p.spawns for p in four.players] == [["A4"], ["P4"], ["P9"], ["A9"]]  # corners, clockwise
    assert spawn_points(four, 1) == ["P4", "H12"]  # its own, and the neutral point nobody was dealt
    three = new(3)
    assert [p.spawns for p in three.players] == [["A4"], ["P4"], ["P9"]]
    assert sorted(spawn_points(three, 2)) == ["A9", "H12", "P9"]  # the corner dealt to nobody is shared
    teams = new(4, teams=True)  # 2 vs 2: each team spawns on its side's points (A33)
    assert [p.spawns for p in teams.players] == [[], [], [], []]
    assert spawn_points(teams, 0) == spawn_points(teams, 2) and "A4" in spawn_points(teams, 2)
    assert "A4" not in spawn_points(teams, 3)


def test_403_1_a_spawning_character_enters_on_its_own_point_in_a_free_for_all() -> None:
    state = board4(4)
    events = turn(state, "skarn-3")
    assert state.pending is not None and {o.value for o in state.pending.options} == {"P9", "H12"}
    events = act(state, 2, "choose", value="P9")
    assert state.chars["skarn-3"].pos == "P9" and "spawned" in keys(events)


# --- 400.2: allies and enemies by team ------------------------------------------------------------


def test_400_2_teammates_are_allies_everyone_else_an_enemy() -> None:
    teams, ffa = new(4, teams=True), new(4)
    assert [relation(teams, 0, s) for s in range(4)] == ["ally", "enemy", "ally", "enemy"]
    assert [relation(teams, 3, s) for s in range(4)] == ["enemy", "ally", "enemy", "ally"]
    assert [relation(ffa, 0, s) for s in range(4)] == ["ally", "enemy", "enemy", "enemy"]


def test_400_2_407_1a_an_attack_may_target_any_free_for_all_enemy_but_never_a_teammate() -> None:
    for team_game, expected in ((False, {"mossback-3", "vorzul-2"}), (True, {"vorzul-2"})):
        state = board4(4, teams=team_game)
        put(state, "brannoc-1", "E5")
        put(state, "vorzul-2", "E6", ahead=3)
        put(state, "mossback-3", "E4", ahead=3)  # seat 2: Brannoc's teammate in 2 vs 2
        put(state, "lyssara-1", "D5", ahead=3)
        turn(state, "brannoc-1")
        main = state.chars["brannoc-1"].defn.main_attack
        targets = {t for combo in target_sets(state, state.chars["brannoc-1"], main) for t in combo}
        assert targets == expected, team_game
        if team_game:
            with pytest.raises(RuleError) as info:
                act(state, 0, "play", ability="main", targets=["mossback-3"])
            assert info.value.rule == "407.1a"


def test_400_2_an_aura_reaches_a_teammate_and_not_a_free_for_all_neighbour() -> None:
    """Brannoc's Steadfast Aura: +1 armor to adjacent allies (his teammate's Mossback in 2 vs 2)."""
    for team_game, bonus in ((True, 1), (False, 0)):
        state = board4(4, teams=team_game)
        put(state, "brannoc-1", "E5")
        mossback = put(state, "mossback-3", "E6", ahead=3)
        assert armor(state, mossback) == mossback.defn.armor + bonus


def test_701_2_107_1_a_window_asks_every_seat_from_the_active_player_clockwise() -> None:
    state = board4(4)
    state.active_seat = 2
    frame = open_window(state, "ability_played")
    assert frame.order == [2, 3, 0, 1]


# --- 500.3c: several characters tied ------------------------------------------------------------


def tie(state: State, active: int, *cids: str) -> int:
    """Put ``cids`` on the master's tick with ``active`` as the active player; who is asked to pick."""
    state.active_seat = active
    for cid in cids:
        state.chars[cid].clock = state.master
    state.stage = "match"
    ENGINE.apply(state, active, {"kind": "prefs", "auto_pass": "never"}, SeededDice(1))  # runs the clock loop
    assert state.pending is not None and state.pending.kind == "next_character"
    assert {o.value for o in state.pending.options} == set(cids)  # A8: among all of them
    return state.pending.seat


def test_500_3c_the_first_player_clockwise_from_the_active_one_picks_in_a_free_for_all() -> None:
    assert tie(board4(4), 1, "elowen-1", "teodric-4") == 3  # from seat 2: 2, 3, 0 → seat 3 owns one
    assert tie(board4(4), 1, "elowen-1", "cinderjaw-3") == 2
    assert tie(board4(4), 3, "thrak-2", "elowen-1") == 0  # wrapping round the table
    assert tie(board4(3), 2, "elowen-1", "thrak-2") == 0
    assert tie(board4(4), 1, "thrak-2", "cinderjaw-3") == 2  # the active player picks last


def test_500_3c_the_same_player_picks_among_his_own() -> None:
    assert tie(board4(4), 0, "thrak-2", "grushka-2") == 1


def test_500_3c_team_counts_as_one_player() -> None:
    # teammates' characters tied: the team picks as one player (the teammate nearest the active one)
    assert tie(board4(4, teams=True), 1, "elowen-1", "cinderjaw-3") == 2
    assert tie(board4(4, teams=True), 0, "elowen-1", "cinderjaw-3") == 0
    # two teams tied: the first *team* to the left of the active one picks; in a free-for-all, seat 2
    assert tie(board4(4, teams=True), 0, "cinderjaw-3", "teodric-4") == 3
    assert tie(board4(4), 0, "cinderjaw-3", "teodric-4") == 2


# --- 403.2c: VP with several enemies -------------------------------------------------------------


def _attack(state: State, attacker: str, seat: int, target: str, faces: list[int]) -> None:
    turn(state, attacker)
    act(state, seat, "play", ability="main", targets=[target], roll=faces)


def test_403_2c_with_several_enemies_the_last_enemy_who_hurt_it_scores() -> None:
    state = board4(4)
    put(state, "lyssara-1", "J4", ahead=5, health=6)
    put(state, "thrak-2", "J3")
    put(state, "mossback-3", "J5", ahead=1)
    _attack(state, "thrak-2", 1, "lyssara-1", [9, 9, 1, 1, 1, 1])  # 2 hits, no blocks
    assert state.chars["lyssara-1"].health == 4 and state.chars["lyssara-1"].last_hit == 1
    act(state, 1, "end_turn")
    state.chars["mossback-3"].clock = state.master
    _attack(state, "mossback-3", 2, "lyssara-1", [9, 9, 9, 9, 1, 1, 1])
    assert state.chars["lyssara-1"].pos is None
    assert [p.vp for p in state.players] == [0, 0, 4, 0]  # the destroyer, not Thrak's player
    assert state.chars["lyssara-1"].last_hit is None  # a new life starts clean


def test_403_2c_a_kill_no_enemy_caused_scores_nobody_in_a_free_for_all_and_the_other_team_in_2v2() -> None:
    state = board4(4)
    put(state, "lyssara-1", "H6")
    events = ENGINE.apply(state, 0, {"kind": "gm_health", "char": "lyssara-1", "health": 0}, SeededDice(1))
    assert [p.vp for p in state.players] == [0, 0, 0, 0] and "kill_unscored" in keys(events)
    teams = board4(4, teams=True)
    put(teams, "lyssara-1", "H6")
    ENGINE.apply(teams, 0, {"kind": "gm_health", "char": "lyssara-1", "health": 0}, SeededDice(1))
    assert [p.vp for p in teams.players] == [0, 4, 0, 0]  # the one opposing party: its first seat to the left


def test_403_2c_a_teammate_hurting_an_ally_does_not_make_it_the_scorer() -> None:
    state = board4(4, teams=True)
    lyssara = put(state, "lyssara-1", "H6")
    from engines.wowminis.rules_effects import damage

    damage(state, "lyssara-1", 2, "effect", dealer="cinderjaw-3", seat=2)  # an ally's area damage, say
    assert lyssara.last_hit is None
    damage(state, "lyssara-1", 1, "effect", dealer="thrak-2", seat=1)
    assert lyssara.last_hit == 1


# --- 102: winning with more than two parties ----------------------------------------------------


def _vp(state: State, *values: int) -> list:
    for p, vp in zip(state.players, values, strict=True):
        p.vp = vp
    return check_victory(state)


def test_102_1_the_first_party_to_its_goal_wins_among_four() -> None:
    state = board4(4)
    goals = [p.goal for p in state.players]
    assert _vp(state, goals[0] - 1, 0, goals[2] - 1, 0) == []
    events = _vp(state, goals[0] - 1, 0, goals[2], 0)
    assert state.winners == [2] and state.end_reason == "honor" and event(events, "game_won").params["seat"] == 2


def test_102_2_three_parties_arriving_together_the_widest_margin_wins() -> None:
    state = board4(4)
    g = [p.goal for p in state.players]
    _vp(state, g[0] + 1, g[1] + 2, g[2] + 1, 0)
    assert state.winners == [1] and state.end_reason == "tiebreak"


def test_102_2_equal_margins_go_to_the_higher_honor_then_to_sudden_death() -> None:
    state = board4(4)
    state.players[2].honor_total += 1  # a party of higher Honor (as with a bigger party)
    state.players[2].goal += 1
    g = [p.goal for p in state.players]
    _vp(state, g[0] + 1, g[1] + 1, g[2] + 1, 0)
    assert state.winners == [2]
    state = board4(4)
    g = [p.goal for p in state.players]
    events = _vp(state, g[0] + 1, g[1] + 1, g[2] + 1, 0)
    assert state.phase == "play" and state.sudden_death and "sudden_death" in keys(events)
    assert _vp(state, g[0] + 1, g[1] + 1, g[2] + 1, g[3] + 1) == []  # still no party ahead of every other
    _vp(state, g[0] + 1, g[1] + 3, g[2] + 2, 0)
    assert state.winners == [1] and state.end_reason == "sudden_death"


def test_102_1_500_3c_a_team_adds_its_vp_and_goals_and_wins_together() -> None:
    state = board4(4, teams=True)
    g = [p.goal for p in state.players]
    assert _vp(state, g[0], 0, 0, 0) == []  # one member at his own goal is half the team's
    _vp(state, g[0], 0, g[2], 0)
    assert state.winners == [0, 2] and state.end_reason == "honor"
    assert ENGINE.outcome(state).winners == [0, 2]


# --- resigning with more than two ---------------------------------------------------------------


def test_a_resigning_player_leaves_a_free_for_all_and_the_others_play_on() -> None:
    state = board4(3)
    put(state, "thrak-2", "H5")
    turn(state, "thrak-2")
    events = act(state, 1, "resign")
    assert state.phase == "play" and state.player(1).resigned and "resigned_left" in keys(events)
    assert not [c for c in state.chars.values() if c.owner == 1] and state.turn is None  # his turn ended
    with pytest.raises(RuleError):
        act(state, 1, "resign")
    act(state, 0, "resign")
    assert state.phase == "over" and state.winners == [2] and state.end_reason == "resigned"


def test_a_team_loses_when_both_its_members_resign() -> None:
    state = board4(4, teams=True)
    act(state, 1, "resign")
    assert state.phase == "play"
    act(state, 3, "resign")
    assert state.winners == [0, 2]


# --- state v4 ----------------------------------------------------------------------------------------


def test_v3_save_loads_as_a_two_player_game_with_no_teams() -> None:
    raw = V3.read_text(encoding="utf-8")
    assert '"schema_version":3' in raw.replace(" ", "")
    state = ENGINE.load_state(raw)
    assert state.schema_version == SCHEMA_VERSION >= 4 and len(state.players) == 2
    assert all(p.team is None and p.spawns == [] for p in state.players)
    assert all(c.last_hit is None for c in state.chars.values())
    assert relation(state, 0, 1) == "enemy" and spawn_points(state, 0) == ["A4", "A9", "H12"]
    assert ENGINE.decision(state) is not None and ENGINE.load_state(state.model_dump_json()) == state
