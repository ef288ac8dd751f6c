"""Section 6 by number: prerequisites (601) and the steps of a spell (602), with the wound rules they use (308.5)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE, spell_targets
from engines.krosmaster.actions import Cast, Choose, Move
from engines.krosmaster.rules_board import label
from tests.krosmaster.builders import LOCK, act, arena, cast, fig, game, keys, spell

MELEE = {"type": "melee"}
LINE = {"type": "line", "min": 1, "max": 6}


def test_601_1_a_failed_prerequisite_starts_nothing():
    state = game([("a", fig("a", spells=[spell("s", cost={"ap": 7})]), 0, "E5"), ("z", fig("z"), 1, "E6")])
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        cast(state, "s", "E6")
    assert err.value.rule == "601.4a"
    assert state.model_dump_json() == before  # no cost paid, no step run, nothing recorded


def test_601_2_601_3b_every_piece_an_area_would_hit_counts_as_a_target():
    s = spell("s", limit="per_target", area="cross", cost={"ap": 1}, range={"type": "ranged", "min": 1, "max": 6})
    state = game([("a", fig("a", spells=[s]), 0, "E3"), ("z", fig("z"), 1, "E6"), ("y", fig("y"), 1, "H6")])
    cast(state, "s", "E6", [LOCK, LOCK])
    # F6's cross reaches E6: z would be a target again, so F6 is not a legal target this turn.
    assert "F6" not in {label(p.target) for p in spell_targets(state, "s")}
    with pytest.raises(RuleError) as err:
        cast(state, "s", "F6")
    assert err.value.rule == "601.3b"
    cast(state, "s", "H6", [LOCK, LOCK])  # y has not been a target yet
    assert state.pieces["y"].wounds == 2


def test_602_1_the_eight_steps_run_in_their_order():
    s = spell("s", range=MELEE, cost={"ap": 2, "mp": 1, "wounds": 1}, amount=2,
              effects=[{"kind": "mp_tokens", "value": -1}, {"kind": "life_steal"}])
    state = game([("a", fig("a", spells=[s]), 0, "E5"), ("z", fig("z"), 1, "E6")])
    state.pieces["a"].wounds = 3
    events = cast(state, "s", "E6", [LOCK, LOCK])
    assert keys(events) == [
        "km.cast",
        "km.wound_cost",  # step 1: costs (602.2a)
        "km.mp_tokens",  # step 3: additional effects on the target (602.3a: the piece on the target square)
        "km.critical_roll",  # step 4
        "km.armor_roll",  # step 5
        "km.damage",  # steps 6 and 7
        "km.life_steal",  # step 8: the pending effect
    ]
    a, z = state.pieces["a"], state.pieces["z"]
    assert (a.ap, a.mp) == (4, 2)  # 602.2a: AP and MP spent from the bars
    assert z.wounds == 2 and z.mp_tokens == -1  # 602.8a: as many wounds as the damage
    assert a.wounds == 3 + 1 - 2  # the wound cost, then the stolen life


def test_602_1a_no_new_action_until_step_8_is_over_602_1b_then_the_spell_is_resolved():
    bite = spell("bite", range=MELEE, amount=3, effects=[{"kind": "life_steal"}])
    state = game([("a", fig("a", hp=10, level=3, spells=[bite]), 0, "E5"), ("b", fig("b"), 0, "A1"),
                  ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    state.pieces["a"].wounds = 9
    cast(state, "bite", "E6", [LOCK, LOCK])  # life steal and counterattack both wait at step 8
    assert state.phase == "order_effects" and state.cast is not None
    assert all(isinstance(x, Choose) for x in ENGINE.legal_actions(state, 0))
    for action in (Move(to="E4"), Cast(spell="bite", target="E6")):
        with pytest.raises(RuleError) as err:
            act(state, action)
        assert err.value.key == "km.err.wrong_phase"
    steal = next(o.value for o in ENGINE.decision(state).options if o.label_key == "km.pending.life_steal")
    act(state, Choose(value=steal))
    assert state.cast is None and state.phase == "turn"  # 602.1b: every pending effect resolved
    assert any(isinstance(x, Move) for x in ENGINE.legal_actions(state, 0))  # the piece may act again


def test_602_4e_314_1b_additional_effects_resolve_in_their_written_order():
    def shoved(effects):
        shove = spell("shove", kind="special", amount=0, range=LINE, effects=effects)
        state = game([("a", fig("a", spells=[shove]), 0, "E5"), ("z", fig("z"), 1, "E6")])
        cast(state, "shove", "E6")
        return state.pieces["z"].pos

    # Pull first: z is already next to the caster and cannot come closer; then the push.
    assert shoved([{"kind": "pull", "value": 1}, {"kind": "push", "value": 1}]) == "E7"
    # Push first: E7; then the pull brings it back.
    assert shoved([{"kind": "push", "value": 1}, {"kind": "pull", "value": 1}]) == "E6"


def test_308_5c_wounds_placed_by_an_effect_are_inflicted_so_counterattack_answers():
    hex_ = spell("hex", kind="special", amount=0, range=MELEE, effects=[{"kind": "wounds", "value": 1}])
    state = game([("a", fig("a", spells=[hex_]), 0, "E5"), ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    events = cast(state, "hex", "E6")
    assert keys(events) == ["km.cast", "km.wounds", "km.counterattack"]
    assert state.pieces["z"].wounds == 1 and state.pieces["a"].wounds == 1


def test_601_5_601_6_602_3a_a_tree_or_bush_square_may_be_targeted_and_takes_nothing():
    """Reading of 601.5/601.6 with 601.2 and 313.5: a spell targets a square in range and in sight,
    whatever stands on it; 601.2 counts scenery among what a spell reaches. Without the optional
    313.7 scenery has no HP (313.5), so it makes no armor roll (602.6a) and takes no damage; an
    area centred on it still hits the pieces around (602.3b)."""
    blast = spell("blast", area="cross", range={"type": "ranged", "min": 1, "max": 6})
    state = game([("a", fig("a", spells=[blast]), 0, "E3"), ("z", fig("z"), 1, "E8")],
                 board=arena(trees=["E7"], bushes=["G4"]))
    state.board.kamas = {"E8": 2}
    assert {"E7", "G4"} <= {label(p.target) for p in spell_targets(state, "blast")}
    events = cast(state, "blast", "E7", [LOCK, LOCK])  # critical roll, then z's armor roll: z is in the cross
    assert state.pieces["z"].wounds == 2
    assert "E7" in state.board.arena.trees and not [k for k in keys(events) if "scenery" in k]
    assert state.board.kamas == {"E8": 2}  # 304.2: kamas have no life and nothing happens to them
