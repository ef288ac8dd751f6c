"""GM overrides and resignation (golden-rule, victory).

Card text the engine does not model is shown to the players and resolved by hand: a GM sets
wounds or orientations, moves a card between zones, makes a seat draw, or writes a note, and each
override is a logged event. After an override the usual checks run (deaths, victory, reform),
so a GM cannot leave an army in an illegal formation or a dead character on the table.
A seat may resign at any moment; its cards leave the game and play goes on while two remain.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.react_windows import drop_seat
from engines.warlord import actions as A
from engines.warlord import rules_ranks as R
from engines.warlord.rules_common import ev
from engines.warlord.rules_strikes import deaths, eliminate
from engines.warlord.rules_turn import draw_cards
from engines.warlord.state import CharState, State, WindowFrame

ZONES = ("hand", "discard", "deck", "removed")


def find_any(state: State, ref: str) -> str:
    """A card anywhere in the game, by uid or by name (the first card of that name in play wins)."""
    if ref in state.cards:
        return ref
    folded = ref.strip().casefold()
    in_play = [*state.chars, *state.items]
    for uid in [*in_play, *state.cards]:
        if state.name(uid).casefold() == folded or state.cards[uid].card == folded:
            return uid
    raise RuleError("warlord.err.no_such_card", rule="golden-rule", name=ref)


def lift(state: State, uid: str) -> None:
    """Take a card out of wherever it lies; a character in play drops its items and attachments."""
    for p in state.players:
        for zone in (p.hand, p.discard, p.removed, p.deck_top, p.deck_pool):
            if uid in zone:
                zone.remove(uid)
                return
    if uid in state.items:
        host = state.items.pop(uid).host
        state.chars[host].items.remove(uid)
        return
    for c in state.chars.values():
        if uid in c.attached:
            c.attached.remove(uid)
            return
    if uid in state.chars:
        c = state.chars.pop(uid)
        R.remove(state.player(c.army_of).ranks, uid)
        for other in [*c.items, *c.attached]:
            state.items.pop(other, None)
            state.player(state.cards[other].owner).discard.append(other)


def apply_gm(state: State, action: A.Action, dice: Dice) -> list[Event]:
    if isinstance(action, A.GmNote):
        return [ev("gm_note", text=action.text)]
    if isinstance(action, A.GmDraw):
        if action.seat not in state.living():
            raise RuleError("warlord.err.no_such_seat", rule="golden-rule", seat=action.seat + 1)
        drawn = draw_cards(state, action.seat, action.n, dice)
        return [ev("gm_draw", seat=action.seat, n=len(drawn), draws=dice.take_picked()),
                ev("drew_cards", private_to=[action.seat], seat=action.seat,
                   cards=", ".join(state.name(u) for u in drawn) or "-")]
    if isinstance(action, A.GmWounds):
        uid = find_any(state, action.char)
        if uid not in state.chars:
            raise RuleError("warlord.err.not_in_play", rule="golden-rule", name=state.name(uid))
        state.chars[uid].wounds = action.wounds
        return [ev("gm_wounds", name=state.name(uid), wounds=action.wounds), *deaths(state)]
    if isinstance(action, A.GmState):
        uid = find_any(state, action.card)
        holder = state.chars.get(uid) or state.items.get(uid)
        if holder is None:
            raise RuleError("warlord.err.not_in_play", rule="golden-rule", name=state.name(uid))
        holder.state = action.state
        return [ev("gm_state", name=state.name(uid), state=action.state)]
    assert isinstance(action, A.GmMove)
    return _move(state, action)


def _move(state: State, action: A.GmMove) -> list[Event]:
    uid = find_any(state, action.card)
    owner = state.player(state.cards[uid].owner)
    to = action.to.strip().lower()
    if to.startswith("rank:"):
        if state.defn(uid).type != "character" or not owner.alive:
            raise RuleError("warlord.err.gm_rank_character", rule="golden-rule", name=state.name(uid))
        try:
            rank = int(to[5:])
        except ValueError:
            raise RuleError("warlord.err.gm_zone", rule="golden-rule", zone=action.to) from None
        if not 1 <= rank <= len(owner.ranks) + 1:
            raise RuleError("warlord.err.gm_zone", rule="golden-rule", zone=action.to)
        lift(state, uid)
        R.place(owner.ranks, rank, uid, action.position)
        state.chars[uid] = CharState(uid=uid, controller=owner.seat, army_of=owner.seat)
    elif to in ZONES:
        lift(state, uid)
        if to == "deck":
            owner.deck_pool = sorted([*owner.deck_pool, uid])
        else:
            getattr(owner, to).append(uid)
    else:
        raise RuleError("warlord.err.gm_zone", rule="golden-rule", zone=action.to)
    hidden = to in ("hand", "deck")
    return [ev("gm_move", name="?" if hidden else state.name(uid), seat=owner.seat, to=to), *deaths(state)]


def resign(state: State, seat: int) -> list[Event]:
    """victory: the seat is out at once; the last seat standing wins."""
    player = state.player(seat)
    if not player.alive:
        raise RuleError("warlord.err.already_out", rule="victory")
    player.alive = False
    player.resigned = True
    events = [ev("resigned", seat=seat), *eliminate(state, seat)]
    for p in state.players:
        p.discard_choice = p.discard_choice if p.alive else None
    state.stack = [f for f in state.stack if getattr(f, "seat", None) != seat or f.kind == "window"]
    for f in state.stack:
        if isinstance(f, WindowFrame):
            drop_seat(f, seat)
    return events + deaths(state)
