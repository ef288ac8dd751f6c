"""Skill checks, saves and feat checks (skill-checks, feats), and the printed statics of carried items.

A check is d20 + skill + the bonuses that match it against a DC; natural 20 always succeeds and
natural 1 always fails (dice). A feat is a check against DC 20 whose bonus is the sum of every
source granting that feat (a printed feat plus an item's ``grant_feat`` add up, spec §5.10).
These are pure functions; the orders and reacts that use them come in a later step.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.system_dice import WarlordRoll, roll_warlord
from engines.warlord.rules_common import layered
from engines.warlord.state import State

FEAT_DC = 20  # feats: every feat use is a check against DC 20
FEATS = ("charisma", "defend", "magic_resistance", "marksmanship", "medicine", "powerattack", "riding",
         "riposte", "scribe", "stealth")


def item_statics(state: State, uid: str, stat: str) -> int:
    """The ``modify`` statics of the items ``uid`` carries for ``stat`` (Ancestor's Charm: skill +2)."""
    total = 0
    for item in state.chars[uid].items:
        for ability in state.defn(item).abilities:
            if ability.kind != "static":
                continue
            for effect in ability.effects:
                mod = effect.get("modify")
                if mod and mod.get("stat") == stat:
                    total += int(mod.get("amount", 0))
    return total


def self_statics(state: State, uid: str, stat: str) -> int:
    """The character's own printed statics for ``stat`` ("+1 level for equipping Lycanthrope Forms")."""
    total = 0
    for ability in state.defn(uid).abilities:
        if ability.kind != "static" or any("choose" in t for t in ability.targets):
            continue
        for effect in ability.effects:
            mod = effect.get("modify")
            if mod and mod.get("stat") == stat:
                total += int(mod.get("amount", 0))
    return total


def skill_total(state: State, uid: str) -> int:
    """Skill (the gem) with its modifiers and the items' skill statics."""
    return layered(state.defn(uid).skill, state.chars[uid].mods, "skill") + item_statics(state, uid, "skill")


def feat_bonus(state: State, uid: str, feat: str) -> int | None:
    """The feat's total bonus from every source, or None when the character lacks the feat."""
    sources: list[int] = []
    printed = state.defn(uid).feats.get(feat)
    if printed is not None:
        sources.append(printed)
    for item in state.chars[uid].items:
        for ability in state.defn(item).abilities:
            for effect in ability.effects:
                grant = effect.get("grant_feat") if ability.kind == "static" else None
                if grant and grant.get("feat") == feat:
                    sources.append(int(grant.get("bonus", 0)))
    sources += [m.amount for m in state.chars[uid].mods if m.stat == f"feat:{feat}"]
    return sum(sources) if sources else None


def skill_check(state: State, uid: str, dc: int, dice: Dice, kind: str | None = None, extra: int = 0) -> WarlordRoll:
    """skill-checks: d20 + skill + matching bonuses (modifiers on ``check:<kind>``) + ``extra`` vs ``dc``."""
    bonus = skill_total(state, uid) + extra
    if kind:
        bonus += layered(0, state.chars[uid].mods, f"check:{kind}")
    return roll_warlord(dice, bonus, dc)


def save(state: State, uid: str, kind: str, dc: int, dice: Dice) -> WarlordRoll:
    """skill-checks: a save is a check with the bonuses for that save (``save:magic``)."""
    bonus = skill_total(state, uid) + layered(0, state.chars[uid].mods, f"save:{kind}")
    return roll_warlord(dice, bonus, dc)


def feat_check(state: State, uid: str, feat: str, dice: Dice) -> WarlordRoll:
    """feats: d20 + skill + the feat's total bonus vs DC 20; ``succeeded`` reads the outcome."""
    bonus = feat_bonus(state, uid, feat)
    return skill_check(state, uid, FEAT_DC, dice, kind=f"feat:{feat}", extra=bonus or 0)


def succeeded(roll: WarlordRoll) -> bool:
    return roll.outcome in ("success", "critical_success")
