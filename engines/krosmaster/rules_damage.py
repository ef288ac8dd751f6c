"""Step 6 (602.7) and heals (603.2b): how much, and why that much.

Players ask why a spell with two critical successes dealt "0 air damage", so the total comes
with every change made to it, each as plain data: what changed it (a power or keyword id, a
reward, the dice) and the rule that says so. The damage event carries that list
(``modifiers``) and the reductions among them, so the table can word them in its language.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.krosmaster.content import EffectKind, Element, Keyword, Spell
from engines.krosmaster.rules_powers import RESISTANCE
from engines.krosmaster.rules_stats import heal_bonus, reward_damage, turn_damage
from engines.krosmaster.state import PieceState

BONUS_RULE: dict[Element, str] = {  # 605.5-605.8: +X of an element
    Element.WATER: "605.5a", Element.AIR: "605.6a", Element.EARTH: "605.7a", Element.FIRE: "605.8a",
}
RESIST_RULE: dict[Element, str] = {  # 307.5-307.8, 307.9 for all four
    Element.WATER: "307.5a", Element.AIR: "307.6a", Element.EARTH: "307.7a", Element.FIRE: "307.8a",
}


@dataclass
class Total:
    """A total and each change made to it, in the order of 602.7c."""

    base: int
    value: int = 0
    modifiers: list[dict[str, object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.value = self.base

    def change(self, amount: int, reason: str, rule: str) -> None:
        if amount:
            self.value += amount
            self.modifiers.append({"reason": reason, "rule": rule, "amount": amount})

    def reductions(self) -> list[dict[str, object]]:
        return [m for m in self.modifiers if int(m["amount"]) < 0]  # type: ignore[call-overload]

    def params(self) -> dict[str, object]:
        """Event parameters: ``base``, ``modifiers``, ``reductions``, and the main reduction as
        ``reason``/``reason_rule`` (the largest one, the last of equals), or None for both."""
        cuts = self.reductions()
        main = max(reversed(cuts), key=lambda m: -int(m["amount"]), default=None)  # type: ignore[call-overload]
        return {"base": self.base, "modifiers": list(self.modifiers), "reductions": cuts,
                "reason": main["reason"] if main else None, "reason_rule": main["rule"] if main else None}


def swing(total: Total, crits: int, armors: int) -> None:
    """602.7b: more critical successes than armor successes +1, fewer -1, equal nothing."""
    if crits > armors:
        total.change(1, "critical", "602.7b")
    elif armors > crits:
        total.change(-1, "armor", "602.7b")


def damage_total(spell: Spell, caster: PieceState, target: PieceState, crits: int, armors: int) -> Total:
    """602.7a/c in its order, for one target with HP: base + written bonus + rewards and "this turn"
    effects + the dice swing - the target's powers; never below 0 (602.7d). Each target of an area
    gets its own total (602.7e): its armor roll and powers differ.

    308.2a: an elemental spell's damage is of its element, so only that element's resistance counts.

    Bonus elemental damage (605.5-605.8) adds to the total; each distinct element the spell
    carries is reduced once by a matching resistance. Immunized (307.10) zeroes any spell whose
    own element is not neutral.
    """
    total = Total(spell.amount)
    bonus = [e for e in spell.effects if e.kind is EffectKind.ELEMENT_DAMAGE]
    for effect in bonus:
        assert effect.element is not None  # checked by the Effect model
        total.change(effect.value, "element_damage", BONUS_RULE[effect.element])
    total.change(reward_damage(caster, spell), "reward", "306.3")  # 602.7c: demonic rewards
    total.change(turn_damage(caster, spell), "turn_effect", "504.1")  # 314.1d
    swing(total, crits, armors)
    elements = [spell.element, *(e.element for e in bonus if e.element)]
    for element in dict.fromkeys(elements):
        if element is Element.NEUTRAL or element is None:
            continue
        if target.has(Keyword.RESIST_ALL):
            total.change(-1, str(Keyword.RESIST_ALL), "307.9a")
        elif target.has(RESISTANCE[element]):
            total.change(-1, str(RESISTANCE[element]), RESIST_RULE[element])
    if target.has(Keyword.FRAGILITY):
        total.change(1, str(Keyword.FRAGILITY), "307.11a")
    if target.has(Keyword.TOUGHNESS):
        total.change(-2, str(Keyword.TOUGHNESS), "307.12a")
    if target.has(Keyword.IMMUNIZED) and spell.element is not Element.NEUTRAL:
        total.change(-total.value, str(Keyword.IMMUNIZED), "307.10a")
    if total.value < 0:
        total.change(-total.value, "no_negative_damage", "602.7d")
    return total


def damage_for(spell: Spell, caster: PieceState, target: PieceState, crits: int, armors: int) -> int:
    """602.7b-d: the damage one target takes (see ``damage_total`` for the reasons)."""
    return damage_total(spell, caster, target, crits, armors).value


def heal_total(spell: Spell, caster: PieceState, crits: int) -> Total:
    """603.2b: base + written bonus + Healing power (307.17a) + rewards and "this turn" effects + 1 on
    any critical success. A heal deals no damage (603.1) and has no armor roll (603.2a)."""
    total = Total(spell.amount)
    total.change(sum(e.value for e in spell.effects if e.kind is EffectKind.EXTRA_HEAL), "extra_heal", "603.2b")
    total.change(int(caster.has(Keyword.HEALING)), str(Keyword.HEALING), "307.17a")
    total.change(heal_bonus(caster), "reward", "603.2b")
    total.change(1 if crits > 0 else 0, "critical", "603.2b")
    return total


def heal_for(spell: Spell, caster: PieceState, crits: int) -> int:
    return heal_total(spell, caster, crits).value
