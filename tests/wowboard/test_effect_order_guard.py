"""card-limits.6 outside the attack phase, and Dawn Chorus's gain above capacity (health-energy.2).

The seed: when cards conflict at one moment with no active character (the defense phase, the end of a
fight), the active faction orders them; in the final battle a faction drawn at random orders each such
conflict. A conflict here is an order that changes the outcome: Dawn Chorus ("each participant gains 2
health, even above capacity", at the end of the fight) against Field Dressing ("regain 2 health", same
moment) on a ranger below capacity: regain first and then gain leaves 8, gain first leaves 7.

Scenarios reuse the four-seat full-pack table of ``test_card_mechanics`` (Horde: arcanist, ranger; one
green Dunecur: threat 4, attack 3, health 3). The arcanist pays Dawn Chorus at the pool step (2 red and
2 blue dice) and every die shows 8: 2 damage hits, 3 defense hits, 1 armor; nothing gets through, and the
resolution's 3 defense hits fell the Dunecur, so the fight ends in its first round.
"""

from __future__ import annotations

from pathlib import Path

from engines.core.dice import RecordedDice
from engines.core.events import Event
from engines.wowboard import ENGINE
from engines.wowboard import rules_fight as F
from engines.wowboard import rules_pvp as P
from engines.wowboard.rules_answers import answer
from engines.wowboard.rules_limits import mark
from engines.wowboard.rules_sheet import capacity_of, settle_kept, trim_to_capacity
from engines.wowboard.state import SCHEMA_VERSION, State
from tests.wowboard.test_card_mechanics import challenge, equip, seat, table
from tests.wowboard.test_pvp import boxes, gathered, to_defense

FIXTURES = Path(__file__).parent / "fixtures"
REGAIN_FIRST = "ranger:field_dressing>arcanist:dawn_chorus"
GAIN_FIRST = "arcanist:dawn_chorus>ranger:field_dressing"


def keys(events: list[Event]) -> list[str]:
    return [e.key.rsplit(".", 1)[1] for e in events]


def chorus_fight(ranger_health: int = 5, field_dressing: bool = True) -> State:
    """The arcanist (Dawn Chorus in an instant area) fights the Dunecur with the ranger beside it."""
    state = table("arcanist", "ranger")
    equip(state, "arcanist", "instant_2", "dawn_chorus")
    if field_dressing:
        state.characters["ranger"].talents[3] = "field_dressing"
    challenge(state, "arcanist")
    state.combat.participants += ["ranger"]
    state.characters["ranger"].health = ranger_health
    return state


def win_with_chorus(state: State, instants: tuple[str, ...] = ("dawn_chorus",)) -> list[Event]:
    """Dawn Chorus paid at the pool step, every die an 8: no wound to split, and the Dunecur falls at the
    resolution."""
    events = F.roll(state, seat(state, "arcanist"), list(instants), [], RecordedDice([8] * 6))
    assert state.combat is not None and state.combat.step == "wounds" and state.combat.pending_wounds == 0
    return events + F.assign_wounds(state, {}, RecordedDice([]))


def horde_seats(state: State) -> list[int]:
    return sorted({s.seat for s in state.seats if s.faction == "horde"})


# ---------------------------------------------------------------------------- card-limits.6, a normal fight
def test_card_limits_6_the_active_faction_orders_conflicting_cards_at_the_end_of_a_fight() -> None:
    # wowboard:card-limits.6 wowboard:combat-round.2 wowboard:health-energy.2
    state = chorus_fight()
    events = win_with_chorus(state)
    top = state.pending[0]
    assert (top.kind, top.target, top.faction) == ("effect_order", "combat_end", "horde")
    assert top.seats == horde_seats(state) and set(top.options) == {REGAIN_FIRST, GAIN_FIRST}
    assert "guard_order_asked" in keys(events) and "combat_won" not in keys(events)
    assert state.combat is not None and state.combat.step == "ordering"  # the fight waits for the order
    assert state.characters["ranger"].health == 5
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "effect_order" and d.prompt_key == "wowboard.ask.effect_order_faction"
    events = answer(state, seat(state, "ranger"), REGAIN_FIRST, RecordedDice([]))
    assert state.combat is None and "combat_won" in keys(events)
    ranger, arcanist = state.characters["ranger"], state.characters["arcanist"]
    assert (ranger.health, ranger.kept) == (6 + 2, {"health": 2})  # regained to 6, then gained 2 past it
    assert (arcanist.health, arcanist.kept) == (capacity_of(state, arcanist)[0] + 2, {"health": 2})


def test_card_limits_6_the_other_order_leaves_the_ranger_one_token_lower() -> None:
    # wowboard:card-limits.6
    state = chorus_fight()
    win_with_chorus(state)
    answer(state, seat(state, "arcanist"), GAIN_FIRST, RecordedDice([]))
    ranger = state.characters["ranger"]
    assert (ranger.health, ranger.kept) == (7, {"health": 1})  # 5 + 2 gained; the regain then adds nothing


def test_card_limits_6_cards_whose_order_changes_nothing_are_not_asked_about() -> None:
    # wowboard:card-limits.6: at full health both orders leave the ranger at 8, so there is no conflict
    state = chorus_fight(ranger_health=6)
    events = win_with_chorus(state)
    assert not any(p.kind == "effect_order" for p in state.pending)
    assert state.combat is None and "combat_won" in keys(events)
    assert state.characters["ranger"].health == 8


# ---------------------------------------------------------------------------- card-limits.6, the final battle
def final_battle(roll: int) -> tuple[State, list[Event]]:
    """The Horde (attackers: arcanist, warden) wipe the lone Alliance ranger. Dawn Chorus was paid this round
    and the warden, below capacity, has Field Dressing: the end-of-combat cards conflict (regain first
    leaves the warden at 12, gain first at 10) and a d8 names the faction that orders them."""
    state = gathered("arcanist", "warden", "ranger")
    equip(state, "arcanist", "instant_2", "dawn_chorus")
    state.characters["warden"].talents[3] = "field_dressing"
    state.final_attackers, state.active, state.phase = "horde", "horde", "final_battle"
    P.start(state, ["arcanist", "warden"], ["ranger"], kind="final")
    assert state.characters["warden"].health == capacity_of(state, state.characters["warden"])[0] - 2
    mark(state, state.characters["arcanist"], "dawn_chorus")  # paid at this round's pool step
    boxes(state, "horde", damage=20)
    return state, to_defense(state, RecordedDice([roll]))


def test_card_limits_6_in_the_final_battle_a_die_names_the_faction_that_orders_a_conflict() -> None:
    # wowboard:card-limits.6 wowboard:victory.2
    state, events = final_battle(roll=6)  # 5–8: the defenders
    top = state.pending[0]
    assert (top.kind, top.target, top.faction) == ("effect_order", "combat_end", "alliance")
    assert top.seats == sorted({s.seat for s in state.seats if s.faction == "alliance"})
    drawn = next(e for e in events if e.key.endswith("effect_order_drawn"))
    assert drawn.params["faction"] == "alliance" and drawn.rolls == [6]  # the die is in the log
    assert state.phase == "final_battle" and state.combat.step == "ordering"  # the game waits for the order
    answer(state, top.seats[0], "arcanist:dawn_chorus>warden:field_dressing", RecordedDice([]))
    assert state.phase == "over" and state.end_reason == "final_battle"
    assert state.characters["warden"].health == 10  # the Alliance's order: gain first, the regain then idle


def test_card_limits_6_in_the_final_battle_a_low_die_gives_the_order_to_the_attackers() -> None:
    # wowboard:card-limits.6
    state, _ = final_battle(roll=3)  # 1–4: the attackers
    assert state.pending[0].faction == "horde" and state.pending[0].seats == horde_seats(state)
    answer(state, state.pending[0].seats[0], "warden:field_dressing>arcanist:dawn_chorus", RecordedDice([]))
    assert state.phase == "over" and state.characters["warden"].health == 12


# ---------------------------------------------------------------------------- Dawn Chorus, health-energy.2
def test_health_energy_2_dawn_chorus_gains_past_capacity_and_the_excess_stays_until_lost() -> None:
    # wowboard:health-energy.2 wowboard:combat-round.2 wowboard:card-limits.3
    state = chorus_fight(field_dressing=False)
    win_with_chorus(state)
    assert state.combat is None  # the fight's own overcaps ended with it; the gain came at its end
    arcanist, ranger = state.characters["arcanist"], state.characters["ranger"]
    cap = capacity_of(state, arcanist)[0]
    assert (arcanist.health, arcanist.kept) == (cap + 2, {"health": 2})
    assert (ranger.health, ranger.kept) == (5 + 2, {"health": 1})  # 1 of the 2 is past its capacity of 6
    assert trim_to_capacity(state, arcanist) == [] and arcanist.health == cap + 2  # kept, not trimmed
    arcanist.health -= 1  # a token lost: the gain's excess goes first
    settle_kept(state, arcanist)
    assert arcanist.kept == {"health": 1}
    arcanist.health = cap - 1
    settle_kept(state, arcanist)
    assert arcanist.kept == {}


def test_health_energy_2_dawn_chorus_does_nothing_at_the_end_of_a_fight_it_was_not_paid_in() -> None:
    # wowboard:health-energy.2 wowboard:card-limits.3: an instant works only in a round it was paid
    state = chorus_fight(field_dressing=False)
    F.roll(state, seat(state, "arcanist"), [], [], RecordedDice([8, 8]))  # melee red + armor green only
    F.assign_wounds(state, {"arcanist": 1}, RecordedDice([]))  # attack 3 - 1 defense - 1 armor
    arcanist = state.characters["arcanist"]
    assert arcanist.kept == {} and arcanist.health <= capacity_of(state, arcanist)[0]


# ---------------------------------------------------------------------------- saved games (state v6)
def test_card_limits_6_a_frozen_v5_fight_loads_as_v6_and_its_end_of_combat_cards_are_ordered() -> None:
    # wowboard:card-limits.6 wowboard:health-energy.2
    text = (FIXTURES / "fight_dawn_chorus.v5.json").read_text()
    assert '"schema_version": 5' in text and '"kept"' not in text
    state = ENGINE.load_state(text)
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION >= 6
    assert all(c.kept == {} for c in state.characters.values())
    assert state.combat is not None and state.combat.attack.step == "pool"
    win_with_chorus(state)
    assert state.pending[0].kind == "effect_order" and state.pending[0].faction == "horde"
    ENGINE.apply(state, seat(state, "ranger"), {"kind": "choose", "value": REGAIN_FIRST},  # type: ignore[arg-type]
                 RecordedDice([]))
    assert state.combat is None and state.characters["ranger"].kept == {"health": 2}
    assert ENGINE.load_state(state.model_dump_json()) == state
