"""card-limits.1: a card's effect applies only while its condition holds (opponent kind, the previous
round's use, the level) — the dice-pool step used to add every conditional bonus."""

from __future__ import annotations

from engines.wowboard.rules_fight import pool_effects
from engines.wowboard.state import Slot
from tests.wowboard.test_combat import fight


def _added(effects: list, colour: str) -> int:
    return sum(op.n or 0 for e in effects for op in e.ops if op.op == "add_dice" and op.colour == colour)


def test_card_limits_1_judgement_adds_its_red_dice_only_against_a_boss() -> None:
    state = fight([("dunecur", "green")], who=("cantor",))
    state.characters["cantor"].talents[5] = "judgement"
    assert _added(pool_effects(state, "cantor", []), "red") == _added(
        pool_effects(state.model_copy(deep=True), "cantor", []), "red")  # deterministic
    against_creature = _added(pool_effects(state, "cantor", []), "red")
    assert state.combat is not None
    state.combat.opponents[0].kind = "boss"
    assert _added(pool_effects(state, "cantor", []), "red") == against_creature + 2
    state.combat.opponents[0].kind = "overlord"  # overlord.2: the Overlord is a boss
    assert _added(pool_effects(state, "cantor", []), "red") == against_creature + 2


def test_card_limits_1_ember_bolt_adds_a_second_die_only_after_a_use_the_round_before() -> None:
    state = fight([("dunecur", "green")], who=("arcanist",))
    arcanist = state.characters["arcanist"]
    arcanist.energy = 6
    arcanist.sheet["instant"] = Slot(card="ember_bolt")
    base = _added(pool_effects(state.model_copy(deep=True), "arcanist", []), "blue")
    assert _added(pool_effects(state, "arcanist", ["ember_bolt"]), "blue") == base + 1  # round 1: the first die
    assert state.combat is not None
    state.combat.round = 2  # the next round: it was used in round 1
    assert _added(pool_effects(state, "arcanist", ["ember_bolt"]), "blue") == base + 2
    state.combat.round = 4  # not used in round 3: the bonus is gone again
    assert _added(pool_effects(state, "arcanist", ["ember_bolt"]), "blue") == base + 1
