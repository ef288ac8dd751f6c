"""The words of the WoW board game's effect vocabulary: one op, one condition, one effect, one creature
ability, one event op — each written from its data through ``wowboard.card.*`` locale templates.

Spec §4.1: effects are data and the card text is generated from them, so English and Italian never
drift and no parameter is silently lost (the tests build every op/condition/ability/event op from the
schemas' ``Literal`` types and check both languages). The sentences follow what the engine does
(``rules_pool.pool_counts``, ``creature_checks``, ``rules_events.apply_op``), not the real game's
wording.

The one source of these words (issue 17): ``gm.games.wowboard.cards`` builds whole cards from these pieces for
replies, and ``renderers.wowboard.cardtext`` draws them on the sheet and combat pictures, so it lives
here, below both layers (it imports only the engine's content schemas and ``common.i18n``). Where a
picture needs brevity a ``short`` form is chosen here (``op.companion.short``), never a second
vocabulary. Pure Python, no discord, no Pillow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from common.i18n import t
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Condition, Effect, EventOp, Op, is_optional, local_name

P = "wowboard.card."


def w(key: str, lang: str, **params: Any) -> str:
    """One ``wowboard.card.*`` template (every word of this module goes through here)."""
    return t(P + key, lang, **params)


# ---------------------------------------------------------------------------- small words
def colour(name: str | None, lang: str, n: int = 1) -> str:
    """A die colour as an adjective; Italian agrees with the number of dice ("rosso"/"rossi")."""
    return w(f"colour.{name or 'blue'}", lang, n=n)


def colours(names: Iterable[str], lang: str, n: int = 1) -> str:
    """Several colours as alternatives ("blue or red"): a spot condition accepts any of them."""
    words = [colour(c, lang, n) for c in names] or [colour(None, lang, n)]
    text = words[0]
    for word in words[1:]:
        text = w("or", lang, a=text, b=word)
    return text


def dice(n: int, colour_name: str | None, lang: str) -> str:
    """"2 red dice" / "2 dadi rossi"."""
    return w("dice", lang, n=n, colour=colour(colour_name, lang, n))


def tier(name: str, lang: str, n: int = 1) -> str:
    """A figure tier inside a sentence ("2 green Mirefin"): the colour adjective, not the label."""
    return colour(name, lang, n)


def stat(name: str | None, lang: str) -> str:
    return w(f"stat.{name or 'health'}", lang)


def faction(name: str | None, lang: str) -> str:
    return w(f"faction.{name or 'horde'}", lang)


def deck(name: str | None, lang: str) -> str:
    return w(f"deck.{name or 'triangle'}", lang)


def signed(n: int) -> str:
    """Threat changes print their sign: "+1" / "−1" (a true minus sign reads better than a hyphen)."""
    return f"+{n}" if n >= 0 else f"\u2212{abs(n)}"


def creature_name(pack: Pack | None, cid: str, lang: str = "en") -> str:
    """A creature type's printed name in ``lang``; the id only when the pack does not know it (never in a
    valid pack)."""
    return next((local_name(c, lang) for c in (pack.creatures if pack else ()) if c.id == cid), cid)


def opponent_name(pack: Pack | None, opponent: Any, lang: str) -> str:
    """A fight's opponent in ``lang``: the state keeps the English name (a boss, the Overlord, a creature
    type's), so the Italian one is found by its reference (``boss:<id>``), else by that English name."""
    ref, english = str(opponent.ref), str(opponent.name or opponent.ref)
    if pack is None or lang == "en":
        return english
    kind, _, ident = ref.partition(":")
    group: list[Any] = list(pack.bosses) if kind == "boss" else list(pack.overlords) if kind == "overlord" else []
    found = next((x for x in group if x.id == ident), None) or \
        next((c for c in pack.creatures if c.name == english), None)
    return local_name(found, lang) if found is not None else english


def region_name(pack: Pack | None, rid: str, lang: str = "en") -> str:
    return next((local_name(r, lang) for r in (pack.regions if pack else ()) if r.id == rid), rid)


def area_name(pack: Pack | None, aid: str, lang: str) -> str:
    """"Stonecrown (C)": the name for reading (Italian where the pack has it), the letter because the map
    shows areas by letter."""
    if pack is not None and aid in pack.areas:
        local = pack.areas_it.get(aid, "") if lang == "it" else ""
        return w("area", lang, name=local or pack.areas[aid], id=aid)
    return aid


# ---------------------------------------------------------------------------- card effects
def op_text(op: Op, lang: str, short: bool = False) -> str:
    """One op with every parameter it carries (content_cards.OP_PARAMS); ``short`` leaves out the
    reminder of how a rule works (a companion's "put N health tokens on it…") for lists and pictures."""
    n = op.n or 0
    kind = op.op
    if kind == "companion" and short:
        return w("op.companion.short", lang, n=n)
    target = op.target or "self"
    if kind == "add_dice":
        if op.per_opponent:
            key = "op.add_dice.per_max" if op.max else "op.add_dice.per"
            return w(key, lang, colour=colour(op.colour, lang), max=op.max or 0)
        return w("op.add_dice.n", lang, dice=dice(n, op.colour, lang))
    if kind == "remove_own_dice":
        if op.colour:
            return w("op.remove_own_dice.colour", lang, dice=dice(n, op.colour, lang))
        return w("op.remove_own_dice.any", lang, n=n)
    if kind == "change_die":
        return w("op.change_die.base", lang, face=op.face or 8)
    if kind == "add_hits":
        return w("op.add_hits.base", lang, n=n, box=w(f"box.{op.box or 'damage'}", lang))
    if kind == "prevent_wounds":
        return w(f"op.prevent_wounds.{target}", lang, n=n)
    if kind in ("heal", "energy"):
        return w(f"op.{kind}.{target}.{op.mode or 'regain'}", lang, n=n)
    if kind == "capacity":
        return w(f"op.capacity.{target}", lang, n=n, stat=stat(op.stat, lang))
    if kind == "remove_curse":
        return w(f"op.remove_curse.{target}_{'all' if op.all else 'n'}", lang, n=n)
    if kind == "threat":
        if op.vs:
            return w("op.threat.vs", lang, sn=signed(n), colour=colour(op.vs, lang, 2))
        return w("op.threat.all", lang, sn=signed(n))
    return w(f"op.{kind}.base", lang, n=n)  # reroll, attrition, add_armor, extra_move, gold, companion


def face_text(face: int | None, or_higher: bool | None, lang: str) -> str:
    return w("face_up", lang, face=face or 8) if or_higher else str(face or 8)


def condition_text(cond: Condition, lang: str) -> str:
    """When the effect applies (content_cards.CONDITION_PARAMS), as a clause after the timing."""
    kind = cond.kind
    if kind == "pool_has_no":
        return w("cond.pool_has_no.base", lang, colour=colour(cond.colour, lang, 2))
    if kind == "spot":
        count = cond.count or 1
        return w("cond.spot.base", lang, count=count, colours=colours(cond.colours or [], lang, count),
                 face=face_text(cond.face, cond.or_higher, lang))
    if kind == "opponent_kind":
        return w(f"cond.opponent_kind.{cond.opponent or 'creature'}", lang)
    if kind == "in_region_with":
        return w(f"cond.in_region_with.{cond.feature or 'town'}", lang)
    return w(f"cond.{kind}.base", lang, n=cond.n or 0)  # used_previous_round, participants/level at least


def effect_text(effect: Effect, lang: str, short: bool = False) -> str:
    """"Timing, condition, pay N energy: op, op (once per combat)." — one sentence per effect
    (``short``: each op's short form, see ``op_text``)."""
    head = w(f"timing.{effect.timing}", lang)
    if effect.condition is not None:
        head += ", " + condition_text(effect.condition, lang)
    if effect.cost_energy:
        head += ", " + w("effect.cost", lang, n=effect.cost_energy)
    if effect.secondary:  # card-limits.3
        head += ", " + w("effect.secondary", lang)
    if is_optional(effect):  # a price of its own: its owner may decline it (``rules_spot.run``)
        head += ", " + w("effect.optional", lang)
    ops = ", ".join(op_text(op, lang, short) for op in effect.ops)
    if effect.once_per_combat:
        return w("effect.line_once", lang, head=head, ops=ops, once=w("effect.once", lang))
    return w("effect.line", lang, head=head, ops=ops)


def effects_text(effects: Iterable[Effect], lang: str, short: bool = False) -> list[str]:
    return [effect_text(e, lang, short) for e in effects]


def gist(effects: Iterable[Effect], lang: str) -> str:
    """What the effects do without when ("+2 red dice, Attrition +1"), for one-line lists; an op
    repeated under another timing or condition is said once (the full text tells them apart)."""
    words = [op_text(op, lang, short=True) for e in effects for op in e.ops]
    return ", ".join(dict.fromkeys(words))


# ---------------------------------------------------------------------------- creature abilities
def ability_text(ability: Mapping[str, Mapping[str, Any]], lang: str, pack: Pack | None = None) -> str:
    """A creature/boss/Overlord ability (content_cards.ABILITY_PARAMS) as the engine applies it
    (``rules_combat.creature_checks``, ``foes``, ``assign_hits``, ``defense``, ``scorch``)."""
    parts = []
    for name, spec in ability.items():
        p = dict(spec)
        if name in ("wound_per_face", "curse_if"):
            p["colour"] = colour(str(p.get("colour")), lang, 1)
        elif name == "threat_vs":
            p["colour"] = colour(str(p.get("colour")), lang, 2)
        elif name == "summon":
            n = int(p.get("n", 1))
            p["tier"] = tier(str(p.get("tier")), lang, n)
            p["type"] = creature_name(pack, str(p.get("type")), lang)
        parts.append(w(f"ability.{name}", lang, **p))
    return "; ".join(parts) or w("ability.none", lang)


# ---------------------------------------------------------------------------- event ops
def event_op_text(op: EventOp, lang: str, pack: Pack | None = None) -> str:
    """One event op as ``rules_events.apply_op`` applies it; ``who`` names factions, ``area`` the
    characters standing in that area."""
    n = op.n or 1
    kind = op.op
    if kind == "merchant":
        return w("event_op.merchant", lang, n=n, deck=deck(op.deck, lang))
    if kind == "draw_quest":
        return w("event_op.draw_quest", lang, n=n, who=w(f"who.{op.who or 'all'}", lang))
    if kind == "spawn":
        count = op.count or 1
        return w("event_op.spawn", lang, count=count, tier=tier(op.tier or "blue", lang, count),
                 type=creature_name(pack, op.type or "", lang), region=region_name(pack, op.region or "", lang))
    if kind == "close_flights":
        return w("event_op.close_flights", lang, area=area_name(pack, op.area or "", lang))
    if kind == "close_road":  # travel.6
        return w("event_op.close_road", lang, region=region_name(pack, op.region or "", lang),
                 to=region_name(pack, op.to or "", lang))
    if op.area is not None:
        who = w("chars.area", lang, area=area_name(pack, op.area, lang))
    else:
        who = w(f"chars.{op.who or 'all'}", lang)
    if kind == "regain":
        if op.full:
            return w("event_op.regain_full", lang, who=who, stat=stat(op.stat, lang))
        return w("event_op.regain", lang, who=who, n=n, stat=stat(op.stat, lang))
    return w(f"event_op.{kind}", lang, who=who, n=n)  # gold, wound, curse
