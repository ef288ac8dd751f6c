"""Issue 29.4: scenario rules. A scenario (100.1) is pack data chosen in the lobby; it sets the party
rules (size, faction rule, pool and bar sizes), whether the destroyed come back (403.1) and whether
neutral spawn points change side (406.3b). Built-in: ``standard``, ``short``, ``last_stand``, ``crossroads``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowminis import ENGINE
from engines.wowminis.content import local_name
from engines.wowminis.rules_clock import matching, spawn_points
from engines.wowminis.rules_destroy import check
from engines.wowminis.rules_setup import bar_options, seat_chars
from engines.wowminis.state import State
from tests.wowminis.builders import PACK, act, board, event, keys, put, turn
from tests.wowminis.playout import Snapshot, choose

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowminis.v1.json"


def _game(scenario: str, parties: tuple[str, str] | None = None, **options: str) -> State:
    seats = [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}",
                       config={"party": parties[i]} if parties else {"faction": ("alliance", "horde")[i]})
             for i in range(2)]
    return ENGINE.new_game(Setup(seats=seats, options={"scenario": scenario, "first": "1", **options}),
                           SeededDice(3))


def _with(state: State, scenario: str) -> State:
    state.scenario = PACK.scenario(scenario).model_copy(deep=True)
    return state


# ---------------------------------------------------------------------------- 100.1 scenario objects
def test_100_1_scenarios_are_pack_data_named_in_both_languages() -> None:
    ids = [s.id for s in PACK.scenarios]
    assert ids[:2] == ["standard", "short"] and {"last_stand", "crossroads"} <= set(ids)
    for s in PACK.scenarios:
        assert s.name_it and s.name_it != s.name and s.text and s.text_it, s.id
        if s.map:
            PACK.map(s.map)  # names a real map
    assert local_name(PACK.scenario("crossroads"), "it") == "Crocevia"


def test_100_1_the_lobby_picks_a_scenario_by_id_or_name() -> None:
    assert ENGINE.validate_options({}).get("scenario") is None  # the standard one is the default
    assert ENGINE.validate_options({"scenario": "Last Stand"})["scenario"] == "last_stand"
    crossroads = ENGINE.validate_options({"scenario": "crocevia"})  # the Italian name
    assert crossroads["scenario"] == "crossroads" and crossroads["map"] == "twin_fords"
    assert ENGINE.validate_options({"scenario": "crossroads", "map": "proving_ground"})["map"] == "proving_ground"
    with pytest.raises(RuleError) as refused:
        ENGINE.validate_options({"scenario": "epic"})
    assert {"last_stand", "crossroads", "short"} <= set(refused.value.params["allowed"].split(", "))


def test_100_1_last_stand_sets_party_size_and_bar_size() -> None:
    state = _game("last_stand")
    assert state.scenario.id == "last_stand" and not state.scenario.respawn
    for p in state.players:
        assert len(seat_chars(state, p.seat)) == 2  # party_size 2
        assert len(state.pool[p.seat]) == 6  # pool_per_char 3
    answer = bar_options(state, 0, limit=1)[0]
    assert all(len(cards) == 3 for cards in answer.values())  # bar_per_char 3
    short = {cid: cards[:2] for cid, cards in answer.items()}
    with pytest.raises(RuleError) as refused:
        act(state, 0, "choose_bar", bars=short)
    assert refused.value.rule == "101.2a" and refused.value.params["size"] == 3
    act(state, 0, "choose_bar", bars=answer)
    act(state, 1, "choose_bar", bars=bar_options(state, 1, limit=1)[0])
    assert state.phase == "play" and all(len(c.bar) == 3 for c in state.chars.values())
    with pytest.raises(RuleError) as too_many:
        _game("last_stand", ("elowen,brannoc,lyssara", "thrak,grushka"))
    assert too_many.value.params["problem"] == "size" and too_many.value.params["size"] == 2


def test_100_1_crossroads_allows_mixed_factions_and_a_smaller_pool_and_bar() -> None:
    state = _game("crossroads", ("brannoc,grushka,mossback", "lyssara,sereth,skarn"))
    assert state.board.id == "twin_fords"
    assert {c.defn.faction for c in seat_chars(state, 0)} == {"alliance", "horde", "monster"}
    assert all(len(state.pool[p.seat]) == 6 for p in state.players)  # pool_per_char 2
    assert all(len(cards) == 1 for cards in bar_options(state, 0, limit=1)[0].values())  # bar_per_char 1
    with pytest.raises(RuleError) as two_legends:  # the one-legendary rule still holds
        _game("crossroads", ("elowen,thrak,mossback", "lyssara,sereth,skarn"))
    assert two_legends.value.params["problem"] == "legendary"
    with pytest.raises(RuleError) as mixed:  # and the standard scenario still wants one faction (100.2)
        _game("standard", ("brannoc,grushka,mossback", "lyssara,sereth,skarn"))
    assert mixed.value.params["problem"] == "faction"


# ---------------------------------------------------------------------------- 403.1 permanent death
def test_403_1_with_permanent_death_the_destroyed_never_return() -> None:
    state = _with(board(), "last_stand")
    put(state, "brannoc-1", "C3")
    victim = put(state, "thrak-2", "C4", ahead=3, health=1)
    turn(state, "brannoc-1")
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[9, 9, 1, 1, 1, 1])
    assert keys(events)[keys(events).index("destroyed"):][:2] == ["destroyed", "fallen"]
    assert victim.id not in state.chars  # never again out of play waiting to respawn
    assert state.players[0].vp == 8  # 403.2c still scores it (a legendary)
    assert state.phase == "play"  # the other two are still standing
    state.master += 3
    assert victim.id not in [c.id for c in matching(state)]  # 500.3: it never takes a turn again


def test_403_1_by_default_the_destroyed_wait_to_respawn() -> None:
    state = board()
    put(state, "brannoc-1", "C3")
    victim = put(state, "thrak-2", "C4", ahead=3, health=1)
    turn(state, "brannoc-1")
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[9, 9, 1, 1, 1, 1])
    assert "fallen" not in keys(events) and victim.id in state.chars and victim.pos is None


def test_403_1_the_last_party_standing_wins() -> None:
    """The seed is silent on a party that has nothing left; reading: it is out, the other wins."""
    state = _with(board(), "last_stand")
    for cid in ("grushka-2", "vorzul-2"):
        del state.chars[cid]  # already fallen for good
    state.chars["thrak-2"].pos, state.chars["thrak-2"].health = "C4", 0
    events = check(state)
    assert "game_won" in keys(events) and state.winners == [0] and state.end_reason == "last_standing"
    assert state.players[0].vp < state.players[0].goal  # not by VP


def test_403_1_both_last_parties_falling_together_go_by_vp() -> None:
    state = _with(board(), "last_stand")
    for cid in ("grushka-2", "vorzul-2", "brannoc-1", "lyssara-1"):
        del state.chars[cid]
    put(state, "elowen-1", "C3", health=0)
    put(state, "thrak-2", "C4", health=0)
    state.players[0].vp = 1
    check(state)
    assert state.phase == "over" and state.end_reason == "last_standing"
    assert state.winners == [0]  # both kills are legendary (8 each): 9 against 8


# ---------------------------------------------------------------------------- 406.3b neutral spawn points
def test_406_3b_a_neutral_spawn_point_becomes_the_side_of_who_ends_a_turn_on_it() -> None:
    state = _with(board(map_id="twin_fords"), "crossroads")
    assert "E1" in spawn_points(state, 0) and "E1" in spawn_points(state, 1)  # neutral: either side
    put(state, "brannoc-1", "E1")
    turn(state, "brannoc-1")
    events = act(state, 0, "end_turn")
    captured = event(events, "spawn_captured")
    assert captured.params["at"] == "E1" and captured.params["seat"] == 0
    assert next(s.side for s in state.board.spawn_points if s.at == "E1") == "A"
    assert "E1" in spawn_points(state, 0) and "E1" not in spawn_points(state, 1)  # 403.1: B may not use it
    assert "F8" in spawn_points(state, 1)  # the other neutral point is untouched


def test_406_3b_a_converted_point_stays_with_its_side() -> None:
    state = _with(board(map_id="twin_fords"), "crossroads")
    next(s for s in state.board.spawn_points if s.at == "E1").side = "A"
    put(state, "thrak-2", "E1")
    turn(state, "thrak-2")
    events = act(state, 1, "end_turn")
    assert "spawn_captured" not in keys(events)
    assert next(s.side for s in state.board.spawn_points if s.at == "E1") == "A"


def test_406_3b_in_the_standard_scenario_neutral_points_stay_neutral() -> None:
    state = board(map_id="mirewood_hollow")
    put(state, "brannoc-1", "H7")
    turn(state, "brannoc-1")
    assert "spawn_captured" not in keys(act(state, 0, "end_turn"))
    assert next(s.side for s in state.board.spawn_points if s.at == "H7") == "neutral"


def test_406_3b_a_destroyed_character_captures_nothing() -> None:
    """A10: a character destroyed in its own turn ends it at once; it does not end it on the point."""
    state = _with(board(map_id="twin_fords"), "crossroads")
    c = put(state, "brannoc-1", "E1")
    turn(state, "brannoc-1")
    c.health = 0
    events = check(state)
    from engines.wowminis.rules_resolve import settle

    events += settle(state, SeededDice(1))
    assert "spawn_captured" not in keys(events)
    assert next(s.side for s in state.board.spawn_points if s.at == "E1") == "neutral"


# ---------------------------------------------------------------------------- saves and playouts
def test_406_3b_403_1_a_v1_save_loads_with_the_standard_scenario() -> None:
    state = ENGINE.load_state(FIXTURE.read_text(encoding="utf-8"))
    assert state.scenario.id == "standard" and state.scenario.respawn and state.scenario.spawn_capture == "never"
    assert ENGINE.load_state(state.model_dump_json()) == state


@pytest.mark.parametrize("scenario", ["last_stand", "crossroads"])
def test_100_1_random_games_of_the_new_scenarios_reach_the_end(scenario: str) -> None:
    from tests.wowminis.test_playouts import check as invariants

    ended = set()
    for seed in range(6):
        rng = random.Random(seed)
        seats = [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}", config={"faction": f})
                 for i, f in enumerate(rng.sample(["alliance", "horde", "monster"], 2))]
        dice = SeededDice(seed)
        state = ENGINE.new_game(Setup(seats=seats, options={"scenario": scenario}), dice)
        for n in range(1, 4000):
            decision = ENGINE.decision(state)
            if decision is None:
                break
            seat = rng.choice(decision.seats)
            before = Snapshot(vp=[p.vp for p in state.players], master=state.master)
            ENGINE.apply(state, seat, choose(rng, ENGINE.legal_actions(state, seat), state), dice)
            invariants(before, state, n)
        assert state.phase == "over" and state.winners, (scenario, seed)
        ended.add(state.end_reason)
        if scenario == "crossroads":
            assert state.scenario.spawn_capture == "end_of_turn"
    assert ended
