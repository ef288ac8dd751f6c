"""The Overlord of a game (setup.5, setup.8, overlord.2–3): which one, the event cards it brings, the minions
it calls.

setup.5: the players choose the Overlord together (lobby option ``overlord:<name>``) or leave it to chance
(``overlord:random``: a recorded pick among the pack's Overlords, made once the draft is over, when the count
of characters is known). A table that says nothing plays the pack's first Overlord, the wanderer every game
has had since the starter set. The sheet's side follows the number of characters (4, or 6).

overlord.3, each Overlord's own rule (spec §4.8, our content):
- ``wander`` (Ash Wyrm): walks its route by the destiny numbers of the events (``rules_events.move_overlord``);
- ``seed_events`` (Lich-Regent): its decrees, event cards marked with it, are shuffled into the event deck at
  set-up (setup.8); in any other game they stay in the box;
- ``summon`` (Pit Warlord): whoever challenges it also faces its minions, creatures of the type and tier its
  ability names. Reading: a minion is called for the fight only. It does not come from the supply (the
  rulebook gives the Overlord's own figures no supply) and leaves with the fight, beaten or not; it fights as
  an ordinary opponent (its attack counts, the damage box must hold its health to beat it, the group chooses
  which opponent falls when several fit: defense-phase.1). Beating the Overlord wins at once, minions standing
  or not (victory.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.combat_state import Opponent
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Overlord
from engines.wowboard.rules_common import ev
from engines.wowboard.state import State

RANDOM = "random"
FULL_TABLE = 6  # setup.5: the "6 characters" side from six characters on


def _word(text: str) -> str:
    return text.strip().casefold().replace("-", "_").replace(" ", "_").replace("'", "")


def parse_overlord(value: Any, overlords: Sequence[Overlord]) -> str:
    """setup.5: the lobby's ``overlord:`` as an Overlord id, or ``random``; its id or its name in either
    language is accepted. Anything else is refused with the names this pack knows."""
    word = _word(str(value or ""))
    if word in (RANDOM, "caso", "a_caso", "casuale"):
        return RANDOM
    for lord in overlords:
        if word in {_word(lord.id), _word(lord.name), _word(lord.name_it or lord.name)}:
            return lord.id
    raise RuleError("wowboard.err.bad_overlord", rule="setup.5", value=str(value)[:30],
                    known=", ".join([RANDOM, *(o.id for o in overlords)]))


def choose(state: State, pack: Pack, dice: Dice) -> Overlord:
    """setup.5: the table's Overlord (the option), a recorded random pick, or the pack's first."""
    wanted = str(state.options.get("overlord") or "")
    if wanted == RANDOM:
        return pack.overlords[dice.pick(len(pack.overlords))]
    if wanted:
        found = next((o for o in pack.overlords if o.id == wanted), None)
        if found is None:  # a server pack without it (the lobby checked the built-in names)
            raise RuleError("wowboard.err.bad_overlord", rule="setup.5", value=wanted,
                            known=", ".join([RANDOM, *(o.id for o in pack.overlords)]))
        return found
    return pack.overlords[0]


def side_for(characters: int) -> str:
    """setup.5: the sheet's side by the number of characters in play."""
    return "6" if characters >= FULL_TABLE else "4"


def deck_cards(pack: Pack, lord: str | None) -> list[str]:
    """setup.8: the event deck's cards: every card of no Overlord, and the cards of the Overlord in play."""
    return sorted(e.id for e in pack.events if e.overlord is None or e.overlord == lord)


def lord_of(state: State, pack: Pack) -> Overlord | None:
    if state.overlord is None:
        return None
    return next((o for o in pack.overlords if o.id == state.overlord.id), None)


def summon_minions(state: State, pack: Pack, target: str) -> list[Event]:
    """overlord.3: a summoning Overlord challenged: its minions join the fight as opponents (module docstring);
    the minion's tier gives its attack and health, its type the threat."""
    combat = state.combat
    lord = lord_of(state, pack)
    if combat is None or lord is None or target != f"overlord:{lord.id}" or "summon" not in lord.ability:
        return []
    spec = lord.ability["summon"]
    kind = next(c for c in pack.creatures if c.id == spec["type"])
    tier = str(spec["tier"])
    attack, health = kind.stats[tier]  # type: ignore[index]
    n = int(spec["n"])
    for k in range(n):
        combat.opponents.append(Opponent(ref=f"minion:{kind.id}:{k + 1}", kind="creature", name=kind.name,
                                         threat=kind.threat, attack=attack, health=health, ability={}))
    return [ev("minions_summoned", name=lord.name, n=n, kind=kind.name, tier=tier)]
