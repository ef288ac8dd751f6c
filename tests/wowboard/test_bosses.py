"""Bosses and the Overlord in a fight (events.5, overlord.2, victory.1)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from tests.wowboard.test_turn import E, act, drafted


def _at(state, region):
    state.figures = {}
    for cid in ("warden", "arcanist"):
        state.characters[cid].region = region
    return state


def test_overlord_2_victory_1_beating_the_overlord_wins_at_once_after_its_scorch():
    # wowboard:victory.1 wowboard:stun-curse.1
    state = _at(drafted(), "old_quarry")
    state.overlord.region = "old_quarry"
    targets = [a.target for a in E.legal_actions(state, 0) if a.kind == "challenge" and a.character == "warden"]
    assert "overlord:ash_wyrm" in targets
    health = state.characters["warden"].health
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "overlord:ash_wyrm"})
    assert state.characters["warden"].health == health - 1  # scorch: a wound at the start of each round
    state.combat.opponents[0].health = 1  # most of the fight already fought: one hit carried over
    state.combat.boxes.damage = 1
    dice = RecordedDice([8] * 12)
    while (d := E.decision(state)) is not None and d.kind in ("pool", "reroll"):
        E.apply(state, 0, E.legal_actions(state, 0)[0], dice)
    assert state.phase == "over" and state.winners == [0] and E.outcome(state).reason_key == "wowboard.end.overlord"


def test_events_5_a_boss_pays_each_survivor_and_leaves_and_its_armor_counts_half():
    state = _at(drafted(), "barrow_fields")
    state.bosses = {"hollow_knight": "barrow_fields"}
    gold = state.characters["warden"].gold
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "boss:hollow_knight"})
    dice = RecordedDice([8] * 30)
    E.apply(state, 0, E.parse_action({"kind": "roll"}), dice)  # every die hits
    combat = state.combat
    if combat is not None and combat.step == "wounds":
        boxes = combat.boxes
        assert combat.pending_wounds == max(0, 9 - boxes.defense - boxes.armor // 2)
        combat.opponents[0].health = 1
    state.combat.opponents[0].health = 1 if state.combat else 0
    while state.combat is not None:
        d = E.decision(state)
        E.apply(state, d.seats[0], E.legal_actions(state, d.seats[0])[0], dice)
    assert state.bosses == {} and state.characters["warden"].gold == gold + 6
