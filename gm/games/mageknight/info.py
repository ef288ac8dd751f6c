"""What a Mage Knight thing does, in words: cards, units, enemy tokens, abilities, elements.

Players choose cards, units and targets by what they do (TABLE_UX "information on demand"),
so every choice says it: ``*_text`` give the short forms autocomplete labels and panels
use ("Attack 2 or Block 2 · powered (red mana): Attack 4"), ``info_reply`` the full card
for ``/mk info``. Everything is built from the content's structured data in the reader's
language; content names too, when the pack gives an Italian one (``name_it``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from common.i18n import SUPPORTED, Phrase, t
from engines.mageknight.content import (
    ABILITIES,
    ELEMENTS,
    Card,
    Effect,
    EnemyToken,
    Pack,
    UnitAbility,
    UnitCard,
    pack_for,
)
from engines.mageknight.preview import enemy_numbers
from engines.mageknight.state import CombatEnemy, State
from gm.games.choices import SEPARATOR, Choice, Ranked, fit, rank
from gm.games.mageknight.rules_cite import section_title
from gm.games.names import Name, NameKeys, find, resolve
from gm.reply import Field, Reply

LANGS = SUPPORTED  # names are accepted in every language we ship
KEYS = NameKeys(unknown="mk.ui.unknown_name", ambiguous="mk.ui.ambiguous_name")
ABILITY_SECTION = {"fortified": "fortified", "swift": "enemy-abilities", "brutal": "enemy-abilities",
                   "poison": "enemy-abilities", "paralyze": "enemy-abilities", "summon": "summon"}


# ---------------------------------------------------------------------------- words
def effect_text(effect: Effect, lang: str) -> str:
    """"Ranged Fire Attack 3", "Block 4 (counts double against swift)", "1 mana token (red, blue)"."""
    if effect.kind == "gain_mana":
        colours = t("mk.info.or", lang).join(t(f"mk.face.{c}", lang) for c in effect.colours)
        return t("mk.info.gain_mana", lang, amount=effect.amount, colours=colours)
    text = f"{t(f'mk.effect_kind.{effect.combat_kind}', lang)} {effect.amount}"
    if effect.swift_double:
        text += " " + t("mk.info.swift_double", lang)
    return text


def effects_text(effects: Iterable[Effect], lang: str) -> str:
    """Alternatives of one side or ability: "Attack 2 or Block 2"."""
    return t("mk.info.or", lang).join(effect_text(e, lang) for e in effects)


def card_text(card: Card, lang: str) -> str:
    """Both sides of a card: "Attack 2 or Block 2 · powered (red mana): Attack 4"."""
    basic = effects_text(card.basic, lang)
    if card.cost_discard:
        basic = t("mk.info.with_discard", lang, effects=basic)
    powered = t("mk.info.powered", lang, colour=t(f"mk.face.{card.colour}", lang),
                effects=effects_text(card.powered, lang))
    return f"{basic}{SEPARATOR}{powered}"


def unit_ability_text(ability: UnitAbility, lang: str) -> str:
    text = effects_text(ability.effects, lang)
    if ability.mana:
        text = t("mk.info.unit_mana", lang, effects=text, colour=t(f"mk.face.{ability.mana}", lang))
    return text


def resist_words(resistances: Iterable[str], lang: str) -> str:
    """"fire and ice": the elements alone, for a field already titled Resistances."""
    return t("mk.info.and", lang).join(t(f"mk.element.{r}", lang) for r in resistances)


def resist_text(resistances: Iterable[str], lang: str) -> str:
    """"resists fire and ice", or "" when there is nothing to resist."""
    found = resist_words(resistances, lang)
    return t("mk.info.resists", lang, elements=found) if found else ""


def unit_text(card: UnitCard, lang: str) -> str:
    """"armor 4, resists physical · Block 3 | Attack 3": each ability is one activation."""
    head = [t("mk.info.armor", lang, armor=card.armor)]
    resist = resist_text(card.resistances, lang)
    if resist:
        head.append(resist)
    abilities = " | ".join(unit_ability_text(a, lang) for a in card.abilities)
    return SEPARATOR.join([", ".join(head), *([abilities] if abilities else [])])


def ability_name(ability: str, lang: str) -> str:
    return t(f"mk.info.ability_name.{ability}", lang)


def attack_text(token: EnemyToken, lang: str, attack: int | None = None) -> str:
    """"Fire Attack 5"; a summoner attacks through the token it draws."""
    if token.has("summon"):
        return t("mk.info.summons", lang, colour=t(f"mk.colour.{token.summons or 'brown'}", lang))
    kind = "attack_melee_" + token.element
    return f"{t(f'mk.effect_kind.{kind}', lang)} {token.attack if attack is None else attack}"


def enemy_text(token: EnemyToken, lang: str) -> str:
    """"armor 5 · Attack 4, swift · resists fire · 4 Fame": a token as autocomplete shows it."""
    attack = attack_text(token, lang)
    abilities = [ability_name(a, lang) for a in token.abilities if a != "summon"]
    if abilities:
        attack += ", " + ", ".join(abilities)
    parts = [t("mk.info.armor", lang, armor=token.armor), attack]
    resist = resist_text(token.resistances, lang)
    if resist:
        parts.append(resist)
    parts.append(t("mk.info.fame", lang, fame=token.fame))
    return SEPARATOR.join(parts)


def enemy_now_text(state: State, enemy: CombatEnemy, lang: str) -> str:
    """An enemy of this combat in the current phase: what beats it, what blocks it, what it deals."""
    numbers = enemy_numbers(state, enemy.uid)
    parts = [t("mk.info.armor", lang, armor=numbers.armor)]
    if not enemy.has("summon") or enemy.summoned_by is not None:
        parts.append(t("mk.info.block_need", lang, need=numbers.block_need))
        parts.append(t("mk.info.damage", lang, damage=numbers.damage))
    resist = resist_text(numbers.resistances, lang)
    if resist:
        parts.append(resist)
    if state.phase in ("setup", "ranged_siege"):  # fortification matters in that phase only (A1-A4)
        if numbers.double_fortified:
            parts.append(t("mk.info.double_fortified", lang))
        elif numbers.fortified:
            parts.append(ability_name("fortified", lang))
    return SEPARATOR.join(parts)


# ---------------------------------------------------------------------------- /mk info
@dataclass(frozen=True)
class Entry:
    """One thing ``/mk info`` can show: its kind, the item, and every name people use for it."""

    kind: str  # enemy, combat_enemy, card, unit, ability, element
    key: str
    item: Any

    def title(self, lang: str) -> str:
        if self.kind == "ability":
            return ability_name(self.key, lang)
        if self.kind == "element":
            return t(f"mk.element.{self.key}", lang).capitalize()
        local = getattr(self.item, "local_name", None)
        return str(local(lang)) if callable(local) else str(getattr(self.item, "name", self.key))

    def names(self) -> tuple[str, ...]:
        """Its name in every language (and its id): a player types either."""
        titles = tuple(dict.fromkeys(self.title(lang) for lang in LANGS))
        if self.kind in ("ability", "element"):
            return (self.key, *titles)
        ident = getattr(self.item, "id", self.key)
        return (*titles, ident) if ident != "hidden" else titles


def entries(content: dict[str, Any] | None, state: State | None = None) -> list[Entry]:
    """This combat's enemies and units first (with their numbers now), then the pack, then rules words."""
    pack: Pack = pack_for(content)
    found: list[Entry] = []
    if state is not None:
        found += [Entry("combat_enemy", e.uid, e) for e in state.enemies if e.token.id != "hidden"]
        found += [Entry("unit", u.uid, u.card) for u in state.units]
        found += [Entry("card", c.id, c) for c in state.cards.values()]
    found += [Entry("enemy", e.id, e) for e in pack.enemies]
    found += [Entry("card", c.id, c) for c in pack.cards]
    found += [Entry("unit", u.id, u) for u in pack.units]
    found += [Entry("ability", a, a) for a in ABILITIES]
    found += [Entry("element", e, e) for e in ELEMENTS]
    return found


def _name_list(found: list[Entry], lang: str) -> list[Name]:
    names: list[Name] = []
    seen: set[str] = set()
    for index, entry in enumerate(found):
        title = entry.title(lang)
        if (entry.kind, title) in seen and entry.kind != "combat_enemy":
            continue  # the same card in the combat and in the pack: one entry
        seen.add((entry.kind, title))  # type: ignore[arg-type]
        label = f"{title} ({t(f'mk.info.kind.{entry.kind}', lang)})"
        names.append(Name(str(index), label, entry.names()))
    return names


def _summary(entry: Entry, lang: str, state: State | None) -> str:
    item = entry.item
    if entry.kind == "combat_enemy" and state is not None:
        return enemy_now_text(state, item, lang)
    if entry.kind == "enemy":
        return enemy_text(item, lang)
    if entry.kind == "card":
        return card_text(item, lang)
    if entry.kind == "unit":
        return unit_text(item, lang)
    if entry.kind == "ability":
        return t(f"mk.info.ability_text.{entry.key}", lang)
    return t(f"mk.info.element_text.{entry.key}", lang)


def info_choices(current: str, lang: str, content: dict[str, Any] | None, state: State | None = None) -> list[Choice]:
    """``/mk info`` autocomplete: this combat's things first, each with what it does."""
    found = entries(content, state)
    ranked = []
    for name in _name_list(found, lang):
        entry = found[int(name.value)]
        label = fit([name.label, *_summary(entry, lang, state).split(SEPARATOR)])  # long: drop the last facts
        value = f"{entry.kind}:{entry.key}"
        ranked.append(Ranked(Choice(label, value[:100]), (), name.keys))
    return rank(ranked, current)


def _lookup(text: str, found: list[Entry], lang: str) -> Entry:
    kind, _, key = text.strip().partition(":")
    exact = [e for e in found if e.kind == kind and e.key == key]
    if exact:  # a value from autocomplete
        return exact[0]
    names = _name_list(found, lang)
    _tier, matches = find(text, names)
    if len(matches) > 1:  # the same name in the combat and in the pack: the combat's wins
        matches = [m for m in matches if found[int(m.value)].kind == "combat_enemy"] or matches
        if len(matches) > 1 and len({found[int(m.value)].title("en") for m in matches}) == 1:
            matches = matches[:1]
    if len(matches) == 1:
        return found[int(matches[0].value)]
    return found[int(resolve(text, names, what=Phrase("mk.ui.what.info"), keys=KEYS))]


def info_reply(text: str, lang: str, content: dict[str, Any] | None, state: State | None = None) -> Reply:
    """The full card of an enemy, card, unit, ability or element, only for the asker."""
    found = entries(content, state)
    entry = _lookup(text, found, lang)
    title = f"{entry.title(lang)} — {t(f'mk.info.kind.{entry.kind}', lang)}"
    return Reply(title=title, fields=_fields(entry, lang, state), ephemeral=True)


def _field(name_key: str, value: str, lang: str) -> list[Field]:
    return [Field(t(name_key, lang), value)] if value else []


def _fields(entry: Entry, lang: str, state: State | None) -> list[Field]:
    item = entry.item
    if entry.kind in ("enemy", "combat_enemy"):
        token = item.token if isinstance(item, CombatEnemy) else item
        fields = token_fields(token, lang)
        if isinstance(item, CombatEnemy) and state is not None:
            fields.insert(0, Field(t("mk.info.field.now", lang), enemy_now_text(state, item, lang)))
        return fields
    if entry.kind == "card":
        card: Card = item
        fields = [Field(t("mk.info.field.colour", lang), t(f"mk.face.{card.colour}", lang)),
                  Field(t("mk.info.field.basic", lang), effects_text(card.basic, lang)),
                  Field(t("mk.info.field.powered", lang),  # titled Powered already: not "Powered: powered …"
                        t("mk.info.powered_field", lang, colour=t(f"mk.face.{card.colour}", lang),
                          effects=effects_text(card.powered, lang)))]
        if card.cost_discard:
            fields.append(Field(t("mk.info.field.cost", lang), t("mk.info.discard_cost", lang)))
        fields.append(Field(t("mk.info.field.sideways", lang), t("mk.info.sideways_text", lang)))
        return fields
    if entry.kind == "unit":
        unit: UnitCard = item
        fields = [Field(t("mk.info.field.level", lang), str(unit.level)),
                  Field(t("mk.info.field.armor", lang), str(unit.armor))]
        fields += _field("mk.info.field.resistances", resist_words(unit.resistances, lang), lang)
        fields += [Field(t("mk.info.field.ability", lang, number=i), unit_ability_text(a, lang))
                   for i, a in enumerate(unit.abilities, start=1)]
        fields.append(Field(t("mk.info.field.rule", lang), t("mk.info.unit_rule", lang)))
        return fields
    if entry.kind == "ability":
        return [Field(t("mk.info.field.effect", lang), t(f"mk.info.ability_text.{entry.key}", lang)),
                _section_field(ABILITY_SECTION[entry.key], lang)]
    return [Field(t("mk.info.field.effect", lang), t(f"mk.info.element_text.{entry.key}", lang)),
            _section_field("enemy-resistances", lang)]


def _section_field(section: str, lang: str) -> Field:
    """Where to read more: the digest section's title, and the command that shows it."""
    return Field(t("mk.info.field.section", lang), t("mk.info.rules_section", lang, section=section,
                                                     title=section_title(section, lang) or section))


def token_fields(token: EnemyToken, lang: str) -> list[Field]:
    fields = [Field(t("mk.info.field.colour", lang), t(f"mk.colour.{token.colour}", lang)),
              Field(t("mk.info.field.armor", lang), str(token.armor)),
              Field(t("mk.info.field.attack", lang), attack_text(token, lang))]
    fields += [Field(ability_name(a, lang), t(f"mk.info.ability_text.{a}", lang)) for a in token.abilities]
    fields += _field("mk.info.field.resistances", resist_words(token.resistances, lang), lang)
    fields.append(Field(t("mk.info.field.fame", lang), str(token.fame)))
    if token.reputation:
        fields.append(Field(t("mk.info.field.reputation", lang), f"{token.reputation:+d}"))
    return fields


__all__ = ["Entry", "ability_name", "attack_text", "card_text", "effect_text", "effects_text", "enemy_now_text",
           "enemy_text", "info_choices", "info_reply", "resist_text", "resist_words", "unit_ability_text",
           "unit_text"]
