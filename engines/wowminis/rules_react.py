"""React windows (701, 408.1b, 602.4, 703.1g, 708.4a).

A window is one pass over the seats, the active player first (701.2); each seat plays at most one
react or passes. The seats it asks answer at once on one prompt (``engines.core.react_windows``); the
answers take effect in seat order, so a react plays once the seats before it passed, and the answers
after it, given without knowing it, are asked again. A react is itself an ability: before it resolves a
nested ``ability_played`` window opens (701.3) and only the innermost window is live (the stack's top).

Hidden information (701 note, AsyncTI4 #5572): whether a seat is asked depends only on public data and
its own settings: one of its characters in play has a ready face-up react that fits the moment, or a
ready face-down card, and some react condition (``ReactWhen``) could fit the moment for that character
(so your own instant, which no react condition answers, asks nobody). A party that plays the pools printed
on its character cards (``PlayerState.pool_public``, 101.2) narrows that further: everyone can read which
cards such a party owns, so a face-down card could only be one of its printed reacts that has not been seen
face up, and that fits its character. Its settings may only narrow that:
``always``, ``targeted`` (only windows that concern its characters) and ``my_turn`` (none until one of
its characters takes a turn). Stealth (708.4a) silences the stealthed character's enemies.
"""

from __future__ import annotations

from typing import get_args

from engines.core import react_windows as RW
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis.actions import React
from engines.wowminis.content import ActionCardDef, ReactWhen, plain
from engines.wowminis.content import fits as card_fits
from engines.wowminis.rules_board import adjacent, allied, ev, in_play, parse_space
from engines.wowminis.rules_effects import affordable, pay
from engines.wowminis.rules_targeting import destinations, resolve_piece
from engines.wowminis.state import CardInstance, CharState, PlayFrame, State, WindowFrame

REACT_WHENS: tuple[str, ...] = tuple(get_args(ReactWhen))


def seat_order(state: State) -> list[int]:
    """701.2/107.1: the active player first, then clockwise."""
    seats = sorted(p.seat for p in state.players if not p.resigned)
    start = seats.index(state.active_seat) if state.active_seat in seats else 0
    return seats[start:] + seats[:start]


def open_window(state: State, window: str, **payload: object) -> WindowFrame:
    order = seat_order(state)
    frame = WindowFrame(id=state.new_id(), window=window, order=order, poll=order, **payload)  # type: ignore[arg-type]
    state.stack.append(frame)
    return frame


def silenced(state: State, seat: int) -> bool:
    """708.4a: while the active character is stealthed its enemies can't play reacts."""
    turn = state.turn
    if turn is None or not turn.stealthed:
        return False
    active = state.chars.get(turn.char)
    return active is not None and not allied(state, active.controller, seat)


def fits(state: State, w: WindowFrame, r: CharState, card: ActionCardDef) -> bool:
    """701.1: the react's condition against the window (E8's two negates, 408.1b, 602.4...)."""
    return card.when is not None and fits_when(state, w, r, card.when)


def fits_when(state: State, w: WindowFrame, r: CharState, when: str) -> bool:
    """701.1: a react condition against the window, for reacting character ``r``."""
    enemy = w.seat is not None and not allied(state, w.seat, r.controller)
    if w.window == "ability_played":
        targets = [state.chars[t] for t in w.targets if t in state.chars]
        if when == "enemy_physical_attack_on_self_or_adjacent_ally":
            return enemy and w.attack and w.physical and any(
                t.id == r.id or (allied(state, t.controller, r.controller) and adjacent(t.pos, r.pos)) for t in targets)
        if when == "enemy_ability_not_physical_attack":
            return enemy and not w.form and not (w.attack and w.physical)  # 302.2: forms can't be negated
        if when == "enemy_attack_targets_ally":
            return enemy and w.attack and any(allied(state, t.controller, r.controller) for t in targets)
        if when == "ally_plays_attack":
            return w.attack and w.seat is not None and allied(state, w.seat, r.controller) and not w.react
        return False
    if w.window == "enemy_tick_up":
        ticked = state.chars.get(w.char or "")
        return when == "enemy_ticks_ally" and enemy and ticked is not None and allied(state, ticked.controller,
                                                                                     r.controller)
    return when == "self_attacked_no_damage" and w.char == r.id


def _affordable(state: State, r: CharState, card: ActionCardDef) -> bool:
    return affordable(state, r, card.cost)  # 408.2a for the reacting character (701.2) and 400.3a's co-payer


def eligible(state: State, w: WindowFrame, seat: int) -> list[tuple[CharState, CardInstance]]:
    """The reacts ``seat`` could really play now (private knowledge: never used for prompting)."""
    if silenced(state, seat):
        return []
    found = []
    for r in in_play(state):  # A16: out-of-play characters can't react
        if r.controller != seat:
            continue
        for card in r.bar:
            d = card.defn
            if (card.zone == "bar" and card.ready and d is not None and d.category == "react"
                    and fits(state, w, r, d) and _affordable(state, r, d) and react_choices(state, w, r, d)):
                found.append((r, card))
    return found


def _concerns(state: State, w: WindowFrame, seat: int) -> bool:
    """The ``targeted`` setting: the window names one of the seat's characters (caster, subject or target)."""
    named = [w.caster, w.char, *w.targets]
    return RW.involves_seat((state.chars[c].controller for c in named if c and c in state.chars), seat)


def could_answer(state: State, w: WindowFrame, seat: int) -> bool:
    """Whether ``seat`` is asked in this window: public data and its own settings only (701 note)."""
    if silenced(state, seat):
        return False
    pref = state.player(seat).auto_pass
    if pref == "always" or (pref in ("targeted", "my_turn")
                            and RW.preset_skips(pref, involved=_concerns(state, w, seat))):
        return False
    unseen_of: dict[int, list[ActionCardDef] | None] = {}
    for r in in_play(state):
        if r.controller != seat:
            continue
        if r.owner not in unseen_of:  # 400.3: a controlled character's cards come from its owner's pools
            unseen_of[r.owner] = unseen_reacts(state, r.owner)
        unseen = unseen_of[r.owner]
        for card in r.bar:
            if card.zone != "bar" or not card.ready:
                continue
            if card.face_up:  # public: its own condition decides
                if card.defn is not None and card.defn.category == "react" and fits(state, w, r, card.defn):
                    return True
            elif unseen is None:  # a custom pool: it could be any react
                if any(fits_when(state, w, r, when) for when in REACT_WHENS):
                    return True
            elif any(card_fits(d, r.defn) and fits(state, w, r, d) for d in unseen):
                return True
    return False


def unseen_reacts(state: State, seat: int) -> list[ActionCardDef] | None:
    """The reacts a face-down card of ``seat`` could be, when its party plays its printed pools (101.2:
    character cards are public, so is what is printed on them): the party's reacts less those seen face up.
    None for a custom pool, which nobody else can read (A1).

    The instances counted here are the party's whole pool, which for a printed pool is exactly the printed
    list; only their identities as a multiset are used, never where each one went."""
    player = state.player(seat)
    if not player.pool_public:
        return None
    owned = [c for c in state.chars.values() if c.owner == seat]
    cards = list(state.pool.get(seat, [])) + [card for c in owned for card in c.bar]
    reacts = [c.defn for c in cards if c.defn is not None and c.defn.category == "react"]
    for card in (card for c in owned for card in c.bar if card.face_up and card.defn is not None):
        if card.defn in reacts:
            reacts.remove(card.defn)
    return reacts


def start_round(state: State, w: WindowFrame) -> list[int]:
    return RW.start_round(w, lambda seat: could_answer(state, w, seat))


def asked_seats(state: State, w: WindowFrame) -> list[int]:
    return RW.asked_seats(w, lambda seat: could_answer(state, w, seat))


def current(state: State) -> WindowFrame | None:
    """The open window that still waits for an answer (the stack's top)."""
    top = state.stack[-1] if state.stack else None
    return top if isinstance(top, WindowFrame) and RW.waiting(top, asked_seats(state, top)) else None


def react_choices(state: State, w: WindowFrame, r: CharState,
                  card: ActionCardDef) -> list[tuple[list[str], str | None]]:
    """(targets, space) pairs a react may be played with: reacts that move an ally pick one of the
    window's targets and a destination (705.1b re-checks the attack afterwards)."""
    spec = card.target
    if spec.side not in ("ally", "enemy"):
        return [([], None)]
    result: list[tuple[list[str], str | None]] = []
    for t in w.targets:
        c = state.chars.get(t)
        if c is None or c.pos is None or allied(state, c.controller, r.controller) != (spec.side == "ally"):
            continue
        if spec.space_range:
            result += [([t], s) for s in destinations(state, c, spec.space_range)]
        else:
            result.append(([t], None))
    return result


def _checked(state: State, w: WindowFrame, seat: int, action: React) -> tuple[CharState, CardInstance, list[str],
                                                                             str | None]:
    owner, card = _find_card(state, seat, action.card)
    d = card.defn
    assert d is not None
    if d.category != "react":
        raise RuleError("wowm.err.not_a_react", rule="701.1", card=d.name)
    if owner.pos is None:
        raise RuleError("wowm.err.not_in_play", rule="403.3", target=owner.defn.name)
    if not card.ready:
        raise RuleError("wowm.err.exhausted", rule="300.5", card=d.name)
    if silenced(state, seat):
        raise RuleError("wowm.err.stealth_silenced", rule="708.4a")
    if not fits(state, w, owner, d):
        raise RuleError("wowm.err.react_not_now", rule="701.1", card=d.name)
    if not _affordable(state, owner, d):
        raise RuleError("wowm.err.lap", rule="408.2a", cost=d.cost, name=owner.defn.name)
    targets = [resolve_piece(state, t) for t in action.targets]
    space = parse_space(state, action.space) if action.space else None
    if (targets, space) not in react_choices(state, w, owner, d):
        raise RuleError("wowm.err.react_target", rule="701.1", card=d.name)
    return owner, card, targets, space


def answer_react(state: State, seat: int, action: React) -> list[Event]:
    """701.2: the seat's answer, checked now and kept secret; it takes effect in seat order (``take_effect``)."""
    w = current(state)
    if w is None or seat not in RW.waiting(w, asked_seats(state, w)):
        raise RuleError("wowm.err.not_your_window", rule="701.2")
    owner, card, targets, space = _checked(state, w, seat, action)
    RW.answer(w, seat, React(card=card.id, targets=targets, space=space).model_dump())
    assert card.defn is not None
    return [ev("react_answered", seat=seat),
            ev("react_chosen", seat=seat, private_to=[seat], card=card.defn.name, name=owner.defn.name)]


def take_effect(state: State, w: WindowFrame, seat: int, action: React) -> list[Event]:
    """701.2/300.5: pay from the reacting character's clock, exhaust and reveal the card, then the react
    waits for its own nested window (701.3)."""
    owner, card, targets, space = _checked(state, w, seat, action)
    d = card.defn
    assert d is not None
    events = pay(state, owner, d.cost)
    card.ready = False
    w.played.append(seat)
    RW.reacted(w, card.id, seat, once_per_seat=True)  # 701.2: the seats before it keep their passes
    if not card.face_up:
        card.face_up = True
        events.append(ev("card_revealed", char=owner.id, name=owner.defn.name, card=d.name))
    events.append(ev("react_played", seat=seat, char=owner.id, name=owner.defn.name, card=d.name, cost=d.cost,
                     targets=[state.chars[t].defn.name for t in targets]))
    state.stack.append(PlayFrame(id=state.new_id(), seat=seat, caster=owner.id, ability=plain(d), card=card.id,
                                 source="react", targets=targets, space=space, window_of=w.id))
    return events


def step(state: State, w: WindowFrame) -> tuple[bool, list[Event]]:
    """(still waiting, events): the answers take effect in seat order; a window all asked seats passed, or
    that nobody could use, closes."""
    asked = start_round(state, w)
    kind, seat, given = RW.next_step(w, asked)
    if kind == "wait":
        return True, []
    if kind == "closed":
        state.stack.remove(w)
        return False, []
    assert seat is not None and given is not None
    set_aside = [s for s, a in w.answers.items() if s != seat and a.get("kind") == "react"]
    events = take_effect(state, w, seat, React.model_validate(given))
    order = w.poll
    later = [s for s in set_aside if s in order and order.index(s) > order.index(seat)]
    return False, events + [ev("react_set_aside", seat=s, private_to=[s], by=state.player(seat).name)
                            for s in later]


def settings_changed(state: State, seat: int) -> list[Event]:
    """A seat that opts out while it is asked passes the open window too (its own setting, so no leak)."""
    w = current(state)
    if w is None or seat not in RW.waiting(w, asked_seats(state, w)) or could_answer(state, w, seat):
        return []
    RW.answer(w, seat, dict(RW.PASS))
    return [ev("react_answered", seat=seat)]


def pass_window(state: State, seat: int) -> list[Event]:
    w = current(state)
    if w is None or seat not in RW.waiting(w, asked_seats(state, w)):
        raise RuleError("wowm.err.not_your_window", rule="701.2")
    RW.answer(w, seat, dict(RW.PASS))
    player = state.player(seat)
    first = not player.passed_once
    player.passed_once = True
    return [ev("react_answered", seat=seat), ev("passed", seat=seat, private_to=[seat], first=first)]


def _find_card(state: State, seat: int, key: str) -> tuple[CharState, CardInstance]:
    """A card of the seat's characters by instance id, or by name when unambiguous."""
    wanted = key.strip().lower()
    hits = []
    for c in state.chars.values():
        if c.controller != seat:
            continue
        for card in c.bar:
            name = card.defn.name.lower() if card.defn else ""
            if card.id.lower() == wanted or name == wanted:
                hits.append((c, card))
    if len(hits) != 1 or hits[0][1].defn is None:
        raise RuleError("wowm.err.unknown_card", name=key[:40], known=", ".join(
            sorted(card.defn.name for c in state.chars.values() if c.controller == seat for card in c.bar
                   if card.defn)))
    return hits[0]
