"""Who may perform an action card or a printed order (actions, card-orders, ready-spent-stunned).

The performer is a character in your army (not an infiltrator) that is not stunned, whose class matches
the card's symbol (``any`` = every character) and whose level reaches the card's level, counting level
modifiers for that use ("+1 level for performing spells", Blood Idol). A ``Spend`` action needs a ready
performer and spends it; without ``Spend`` a spent performer may act and stays as it is. Playing the
cards and interpreting their effects is the next step; this module is the gate they will all use.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.warlord.content import SPELL_CLASSES, CardDef
from engines.warlord.rules_checks import item_statics
from engines.warlord.rules_common import layered
from engines.warlord.state import State


def is_spell(card: CardDef) -> bool:
    """actions: spells are the cleric and wizard action cards (not printed orders of such characters)."""
    return card.type == "action" and card.cls in SPELL_CLASSES


def performing_level(state: State, uid: str, card: CardDef) -> int:
    """The performer's level for this card: level modifiers plus "for spells" bonuses when it is one."""
    level = layered(state.defn(uid).level, state.chars[uid].mods, "level")
    if is_spell(card):
        level += layered(0, state.chars[uid].mods, "level_for:spell") + item_statics(state, uid, "level_for:spell")
    return level


def check_performer(state: State, seat: int, uid: str, card: CardDef, spend: bool) -> None:
    """actions: raise the rule's error when ``uid`` may not perform ``card``'s action."""
    c = state.chars.get(uid)
    if c is None or c.controller != seat or c.army_of != seat:
        raise RuleError("warlord.err.not_your_character", rule="actions", name=state.name(uid))
    if c.state == "stunned":
        raise RuleError("warlord.err.performer_stunned", rule="ready-spent-stunned", name=state.name(uid))
    klass = state.defn(uid).cls
    if card.cls not in ("any", "classless") and card.cls != klass:
        raise RuleError("warlord.err.performer_class", rule="actions", name=state.name(uid), card=card.name,
                        cls=card.cls)
    have = performing_level(state, uid, card)
    if have < card.level:
        raise RuleError("warlord.err.performer_level", rule="actions", name=state.name(uid), card=card.name,
                        need=card.level, have=have)
    if spend and c.state != "ready":
        raise RuleError("warlord.err.not_ready", rule="card-orders", name=state.name(uid))
