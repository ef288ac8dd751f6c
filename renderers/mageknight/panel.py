"""The right column's first half: the banner (who must act and what to do, said once) and the
open column: the staged effects, their live sum and the verdict.

The numbers come from the engine (``engines.mageknight.preview.preview_column`` for the
total, the need and the verdict; ``rules_values`` for which part is halved and for the
damage steps), so the picture cannot disagree with what ``commit`` will do. The verdict is
a word and a drawn tick or cross on green or red, never colour alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from common import i18n
from engines.mageknight import ENGINE
from engines.mageknight.preview import preview_column
from engines.mageknight.rules_base import unresolved_attackers
from engines.mageknight.rules_values import (
    armor_of,
    attack_inefficient,
    attack_of,
    block_inefficient,
    coldfire_resisted,
    damage_of,
    group_resistances,
    hero_wounds_for,
)
from engines.mageknight.state import StagedPart, State
from renderers import kit
from renderers.kit import RGB
from renderers.kit_panel import Chip
from renderers.mageknight import glyphs
from renderers.mageknight.layout import DU, acting_seats
from renderers.mageknight.pen import SPACE, Pen, chip_item, word_items
from renderers.mageknight.words import effect_text, enemy_names, plain, player_name, to_act, tr

Banner = tuple[str, RGB, list[str]]  # headline, colour, lines under it


# -- banner -------------------------------------------------------------------------------


def banner(state: State, lang: str, seat_names: Mapping[int, str] | None) -> Banner:
    """Who must act and what to do, or how the combat ended: the one place that says it."""
    if state.phase == "over":
        return _ending(state, lang, seat_names)
    seats = acting_seats(state)
    if not seats:
        return tr("render.mk.waiting", lang), kit.MUTED, []
    seat = seats[0]
    head = to_act(player_name(state, seat, seat_names), lang)
    todo = what_to_do(state, lang)
    return head, kit.team_colour(0 if seat == state.fighter else 1), [todo] if todo else []


def what_to_do(state: State, lang: str) -> str:
    """The open decision as one sentence (``render.mk.do.*``)."""
    pending = state.pending
    if pending is not None and i18n.has(f"render.mk.do.{pending.kind}", lang):
        enemy = plain(state.enemy(pending.enemy).local_name(lang)) if pending.enemy else ""
        return tr(f"render.mk.do.{pending.kind}", lang, enemy=enemy)
    if state.phase == "assign_damage":
        step = state.damage
        if step is not None:
            return tr("render.mk.do.assign_step", lang, enemy=plain(state.enemy(step.enemy).local_name(lang)),
                      left=step.remaining)
        return tr("render.mk.do.assign_damage", lang, count=len(unresolved_attackers(state)))
    if state.staged is not None:
        return tr(f"render.mk.do.column_{state.staged.kind}", lang)
    key = f"render.mk.do.{state.phase}"
    return tr(key, lang) if i18n.has(key, lang) else ""  # a phase this renderer does not know: no words


def _ending(state: State, lang: str, seat_names: Mapping[int, str] | None) -> Banner:
    """How the combat ended: victory or survivors (a duel names its winner) and the
    challenge score."""
    result = state.result
    if result is None:
        return tr("render.mk.over.title", lang), kit.MUTED, []
    lines = []  # Fame and Reputation are in the hero's block, once
    if state.mode != "assist" and not result.conceded:
        lines.append(tr("render.mk.over.score", lang, score=result.score))
    survivors = tr("render.mk.over.survivors", lang, count=len(result.survived))
    outcome = ENGINE.outcome(state)
    if state.mode == "duel" and outcome is not None and outcome.winners:
        winner = outcome.winners[0]
        why = tr("render.mk.over.all_defeated", lang) if not result.survived else survivors
        head = tr("render.mk.over.winner", lang, name=player_name(state, winner, seat_names))
        return head, kit.team_colour(0 if winner == state.fighter else 1), [why, *lines]
    if result.conceded:
        return tr("render.mk.over.conceded", lang), kit.MUTED, lines
    if not result.survived:
        return tr("render.mk.over.victory", lang), glyphs.ENOUGH, lines
    return survivors, kit.MUTED, lines


# -- the open column --------------------------------------------------------------------------


def _source(state: State, part: StagedPart, lang: str) -> str:
    """Where a staged effect comes from: a card (and its side), a sideways card, a unit, or
    what the player called it in assist mode."""
    card = state.cards.get(part.card or "")
    if part.source == "sideways":
        return tr("render.mk.column.sideways", lang, card=plain(card.local_name(lang)) if card else "?")
    if part.source == "card" and card is not None:
        key = "render.mk.column.powered" if part.side == "powered" else "render.mk.column.basic"
        return tr(key, lang, card=plain(card.local_name(lang)))
    if part.unit:
        unit = next((u for u in state.units if u.uid == part.unit), None)
        if unit is not None:
            return plain(unit.local_name(lang))
    return plain(part.label) if part.label else tr("render.mk.column.declared", lang)


def _halved(state: State, part: StagedPart) -> bool:
    """Whether this part counts half (the engine's own efficiency tables, M10/M17)."""
    staged = state.staged
    assert staged is not None
    targets = [state.enemy(u) for u in staged.targets]
    if staged.kind == "block":
        return block_inefficient(part.element, targets[0].token.element)
    return attack_inefficient(part.element, group_resistances(targets), coldfire_resisted(targets,
                                                                                          state.coldfire_pooled))


def draw_column(pen: Pen, state: State, lang: str, most: int | None = None) -> None:
    """The open attack or block: its parts, the sum, what it needs, and the verdict.

    ``most``: show only the last ``most`` parts, the others counted in one line ("+3 more
    effects"), for a column too long for the panel; the sum always counts them all."""
    staged = state.staged
    if staged is None:
        _no_column(pen, state, lang)
        return
    targets = [state.enemy(u) for u in staged.targets]
    names = enemy_names(state, staged.targets, lang)
    pen.text(tr(f"render.mk.column.{staged.kind}", lang, targets=names), bold=True, indent=DU(6))
    preview = preview_column(state)
    assert preview is not None
    if not staged.parts:
        pen.text(tr("render.mk.column.empty", lang), kit.MUTED)
    shown = staged.parts if most is None or most >= len(staged.parts) else staged.parts[len(staged.parts) - most:]
    if len(shown) < len(staged.parts):
        pen.text(tr("render.mk.column.more", lang, count=len(staged.parts) - len(shown)), kit.SUBTLE)
    for part in shown:
        effect = effect_text(part.effect, lang)
        items = word_items(tr("render.mk.column.part", lang, source=_source(state, part, lang), effect=effect))
        if _halved(state, part):
            items.append(chip_item(Chip(tr("render.mk.column.half", lang), kit.PANEL_LINE, ink=kit.INK)))
        pen.items(items, gap=SPACE, indent=DU(6))
    if preview.inefficient:
        total = tr("render.mk.column.sum_halved", lang, efficient=preview.efficient, inefficient=preview.inefficient,
                   half=preview.inefficient // 2, total=preview.total)
    else:
        total = tr("render.mk.column.sum", lang, total=preview.total)
    pen.text(total, bold=True)
    if staged.kind == "block":
        attack = attack_of(state, targets[0])
        key = "render.mk.column.need_swift" if preview.swift else "render.mk.column.need_block"
        need = tr(key, lang, need=preview.need, attack=attack)
    else:
        armors = " + ".join(str(armor_of(state, e)) for e in targets)
        need = tr("render.mk.column.need_armor", lang, need=preview.need, armors=armors)
    pen.text(need)
    pen.space(DU(1))
    if preview.enough:  # overkill is shown while it can still be taken back (issue 27.5)
        wasted = preview.total - preview.need
        words = (tr("render.mk.column.enough_wasted", lang, wasted=wasted) if wasted > 0
                 else tr("render.mk.column.enough", lang))
        chip = Chip(words, glyphs.ENOUGH, ink=kit.INK, icon=glyphs.paint_check)
    else:
        chip = Chip(tr("render.mk.column.short", lang, missing=preview.need - preview.total), glyphs.SHORT,
                    ink=kit.INK, icon=glyphs.paint_cross)
    pen.items([chip_item(chip)])


def _no_column(pen: Pen, state: State, lang: str) -> None:
    """No open column: the damage being assigned, what is left to assign, or the result."""
    step = state.damage
    if state.phase == "over":
        _result(pen, state, lang)
        return
    if step is not None:
        enemy = state.enemy(step.enemy)
        pen.text(tr("render.mk.damage.title", lang, enemy=plain(enemy.local_name(lang))), bold=True, indent=DU(6))
        notes = [tr(f"render.mk.damage.{flag}", lang) for flag in ("brutal", "poison", "paralyze")
                 if getattr(step, flag)]
        element = tr(f"render.mk.element.{step.element}", lang)
        pen.text(tr("render.mk.damage.left", lang, left=step.remaining, total=step.total, element=element))
        if notes:
            pen.text(", ".join(notes))
        wounds = hero_wounds_for(step.remaining, state.hero.armor)
        pen.text(tr("render.mk.damage.to_hero", lang, wounds=wounds, armor=state.hero.armor), kit.SUBTLE)
        return
    if state.phase == "assign_damage":
        pen.text(tr("render.mk.damage.pending", lang), bold=True)
        for enemy in unresolved_attackers(state):
            pen.text(tr("render.mk.damage.from", lang, enemy=plain(enemy.local_name(lang)),
                        damage=damage_of(state, enemy)), indent=DU(6))
        return
    pen.text(tr("render.mk.column.none", lang), kit.MUTED)


def _result(pen: Pen, state: State, lang: str) -> None:
    result = state.result
    if result is None:
        return
    pen.text(tr("render.mk.over.defeated", lang, count=len(result.defeated)), bold=True)
    pen.text(tr("render.mk.over.wounds", lang, hand=result.hero_wounds, discard=result.discard_wounds))
    if result.unit_wounds or result.units_destroyed:
        pen.text(tr("render.mk.over.units", lang, wounds=result.unit_wounds, destroyed=result.units_destroyed))
    if result.knocked_out:
        pen.text(tr("render.mk.hero.knocked_out", lang))
