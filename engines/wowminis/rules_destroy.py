"""Destruction (403.2), its scoring (403.2c) and winning (102).

``check`` runs whenever the rules allow destruction: after a damage step, after an attack's
damage (602.1a) and after a wave (704.2c). Every character at 0 health or less goes together, in
403.2a's order: on-destroy triggers (read now, resolved as the next wave), off the map, buffs
and counters cleared, its pets removed (not destroyed), the form ended (A15); then 403.2b's
clock +2 and health reset, and the opponent scores 4 VP (8 for a legendary, A3/A11). In a scenario
with permanent death (403.1, ``respawn: false``) the character leaves the game instead of waiting to respawn.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis import rules_control
from engines.wowminis.rules_board import ev, in_play
from engines.wowminis.rules_effects import LAP, clear_character, clock_event
from engines.wowminis.rules_parties import kill_scorer, standings
from engines.wowminis.rules_summons import end_form, remove_pet
from engines.wowminis.rules_triggers import destroyed_wave, push, wave
from engines.wowminis.state import CharState, PendingEffect, PlayerState, State, StepsFrame


def check(state: State) -> list[Event]:
    """403.2: destroy everything whose health reached 0, score it, then look for a winner."""
    if state.phase == "over":
        return []
    events: list[Event] = []
    for totem in [t for t in state.totems.values() if t.damage >= t.defn.health]:
        del state.totems[totem.id]  # 303.3: destroyed at once, never respawns
        events.append(ev("totem_destroyed", totem=totem.id, name=totem.defn.name))
    dead = [c for c in in_play(state) if c.health <= 0]
    if not dead:
        return events
    # 107.1: the active player's dead first, then clockwise
    seats = sorted(p.seat for p in state.players)
    start = seats.index(state.active_seat) if state.active_seat in seats else 0
    ring = seats[start:] + seats[:start]
    dead.sort(key=lambda c: (ring.index(c.controller) if c.controller in ring else len(ring), c.id))
    pending: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for c in dead:  # 400.3c/A10: a controlled character's turn ends with it, so it is destroyed as its owner's
        events += rules_control.on_destroyed(state, c)
    for c in dead:
        effects, steps = destroyed_wave(state, c)
        pending += effects
        follow += steps
    for c in dead:
        if c.id in state.chars:  # a pet may already be gone with its master
            events += _destroy(state, c)
    push(state, wave(state, pending, follow))
    return events + check_victory(state)


def _destroy(state: State, c: CharState) -> list[Event]:
    events = [ev("destroyed", char=c.id, name=c.defn.name, seat=c.controller, at=c.pos or "")]
    events += end_form(state, c)  # A15
    c.pos = None
    events += clear_character(state, c)
    for pet in [p for p in state.chars.values() if p.kind == "pet" and p.master_id == c.id]:
        events += remove_pet(state, pet, "master_destroyed")
    if state.turn is not None and state.turn.char == c.id:
        state.turn.ended = True  # A10: its turn ends at once, with no 501.3b tick
    if c.kind == "pet":  # 304.2: no respawn, no VP
        del state.chars[c.id]
        return events
    sc = state.scenario
    if not sc.respawn:  # 403.1: a scenario with permanent death: it never comes back, so it leaves the game
        del state.chars[c.id]
        return [*events, ev("fallen", char=c.id, name=c.defn.name, seat=c.controller), *_score_kill(state, c)]
    before = c.clock
    c.clock = min(state.master + LAP, c.clock + sc.death_clock_penalty)  # 403.2b, A10
    if c.clock != before:
        events.append(clock_event(state, c, before, "destroyed"))
    c.health = c.defn.health  # 403.2b: reset to the printed health
    return events + _score_kill(state, c)


def _score_kill(state: State, c: CharState) -> list[Event]:
    """403.2c: the kill's VP, to the opponent of its controller (A11); with several enemy parties, to the
    last enemy who hurt it (``rules_parties.kill_scorer``), or to nobody."""
    sc = state.scenario
    points = sc.vp_kill_legendary if c.defn.legendary else sc.vp_kill
    seat = kill_scorer(state, c)
    c.last_hit = None  # out of play: a new life starts with no one's damage on it
    if seat is None or not points:
        return [ev("kill_unscored", name=c.defn.name)] if points else []
    p = state.player(seat)
    p.vp += points
    return [ev("vp", seat=p.seat, amount=points, total=p.vp, goal=p.goal, cause="kill",
               cause_key="wowm.cause.kill", name=c.defn.name)]


def check_victory(state: State) -> list[Event]:
    """102.1/102.2: VP reaching the goal wins; simultaneous arrivals go by margin, then by Honor
    total, then sudden death (the first player strictly ahead in VP wins). With permanent death
    (403.1) a party can run out of characters: see ``_last_standing``."""
    if state.phase == "over":
        return []
    players = [p for p in state.players if not p.resigned]
    return _by_vp(state, players) or _last_standing(state, players)


def _last_standing(state: State, players: list[PlayerState]) -> list[Event]:
    """403.1 (permanent death): the seed does not say what happens to a player whose characters are all
    gone for good. Reading: he can never act again, so he is out; the last player with a character wins.
    If the last characters of everyone fall together, the most VP wins (a tie shares the win)."""
    if state.scenario.respawn:
        return []
    parties = standings(state, players)  # a team stands while one of its members has a character
    standing = [u for u in parties if any(c.owner in u.seats and c.kind == "hero" for c in state.chars.values())]
    if len(standing) == len(parties):
        return []
    if len(standing) == 1:
        return game_over(state, list(standing[0].seats), "last_standing")
    if not standing:
        best = max(u.vp for u in parties)
        return game_over(state, [s for u in parties if u.vp == best for s in u.seats], "last_standing")
    return []


def _by_vp(state: State, players: list[PlayerState]) -> list[Event]:
    """102.1/102.2 as above, party by party (a team's VP, goal and Honor added up, rules_parties): any
    number of parties may arrive together; the sudden death is won by a party ahead of every other."""
    parties = standings(state, players)
    if not parties:
        return []
    if state.sudden_death:
        best_vp = max(u.vp for u in parties)
        leaders = [u for u in parties if u.vp == best_vp]
        return game_over(state, list(leaders[0].seats), "sudden_death") if len(leaders) == 1 else []
    reached = [u for u in parties if u.vp >= u.goal]
    if not reached:
        return []
    if len(reached) == 1:
        return game_over(state, list(reached[0].seats), "honor")
    best = max((u.vp - u.goal, u.honor) for u in reached)  # 102.2: margin over the goal, then Honor
    top = [u for u in reached if (u.vp - u.goal, u.honor) == best]
    if len(top) == 1:
        return game_over(state, list(top[0].seats), "tiebreak")
    state.sudden_death = True
    return [ev("sudden_death", vp=best[0] + top[0].goal)]


def game_over(state: State, winners: list[int], reason: str) -> list[Event]:
    """The game ends at once; nothing left on the stack resolves."""
    state.phase = "over"
    state.winners = winners
    state.end_reason = reason
    rules_control.release_all(state)  # 400.3c: a nested turn cut short by the end still gives its character back
    state.stack = []
    state.pending = None
    state.turn = None
    events = []
    for seat in winners:
        p = state.player(seat)
        events.append(ev("game_won", seat=seat, vp=p.vp, goal=p.goal, reason=reason,
                         reason_key=f"wowm.end.{reason}"))
    return events
