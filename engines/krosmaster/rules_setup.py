"""Starting a game (103): teams, first player, GG, sides, deployment, fight-start powers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster.content import Figurine, Pack, pack_for
from engines.krosmaster.rules_board import Board, ev, sq
from engines.krosmaster.rules_effects import add_tokens, place_wounds
from engines.krosmaster.rules_rewards import deal
from engines.krosmaster.rules_team import validate_team
from engines.krosmaster.rules_turn import start_player_turn
from engines.krosmaster.rules_victory import ko_check
from engines.krosmaster.state import BoardState, PieceState, PlayerState, State

FORMATS = ("constructed", "limited")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}

# 103.5b: GG per player by the sum of both teams' levels, then GG stolen by level gap.
LIMITED_GG = ((11, 3), (15, 4), (19, 5), (24, 6))
LIMITED_STEAL = ((0, 0), (2, 1), (5, 2))


def validate_options(options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
    """Normalize lobby options; unknown keys are refused so typos do not pass silently."""
    pack = pack_for(content)
    allowed = {"format", "arena", "sides", "starting_gg", "rewards", "mode", "scenery"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise RuleError("km.err.unknown_option", option=unknown[0])
    fmt = str(options.get("format", "constructed")).lower()
    if fmt not in FORMATS:
        raise RuleError("km.err.bad_format", rule="101", value=fmt)
    arena = str(options.get("arena", pack.arenas[0].id if pack.arenas else ""))
    pack.arena(arena)
    sides = str(options.get("sides", "choose")).lower()
    if sides not in ("choose", "fixed"):
        raise RuleError("km.err.bad_sides", rule="103.2", value=sides)
    result: dict[str, Any] = {"format": fmt, "arena": arena, "sides": sides}
    if options.get("mode") is not None:  # section 7; checked against the player count at start
        mode = str(options["mode"]).strip().lower()
        if mode not in ("duel", "ffa", "teams"):
            raise RuleError("km.err.bad_mode", rule="701.1", value=mode)
        result["mode"] = mode
    # A house option: demonic rewards (306) are on unless a table turns them off.
    rewards = str(options.get("rewards", "on")).strip().lower()
    if rewards not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
        raise RuleError("km.err.bad_rewards_option", value=rewards)
    if rewards in ("off", "false", "no", "0"):
        result["rewards"] = "off"
    if options.get("scenery") is not None:  # 313.7: optional destructible scenery
        scenery = str(options["scenery"]).strip().lower()
        if scenery not in ("destructible", "fixed"):
            raise RuleError("km.err.bad_scenery_option", rule="313.7", value=scenery)
        if scenery == "destructible":
            result["scenery"] = scenery
    if options.get("starting_gg") is not None:
        # A house option for quick games; the official counts come from 103.5.
        try:
            gg = int(options["starting_gg"])
        except (TypeError, ValueError):
            raise RuleError("km.err.bad_starting_gg", value=str(options["starting_gg"])) from None
        if not 1 <= gg <= 12:
            raise RuleError("km.err.bad_starting_gg", value=str(gg))
        result["starting_gg"] = gg
    return result


def starting_gg(fmt: str, levels: list[int]) -> list[int]:
    """103.5: 6 each in constructed; limited uses the level table and the steal table."""
    if fmt == "constructed":
        return [6 for _ in levels]
    total = sum(levels)
    each = next((gg for limit, gg in LIMITED_GG if total <= limit), 6)
    gap = abs(levels[0] - levels[1])
    stolen = next((n for limit, n in LIMITED_STEAL if gap <= limit), 3)
    result = [each, each]
    if stolen:
        low = 0 if levels[0] < levels[1] else 1
        result[low] += stolen
        result[1 - low] -= stolen
    return result


def short_names(figurines: list[Figurine]) -> list[str]:
    """101.3: copies of a figurine must be told apart, so duplicates get a number."""
    base = [fig.name.replace(" ", "")[:3].upper() for fig in figurines]
    totals = Counter(base)
    seen: Counter[str] = Counter()
    result = []
    for name in base:
        seen[name] += 1
        result.append(f"{name}{seen[name]}" if totals[name] > 1 else name)
    return result


def first_player(teams: dict[int, list[Figurine]], dice: Dice) -> tuple[int, list[Event]]:
    """103.1/204.3c: higher total initiative, then highest, second highest...; else a coin."""
    def key(seat: int) -> tuple[int, list[int]]:
        inits = sorted((f.initiative for f in teams[seat]), reverse=True)
        return (sum(inits), inits)

    seats = sorted(teams)
    a, b = key(seats[0]), key(seats[1])
    if a != b:
        winner = seats[0] if a > b else seats[1]
        return winner, [ev("first_player", seat=winner, initiative=key(winner)[0])]
    winner = seats[dice.pick(2)]  # a coin, not a die: the bot tosses it at every table
    return winner, [ev("first_player_coin", seat=winner)]


def seat_player(seat_setup: SeatSetup, figs: list[Figurine], gg: int, pieces: dict[str, PieceState]) -> PlayerState:
    """A player's pieces (added to ``pieces``) and timeline, for every game size."""
    ids = []
    for idx, (fig, short) in enumerate(zip(figs, short_names(figs), strict=True)):
        pid = f"{seat_setup.seat}{chr(ord('a') + idx)}"
        pieces[pid] = PieceState(id=pid, owner=seat_setup.seat, figurine=fig, short=short)
        ids.append(pid)
    # 204.3a/103.8: decreasing initiative; equal initiatives wait for the player (204.3b).
    ids.sort(key=lambda pid: -pieces[pid].initiative)
    groups = []
    for init in sorted({pieces[p].initiative for p in ids}, reverse=True):
        group = [p for p in ids if pieces[p].initiative == init]
        if len(group) > 1:
            groups.append(group)
    return PlayerState(seat=seat_setup.seat, user_id=seat_setup.user_id, name=seat_setup.name,
                       gg=gg, timeline=ids, ties_pending=groups)


def seat_teams(setup: Setup, check: Callable[[list[str]], list[Figurine]]) -> dict[int, list[Figurine]]:
    """Each seat's team from the lobby, checked by ``check`` (101 in a duel, 701.2 with four)."""
    teams: dict[int, list[Figurine]] = {}
    for seat in setup.seats:
        team = seat.config.get("team")
        if not team:
            raise RuleError("km.err.no_team", rule="101", player=seat.name)
        teams[seat.seat] = check(list(team))
    return teams


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    if len(setup.seats) != 2 or str(setup.options.get("mode") or "duel").lower() != "duel":
        from engines.krosmaster.rules_multiplayer import new_game as new_multi_game

        return new_multi_game(setup, dice)  # section 7
    options = validate_options(setup.options, setup.content)
    pack: Pack = pack_for(setup.content)
    fmt = options["format"]
    arena = pack.arena(options["arena"])
    teams = seat_teams(setup, lambda ids: validate_team(ids, pack, fmt))
    players: list[PlayerState] = []
    pieces: dict[str, PieceState] = {}
    levels = [sum(f.level for f in teams[s.seat]) for s in setup.seats]
    ggs = [options["starting_gg"]] * 2 if "starting_gg" in options else starting_gg(fmt, levels)
    for seat_setup, gg in zip(setup.seats, ggs, strict=True):
        players.append(seat_player(seat_setup, teams[seat_setup.seat], gg, pieces))
    first, events = first_player(teams, dice)
    state = State(
        format=fmt,
        board=BoardState(arena=arena, kamas=dict(arena.kamas)),  # 103.3
        players=players,
        pieces=pieces,
        wild_gg=1,  # 103.6
        first_seat=first,
        active_seat=first,
        options=options,
    )
    # 315: the summon templates travel with the game, like the figurine copies on the pieces.
    state.summons = {spell.summon: pack.summon(spell.summon) for figs in teams.values() for fig in figs
                     for spell in fig.spells if spell.summon}
    events.insert(0, ev("game_started", arena=arena.name, format=fmt, gg=ggs,
                        players=[p.seat for p in players]))
    if fmt == "limited" and ggs[0] != ggs[1]:
        events.append(ev("gg_stolen", seat=players[0 if ggs[0] > ggs[1] else 1].seat,
                         amount=abs(ggs[0] - ggs[1]) // 2))
    events.extend(deal(state, pack.rewards if options.get("rewards") != "off" else []))  # 103.7
    events.extend(advance_setup(state, dice))
    return state, events


def order_tie(state: State, seat: int, pid: str) -> list[Event]:
    """204.3b: the player puts the next tied piece in place; the order then never changes."""
    player = state.player(seat)
    if not player.ties_pending:
        raise RuleError("km.err.no_ties", rule="204.3b")
    group = player.ties_pending[0]
    if pid not in group:
        raise RuleError("km.err.not_tied", rule="204.3b", piece=pid)
    init = state.pieces[pid].initiative
    block_at = [i for i, p in enumerate(player.timeline) if state.pieces[p].initiative == init]
    start, end = block_at[0], block_at[-1] + 1
    block = player.timeline[start:end]
    ordered = [p for p in block if p not in group]  # already fixed, kept at the front
    rest = [p for p in group if p != pid]
    player.timeline[start:end] = [*ordered, pid, *rest]
    events = [ev("tie_ordered", seat=seat, piece=pid, name=state.pieces[pid].short)]
    if len(rest) == 1:
        player.ties_pending.pop(0)
    else:
        player.ties_pending[0] = rest
    return events


def advance_setup(state: State, dice: Dice) -> list[Event]:
    """Move through the set-up phases as far as possible without a player's input."""
    events: list[Event] = []
    if state.phase == "order_ties":
        if any(p.ties_pending for p in state.players):
            return events
        # Names, not ids: this is what players read (the order is the state's timeline).
        events.append(ev("timelines", timelines={p.name: [state.pieces[x].short for x in p.timeline]
                                                 for p in state.players}))
        state.phase = "choose_side"
    if state.phase == "choose_side":
        if state.options.get("sides") == "fixed" or len(side_options(state)) == 1:
            return events + choose_side(state, side_options(state)[0], dice)
        return events
    if state.phase == "deploy":
        deploying = deploying_seat(state)
        if deploying is None:
            state.phase = "turn"  # 401.1: the fight has begun; the first turn sets the real phase
            events.extend(fight_start(state))
            if state.phase != "over":  # a player who resigned during set-up never gets a turn
                first = next((s for s in state.seat_order() if not state.player(s).resigned), state.first_seat)
                events.extend(start_player_turn(state, first, dice))
    return events


def side_options(state: State) -> list[str]:
    starting = state.board.arena.starting
    return sorted(side for side in starting if OPPOSITE[side] in starting)


def choose_side(state: State, side: str, dice: Dice) -> list[Event]:
    """103.2: the second player picks a side, the first player takes the opposite one."""
    if side not in side_options(state):
        raise RuleError("km.err.bad_side", rule="103.2", side=side)
    if state.multi is not None:  # 702.2: player 1 picks the side
        from engines.krosmaster.rules_multiplayer import assign_sides

        assign_sides(state, side, OPPOSITE[side])
        state.phase = "deploy"
        return [ev("sides_multi", seat=state.first_seat, side=side, other=OPPOSITE[side]),
                *advance_setup(state, dice)]
    second = state.opponent(state.first_seat)
    second.side = side
    state.player(state.first_seat).side = OPPOSITE[side]
    state.phase = "deploy"
    events = [ev("sides", seat=second.seat, side=side, first_side=OPPOSITE[side])]
    return events + advance_setup(state, dice)


def deploying_seat(state: State) -> int | None:
    """103.9: the first player deploys everything, then the opponent."""
    for seat in state.seat_order():  # 702.4: in initiative order
        if any(p.pos is None and not p.ko for p in state.pieces_of(seat)):
            return seat
    return None


def free_starting_squares(state: State, seat: int) -> list[str]:
    side = state.player(seat).side
    if side is None:
        return []
    board = Board.of(state)
    return [s for s in state.board.arena.starting[side] if board.is_free(sq(s))]  # type: ignore[index]


def deploy(state: State, seat: int, pid: str, square: str, dice: Dice) -> list[Event]:
    if deploying_seat(state) != seat:
        raise RuleError("km.err.not_your_deployment", rule="103.9")
    piece = state.pieces.get(pid)
    if piece is None or piece.owner != seat:
        raise RuleError("km.err.not_your_piece", rule="103.9", piece=pid)
    if piece.pos is not None:
        raise RuleError("km.err.already_deployed", rule="103.9", piece=pid)
    label = square.strip().upper()
    if label not in free_starting_squares(state, seat):
        raise RuleError("km.err.not_starting_square", rule="103.9", square=square)
    piece.pos = label
    events = [ev("deployed", seat=seat, piece=pid, name=piece.short, square=label)]
    return events + advance_setup(state, dice)


def fight_start(state: State) -> list[Event]:
    """103.10: "at the start of the fight" powers, first player's team first, by initiative."""
    events: list[Event] = [ev("fight_started")]
    for seat in state.seat_order():
        for piece in state.pieces_of(seat):
            for power in piece.figurine.custom_powers:
                for effect in power.fight_start:
                    kind = effect.kind.value
                    if kind in ("ap_tokens", "mp_tokens"):
                        stat = kind[:2]
                        placed = add_tokens(piece, stat, effect.value)
                        events.append(ev(f"{stat}_tokens", piece=piece.id, name=piece.short,
                                         value=placed if effect.value > 0 else -placed, power=power.name))
                    elif kind == "wounds":
                        placed = place_wounds(piece, effect.value)
                        events.append(ev("wounds", piece=piece.id, name=piece.short, wounds=placed,
                                         total=piece.wounds, hp=piece.hp))
    events.extend(ko_check(state))
    return events
