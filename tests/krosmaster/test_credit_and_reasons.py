"""305.2 with 702.5 and 602.9 example 3: the GG of a K.O. go to whoever caused it; and what the table
needs to explain a result: damage reductions (602.7, 307, 308.3), skipped lock rolls (310.6,
315.5b), squares off the board, unknown names listing the known ones, the four sides of 103.2."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Cast, Choose, Move
from engines.krosmaster.content import builtin_pack
from engines.krosmaster.rules_board import Board, sq
from engines.krosmaster.rules_summons import place_summon
from engines.krosmaster.state import State
from tests.krosmaster.builders import CRIT, LOCK, act, cast, fig, find, game, keys, move
from tests.krosmaster.test_multiplayer import board_game

MISS = [LOCK, LOCK]


def with_power(state: State, pid: str, *powers: str) -> None:
    piece = state.pieces[pid]
    piece.figurine = piece.figurine.model_copy(update={"powers": list(powers)})


def summon(state: State, caster: str, template: str, square: str) -> str:
    state.summons = {t.id: t for t in builtin_pack().summons}
    before = set(state.pieces)
    place_summon(state, Board.of(state), state.pieces[caster], template, sq(square))
    (pid,) = set(state.pieces) - before
    return pid


# -- who takes the GG (305.2, 702.5) -----------------------------------------------------------
def test_602_9_ex3_702_5_a_counterattack_ko_in_your_own_turn_scores_for_the_counterattacker():
    state = board_game([0, 1, 2, 3, 0], squares=["C3", "C4", "E5", "G7", "A7"])
    with_power(state, "p1", "counterattack")
    state.pieces["p0"].wounds = 4
    events = ENGINE.apply(state, 0, Cast(spell="hit", target="C4"), RecordedDice(MISS))
    assert state.pieces["p0"].ko and "km.gg_gift_pending" not in keys(events)  # not a self-K.O.
    assert find(events, "gg_taken").params["seat"] == 1 and state.player(1).gg == 3 + 2
    assert state.multi is not None and not state.multi.gifts and state.wild_gg == 1


def test_305_2_a_trap_scores_for_its_owner():
    state = board_game([0, 1, 2, 3, 0], squares=["C3", "H8", "E5", "G7", "A7"])
    trap = summon(state, "p3", "snare_trap", "C4")
    state.pieces["p0"].wounds = 3
    events = ENGINE.apply(state, 0, Move(to="C4"), RecordedDice(MISS))  # the Snap: critical, armor
    assert state.pieces["p0"].ko and state.pieces[trap].ko
    assert find(events, "gg_taken").params["seat"] == 3 and state.player(3).gg == 5


def test_305_2_a_bomb_scores_for_its_owner_even_when_another_player_set_it_off():
    state = board_game([0, 1, 2, 3, 0, 1], squares=["C3", "E6", "A1", "L12", "A7", "K1"])
    bomb = summon(state, "p2", "powder_keg", "D6")  # next to p1 on E6
    state.pieces["p1"].wounds = 3
    events = ENGINE.apply(state, 0, Cast(spell="hit", target="D6"), RecordedDice(MISS + MISS))
    assert state.pieces[bomb].ko and state.pieces["p1"].ko  # hit: crit, bomb armor; blast: crit, p1 armor
    assert find(events, "gg_taken").params["seat"] == 2 and state.player(2).gg == 5 and state.player(0).gg == 3


def test_307_31_wisdom_goes_to_the_counterattacker_that_made_the_ko():
    state = game([("a", fig("a", hp=3, level=2), 0, "C3"), ("b", fig("b"), 0, "A1"),
                  ("z", fig("z", powers=["counterattack", "wisdom"]), 1, "C4")], gg=(6, 6), wild=0)
    state.pieces["a"].wounds = 2
    events = cast(state, "hit", "C4", MISS)
    assert state.pieces["a"].ko and find(events, "wisdom").params["seat"] == 1
    assert [p.gg for p in state.players] == [3, 9]  # level 2 + 1 for Wisdom


# -- damage explained (602.7, 307.10a, 308.3) -----------------------------------------------------
def test_307_10_immunized_0_damage_carries_its_reason():
    pack = builtin_pack()
    state = game([("a", pack.figurine("gale_archer"), 0, "E3"), ("z", pack.figurine("cloud_sage"), 1, "E7")])
    events = act(state, Cast(spell="wind_arrow", target="E7"), [CRIT, CRIT, LOCK])  # 2 criticals; armor 1 die
    damage = find(events, "damage").params
    assert damage["damage"] == 0 and damage["element"] == "air"
    assert (damage["reason"], damage["reason_rule"]) == ("immunized", "307.10a")
    assert {"reason": "critical", "rule": "602.7b", "amount": 1} in damage["modifiers"]
    assert [m["reason"] for m in damage["reductions"]] == ["resist_air", "immunized"]
    assert damage["base"] == 2


def test_308_3_damage_beyond_the_hp_is_lost_and_says_so():
    state = game([("a", fig("a"), 0, "E3"), ("z", fig("z", hp=5), 1, "E5")])
    state.pieces["z"].wounds = 4
    damage = find(cast(state, "hit", "E5", MISS), "damage").params
    assert (damage["damage"], damage["wounds"]) == (2, 1)
    assert damage["reductions"] == [{"reason": "hp_cap", "rule": "308.3", "amount": -1}]


def test_602_7_reasons_are_plain_data_with_a_translation_for_each():
    from common.i18n import has
    from engines.krosmaster.rules_damage import damage_total

    target = game([("z", fig("z", powers=["resist_all", "fragility", "toughness"]), 1, "A1")]).pieces["z"]
    total = damage_total(builtin_pack().figurine("ember_witch").spells[0], target, target, 0, 2)
    for modifier in total.modifiers:
        assert set(modifier) == {"reason", "rule", "amount"}
        assert has(f"km.modifier.{modifier['reason']}", "en") and has(f"km.modifier.{modifier['reason']}", "it")


# -- locking explained (310.6, 315.5b) -------------------------------------------------------------
def test_310_6_a_small_piece_leaving_an_enemy_says_why_there_is_no_lock_roll():
    state = game([("a", fig("a", powers=["small"]), 0, "C3"), ("z", fig("z"), 1, "C4")])
    event = find(move(state, "B3"), "lock_ignored_small").params
    assert (event["reason"], event["rule"], event["square"]) == ("small", "310.6", "C3")


def test_310_6_315_5b_an_enemy_that_cannot_lock_is_named_with_its_rule():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z", powers=["small"]), 1, "C4")])
    event = find(move(state, "B3"), "lock_ignored_small_locker").params
    assert (event["locker"], event["rule"]) == ("z", "310.6")
    state = game([("a", fig("a"), 0, "C3"), ("t", fig("t"), 1, "L12")])
    summon(state, "t", "arrow_turret", "C4")
    assert find(move(state, "B3"), "lock_ignored_mechanism").params["rule"] == "315.5b"


def test_310_no_enemy_around_says_nothing():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J9")])
    assert not [k for k in keys(move(state, "B3")) if k.startswith("km.lock_ignored")]


# -- errors that name things ---------------------------------------------------------------------
def test_move_off_the_board_says_off_the_board_not_unreachable():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J9")])
    with pytest.raises(RuleError) as err:
        move(state, "M5")
    assert err.value.key == "km.err.square_off_board" and err.value.params["last"] == "L12"
    assert err.value.rule == "313.1"


def test_unknown_names_list_the_known_ones():
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"arena": "nowhere"})
    assert err.value.key == "km.err.unknown_arena"
    assert err.value.params["known"] == "four_winds, frigost_rink, old_ruins, sunlit_glade"
    with pytest.raises(RuleError) as err:
        ENGINE.validate_team(["iron_warden", "nobody"])
    assert err.value.key == "km.err.unknown_figurine" and "mire_imp" in err.value.params["known"]
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"colour": "red"})
    assert err.value.key == "km.err.unknown_option" and "arena" in err.value.params["known"]
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J9")])
    with pytest.raises(RuleError) as err:
        act(state, Cast(spell="fireball", target="J9"))
    assert err.value.key == "km.err.unknown_spell" and err.value.params["known"] == "hit, punch"


# -- 103.2 and 702.2: four sides ------------------------------------------------------------------
def test_103_2_an_arena_with_four_sides_offers_all_four_and_seats_the_first_player_opposite():
    teams = (["iron_warden", "ember_witch", "gale_archer", "tide_healer"],
             ["bone_crusher", "shadow_rogue", "cloud_sage", "mire_imp", "root_druid"])
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"P{i}", config={"team": list(t)})
                         for i, t in enumerate(teams)], options={"arena": "four_winds"})
    state = ENGINE.new_game(setup, SeededDice(1))
    while ENGINE.decision(state).kind == "order_ties":
        seat = ENGINE.decision(state).seats[0]
        act(state, ENGINE.legal_actions(state, seat)[0], seat=seat)
    decision = ENGINE.decision(state)
    assert decision.kind == "choose_side"
    assert [o.value for o in decision.options] == ["east", "north", "south", "west"]
    act(state, Choose(value="west"), seat=decision.seats[0])
    assert state.player(decision.seats[0]).side == "west" and state.player(state.first_seat).side == "east"


def test_702_2_free_for_all_on_four_sides_gives_each_player_a_side_clockwise():
    from tests.krosmaster.test_multiplayer import setup as multi_setup

    state = ENGINE.new_game(multi_setup([["shadow_rogue", "gale_archer"], ["ember_witch", "mire_imp"],
                                         ["iron_warden", "stone_golem"], ["frost_monk", "cloud_sage"]],
                                        "ffa", arena="four_winds"), SeededDice(1))
    assert state.multi is not None
    act(state, Choose(value="south"), seat=state.multi.seating[0])
    sides = [state.player(s).side for s in state.multi.seating]
    assert sides == ["south", "west", "north", "east"]
