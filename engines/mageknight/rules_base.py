"""Shared questions about a combat: events, names people type, who can still fight.

The bottom of the rules with ``rules_values``: every other ``rules_*`` module may import this
one; it imports only the data modules.

Names (TABLE_UX "names people use"): an enemy, a unit or a card may be named by its uid
(``e1``, ``u2``), its content id (``g_tusk``), its name, or any unambiguous prefix of the name,
case-insensitively. An unknown or ambiguous name is a ``RuleError`` listing the valid ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight.content import WOUND, Card, builtin_pack
from engines.mageknight.state import CombatEnemy, State, UnitState

PHASE_SECTION = {  # the digest section an out-of-phase action cites (§1.1 node → section table)
    "setup": "combat-overview", "ranged_siege": "ranged-siege-phase", "block": "block-phase",
    "assign_damage": "assign-damage", "attack": "attack-phase", "over": "end-of-combat",
}


def ev(key: str, private_to: list[int] | None = None, **params: Any) -> Event:
    """An event in the ``mk.ev`` namespace; ``key`` is given without the prefix."""
    return Event(key=f"mk.ev.{key}", params=params, private_to=private_to or [])


def wrong_phase(state: State, action: str) -> RuleError:
    """An action the current phase does not take, worded by keys (``mk.phase.*``, ``mk.action.*``)."""
    return RuleError("mk.err.wrong_phase", rule=PHASE_SECTION[state.phase], phase=state.phase,
                     phase_key=f"mk.phase.{state.phase}", action=action, action_key=f"mk.action.{action}")


def new_uid(state: State, prefix: str) -> str:
    state.next_uid += 1
    return f"{prefix}{state.next_uid}"


def enemy_label(enemy: CombatEnemy) -> str:
    return enemy.name


# ------------------------------------------------------------------ who is where


def alive(state: State) -> list[CombatEnemy]:
    """Enemies not defeated (alive or blocked), drawn summon tokens included."""
    return [e for e in state.enemies if e.status != "defeated"]


def is_summoner(enemy: CombatEnemy) -> bool:
    return enemy.has("summon") and enemy.summoned_by is None


def attackers(state: State) -> list[CombatEnemy]:
    """Enemies that attack this combat: alive, not a summoner (its drawn token attacks, A5/A6)."""
    return [e for e in state.enemies if e.status == "alive" and not is_summoner(e)]


def unresolved_attackers(state: State) -> list[CombatEnemy]:
    """N3d: unblocked attackers whose damage is still to be assigned."""
    return [e for e in attackers(state) if not e.damage_done]


def units_allowed(state: State) -> bool:
    """M48: units cannot be used in a dungeon or a tomb."""
    return state.site not in ("dungeon", "tomb")


def live_units(state: State) -> list[UnitState]:
    return [u for u in state.units if not u.destroyed]


def damage_eligible(unit: UnitState) -> bool:
    """B1/M26: unwounded (ready or spent), in play, and not one that already resisted (N3e)."""
    return not unit.destroyed and unit.wounds == 0 and not unit.soaked


def can_activate(unit: UnitState) -> bool:
    """M39/M44: ready and unwounded."""
    return not unit.destroyed and unit.ready and unit.wounds == 0


def hand_cards(state: State) -> list[str]:
    """Distinct playable card ids in the hand, in hand order (no Wounds, no assist placeholders)."""
    seen: list[str] = []
    for card in state.hero.hand:
        if card in state.cards and card not in seen:
            seen.append(card)
    return seen


def card_def(state: State, card_id: str) -> Card:
    return state.cards[card_id]


def card_name(state: State, card_id: str) -> str:
    card = state.cards.get(card_id)
    return card.name if card is not None else card_id


def italian_names(state: State) -> dict[str, str]:
    """English name → Italian name of every card, token and unit this combat holds (issue 26: Italian
    is a full language). Events keep the English names they always carried; the Italian ones travel
    beside them, so a log line read years later, with the server's pack gone, still reads in Italian."""
    things = [*state.cards.values(), *state.bestiary.values(), *(e.token for e in state.enemies),
              *(u.card for u in state.units)]
    return {thing.name: thing.name_it for thing in things if thing.name_it and thing.name_it != thing.name}


def fill_italian_names(state: State) -> State:
    """A combat saved before content had Italian names (``name_it``) or forms (``plural``, ``form_it``) takes
    them from the built-in pack, for each card, token and unit whose id and English name are the built-in one's;
    a server's own stay as they are."""
    pack = builtin_pack()
    known = {(type(x).__name__, x.id, x.name): x for x in (*pack.cards, *pack.enemies, *pack.units)}
    things = [*state.cards.values(), *state.bestiary.values(), *(e.token for e in state.enemies),
              *(u.card for u in state.units)]
    for thing in things:
        same = known.get((type(thing).__name__, thing.id, thing.name))
        if same is None:
            continue
        thing.name_it = thing.name_it or same.name_it
        if thing.name_it == same.name_it and not thing.plural and not thing.form_it:  # saved before names had forms
            thing.plural, thing.form_it = same.plural, same.form_it
    return state


def add_names(params: dict[str, Any], table: dict[str, str]) -> None:
    """``names_it`` beside the names ``params`` carries (English → Italian, from ``italian_names``):
    ``common.i18n.local_names`` reads it, so a line, a prompt or an error names things in Italian."""
    named = {item: table[item] for value in params.values()
             for item in (value if isinstance(value, list) else [value]) if isinstance(item, str) and item in table}
    if named:
        params["names_it"] = named


def add_listed_names(params: dict[str, Any], table: dict[str, str]) -> None:
    """``names_it`` also for the names inside a refusal's list of candidates ("Cinder Shamans (e1), Village
    Pikes (u3)", "Armored Brutes (4)"): each item's name before its bracketed tag. The engine stays
    language-free: it hands the pairs over, and the presenter's ``error_params`` words the list."""
    named: dict[str, str] = {}
    for value in params.values():
        if not isinstance(value, str):
            continue
        for item in value.split(", "):
            name = item.split(" (", 1)[0] if item.endswith(")") else item
            if name in table:
                named[name] = table[name]
    if named:
        params["names_it"] = {**params.get("names_it", {}), **named}


def name_forms(state: State) -> dict[str, dict[str, str]]:
    """English name → {language: gender and number} of every token and unit whose words must agree otherwise
    than the kind's default ("Tusk Raiders": plural in English, "mp" in Italian): the lines that name it
    ("… are defeated", "… sono sconfitte") read it from the event, like ``names_it``."""
    things = [*state.bestiary.values(), *(e.token for e in state.enemies), *(u.card for u in state.units)]
    found: dict[str, dict[str, str]] = {}
    for thing in things:
        forms = {lang: thing.form(lang) for lang, usual in (("en", "ms"), ("it", thing.FORM_IT))
                 if thing.form(lang) != usual}
        if forms:
            found[thing.name] = forms
    return found


def with_italian_names(state: State, events: list[Event]) -> list[Event]:
    """Each event that names a card, token or unit also carries ``names_it``, and ``forms`` for the names
    whose gender or number is not the usual one (``name_forms``)."""
    table, forms = italian_names(state), name_forms(state)
    for event in events if table or forms else []:
        add_names(event.params, table)
        named = {item: forms[item] for value in event.params.values()
                 for item in (value if isinstance(value, list) else [value]) if isinstance(item, str) and item in forms}
        if named:
            event.params["forms"] = named
    return events


# ------------------------------------------------------------------ names people type


def _match(text: str, entries: Iterable[tuple[str, tuple[str, ...]]]) -> list[str]:
    """Values whose keys match ``text``: exact keys first, then unambiguous name prefixes."""
    wanted = text.strip().casefold()
    pairs = list(entries)
    exact = [value for value, keys in pairs if any(wanted == k.casefold() for k in keys)]
    if exact:
        return list(dict.fromkeys(exact))
    return list(dict.fromkeys(value for value, keys in pairs if wanted and any(k.casefold().startswith(wanted)
                                                                               for k in keys[1:])))


def find_enemy(state: State, text: str, among: list[CombatEnemy] | None = None) -> CombatEnemy:
    pool = state.enemies if among is None else among
    found = _match(text, ((e.uid, (e.uid, e.name, e.token.id, *([e.token.name_it] if e.token.name_it else [])))
                          for e in pool))
    if len(found) == 1:
        return state.enemy(found[0])
    if len(found) > 1:  # two tokens of the same kind: the first one still standing is meant
        same = {state.enemy(uid).token.id for uid in found}
        if len(same) == 1:
            return state.enemy(found[0])
    raise RuleError("mk.err.unknown_enemy_name", name=text[:40],
                    known=", ".join(f"{e.name} ({e.uid})" for e in pool) or "—")


def find_unit(state: State, text: str) -> UnitState:
    found = _match(text, ((u.uid, (u.uid, u.name, u.card.id, *([u.card.name_it] if u.card.name_it else [])))
                          for u in state.units))
    if len(found) == 1:
        return state.unit(found[0])
    raise RuleError("mk.err.unknown_unit_name", name=text[:40],
                    known=", ".join(f"{u.name} ({u.uid})" for u in state.units) or "—")


def find_card(state: State, text: str, *, allow_wound: bool = False) -> str:
    """A card id from the hand (a Wound card only where the caller says it may be named)."""
    ids = [c for c in dict.fromkeys(state.hero.hand) if c in state.cards or (allow_wound and c == WOUND)]
    entries = [(c, (c, card_name(state, c))) for c in ids]
    if allow_wound and WOUND in ids:
        entries.append((WOUND, (WOUND, "Wound", "Ferita")))
    found = _match(text, entries)
    if len(found) == 1:
        return found[0]
    raise RuleError("mk.err.card_not_in_hand", card=text[:40],
                    known=", ".join(card_name(state, c) for c in hand_cards(state)) or "—")
