"""315 summons and the pending effects they create (314, 602.8c, 602.9), rule by rule."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Cast, Collect, Move
from engines.krosmaster.content import SummonTemplate, builtin_pack, load_pack, merge_packs
from engines.krosmaster.rules_board import Board, sq
from engines.krosmaster.rules_summons import place_summon
from engines.krosmaster.rules_turn import activate
from engines.krosmaster.state import State
from tests.krosmaster.builders import ARMOR, CRIT, LOCK, act, arena, cast, end_turn, fig, find, game, keys, move, spell


def call(id: str = "call", summon: str = "bristlepup", top: int = 2, **kw) -> dict:
    return {"id": id, "kind": "summon", "summon": summon, "summon_max": top, "amount": 0, **kw}


def with_summons(state: State) -> State:
    state.summons = {t.id: t for t in builtin_pack().summons}
    return state


def summon_here(state: State, caster: str, template: str, square: str) -> str:
    """Put a summon on the board as its spell would, for scenarios that start with one in play."""
    before = set(state.pieces)
    place_summon(state, Board.of(state), state.pieces[caster], template, sq(square))
    (pid,) = set(state.pieces) - before
    return pid


def summons_of(state: State, template: str) -> list[str]:
    return [p.id for p in state.pieces.values() if p.figurine.id == template and p.in_play]


def test_315_1a_summon_spell_lands_on_a_free_square_and_skips_steps_4_to_7():
    state = with_summons(game([("a", fig("a", spells=[call()]), 0, "E5"), ("z", fig("z"), 1, "E7")]))
    targets = {a.target for a in ENGINE.legal_actions(state, 0) if isinstance(a, Cast) and a.spell == "call"}
    assert "E6" in targets and "E7" not in targets and "E5" not in targets
    with pytest.raises(RuleError) as err:
        cast(state, "call", "E7")
    assert err.value.key == "km.err.summon_square" and err.value.rule == "315.1a"
    events = cast(state, "call", "E6")  # no dice: a special spell has no critical roll (604.2)
    assert keys(events).count("km.summoned") == 1  # 315.7a: one summon per cast, whatever the bracket (2)
    pup = state.pieces[summons_of(state, "bristlepup")[0]]
    # 602.4c: on the target square; 302.3: a summon brought in by a Krosmaster, without a level.
    assert pup.pos == "E6" and pup.owner == 0 and pup.summoner == "a" and pup.level == 0


def test_315_3a_creature_plays_right_after_its_summoner_and_only_moves_and_attacks():
    state = with_summons(game([("a", fig("a", spells=[call()]), 0, "E5"), ("b", fig("b"), 0, "A1"),
                               ("z", fig("z"), 1, "L12")]))
    cast(state, "call", "E6")
    pid = summons_of(state, "bristlepup")[0]
    assert state.player(0).timeline == ["a", pid, "b"]
    end_turn(state)
    assert state.active_piece == pid
    state.board.kamas["E6"] = 1
    actions = ENGINE.legal_actions(state, 0)
    assert not any(isinstance(a, Collect) for a in actions)  # 315.3b; 304.2: only Krosmasters pick up kamas
    assert {a.spell for a in actions if isinstance(a, Cast)} <= {"nip"}  # no Punch either (205.3 is for Krosmasters)
    with pytest.raises(RuleError) as err:
        act(state, Collect())
    assert err.value.rule == "315.3b"
    assert any(isinstance(a, Move) for a in actions)


def test_315_7_creature_limit_per_team():
    # 315.7b: the highest number in brackets in the team counts, for the team as a whole.
    state = with_summons(game([("a", fig("a", spells=[call(top=2)]), 0, "E5"),
                               ("b", fig("b", spells=[call(top=1)]), 0, "H5"), ("z", fig("z"), 1, "L12")]))
    cast(state, "call", "E6")
    activate(state, "b")
    cast(state, "call", "H6")  # b's own (1) is not the limit: the team's highest is 2
    assert len(summons_of(state, "bristlepup")) == 2
    # 601.3d: the maximum is reached, so the summon spell is not castable.
    assert not [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Cast) and a.spell == "call"]
    with pytest.raises(RuleError) as err:
        cast(state, "call", "H7")
    assert err.value.key == "km.err.summon_limit" and err.value.rule == "315.7"
    activate(state, "a")
    with pytest.raises(RuleError):
        cast(state, "call", "E4")


def test_315_7c_mechanism_limit_per_caster_and_315_7d_summon_again_after_removal():
    turret = call("build", summon="arrow_turret", top=1)
    state = with_summons(game([("a", fig("a", spells=[turret]), 0, "E5"), ("b", fig("b", spells=[turret]), 0, "H5"),
                               ("z", fig("z"), 1, "F9")]))
    cast(state, "build", "E6")
    with pytest.raises(RuleError):
        cast(state, "build", "E4")
    activate(state, "b")
    cast(state, "build", "H6")  # each caster has its own (1)
    assert len(summons_of(state, "arrow_turret")) == 2
    first = state.pieces[summons_of(state, "arrow_turret")[0]]
    first.wounds = first.hp - 1
    activate(state, "z")
    act(state, Cast(spell="hit", target=first.pos), [LOCK, LOCK])  # 2 damage: K.O., no GG (315.1b)
    assert first.ko and state.player(1).gg == 6 and state.wild_gg == 1
    activate(state, first.summoner)
    cast(state, "build", "E4")  # 315.7d
    assert len(summons_of(state, "arrow_turret")) == 2


def test_315_8_summons_vanish_when_summoner_is_ko():
    state = with_summons(game([("a", fig("a", hp=2), 0, "E5"), ("b", fig("b"), 0, "A1"),
                               ("z", fig("z"), 1, "E8")], active="z"))
    pup = summon_here(state, "a", "bristlepup", "E4")
    bomb = summon_here(state, "a", "powder_keg", "E6")
    events = cast(state, "hit", "E5", [LOCK, LOCK])
    assert state.pieces["a"].ko
    assert state.pieces[pup].ko and state.pieces[bomb].ko
    assert "km.summon_spell" not in keys(events)  # no Explosion (315.8)
    assert keys(events).count("km.summon_vanished") == 2
    assert state.player(1).gg == 6 + 2 and state.wild_gg == 0  # only a's level 2: the wild GG and one of P0's


def test_315_4d_bomb_explodes_at_start_of_summoners_turn():
    state = with_summons(game([("x", fig("x", initiative=9), 0, "A1"), ("a", fig("a"), 0, "A3"),
                               ("z", fig("z"), 1, "E7"), ("y", fig("y"), 1, "H7")]))
    bomb = summon_here(state, "a", "powder_keg", "E6")
    assert bomb not in state.player(0).timeline  # 315.4a
    # x ends; before a activates (502.1a) the bomb takes a wound, is K.O. and explodes (fire, square area).
    events = end_turn(state, [LOCK, LOCK])  # critical roll of the bomb, then z's armor roll
    assert state.pieces[bomb].ko and "km.bomb_fuse" in keys(events)
    assert find(events, "damage").params["piece"] == "z" and state.pieces["z"].wounds == 2
    assert state.pieces["y"].wounds == 0  # 315.4e: its own square and the Square area around it, no further
    assert state.active_piece == "a"
    assert state.player(1).gg == 6  # a bomb's K.O. gives no GG (315.1b)


def test_602_8c_bomb_ko_by_damage_explodes_at_step_8():
    state = with_summons(game([("a", fig("a"), 0, "A1"), ("z", fig("z"), 1, "E8"), ("w", fig("w"), 1, "F7")],
                              active="z"))
    bomb = summon_here(state, "a", "powder_keg", "E7")
    events = cast(state, "hit", "E7", [LOCK, LOCK, LOCK, LOCK, LOCK])  # hit: crit, armor; blast: crit, 2 armors
    order = keys(events)
    assert order.index("km.ko") < order.index("km.summon_spell")
    assert state.pieces[bomb].ko
    assert state.pieces["z"].wounds == 2 and state.pieces["w"].wounds == 2  # z's own bomb hurts it: not an ally


def _trap_game(push: int) -> State:
    shove = spell("shove", range={"type": "line", "min": 1, "max": 6}, amount=0, kind="special",
                  effects=[{"kind": "push", "value": push}])
    state = with_summons(game([("a", fig("a", spells=[shove]), 0, "E5"), ("t", fig("t"), 1, "A1"),
                               ("z", fig("z"), 1, "E7")]))
    summon_here(state, "t", "snare_trap", "E8")
    return state


def test_315_6d_trap_springs_when_a_push_ends_exactly_on_it():
    state = _trap_game(push=1)
    # 602.4a: the push at step 3 springs the trap; its Snap waits for step 8 (critical, then armor).
    events = cast(state, "shove", "E7", [LOCK, LOCK])
    z = state.pieces["z"]
    assert z.pos == "E8" and z.wounds == 2 and z.mp_tokens == -2
    assert "km.trap_sprung" in keys(events)
    assert not [p for p in state.pieces.values() if p.figurine.id == "snare_trap" and p.in_play]  # 315.6f


def test_315_6e_push_over_a_trap_does_not_spring_it():
    state = _trap_game(push=2)
    events = cast(state, "shove", "E7")
    assert state.pieces["z"].pos == "E9" and state.pieces["z"].wounds == 0
    assert "km.trap_sprung" not in keys(events)
    assert [p for p in state.pieces.values() if p.figurine.id == "snare_trap" and p.in_play]


def test_315_6d_walking_onto_a_trap_springs_it_and_stops_the_walk():
    state = with_summons(game([("a", fig("a"), 0, "E5"), ("t", fig("t"), 1, "A12")]))
    summon_here(state, "t", "snare_trap", "E6")
    assert "E6" in {a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, Move)}  # 315.6c: free
    move(state, "E7", [LOCK, LOCK], path=["E6", "E7"])
    a = state.pieces["a"]
    assert a.pos == "E6" and a.wounds == 2 and a.mp == 2 and a.mp_tokens == -2


def test_315_6c_one_trap_per_square_and_routes_avoid_traps():
    snare = call("snare", summon="snare_trap", top=2)
    state = with_summons(game([("a", fig("a", spells=[snare]), 0, "E5"), ("z", fig("z"), 1, "L12")]))
    cast(state, "snare", "E6")
    with pytest.raises(RuleError) as err:
        cast(state, "snare", "E6")
    assert err.value.key == "km.err.summon_square"
    assert ENGINE.legal_actions(state, 0)  # the trap does not block its square
    from engines.krosmaster.engine import reachable_squares

    assert reachable_squares(state)["F6"].path == ("F5", "F6")  # same MP, around the trap


def test_315_5_turret_joins_timeline_and_does_not_lock():
    turret = call("build", summon="arrow_turret", top=1)
    state = with_summons(game([("a", fig("a", spells=[turret]), 0, "E5"), ("z", fig("z"), 1, "E7")]))
    cast(state, "build", "E6")
    pid = summons_of(state, "arrow_turret")[0]
    assert state.player(0).timeline == ["a", pid]
    activate(state, "z")
    events = move(state, "F7")  # leaving a square next to the turret: no lock roll (315.5b)
    assert "km.lock_roll" not in keys(events)


def test_315_1e_summons_do_not_block_line_of_sight():
    state = with_summons(game([("a", fig("a"), 0, "E5"), ("z", fig("z"), 1, "E9")]))
    summon_here(state, "a", "arrow_turret", "E7")
    assert "E9" in {a.target for a in ENGINE.legal_actions(state, 0) if isinstance(a, Cast) and a.spell == "hit"}


def test_104_3_a_summon_alone_does_not_keep_its_player_in_the_game():
    state = with_summons(game([("a", fig("a", hp=2), 0, "E5"), ("z", fig("z"), 1, "E8")], active="z"))
    summon_here(state, "a", "arrow_turret", "A1")
    cast(state, "hit", "E5", [LOCK, LOCK])
    assert state.phase == "over" and state.winners == [1]


def test_pack_summon_templates_are_checked_and_merged():
    with pytest.raises(ValueError):  # 315.1c/315.1d: a mechanism (here a turret) has no MP
        SummonTemplate.model_validate({"id": "t", "name": "T", "kind": "turret", "mp": 2,
                                       "spells": [spell().model_dump()]})
    with pytest.raises(ValueError):  # and a creature has some
        SummonTemplate.model_validate({"id": "c", "name": "C", "kind": "creature", "mp": 0,
                                       "spells": [spell().model_dump()]})
    with pytest.raises(RuleError):
        load_pack({"summons": [{"id": "b", "name": "B", "kind": "bomb", "spells": [spell().model_dump()]}]})
    extra = load_pack({"summons": [builtin_pack().summons[0].model_copy(update={"hp": 9}).model_dump(mode="json")]})
    merged = merge_packs(builtin_pack(), extra)
    assert merged.summon(builtin_pack().summons[0].id).hp == 9
    assert len(merged.summons) == len(builtin_pack().summons)


def test_critical_dice_constants_are_the_builders():
    assert (CRIT, ARMOR, LOCK) == (1, 2, 3)  # the scripted rolls above rely on these faces
    assert arena().width == 12


def test_315_4_a_bomb_the_gm_knocks_out_still_explodes():
    from engines.krosmaster.actions import GmWounds

    state = with_summons(game([("a", fig("a"), 0, "A1"), ("z", fig("z"), 1, "E8")]))
    bomb = summon_here(state, "a", "powder_keg", "E7")
    events = act(state, GmWounds(piece=bomb, wounds=1), [LOCK, LOCK])
    assert "km.summon_spell" in keys(events) and state.pieces["z"].wounds == 2 and not state.triggered


def test_315_6d_creature_summoned_on_a_trap_springs_it_but_315_6e_a_bomb_does_not():
    pup_call, keg_call = call("pup"), call("keg", summon="powder_keg")
    state = with_summons(game([("a", fig("a", spells=[pup_call, keg_call]), 0, "E5"), ("t", fig("t"), 1, "L12")]))
    summon_here(state, "t", "snare_trap", "E6")
    summon_here(state, "t", "snare_trap", "F5")
    events = cast(state, "keg", "F5")
    assert "km.trap_sprung" not in keys(events)
    events = cast(state, "pup", "E6", [LOCK, LOCK])  # the Snap at step 8: critical, then the creature's armor
    pup = state.pieces[summons_of(state, "bristlepup")[0]]
    assert "km.trap_sprung" in keys(events) and pup.wounds == 2 and pup.mp_tokens == -2


def test_602_9c_an_explosion_that_knocks_out_another_bomb_chains():
    state = with_summons(game([("x", fig("x", initiative=9), 0, "A1"), ("a", fig("a"), 0, "A3"),
                               ("z", fig("z"), 1, "L12")]))
    summon_here(state, "a", "powder_keg", "E6")
    other = summon_here(state, "z", "powder_keg", "E7")
    events = end_turn(state, [LOCK, LOCK, LOCK])  # a's bomb: critical, armor of z's bomb; then z's bomb: critical
    # 602.9d: the first Explosion has no step 8 of its own; the second joins the one group and resolves.
    assert state.pieces[other].ko and keys(events).count("km.summon_spell") == 2


def test_renderer_draws_every_summon_kind_and_lists_mechanisms():
    from renderers import krosmaster as km

    state = with_summons(game([("a", fig("a"), 0, "E5"), ("z", fig("z"), 1, "E9")]))
    for template, square in (("bristlepup", "E6"), ("powder_keg", "D7"), ("arrow_turret", "C6"), ("snare_trap", "F7")):
        summon_here(state, "a", template, square)
    rows = km._panel_rows(state, state.player(0))
    assert [index for index, _ in rows] == [1, 2, 3, 0, 0]  # creature and turret in the timeline (315.3a, 315.5a)
    png = km.render(state)
    assert png and png[:4] == b"\x89PNG"
