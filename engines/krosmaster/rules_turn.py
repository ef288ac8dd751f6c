"""Player turns (401-406) and piece turns (501-504), in the order they are played.

A player turn: tension roll (402), inspiration (403), refund (404), then each piece of the
timeline (405): its preliminary phase (502: "at the start of the turn" effects, then buffs
leave), its activation (503: bars refilled, actions), the end of its activation (504: "this
turn" effects end). Effects that need resolving (bombs at 502.1a) go through ``resolution``;
when that stops for a choice, the turn flow resumes from ``continue_after`` once it is made.
"""

from __future__ import annotations

from itertools import product

from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.krosmaster_die import face_from_d6, possible_faces
from engines.krosmaster import resolution, rules_summons
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_multiplayer import next_seat, tension_double
from engines.krosmaster.rules_powers_more import collector_bonus
from engines.krosmaster.rules_rewards import expire_buffs, on_turn_end, on_turn_start
from engines.krosmaster.rules_stats import end_turn_effects, max_stat
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
    # 106.1: six faces; 106.2a: critical, armor, lock and dodge stay as rolled; 106.2b/106.2c: the
    # player turns the flexible ones (critical/dodge, Dofus).
    state.phase = "tension_faces"
    return events


def settle_tension(state: State, faces: list[str], dice: Dice) -> list[Event]:
    """402.1: a double costs every player one GG; then the dice become inspiration (403)."""
    events = [ev("tension_faces", seat=state.active_seat, faces=faces)]
    state.tension_options = []
    if faces[0] == faces[1] and state.multi is not None:  # 702.6: players pick who loses a GG
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
    """403.1-403.2: each die may go on one of the active player's Krosmasters, giving the power of
    its face (403.1a critical, 403.1b armor, 403.1c dodge, 403.1d lock: ``PieceState.powers``), in
    force at once (314.2c)."""
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
    """404.1: one kama back for a single die placed, 404.2: three for none (from the reserve, 103.4)."""
    refund = {0: 3, 1: 1}.get(placed, 0)
    player = state.player(state.active_seat)
    player.kamas += refund
    state.inspiration_dice = []
    state.tension = []
    events = [ev("refund", seat=player.seat, kamas=refund, total=player.kamas)] if refund else []
    return events + next_piece(state, dice)


def next_piece(state: State, dice: Dice) -> list[Event]:
    """405.1/504.2: the next piece of the timeline still in play starts its turn, or the turn ends.

    Its preliminary phase comes first (502.1a): its bombs explode; when the active player must
    order their Explosions the flow stops here and ``continue_after`` picks it up again.
    """
    timeline = state.player(state.active_seat).timeline
    start = timeline.index(state.active_piece) + 1 if state.active_piece in timeline else 0
    events: list[Event] = []
    for pid in timeline[start:]:
        piece = state.pieces[pid]
        if piece.in_play:  # 308.1b: K.O. pieces keep their place but have no turn
            state.active_piece = pid  # 501.1: it is the active piece from its preliminary phase on
            events.extend(resolution.start_of_turn(state, pid, dice))
            if state.phase == "over" or state.cast is not None:
                return events
            if piece.in_play:
                return events + activate(state, pid)
    return events + end_player_turn(state, dice)


def activate(state: State, pid: str) -> list[Event]:
    """502.1b then 503.1: buffs leave, the bars fill from the maxima as modified (309.1, 309.2) and
    the +/- tokens (309.4a for AP, 309.4b for MP), then the tokens are discarded.

    405.2: a piece's turn is this preliminary phase, its activation (503.2: any actions, in any
    order, while the points last) and the end of its activation (``end_activation``)."""
    piece = state.pieces[pid]
    state.active_piece = pid
    state.phase = "turn"
    expired = expire_buffs(state, piece)  # 502.1b
    piece.ap = max(0, max_stat(piece, "ap") + piece.ap_tokens + piece.ap_frozen)  # 306.3c, 309.8
    piece.mp = max(0, max_stat(piece, "mp") + piece.mp_tokens + piece.mp_frozen)
    piece.ap_tokens = piece.mp_tokens = piece.ap_frozen = piece.mp_frozen = 0
    piece.used_turn = []
    piece.used_targets = {}
    piece.locked = False
    return [*expired, ev("piece_turn", piece=pid, name=piece.short, ap=piece.ap, mp=piece.mp)]


def end_activation(state: State, dice: Dice) -> list[Event]:
    """504 and 309.3/503.9: unspent points are lost, never passed on; "this turn" effects end
    (504.1); then 315.3a."""
    events: list[Event] = []
    if state.active_piece is not None:
        piece = state.pieces[state.active_piece]
        events.extend(collector_bonus(state, piece))  # 307.34
        piece.ap = piece.mp = 0
        piece.used_turn = []
        piece.used_targets = {}
        events.extend(end_turn_effects(state))  # 504.1: their order cannot matter (rules_stats)
        events.append(ev("piece_done", piece=piece.id, name=piece.short))
        waiting = rules_summons.timeline_summons(state, piece.id)
        if len(waiting) > 1:  # 315.3a/315.5a: the active player orders this piece's summons
            state.summon_order = waiting
            state.phase = "order_effects"
            return events
    return events + next_piece(state, dice)


def summons_decision(state: State) -> Decision | None:
    """315.3a/315.5a: which of the summoner's creatures and turrets plays next."""
    if not state.summon_order or state.phase != "order_effects":
        return None
    return Decision(seats=[state.active_seat], kind="order_summons", prompt_key="km.ask.order_summons",
                    params={"summoner": state.pieces[state.active_piece or ""].short if state.active_piece else ""},
                    options=[Option(value=pid, label_key="km.option.summon",
                                    params={"name": state.pieces[pid].short, "summon": state.pieces[pid].figurine.name,
                                            "summon_it": state.pieces[pid].figurine.name_it,
                                            "square": state.pieces[pid].pos})
                             for pid in state.summon_order])


def order_summon(state: State, value: str, dice: Dice) -> list[Event]:
    """315.3a: ``value`` plays next; with one left the order is settled and play goes on."""
    if value not in state.summon_order:
        raise RuleError("km.err.bad_choice", rule="315.3a", value=value,
                        known=", ".join(state.pieces[p].short for p in state.summon_order))
    summoner = state.active_piece or ""
    rules_summons.put_next(state, summoner, value)
    state.summon_order.remove(value)
    events = [ev("summon_ordered", piece=value, name=state.pieces[value].short, summoner=summoner,
                 summoner_name=state.pieces[summoner].short if summoner in state.pieces else "")]
    if len(state.summon_order) > 1:
        return events
    state.summon_order = []
    state.phase = "turn"
    return events + next_piece(state, dice)


def end_player_turn(state: State, dice: Dice) -> list[Event]:
    """406.1: the opponent becomes the active player."""
    state.active_piece = None
    events = [*on_turn_end(state, dice), ev("turn_ended", seat=state.active_seat)]  # 306.2
    for piece in state.pieces.values():  # 314.2: losses of powers last until the end of the player turn
        piece.powers_lost = False
    return events + start_player_turn(state, next_seat(state), dice)  # 702.1: 1-2-3-4


def after_action(state: State, dice: Dice) -> list[Event]:
    """If the active piece left play during its own action (a wound cost, a counterattack), move on."""
    if state.phase != "turn" or state.active_piece is None:
        return []
    if not state.pieces[state.active_piece].in_play:
        return next_piece(state, dice)
    return []


def continue_after(state: State, then: str, dice: Dice) -> list[Event]:
    """Resume the turn flow once a resolution it started is over (``CastContext.then``).

    ``turn``: after an action of the active piece; ``activate:<piece>``: after that piece's
    "start of the turn" effects (502.1a), its activation (or the next piece if it left play).
    """
    if state.phase == "over":
        return []
    if then.startswith("activate:"):
        pid = then.split(":", 1)[1]
        state.active_piece = pid
        if state.pieces[pid].in_play:
            return activate(state, pid)
        return next_piece(state, dice)
    return after_action(state, dice)
