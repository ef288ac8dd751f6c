"""Forms, totems and pets (302-304): what their cards create and how it leaves.

- Forms (302): the card is set aside when played (its extra cost); the form takes effect when
  the ability resolves, returning any previous form card to the bar face up and ready without a
  "becomes ready" event (302.4). Destruction ends the form the same way (A15).
- Totems (303): a token on the caster's space, allied to its party, outliving it.
- Pets (304): a character without a bar, placed next to its master, its clock copied from the
  master's after the summon cost (304.2); one pet per player (A13).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis.content import CharacterDef, PetDef, TotemDef
from engines.wowminis.rules_board import can_stop, ev, nearest_free, neighbours
from engines.wowminis.rules_stats import form_card
from engines.wowminis.state import CharState, State, TotemState


def end_form(state: State, c: CharState) -> list[Event]:
    """302.4/A15: the form card goes back to the bar face up and ready; no trigger fires."""
    card = form_card(c)
    c.form = None
    if card is None:
        return []
    card.zone, card.face_up, card.ready = "bar", True, True
    return [ev("form_left", char=c.id, name=c.defn.name, form=card.defn.name if card.defn else "")]


def enter_form(state: State, c: CharState, card_id: str) -> list[Event]:
    """302.1/302.4: switch to the new form (the old one comes back first)."""
    events = end_form(state, c) if c.form is not None and c.form != card_id else []
    card = next(x for x in c.bar if x.id == card_id)
    card.zone = "set_aside"
    c.form = card_id
    return [*events, ev("form_entered", char=c.id, name=c.defn.name, form=card.defn.name if card.defn else "")]


def place_totem(state: State, c: CharState, totem: TotemDef) -> list[Event]:
    """303.1: the totem goes on the caster's own space; any number may share it."""
    if c.pos is None:
        return []
    number = state.new_id()
    tid = f"{totem.id}-{number}"
    same = sum(1 for t in state.totems.values() if t.defn.id == totem.id)  # labels stay 3 characters: "ST1"
    short = f"{totem.name[:2].upper()}{same % 9 + 1}"
    state.totems[tid] = TotemState(id=tid, controller=c.controller, creator=c.id, defn=totem, short=short, pos=c.pos)
    return [ev("totem_placed", totem=tid, name=totem.name, at=c.pos, char=c.id, caster=c.defn.name)]


def pet_spaces(state: State, master: CharState) -> list[str]:
    """304.1: character-free spaces next to the master (totems allowed), else the nearest ones."""
    if master.pos is None:
        return []
    probe = CharState(id="?", owner=master.owner, controller=master.controller, defn=master.defn, short="?",
                      health=1)
    near = [s for s in neighbours(state, master.pos) if can_stop(state, probe, s)]
    return sorted(near) if near else nearest_free(state, master.pos, probe)


def remove_pet(state: State, pet: CharState, reason: str) -> list[Event]:
    """304.1/403.2a: a pet leaves the game: removal, not destruction (no triggers, no VP)."""
    state.effects = [e for e in state.effects if e.target != pet.id]
    del state.chars[pet.id]
    if state.turn is not None and state.turn.char == pet.id:
        state.turn.ended = True
    return [ev("pet_removed", char=pet.id, name=pet.defn.name, reason=reason, reason_key=f"wowm.reason.{reason}")]


def summon_pet(state: State, master: CharState, pet: PetDef, space: str) -> list[Event]:
    """304.1/304.2: the new pet replaces the player's old one; its clock equals its master's."""
    events: list[Event] = []
    for old in [p for p in state.chars.values() if p.kind == "pet" and p.owner == master.owner]:
        events += remove_pet(state, old, "replaced")
    pid = f"{pet.id}-{master.owner + 1}"
    defn = CharacterDef(id=pet.id, name=pet.name, faction=master.defn.faction, race=pet.race, honor=0,
                        armor=pet.armor, resist=pet.resist, health=pet.health, movement=pet.movement,
                        main_attack=pet.main_attack, keywords=pet.keywords)
    state.chars[pid] = CharState(id=pid, owner=master.owner, controller=master.controller, kind="pet",
                                 master_id=master.id, defn=defn, short=pet.name[:3].upper(), pos=space,
                                 clock=master.clock, health=pet.health)
    return [*events, ev("pet_summoned", char=pid, name=pet.name, at=space, master=master.defn.name)]
