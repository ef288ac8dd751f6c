"""107.1: the active player orders simultaneous things, when the order can change the outcome:
start-of-turn bombs (502.1a), summons of one summoner (315.3a/315.5a), fight-start powers
(103.10b, asked of the player whose powers they are), pending effects of step 8 (602.9a)."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Choose, EndTurn
from engines.krosmaster.content import CustomPower, Effect, EffectKind, builtin_pack
from engines.krosmaster.rules_setup import fight_start
from tests.krosmaster.builders import LOCK, act, cast, end_turn, fig, find, game, keys, spell
from tests.krosmaster.test_summons import summon_here, with_summons

MELEE = {"type": "melee"}


# -- 502.1a: several start-of-turn effects ------------------------------------------------------
def two_bombs():
    state = with_summons(game([("x", fig("x", initiative=9), 0, "A1"), ("a", fig("a"), 0, "A3"),
                               ("z", fig("z"), 1, "E7"), ("y", fig("y"), 1, "L12")]))
    first = summon_here(state, "a", "powder_keg", "E6")
    second = summon_here(state, "a", "powder_keg", "E8")
    return state, first, second


def test_502_1a_two_bombs_at_the_start_of_a_turn_wait_for_the_active_players_order():
    state, _first, second = two_bombs()
    events = end_turn(state)  # x ends; a's preliminary phase: both bombs take their wound and are K.O.
    assert keys(events).count("km.bomb_fuse") == 2 and keys(events).count("km.ko") == 2
    decision = ENGINE.decision(state)
    assert decision.kind == "order_effects" and decision.seats == [0]
    assert {o.label_key for o in decision.options} == {"km.pending.explosion"}
    assert state.active_piece == "a" and state.pieces["a"].ap == 0  # not activated yet (503.1 comes after)
    pick = next(o.value for o in decision.options if o.params["source"] == state.pieces[second].short)
    events = act(state, Choose(value=pick), [LOCK] * 4)  # each explosion: critical, then z's armor
    assert keys(events).count("km.summon_spell") == 2 and state.pieces["z"].wounds == 4
    assert find(events, "summon_spell").params["piece"] == second  # the chosen one first
    assert state.phase == "turn" and state.active_piece == "a" and state.pieces["a"].ap == 6  # then 503.1


def test_502_1a_no_question_when_only_one_explosion_can_reach_anybody():
    state, _, _ = two_bombs()
    state.pieces["z"].pos = "J7"  # out of both areas: nothing to order
    events = end_turn(state, [LOCK, LOCK])  # two critical rolls that hit nobody
    assert keys(events).count("km.summon_spell") == 2 and state.phase == "turn" and state.active_piece == "a"


# -- 315.3a / 315.5a: several summons of one summoner ----------------------------------------------
def test_315_3a_the_active_player_picks_which_summon_plays_first_after_its_summoner():
    state = with_summons(game([("a", fig("a"), 0, "E5"), ("b", fig("b"), 0, "A1"), ("z", fig("z"), 1, "L12")]))
    pup1 = summon_here(state, "a", "bristlepup", "E6")
    pup2 = summon_here(state, "a", "bristlepup", "F5")
    assert state.player(0).timeline == ["a", pup1, pup2, "b"]
    end_turn(state)
    decision = ENGINE.decision(state)
    assert decision.kind == "order_summons" and decision.seats == [0]
    assert [o.value for o in decision.options] == [pup1, pup2]
    with pytest.raises(RuleError) as err:
        act(state, EndTurn())
    assert err.value.key == "km.err.wrong_phase" and err.value.params["phase_key"] == "km.phase.order_summons"
    events = act(state, Choose(value=pup2))
    assert "km.summon_ordered" in keys(events)
    assert state.player(0).timeline == ["a", pup2, pup1, "b"] and state.active_piece == pup2
    end_turn(state)
    assert state.active_piece == pup1


def test_315_3a_one_summon_needs_no_question():
    state = with_summons(game([("a", fig("a"), 0, "E5"), ("z", fig("z"), 1, "L12")]))
    pup = summon_here(state, "a", "bristlepup", "E6")
    end_turn(state)
    assert state.phase == "turn" and state.active_piece == pup


# -- 103.10b: fight-start powers ---------------------------------------------------------------------
def fight_game(brute):
    state = game([("g", brute, 0, "E5"), ("z", fig("z"), 1, "L12")])
    state.turn_number = 0  # the fight has not started: the first turn has no tension roll (402.2)
    state.active_piece = None
    return state


def test_103_10b_a_piece_with_several_fight_start_powers_orders_them_when_it_matters():
    state = fight_game(builtin_pack().figurine("chained_brute"))
    fight_start(state, RecordedDice([]))
    decision = ENGINE.decision(state)
    assert decision.kind == "order_fight_start" and decision.seats == [0]
    assert [o.params["power"] for o in decision.options] == ["Heavy Chains", "War Dance"]
    chains = decision.options[0].value
    act(state, Choose(value=chains), seat=0)  # -4 MP capped at -3 (309.6), then +2: -1
    assert state.phase == "turn" and state.turn_number == 1 and state.active_piece == "g"
    assert state.pieces["g"].mp == 2


def test_103_10b_the_other_order_ends_differently():
    state = fight_game(builtin_pack().figurine("chained_brute"))
    fight_start(state, RecordedDice([]))
    dance = ENGINE.decision(state).options[1].value
    act(state, Choose(value=dance), seat=0)  # +2, then -4 all placed: -2
    assert state.pieces["g"].mp == 1


def test_103_10b_no_question_when_the_powers_commute():
    powers = [CustomPower(name="One", fight_start=[Effect(kind=EffectKind.AP_TOKENS, value=1)]),
              CustomPower(name="Two", fight_start=[Effect(kind=EffectKind.MP_TOKENS, value=1)])]
    state = fight_game(fig("g", custom_powers=[p.model_dump() for p in powers]))
    events = fight_start(state, RecordedDice([]))
    assert keys(events).count("km.ap_tokens") == 1 and state.phase == "turn" and state.pieces["g"].ap == 7


# -- 602.9a: only when the order matters ----------------------------------------------------------
def test_602_9a_two_counterattacks_of_one_player_on_one_caster_need_no_question():
    sweep = spell("sweep", range=MELEE, area="staff", amount=2)
    state = game([("a", fig("a", spells=[sweep]), 0, "E5"), ("z", fig("z", powers=["counterattack"]), 1, "E6"),
                  ("w", fig("w", powers=["counterattack"]), 1, "D6"), ("y", fig("y"), 1, "F6")])
    events = cast(state, "sweep", "E6", [LOCK, LOCK, LOCK, LOCK])  # critical; armor of z, w and y
    assert keys(events).count("km.counterattack") == 2 and state.phase == "turn"
    assert state.pieces["a"].wounds == 2


# -- 602.9a/107.1: an effect that does nothing now may do something after another one (issue 27) ----
def steal_beside_a_bomb(caster_at: str = "E5", bite_range: dict | None = None, **caster_kw):
    """An unwounded caster whose life-steal spell K.O.s an enemy bomb: the Explosion and the life
    steal wait together at step 8."""
    bite = spell("bite", range=bite_range or MELEE, amount=3, effects=[{"kind": "life_steal"}])
    state = with_summons(game([("a", fig("a", hp=10, level=3, spells=[bite], **caster_kw), 0, caster_at),
                               ("z", fig("z"), 1, "L12")]))
    summon_here(state, "z", "powder_keg", "E6")
    return state


def test_602_9a_107_1_an_unwounded_casters_life_steal_is_ordered_beside_an_explosion_that_reaches_it():
    state = steal_beside_a_bomb()
    cast(state, "bite", "E6", [LOCK, LOCK])  # critical of a, armor of the bomb: 3 damage, the bomb is K.O.
    assert state.pieces["a"].wounds == 0  # nothing to heal yet, but the Explosion will wound a
    decision = ENGINE.decision(state)
    assert decision.kind == "order_effects" and decision.seats == [0]
    by_kind = {o.label_key: o.value for o in decision.options}
    assert set(by_kind) == {"km.pending.life_steal", "km.pending.explosion"}
    events = act(state, Choose(value=by_kind["km.pending.explosion"]), [LOCK, LOCK])  # bomb's critical, a's armor
    assert find(events, "life_steal").params["healed"] == 1  # the 1 wound inflicted on the bomb (308.3)
    assert state.pieces["a"].wounds == 2 - 1 and state.phase == "turn"


def test_602_9a_107_1_the_life_steal_first_heals_nothing():
    state = steal_beside_a_bomb()
    cast(state, "bite", "E6", [LOCK, LOCK])
    steal = next(o.value for o in ENGINE.decision(state).options if o.label_key == "km.pending.life_steal")
    events = act(state, Choose(value=steal), [LOCK, LOCK])
    assert find(events, "life_steal").params["healed"] == 0
    assert state.pieces["a"].wounds == 2  # a different outcome: the order was the player's to choose


def test_602_9a_107_1_no_question_when_the_explosion_cannot_reach_the_unwounded_caster():
    state = steal_beside_a_bomb(caster_at="E3", bite_range={"type": "ranged", "min": 1, "max": 6})
    events = cast(state, "bite", "E6", [LOCK, LOCK, LOCK])  # bite: critical, armor; explosion: critical only
    assert state.phase == "turn" and find(events, "life_steal").params["healed"] == 0
    assert state.pieces["a"].wounds == 0


def test_602_9a_107_1_an_unwounded_casters_life_steal_is_ordered_beside_a_counterattack():
    bite = spell("bite", range=MELEE, amount=3, effects=[{"kind": "life_steal"}])
    state = game([("a", fig("a", hp=10, level=3, spells=[bite]), 0, "E5"),
                  ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    cast(state, "bite", "E6", [LOCK, LOCK])
    options = {o.label_key: o.value for o in ENGINE.decision(state).options}
    assert set(options) == {"km.pending.life_steal", "km.pending.counterattack"}
    act(state, Choose(value=options["km.pending.counterattack"]))  # the wound first, then the life steal heals it
    assert state.pieces["a"].wounds == 0 and state.phase == "turn"
