"""Printed orders on cards in play (card-orders) — so far the ranged strike orders (ranged-strikes).

"Spend Order: perform a +N ranged strike" on one of your characters (Tunnel Scout, Ember Hexer) or on
an item it carries (Ashen Longbow; the bearer performs it). The performer must not be stunned and,
for a Spend order, must be ready; it is spent as the cost. The strike needs a target exactly two ranks
away and adds only the printed number and ranged-only bonuses. Other printed orders are not automated
yet and are refused with ``warlord.err.unmodeled``.
"""

from __future__ import annotations

from typing import Any

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import roll_warlord
from engines.warlord.content import Ability
from engines.warlord.rules_common import armor, army_uids, ev, find_in
from engines.warlord.rules_strikes import hits, ranged_bonus, ranged_targets, wound
from engines.warlord.state import State


def ranged_order(ability: Ability) -> dict[str, Any] | None:
    """The ``strike`` effect of an order that is exactly one ranged strike, else None."""
    if ability.kind != "order" or len(ability.effects) != 1:
        return None
    strike = ability.effects[0].get("strike")
    return strike if strike and strike.get("kind") == "ranged" and strike.get("bonus") is not None else None


def sources(state: State, seat: int) -> list[str]:
    """Your characters and the items they carry: where printed orders are."""
    mine = [u for u in army_uids(state, seat) if state.chars[u].controller == seat]
    return mine + [i for u in mine for i in state.chars[u].items]


def check_use(state: State, seat: int, source: str, ability: int, target: str) -> tuple[str, str, str, int, bool]:
    """card-orders: (source, performer, target, printed bonus, spend) for a legal use, else the rule's error."""
    uid = find_in(state, sources(state, seat), source, "card-orders")
    abilities = state.defn(uid).abilities
    if not 0 <= ability < len(abilities):
        raise RuleError("warlord.err.no_such_ability", rule="card-orders", name=state.name(uid), n=ability)
    strike = ranged_order(abilities[ability])
    if strike is None:
        raise RuleError("warlord.err.unmodeled", rule="golden-rule", name=state.name(uid))
    performer = state.items[uid].host if uid in state.items else uid
    c = state.chars[performer]
    if c.state == "stunned":  # stunned characters cannot use their items' orders either
        raise RuleError("warlord.err.performer_stunned", rule="ready-spent-stunned", name=state.name(performer))
    spend = abilities[ability].spend
    if spend and c.state != "ready":
        raise RuleError("warlord.err.not_ready", rule="card-orders", name=state.name(performer))
    enemies = [u for u, ch in state.chars.items() if ch.controller != seat]
    tgt = find_in(state, enemies, target, "ranged-strikes")
    if tgt not in ranged_targets(state, performer):  # reading §6.9: exactly two ranks away
        raise RuleError("warlord.err.out_of_range", rule="ranged-strikes", name=state.name(performer))
    return uid, performer, tgt, int(strike["bonus"]), spend


def do_use(state: State, seat: int, source: str, ability: int, target: str, dice: Dice) -> list[Event]:
    src, performer, tgt, printed, spend = check_use(state, seat, source, ability, target)
    if spend:
        state.chars[performer].state = "spent"
    bonus = ranged_bonus(state, performer, printed)
    ac = armor(state, tgt)
    roll = roll_warlord(dice, bonus, ac)
    d = state.defn(tgt)
    hit, why = hits(roll.natural, roll.total, ac, d.has("Astral"), d.has("Ethereal"))
    events = [ev("order_used", seat=seat, name=state.name(performer), source=state.name(src)),
              ev("ranged_rolled", rolls=dice.take_drawn(), striker=state.name(performer), target=state.name(tgt),
                 natural=roll.natural, bonus=bonus, total=roll.total, ac=ac, hit=hit, why=why)]
    if hit:
        events += wound(state, tgt, 1)
    return events
