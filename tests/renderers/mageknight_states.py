"""Mage Knight sample combats for the picture tests, made by the engine itself.

Each builder starts a seeded challenge (or an assist table) through ``ENGINE.new_game`` and
plays legal actions through ``ENGINE.apply``, so a golden picture shows a state the game
can really reach. The seeds were chosen for what each picture must show; a test in
``test_mageknight_render.py`` checks those facts, so a change of the deal is caught there
rather than as a puzzling pixel difference.
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight.state import State

PLAY_SEED = 7  # the table's dice during play (summon draws)

LOG_EN = [
    "Combat starts: Bolt Throwers, Wall Wardens. Source: white, gold, red.",
    "alice aims at Bolt Throwers.",
    "Battering Ram: Siege Attack 2.",
    "Ember Strike (powered, red die): Siege Attack 2. Total 4 of 5.",
]


def new(options: dict[str, Any], seed: int = 1, name: str = "alice") -> State:
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name=name)], options=options)
    return ENGINE.new_game(setup, SeededDice(seed))  # type: ignore[return-value]


def act(state: State, kind: str, **fields: Any) -> None:
    ENGINE.apply(state, 0, {"kind": kind, **fields}, SeededDice(PLAY_SEED))


def public(state: State) -> State:
    """What the channel sees (the renderer only ever gets a view)."""
    return ENGINE.view(state, None)  # type: ignore[return-value]


def ranged() -> State:
    """Keep, tier 3: Bolt Throwers (site-fortified, swift) and Wall Wardens (fortified twice);
    a siege column on Bolt Throwers, 4 of 5, paid with the red Source die."""
    state = new({"site": "keep", "tier": 3, "seed": 1})
    act(state, "target", enemies=["e1"])
    act(state, "play", card="battering_ram")
    act(state, "play", card="ember_strike", side="powered", option=3, mana="die:2")
    return state


def block() -> State:
    """Rampaging, tier 2: Burrow Diggers and Drum Callers; the drummer's summoned token is
    drawn at the block phase and is the one being blocked, with an ice block."""
    state = new({"site": "rampaging", "tier": 2, "seed": 1})
    act(state, "next")
    summoned = next(e for e in state.enemies if e.summoned_by is not None)
    act(state, "target", enemies=[summoned.uid])
    act(state, "play", card="frost_ward", option=1)
    return state


def damage() -> State:
    """Spawning grounds, tier 2: Bone Warden blocked by Frost Monks; Moon Howler unblocked,
    2 of its 6 damage soaked by Village Pikes (wounded), 4 left to assign."""
    state = new({"site": "spawning_grounds", "tier": 2, "seed": 0})
    act(state, "next")
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Frost Monks", ability=1)
    act(state, "commit")
    act(state, "next")
    act(state, "assign", enemy="e2", to="Village Pikes")
    return state


def attack() -> State:
    """The damage picture's combat, later: the hero took the rest (2 Wounds) and a column on
    Bone Warden (fire resistant) mixes a halved fire attack with physical ones: enough."""
    state = damage()
    act(state, "assign", to="hero")
    act(state, "target", enemies=["e1"])
    act(state, "play", card="ember_strike", side="powered", option=0, mana="die:1")
    act(state, "play", card="improvise", discard="quickstep")
    act(state, "sideways", card="endurance")
    return state


def over() -> State:
    """The attack picture's combat, ended: Bone Warden defeated, Moon Howler survives."""
    state = attack()
    act(state, "commit")
    act(state, "next")
    return state


def assist() -> State:
    """Assist table, damage phase: a custom swift ogre blocked with declared blocks; Rime
    Adepts' ice soaked by Rimeguard (resistant: no wound, "soaked"), Glass Golems' paralyze
    destroying Village Pikes; Bog Crones' poison still to assign. Two old Wounds in hand."""
    state = new({"mode": "assist", "level": 3, "site": "none",
                 "enemies": "Glass Golems; Rime Adepts; Ogre armor 5 attack 4 swift resist fire fame 4; Bog Crones",
                 "units": "Rimeguard; Village Pikes", "crystals": "red:1, blue:2", "source": "red, gold, black",
                 "wounds": 2})
    act(state, "next")
    act(state, "target", enemies=["Ogre"])
    act(state, "add", effect="block", amount=5, element="ice", label="Frost wall")
    act(state, "add", effect="block", amount=3)
    act(state, "commit")
    act(state, "next")
    act(state, "assign", enemy="Rime Adepts", to="Rimeguard")
    act(state, "assign", enemy="Glass Golems", to="Village Pikes")
    return state


def crowd() -> State:
    """Eight enemies (assist's most): two rows of tokens, a group of three targeted."""
    state = new({"mode": "assist", "level": 7, "site": "city", "city": "red",
                 "enemies": "Gate Legion; Flame Gunners; Frost Hurlers; Prism Magi; Wall Wardens; Bolt Throwers; "
                            "Rime Adepts; Hermit Zealots",
                 "units": "Twilight Sages; Siege Crew; Rimeguard", "crystals": "white:2", "source": "blue, blue, gold"})
    act(state, "target", enemies=["e1", "e2", "e6"])
    act(state, "activate", unit="Siege Crew")
    act(state, "add", effect="attack", amount=5, element="fire", range="siege", label="Fire Lance")
    return state


def long_column() -> State:
    """An open-hand table (cards public) in the attack phase with a column of many parts:
    more than the panel can list, so it lists the last ones and counts the others."""
    state = new({"site": "rampaging", "tier": 4, "seed": 2, "open_hand": "true"})
    while state.phase in ("ranged_siege", "block"):
        act(state, "next")
    while state.phase == "assign_damage":
        if state.damage is None:
            act(state, "assign", enemy=next(e.uid for e in state.enemies if e.status == "alive" and not e.damage_done),
                to="hero")
        else:
            act(state, "assign", to="hero")
    act(state, "target", enemies=[state.enemies[0].uid])
    while activations := [a for a in ENGINE.legal_actions(state, 0) if a.kind == "activate"]:
        ENGINE.apply(state, 0, activations[0], SeededDice(PLAY_SEED))
    for card in ("trek", "mana_spark", "calm_breath"):
        act(state, "sideways", card=card)
    return state


def crowd_summons() -> State:
    """Assist's most: eight enemies, three of them summoners with their drawn tokens in the
    block phase, and five units: the densest picture the game can ask for."""
    state = new({"mode": "assist", "level": 9,
                 "enemies": "Drum Callers; Veiled Conjurers; Drum Callers; Glass Golems; Prism Magi; Elder Drake; "
                            "Storm Wisp; Mire Drake",
                 "units": "Twilight Sages; Rimeguard; Siege Crew; Village Pikes; Shieldwall Veterans"})
    act(state, "next")
    for token in ("b_howler", "b_matron", "b_wisp"):
        act(state, "choose", value=token)
    act(state, "target", enemies=[next(e.uid for e in state.enemies if e.summoned_by)])
    return state
