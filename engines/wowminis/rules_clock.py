"""The clocks and the sequence of play (408, 500-502, 403.1, 501).

The clock loop runs when nothing is left on the resolution stack; ``step`` moves it forward by
one stage and returns, so the resolver can process any frames (trigger waves) it pushed:

``tick_start`` (500.2: start-of-tick wave) → ``match`` (500.3: who acts) → ``turn`` (501) →
``match`` … → ``tick_end`` (502.1: end-of-tick wave with VP locations) → ``tick_advance``
(A28 expiries, 502.2 refresh at tick 10, the master advances, A9 drag) → ``tick_start``.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis import rules_control
from engines.wowminis.rules_board import adjacent, allied, can_stop, char_at, ev, in_play, nearest_free
from engines.wowminis.rules_effects import clock_event, expire
from engines.wowminis.rules_moves import natural_moves
from engines.wowminis.rules_parties import free_for_all, spawn_points_of, tie_chooser
from engines.wowminis.rules_react import seat_order
from engines.wowminis.rules_stats import keywords
from engines.wowminis.rules_triggers import push, tick_wave
from engines.wowminis.state import CharState, Pending, PendingOption, State, TurnState, round_of, shown


def step(state: State) -> list[Event]:
    """Advance the clock loop by one stage (the stack is empty and nobody is being asked)."""
    if state.stage == "tick_start":
        return _tick_start(state)
    if state.stage in ("match", "first"):
        return _match(state)
    if state.stage == "tick_end":
        state.stage = "tick_advance"
        push(state, tick_wave(state, "end_of_tick"))  # 502.1, 704.2c: one wave with VP locations
        return [ev("tick_ending", tick=state.tick, round=state.round)]
    if state.stage == "tick_advance":
        return _tick_advance(state)
    if state.stage == "turn":
        return _maybe_end(state)
    return []


def _tick_start(state: State) -> list[Event]:
    """500.1/500.2: a new tick; its start-of-tick triggers resolve before any turn."""
    events = []
    if state.tick == 1:
        events.append(ev("round_started", round=state.round))  # 408.1c
    events.append(ev("tick_started", tick=state.tick, round=state.round))
    state.stage = "match"
    push(state, tick_wave(state, "start_of_tick"))
    return events


def matching(state: State) -> list[CharState]:
    """500.3: every character whose clock equals the master, in play or waiting to respawn."""
    return sorted((c for c in state.chars.values() if c.clock == state.master), key=lambda c: c.id)


def _match(state: State) -> list[Event]:
    """500.3a-c (and 101.4/A2 for the very first turn)."""
    found = matching(state)
    if not found:
        state.stage = "tick_end"  # 500.3a
        return []
    if state.turns_taken == 0:
        own = [c for c in found if c.controller == state.first_seat] or found
        return _ask_next(state, state.first_seat, own, "first_character")
    if len(found) == 1:
        return begin_turn(state, found[0])  # 500.3b
    # 500.3c/A8: one party owning them all picks; otherwise the first party clockwise from the active one
    # that owns a tied character, a team counting as one player (rules_parties.tie_chooser)
    chooser = tie_chooser(state, seat_order(state), {c.controller for c in found})
    return _ask_next(state, chooser, found, "next_character")


def _ask_next(state: State, seat: int, chars: list[CharState], kind: str) -> list[Event]:
    if len(chars) == 1:  # a question with one answer is not asked
        return begin_turn(state, chars[0])
    state.pending = Pending(kind=kind, seat=seat, options=[
        PendingOption(value=c.id, label_key="wowm.option.character",
                      params={"name": c.defn.name, "seat": c.controller, "in_play": c.pos is not None})
        for c in chars])
    return []


def option_names(options: list[PendingOption]) -> str:
    """The answers of a question as people read them (names, spaces), never the ids behind them: an
    error listing ``brannoc-1, elowen-1`` would show players words they cannot type back."""
    words = (o.params.get("name") or o.params.get("space") or o.params.get("card") or o.params.get("path")
             or o.params.get("order") or o.value for o in options)
    return ", ".join(str(word) for word in words)


def answer_next(state: State, value: str) -> list[Event]:
    pending = state.pending
    assert pending is not None
    if value not in [o.value for o in pending.options]:
        raise RuleError("wowm.err.bad_choice", rule="500.3c", value=value[:40], known=option_names(pending.options))
    state.pending = None
    return begin_turn(state, state.chars[value])


# --- a turn (501) ---------------------------------------------------------------------


def spawn_points(state: State, seat: int) -> list[str]:
    """406.3b/A33: the seat's side's spawn points and the neutral ones (a free-for-all: its own, 101.1)."""
    return spawn_points_of(state, seat)


def capture_spawn(state: State, c: CharState) -> list[Event]:
    """406.3b: a neutral spawn point may become one side's; how is the scenario's to say. With
    ``spawn_capture: end_of_turn`` a character that ends its turn on a neutral point makes it its
    controller's side's: from then on only that side spawns there (403.1), and it stays so."""
    if state.scenario.spawn_capture != "end_of_turn" or c.pos is None:
        return []
    if free_for_all(state):  # every point dealt to nobody is neutral there; it becomes this seat's own
        if c.pos not in spawn_points_of(state, c.controller) or c.pos in state.player(c.controller).spawns:
            return []
        state.player(c.controller).spawns.append(c.pos)
        return [ev("spawn_captured", char=c.id, name=c.defn.name, seat=c.controller, at=c.pos)]
    point = next((s for s in state.board.spawn_points if s.at == c.pos and s.side == "neutral"), None)
    if point is None:
        return []
    point.side = state.player(c.controller).side
    return [ev("spawn_captured", char=c.id, name=c.defn.name, seat=c.controller, at=point.at)]


def begin_turn(state: State, c: CharState) -> list[Event]:
    """501.1/501.2: spawn first if needed, the controller becomes active, start-of-turn checks."""
    state.turns_taken += 1
    state.active_seat = c.controller
    if state.player(c.controller).auto_pass == "my_turn":  # 701 note: the pre-set pass ends with its turn
        state.player(c.controller).auto_pass = "never"
    state.turn = TurnState(char=c.id, number=state.turns_taken)
    state.stage = "turn"
    events = [ev("turn_started", char=c.id, name=c.defn.name, seat=c.controller, tick=state.tick,
                 round=state.round)]
    events += expire(state, "start_of_next_turn", c.id)  # 708.3: "until the start of its next turn"
    if c.pos is None:
        points = spawn_points(state, c.controller)
        if len(points) == 1:
            return events + spawn(state, c, points[0])
        state.pending = Pending(kind="spawn_point", seat=c.controller, params={"char": c.defn.name}, options=[
            PendingOption(value=p, label_key="wowm.option.spawn", params={"space": p,
                                                                          "occupied": char_at(state, p) is not None})
            for p in points])
        return events
    return events + _start_checks(state, c)


def spawn(state: State, c: CharState, point: str) -> list[Event]:
    """403.1/403.1a: onto the chosen point; if a character stands there, the newcomer's natural
    move must come first, from the point; with no legal move it is placed on a nearest free space."""
    turn = state.turn
    assert turn is not None
    if char_at(state, point) is None:
        c.pos = point
        return [ev("spawned", char=c.id, name=c.defn.name, at=point), *_start_checks(state, c)]
    turn.spawn_from = point
    turn.must_move = True
    if natural_moves(state, c):
        return [ev("spawn_blocked", char=c.id, name=c.defn.name, at=point)]
    turn.spawn_from = None
    turn.must_move = False
    spaces = nearest_free(state, point, c)
    if len(spaces) == 1:
        return place(state, c, spaces[0])
    state.pending = Pending(kind="spawn_placement", seat=c.controller, params={"char": c.defn.name}, options=[
        PendingOption(value=s, label_key="wowm.option.space", params={"space": s}) for s in spaces])
    return []


def place(state: State, c: CharState, space: str) -> list[Event]:
    """403.1a/A14: placed instead of moving; the natural move is still unused."""
    if not can_stop(state, c, space):
        raise RuleError("wowm.err.occupied", rule="406.1", space=space)
    c.pos = space
    return [ev("spawned", char=c.id, name=c.defn.name, at=space), *_start_checks(state, c)]


def after_spawn_move(state: State, c: CharState) -> list[Event]:
    """Once the forced first move from an occupied spawn point is made (403.1a), the turn's
    start-of-turn checks run from where the character stands."""
    return _start_checks(state, c)


def _start_checks(state: State, c: CharState) -> list[Event]:
    """501.2/708.4: Stealth starts the turn if no enemy stands adjacent."""
    turn = state.turn
    if turn is None or c.pos is None or "stealth" not in keywords(state, c):
        return []
    if any(adjacent(c.pos, o.pos) and not allied(state, o.controller, c.controller) for o in in_play(state)):
        return []
    turn.stealthed = True
    return [ev("stealthed", char=c.id, name=c.defn.name)]


def _maybe_end(state: State) -> list[Event]:
    """A turn that can no longer go on (its character was destroyed, A10) ends by itself."""
    turn = state.turn
    if turn is not None and (turn.ended or turn.char not in state.chars):
        return end_turn(state)
    return []


def end_turn(state: State) -> list[Event]:
    """501.3b/501.3c: a turn that paid nothing still costs 1 tick; then the next 500.3 check."""
    turn = state.turn
    assert turn is not None
    c = state.chars.get(turn.char)
    events: list[Event] = []
    if c is not None and not turn.ended and c.clock == state.master:
        before = c.clock
        c.clock += 1  # 501.3b
        events.append(clock_event(state, c, before, "idle"))
    if c is not None and not turn.ended:
        events += capture_spawn(state, c)
    if rules_control.nested(state) is not None:  # 400.3c: a mind control's turn gives way to the one it interrupted
        events.append(ev("turn_ended", char=turn.char, name=c.defn.name if c else "", seat=state.active_seat))
        return events + rules_control.end_nested(state)
    events += expire(state, "end_of_turn")
    events.append(ev("turn_ended", char=turn.char, name=c.defn.name if c else "", seat=state.active_seat))
    state.turn = None
    state.stage = "match"
    return events


def start_controlled_turn(state: State, by: CharState, target: CharState, seat: int) -> list[Event]:
    """400.3: ``seat`` takes ``target`` and its nested turn begins (``rules_control``), with 501.2's
    start-of-turn checks. No "until the start of its next turn" effect ends here (400.3b)."""
    events = rules_control.take_control(state, by, target, seat)
    return events + _start_checks(state, target) if events else events


def _tick_advance(state: State) -> list[Event]:
    """A28 then 502.2: durations ending with tick 10 leave after its wave; at tick 10 every action
    card readies (set-aside forms untouched); the master advances and drags any clock behind (A9)."""
    events: list[Event] = []
    ending = state.tick
    if ending == 10:
        events += expire(state, "end_of_tick_10")
        count = 0
        for c in state.chars.values():
            for card in c.bar:
                if card.zone == "bar" and not card.ready:
                    card.ready = True
                    count += 1
        events.append(ev("cards_readied", count=count))
    events.append(ev("tick_ended", tick=ending, round=round_of(state.master)))
    state.master += 1
    for c in state.chars.values():
        if c.clock < state.master:  # A9: never left behind
            before = c.clock
            c.clock = state.master
            events.append(clock_event(state, c, before, "dragged"))
    state.stage = "tick_start"
    return events


def clock_summary(state: State) -> list[dict[str, object]]:
    """The timeline ``/wowm clock`` and the renderer show: each character's tick and offset."""
    return [{"char": c.id, "name": c.defn.name, "seat": c.controller, "tick": shown(c.clock),
             "ahead": c.clock - state.master, "in_play": c.pos is not None} for c in state.chars.values()]
