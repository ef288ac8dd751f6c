"""Summons (315) and the pending effects they create (314, 602.8c, 602.9).

A summon is a piece in ``state.pieces`` whose figurine copy carries ``summon`` (its kind)
and whose ``summoner`` names the piece that cast it, so movement, line of sight and
targeting work on it unchanged. What differs lives here:

* creatures and turrets join the timeline right after their summoner (315.3a, 315.5a);
* bombs take a wound and explode at the start of their summoner's turn (315.4d, 502.1a),
  and whenever they are K.O.; the Explosion becomes a pending effect (602.8c);
* traps are not obstacles (315.6c): they are left out of the board's occupancy and fire
  their Trigger when a character walks onto them, ends a move made by a spell's effect on
  them, or is summoned on them (315.6d); they then leave the board (315.6f);
* the number in brackets limits summons per team for creatures, per caster for mechanisms
  (315.7b/c); a K.O. summoner takes its summons with it, without any spell (315.8).

Explosions and triggers are spells cast by the summon: ``resolution`` runs them as steps 3 to 7
of 602 with no step 8 of their own (602.9d). This module only creates them as pending effects.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.square import Square
from engines.krosmaster.content import SummonKind, known
from engines.krosmaster.rules_board import Board, ev, label, numbered_label, sq
from engines.krosmaster.state import PendingEffect, PieceState, State

MECHANISMS = frozenset({SummonKind.BOMB, SummonKind.TURRET, SummonKind.TRAP})
IN_TIMELINE = frozenset({SummonKind.CREATURE, SummonKind.TURRET})  # 315.3a, 315.5a (not 315.4a, 315.6a)


def is_character(piece: PieceState) -> bool:
    """Krosmasters and creatures are characters (315.3); mechanisms are not (315.4-315.6)."""
    return piece.summon is None or piece.summon is SummonKind.CREATURE


def traps(state: State) -> dict[str, PieceState]:
    """Traps on the board by square label (at most one per square, 315.6c)."""
    return {p.pos: p for p in state.pieces.values() if p.summon is SummonKind.TRAP and p.pos and not p.ko}


def summons_in_play(state: State, template: str) -> list[PieceState]:
    return [p for p in state.pieces.values() if p.figurine.id == template and p.summon is not None and p.in_play]


def summon_limit(state: State, caster: PieceState, template: str, spell_max: int) -> tuple[int, int]:
    """(in play, allowed) for one more summon of ``template`` by ``caster`` (315.7b, 315.7c, 601.3d).

    Creatures count the whole team against the highest bracket number among the team's
    Krosmasters; mechanisms count this caster's own summons against its spell's number.
    """
    kind = state.summons[template].kind if template in state.summons else None
    live = summons_in_play(state, template)
    if kind is SummonKind.CREATURE:
        allowed = spell_max
        for piece in state.pieces.values():
            if piece.owner == caster.owner and piece.summon is None:
                for spell in piece.figurine.spells:
                    if spell.summon == template:
                        allowed = max(allowed, spell.summon_max)
        return sum(1 for p in live if p.owner == caster.owner), allowed
    return sum(1 for p in live if p.summoner == caster.id), spell_max


def can_summon(state: State, caster: PieceState, spell_summon: str | None, spell_max: int) -> bool:
    if spell_summon is None or spell_summon not in state.summons:
        return False
    count, allowed = summon_limit(state, caster, spell_summon, spell_max)
    return count < allowed


def square_ok(state: State, board: Board, template: str, square: Square) -> bool:
    """315.1a: a free square; 315.6c: never a second trap on one square."""
    if not board.is_free(square):
        return False
    kind = state.summons[template].kind if template in state.summons else None
    return not (kind is SummonKind.TRAP and label(square) in traps(state))


def check_summon(state: State, board: Board, caster: PieceState, spell_summon: str, spell_max: int,
                 spell_name: str, target: str) -> None:
    """601.3d and 315.1a as errors with rule numbers, for a player's chosen cast."""
    if spell_summon not in state.summons:
        raise RuleError("km.err.unknown_summon", summon=spell_summon, known=known(state.summons))
    count, allowed = summon_limit(state, caster, spell_summon, spell_max)
    if count >= allowed:
        raise RuleError("km.err.summon_limit", rule="315.7", spell=spell_name, count=count, limit=allowed)
    if not square_ok(state, board, spell_summon, sq(target.upper())):
        raise RuleError("km.err.summon_square", rule="315.1a", spell=spell_name, square=target.upper())


def _timeline_insert(state: State, caster: PieceState, pid: str) -> None:
    """315.3a/315.5a: right after the summoner, after the summons it already has there.

    The active player chooses the order in which several summons of one summoner play, each
    turn, when the summoner's turn ends (``rules_turn``); until then they keep summoning order.
    """
    timeline = state.player(caster.owner).timeline
    index = timeline.index(caster.id) + 1 if caster.id in timeline else len(timeline)
    while index < len(timeline) and state.pieces[timeline[index]].summoner == caster.id:
        index += 1
    timeline.insert(index, pid)


def place_summon(state: State, board: Board, caster: PieceState, template_id: str, square: Square) -> list[Event]:
    """Put one new summon into play (step 3 of its summon spell; 315.7a: one per cast, whatever the
    number in brackets). It has no level (315.1b), so its K.O. gives no GG."""
    template = state.summons[template_id]
    state.next_summon_id += 1
    pid = f"{caster.id}s{state.next_summon_id}"
    # 101.3: a label of at most three characters (``rules_board.numbered_label``), unique in the game;
    # summons already on the board keep theirs, older games' four-letter ones included.
    short = numbered_label(template.name, state.next_summon_id, {p.short for p in state.pieces.values()})
    piece = PieceState(id=pid, owner=caster.owner, figurine=template.to_figurine(), short=short, summoner=caster.id)
    state.pieces[pid] = piece
    here = label(square)
    trap = traps(state).get(here)
    if template.kind is SummonKind.TRAP:
        piece.pos = here  # 315.6c: not an obstacle, so not in the board's occupancy
    else:
        board.move_piece(piece, square)
    if template.kind in IN_TIMELINE:
        _timeline_insert(state, caster, pid)
    events = [ev("summoned", piece=pid, name=piece.short, summon=template.name, summon_it=template.name_it,
                 kind=template.kind.value,
                 caster=caster.id, caster_name=caster.short, square=here)]
    if trap is not None and template.kind is SummonKind.CREATURE:  # 315.6d; a bomb does not (315.6e)
        events.extend(spring_trap(state, trap, piece))
    return events


def spring_trap(state: State, trap: PieceState, victim: PieceState) -> list[Event]:
    """315.6d/f: the trap leaves the board at once; its Trigger waits to be resolved (602.4a)."""
    square = trap.pos
    vanish(state, trap)
    state.next_effect_id += 1
    state.triggered.append(PendingEffect(id=f"e{state.next_effect_id}", kind="trigger", source=trap.id,
                                         target=victim.id, square=square))
    return [ev("trap_sprung", piece=trap.id, name=trap.short, target=victim.id, target_name=victim.short,
               square=square)]


def check_traps(state: State, before: dict[str, str | None]) -> list[Event]:
    """315.6d/e: a character moved by a spell's effect springs a trap only where it ends."""
    events: list[Event] = []
    found = traps(state)
    if not found:
        return events
    for pid, pos in before.items():
        piece = state.pieces[pid]
        if piece.in_play and piece.pos != pos and piece.pos in found and is_character(piece):
            trap = found.pop(piece.pos)
            events.extend(spring_trap(state, trap, piece))
    return events


def positions(state: State) -> dict[str, str | None]:
    """Where the characters stand, to compare before and after an effect that moves them."""
    return {p.id: p.pos for p in state.pieces.values() if p.in_play and is_character(p)}


def vanish(state: State, piece: PieceState, board: Board | None = None) -> None:
    """Off the board without K.O. effects or GG (315.6f, 315.8); it keeps its timeline slot until purged."""
    if board is not None:
        board.remove_piece(piece)
    piece.pos = None
    piece.ko = True
    piece.wounds = 0
    piece.ap = piece.mp = piece.ap_tokens = piece.mp_tokens = 0
    piece.inspirations = []
    piece.turn_effects = []
    piece.ko_by = None


def on_knock_out(state: State, piece: PieceState, board: Board | None) -> list[Event]:
    """Called by 308.1a's K.O. before the piece leaves its square.

    A K.O. bomb casts its Explosion (315.4, 602.8c): pending until it can be resolved.
    A K.O. character's summons leave the board without casting anything (315.8).
    """
    events: list[Event] = []
    if piece.summon is SummonKind.BOMB and piece.pos is not None:
        state.next_effect_id += 1
        state.triggered.append(PendingEffect(id=f"e{state.next_effect_id}", kind="explosion", source=piece.id,
                                             target=piece.id, square=piece.pos))
    for other in state.pieces.values():
        if other.summoner == piece.id and not other.ko:
            vanish(state, other, board)
            state.triggered = [e for e in state.triggered if e.source != other.id]
            events.append(ev("summon_vanished", piece=other.id, name=other.short, summoner=piece.id,
                             summoner_name=piece.short))
    return events


def take_triggered(state: State) -> list[PendingEffect]:
    taken, state.triggered = state.triggered, []
    return taken


def bombs_of(state: State, pid: str) -> list[PieceState]:
    """315.4d: the bombs of a summoner still on the board, in the order they were summoned."""
    return [p for p in state.pieces.values() if p.summoner == pid and p.summon is SummonKind.BOMB and p.in_play]


def timeline_summons(state: State, pid: str) -> list[str]:
    """315.3a/315.5a: the creatures and turrets of ``pid`` in play, in their current timeline order."""
    timeline = state.player(state.pieces[pid].owner).timeline
    return [x for x in timeline if state.pieces[x].summoner == pid and state.pieces[x].in_play]


def put_next(state: State, pid: str, chosen: str) -> None:
    """315.3a: the active player picks which of ``pid``'s remaining summons plays next: it moves
    to the front of that summoner's summons still to play (the others keep their order)."""
    timeline = state.player(state.pieces[pid].owner).timeline
    pending = [x for x in state.summon_order if x in timeline]
    slots = sorted(timeline.index(x) for x in pending)
    ordered = [chosen, *[x for x in pending if x != chosen]]
    for slot, x in zip(slots, ordered, strict=True):
        timeline[slot] = x


def purge(state: State) -> None:
    """Forget summons that left the board, between player turns (315.7d: they may come back as new ones)."""
    gone = {pid for pid, p in state.pieces.items() if p.summon is not None and p.ko}
    if not gone:
        return
    for player in state.players:
        player.timeline = [pid for pid in player.timeline if pid not in gone]
    for pid in gone:
        del state.pieces[pid]
