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


def italian_names(state: State, extra: dict[str, str] | None = None) -> dict[str, str]:
    """English name → Italian name of every card this game holds (``name_it``; issue 26: Italian is a
    full language). The engine keeps printing English names in its events and refusals; the Italian ones
    travel beside them as ``names_it`` (``common.i18n.local_names``), so a log line read long after, with
    a server's pack gone, still reads in Italian."""
    table = _names_of(state.cards_def)
    return {**table, **extra} if extra else table


_NAMES: dict[int, tuple[dict[str, Any], int, dict[str, str]]] = {}
"""A few card definition tables read lately (by identity, kept alive here so an id is never a later one's),
each with its size then and its Italian names."""
_NAMES_KEPT = 8


def _names_of(defs: dict[str, Any]) -> dict[str, str]:
    """The Italian names of a game's card definitions, worked out once per table of definitions.

    Why (issue 28): ``decision`` words its question with them, ~10 times a move, and each read walked
    every definition of the game (~50 µs). A game's definitions are set at its start and never change
    (a later one would change the table's size, which is checked); a view's filtered table is a table of
    its own. Callers must not change the answer."""
    found = _NAMES.get(id(defs))
    if found is not None and found[0] is defs and found[1] == len(defs):
        return found[2]
    table = {d.name: d.name_it for d in defs.values() if d.name_it and d.name_it != d.name}
    if len(_NAMES) >= _NAMES_KEPT:
        _NAMES.clear()
    _NAMES[id(defs)] = (defs, len(defs), table)
    return table


def add_italian_names(params: dict[str, Any], table: dict[str, str]) -> None:
    """``names_it`` beside the names ``params`` carries: a name, a list of names, or names joined by ", "
    (the engine's own lists of cards), each looked up whole."""
    named: dict[str, str] = {}
    for value in params.values():
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str) or not item:
                continue
            if item in table:
                named[item] = table[item]
            elif ", " in item and any(part in table for part in item.split(", ")):
                named[item] = ", ".join(table.get(part, part) for part in item.split(", "))
    if named:
        params["names_it"] = named


def find_in(state: State, uids: list[str], ref: str, rule: str) -> str:
    """A card among ``uids`` named by uid or by (case-insensitive) name; the first match wins."""
    if ref in uids:
        return ref
    folded = ref.strip().casefold()
    for uid in uids:
        if folded in (state.name(uid).casefold(), state.defn(uid).name_it.casefold(), state.cards[uid].card):
            return uid
    # a uid the table resolved names a public card as printed, never as the id (issue 26: no internal word); a
    # hidden card (a hand, a deck) stays as typed, so the refusal reveals nothing
    public = ref in state.chars or ref in state.items or any(ref in p.discard for p in state.players)
    raise RuleError("warlord.err.no_such_card", rule=rule, name=state.name(ref) if public else ref)


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


def aura(state: State, uid: str, stat: str) -> int:
    """Static abilities of characters in play that reach others ("other Stonewarden characters in this
    rank get +1 AC", Thane Brannoc): summed for ``uid`` when it matches the static's selector. The source
    never counts itself unless its selector says ``"other": false`` (bonuses: the printed auras say
    "other"; saved games whose card data lacks the key read it the same way, issue 27)."""
    c = state.chars[uid]
    row = next((r for r in state.player(c.army_of).ranks if uid in r), [])
    total = 0
    for other in row:
        for ability in state.defn(other).abilities:
            if ability.kind != "static" or not ability.targets or "choose" not in ability.targets[0]:
                continue
            spec = ability.targets[0]["choose"]
            if not spec.get("same_rank") or state.chars[other].controller != c.controller:
                continue
            if other == uid and spec.get("other", True):
                continue
            if spec.get("trait") and not state.defn(uid).has(str(spec["trait"])):
                continue
            total += sum(int(e["modify"].get("amount", 0)) for e in ability.effects
                         if "modify" in e and e["modify"].get("stat") == stat)
    return total


def armor(state: State, uid: str) -> int:
    """Current AC: printed AC, modifiers, item AC bonuses, auras of characters in the same rank."""
    c = state.chars[uid]
    return (layered(state.defn(uid).ac, c.mods, "ac") + sum(state.defn(i).ac_bonus for i in c.items)
            + aura(state, uid, "ac"))


def level(state: State, uid: str) -> int:
    return layered(state.defn(uid).level, state.chars[uid].mods, "level")


def hit_points(state: State, uid: str) -> int:
    return layered(state.defn(uid).hp, state.chars[uid].mods, "hp")

