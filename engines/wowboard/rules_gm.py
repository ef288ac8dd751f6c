"""GM overrides (spec §7 "GM"): a game master fixes what the rules could not see coming — a misclick
days ago, a card text the engine does not model — and every fix is logged as an event, so the
table reads what changed and why.

Each override keeps the game's books balanced: an item given comes out of the merchant or its deck and
an item taken goes to the merchant; a power given comes from the character's class deck and goes back
there; a spawned figure leaves the supply and a removed one returns to it (the property tests' card
and figure conservation holds after any override). Values are clamped to what the sheet allows.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import actions as A
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import ClassCard
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_quests import defeat_figure
from engines.wowboard.rules_sheet import capacity_of, card_of
from engines.wowboard.rules_supply import place_figures
from engines.wowboard.rules_turn import start_faction_turn
from engines.wowboard.state import Character, State

STATS = ("health", "energy", "gold", "xp", "stun", "curse", "actions")


def _character(state: State, ref: str) -> Character:
    c = state.characters.get(ref.strip().casefold())
    if c is None:
        raise RuleError("wowboard.err.unknown_character", name=ref[:40], known=", ".join(state.characters))
    return c


def apply_gm(state: State, action: A.Action) -> list[Event]:
    pack = pack_of(state)
    if isinstance(action, A.GmMove):
        c = _character(state, action.character)
        region = pack.region(action.region).id
        before, c.region = c.region, region
        return [ev("gm_moved", name=c.id, region=region, before=before)]
    if isinstance(action, A.GmStat):
        return _stat(state, _character(state, action.character), action.stat, action.value)
    if isinstance(action, A.GmGive):
        return _give(state, pack, _character(state, action.character), action.card)
    if isinstance(action, A.GmTake):
        return _take(state, pack, _character(state, action.character), action.card)
    if isinstance(action, A.GmSpawn):
        creature = next((t for t in pack.creatures if t.id == action.creature), None)
        if creature is None:
            raise RuleError("wowboard.err.unknown_creature", name=action.creature[:40],
                            known=", ".join(t.id for t in pack.creatures))
        region = pack.region(action.region).id
        placed = place_figures(state, creature.id, action.tier, 1, region)
        if not placed:  # quests.4: the box is empty, the GM cannot invent a figure either
            raise RuleError("wowboard.err.supply_empty", name=creature.name, tier=action.tier, rule="quests.4")
        return [ev("gm_spawned", creature=creature.id, tier=action.tier, region=region)]
    if isinstance(action, A.GmRemove):
        if action.figure not in state.figures:
            raise RuleError("wowboard.err.unknown_figure", name=action.figure[:40],
                            known=", ".join(sorted(state.figures)[:20]))
        fig = state.figures[action.figure]
        return [ev("gm_removed", creature=fig.type, tier=fig.tier, region=fig.region),
                *defeat_figure(state, action.figure)]
    if isinstance(action, A.GmTurn):
        return _turn(state, action.turn)
    if isinstance(action, A.GmNote):
        return [ev("gm_note", text=action.text)]
    raise RuleError("wowboard.err.unknown_gm", action=action.kind)


def _turn(state: State, turn: int) -> list[Event]:
    """setup.8, end-of-faction-turn.2/4: the Horde acts on odd spaces of the track, the Alliance on even
    ones. A marker moved onto the other faction's space hands the turn over, so the turn number and who
    acts agree (issue 27.6); that needs a quiet table (no fight, no open question) to hand over."""
    before, faction = state.turn, ("horde" if turn % 2 else "alliance")
    if faction == state.active or state.phase not in ("play", "management"):
        state.turn = turn
        return [ev("gm_turn", turn=turn, before=before)]
    if state.combat is not None or state.pending:
        raise RuleError("wowboard.err.gm_turn_busy", rule="end-of-faction-turn.4", turn=turn,
                        faction=faction, faction_key=f"wowboard.ui.faction.{faction}")  # worded by the table
    state.turn, state.active, state.phase = turn, faction, "play"
    return [ev("gm_turn", turn=turn, before=before), *start_faction_turn(state)]


def _stat(state: State, c: Character, stat: str, value: int) -> list[Event]:
    most_h, most_e = capacity_of(state, c)
    limits = {"health": most_h, "energy": most_e, "gold": 999, "xp": 99, "stun": 9, "curse": 9, "actions": 2}
    value = max(0, min(value, limits[stat]))
    if stat == "actions":
        if c.faction != state.active or state.phase != "play":
            raise RuleError("wowboard.err.gm_actions_off_turn", name=c.id)
        before, c.actions_left = c.actions_left, value
    else:
        before = getattr(c, stat)
        setattr(c, stat, value)
    return [ev("gm_stat", name=c.id, stat=stat, value=value, before=before)]


def _give(state: State, pack: Pack, c: Character, card: str) -> list[Event]:
    obj = card_of(pack, card)
    if isinstance(obj, ClassCard):
        deck = state.class_decks.get(c.id, [])
        if card not in deck:
            raise RuleError("wowboard.err.gm_not_in_class_deck", card=card, name=c.id)
        deck.remove(card)
        c.spellbook.append(card)
        return [ev("gm_given", name=c.id, card=card, source="class_deck")]
    if card in state.merchant:
        state.merchant.remove(card)
        source = "merchant"
    else:
        deck_id = next((d for d, deck in state.item_decks.items() if card in deck.cards()), None)
        if deck_id is None:
            raise RuleError("wowboard.err.gm_item_not_free", card=card)
        deck = state.item_decks[deck_id]
        for part in (deck.top, deck.pool, deck.bottom):
            if card in part:
                part.remove(card)
                break
        source = deck_id
    c.bag.append(card)
    return [ev("gm_given", name=c.id, card=card, source=source)]


def _take(state: State, pack: Pack, c: Character, card: str) -> list[Event]:
    obj = card_of(pack, card)
    if card in c.bag:
        c.bag.remove(card)
    elif card in c.spellbook:
        c.spellbook.remove(card)
    else:
        raise RuleError("wowboard.err.gm_not_carried", card=card, name=c.id)
    if isinstance(obj, ClassCard):
        state.class_decks.setdefault(c.id, []).append(card)
        return [ev("gm_taken", name=c.id, card=card, to="class_deck")]
    state.merchant.append(card)
    return [ev("gm_taken", name=c.id, card=card, to="merchant")]
