"""The words of a Mage Knight table: the position line, the open column, events, the hand.

Numbers come from the engine (``preview_column`` for totals and needs, ``rules_values`` for
which points are halved), so the text cannot disagree with what ``commit`` will do. A total
always says why it came out as it did (TABLE_UX): "fire 5 (Cinder Shamans resists fire)
÷ 2 → 2; + 4 = 6 of 7: 1 short".
"""

from __future__ import annotations

from typing import Any

from common.i18n import humanize, local_names, t
from engines.core.events import Event
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import HIDDEN, WOUND, Element
from engines.mageknight.preview import preview_column
from engines.mageknight.rules_values import (
    attack_inefficient,
    block_inefficient,
    coldfire_resisted,
    group_resistances,
)
from engines.mageknight.state import State
from gm.games.mageknight import choices, grammar
from gm.games.mageknight.info import ability_name, attack_text, card_text, effect_text, enemy_now_text, resist_text
from gm.games.mageknight.phase import phase_uses
from gm.reply import Reply

PHASES_WITH_COLUMN = ("ranged_siege", "block", "attack")
_MANA_USED = {"die": "mk.ui.ev.mana_used_die", "crystal": "mk.ui.ev.mana_used_crystal",
              "token": "mk.ui.ev.mana_used_token"}  # the event's ``mana``: the source that paid


# ---------------------------------------------------------------------------- the column
def _weak_elements(state: State) -> list[str]:
    """The elements of the staged points that count half, in the order they were staged."""
    staged = state.staged
    assert staged is not None
    targets = [state.enemy(uid) for uid in staged.targets]
    if staged.kind == "block":
        attack = targets[0].token.element
        weak = [p.element for p in staged.parts if block_inefficient(p.element, attack)]
    else:
        resist = group_resistances(targets)
        cold = coldfire_resisted(targets, state.coldfire_pooled)
        weak = [p.element for p in staged.parts if attack_inefficient(p.element, resist, cold)]
    return list(dict.fromkeys(weak))


def column_line(state: State, lang: str) -> str:
    """The open attack or block and its verdict, with why points were halved."""
    column = preview_column(state)
    staged = state.staged
    if column is None or staged is None:
        return ""
    targets = " + ".join(state.enemy(uid).local_name(lang) for uid in staged.targets)
    key = "mk.ui.column_block" if column.kind == "block" else "mk.ui.column_attack"
    if not staged.parts:
        return t(f"{key}_empty", lang, targets=targets, need=column.need)
    if column.inefficient:
        enemies = [state.enemy(uid) for uid in staged.targets]
        if column.kind == "block":
            why = why_block(enemies[0].token.element, lang)
        else:
            why = resist_text(sorted(group_resistances(enemies)), lang)
        weak = ", ".join(t(f"mk.element.{e}", lang) for e in _weak_elements(state))
        sums = t("mk.ui.column_halved", lang, weak=weak, inefficient=column.inefficient, why=why,
                 half=column.inefficient // 2, efficient=column.efficient, total=column.total, need=column.need)
    else:
        sums = t("mk.ui.column_sum", lang, total=column.total, need=column.need)
    if column.enough and column.total > column.need:  # issue 27.5: overkill is said before the commit
        verdict = t("mk.ui.column_wasted", lang, wasted=column.total - column.need)
    else:
        verdict = (t("mk.ui.column_enough", lang) if column.enough
                   else t("mk.ui.column_short", lang, missing=column.need - column.total))
    return t(key, lang, targets=targets, sums=sums, verdict=verdict)


def why_block(element: Element, lang: str) -> str:
    """"weak against an ice attack": the article goes with the element's word, in either language."""
    return t("mk.ui.why_block", lang, attack=t(f"mk.ui.attack_of.{element}", lang))


def rep_text(change: int) -> str:
    """Reputation is shown as the change this combat made (+1, -2, ±0), never as a total (issue 27.8)."""
    return f"{change:+d}" if change else "±0"


def damage_line(state: State, lang: str) -> str:
    step = state.damage
    if step is None:
        return ""
    enemy = state.enemy(step.enemy)
    extras = [ability_name(a, lang) for a in ("brutal", "poison", "paralyze") if getattr(step, a)]
    text = t("mk.ui.damage_line", lang, enemy=enemy.local_name(lang), left=step.remaining, total=step.total,
             element=t(f"mk.element.{step.element}", lang))
    return text + (f" ({', '.join(extras)})" if extras else "")


def summary(view: State, lang: str) -> str:
    """One short position line (whose turn is said once, by the table's next line), then the
    open column or damage step."""
    if view.phase in ("over", "setup"):
        return ""
    hero = view.hero
    rep = rep_text(view.reputation)
    parts = [t("mk.ui.summary", lang, level=hero.level, fame=view.fame, rep=rep, wounds=hero.combat_hand_wounds,
               limit=hero.hand_limit)]
    if hero.knocked_out:
        parts[0] += " · " + t("mk.ui.knocked_out", lang)
    extra = column_line(view, lang) or damage_line(view, lang)
    return "\n".join([*parts, *([extra] if extra else [])])


# ---------------------------------------------------------------------------- events
def _abilities(params: dict[str, Any], lang: str) -> str:
    found = [ability_name(a, lang) for a in params.get("abilities") or [] if a != "summon"]
    return f", {', '.join(found)}" if found else ""


def event_text(event: Event, lang: str) -> str | None:
    """Events whose template is not enough: halved totals say why, a summon says what it does, a line
    about an enemy or a unit agrees with its name (``grammar``: "Predoni Zannuti sono sconfitti"), the Source
    says its colours without the d6 numbers they were rolled as (``words_rolls``)."""
    key = event.key.removeprefix("mk.ev.")
    agree = grammar.of_event(event.params, lang)  # read from the English names the event carries
    p = {**local_names(event.params, lang), **agree}  # cards, tokens and units in the reader's language
    if key == "attack_halved":
        resist = [r for r in p.get("resist") or [] if r != "cold_fire"]
        text = t("mk.ui.ev.attack_halved", lang, targets=", ".join(p.get("targets", [])), efficient=p["efficient"],
                 inefficient=p["inefficient"], half=int(p["inefficient"]) // 2, total=p["total"], need=p["need"],
                 why=resist_text(resist, lang) or t("mk.ui.why_resisted", lang))
        return _wasted(text, p, lang)
    if key == "blocked_halved" and "element" in p:
        text = t("mk.ui.ev.blocked_halved", lang, enemy=p["enemy"], efficient=p["efficient"],
                 inefficient=p["inefficient"], half=int(p["inefficient"]) // 2, total=p["total"], need=p["need"],
                 why=why_block(p["element"], lang), enemy_n=p["enemy_n"], enemy_blocked=p["enemy_blocked"])
        return _wasted(text, p, lang)
    if key in ("summon_drawn", "summon_entered"):
        kind = str(p.get("effect", "attack_melee_physical"))
        attack = f"{t(f'mk.effect_kind.{kind}', lang)} {p.get('attack', 0)}" + _abilities(p, lang)
        return t("mk.ui.ev.summon", lang, enemy=p["enemy"], token=p["token"], attack=attack,
                 enemy_n=p.get("enemy_n", 1))
    if key == "targeted":
        which = "mk.ui.ev.targeted_block" if p.get("column") == "block" else "mk.ui.ev.targeted_attack"
        text = t(which, lang, targets=", ".join(p.get("targets", [])), need=p.get("need", 0))
        return text + (" " + t("mk.ui.siege_only_note", lang) if p.get("siege_only") else "")
    if key == "effect_added" and (p.get("sideways") or p.get("unit")):
        which = "mk.ui.ev.added_sideways" if p.get("sideways") else "mk.ui.ev.added_unit"
        return t(which, lang, **humanize(p, lang, "mk"))
    if key in ("enemy_defeated", "combat_ended", "gm_fame", "reputation_site") and isinstance(p.get("rep"), int):
        return t(event.key, lang, **humanize({**p, "rep": rep_text(p["rep"])}, lang, "mk"))  # "+1", as gained
    if key in ("attack_resolved", "blocked"):
        return _wasted(t(event.key, lang, **humanize(p, lang, "mk")), p, lang)
    if key == "mana_used" and p.get("mana") in _MANA_USED:  # which source paid (M46)
        return t(_MANA_USED[p["mana"]], lang, card=p["card"], face=t(f"mk.face.{p['face']}", lang))
    if key == "seed":  # how to deal it again: a duel is replayed as a duel
        which = "mk.ui.ev.seed_duel" if p.get("mode") == "duel" else "mk.ui.ev.seed"
        return t(which, lang, seed=p["seed"], tier=p["tier"])
    if key == "source_rolled":
        return t(event.key, lang, **humanize(p, lang, "mk"))
    if agree:
        return t(event.key, lang, **humanize(p, lang, "mk"))
    return None


def _wasted(text: str, params: dict[str, Any], lang: str) -> str:
    """"… against armor 2 (4 wasted)." after a resolved column that had more than it needed (issue 27.5)."""
    total, need = params.get("total"), params.get("need")
    if isinstance(total, int) and isinstance(need, int) and total > need:
        return f"{text.rstrip('.')} {t('mk.ui.after_wasted', lang, wasted=total - need)}."
    return text


# ---------------------------------------------------------------------------- the hand
def mana_line(view: State, lang: str) -> str:
    """What can power a card now: unused Source dice (the one-per-turn rule), crystals, tokens."""
    parts = []
    if view.source:
        dice = ", ".join(t(f"mk.face.{d.face}", lang) + (f" ({t('mk.ui.used', lang)})" if d.used else "")
                         for d in view.source)
        parts.append(t("mk.ui.mana_source", lang, dice=dice))
    crystals = ", ".join(f"{t(f'mk.face.{c}', lang)} {n}" for c, n in view.hero.crystals.items() if n)
    if crystals:
        parts.append(t("mk.ui.mana_crystals", lang, crystals=crystals))
    if view.hero.tokens:
        parts.append(t("mk.ui.mana_tokens", lang, tokens=", ".join(t(f"mk.face.{c}", lang) for c in view.hero.tokens)))
    return " · ".join(parts)


def hand_lines(view: State, seat: int, lang: str) -> list[str]:
    """Each card in the hand with both sides and what it can do right now."""
    hero = view.hero
    legal = ENGINE.legal_actions(view, seat)
    ahead = phase_uses(view, seat, lang)  # no column yet: what each card could add in this phase
    cards = [c for c in dict.fromkeys(hero.hand) if c in view.cards]
    hidden = hero.hand.count(HIDDEN)
    wounds = hero.hand.count(WOUND)
    lines: list[str] = []
    for card_id in cards:
        card = view.cards[card_id]
        copies = hero.hand.count(card_id)
        name = card.local_name(lang) + (f" ×{copies}" if copies > 1 else "")
        lines.append(f"• {name} ({t(f'mk.face.{card.colour}', lang)}): {card_text(card, lang)}")
        now = [choices.after_label(view, a, lang) for a in legal if isinstance(a, A.Play) and a.card == card_id]
        now = list(dict.fromkeys(n for n in now if n))
        if any(isinstance(a, A.Sideways) and a.card == card_id for a in legal):
            now.append(t("mk.ui.panel_sideways", lang))
        if now:
            lines.append("  " + t("mk.ui.panel_now", lang, plays="; ".join(now)))
        elif card_id in ahead:
            lines.append("  " + t("mk.ui.panel_phase", lang, plays="; ".join(ahead[card_id])))
        else:
            lines.append("  " + t("mk.ui.panel_not_now", lang))
    if hidden:
        lines.append(t("mk.ui.panel_hidden", lang, count=hidden))
    if wounds:
        lines.append(t("mk.ui.panel_wounds", lang, count=wounds))
    if not cards and not hidden and not wounds:
        lines.append(t("mk.ui.panel_empty", lang))
    mana = mana_line(view, lang)
    if mana:
        lines.append(mana)
    return lines


def unit_lines(view: State, seat: int, lang: str) -> list[str]:
    """Units that can still act, with what each activation would add now."""
    legal = [a for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.Activate)]
    ahead = phase_uses(view, seat, lang)
    lines = []
    for unit in view.units:
        now = list(dict.fromkeys(choices.after_label(view, a, lang) for a in legal if a.unit == unit.uid))
        if now:
            lines.append(f"• {unit.local_name(lang)}: " + "; ".join(n for n in now if n))
        elif unit.uid in ahead:
            lines.append(f"• {unit.local_name(lang)}: "
                         + t("mk.ui.panel_phase", lang, plays="; ".join(ahead[unit.uid])))
    return lines


def panel(view: State, seat: int, lang: str) -> Reply:
    """"Show my hand / My options": what this seat alone may see and what it can do now."""
    decision = ENGINE.decision(view)
    lines: list[str] = []
    if decision is None:
        lines.append(t("mk.ui.panel_over", lang))
    elif seat in decision.seats:
        prompt = t(decision.prompt_key, lang, **humanize(decision.params, lang, "mk")) if decision.prompt_key else ""
        lines.append(t("mk.ui.panel_your_move", lang, prompt=prompt))
        column = column_line(view, lang) or damage_line(view, lang)
        if column:
            lines.append(column)
    else:
        names = {p.seat: p.name for p in view.players}
        lines.append(t("mk.ui.panel_waiting", lang, players=", ".join(names.get(s, "?") for s in decision.seats)))
    if seat == view.fighter or view.open_hand:
        lines.append(t("mk.ui.panel_hand", lang))
        lines += hand_lines(view, seat, lang)
        units = unit_lines(view, seat, lang)
        if units:
            lines.append(t("mk.ui.panel_units", lang))
            lines += units
    else:
        lines.append(t("mk.ui.panel_hidden", lang, count=len(view.hero.hand)))
    if view.phase == "setup" and seat == view.opponent:  # the seat that sets the die sees the enemy
        lines += [f"• {e.local_name(lang)}: {enemy_now_text(view, e, lang)}" for e in view.enemies
                  if e.token.id != HIDDEN]
    if view.interactive is not None and view.interactive.face is not None and seat == view.opponent:
        lines.append(t("mk.ui.panel_die", lang, face=t(f"mk.face.{view.interactive.face}", lang)))
    name = next((p.name for p in view.players if p.seat == seat), "?")
    return Reply(title=t("mk.ui.panel_title", lang, player=name), text="\n".join(lines), ephemeral=True)


__all__ = ["attack_text", "column_line", "damage_line", "effect_text", "event_text", "hand_lines", "panel",
           "summary"]
