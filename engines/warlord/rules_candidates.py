"""Candidate orders for ``legal_actions`` (order-phase): everything worth trying, before the filter.

``legal_actions`` keeps only what ``apply``'s own checks accept, so this list may be generous; what
matters is that it never misses a legal order (autocomplete offers only these).
"""

from __future__ import annotations

from engines.core.contract import Action
from engines.core.errors import RuleError
from engines.warlord import actions as A
from engines.warlord.content import Ability, CardDef
from engines.warlord.rules_actions import check_performer
from engines.warlord.rules_checks import feat_bonus
from engines.warlord.rules_common import army_uids
from engines.warlord.rules_play import FEAT_ORDER_ABILITY, FEAT_ORDERS, selector_ok, use_sources
from engines.warlord.rules_stealth import armies_to_enter
from engines.warlord.rules_strikes import melee_targets, ranged_targets
from engines.warlord.state import State


def _targets(state: State, seat: int, performer: str, ability: Ability, extra_reach: int = 0) -> list[str | None]:
    for effect in ability.effects:
        strike = effect.get("strike")
        if strike is not None and strike.get("at") is None:
            if strike.get("kind") == "ranged":
                return list(ranged_targets(state, performer, extra_reach))
            return list(melee_targets(state, performer))
        if "retrieve" in effect and effect["retrieve"].get("from") == "deck":
            pool = state.player(seat).deck_top + state.player(seat).deck_pool
            return sorted({state.name(u) for u in pool if state.defn(u).type == effect["retrieve"].get("filter")})
        if "retrieve" in effect:
            return [u for u in state.player(seat).discard if state.defn(u).type == "character"]
        if "move" in effect:
            return ["forward", "back"]
    for selector in ability.targets:
        if "spell_in_hand" in selector:
            return [u for u in state.player(seat).hand if state.defn(u).type == "action"]
        if "army" in selector:
            return list(armies_to_enter(state, performer))
        if "steed" in selector:
            return [i for i in state.chars[performer].items if state.defn(i).has("Steed")]
        if "choose" in selector:
            spec = selector["choose"]
            return [u for u in state.chars if selector_ok(state, seat, performer, u, spec)]
    return [None]


def _could_perform(state: State, seat: int, performer: str, card: CardDef, spend: bool) -> bool:
    try:
        check_performer(state, seat, performer, card, spend)
    except RuleError:
        return False
    return True


def order_candidates(state: State, seat: int) -> list[Action]:
    player = state.player(seat)
    mine = [u for u in army_uids(state, seat) if state.chars[u].controller == seat]
    out: list[Action] = [A.Pass()]
    roaming = [u for u, c in state.chars.items() if c.controller == seat and c.army_of != seat]  # infiltrators
    out += [A.Attack(attacker=u) for u in mine + roaming]
    out += [A.Recruit(card=u, position=None) for u in player.hand if state.defn(u).type == "character"]
    out += [A.Equip(item=i, host=h) for i in player.hand if state.defn(i).type == "item" for h in mine]
    out += [A.Maneuver(char=u, to=t) for u in mine + roaming for t in ("forward", "back")]  # type: ignore[arg-type]
    scribed = [u for holder in mine for u in state.chars[holder].scribed]
    for card in player.hand + scribed:
        d = state.defn(card)
        if d.type != "action":
            continue
        for k, ability in enumerate(d.abilities):
            if ability.kind != "order" or ability.unmodeled:
                continue
            for performer in mine:
                if not _could_perform(state, seat, performer, d, ability.spend):
                    continue
                out += [A.PlayOrder(card=card, ability=k, performer=performer, target=t)
                        for t in _targets(state, seat, performer, ability)]
    for src in use_sources(state, seat):
        performer = state.items[src].host if src in state.items else src
        for k, ability in enumerate(state.defn(src).abilities):
            if ability.kind != "order" or ability.unmodeled:
                continue
            out += [A.UseOrder(source=src, ability=k, target=t) for t in _targets(state, seat, performer, ability)]
            if feat_bonus(state, performer, "marksmanship") is not None:
                for option in ("range", "roll", "wound"):
                    reach = 1 if option == "range" else 0
                    out += [A.UseOrder(source=src, ability=k, target=t, marksmanship=option)  # type: ignore[arg-type]
                            for t in _targets(state, seat, performer, ability, reach)]
    for performer in mine + roaming:
        for feat in FEAT_ORDERS:
            if feat_bonus(state, performer, feat) is not None:
                out += [A.UseOrder(source=f"feat:{feat}", performer=performer, target=t)
                        for t in _targets(state, seat, performer, FEAT_ORDER_ABILITY[feat])]
    return out
