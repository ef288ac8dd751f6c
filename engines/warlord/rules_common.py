"""Small helpers every Warlord rules module uses: events, name → uid lookups, card stats in play."""

from __future__ import annotations

from typing import Any

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord.state import Modifier, State


def ev(key: str, *, private_to: list[int] | None = None, rolls: list[int] | None = None,
       draws: list[int] | None = None, **params: Any) -> Event:
    return Event(key=f"warlord.ev.{key}", params=params, private_to=private_to or [], rolls=rolls or [],
                 draws=draws or [], reveals_hidden=bool(private_to))


def find_in(state: State, uids: list[str], ref: str, rule: str) -> str:
    """A card among ``uids`` named by uid or by (case-insensitive) name; the first match wins."""
    if ref in uids:
        return ref
    folded = ref.strip().casefold()
    for uid in uids:
        if state.name(uid).casefold() == folded or state.cards[uid].card == folded:
            return uid
    raise RuleError("warlord.err.no_such_card", rule=rule, name=ref)


def army_uids(state: State, seat: int) -> list[str]:
    return [u for row in state.player(seat).ranks for u in row]


def layered(base: int, mods: list[Modifier], stat: str) -> int:
    """bonuses: ``value = last "changes to" + every later "+N"``; earlier adds are ignored while it lasts."""
    relevant = sorted((m for m in mods if m.stat == stat), key=lambda m: m.seq)
    value = base
    for m in relevant:
        value = m.set_to if m.set_to is not None else value + m.amount
    return value


def atk_values(state: State, uid: str) -> list[int]:
    """The character's melee strike bonuses: printed ATK, "changes to" layering, items (bonuses, equip)."""
    c = state.chars[uid]
    d = state.defn(uid)
    items = sum(state.defn(i).atk_bonus for i in c.items)
    return [layered(v, c.mods, "atk") + items for v in (d.atk or [0])]


def armor(state: State, uid: str) -> int:
    """Current AC: printed AC, modifiers, item AC bonuses."""
    c = state.chars[uid]
    return layered(state.defn(uid).ac, c.mods, "ac") + sum(state.defn(i).ac_bonus for i in c.items)


def level(state: State, uid: str) -> int:
    return layered(state.defn(uid).level, state.chars[uid].mods, "level")


def hit_points(state: State, uid: str) -> int:
    return layered(state.defn(uid).hp, state.chars[uid].mods, "hp")

