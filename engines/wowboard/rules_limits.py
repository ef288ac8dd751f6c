"""card-limits.4: every power, talent or item may be used once per combat round.

A card "used" here is one the player chooses to spend in the fight: an instant paid at the dice-pool step,
a card taken at a last chance. The mark lives on the character (``Character.used_round``) as
``"<round>:<card>"``, so a new round needs no clean-up: the round number alone tells an old mark from a
live one. A new fight starts from a clean list (``fresh``), since its rounds count from 1 again. Cards
that are always on (an active power's dice, a passive Reroll +N) are not "used" by a choice and are
read afresh at every attack phase, which is why such bonuses last for the current round only.
"""

from __future__ import annotations

from engines.wowboard.state import Character, State


def _key(state: State, card: str) -> str:
    round_no = state.combat.round if state.combat is not None else 0
    return f"{round_no}:{card}"


def used(state: State, c: Character, card: str) -> bool:
    """card-limits.4: the card was already used by this character in the current combat round."""
    return state.combat is not None and _key(state, card) in c.used_round


def mark(state: State, c: Character, card: str) -> None:
    """Record a use in the current round (nothing to record outside a fight: no action-time card is wired)."""
    if state.combat is not None and not used(state, c, card):
        c.used_round.append(_key(state, card))


def fresh(state: State, participants: list[str]) -> None:
    """A new fight: the marks of an earlier fight (whose round numbers restart) no longer count."""
    for cid in participants:
        state.characters[cid].used_round = []
