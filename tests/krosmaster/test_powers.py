"""307 keyword powers."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.rules_damage import damage_for
from tests.krosmaster.builders import CRIT, LOCK, cast, fig, find, game, spell


def piece(**kw):
    return game([("p", fig("p", **kw), 1, "A1")]).pieces["p"]


def test_307_1_critical_and_307_2_armor_add_a_die():
    state = game([("a", fig("a", powers=["critical"], spells=[spell("s", element="fire")]), 0, "E5"),
                  ("z", fig("z", powers=["armor"]), 1, "E6")])
    events = cast(state, "s", "E6", [LOCK, LOCK, LOCK, LOCK])
    assert len(find(events, "critical_roll").rolls) == 2  # 307.1a, 602.5b: one more critical die
    assert len(find(events, "armor_roll").rolls) == 2  # 307.2a, 602.6b: one more armor die


def test_308_2b_neutral_spells_roll_one_critical_die():
    state = game([("a", fig("a", powers=["critical"]), 0, "E5"), ("z", fig("z"), 1, "E6")])
    events = cast(state, "hit", "E6", [LOCK, LOCK])
    assert len(find(events, "critical_roll").rolls) == 1


# 307.27a Luck (water), 307.28a Agility (air), 307.29a Strength (earth), 307.30a Intelligence (fire):
# one more die on the critical roll of the caster (602.5b) and on the armor roll of the target (602.6b).
@pytest.mark.parametrize(("power", "element"),
                         [("luck", "water"), ("agility", "air"), ("strength", "earth"), ("intelligence", "fire")])
def test_307_27_to_307_30_element_powers_add_critical_and_armor_dice(power, element):
    state = game([("a", fig("a", powers=[power], spells=[spell("s", element=element)]), 0, "E5"),
                  ("z", fig("z", powers=[power]), 1, "E6")])
    events = cast(state, "s", "E6", [LOCK] * 4)
    assert len(find(events, "critical_roll").rolls) == 2
    assert len(find(events, "armor_roll").rolls) == 2
    other = "fire" if element != "fire" else "water"
    state = game([("a", fig("a", powers=[power], spells=[spell("s", element=other)]), 0, "E5"),
                  ("z", fig("z"), 1, "E6")])
    events = cast(state, "s", "E6", [LOCK] * 2)
    assert len(find(events, "critical_roll").rolls) == 1


# 307.5a water, 307.6a air, 307.7a earth, 307.8a fire: -1 damage from spells of that element;
# 307.9a all four. 308.2a: an elemental spell's damage is of its element, so no other resistance counts.
@pytest.mark.parametrize("element", ["water", "air", "earth", "fire"])
def test_307_5_to_307_9_resistances(element):
    s = spell("s", element=element, amount=3)
    assert damage_for(s, piece(), piece(powers=[f"resist_{element}"]), 0, 0) == 2
    assert damage_for(s, piece(), piece(powers=["resist_all"]), 0, 0) == 2
    other = "water" if element != "water" else "air"
    assert damage_for(s, piece(), piece(powers=[f"resist_{other}"]), 0, 0) == 3


def test_307_10_immunized_307_11_fragility_307_12_toughness():
    fire, neutral = spell("f", element="fire", amount=4), spell("n", amount=4)
    assert damage_for(fire, piece(), piece(powers=["immunized"]), 1, 0) == 0  # 307.10a: elemental to 0
    assert damage_for(neutral, piece(), piece(powers=["immunized"]), 0, 0) == 4
    assert damage_for(neutral, piece(), piece(powers=["fragility"]), 0, 0) == 5  # 307.11a: +1
    assert damage_for(fire, piece(), piece(powers=["toughness"]), 0, 0) == 2  # 307.12a: -2


def test_307_13_blindness_only_adjacent_and_never_self():
    spells = [spell("far", range={"type": "ranged", "min": 1, "max": 5}), spell("me", range={"type": "self"})]
    state = game([("a", fig("a", powers=["blindness"], spells=spells), 0, "E5"), ("z", fig("z"), 1, "E8")])
    # 601.7: the power's constraint is a prerequisite of every cast.
    assert {label(p.target) for p in spell_targets(state, "far")} == {"E4", "F5", "E6", "D5"}  # 307.13a
    assert spell_targets(state, "me") == []  # 307.13b: never its own square
    with pytest.raises(RuleError):
        cast(state, "far", "E8")


def test_307_16_counterattack_hits_back_at_step_8():
    state = game([("a", fig("a"), 0, "E5"), ("b", fig("b"), 0, "A1"),
                  ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    events = cast(state, "hit", "E6", [CRIT, LOCK])
    assert find(events, "counterattack").params["wounds"] == 1  # 307.16a: one wound on the enemy that hit it
    assert state.pieces["a"].wounds == 1


def test_307_16_no_counterattack_without_wounds_or_from_allies():
    state = game([("a", fig("a", spells=[spell("s", amount=0)]), 0, "E5"), ("b", fig("b"), 0, "A1"),
                  ("z", fig("z", powers=["counterattack"]), 1, "E6")])
    cast(state, "s", "E6", [LOCK, LOCK])
    assert state.pieces["a"].wounds == 0  # 602.8b: 0 damage inflicts no wound, so there is nothing to answer
    state = game([("a", fig("a"), 0, "E5"), ("z", fig("z", powers=["counterattack"]), 0, "E6"),
                  ("y", fig("y"), 1, "L12")])
    cast(state, "hit", "E6", [LOCK, LOCK])
    assert state.pieces["a"].wounds == 0


def test_403_inspiration_die_grants_power():
    from engines.krosmaster.state import Inspiration

    p = piece()
    p.inspirations.append(Inspiration(face="critical", seat=1))
    assert p.has("critical")  # 314.2c: a power gained applies at once
