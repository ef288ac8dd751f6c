"""What a Krosmaster thing does, in words: spells, rewards, figurines, powers and arenas.

Players choose spells and rewards by what they do, so every choice shows it: ``*_short``
gives the one-line summary autocomplete labels use (cost, damage, range, area, limits),
``info_reply`` the full card for ``/km info``. Everything is built from the content's
structured data, in the reader's language; a card's own text is shown where the data
cannot say it (custom powers, pack notes). Content names are the pack's, in the reader's language
when the pack gives one (``name_it``, issue 26.10), and every spelling is accepted in either.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common.i18n import SUPPORTED, Phrase, has, t
from engines.krosmaster.content import (
    PUNCH,
    REWARD_COST,
    SIGNED_EFFECTS,
    Arena,
    CustomPower,
    Effect,
    EffectKind,
    Figurine,
    Keyword,
    Limit,
    NameColour,
    Pack,
    RangeType,
    Reward,
    Spell,
    SpellKind,
    SummonTemplate,
    builtin_pack,
    name_in,
    pack_for,
    push_cube_spell,
    text_in,
)
from engines.krosmaster.state import State
from gm.games.choices import SEPARATOR, Choice, Ranked, clip, fit, rank
from gm.games.names import Name, NameKeys, find, resolve
from gm.reply import Field, Reply

LANGS = SUPPORTED  # names are accepted in every language we ship
KEYS = NameKeys(unknown="km.ui.unknown_name", ambiguous="km.ui.ambiguous_name")
# 307: the rule of each keyword power, shown with its description.
_POWER_ORDER = ("critical", "armor", "lock", "dodge", "resist_water", "resist_air", "resist_earth", "resist_fire",
                "resist_all", "immunized", "fragility", "toughness", "blindness", "small", "blocking",
                "counterattack", "healing", "insensitive", "inner_fire", "freezing", "snowshoe", "unshoe",
                "accelfreeze", "kongelation", "blame", "revenge", "luck", "agility", "strength", "intelligence",
                "wisdom", "prospecting", "creator", "collector", "loot")
# Effects whose words already say they act on the caster ("caster gains 3 AP", "+1 damage to its spells").
_SELF_EFFECTS = frozenset({EffectKind.GAIN_AP, EffectKind.GAIN_MP, EffectKind.TURN_DAMAGE, EffectKind.TURN_RANGE,
                           EffectKind.REPLACE})
POWER_RULE: dict[Keyword, str] = {Keyword(k): f"307.{i}" for i, k in enumerate(_POWER_ORDER, start=1)}
MAX_SAME_NAME = 4  # /km info shows at most this many cards that share one name
BUILTIN_SPELLS = ("punch", "push_cube")  # rule spells with a name in each language (205.3, 313.6a)


# ---------------------------------------------------------------------------- words
def spell_name(spell: Spell, lang: str) -> str:
    """Punch and Push-Cube belong to the rules, so they have a name in each language; pack spells
    have the pack's name, Italian when the pack gives one."""
    if spell.id in BUILTIN_SPELLS:
        return t(f"km.info.spell_name.{spell.id}", lang)
    return name_in(spell, lang)


def names_of(item: Any) -> tuple[str, ...]:
    """Every name of a pack thing a player may type, in every language we ship (issue 26.10)."""
    return tuple(dict.fromkeys(n for n in (item.name, *(getattr(item, f"name_{lang}", "") for lang in LANGS)) if n))


def power_name(power: Keyword | str, lang: str, x: int | None = None) -> str:
    name = t(f"km.info.power.{power}", lang)
    return f"{name} {x}" if x else name


def class_name(name: str, lang: str) -> str:
    """A figurine's class as the reader reads it ("warrior" → "Guerriero"): the classes of the game are
    words of its rules (Blame counts vigilantes, Revenge villains), so they live in the locale; a pack's
    own class with no entry keeps its own spelling."""
    key = f"km.info.class.{name.strip().casefold()}"
    return t(key, lang) if has(key, lang) else name


def _element(value: str, lang: str) -> str:
    return t(f"km.element.{value}", lang)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def cost_text(spell: Spell, lang: str) -> str:
    parts = []
    if spell.cost.ap:
        parts.append(t("km.info.ap", lang, ap=spell.cost.ap))
    if spell.cost.mp:
        parts.append(t("km.info.mp", lang, mp=spell.cost.mp))
    if spell.cost.wounds:
        parts.append(t("km.info.wound_cost", lang, wounds=spell.cost.wounds))
    return " + ".join(parts) or t("km.info.free", lang)


def range_text(spell: Spell, lang: str, full: bool = False) -> str:
    """"range 2-5 (modifiable)" for a label; ``full``: the field of /km info, with line of sight."""
    kind = spell.range.type
    group = "range_field" if full else "range"
    text = t(f"km.info.{group}.{kind.value}", lang, min=spell.range.min, max=spell.range.max)
    if spell.range.modifiable and kind not in (RangeType.MELEE, RangeType.SELF):
        text = t("km.info.range_modifiable", lang, range=text)
    return text


def amount_text(spell: Spell, lang: str) -> str:
    """What the spell itself does before its additional effects: damage, heal, summon."""
    if spell.kind is SpellKind.ATTACK and spell.element.value == "neutral":
        return t("km.info.damage_neutral", lang, amount=spell.amount)
    if spell.kind is SpellKind.ATTACK:
        return t("km.info.damage", lang, amount=spell.amount, element=_element(spell.element.value, lang))
    if spell.kind is SpellKind.HEAL:
        return t("km.info.heal", lang, amount=spell.amount)
    if spell.kind is SpellKind.SUMMON:
        return t("km.info.summons", lang, summon=summon_title(spell.summon or "?", lang), max=spell.summon_max)
    return ""


def figurine_title(figurine_id: str, forms: Mapping[str, str] | None = None, lang: str = "en") -> str:
    """The name of the card a piece becomes (605.19), from the table's forms or the built-in pack;
    a name the pack cannot give is shown as words, never as an id."""
    if forms and figurine_id in forms:
        return forms[figurine_id]
    found = next((name_in(f, lang) for f in builtin_pack().figurines if f.id == figurine_id), None)
    return found or figurine_id.replace("_", " ").title()


def summon_title(summon_id: str, lang: str) -> str:
    """A summon template's name (315.7) from the built-in pack, or its id in words."""
    found = next((name_in(s, lang) for s in builtin_pack().summons if s.id == summon_id), None)
    return found or summon_id.replace("_", " ").title()


def effect_text(effect: Effect, lang: str, forms: Mapping[str, str] | None = None) -> str:
    """One additional effect in words; ``forms`` names the figurines a replace effect may turn into."""
    value = _signed(effect.value) if effect.kind in SIGNED_EFFECTS else effect.value
    element = _element(effect.element.value, lang) if effect.element else ""
    if effect.kind is EffectKind.TURN_DAMAGE and (effect.this_spell or effect.element):
        key = "km.info.turn_damage_spell" if effect.this_spell else "km.info.turn_damage_element"
        text = t(key, lang, value=value, element=element)
    else:
        text = t(f"km.info.effect.{effect.kind.value}", lang, value=value, element=element,
                 figurine=figurine_title(effect.figurine, forms, lang) if effect.figurine else "")
    if effect.target == "caster" and effect.kind not in _SELF_EFFECTS:
        text = t("km.info.on_caster", lang, effect=text)
    if effect.requires is not None:
        text = t("km.info.requires", lang, effect=text, x=effect.requires.x,
                 condition=t(f"km.condition.{effect.requires.condition}", lang))
    return text


def area_text(spell: Spell, lang: str) -> str:
    if spell.area.value == "none":
        return ""
    return t(f"km.info.area.{spell.area.value}", lang)


def limit_text(spell: Spell, lang: str) -> str:
    return "" if spell.limit is Limit.UNLIMITED else t(f"km.info.limit.{spell.limit.value}", lang)


def spell_parts(spell: Spell, lang: str) -> tuple[list[str], list[int]]:
    """The parts of a spell's summary in reading order, and how important each is: a short label
    drops additional effects first, then the area, and keeps cost, damage, range and limit."""
    effects = [effect_text(e, lang) for e in spell.effects]
    parts = [cost_text(spell, lang), amount_text(spell, lang), *effects, range_text(spell, lang),
             area_text(spell, lang), limit_text(spell, lang)]
    first = 8 if not parts[1] else 3  # a special spell is its first effect (Blood Price: +3 AP)
    importance = [9, 8, *(first - min(i, 2) if i == 0 else 3 - min(i, 2) for i in range(len(effects))), 7, 5, 6]
    return parts, importance


def spell_short(spell: Spell, lang: str, limit: int = 100) -> str:
    parts, importance = spell_parts(spell, lang)
    return fit(parts, limit, importance=importance)


def reward_parts(reward: Reward, lang: str) -> list[str]:
    parts = [t("km.info.reward_rank", lang, rank=t(f"km.info.rank.{reward.rank.value}", lang),
               price=REWARD_COST[reward.rank]),
             t(f"km.info.reward_type.{reward.type.value}", lang,
               slot=t(f"km.info.slot.{reward.slot.value}", lang) if reward.slot else "")]
    for stat in ("ap", "mp"):
        if getattr(reward, stat):
            parts.append(t(f"km.info.reward.{stat}", lang, value=getattr(reward, stat)))
    if reward.heal:
        parts.append(t("km.info.reward.heal", lang, value=reward.heal))
    if reward.damage and getattr(reward, "element", None):
        parts.append(t("km.info.reward.damage_element", lang, value=reward.damage,
                       element=_element(reward.element.value, lang)))
    elif reward.damage:
        parts.append(t("km.info.reward.damage", lang, value=reward.damage))
    for field in ("range", "heal_bonus"):  # 306.3c, 603.2b
        if getattr(reward, field, 0):
            parts.append(t(f"km.info.reward.{field}", lang, value=getattr(reward, field)))
    parts += [power_name(p, lang) for p in reward.powers]
    if len(parts) == 2 and reward.text:  # nothing structured: the token's own words
        parts.append(text_in(reward, lang))
    return parts


def reward_short(reward: Reward, lang: str, limit: int = 100) -> str:
    return fit(reward_parts(reward, lang), limit)


def figurine_powers(fig: Figurine, lang: str) -> list[str]:
    conditional = {p for c in fig.conditional_powers for p in c.powers}
    names = [power_name(p, lang, fig.power_x.get(p)) for p in fig.powers
             if p not in conditional and p not in (Keyword.BLAME, Keyword.REVENGE)]
    names += [t("km.info.conditional", lang, condition=power_name(c.condition, lang), x=c.x,
                powers=", ".join(power_name(p, lang) for p in c.powers)) for c in fig.conditional_powers]
    names += [name_in(c, lang) for c in fig.custom_powers]
    return names


def figurine_short(fig: Figurine | SummonTemplate, lang: str, limit: int = 100) -> str:
    if isinstance(fig, SummonTemplate):
        parts = [t(f"km.info.summon_kind.{fig.kind.value}", lang),
                 t("km.info.stats", lang, hp=fig.hp, ap=fig.ap, mp=fig.mp)]
        return fit(parts + [power_name(p, lang) for p in fig.powers], limit)
    parts = [t("km.info.level", lang, level=fig.level), t("km.info.stats", lang, hp=fig.hp, ap=fig.ap, mp=fig.mp),
             t("km.info.initiative", lang, initiative=fig.initiative)]
    return fit(parts + figurine_powers(fig, lang), limit)


def arena_short(arena: Arena, lang: str, limit: int = 100) -> str:
    parts = [f"{arena.width}×{arena.height}",
             t("km.info.scenery", lang, trees=len(arena.trees), bushes=len(arena.bushes), crates=len(arena.crates)),
             t("km.info.kamas", lang, kamas=sum(arena.kamas.values()), squares=len(arena.kamas)),
             t("km.info.demon_squares", lang, count=len(arena.demon_squares))]
    if arena.ice_cubes:
        parts.append(t("km.info.ice", lang, count=len(arena.ice_cubes)))
    return fit(parts, limit)


# ---------------------------------------------------------------------------- the catalogue
@dataclass(frozen=True)
class Entry:
    """One thing ``/km info`` can show: ``key`` (the autocomplete value) and what it is."""

    key: str
    kind: str  # spell, reward, figurine, summon, power, arena
    name: str  # as the pack (or, for rule terms, the locale) names it; see ``title``
    item: Any
    owners: tuple[Any, ...] = ()  # spells: the figurines (or summons) that have it

    def title(self, lang: str) -> str:
        if self.kind == "power" and isinstance(self.item, Keyword):
            return power_name(self.item, lang)
        if self.kind == "spell":
            return spell_name(self.item, lang)
        return name_in(self.item, lang)

    def aliases(self) -> tuple[str, ...]:
        """Every spelling a player may type: both languages, the id, the version."""
        words = [self.key.split(":", 1)[1], self.name]
        if not isinstance(self.item, Keyword):
            words += names_of(self.item)
        if isinstance(self.item, Keyword):
            words += [power_name(self.item, lang) for lang in LANGS] + [self.item.value]
        elif self.kind == "spell" and self.item.id in BUILTIN_SPELLS:
            words += [spell_name(self.item, lang) for lang in LANGS]
        elif isinstance(self.item, Figurine) and self.item.version:
            words.append(f"{self.item.name} {self.item.version}")
        return tuple(dict.fromkeys(words))

    def short(self, lang: str, limit: int = 100) -> str:
        item = self.item
        if self.kind == "spell":
            return spell_short(item, lang, limit)
        if self.kind == "reward":
            return reward_short(item, lang, limit)
        if self.kind in ("figurine", "summon"):
            return figurine_short(item, lang, limit)
        if self.kind == "arena":
            return arena_short(item, lang, limit)
        if isinstance(item, Keyword):
            return t(f"km.info.power_text.{item.value}", lang)
        return text_in(item, lang)


def _pack_key(content: dict[str, Any] | None) -> str:
    if not content:
        return ""
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


_CATALOGUES: dict[str, list[Entry]] = {}
MAX_CATALOGUES = 16  # one per server pack in use; autocomplete asks on every keystroke


def catalogue(content: dict[str, Any] | None) -> list[Entry]:
    """Every entry of the table's content (built-in plus the server's pack), cached per pack."""
    key = _pack_key(content)
    if key not in _CATALOGUES:
        if len(_CATALOGUES) >= MAX_CATALOGUES:
            _CATALOGUES.pop(next(iter(_CATALOGUES)))
        _CATALOGUES[key] = _build(pack_for(content))
    return _CATALOGUES[key]


def _build(pack: Pack) -> list[Entry]:
    entries: list[Entry] = []
    spells: dict[str, list[tuple[Spell, list[Any]]]] = {}
    for fig in pack.figurines:
        entries.append(Entry(f"figurine:{fig.id}", "figurine", fig.name, fig))
        for spell in fig.spells:
            variants = spells.setdefault(spell.id, [])
            same = next((v for v in variants if v[0] == spell), None)
            if same is None:
                variants.append((spell, [fig]))
            elif fig.name not in {f.name for f in same[1]}:
                same[1].append(fig)
        entries += [Entry(f"custom:{fig.id}:{i}", "power", c.name, c) for i, c in enumerate(fig.custom_powers)]
    for template in pack.summons:
        entries.append(Entry(f"summon:{template.id}", "summon", template.name, template))
        for spell in template.spells:
            spells.setdefault(spell.id, []).append((spell, [template]))
    for rule_spell in (PUNCH, push_cube_spell(1)):
        spells[rule_spell.id] = [(rule_spell, [])]
    for spell_id, variants in spells.items():
        for i, (spell, owners) in enumerate(variants):
            key = f"spell:{spell_id}" + (f":{i}" if i else "")
            entries.append(Entry(key, "spell", spell.name, spell, tuple(owners)))
    entries += [Entry(f"reward:{r.id}", "reward", r.name, r) for r in pack.rewards]
    entries += [Entry(f"power:{k.value}", "power", k.value, k) for k in Keyword]
    entries += [Entry(f"arena:{a.id}", "arena", a.name, a) for a in pack.arenas]
    return entries


def _relevance(state: State | None) -> dict[str, int]:
    """Keys the table in play makes most useful: the active piece's spells, then the pieces on
    the board, their spells and powers, then the arena; everything else comes after."""
    if state is None:
        return {}
    ranks: dict[str, int] = {}
    active = state.pieces.get(state.active_piece or "")
    if active is not None:
        for spell in active.figurine.all_spells():
            ranks.setdefault(f"spell:{spell.id}", 0)
    for piece in state.pieces.values():
        kind = "summon" if piece.summon is not None else "figurine"
        ranks.setdefault(f"{kind}:{piece.figurine.id}", 1)
        for spell in piece.figurine.spells:
            ranks.setdefault(f"spell:{spell.id}", 2)
        for power in piece.figurine.powers:
            ranks.setdefault(f"power:{power.value}", 3)
    ranks.setdefault(f"arena:{state.board.arena.id}", 4)
    return ranks


def info_choices(current: str, lang: str, content: dict[str, Any] | None, state: State | None) -> list[Choice]:
    """``/km info`` autocomplete: "Fire Bolt — spell · 3 AP · 2 fire damage · range 2-5…"."""
    ranks = _relevance(state)
    candidates = []
    for entry in catalogue(content):
        head = f"{entry.title(lang)} — {t(f'km.info.kind.{entry.kind}', lang)}"
        room = 100 - len(head) - len(SEPARATOR)
        label = head + SEPARATOR + clip(entry.short(lang, room), room) if room > 10 else clip(head)
        candidates.append(Ranked(Choice(label, entry.key), (ranks.get(entry.key, 9), entry.title(lang).lower()),
                                 entry.aliases()))
    return rank(candidates, current)


def lookup(text: str, content: dict[str, Any] | None, lang: str = "en") -> list[Entry]:
    """The entries ``text`` names: the autocomplete key, or a name in either language, or a prefix.
    Several cards with the very same name (one spell on two figurines) are all returned."""
    entries = catalogue(content)
    by_key = {e.key: e for e in entries}
    if text.strip() in by_key:
        return [by_key[text.strip()]]
    names = [Name(e.key, f"{e.title(lang)} ({t(f'km.info.kind.{e.kind}', lang)})", e.aliases()) for e in entries]
    _tier, found = find(text, names)
    titles = {by_key[n.value].name.lower() for n in found}  # the pack's own name: one per card
    if found and len(titles) == 1:
        return [by_key[n.value] for n in found][:MAX_SAME_NAME]
    resolve(text, names, what=Phrase("km.ui.what.info"), keys=KEYS)  # raises: ambiguous or unknown
    return []


def info_reply(text: str, lang: str, content: dict[str, Any] | None) -> Reply:
    """The full card(s) for ``/km info``, only to the asker."""
    entries = lookup(text, content, lang)
    reply = Reply(title=_title(entries[0], lang), fields=_fields(entries[0], lang), ephemeral=True)
    for entry in entries[1:]:
        reply.fields.append(Field(_title(entry, lang), "\n".join(f"{f.name}: {f.value}" for f in _fields(entry, lang))))
    return reply


def _title(entry: Entry, lang: str) -> str:
    return f"{entry.title(lang)} — {t(f'km.info.kind.{entry.kind}', lang)}"


def _fields(entry: Entry, lang: str) -> list[Field]:
    item = entry.item
    if entry.kind == "spell":
        return spell_fields(item, lang, entry.owners)
    if entry.kind == "reward":
        return reward_fields(item, lang)
    if entry.kind in ("figurine", "summon"):
        return figurine_fields(item, lang)
    if entry.kind == "arena":
        return arena_fields(item, lang)
    if isinstance(item, Keyword):
        return [Field(t("km.info.field.effect", lang), t(f"km.info.power_text.{item.value}", lang)),
                Field(t("km.info.field.rule", lang), POWER_RULE[item])]
    assert isinstance(item, CustomPower)
    fields = [Field(t("km.info.field.text", lang), text_in(item, lang) or "—")]
    if item.fight_start:
        fields.append(Field(t("km.info.field.fight_start", lang), ", ".join(effect_text(e, lang)
                                                                          for e in item.fight_start)))
    return fields


def _field(name_key: str, value: str, lang: str) -> list[Field]:
    return [Field(t(name_key, lang), value)] if value else []


def spell_fields(spell: Spell, lang: str, owners: Iterable[Any] = ()) -> list[Field]:
    kind = t(f"km.info.spell_kind.{spell.kind.value}", lang)
    element = _element(spell.element.value, lang)
    fields = [Field(t("km.info.field.kind", lang), f"{kind} ({element})"),
              Field(t("km.info.field.cost", lang), cost_text(spell, lang)),
              Field(t("km.info.field.range", lang), range_text(spell, lang, full=True))]
    fields += _field("km.info.field.effect", ", ".join(p for p in [amount_text(spell, lang),
                                                                  *(effect_text(e, lang) for e in spell.effects)]
                                                        if p), lang)
    area = area_text(spell, lang)
    if area and spell.area.value in {"hammer", "staff", "shovel", "axe", "needle", "breath"}:
        area = t("km.info.oriented", lang, area=area)
    fields += _field("km.info.field.area", area, lang)
    fields.append(Field(t("km.info.field.limit", lang), limit_text(spell, lang) or t("km.info.limit.unlimited", lang)))
    fields += _field("km.info.field.text", text_in(spell, lang), lang)
    fields += _field("km.info.field.owners", ", ".join(name_in(o, lang) for o in owners), lang)
    return fields


def reward_fields(reward: Reward, lang: str) -> list[Field]:
    rank_name, kind, *effects = reward_parts(reward, lang)
    fields = [Field(t("km.info.field.rank", lang), rank_name), Field(t("km.info.field.kind", lang), kind),
              Field(t("km.info.field.when", lang), t(f"km.info.reward_when.{reward.type.value}", lang))]
    own = text_in(reward, lang)
    fields += _field("km.info.field.effect", ", ".join(e for e in effects if e != own), lang)
    fields += _field("km.info.field.text", own, lang)
    return fields


def figurine_fields(fig: Figurine | SummonTemplate, lang: str) -> list[Field]:
    stats = t("km.info.stats", lang, hp=fig.hp, ap=fig.ap, mp=fig.mp)
    if isinstance(fig, SummonTemplate):
        fields = [Field(t("km.info.field.kind", lang), t(f"km.info.summon_kind.{fig.kind.value}", lang)),
                  Field(t("km.info.field.stats", lang), stats)]
        fields += _field("km.info.field.powers", ", ".join(power_name(p, lang) for p in fig.powers), lang)
    else:
        head = [t("km.info.level", lang, level=fig.level), stats,
                t("km.info.initiative", lang, initiative=fig.initiative)]
        fields = [Field(t("km.info.field.stats", lang), SEPARATOR.join(head)),
                  Field(t("km.info.field.copies", lang), t(f"km.info.colour.{NameColour(fig.colour).value}", lang))]
        fields += _field("km.info.field.classes", ", ".join(class_name(c, lang) for c in fig.classes), lang)
        fields += _field("km.info.field.powers", ", ".join(figurine_powers(fig, lang)), lang)
        fields += [Field(name_in(c, lang), text_in(c, lang) or "—") for c in fig.custom_powers]
    spells = fig.all_spells() if isinstance(fig, Figurine) else fig.spells
    fields += [Field(spell_name(s, lang), spell_short(s, lang, 200)) for s in spells]
    return fields


def arena_fields(arena: Arena, lang: str) -> list[Field]:
    none = t("km.ui.rewards_none", lang)
    kamas = ", ".join(f"{square} ({count})" for square, count in sorted(arena.kamas.items())) or none
    sides = ", ".join(t(f"km.side.{side}", lang) for side in sorted(arena.starting))
    fields = [Field(t("km.info.field.size", lang), f"{arena.width}×{arena.height}"),
              Field(t("km.info.field.scenery", lang), t("km.info.scenery", lang, trees=len(arena.trees),
                                                       bushes=len(arena.bushes), crates=len(arena.crates))),
              Field(t("km.info.field.kamas", lang), kamas),
              Field(t("km.info.field.demon_squares", lang), ", ".join(arena.demon_squares) or none),
              Field(t("km.info.field.sides", lang), sides)]
    if arena.ice_cubes:
        fields.append(Field(t("km.info.field.ice", lang),
                            t("km.info.ice_detail", lang, squares=", ".join(arena.ice_cubes),
                              ap=arena.push_cube_ap)))
    return fields


# ---------------------------------------------------------------------------- why a roll came out so
def reason_text(modifier: dict[str, Any], name: str, lang: str) -> str:
    """One reduction of a damage total ("CLO is immune to elemental damage, 307.10a")."""
    reason, rule = str(modifier.get("reason", "")), str(modifier.get("rule", ""))
    if reason in ("armor", "immunized", "no_negative_damage", "hp_cap"):
        text = t(f"km.info.reason.{reason}", lang, name=name)
    elif reason in {k.value for k in Keyword}:
        text = t("km.info.reason.power", lang, name=name, power=power_name(reason, lang))
    else:
        text = t("km.info.reason.other", lang, amount=abs(int(str(modifier.get("amount", 0)))))
    return f"{text}, {rule}" if rule else text


def damage_text(params: dict[str, Any], lang: str) -> str | None:
    """A damage event that was reduced, with why (TABLE_UX: "0 air damage" needs "(Cloud Sage is
    immune to elemental damage, 307.10a)"); None when nothing reduced it, so the plain sentence stands."""
    cuts = [m for m in params.get("reductions") or [] if isinstance(m, dict)]
    if not cuts:
        return None
    name = str(params.get("name", ""))
    element = str(params.get("element", "neutral"))
    amount = (t("km.info.damage_neutral", lang, amount=params.get("damage", 0)) if element == "neutral" else
              t("km.info.damage", lang, amount=params.get("damage", 0), element=_element(element, lang)))
    return t("km.info.damage_reduced", lang, name=name, amount=amount, wounds=params.get("wounds", 0),
             total=params.get("total", 0), hp=params.get("hp", 0),
             reasons="; ".join(reason_text(m, name, lang) for m in cuts))
