"""Player turns (401-406) and piece turns (501-504)."""

from __future__ import annotations

from itertools import product

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.krosmaster_die import face_from_d6, possible_faces
from engines.krosmaster import rules_summons
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_powers_more import collector_bonus
from engines.krosmaster.rules_rewards import expire_buffs, on_turn_end, on_turn_start, stat_bonus
from engines.krosmaster.rules_victory import check_victory, last_gg_lost
from engines.krosmaster.state import Inspiration, State


def start_player_turn(state: State, seat: int, dice: Dice) -> list[Event]:
    """401.3: tension roll, inspiration, refund, then the pieces in timeline order."""
    state.turn_number += 1
    state.active_seat = seat
    state.active_piece = None
    rules_summons.purge(state)  # summons that left the board free their ids and timeline slots
    events = [ev("turn_started", seat=seat, turn=state.turn_number), *on_turn_start(state, dice)]  # 306.2
    for piece in state.pieces.values():  # 403.3: this player's dice come back now
        piece.inspirations = [i for i in piece.inspirations if i.seat != seat]
    if state.turn_number == 1:  # 402.2: no tension roll on the first player's first turn
        state.inspiration_dice = []
        return events + finish_inspiration(state, 0, dice)
    raw = [face_from_d6(v) for v in dice.roll_many(2, 6, kind="krosmaster", by=seat, purpose="tension")]  # 402.1
    state.tension = [str(f) for f in raw]
    events.append(ev("tension_rolled", rolls=dice.take_drawn(), seat=seat, faces=state.tension))
    combos = sorted({(str(a), str(b)) for a, b in product(possible_faces(raw[0]), possible_faces(raw[1]))})
    if len(combos) == 1:
        return events + settle_tension(state, list(combos[0]), dice)
    state.tension_options = [list(c) for c in combos]
    state.phase = "tension_faces"  # 106.2b/c: the player turns the flexible faces
    return events


def settle_tension(state: State, faces: list[str], dice: Dice) -> list[Event]:
    """402.1: a double costs every player one GG; then the dice become inspiration (403)."""
    events = [ev("tension_faces", seat=state.active_seat, faces=faces)]
    state.tension_options = []
    if faces[0] == faces[1] and state.multi is not None:  # 702.6: players pick who loses a GG
        from engines.krosmaster.rules_multiplayer import tension_double

        events.append(ev("tension_double", face=faces[0]))
        events.extend(tension_double(state))
    elif faces[0] == faces[1]:
        emptied = []
        for player in state.players:
            if player.gg > 0:
                player.gg -= 1
                state.gg_lost += 1
                if player.gg == 0:
                    emptied.append(player.seat)
        events.append(ev("tension_double", face=faces[0]))
        events.extend(last_gg_lost(state, emptied, "tension"))  # 402.1: whoever loses its last GG this way loses
        if state.phase != "over":
            events.extend(check_victory(state))
        if state.phase == "over":
            return events
    state.inspiration_dice = list(faces)
    state.phase = "inspiration"
    return events


def inspire(state: State, seat: int, placements: list[tuple[int, str]], dice: Dice) -> list[Event]:
    """403.1-403.2: each die may go on one of the active player's Krosmasters."""
    used: set[int] = set()
    events: list[Event] = []
    for die, pid in placements:
        if die in used or die >= len(state.inspiration_dice):
            raise RuleError("km.err.bad_die", rule="403.2", die=die)
        piece = state.pieces.get(pid)
        if piece is None or piece.owner != seat or not piece.in_play or piece.summon is not None:
            raise RuleError("km.err.not_your_piece", rule="403.1", piece=pid)
        used.add(die)
    for die, pid in placements:
        face = state.inspiration_dice[die]
        piece = state.pieces[pid]
        piece.inspirations.append(Inspiration(face=face, seat=seat))  # type: ignore[arg-type]
        events.append(ev("inspired", piece=pid, name=piece.short, face=face))
    return events + finish_inspiration(state, len(placements), dice)


def finish_inspiration(state: State, placed: int, dice: Dice) -> list[Event]:
    """404: one kama back for a single die placed, three for none."""
    refund = {0: 3, 1: 1}.get(placed, 0)
    player = state.player(state.active_seat)
    player.kamas += refund
    state.inspiration_dice = []
    state.tension = []
    events = [ev("refund", seat=player.seat, kamas=refund, total=player.kamas)] if refund else []
    return events + next_piece(state, dice)


def next_piece(state: State, dice: Dice) -> list[Event]:
    """405.1/504.2: activate the next piece of the timeline still in play, or end the turn."""
    timeline = state.player(state.active_seat).timeline
    start = timeline.index(state.active_piece) + 1 if state.active_piece in timeline else 0
    events: list[Event] = []
    for pid in timeline[start:]:
        piece = state.pieces[pid]
        if piece.in_play:  # 308.1b: K.O. pieces keep their place but have no turn
            events.extend(rules_summons.start_of_turn(state, pid, dice))  # 502.1a: bombs go off first
            if state.phase == "over":
                return events
            if piece.in_play:
                return events + activate(state, pid)
    return events + end_player_turn(state, dice)


def activate(state: State, pid: str) -> list[Event]:
    """502-503.1: refill the bars from the printed maxima adjusted by tokens (309.4)."""
    piece = state.pieces[pid]
    state.active_piece = pid
    state.phase = "turn"
    expired = expire_buffs(state, piece)  # 502.1b
    piece.ap = max(0, piece.figurine.ap + stat_bonus(piece, "ap") + piece.ap_tokens + piece.ap_frozen)  # 306.3c, 309.8
    piece.mp = max(0, piece.figurine.mp + stat_bonus(piece, "mp") + piece.mp_tokens + piece.mp_frozen)
    piece.ap_tokens = piece.mp_tokens = piece.ap_frozen = piece.mp_frozen = 0
    piece.used_turn = []
    piece.used_targets = {}
    piece.locked = False
    return [*expired, ev("piece_turn", piece=pid, name=piece.short, ap=piece.ap, mp=piece.mp)]


def end_activation(state: State, dice: Dice) -> list[Event]:
    """504 and 309.3: unspent points are lost, "this turn" effects end."""
    events: list[Event] = []
    if state.active_piece is not None:
        piece = state.pieces[state.active_piece]
        events.extend(collector_bonus(state, piece))  # 307.34
        piece.ap = piece.mp = 0
        piece.used_turn = []
        piece.used_targets = {}
        events.append(ev("piece_done", piece=piece.id, name=piece.short))
    return events + next_piece(state, dice)


def end_player_turn(state: State, dice: Dice) -> list[Event]:
    """406.1: the opponent becomes the active player."""
    state.active_piece = None
    events = [*on_turn_end(state, dice), ev("turn_ended", seat=state.active_seat)]  # 306.2
    for piece in state.pieces.values():  # 314.2: losses of powers last until the end of the player turn
        piece.powers_lost = False
    from engines.krosmaster.rules_multiplayer import next_seat

    return events + start_player_turn(state, next_seat(state), dice)  # 702.1: 1-2-3-4


def after_action(state: State, dice: Dice) -> list[Event]:
    """If the active piece left play during its own action (a wound cost), move on."""
    if state.phase != "turn" or state.active_piece is None:
        return []
    if not state.pieces[state.active_piece].in_play:
        return next_piece(state, dice)
    return []

