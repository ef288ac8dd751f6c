"""Effects that reach "participating friendly characters" (combat-general.3) when a fight starts and ends.

A participating friendly character is any character of the user's faction taking part in the current
combat, the user included. Such an ability works only while its user takes part: a character who stays
out of the fight lends nothing to the friends who fight, even standing in the same region. So the
``combat_start`` effects are read from the participants' own cards only, and an op aimed at
``participants`` reaches every friendly participant still standing, the user among them.

``gain`` may go above capacity (health-energy.2) for as long as the granting ability lasts: for a
``combat_start`` card, the fight. The tokens above capacity are recorded in ``Character.overcap`` and
trimmed when the fight is over (``rules_sheet.end_gain``).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowboard.combat_state import Combat
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_sheet import capacity_of, end_gain, equipped_effects
from engines.wowboard.state import Character, State


def friendly_participants(state: State, combat: Combat, c: Character) -> list[Character]:
    """combat-general.3: the standing characters of ``c``'s faction in this fight, ``c`` included."""
    return [state.characters[p] for p in combat.participants
            if p not in combat.fallen and state.characters[p].faction == c.faction]


def combat_start(state: State) -> list[Event]:
    """Every participant's ``combat_start`` effects, in the order the participants joined."""
    combat = state.combat
    if combat is None:
        return []
    events: list[Event] = []
    for cid in list(combat.participants):
        c = state.characters[cid]
        for a in equipped_effects(state, c, "combat_start"):
            if not holds(state, c, a.source, a.effect.condition):
                continue
            for op in a.effect.ops:
                if op.op not in ("energy", "heal"):
                    continue
                whom = friendly_participants(state, combat, c) if op.target == "participants" else [c]
                for friend in whom:
                    events += _give(state, friend, "energy" if op.op == "energy" else "health", op.n or 0,
                                    op.mode == "gain", cid, a.source)
    return events


def _give(state: State, c: Character, stat: str, n: int, gain: bool, by: str, card: str) -> list[Event]:
    """health-energy.2: "regain" stops at capacity; "gain" may pass it (the excess is held in ``overcap``)."""
    cap = capacity_of(state, c)[0 if stat == "health" else 1]
    now = getattr(c, stat)
    new = now + n if gain else max(now, min(cap, now + n))
    if gain and new > cap:
        c.overcap[stat] = c.overcap.get(stat, 0) + new - max(cap, now)
    setattr(c, stat, new)
    return [ev(f"combat_start_{stat}", name=c.id, by=by, card=card, n=new - now)]


def combat_over(state: State, participants: list[str]) -> list[Event]:
    """The fight is over: what a ``combat_start`` gain put above capacity goes (health-energy.2)."""
    events: list[Event] = []
    for cid in participants:
        if cid in state.characters and state.characters[cid].overcap:
            events += end_gain(state, state.characters[cid])
    return events
