"""Mage Knight autocomplete and typed names: what the fighter may do now, ranked and explained.

Every choice comes from the engine's ``legal_actions`` (so autocomplete only proposes what
``apply`` accepts) and says what it would do to the open column, computed by the engine's
own previews: "Quickstep ⚡ Ranged Attack 3 (white die) → 3 vs armor 5". Lists are ranked as
a player reads them (``gm.games.choices``): what makes the column enough first, cards with no
combat use first when going sideways, the unit that soaks without a wound first.

What a player types instead of picking ("battle fury block", "Rimeguard", "eroe", "dado")
is read here too, in either language, and turned into the action's ids; an unknown or
ambiguous name is an error listing the valid names (``gm.games.names``). The engine re-checks all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from common.i18n import SUPPORTED, Phrase, humanize, t
from engines.core.contract import Action
from engines.core.errors import RuleError, TavoloError
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import Card, Effect
from engines.mageknight.preview import ColumnPreview, preview_action, preview_assign
from engines.mageknight.rules_values import damage_of
from engines.mageknight.state import CombatEnemy, State, UnitState
from gm.games.choices import Choice, Ranked, fit, rank
from gm.games.mageknight import grammar
from gm.games.mageknight.info import KEYS, effect_text, resist_text
from gm.games.mageknight.payment import NOTE as NOTE
from gm.games.mageknight.payment import mana_matches, mana_text, no_such_mana, preferred_payment, same_payment
from gm.games.mageknight.payment import with_note as _with_note
from gm.games.names import Name, find, fold, resolve, resolve_many

LANGS = SUPPORTED
HERO = "hero"
POWERED_MARK = "⚡"
_SIDE_WORDS = {"basic": ("basic", "base", "b"), "powered": ("powered", "potenziata", "potenziato", "p")}
_KIND_WORDS = {"attack": ("attack", "attacco", "att"), "block": ("block", "blocco", "parata")}
_RANGE_WORDS = {"ranged": ("ranged", "distanza", "range"), "siege": ("siege", "assedio"),
                "melee": ("melee", "mischia")}
_ELEMENT_WORDS = {"physical": ("physical", "fisico", "fisica"), "fire": ("fire", "fuoco"),
                  "ice": ("ice", "ghiaccio"), "cold_fire": ("cold_fire", "coldfire")}
_SIDEWAYS_WORDS = ("sideways", "fianco", "laterale", "traverso")


def legal(state: State, seat: int | None) -> list[Action]:
    return ENGINE.legal_actions(state, seat) if seat is not None else []


def _names_error(text: str, names: Sequence[Name], what: str) -> str:
    return resolve(text, names, what=Phrase(what), keys=KEYS)


# ---------------------------------------------------------------------------- previews
class Previews:
    """The column after each candidate action, computed once per list: each preview copies the
    state, and a list labels and ranks every candidate (autocomplete runs on the event loop)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._seen: dict[str, ColumnPreview | None] = {}

    def __call__(self, action: Action) -> ColumnPreview | None:
        key = action.model_dump_json()
        if key not in self._seen:
            try:
                self._seen[key] = preview_action(self.state, action)
            except RuleError:
                self._seen[key] = None
        return self._seen[key]

    def words(self, action: Action, lang: str) -> str:
        """What the open column would add up to after ``action``: "→ 3 vs armor 5", "→ 8 vs 8 to block ✓"."""
        return column_words(self(action), lang)

    def rank(self, action: Action) -> tuple[int, int]:
        """Sort key: a column that becomes enough first, then the highest total."""
        column = self(action)
        return (1, 0) if column is None else (0 if column.enough else 1, -column.total)


def after(state: State, action: Action, lang: str) -> str:
    return Previews(state).words(action, lang)


def column_words(column: ColumnPreview | None, lang: str) -> str:
    if column is None:
        return ""
    key = "mk.ui.after_block" if column.kind == "block" else "mk.ui.after_attack"
    text = t(key, lang, total=column.total, need=column.need)
    if column.enough and column.total > column.need:  # issue 27.5: overkill shows before it is played
        return f"{text} ✓ {t('mk.ui.after_wasted', lang, wasted=column.total - column.need)}"
    return text + (" ✓" if column.enough else "")


def _dedupe_dice(state: State, actions: list[Any]) -> list[Any]:
    """Two Source dice of one colour pay the same way: offer the first only."""
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for action in actions:
        mana = action.mana or ""
        if mana.startswith("die:"):
            mana = "die:" + state.source[int(mana[4:])].face
        key = (*(repr(v) for k, v in action.model_dump().items() if k not in ("mana", "discard")), mana)
        if key not in seen:
            seen.add(key)
            kept.append(action)
    return kept


# ---------------------------------------------------------------------------- targets
def _target_label(state: State, action: A.Target, lang: str) -> str:
    enemies = [state.enemy(uid) for uid in action.enemies]
    names = " + ".join(e.local_name(lang) for e in enemies)
    column = preview_action(state, action)
    if column is None:
        return names
    if column.kind == "block":
        enemy = enemies[0]
        detail = t("mk.ui.target_block", lang, need=column.need, attack=effect_text(
            Effect(kind="attack", amount=enemy.token.attack + enemy.attack_bonus, element=enemy.token.element), lang))
        if column.swift:
            detail += ", " + t("mk.info.ability_name.swift", lang)
        return f"{names} — {detail}"
    parts = [f"{names} — " + t("mk.ui.target_armor", lang, need=column.need)]
    resist = resist_text(sorted({r for e in enemies for r in e.token.resistances}), lang)
    if resist:
        parts.append(resist)
    if state.phase == "ranged_siege" and any(e.site_fortified or e.has("fortified") for e in enemies):
        parts.append(t("mk.ui.siege_only", lang))
    return fit(parts)


def target_choices(state: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Single enemies first, then groups, the easiest to beat first."""
    found = []
    for action in legal(state, seat):
        if not isinstance(action, A.Target):
            continue
        column = preview_action(state, action)
        need = column.need if column is not None else 0
        value = ",".join(action.enemies)
        names = tuple(n for u in action.enemies for n in _spellings(state.enemy(u)))
        found.append(Ranked(Choice(_target_label(state, action, lang), value), (len(action.enemies), need), names))
    return rank(found, current)


def _spellings(thing: CombatEnemy | UnitState | Card) -> tuple[str, ...]:
    """Every name a player may type for a thing: its name in each language."""
    return tuple(dict.fromkeys(thing.local_name(lang) for lang in LANGS))


def enemy_names(state: State, uids: Sequence[str] | None = None, lang: str = "en") -> list[Name]:
    enemies = [e for e in state.enemies if uids is None or e.uid in uids]
    return [Name(e.uid, e.local_name(lang), (*_spellings(e), e.token.id)) for e in enemies]


def resolve_targets(state: State, seat: int | None, text: str, lang: str = "en") -> list[str]:
    """``"tusk, warg"``, ``"tusk warg"``, ``"e1,e2"`` (autocomplete) → enemy uids; the engine says why a
    named enemy cannot be targeted (double fortified, already blocked…)."""
    candidates = [e.uid for e in state.enemies if e.status != "defeated"]
    return resolve_many(text, enemy_names(state, candidates, lang) or enemy_names(state, lang=lang),
                        what=Phrase("mk.ui.what.enemy"), keys=KEYS)


# ---------------------------------------------------------------------------- cards
def play_value(action: A.Play) -> str:
    """``battle_fury powered 1 crystal:red`` (option counted from 1; ``blue,green`` for mana tokens)."""
    parts = [action.card, action.side, str(action.option + 1)]
    if action.mana:
        parts.append(action.mana)
    if action.colours:
        parts.append(",".join(action.colours))
    return " ".join(parts)


def parse_play_value(text: str) -> dict[str, Any] | None:
    """The action behind a ``play_value``, or None when ``text`` is not one (a typed name)."""
    tokens = text.split()
    if len(tokens) < 3 or tokens[1] not in ("basic", "powered") or not tokens[2].isdecimal():
        return None
    action: dict[str, Any] = {"kind": "play", "card": tokens[0], "side": tokens[1], "option": int(tokens[2]) - 1}
    for token in tokens[3:]:
        if ":" in token:
            action["mana"] = token
        else:
            action["colours"] = token.split(",")
    return action


def _play_label(state: State, action: A.Play, lang: str, previews: Previews | None = None) -> str:
    card = state.cards[action.card]
    effect = card.effects(action.side)[action.option]
    name = card.local_name(lang) + (f" {POWERED_MARK}" if action.side == "powered" else "")
    gains = effect.kind == "gain_mana"  # not part of the column: no total to show
    colours = ", ".join(t(f"mk.face.{c}", lang) for c in action.colours)
    text = t("mk.ui.gain_tokens", lang, colours=colours) if gains else effect_text(effect, lang)
    mana = mana_text(state, action.mana, lang)
    if mana:
        text += f" ({mana})"
    if card.cost_discard:
        text += " " + t("mk.ui.plus_discard", lang)
    total = "" if gains else (previews or Previews(state)).words(action, lang)
    return fit([f"{name} · {text} {total}".strip()])


def after_label(state: State, action: Action, lang: str) -> str:
    """What one play or activation does now, without the card's name (the hand panel):
    "powered: Ranged Attack 3 (white die) → 3 vs armor 5"."""
    if isinstance(action, A.Play):
        effect = state.cards[action.card].effects(action.side)[action.option]
        head = f"{t(f'mk.side.{action.side}', lang)}: {effect_text(effect, lang)}"
        if effect.kind == "gain_mana":
            return head  # the colours are chosen when it is played
    elif isinstance(action, A.Activate):
        head = effect_text(state.unit(action.unit).card.abilities[action.ability].effects[action.option], lang)
    else:
        return ""
    mana = mana_text(state, action.mana, lang)
    return f"{head}{f' ({mana})' if mana else ''} {after(state, action, lang)}".strip()


def _plays(state: State, seat: int | None) -> list[A.Play]:
    plays = [a for a in legal(state, seat) if isinstance(a, A.Play)]
    plays = [a.model_copy(update={"discard": None}) for a in plays]  # Improvise asks which card afterwards
    return _dedupe_dice(state, plays)


def play_choices(state: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    hand = state.hero.hand
    previews = Previews(state)
    found = []
    for action in _plays(state, seat):
        gains = state.cards[action.card].effects(action.side)[action.option].kind == "gain_mana"
        rank_key = (2, 0) if gains else previews.rank(action)  # mana tokens never change the column
        key = (*rank_key, action.side == "powered", hand.index(action.card))
        found.append(Ranked(Choice(_play_label(state, action, lang, previews), play_value(action)), key,
                            _spellings(state.cards[action.card])))
    return rank(found, current)


def _effect_words(effect: Effect) -> list[str]:
    words = [t(f"mk.effect_kind.{effect.combat_kind}", lang) for lang in LANGS]
    return [*words, *(w for w in _KIND_WORDS.get(effect.kind, ()))]


def _play_names(state: State, plays: list[A.Play], lang: str) -> list[Name]:
    names = []
    for action in plays:
        card = state.cards[action.card]
        effect = card.effects(action.side)[action.option]
        sides = [*(_SIDE_WORDS[action.side]), *(t(f"mk.side.{action.side}", other) for other in LANGS)]
        effects = _effect_words(effect)
        aliases = [card.id, *(f"{name} {more}".strip() for name in _spellings(card)
                               for more in ("", *sides, *effects, *(f"{s} {e}" for s in sides for e in effects)))]
        names.append(Name(play_value(action), _play_label(state, action, lang), tuple(aliases)))
    return names


def side_of(text: str | None) -> str | None:
    """"powered", "potenziata", "p" → ``powered``; nothing typed → None (either side)."""
    if not text or not text.strip():
        return None
    word = fold(text)
    found = next((k for k, words in _SIDE_WORDS.items()
                  if word in words or word in {fold(t(f"mk.side.{k}", lang)) for lang in LANGS}), None)
    if found is None:
        raise TavoloError(KEYS.unknown, name=text.strip(), what=Phrase("mk.ui.what.side"),
                          names=", ".join(t(f"mk.side.{k}", "en") for k in _SIDE_WORDS))
    return found


def resolve_play(state: State, seat: int | None, text: str, side: str | None, mana: str | None,
                 lang: str) -> dict[str, Any]:
    """``/mk play``: an autocomplete value, or a card as typed ("battle fury block", "quickstep"), narrowed
    by ``side`` and ``mana``; several plays left → an error listing them, never a guess."""
    exact = parse_play_value(text.strip())
    if exact is not None:
        return exact
    wanted = side_of(side)
    plays = [a for a in _plays(state, seat) if wanted in (None, a.side) and mana_matches(a.mana, mana, state)]
    names = _play_names(state, plays, lang)
    _tier, found = find(text, names)
    found = same_payment(state, found, [parse_play_value(n.value) or {} for n in found])
    found, other = preferred_payment(found, [parse_play_value(n.value) or {} for n in found])
    if len(found) == 1:
        return _with_note(state, parse_play_value(found[0].value) or {}, other, lang)
    if not found and mana and mana.strip():  # the card could be played, but not paid that way
        unpaid = [a for a in _plays(state, seat) if wanted in (None, a.side)]
        no_such_mana(mana, find(text, _play_names(state, unpaid, lang))[1])
    if not found:  # not a legal play now: the engine explains why (no target yet, wrong phase…)
        action: dict[str, Any] = {"kind": "play", "card": _hand_card(state, text, lang), "side": wanted or "basic"}
        if mana and mana.strip():
            action["mana"] = mana.strip()
        return action
    raise TavoloError(KEYS.ambiguous, name=text.strip(), what=Phrase("mk.ui.what.play"),
                      names="; ".join(n.label for n in found[:8]))


def _hand_card(state: State, text: str, lang: str = "en") -> str:
    ids = [c for c in dict.fromkeys(state.hero.hand) if c in state.cards]
    names = [Name(c, state.cards[c].local_name(lang), _spellings(state.cards[c])) for c in ids]
    if not names:
        raise TavoloError("mk.ui.no_cards")
    return _names_error(text, names, "mk.ui.what.card")


def sideways_choices(state: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Cards for Attack 1 / Block 1: those with no use in this fight first (the real puzzle)."""
    found = []
    hand = state.hero.hand
    for action in legal(state, seat):
        if not isinstance(action, A.Sideways):
            continue
        card = state.cards[action.card]
        useful = any(e.kind in ("attack", "block") for e in (*card.basic, *card.powered))
        kind = state.staged.kind if state.staged else "attack"
        label = fit([f"{card.local_name(lang)} → {t(f'mk.ui.sideways_{kind}', lang)} {after(state, action, lang)}"
                     .strip()])
        found.append(Ranked(Choice(label, action.card), (useful, hand.index(action.card)), _spellings(card)))
    return rank(found, current)


def resolve_card(state: State, seat: int | None, text: str, lang: str = "en") -> str:
    prefer = {a.card for a in legal(state, seat) if isinstance(a, A.Sideways)}
    ids = [c for c in dict.fromkeys(state.hero.hand) if c in state.cards]
    names = [Name(c, state.cards[c].local_name(lang), _spellings(state.cards[c])) for c in ids]
    if not names:
        raise TavoloError("mk.ui.no_cards")
    return resolve(text, names, what=Phrase("mk.ui.what.card"), keys=KEYS, prefer=prefer)


# ---------------------------------------------------------------------------- units
def unit_value(action: A.Activate) -> str:
    parts = [action.unit, str(action.ability + 1), str(action.option + 1)]
    return " ".join([*parts, action.mana] if action.mana else parts)


def parse_unit_value(text: str) -> dict[str, Any] | None:
    tokens = text.split()
    if len(tokens) < 3 or not tokens[1].isdecimal() or not tokens[2].isdecimal():
        return None
    return {"kind": "activate", "unit": tokens[0], "ability": int(tokens[1]) - 1, "option": int(tokens[2]) - 1,
            **({"mana": tokens[3]} if len(tokens) > 3 else {})}


def _unit_label(state: State, action: A.Activate, lang: str, previews: Previews | None = None) -> str:
    unit = state.unit(action.unit)
    effect = unit.card.abilities[action.ability].effects[action.option]
    text = effect_text(effect, lang)
    mana = mana_text(state, action.mana, lang)
    if mana:
        text += f" ({mana})"
    return fit([f"{unit.local_name(lang)} · {text} {(previews or Previews(state)).words(action, lang)}".strip()])


def _activations(state: State, seat: int | None) -> list[A.Activate]:
    return _dedupe_dice(state, [a for a in legal(state, seat) if isinstance(a, A.Activate)])


def unit_choices(state: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    previews = Previews(state)
    found = [Ranked(Choice(_unit_label(state, a, lang, previews), unit_value(a)),
                    (*previews.rank(a), a.mana is not None), _spellings(state.unit(a.unit)))
             for a in _activations(state, seat)]
    return rank(found, current)


def resolve_unit(state: State, seat: int | None, text: str, mana: str | None, lang: str) -> dict[str, Any]:
    """``/mk unit``: an autocomplete value, or a unit (and its ability) as typed."""
    exact = parse_unit_value(text.strip())
    if exact is not None:
        return exact
    options = [a for a in _activations(state, seat) if mana_matches(a.mana, mana, state)]
    names = []
    for action in options:
        unit = state.unit(action.unit)
        effects = _effect_words(unit.card.abilities[action.ability].effects[action.option])
        spelled = (f"{name} {e}".strip() for name in _spellings(unit) for e in ("", *effects))
        names.append(Name(unit_value(action), _unit_label(state, action, lang), (unit.card.id, *spelled)))
    _tier, found = find(text, names)
    found, other = preferred_payment(found, [parse_unit_value(n.value) or {} for n in found])
    if len(found) == 1:
        return _with_note(state, parse_unit_value(found[0].value) or {}, other, lang)
    if found:
        raise TavoloError(KEYS.ambiguous, name=text.strip(), what=Phrase("mk.ui.what.unit"),
                          names="; ".join(n.label for n in found[:8]))
    units = unit_names(state, lang)
    if not units:
        raise TavoloError("mk.ui.no_units")
    return {"kind": "activate", "unit": _names_error(text, units, "mk.ui.what.unit")}


def unit_names(state: State, lang: str = "en") -> list[Name]:
    """The units, labelled in the reader's language, typed in either."""
    return [Name(u.uid, u.local_name(lang), (*_spellings(u), u.card.id)) for u in state.units]


def ready_unit_choices(state: State, current: str, lang: str = "en") -> list[Choice]:
    """Assist: units that can still give an effect (ready and unwounded)."""
    found = [Ranked(Choice(u.local_name(lang), u.uid), (), (*_spellings(u), u.card.id)) for u in state.units
             if u.ready and not u.wounds and not u.destroyed]
    return rank(found, current)


def resolve_unit_name(state: State, text: str, lang: str = "en") -> str:
    units = unit_names(state, lang)
    if not units:
        raise TavoloError("mk.ui.no_units")
    return _names_error(text, units, "mk.ui.what.unit")


# ---------------------------------------------------------------------------- assist: declared effects
def parse_effect(text: str) -> dict[str, Any]:
    """"ranged fire attack", "attacco fuoco a distanza", "block ice", "sideways" → add fields."""
    words = fold(text).replace("fuoco freddo", "coldfire").replace("cold fire", "coldfire").split()
    fields: dict[str, Any] = {}
    for word in words:
        for table, name in ((_KIND_WORDS, "effect"), (_RANGE_WORDS, "range"), (_ELEMENT_WORDS, "element")):
            found = next((k for k, names in table.items() if word in names or word == k), None)
            if found is not None:
                fields[name] = found
        if word in _SIDEWAYS_WORDS:
            fields["sideways"] = True
    if not fields:
        raise TavoloError("mk.ui.bad_effect", effect=text.strip()[:40])
    return fields


def add_value(action: A.Add) -> str:
    if action.sideways:
        return f"{action.effect} sideways"
    return " ".join([action.effect, *([action.range] if action.range != "melee" else []), action.element])


def add_choices(state: State, seat: int | None, current: str, amount: int | None, lang: str) -> list[Choice]:
    """Assist templates with the typed amount: "Ranged Fire Attack 3 → 3 vs armor 5"."""
    count = amount if amount and amount > 0 else 1
    found = []
    for order, action in enumerate(a for a in legal(state, seat) if isinstance(a, A.Add)):
        filled = action.model_copy(update={"amount": count})
        effect = Effect(kind=action.effect, amount=count, element=action.element,
                        range=action.range if action.effect == "attack" else "melee")
        text = (t("mk.ui.sideways_add", lang, effect=t(f"mk.effect_kind.{effect.combat_kind}", lang), count=count)
                if action.sideways else effect_text(effect, lang))
        found.append(Ranked(Choice(f"{text} {after(state, filled, lang)}".strip(), add_value(action)), (order,),
                            (*_effect_words(effect),)))
    return rank(found, current)


# ---------------------------------------------------------------------------- damage
def damage_enemy_choices(state: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Sheet B: the unblocked enemies whose damage is still to place, the biggest first."""
    found = []
    for uid in dict.fromkeys(a.enemy for a in legal(state, seat) if isinstance(a, A.Assign) and a.enemy):
        enemy = state.enemy(uid)
        damage = damage_of(state, enemy)
        label = t("mk.ui.damage_choice", lang, enemy=enemy.local_name(lang), damage=damage,
                  element=t(f"mk.element.{enemy.token.element}", lang))
        extras = [t(f"mk.info.ability_name.{a}", lang) for a in ("brutal", "poison", "paralyze") if enemy.has(a)]
        found.append(Ranked(Choice(fit([label, *extras]), uid), (-damage,), (*_spellings(enemy), enemy.token.id)))
    return rank(found, current)


def assign_words(state: State, to: str, enemy: str | None, lang: str) -> tuple[str, int]:
    """"Rimeguard soaks 5, no wound, 0 left" and a sort key (cheapest for the hero first)."""
    try:
        p = preview_assign(state, to, enemy)
    except RuleError:
        return "", 99
    if p.to == "hero":
        text = t("mk.ui.assign_hero", lang, damage=p.damage, wounds=p.hero_wounds,
                 count=state.hero.combat_hand_wounds + p.hero_wounds, limit=state.hero.hand_limit)
        if p.discard_wounds:
            text += ", " + t("mk.ui.assign_poison", lang, wounds=p.discard_wounds)
        if p.knocked_out:
            text += ", " + t("mk.ui.assign_knocked_out", lang)
        if p.discarded:
            text += " " + t("mk.ui.assign_discards", lang, count=len(p.discarded))
        return text, 10 + 2 * p.hero_wounds
    if p.destroyed:
        key, cost = "mk.ui.assign_destroyed", 6
    elif p.soaked:
        key, cost = "mk.ui.assign_soaked", 0
    else:
        key, cost = "mk.ui.assign_wounded", 2 + p.unit_wounds
    found = next((u for u in state.units if u.uid == to or u.name == p.to), None)
    unit = found.local_name(lang) if found is not None else p.to
    agree = grammar.of_thing("unit", found.card if found is not None else None, lang)  # "Arcieri … sono feriti"
    return t(key, lang, unit=unit, absorbed=p.absorbed, left=p.left, wounds=p.unit_wounds, **agree), cost + p.left


def recipient_choices(state: State, seat: int | None, enemy: str | None, current: str, lang: str) -> list[Choice]:
    """Where the damage can go now, each with what it would do. With several enemies still to
    place and none named, every (enemy, recipient) pair is offered: its value carries both."""
    assigns = [a for a in legal(state, seat) if isinstance(a, A.Assign)]
    whose = {a.enemy for a in assigns}
    if state.damage is not None:
        enemy = None
    elif enemy is None and len(whose) == 1:
        enemy = next(iter(whose))  # one enemy left: no need to name it
    found = []
    for action in assigns:
        if enemy is not None and action.enemy not in (None, enemy):
            continue
        text, cost = assign_words(state, action.to, action.enemy, lang)
        if action.enemy is not None and enemy is None:
            text = f"{state.enemy(action.enemy).local_name(lang)} → {text}"
        value = f"{action.enemy}>{action.to}" if action.enemy is not None and enemy is None else action.to
        aliases = (HERO, *(t("mk.ui.hero", other) for other in LANGS)) if action.to == HERO else (
            _spellings(state.unit(action.to)))
        found.append(Ranked(Choice(fit([text]) or action.to, value), (cost,), aliases))
    return rank(found, current)


def recipient_names(state: State, lang: str = "en") -> list[Name]:
    """The units and the hero, the hero labelled in the reader's language (an error lists these labels)."""
    units = unit_names(state, lang)
    return [*units, Name(HERO, t("mk.ui.hero", lang), tuple(t("mk.ui.hero", other) for other in LANGS))]


def resolve_recipient(state: State, text: str, enemy: str | None = None,
                      lang: str = "en") -> tuple[str, str | None]:
    """``/mk assign to:``: a unit or the hero (``eroe``), or an autocomplete value ``<enemy>><to>``;
    returns (recipient, enemy)."""
    head, sep, tail = text.partition(">")
    if sep and tail.strip():
        return tail.strip(), head.strip() or enemy
    return resolve(text, recipient_names(state, lang), what=Phrase("mk.ui.what.recipient"), keys=KEYS), enemy


def resolve_damage_enemy(state: State, text: str | None, lang: str = "en") -> str | None:
    if not text or not text.strip():
        return None
    return resolve(text, enemy_names(state, lang=lang), what=Phrase("mk.ui.what.enemy"), keys=KEYS)


def assign_options(state: State, seat: int | None, lang: str) -> list[tuple[str, str]]:
    """Every (enemy, recipient) pair for the damage select: value ``<enemy>><to>``, label with the preview."""
    found = []
    for action in legal(state, seat):
        if not isinstance(action, A.Assign):
            continue
        enemy = action.enemy or (state.damage.enemy if state.damage else None)
        text, cost = assign_words(state, action.to, action.enemy, lang)
        label = text if state.damage is not None or enemy is None else f"{state.enemy(enemy).local_name(lang)} → {text}"
        found.append((cost, f"{action.enemy or ''}>{action.to}", fit([label])))
    found.sort(key=lambda item: item[0])
    return [(value, label) for _cost, value, label in found]


# ---------------------------------------------------------------------------- decisions
def decision_choices(state: State, lang: str, current: str, seat: int | None = None) -> list[Choice]:
    """The open question's answers in the reader's language (summon token, Improvise, the duel die,
    the duel's picks), for the seat the question waits for only."""
    decision = ENGINE.decision(state)
    if decision is None or decision.kind in ("turn", "assign_damage") or (seat is not None
                                                                          and seat not in decision.seats):
        return []
    return rank([Ranked(Choice(t(o.label_key, lang, **humanize(o.params, lang, "mk")), o.value))
                 for o in decision.options], current)


def resolve_option(state: State, text: str, lang: str) -> str:
    """An answer by value or by its label in either language; a summon token may also be a stat line."""
    decision = ENGINE.decision(state)
    if decision is None or not decision.options:
        return text.strip()
    names = [Name(o.value, t(o.label_key, lang, **humanize(o.params, lang, "mk")),
                  tuple(t(o.label_key, other, **humanize(o.params, other, "mk")) for other in LANGS)
                  + tuple(str(v) for v in o.params.values() if isinstance(v, str)))
             for o in decision.options]
    _tier, found = find(text, names)
    if len(found) == 1:
        return found[0].value
    if decision.kind == "summon_token" and not found:
        return text.strip()  # a stat line ("Ogre armor 5 attack 4"): the engine reads it
    return resolve(text, names, what=Phrase("mk.ui.what.answer"), keys=KEYS)
