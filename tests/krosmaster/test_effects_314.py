"""Continuous effects and precedence (314), conditions on additional effects (307.25/307.26),
the Push-Cube spell (313.6a/b) and placing a bought reward from the decision (306.6)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import BuyReward, Cast, Choose
from engines.krosmaster.content import EffectKind, Keyword, builtin_pack
from engines.krosmaster.rules_casting import spells_of
from engines.krosmaster.rules_powers_more import refresh_conditionals
from engines.krosmaster.state import PieceState
from tests.krosmaster.builders import LOCK, act, arena, cast, fig, find, finish_turn, game, keys, spell
from tests.krosmaster.test_kamas_rewards import rw, table


def swindler(effects, **target_kw):
    """``a`` (seat 0) casts a special spell with ``effects`` on ``t`` (seat 1) at C5."""
    caster = fig("a", spells=[{"id": "trick", "kind": "special", "amount": 0, "effects": effects}])
    return game([("a", caster, 0, "C3"), ("t", fig("t", **target_kw), 1, "C5"), ("y", fig("y"), 1, "L12")])


# -- 314.2 / 314.2d: loss of powers ---------------------------------------------------------
def test_314_2d_loss_of_powers_removes_printed_powers_and_beats_a_conditional_gain():
    state = swindler([{"kind": "lose_powers"}], classes=["villain"], powers=["dodge", "revenge"],
                     conditional_powers=[{"condition": "revenge", "x": 1, "powers": ["armor"]}])
    target = state.pieces["t"]
    refresh_conditionals(state)
    assert target.has(Keyword.ARMOR) and target.has(Keyword.DODGE)
    events = cast(state, "trick", "C5")
    assert find(events, "powers_lost").params["name"] == "T"
    refresh_conditionals(state)  # the condition still holds, the loss still wins
    assert target.granted == ["armor"]
    assert not target.has(Keyword.ARMOR) and not target.has(Keyword.DODGE) and target.powers() == set()


def test_314_2d_lost_insensitive_no_longer_stops_a_push_written_after_the_loss():
    kept = swindler([{"kind": "push", "value": 2}], powers=["insensitive"])
    events = cast(kept, "trick", "C5")
    assert "km.insensitive" in keys(events) and kept.pieces["t"].pos == "C5"
    lost = swindler([{"kind": "lose_powers"}, {"kind": "push", "value": 2}], powers=["insensitive"])
    cast(lost, "trick", "C5")
    assert lost.pieces["t"].pos == "C7"


def test_314_2_loss_of_powers_lasts_until_the_end_of_the_player_turn():
    state = swindler([{"kind": "lose_powers"}], powers=["armor"])
    cast(state, "trick", "C5")
    assert not state.pieces["t"].has(Keyword.ARMOR)
    finish_turn(state, [1, 2])  # the turn passes to seat 1
    assert state.active_seat == 1
    assert not state.pieces["t"].powers_lost and state.pieces["t"].has(Keyword.ARMOR)


def test_314_4_a_knocked_out_piece_keeps_no_loss_of_powers():
    state = swindler([{"kind": "lose_powers"}, {"kind": "wounds", "value": 3}], hp=3)
    cast(state, "trick", "C5")
    assert state.pieces["t"].ko and not state.pieces["t"].powers_lost


# -- 314.1c: a waiting effect whose power is gone ----------------------------------------------
def test_314_1c_waiting_counterattack_is_dropped_when_its_power_is_lost_before_step_8():
    control = swindler([{"kind": "wounds", "value": 1}], powers=["counterattack"])
    events = cast(control, "trick", "C5")
    assert "km.counterattack" in keys(events) and control.pieces["a"].wounds == 1
    state = swindler([{"kind": "wounds", "value": 1}, {"kind": "lose_powers"}], powers=["counterattack"])
    events = cast(state, "trick", "C5")
    assert "km.counterattack" not in keys(events) and state.pieces["a"].wounds == 0
    assert find(events, "effect_lost").params == {"kind": "counterattack", "piece": "t", "name": "T"}


# -- 307.25/307.26 on additional effects --------------------------------------------------------
def jab_game(villains: int):
    """Vesk (a villain) jabs ``t``; ``villains`` counts Vesk plus opposing villains on the board."""
    vesk = next(f for f in builtin_pack().figurines if f.id == "vesk_grifter")
    others = [(f"v{i}", fig(f"v{i}", classes=["Cattivo"]), 1, f"L{i + 1}") for i in range(villains - 1)]
    return game([("a", vesk, 0, "C4"), ("t", fig("t"), 1, "C5"), *others])


def test_307_26_revenge_condition_on_an_additional_effect_needs_x_villains():
    state = jab_game(villains=1)
    events = cast(state, "crooked_jab", "C5", [LOCK, LOCK])
    unmet = find(events, "condition_unmet").params
    assert (unmet["condition"], unmet["x"], unmet["have"], unmet["effect"]) == ("revenge", 2, 1, "mp_tokens")
    assert state.pieces["t"].mp_tokens == 0 and state.pieces["t"].wounds == 2  # the damage is not conditional
    state = jab_game(villains=2)
    events = cast(state, "crooked_jab", "C5", [LOCK, LOCK])
    assert "km.condition_unmet" not in keys(events) and state.pieces["t"].mp_tokens == -1


def test_307_25_blame_condition_counts_at_cast_time_for_every_step():
    hit = spell("smite", element="earth", range={"type": "melee"},
                effects=[{"kind": "element_damage", "value": 2, "element": "fire",
                          "requires": {"condition": "blame", "x": 1}}])
    state = game([("a", fig("a", spells=[hit]), 0, "C4"), ("t", fig("t", classes=["vigilante"]), 1, "C5"),
                  ("y", fig("y"), 1, "L12")])
    cast(state, "smite", "C5", [LOCK, LOCK])
    assert state.pieces["t"].wounds == 4  # 2 + 2 fire while the vigilante stands
    state = game([("a", fig("a", spells=[hit]), 0, "C4"), ("t", fig("t"), 1, "C5"), ("y", fig("y"), 1, "L12")])
    cast(state, "smite", "C5", [LOCK, LOCK])
    assert state.pieces["t"].wounds == 2


# -- 313.6a/b: Push-Cube ------------------------------------------------------------------------
def rink(caster_at: str = "C6", rider: tuple[str, list[str]] | None = None):
    board = arena(rink=[f"{c}6" for c in "BCDEFG"], ice_cubes=["D6"], push_cube_ap=2)
    pieces = [("a", fig("a"), 0, caster_at), ("z", fig("z"), 1, "L12")]
    if rider is not None:
        pieces.append(("r", fig("r", powers=rider[1]), 1, rider[0]))
    return game(pieces, board=board)


def test_313_6a_push_cube_is_offered_only_next_to_a_cube_and_costs_the_arenas_ap():
    state = rink("C6")
    assert Cast(spell="push_cube", target="D6") in ENGINE.legal_actions(state, 0)
    far = rink("B6")
    assert not any(isinstance(a, Cast) and a.spell == "push_cube" for a in ENGINE.legal_actions(far, 0))
    with pytest.raises(RuleError) as err:
        cast(far, "push_cube", "D6")
    assert err.value.rule == "601.5"  # Push-Cube is a melee spell: only from an adjacent square
    with pytest.raises(RuleError) as err:
        cast(state, "push_cube", "C7")
    assert err.value.key == "km.err.not_ice_cube" and err.value.rule == "313.6a"
    ap = state.pieces["a"].ap
    events = cast(state, "push_cube", "D6")  # a special spell: no dice (604.2)
    assert state.pieces["a"].ap == ap - 2 and state.board.ice == ["G6"]
    assert find(events, "ice_moved").params == {"square": "D6", "to": "G6", "squares": 3}


def test_313_6b_an_insensitive_rider_travels_with_the_cube_and_is_not_hit():
    state = rink("C6", rider=("D6", ["insensitive"]))
    events = cast(state, "push_cube", "D6")
    rider = state.pieces["r"]
    # 105.2: 313.6b lets the rider move although Insensitive (307.18a) forbids it: the permission wins.
    assert rider.pos == "G6" and state.board.ice == ["G6"] and rider.wounds == 0
    assert find(events, "ice_rider").params["to"] == "G6" and "km.insensitive" not in keys(events)


def test_313_6a_a_piece_in_the_way_stops_the_cube_and_a_blocked_cube_does_not_move():
    state = rink("C6", rider=("F6", []))
    cast(state, "push_cube", "D6")
    assert state.board.ice == ["E6"]  # stopped before the piece on F6
    stuck = rink("C6", rider=("E6", []))
    events = cast(stuck, "push_cube", "D6")
    assert stuck.board.ice == ["D6"] and "km.ice_stuck" in keys(events)


def test_313_6a_push_cube_belongs_to_krosmasters_on_boards_with_ice_only():
    state = rink()
    krosmaster = state.pieces["a"]
    assert "push_cube" in [s.id for s in spells_of(state, krosmaster)]
    creature = PieceState(id="s1", owner=0, figurine=fig("pup").model_copy(update={"summon": "creature"}),
                          short="S1", pos="B6", summoner="a")
    assert "push_cube" not in [s.id for s in spells_of(state, creature)]
    plain = game([("a", fig("a"), 0, "C6"), ("z", fig("z"), 1, "L12")])
    assert "push_cube" not in [s.id for s in spells_of(plain, plain.pieces["a"])]
    assert any(e.kind is EffectKind.SLIDE_CUBE for s in spells_of(state, krosmaster) for e in s.effects)


def test_313_6a_a_pack_spell_cannot_misuse_slide_cube():
    with pytest.raises(ValueError):
        spell("bad", kind="attack", range={"type": "melee"}, effects=[{"kind": "slide_cube", "value": 3}])


# -- 306.6: placing the bought reward by answering the decision ---------------------------------
def test_306_6_the_decision_lists_the_holders_and_a_choice_places_the_reward():
    state = table([rw("herb")], kamas=10)
    act(state, BuyReward(pile="granite1", blind=True))
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "assign_reward"
    assert [o.value for o in decision.options] == ["a", "b"]
    with pytest.raises(RuleError):
        act(state, Choose(value="z"))  # not one of ours
    card = state.rewards.pending
    events = act(state, Choose(value="b"))
    assert find(events, "reward_assigned").params["piece"] == "b"
    assert state.pieces["b"].rewards[0].id == card.id and state.phase == "turn"


def test_306_6_placing_a_reward_is_offered_by_an_answer_button_and_a_select_of_holders():
    from gm.games.krosmaster.presenter import PRESENTER

    state = table([rw("herb")], kamas=10)
    act(state, BuyReward(pile="granite1", blind=True))
    view = ENGINE.view(state, 0)
    assert [b.custom_id for b in PRESENTER.buttons("r", view, seat=0, lang="it")] == ["tv1:km:r:ask"]
    select = PRESENTER.decision_select("r", view, "en")
    assert select is not None and select.custom_id == "tv1:km:r:choose"
    assert [o.value for o in select.options] == ["a", "b"]
    assert select.options[0].label.startswith("A (A) — level 2")
