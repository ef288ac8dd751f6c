"""Dice (105): d10 rolls, one batch of rerolls, value changes, reading the completed roll.

A group of dice rolled together is one ``Dice.roll_many`` call naming the seat that rolls it
(the attacker's player for an attack, the defender's for a defence), so a manual-dice table
asks the right player for all of them at once (TABLE_UX). A reroll batch is one more call.
Faces follow ``engines.core.system_dice``: 1-3 fail, 4-9 succeed, 10 (the 0 face) is the critical.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.system_dice import WOWMINIS_CRITICAL, WOWMINIS_SIDES, MiniFace, wowminis_face
from engines.wowminis.state import Roll

DIE_KIND = "wowminis"


def roll(dice: Dice, count: int, seat: int, purpose: str) -> Roll:
    """601.1/601.2/402.2a: ``count`` dice thrown together by ``seat``."""
    values = dice.roll_many(count, WOWMINIS_SIDES, kind=DIE_KIND, by=seat, purpose=purpose) if count > 0 else []
    return Roll(first=list(values), final=list(values))


def eligible(r: Roll, which: str) -> list[int]:
    """Positions that may still be rerolled (105.3: a rerolled die is final) of one kind."""
    return [i for i, v in enumerate(r.final)
            if i not in r.rerolled and (wowminis_face(v) is MiniFace.FAILURE) == (which == "failures")]


def auto_pick(r: Roll, count: int, exclude: list[int] | None = None) -> list[int]:
    """The roller-friendly default (A31 note): the lowest failures first, at most ``count``."""
    skip = set(exclude or [])
    pool = sorted((i for i in eligible(r, "failures") if i not in skip), key=lambda i: (r.final[i], i))
    return pool[:max(0, count)]


def reroll(dice: Dice, r: Roll, positions: list[int], seat: int, purpose: str) -> Roll:
    """105.3: every chosen die (forced and optional alike) is rerolled in one batch."""
    chosen = sorted(set(positions))
    if not chosen:
        return r
    values = dice.roll_many(len(chosen), WOWMINIS_SIDES, kind=DIE_KIND, by=seat, purpose=purpose)
    final = list(r.final)
    for i, value in zip(chosen, values, strict=True):
        final[i] = value
    return Roll(first=r.first, final=final, rerolled=sorted(set(r.rerolled) | set(chosen)), changed=r.changed)


def set_critical(r: Roll) -> Roll:
    """105.3a: after every reroll, one die becomes a critical; a failure if there is one (the
    change that adds a hit), else a plain success. The roll is complete only after this (105.3b)."""
    if not r.final:
        return r
    order = [i for i, v in enumerate(r.final) if v < 4] + [i for i, v in enumerate(r.final) if 4 <= v < 10]
    if not order:
        return r
    final = list(r.final)
    final[order[0]] = WOWMINIS_CRITICAL
    return Roll(first=r.first, final=final, rerolled=r.rerolled, changed=[*r.changed, order[0]])


def faces(r: Roll) -> list[str]:
    """What the log shows per die: its value, ``crit`` for the critical (105.1)."""
    return ["crit" if v == WOWMINIS_CRITICAL else str(v) for v in r.final]
