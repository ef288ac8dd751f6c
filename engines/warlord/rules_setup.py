"""Table options, a new game and the secret starting armies (deck-building, starting-army).

Each seat picks a deck (``config["deck"]``: a deck id of the pack; by default seat 0 takes the first
deck and seat 1 the second). Every card becomes a ``CardInst`` in the deck pool. The starting army is
chosen by all seats at once and kept out of other seats' views until every seat has chosen; then
the armies are placed (level 1 in rank 1, level 2 in rank 2, the Warlord in rank 3), all ready, and
turn 1 begins. There is no opening hand: turn 1's draw phase fills the hands (spec §6.7).
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Setup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord import rules_turn
from engines.warlord.actions import StartingArmy
from engines.warlord.content import Pack, deck_by_id, factions_of
from engines.warlord.packs import builtin, load_pack
from engines.warlord.rules_common import ev, find_in
from engines.warlord.rules_deck import army_error, validate_deck
from engines.warlord.state import CardInst, CharState, PlayerState, StartingArmyChoice, State

OPTIONS = {"react_prompts": ("auto", "stops"), "max_turns": None}


def validate_options(options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"react_prompts": "auto", "max_turns": 0}
    for key, value in options.items():
        if key not in OPTIONS:
            raise RuleError("warlord.err.unknown_option", option=key, known=", ".join(OPTIONS))
        if key == "react_prompts":
            if value not in ("auto", "stops"):
                raise RuleError("warlord.err.bad_option_value", option=key, value=str(value), allowed="auto, stops")
            out[key] = value
        else:
            try:
                n = int(value)
            except (TypeError, ValueError):
                raise RuleError("warlord.err.bad_option_value", option=key, value=str(value),
                                allowed="0-999") from None
            if not 0 <= n <= 999:
                raise RuleError("warlord.err.bad_option_value", option=key, value=str(value), allowed="0-999")
            out[key] = n
    return out


def pack_for(content: dict[str, Any] | None) -> Pack:
    return builtin() if content is None else load_pack(content, over_builtin=True)


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    if not 2 <= len(setup.seats) <= 4:
        raise RuleError("warlord.err.seats", n=len(setup.seats))
    pack = pack_for(setup.content)
    defs = {c.id: c for c in pack.cards}
    state = State(players=[], factions=list(pack.factions), loyalty_exempt=pack.loyalty_exempt,
                  options=validate_options(setup.options))
    events: list[Event] = []
    for i, seat in enumerate(sorted(setup.seats, key=lambda s: s.seat)):
        deck = deck_by_id(pack, str(seat.config.get("deck") or pack.decks[i % len(pack.decks)].id))
        validate_deck(pack, deck)
        player = PlayerState(seat=seat.seat, user_id=seat.user_id, name=seat.name, deck_id=deck.id)
        n = 0
        for cid, copies in deck.cards.items():
            state.cards_def[cid] = defs[cid].model_copy(deep=True)  # a game never shares a pack's objects
            for _ in range(copies):
                uid = f"s{seat.seat}c{n:02d}"
                state.cards[uid] = CardInst(uid=uid, card=cid, owner=seat.seat)
                player.deck_pool.append(uid)
                n += 1
        player.deck_pool.sort()
        state.players.append(player)
        events.append(ev("deck_chosen", seat=seat.seat, deck=deck.name, size=n))
    return state, events


def check_army(state: State, seat: int, action: StartingArmy) -> StartingArmyChoice:
    """starting-army: six different cards of your own deck forming a legal army."""
    player = state.player(seat)
    pool = list(player.deck_pool)
    picked: list[str] = []
    for ref in [action.warlord, *action.level1, *action.level2]:
        uid = find_in(state, [u for u in pool if u not in picked], ref, "starting-army")
        picked.append(uid)
    warlord, l1, l2 = picked[0], picked[1:4], picked[4:6]
    err = army_error(state.defn(warlord), [state.defn(u) for u in l1], [state.defn(u) for u in l2], state.factions)
    if err is not None:
        raise err
    return StartingArmyChoice(warlord=warlord, level1=l1, level2=l2)


def starting_army(state: State, seat: int, action: StartingArmy, dice: Dice) -> list[Event]:
    player = state.player(seat)
    if player.army_choice is not None:
        raise RuleError("warlord.err.already_chosen", rule="starting-army")
    player.army_choice = check_army(state, seat, action)
    c = player.army_choice
    events = [ev("army_chosen", seat=seat),
              ev("army_chosen_private", private_to=[seat], seat=seat,
                 cards=", ".join(state.name(u) for u in [c.warlord, *c.level1, *c.level2]))]
    return events + complete_setup(state, dice)


def complete_setup(state: State, dice: Dice) -> list[Event]:
    """Once every seat still in the game has chosen, the armies are revealed and turn 1 starts."""
    if state.phase != "setup" or not all(p.army_choice is not None for p in state.players if p.alive):
        return []
    return reveal_armies(state) + rules_turn.start_turn(state, dice)


def reveal_armies(state: State) -> list[Event]:
    """starting-army: all choices revealed together and placed in ranks 1, 2, 3, ready, unwounded."""
    events: list[Event] = []
    for p in state.players:
        c = p.army_choice
        if not p.alive or c is None:
            continue
        p.ranks = [list(c.level1), list(c.level2), [c.warlord]]
        for uid in [c.warlord, *c.level1, *c.level2]:
            p.deck_pool.remove(uid)
            state.chars[uid] = CharState(uid=uid, controller=p.seat, army_of=p.seat)
        p.warlord = c.warlord
        p.faction = (factions_of(state.defn(c.warlord), state.factions) or [""])[0]
        p.army_choice = None
        events.append(ev("army_revealed", seat=p.seat, warlord=state.name(c.warlord),
                         rank1=", ".join(state.name(u) for u in c.level1),
                         rank2=", ".join(state.name(u) for u in c.level2)))
    return events
