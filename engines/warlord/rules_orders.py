"""Orders that move cards into play or around the army: recruit, equip, maneuver.

Each order has a ``check_*`` that raises the rule's ``RuleError`` and returns what it resolved, and
a ``do_*`` that applies it; ``legal_actions`` filters candidates through the same checks, so what it
lists is exactly what ``apply`` accepts.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord import rules_ranks as R
from engines.warlord.content import CLASH_EXEMPT, CardDef, factions_of
from engines.warlord.rules_checks import item_statics, self_statics
from engines.warlord.rules_common import army_uids, ev, find_in, layered, level
from engines.warlord.state import CharState, ItemState, State


def own_character(state: State, seat: int, ref: str, rule: str, *, anywhere: bool = False) -> str:
    """A character in your army that you control (the Glossary's "your army"); ``anywhere`` also
    accepts your infiltrators in another army, which may attack and maneuver there (enemy-formation)."""
    mine = [u for u in army_uids(state, seat) if state.chars[u].controller == seat]
    if anywhere:
        mine += [u for u, c in state.chars.items() if c.controller == seat and c.army_of != seat]
    try:
        return find_in(state, mine, ref, rule)
    except RuleError:
        theirs = _named_among(state, [u for u, c in state.chars.items() if c.controller != seat], ref, rule)
        if theirs is None:
            raise
    # someone else's character in play: say so, not "there is no card … there" (a playtest met it)
    raise RuleError("warlord.err.not_your_character", rule=rule, name=state.name(theirs))


def _named_among(state: State, uids: list[str], ref: str, rule: str) -> str | None:
    try:
        return find_in(state, uids, ref, rule)
    except RuleError:
        return None


def names_in_play(state: State, seat: int) -> set[str]:
    """Names of the cards in play under ``seat``'s control (characters and their items)."""
    names: set[str] = set()
    for c in state.chars.values():
        if c.controller == seat:
            names.add(state.name(c.uid))
            names.update(state.name(i) for i in c.items)
    return names


# -- bring-characters ---------------------------------------------------------------------
def check_recruit(state: State, seat: int, ref: str, position: int | None) -> tuple[str, int]:
    player = state.player(seat)
    uid = find_in(state, [u for u in player.hand if state.defn(u).type == "character"], ref, "bring-characters")
    d = state.defn(uid)
    if d.has("Warlord"):
        raise RuleError("warlord.err.second_warlord", rule="bring-characters", name=d.name)
    if d.has("Unique") and d.name in names_in_play(state, seat):
        raise RuleError("warlord.err.unique_in_play", rule="bring-characters", name=d.name)
    rank = max(1, d.level)  # bring-characters: the rank equal to its level
    ranks = [list(r) for r in player.ranks]
    R.place(ranks, rank, uid, position)
    if not R.is_legal(R.own_ranks(state, seat, ranks)):
        raise RuleError("warlord.err.rank_illegal", rule="bring-characters", name=d.name, rank=rank)
    return uid, rank


def do_recruit(state: State, seat: int, ref: str, position: int | None) -> list[Event]:
    uid, rank = check_recruit(state, seat, ref, position)
    player = state.player(seat)
    player.hand.remove(uid)
    R.place(player.ranks, rank, uid, position)
    d = state.defn(uid)
    loyal = player.faction in factions_of(d, state.factions) or d.has(state.loyalty_exempt)
    state.chars[uid] = CharState(uid=uid, controller=seat, army_of=seat, state="ready" if loyal else "stunned")
    return [ev("recruited", seat=seat, name=d.name, rank=rank, stunned=not loyal)]


# -- equip --------------------------------------------------------------------------------
def check_equip(state: State, seat: int, item_ref: str, host_ref: str) -> tuple[str, str, list[str]]:
    """equip: class matches, host level + rank ≥ item level, no same name on the host, unique items once
    in your army; returns (item, host, items the trait clash discards)."""
    player = state.player(seat)
    item = find_in(state, [u for u in player.hand if state.defn(u).type == "item"], item_ref, "equip")
    host = own_character(state, seat, host_ref, "equip")
    d, h = state.defn(item), state.defn(host)
    if d.cls not in ("any", "classless") and d.cls != h.cls:
        raise RuleError("warlord.err.item_class", rule="equip", name=d.name, cls=d.cls, host=h.name)
    have = level(state, host) + R.rank_of(state, host) + equip_level_bonus(state, host, d.traits)
    if have < d.level:
        raise RuleError("warlord.err.item_level", rule="equip", name=d.name, need=d.level, have=have)
    carried = state.chars[host].items
    if any(state.name(i) == d.name for i in carried):
        raise RuleError("warlord.err.item_same_name", rule="equip", name=d.name)
    if d.has("Unique") and d.name in names_in_play(state, seat):
        raise RuleError("warlord.err.unique_in_play", rule="equip", name=d.name)
    return item, host, clashing(state, d, carried)


def clashing(state: State, new: CardDef, carried: list[str]) -> list[str]:
    """equip (revised reading, spec §6.19): the seed's exception speaks of the *new* item only. Equipping a
    Unique, Epic or Treasure item discards nothing; a plain new item replaces every carried item it shares a
    trait with, even a carried Unique, Epic or Treasure one (the exception does not protect what is carried)."""
    if CLASH_EXEMPT & set(new.traits):
        return []
    return [i for i in carried if set(new.traits) & set(state.defn(i).traits)]


def equip_level_bonus(state: State, host: str, traits: list[str]) -> int:
    """equip: "+1 level for equipping <trait>" from the host's own text, its items or effects."""
    return sum(self_statics(state, host, f"level_for:equip:{t}") + item_statics(state, host, f"level_for:equip:{t}")
               + layered(0, state.chars[host].mods, f"level_for:equip:{t}") for t in traits)


def do_equip(state: State, seat: int, item_ref: str, host_ref: str) -> list[Event]:
    item, host, clash = check_equip(state, seat, item_ref, host_ref)
    events: list[Event] = []
    c = state.chars[host]
    for old in clash:  # equip: the older item sharing a trait is discarded
        c.items.remove(old)
        state.items.pop(old, None)
        state.player(state.cards[old].owner).discard.append(old)
        events.append(ev("item_discarded", seat=seat, name=state.name(old), host=state.name(host)))
    state.player(seat).hand.remove(item)
    c.items.append(item)
    state.items[item] = ItemState(uid=item, host=host)
    return [ev("equipped", seat=seat, name=state.name(item), host=state.name(host)), *events]


# -- maneuver -----------------------------------------------------------------------------
def check_maneuver(state: State, seat: int, ref: str, to: str, position: int | None) -> tuple[str, int]:
    uid = own_character(state, seat, ref, "maneuver", anywhere=True)
    c = state.chars[uid]
    if c.state != "ready":
        raise RuleError("warlord.err.not_ready", rule="maneuver", name=state.name(uid))
    _, rank, pos = R.locate(state, uid)
    dest = {"forward": rank - 1, "back": rank + 1, "same": rank}[to]
    if dest < 1:
        raise RuleError("warlord.err.no_rank_ahead", rule="maneuver", name=state.name(uid))
    ranks = [list(r) for r in state.player(c.army_of).ranks]
    ranks[rank - 1].remove(uid)
    R.place(ranks, dest, uid, position)
    if to == "same" and ranks[rank - 1].index(uid) == pos:
        raise RuleError("warlord.err.no_move", rule="maneuver", name=state.name(uid))
    return uid, dest


def do_maneuver(state: State, seat: int, ref: str, to: str, position: int | None) -> list[Event]:
    """maneuver: spend, move; an illegal result is reformed before anything else (ranks)."""
    uid, dest = check_maneuver(state, seat, ref, to, position)
    c = state.chars[uid]
    ranks = state.player(c.army_of).ranks
    src = R.rank_of(state, uid)
    ranks[src - 1].remove(uid)
    R.place(ranks, dest, uid, position)
    R.trim(ranks)
    c.state = "spent"
    c.non_stealth_action = True
    return [ev("maneuvered", seat=seat, name=state.name(uid), frm=src, to=dest)]
