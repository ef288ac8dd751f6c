"""Cards that act after the attack phases (``rules_guard``): armor for the defense phase, hits at the hit
assignment and at the resolution, wounds prevented before the split, cards on a wound, at a round's start
and at the end of the combat, PvP armor — each a built-in card in play that changes the fight's outcome as
the rules say (defense-phase.1–3, pvp-defense.1, combat-general.2, combat-round.2, card-limits.1, .3, .4).

Scenarios reuse the four-seat full-pack table of ``test_card_mechanics`` (one green Dunecur: threat 4,
attack 3, health 3) and jump to the defense phase with the boxes set by hand."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.core.events import Event
from engines.wowboard import rules_fight as F
from engines.wowboard import rules_pvp as P
from engines.wowboard.combat_state import BoxState
from engines.wowboard.rules_answers import answer
from engines.wowboard.state import State
from tests.wowboard.test_card_mechanics import challenge, equip, seat, table
from tests.wowboard.test_pvp import boxes, gathered, to_defense


def keys(events: list[Event]) -> list[str]:
    return [e.key.rsplit(".", 1)[1] for e in events]


def fight(*names: str, talents: dict[str, str] | None = None, cards: dict[str, tuple[str, str]] | None = None,
          health: int | None = None) -> State:
    """The first name challenges the Dunecur; the others join the fight (placed in its participants)."""
    state = table(*names)
    for name, card in (talents or {}).items():
        state.characters[name].talents[3] = card
    for name, (area, card) in (cards or {}).items():
        equip(state, name, area, card)
    challenge(state, names[0])
    state.combat.participants += list(names[1:])
    if health is not None:
        for name in names:
            state.characters[name].health = health
    return state


def defend(state: State, **values: int) -> list[Event]:
    """Skip the attack phases: the boxes were set by hand; the defense phase runs on."""
    combat = state.combat
    combat.attack, combat.step, combat.boxes = None, "hit_assign", BoxState(**values)
    return F.settle(state, RecordedDice([]), combat)


# ---------------------------------------------------------------------------- defense: add_armor
def test_defense_phase_2_iron_stance_adds_an_armor_token_for_the_damage_step() -> None:
    # wowboard:defense-phase.2 wowboard:card-limits.1
    state = fight("arcanist", cards={"arcanist": ("active", "iron_stance")})
    events = defend(state, defense=1)
    assert next(e.params for e in events if e.key.endswith("wounds_due")) == {"n": 3 - 1 - 1}
    assert ("card_armor", {"name": "arcanist", "card": "iron_stance", "n": 1}) in [
        (k, e.params) for k, e in zip(keys(events), events, strict=True)]
    assert state.characters["arcanist"].health == 6 - 1
    # wowboard:defense-phase.3: the card's armor is discarded at the resolution like the dice's
    assert state.combat.round == 2 and state.combat.boxes == BoxState(damage=1)


def test_card_limits_3_snare_trap_adds_two_armor_only_in_a_round_it_was_paid_at_the_pool_step() -> None:
    # wowboard:card-limits.3 wowboard:power-cards.3 wowboard:defense-phase.2
    state = fight("ranger", cards={"ranger": ("instant", "snare_trap")})
    assert "snare_trap" in F.affordable_instants(state, "ranger")  # offered at the pool step, nothing to add there
    energy = state.characters["ranger"].energy
    events = F.roll(state, seat(state, "ranger"), ["snare_trap"], [], RecordedDice([1] * 2))  # B1 B1, no Reroll
    assert keys(events).index("card_armor") < keys(events).index("wounds_due")
    assert state.characters["ranger"].energy == energy - 1
    assert state.characters["ranger"].health == 6 - (3 - 2)  # all dice missed: only the card's armor
    state = fight("ranger", cards={"ranger": ("instant", "snare_trap")})
    events = F.roll(state, seat(state, "ranger"), [], [], RecordedDice([1] * 2))
    assert "card_armor" not in keys(events)  # not paid this round: the instant does nothing
    assert state.characters["ranger"].health == 6 - 3


# ---------------------------------------------------------------------------- hit assignment, resolution: add_hits
def test_defense_phase_1_predator_adds_the_hit_that_beats_the_creature_at_the_hit_assignment() -> None:
    # wowboard:defense-phase.1
    state = fight("ranger", talents={"ranger": "predator"})
    events = defend(state, damage=2)
    assert state.combat is None and "combat_won" in keys(events)  # 2 + 1 hits = the Dunecur's health 3
    assert state.characters["ranger"].health == 6  # beaten before the damage step: no wounds


def test_defense_phase_3_relentless_adds_a_hit_at_the_resolution() -> None:
    # wowboard:defense-phase.3
    state = fight("arcanist", talents={"arcanist": "relentless"})
    events = defend(state, defense=2)  # 1 wound; resolution: 2 defense hits + 1 = 3 = the Dunecur's health
    assert state.combat is None and "combat_won" in keys(events)
    assert state.characters["arcanist"].health == 6 - 1


# ---------------------------------------------------------------------------- damage: prevent_wounds
def test_defense_phase_2_rampart_prevents_two_of_the_groups_wounds_before_the_split() -> None:
    # wowboard:defense-phase.2 wowboard:card-limits.1
    state = fight("arcanist", "ranger", cards={"arcanist": ("active", "rampart")})
    events = defend(state)
    assert state.combat.pending_wounds == 3 - 2 and "wounds_prevented" in keys(events)
    state = fight("arcanist", cards={"arcanist": ("active", "rampart")})  # alone: its condition is false
    defend(state)
    assert state.characters["arcanist"].health == 6 - 3


def test_defense_phase_2_stonewall_prevents_a_wound_of_its_owners_own_share() -> None:
    # wowboard:defense-phase.2
    state = fight("arcanist", talents={"arcanist": "stonewall"})
    events = defend(state)
    assert state.characters["arcanist"].health == 6 - (3 - 1)
    assert next(e.params for e in events if e.key.endswith("wounds_prevented"))["n"] == 1
    state = fight("arcanist", "ranger", talents={"arcanist": "stonewall"})
    defend(state)
    events = F.assign_wounds(state, {"ranger": 1, "arcanist": 2}, RecordedDice([]))
    assert (state.characters["ranger"].health, state.characters["arcanist"].health) == (6 - 1, 6 - 1)
    assert "wounds_prevented" in keys(events)  # only its owner's share is reduced


# ---------------------------------------------------------------------------- on_wound
def test_combat_general_2_martyrs_grace_heals_between_two_wound_tokens_and_keeps_its_owner_up() -> None:
    # wowboard:combat-general.2 wowboard:card-limits.4
    state = fight("arcanist", talents={"arcanist": "martyrs_grace"}, health=2)
    defend(state, defense=1)  # 2 wounds: 2 -> 1, the card regains 1 -> 2, the second token -> 1
    assert state.combat is not None and state.characters["arcanist"].health == 1
    events = defend(state, defense=2)  # once per combat: the next wound is not healed
    assert "card_health" not in keys(events) and "fallen" in keys(events) and state.combat is None


def test_combat_general_2_veterans_grit_regains_one_energy_on_a_wound_once_per_combat() -> None:
    # wowboard:combat-general.2
    state = fight("arcanist", talents={"arcanist": "veterans_grit"})
    state.characters["arcanist"].energy = 2
    defend(state, defense=2)
    assert state.characters["arcanist"].energy == 3
    defend(state, defense=2)
    assert state.characters["arcanist"].energy == 3 and state.characters["arcanist"].health == 6 - 2


# ---------------------------------------------------------------------------- round_start, combat_end
def test_combat_round_1_unbroken_regains_a_health_at_the_start_of_each_round() -> None:
    # wowboard:combat-round.1
    state = fight("arcanist", talents={"arcanist": "unbroken"}, health=4)
    events = defend(state, armor=3)  # no wound, no hit; round 2 starts
    assert state.combat.round == 2 and state.characters["arcanist"].health == 5
    assert "card_health" in keys(events)


def test_combat_round_2_field_dressing_and_the_scavengers_pouch_act_when_a_fight_against_creatures_is_won() -> None:
    # wowboard:combat-round.2 wowboard:card-limits.1
    state = fight("ranger", talents={"ranger": "field_dressing"}, cards={"ranger": ("trinket", "scavengers_pouch")},
                  health=3)
    gold = state.characters["ranger"].gold
    events = defend(state, damage=3)
    assert state.combat is None and "combat_won" in keys(events)
    assert state.characters["ranger"].health == 5 and state.characters["ranger"].gold >= gold + 1
    assert ("card_gold", "scavengers_pouch") in [(k, e.params.get("card")) for k, e in
                                                 zip(keys(events), events, strict=True)]


# ---------------------------------------------------------------------------- PvP armor step
def test_pvp_defense_1_camouflage_adds_two_armor_tokens_that_strip_enemy_hits() -> None:
    # wowboard:pvp-defense.1
    state = gathered("warden", "ranger")
    state.characters["ranger"].talents[4] = "camouflage"
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=2)
    events = to_defense(state)
    assert "card_armor" in keys(events)
    assert state.characters["ranger"].health == 8  # both damage hits stripped by the card's armor


def test_pvp_defense_2_stonewall_prevents_a_wound_in_pvp_too() -> None:
    # wowboard:pvp-defense.2 wowboard:defense-phase.2
    state = gathered("warden", "ranger")
    state.characters["ranger"].talents[4] = "stonewall"
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=2)
    to_defense(state)
    assert state.characters["ranger"].health == 8 - 1


# ---------------------------------------------------------------------------- round_start: threat for one colour
def test_token_placement_1_hunters_mark_lowers_the_threat_of_its_owners_blue_dice_for_the_round() -> None:
    # wowboard:token-placement.1 wowboard:card-limits.4
    state = fight("ranger", cards={"ranger": ("active", "hunters_mark")})
    events = F.roll(state, seat(state, "ranger"), [], [], RecordedDice([3, 3]))  # Hunting Bow: two blue dice
    placed = next(e.params for e in events if e.key.endswith("hits_placed"))
    assert placed["hit_damage"] == 2  # a blue 3 hits the Dunecur (threat 4) at threat 3


# ---------------------------------------------------------------------------- a price of its own: asked, then paid
def test_card_limits_3_mana_shield_is_asked_in_the_damage_window_and_prevents_a_wound_only_when_paid() -> None:
    # wowboard:card-limits.3 wowboard:defense-phase.2
    state = fight("arcanist", talents={"arcanist": "mana_shield"})
    energy = state.characters["arcanist"].energy
    defend(state)
    top = state.pending[0]
    assert (top.kind, top.target, top.default) == ("optional_trigger", "mana_shield", "use")
    assert state.combat.step == "wounds"
    assert state.characters["arcanist"].health == 6  # the split waits for the answer
    events = answer(state, seat(state, "arcanist"), "use", RecordedDice([]))
    assert "card_paid" in keys(events) and "wounds_prevented" in keys(events)
    assert (state.characters["arcanist"].energy, state.characters["arcanist"].health) == (energy - 1, 6 - 2)
    state = fight("arcanist", talents={"arcanist": "mana_shield"})
    defend(state)
    answer(state, seat(state, "arcanist"), "decline", RecordedDice([]))
    assert (state.characters["arcanist"].energy, state.characters["arcanist"].health) == (energy, 6 - 3)
