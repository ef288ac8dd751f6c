"""Autocomplete and typed names for ``/wowb``: every list comes from ``legal_actions`` on the seat's own
view (or, for equip pairs, from the same checks ``apply`` runs), so a player is only ever offered what the
rules accept (TABLE_UX "autocomplete offers only legal choices").

Names are matched as people type them: the id, the class or region name, in any case and without
accents (``gm.games.names.fold``); ``resolve_*`` turn what was typed into the id the engine wants, or a clear
error listing what would have worked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from common.i18n import t
from engines.core.contract import Action
from engines.core.errors import TavoloError
from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_travel import destinations
from engines.wowboard.rules_turn import independent_regions
from engines.wowboard.state import State
from gm.games.choices import Choice, Ranked, fit, match_tier, rank
from gm.games.names import Name, echo, find
from gm.games.wowboard import text


def legal(view: State, seat: int | None) -> list[Action]:
    return ENGINE.legal_actions(view, seat) if seat is not None else []


def _pick(found: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    return rank([Ranked(Choice(label, value)) for label, value in found], current)


def resolve(view: State, options: Iterable[str], typed: str, what: str, lang: str = "en") -> str:
    """The option the player meant, by the shared resolver (``gm.games.names``): its id, its English or
    Italian name, any word or piece of them, a close typo. Nothing or several fitting: the error lists
    what would work (the names that fit, when several do), in the reader's language."""
    options = list(dict.fromkeys(options))
    _tier, found = find(typed, [Name(o, text.name(view, o, lang), text.aliases(view, o)) for o in options])
    if len(found) == 1:
        return found[0].value
    listed = [n.value for n in found] or options
    known = ", ".join(text.name(view, o, lang) for o in listed[:20]) or "—"
    raise TavoloError(f"wowboard.ui.unknown_{what}", name=echo(typed), known=known)


# ---------------------------------------------------------------------------- characters
def my_characters(view: State, seat: int | None) -> list[str]:
    return [c.id for c in view.characters.values() if c.seat == seat]


def character_choices(view: State, seat: int | None, current: str, kinds: tuple[str, ...] = (),
                      lang: str = "en") -> list[Choice]:
    """The seat's characters; with ``kinds``, only those with such a legal action now."""
    able = {getattr(a, "character", None) for a in legal(view, seat) if not kinds or a.kind in kinds}
    if view.phase == "management":
        able = set(my_characters(view, seat))
    found = [(text.char_label(view, cid, lang=lang), cid) for cid in my_characters(view, seat)
             if not kinds or cid in able]
    return _pick(found, current)


def resolve_character(view: State, seat: int | None, typed: str, lang: str = "en") -> str:
    return resolve(view, my_characters(view, seat), typed, "character", lang)


# ---------------------------------------------------------------------------- draft
def class_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    return _pick([(text.name(view, a.class_id, lang), a.class_id) for a in legal(view, seat)
                  if isinstance(a, A.PickClass)], current)


def resolve_class(view: State, seat: int | None, typed: str, lang: str = "en") -> str:
    options = [a.class_id for a in legal(view, seat) if isinstance(a, A.PickClass)]
    return resolve(view, options or [c.id for c in pack_of(view).classes], typed, "class", lang)


# ---------------------------------------------------------------------------- travel
def travel_choices(view: State, seat: int | None, char: str | None, current: str, lang: str) -> list[Choice]:
    """Reachable regions with their path: "Kilnwatch · via Soot Mire" (travel.1–4)."""
    found = []
    pack = pack_of(view)
    for a in legal(view, seat):
        if not isinstance(a, A.Travel) or (char and a.character != char):
            continue
        c = view.characters[a.character]
        paths = destinations(pack, c.faction, c.region, independent_regions(view))
        path = paths.get(a.to, [a.to])
        via = " → ".join(text.name(view, r, lang) for r in path[:-1])
        parts = [text.name(view, a.to, lang)]
        if via:
            parts.append(t("wowboard.ui.via", lang, path=via))
        if not char:
            parts.insert(0, text.name(view, c.class_id, lang))
        found.append((fit(parts), a.to))
    return _pick(found, current)


def resolve_destination(view: State, seat: int | None, char: str, typed: str, lang: str = "en") -> str:
    options = [a.to for a in legal(view, seat) if isinstance(a, A.Travel) and a.character == char]
    if not options:
        return typed.strip()  # the engine says why (no actions left, a forced challenge…)
    return resolve(view, options, typed, "region", lang)


# ---------------------------------------------------------------------------- challenge
def target_label(view: State, target: str, lang: str) -> str:
    """A challenge target as ``text.target_words`` says it, a group with its size: "3 × Zealot (Horde)"."""
    words = text.target_words(target, text.names_of(view.pack, lang), lang)
    kind, _, rest = target.partition(":")
    if kind != "group":
        return words
    region, ctype, owner = ([*rest.split(":"), "", "", ""])[:3]
    n = sum(1 for f in view.figures.values() if f.region == region and f.type == ctype
            and (f.faction or "free") == owner)
    return f"{n} × {words}"


def has_no_dice(view: State, char: str) -> bool:
    """True when no card the character has in play could add a die to its pool (dice-pool.1), instants
    and conditional cards counted as if paid and met. The rules let such a character challenge all the same
    (challenge.1–4 set no dice requirement), so the table only warns: it would roll nothing every round."""
    from engines.wowboard.rules_fight import POOL_TIMINGS
    from engines.wowboard.rules_sheet import equipped_effects

    if char not in view.characters:
        return False
    return not any(op.op == "add_dice" for a in equipped_effects(view, char)
                   if a.effect.timing in POOL_TIMINGS for op in a.effect.ops)


def no_dice_note(view: State, char: str, lang: str) -> str:
    """" — Cantor has no dice to roll" after a challenge's label, or nothing when it has some."""
    if not has_no_dice(view, char):
        return ""
    return " — " + t("wowboard.ui.no_dice_warning", lang, name=text.name(view, view.characters[char].class_id, lang))


def challenge_notes(view: State, action: dict[str, Any], lang: str) -> list[str]:
    """The no-dice warning for a challenge typed without the autocomplete, whose label carries it: the rules
    allow the challenge (challenge.1-4), so it goes ahead and the player alone is told."""
    char = action.get("character")
    if action.get("kind") != "challenge" or not isinstance(char, str) or not has_no_dice(view, char):
        return []
    return ["⚠️ " + t("wowboard.ui.no_dice_warning", lang, name=text.name(view, view.characters[char].class_id, lang))]


def challenge_choices(view: State, seat: int | None, char: str | None, current: str, lang: str) -> list[Choice]:
    seen: dict[str, str] = {}
    for a in legal(view, seat):
        if isinstance(a, A.Challenge) and (not char or a.character == char):
            seen.setdefault(a.target, target_label(view, a.target, lang) + no_dice_note(view, a.character, lang))
    return _pick([(label, target) for target, label in seen.items()], current)


def resolve_target(view: State, seat: int | None, char: str, typed: str, lang: str) -> str:
    """The target the player meant, by id or by any word of its label ("dunecur", "pvp", a boss's name)."""
    options = sorted({a.target for a in legal(view, seat) if isinstance(a, A.Challenge) and a.character == char})
    if typed in options or not options:
        return typed.strip()  # no target at all: the engine says why (no actions left, nothing here…)
    tiers = {o: match_tier(typed, (target_label(view, o, "en"), target_label(view, o, "it"), o, *o.split(":")))
             for o in options}
    found = [o for o, tier in tiers.items() if tier is not None]
    best = [o for o in found if tiers[o] == min(tiers[x] for x in found)] if found else []  # type: ignore[type-var]
    if len(best) == 1:
        return best[0]
    known = "; ".join(target_label(view, o, lang) for o in options)
    raise TavoloError("wowboard.ui.unknown_target", name=echo(typed), known=known)


def invite_choices(view: State, seat: int | None, char: str | None, current: str, lang: str = "en") -> list[Choice]:
    friends = {f for a in legal(view, seat) if isinstance(a, A.Challenge) and (not char or a.character == char)
               for f in a.invite}
    return _pick([(text.char_label(view, f, lang=lang), f) for f in sorted(friends)], current)


def resolve_invitee(view: State, seat: int | None, char: str, typed: str, lang: str = "en") -> str:
    """A friend to invite (challenge.5): any friendly character in the region with an action left, of any
    seat; with none such, every friendly character, so the engine says why it cannot join."""
    friends = sorted({f for a in legal(view, seat) if isinstance(a, A.Challenge) and a.character == char
                      for f in a.invite})
    c = view.characters.get(char)
    options = friends or [f.id for f in view.characters.values() if c is not None and f.faction == c.faction
                          and f.id != char]
    return resolve(view, options, typed, "character", lang)


# ---------------------------------------------------------------------------- train, town, equip
def power_choices(view: State, seat: int | None, char: str | None, current: str, lang: str = "en") -> list[Choice]:
    """Powers and talents still in the character's class deck that it may buy now (train-town.1)."""
    found = {p for a in legal(view, seat) if isinstance(a, A.Train) and (not char or a.character == char)
             for p in a.powers}
    return _pick([(text.name(view, p, lang), p) for p in sorted(found)], current)


def wearable(view: State, char: str, card: str) -> bool:
    """Whether some area of the character's class sheet takes this item's type and trait (equipping.3,
    level aside: items.5 lets it wait in the Bag). merchant.2 lets anyone buy any item (to trade or sell it),
    so an item the class can never wear is offered all the same, but labelled."""
    from engines.wowboard.content_cards import Item
    from engines.wowboard.rules_sheet import card_of, sheet_of

    c = view.characters.get(char)
    pack = pack_of(view)
    obj = card_of(pack, card)
    if c is None or not isinstance(obj, Item) or obj.type == "bag":  # card-limits.2: Bag items work from the Bag
        return True
    return any(obj.type in a.accepts and (not a.traits or obj.trait in a.traits)
               for a in sheet_of(pack, c.class_id).areas)


def buy_label(view: State, char: str, card: str, lang: str) -> str:
    """An item on offer by name, with "Cantor cannot wear it" when its class never could."""
    label = text.name(view, card, lang)
    if wearable(view, char, card):
        return label
    who = text.name(view, view.characters[char].class_id, lang)
    return f"{label} — {t('wowboard.ui.not_wearable', lang, name=who)}"


def buy_choices(view: State, seat: int | None, char: str | None, current: str, lang: str = "en") -> list[Choice]:
    found = {(a.character, i) for a in legal(view, seat) if isinstance(a, A.Town) and (not char or a.character == char)
             for i in a.buy}
    labels: dict[str, str] = {}
    for who, i in sorted(found):
        labels.setdefault(i, buy_label(view, who, i, lang) if char else text.name(view, i, lang))
    return _pick([(label, i) for i, label in labels.items()], current)


def sell_choices(view: State, seat: int | None, char: str | None, current: str, lang: str = "en") -> list[Choice]:
    found = {i for a in legal(view, seat) if isinstance(a, A.Town) and (not char or a.character == char)
             for i in a.sell}
    return _pick([(text.name(view, i, lang), i) for i in sorted(found)], current)


def resolve_cards(view: State, typed: str | None, options: Iterable[str], lang: str = "en") -> list[str]:
    """A comma-separated list of card names (or ids) → ids; unknown names pass through for the engine to refuse."""
    options = list(options)
    out = []
    for part in (typed or "").split(","):
        if not part.strip():
            continue
        try:
            out.append(resolve(view, options, part, "card", lang))
        except TavoloError:
            out.append(part.strip())
    return out


def equip_pairs(view: State, seat: int | None, char: str | None = None) -> list[tuple[str, str, str]]:
    """(character, card, area) for every equip the rules accept now (equipping.2–6)."""
    from engines.wowboard.rules_sheet import equip_options

    return [] if seat is None else equip_options(view, seat, char)


def equip_card_choices(view: State, seat: int | None, char: str | None, current: str,
                       lang: str = "en") -> list[Choice]:
    cards = dict.fromkeys(card for _c, card, _a in equip_pairs(view, seat, char))
    return _pick([(text.name(view, card, lang), card) for card in cards], current)


def area_label(view: State, char: str | None, area: str, lang: str) -> str:
    """A sheet area as what it takes ("instant power"), with its id when that differs ("active_2")."""
    c = view.characters.get(char or "")
    words = text.area_words(c.class_id, area, lang) if c is not None else area
    return words if words == area or "_" not in area else f"{words} ({area.rsplit('_', 1)[1]})"


def covered_printed(view: State, char: str | None, area: str, lang: str = "en") -> str | None:
    """The pre-printed power an equip in ``area`` would cover (equipping.1), by name; None if none."""
    c = view.characters.get(char or "")
    if c is None or (c.sheet.get(area) is not None and c.sheet[area].card):
        return None
    return text.printed_name(c.class_id, f"pre:{area}", lang)


def area_choices(view: State, seat: int | None, char: str | None, card: str | None, current: str,
                 lang: str = "en") -> list[Choice]:
    """Areas that take the card: empty ones first, then those whose card it would replace, and last those
    whose printed power it would cover (equipping.1), which the label names ("covers Spark")."""
    areas = dict.fromkeys(a for _c, k, a in equip_pairs(view, seat, char) if not card or k == card)
    c = view.characters.get(char or "")
    found = []
    for area in areas:
        label, printed = area_label(view, char, area, lang), covered_printed(view, char, area, lang)
        taken = c is not None and area in c.sheet and bool(c.sheet[area].card)
        if printed:
            label = f"{label} — {t('wowboard.ui.covers', lang, name=printed)}"
        found.append(Ranked(Choice(label, area), (2 if printed else 1 if taken else 0,)))
    return rank(found, current)


def resolve_area(view: State, seat: int | None, char: str, card: str, typed: str, lang: str = "en") -> str:
    """The area typed, by id or by what it takes in either language; the engine explains a refusal."""
    areas = list(dict.fromkeys(a for _c, k, a in equip_pairs(view, seat, char) if k == card))
    if not areas or typed.strip() in areas:
        return typed.strip()
    names = [Name(a, area_label(view, char, a, lang),
                  (area_label(view, char, a, "en"), area_label(view, char, a, "it"))) for a in areas]
    _tier, found = find(typed, names)
    if len(found) == 1:
        return found[0].value
    known = ", ".join(n.label for n in (found or names))
    raise TavoloError("wowboard.ui.unknown_area", name=echo(typed), known=known)


def equipped_choices(view: State, seat: int | None, char: str | None, current: str,
                     lang: str = "en") -> list[Choice]:
    found = []
    for c in view.characters.values():
        if c.seat != seat or (char and c.id != char):
            continue
        for slot in c.sheet.values():
            found += [(text.name(view, card, lang), card) for card in ([slot.card] if slot.card else []) + slot.addons]
    return _pick(found, current)


# ---------------------------------------------------------------------------- combat and questions
def answer_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    return _pick([(text.option_label(view, a.value, lang), a.value) for a in legal(view, seat)
                  if isinstance(a, A.Choose)], current)


def resolve_answer(view: State, seat: int | None, typed: str, lang: str = "en") -> str:
    options = [a.value for a in legal(view, seat) if isinstance(a, A.Choose)]
    if not options:
        return typed.strip()
    if typed.strip() in options:
        return typed.strip()
    names = [Name(o, text.option_label(view, o, lang), (o, *text.aliases(view, o), text.option_label(view, o, "en"),
                                                          text.option_label(view, o, "it"))) for o in options]
    _tier, found = find(typed, names)  # an answer by what the buttons say: "Mend", "accetta"
    if len(found) == 1:
        return found[0].value
    known = ", ".join(n.label for n in (found or names))
    raise TavoloError("wowboard.ui.unknown_option", name=echo(typed), known=known)


def order_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    return _pick([(" → ".join(text.char_name(view, c, lang) if c in view.characters else c
                              for c in a.order), ",".join(a.order))
                  for a in legal(view, seat) if isinstance(a, A.SetOrder)], current)


def resolve_order(view: State, typed: str, lang: str = "en") -> list[str]:
    """The characters named, then the rest in their current order; in PvP only the ordering faction's own
    (pvp-combat.2: each faction orders its characters)."""
    combat = view.combat
    decision = ENGINE.decision(view)
    if combat is None or decision is None or decision.kind != "attack_order":
        # combat-round.1: the order is chosen as a round starts; otherwise say so, not "no such character"
        raise TavoloError("wowboard.ui.no_order")
    alive = [c for c in combat.participants if c not in combat.fallen]
    faction = decision.params.get("faction")
    if faction:
        alive = [c for c in alive if view.characters[c].faction == faction]
    out = []
    for part in typed.replace("→", ",").replace(">", ",").split(","):
        if part.strip():
            out.append(resolve(view, alive, part, "character", lang))
    rest = [c for c in alive if c not in out]
    return out + rest


def parse_dice(typed: str | None, count: int) -> list[int]:
    """"1 3 4" or "1,3" (as the picture numbers them, from 1) → engine indices from 0."""
    out = []
    for part in (typed or "").replace(",", " ").split():
        if not part.isdecimal() or not 1 <= int(part) <= count:
            raise TavoloError("wowboard.ui.bad_die", value=part[:8], n=count)
        out.append(int(part) - 1)
    return sorted(set(out))


def parse_split(view: State, seat: int | None, typed: str, lang: str = "en") -> dict[str, int]:
    """"warden 2, arcanist 1" → {warden: 2, arcanist: 1}; a bare name takes every wound."""
    combat = view.combat
    alive = [c for c in combat.participants if c not in combat.fallen] if combat else []
    total = combat.pending_wounds if combat else 0
    split: dict[str, int] = {}
    for part in typed.split(","):
        words = part.split()
        if not words:
            continue
        n = total if len(words) == 1 else None
        if len(words) > 1 and words[-1].isdecimal():
            n = int(words[-1])
            words = words[:-1]
        if n is None:
            raise TavoloError("wowboard.ui.bad_split", value=part.strip()[:40])
        split[resolve(view, alive, " ".join(words), "character", lang)] = n
    return split


def split_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    def who(c: str) -> str:
        return text.char_name(view, c, lang)

    return _pick([(", ".join(f"{who(c)} {n}" for c, n in a.split.items() if n),
                   ", ".join(f"{c} {n}" for c, n in a.split.items() if n))
                  for a in legal(view, seat) if isinstance(a, A.AssignWounds)], current)


def instant_label(view: State, char: str, entry: str, lang: str = "en") -> str:
    """An instant as the roll offers it: "Spark (1 energy)", "Mend → Warden (1 energy)"."""
    from engines.wowboard.rules_sheet import equipped_effects

    source, _, target = entry.partition(">")
    label = text.source_name(view, char, source, lang)
    if target:
        label += " → " + text.name(view, view.characters[target].class_id if target in view.characters else target,
                                   lang)
    energy = next((a.energy for a in equipped_effects(view, char) if a.source == source), 0)
    return f"{label} ({t('wowboard.ui.energy_cost', lang, n=energy)})"


def roll_instants(view: State, seat: int | None) -> tuple[str | None, list[str]]:
    """The attacker whose pool is rolled and the instants the engine offers with the roll (power-cards.3:
    printed ones such as Spark included, a friend heal once per participant it may reach)."""
    combat = view.combat
    if combat is None or combat.attack is None or seat is None:
        return None, []
    entries = [i for a in legal(view, seat) if isinstance(a, A.Roll) for i in a.instants]
    return combat.attack.character, list(dict.fromkeys(entries))


def instant_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    """Instant powers the attacker can pay for now (dice-pool.1: paid when the pool is rolled), printed
    sheet powers included (equipping.1)."""
    char, entries = roll_instants(view, seat)
    if char is None:
        return []
    return _pick([(instant_label(view, char, e, lang), e) for e in entries], current)


def resolve_instants(view: State, seat: int | None, typed: str | None, lang: str = "en") -> list[str]:
    """``instants:spark, mend warden`` → the engine's ids, by the shared resolver (either language, a word,
    a close typo). A name that fits no instant on offer is an error listing those that would work, never
    dropped (issue 27.1)."""
    from engines.wowboard.rules_fight import in_play_instants

    char, entries = roll_instants(view, seat)
    if char is None or not (typed or "").strip():
        return []
    offered = entries
    idle = [i for i in in_play_instants(view, char) if not any(e.partition(">")[0] == i for e in entries)]

    def names(entry: str) -> Name:
        source, _, target = entry.partition(">")
        spelled = [text.source_name(view, char, source, lng) + (f" {tname}" if target else "")
                   for lng in ("en", "it")
                   for tname in [text.char_name(view, target, lng) if target else ""]]
        return Name(entry, instant_label(view, char, entry, lang), (entry, source, *spelled))

    out: list[str] = []
    for part in typed.split(","):
        if not part.strip():
            continue
        if part.strip() in offered:
            out.append(part.strip())
            continue
        _tier, found = find(part.replace("→", " "), [names(e) for e in offered])
        sources = {f.value.partition(">")[0] for f in found}
        if len(found) == 1 or (len(sources) == 1 and found and ">" in found[0].value):
            out.append(found[0].value if len(found) == 1 else found[0].value.partition(">")[0])
            continue
        _tier, resting = find(part, [names(i) for i in idle])
        if len(resting) == 1:  # in play but not usable now (power-cards.3, card-limits.4): say why
            raise TavoloError("wowboard.ui.instant_not_now", name=text.source_name(view, char, resting[0].value, lang))
        known = ", ".join(instant_label(view, char, e, lang) for e in offered) or t("wowboard.ui.none", lang)
        raise TavoloError("wowboard.ui.unknown_instant", name=part.strip()[:40], known=known)
    return out
