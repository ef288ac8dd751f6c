"""The turn (turn-structure): ready → draw → initiative → orders, until one player remains.

Ready (ready-phase): every card turns one step upright. Draw (draw-phase): every seat secretly
chooses discards, revealed together, then draws up to its hand size; a full hand draws nothing and
is not forced to discard; an empty deck is never reshuffled. Initiative (initiative-phase): each
living Warlord rolls a d20, tied leaders reroll among themselves. Orders (order-phase, passing): one
order at a time in play order; the turn ends the moment every living player has passed in a row.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import roll_warlord
from engines.warlord.rules_common import ev, find_in, layered
from engines.warlord.rules_windows import open_window
from engines.warlord.state import Orientation, State

UNROTATE: dict[Orientation, Orientation] = {"ready": "ready", "spent": "ready", "stunned": "spent"}


def start_turn(state: State, dice: Dice) -> list[Event]:
    """A new turn: "until end of turn" effects are gone, then the ready phase and the draw decision."""
    state.turn += 1
    state.phase = "draw"
    state.attack = None
    state.stack = []
    state.order_seat = None
    state.consecutive_passes = 0
    events = [ev("turn_started", turn=state.turn)]
    for c in state.chars.values():  # ready-phase: stunned → spent → ready; wounds stay
        c.state = UNROTATE[c.state]
    for i in state.items.values():
        i.state = UNROTATE[i.state]
    events.append(ev("readied", turn=state.turn))
    for p in state.players:
        p.discard_choice = None
    return events


def holds_cards(state: State, seat: int) -> bool:
    """Whether a seat's hand holds a card; a hand's size is public, so this is known in every view."""
    player = state.player(seat)
    return bool(player.hand or player.hand_count)


def choosing_discards(state: State) -> list[int]:
    """draw-phase: the seats still to choose their discards. An empty hand can only discard nothing, and its
    size is public, so while another hand holds a card it is never asked: asking told nothing and made the
    others wait (a playtest met the question every turn for a player who had played out their hand). When no
    hand holds a card (turn 1: no opening hand) every seat is asked in public, and the table answers it."""
    alive = [p for p in state.players if p.alive]
    holders = [p for p in alive if holds_cards(state, p.seat)]
    return [p.seat for p in holders or alive if p.discard_choice is None]


def check_discard(state: State, seat: int, refs: list[str]) -> list[str]:
    player = state.player(seat)
    out: list[str] = []
    for ref in refs:
        out.append(find_in(state, [u for u in player.hand if u not in out], ref, "draw-phase"))
    return out


def draw_discard(state: State, seat: int, refs: list[str], dice: Dice) -> list[Event]:
    """draw-phase: a secret discard choice; when all seats have chosen, discard and draw."""
    player = state.player(seat)
    if player.discard_choice is not None:
        raise RuleError("warlord.err.already_chosen", rule="draw-phase")
    empty = not holds_cards(state, seat)  # only asked when no hand holds a card: "nothing" was its one answer
    player.discard_choice = check_discard(state, seat, refs)
    events = [ev("discard_chosen", seat=seat, **({"empty": True} if empty else {}))]
    if not choosing_discards(state):  # every hand that holds a card has chosen (empty hands discard nothing)
        events += finish_draw(state, dice)
    return events


def draw_cards(state: State, seat: int, n: int, dice: Dice) -> list[str]:
    """Draw = the top card when some are known on top, else a pick from the unordered pool."""
    player = state.player(seat)
    drawn: list[str] = []
    for _ in range(n):
        if player.deck_top:
            uid = player.deck_top.pop(0)
        elif player.deck_pool:
            uid = player.deck_pool.pop(dice.pick(len(player.deck_pool)))
        else:
            break  # deck-building: an empty deck is never reshuffled
        player.hand.append(uid)
        drawn.append(uid)
    return drawn


def finish_draw(state: State, dice: Dice) -> list[Event]:
    events: list[Event] = []
    for p in state.players:
        if not p.alive:
            continue
        chosen = p.discard_choice or []
        for uid in chosen:
            p.hand.remove(uid)
            p.discard.append(uid)
        if chosen:
            events.append(ev("discarded", seat=p.seat, cards=", ".join(state.name(u) for u in chosen)))
        p.discard_choice = None
        drawn = draw_cards(state, p.seat, max(0, p.hand_size - len(p.hand)), dice)
        events.append(ev("drew", seat=p.seat, n=len(drawn), draws=dice.take_picked()))
        if drawn:
            events.append(ev("drew_cards", private_to=[p.seat], seat=p.seat,
                             cards=", ".join(state.name(u) for u in drawn)))
    events += roll_initiative(state, dice)
    return events


def initiative_bonus(state: State, seat: int) -> int:
    warlord = state.player(seat).warlord
    if warlord is None or warlord not in state.chars:
        return 0
    return layered(0, state.chars[warlord].mods, "initiative")


def roll_initiative(state: State, dice: Dice) -> list[Event]:
    """initiative-phase: d20 + modifiers per living Warlord; tied leaders reroll until one leads.

    A natural 20 counts as 20 and a natural 1 as 1 (dice: no threshold, bonuses still apply). Then
    the ``after_initiative`` reaction window opens (Ill Omen)."""
    state.initiative_rolls = []
    winner, events = _roll_until_one(state, state.living(), dice)
    events += _set_order(state, winner)
    state.phase = "orders"
    state.consecutive_passes = 0
    open_window(state, "after_initiative")
    return events


def _roll_until_one(state: State, contenders: list[int], dice: Dice) -> tuple[int, list[Event]]:
    events: list[Event] = []
    while True:
        rolls = {s: roll_warlord(dice, initiative_bonus(state, s)).total for s in contenders}
        state.initiative_rolls.append({str(s): v for s, v in rolls.items()})
        events.append(ev("initiative_rolled", rolls=dice.take_drawn(),
                         results=", ".join(f"{state.player(s).name} {v}" for s, v in rolls.items())))
        best = max(rolls.values())
        contenders = [s for s, v in rolls.items() if v == best]
        if len(contenders) == 1:
            return contenders[0], events


def _set_order(state: State, winner: int) -> list[Event]:
    living = state.living()
    k = living.index(winner)
    state.initiative = living[k:] + living[:k]  # winner, then clockwise
    state.order_seat = winner
    return [ev("initiative_won", seat=winner)]


def initiative_totals(state: State) -> dict[int, int]:
    """Each seat's latest initiative total (a later round or a react's change overrides earlier ones)."""
    totals: dict[int, int] = {}
    for rnd in state.initiative_rolls:
        totals.update({int(s): v for s, v in rnd.items()})
    return {s: v for s, v in totals.items() if state.player(s).alive}


def reevaluate_initiative(state: State, seat: int, amount: int, dice: Dice) -> list[Event]:
    """A react changed a total after the rolls (Ill Omen): the highest total now wins; tied leaders
    reroll among themselves as in the phase itself (initiative-phase)."""
    totals = initiative_totals(state)
    totals[seat] = totals.get(seat, 0) + amount
    state.initiative_rolls.append({str(seat): totals[seat]})
    events = [ev("initiative_changed", seat=seat, total=totals[seat])]
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    winner = leaders[0]
    if len(leaders) > 1:
        winner, more = _roll_until_one(state, leaders, dice)
        events += more
    return events + _set_order(state, winner)


def next_seat(state: State, seat: int) -> int:
    """The next living seat in play order after ``seat``."""
    order = [s for s in state.initiative if state.player(s).alive]
    if seat not in order:
        return order[0]
    return order[(order.index(seat) + 1) % len(order)]


def order_given(state: State, seat: int) -> None:
    """order-phase: any order resets the pass counter; the rotation moves on."""
    state.consecutive_passes = 0
    state.order_seat = next_seat(state, seat)


def pass_order(state: State, seat: int, dice: Dice) -> list[Event]:
    """passing: counts toward the run of passes; the turn ends when every living player passed in a row."""
    state.consecutive_passes += 1
    events = [ev("passed", seat=seat)]
    if state.consecutive_passes >= len(state.living()):
        events += end_turn(state, dice)
    else:
        state.order_seat = next_seat(state, seat)
    return events


def end_turn(state: State, dice: Dice) -> list[Event]:
    """End of turn: "until end of turn" modifiers expire, once-per-turn uses reset, next turn begins."""
    for c in state.chars.values():
        c.mods = [m for m in c.mods if m.until not in ("turn", "strike")]
        c.used = []
        c.non_stealth_action = False
    for p in state.players:
        p.yield_until = "none"
    state.reform_free = []
    events = [ev("turn_ended", turn=state.turn)]
    limit = int(state.options.get("max_turns") or 0)
    if limit and state.turn >= limit:
        state.phase = "over"
        state.winners = []
        state.end_reason = "max_turns"
        return [*events, ev("game_drawn", turn=state.turn)]
    return events + start_turn(state, dice)
