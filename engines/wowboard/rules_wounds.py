"""Wounds and falls inside a fight (combat-general.2, character-defeat.1, power-cards.4): one token at a
time, the on-wound window, the last chance, a companion taking its owner's wounds, and a character leaving
the fight.

Why a module of its own: every step of a fight can wound (an opponent's ability in the attack phase, a
scorch at a round's start, the split of the defense phase, PvP), and the questions a wound opens
(``last_chance``, ``companion_wounds``) make the step that caused it wait (``waiting``). Keeping them here
lets the attack and defense steps (``rules_combat``) and PvP (``rules_pvp``) share one reading.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import rules_boxes as RB
from engines.wowboard import rules_guard as G
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_defeat import open_last_chance
from engines.wowboard.rules_sheet import unequip
from engines.wowboard.state import Character, Pending, State


def companion_tokens(c: Character) -> tuple[str, int] | None:
    """power-cards.4: the character's equipped companion (its area) and the health tokens on it."""
    for area, slot in c.sheet.items():
        if slot.card is not None and slot.companion_health:
            return area, slot.companion_health
    return None


def check_companions(state: State, split: dict[str, int], companions: dict[str, int]) -> None:
    """power-cards.4: a companion takes at most its owner's share and at most its tokens."""
    for cid, n in companions.items():
        pet = companion_tokens(state.characters[cid]) if cid in state.characters else None
        if n < 0 or n > split.get(cid, 0) or (n and (pet is None or n > pet[1])):
            raise RuleError("wowboard.err.companion_absorb", rule="power-cards.4", name=cid, n=n,
                            max=min(split.get(cid, 0), pet[1] if pet else 0))


def absorb(state: State, c: Character, n: int) -> list[Event]:
    """power-cards.4 (reading §6.14): wounds the player puts on the companion instead of the character;
    its last token sends it back to the Spellbook (re-equipped, and paid again, in a later management)."""
    pet = companion_tokens(c)
    if not n or pet is None:
        return []
    area, tokens = pet
    slot = c.sheet[area]
    card = slot.card or ""
    slot.companion_health = tokens - n
    events = [ev("companion_wounded", name=c.id, card=card, n=n, left=tokens - n)]
    if slot.companion_health <= 0:
        events += [ev("companion_lost", name=c.id, card=card), *unequip(state, c, card)]
    return events


WAITING = ("last_chance", "companion_wounds")  # questions a fight's step waits for (``combat.resume``)


def waiting(state: State) -> bool:
    """A last chance or a companion question is open: the fight's step waits for its answer."""
    return any(p.kind in WAITING for p in state.pending)


def wound(state: State, char: Character, n: int, source: str, last_chance: bool = False,
          companion: bool = False) -> list[Event]:
    """combat-general.2: one token at a time; wounds beyond a fall vanish. With ``last_chance`` a character
    with a way to regain health is asked first (character-defeat.1): it stays at 0 health, not fallen,
    and the wounds left wait in the question. With ``companion`` (wounds that no split shares out: an
    opponent's ability) a character whose companion has tokens is first asked how many it takes
    (question ``companion_wounds``, power-cards.4; the split of the defense phase says it directly)."""
    pet = companion_tokens(char) if companion and n else None
    if pet is not None:
        most = min(n, pet[1])
        state.pending.insert(0, Pending(kind="companion_wounds", seats=[char.seat], character=char.id,
                                        options=[str(k) for k in range(most + 1)], default=str(most), n=n))
        return []
    first = 1 if n and char.health > 0 else 0  # combat-general.2: the first token opens the on-wound window
    char.health -= first
    after = G.on_wound(state, char) if first else []  # card-limits.4: a card acts once a round, so only here
    health, lost = RB.wounds_absorbed(char.health, n - first)
    char.health = health
    events = [ev("wounded", name=char.id, n=n - lost, source=source), *after]
    if char.health == 0:
        if last_chance and open_last_chance(state, char, lost):
            return [*events, ev("last_chance", name=char.id)]
        events += fall(state, char, source)
    return events


def fall(state: State, char: Character, why: str) -> list[Event]:
    """character-defeat.1–3 inside a combat: the character leaves the fight (respawn follows it)."""
    combat = state.combat
    if combat is not None and char.id not in combat.fallen:
        combat.fallen.append(char.id)
    char.health = 0
    return [ev("fallen", name=char.id, why=why)]
