"""Starting a game (103, and 701-703 with four players): teams, first player or seating, GG,
sides, deployment, then the fight-start powers (103.10) before the first player's turn.

The fight-start powers run in initiative order, first player first (103.10); when one piece
has several and their order can change the outcome, its player orders them (103.10b). Wounds
they place are resolved like any other (``resolution.settle``), then the first turn starts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import permutations
from typing import Any

from engines.core.contract import SeatSetup, Setup
from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster import resolution, rules_multiplayer
from engines.krosmaster.content import CustomPower, Figurine, Pack, known, pack_for
from engines.krosmaster.rules_board import Board, ev, name_label, name_tag, numbered_label, sq
from engines.krosmaster.rules_rewards import deal
from engines.krosmaster.rules_team import validate_team
from engines.krosmaster.rules_tokens import add_tokens, place_wounds
from engines.krosmaster.rules_turn import start_player_turn
from engines.krosmaster.state import BoardState, MultiState, PieceState, PlayerState, State

FORMATS = ("constructed", "limited")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}

# 103.5b: GG per player by the sum of both teams' levels, then GG stolen by level gap.
LIMITED_GG = ((11, 3), (15, 4), (19, 5), (24, 6))
LIMITED_STEAL = ((0, 0), (2, 1), (5, 2))

OPTIONS = ("format", "arena", "sides", "starting_gg", "rewards", "mode", "scenery")
"""The lobby options a Krosmaster table takes (the table layer refuses any other by name)."""


def validate_options(options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
    """Normalize lobby options; unknown keys are refused so typos do not pass silently."""
    pack = pack_for(content)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RuleError("km.err.unknown_option", option=unknown[0], known=known(OPTIONS))
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
    """103.5a: 6 each in constructed; 103.5b: limited uses the level table and the steal table."""
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
    """101.3: copies of a figurine must be told apart. A name keeps its first three letters
    ("IRO") unless another piece of the team shares them: then each gets two letters and a
    number ("IR1", "IR2"), so every label fits in three characters on the board.

    Only new games get these labels: a saved game keeps the ones stored on its pieces
    (older games have four-letter labels such as "IRO1", which never clash with these)."""
    base = [name_label(fig.name) for fig in figurines]
    totals = Counter(base)
    taken = {name for name in base if totals[name] == 1}
    counters: Counter[str] = Counter()
    result = []
    for fig, name in zip(figurines, base, strict=True):
        if totals[name] == 1:
            result.append(name)
            continue
        tag = name_tag(fig.name)
        counters[tag] += 1
        while f"{tag}{counters[tag]}" in taken:
            counters[tag] += 1
        label = numbered_label(fig.name, counters[tag], taken)
        taken.add(label)
        result.append(label)
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
    _content_travels(state, pack, teams)
    events.insert(0, ev("game_started", arena=arena.name, arena_it=arena.name_it, format=fmt, gg=ggs,
                        players=[p.seat for p in players]))
    if fmt == "limited" and ggs[0] != ggs[1]:
        events.append(ev("gg_stolen", seat=players[0 if ggs[0] > ggs[1] else 1].seat,
                         amount=abs(ggs[0] - ggs[1]) // 2))
    events.extend(deal(state, pack.rewards if options.get("rewards") != "off" else []))  # 103.7
    events.extend(advance_setup(state, dice))
    return state, events


def _content_travels(state: State, pack: Pack, teams: dict[int, list[Figurine]]) -> None:
    """Content a game needs later travels with it, like the figurine copies on the pieces:
    summon templates (315) and the cards a piece may be replaced with (605.19)."""
    figurines = [fig for figs in teams.values() for fig in figs]
    state.forms = pack.forms(figurines)
    state.summons = {spell.summon: pack.summon(spell.summon)
                     for fig in [*figurines, *state.forms.values()] for spell in fig.spells if spell.summon}


def new_multi_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    """Section 7 set-up: 2 Krosmasters each (701.2), seating (702.1/703.3), 3 GG + 3 wild GG (702.3)."""
    options = validate_options(setup.options, setup.content)
    mode = rules_multiplayer.resolve_mode(options, len(setup.seats))
    pack: Pack = pack_for(setup.content)
    arena = pack.arena(options["arena"])
    teams = seat_teams(setup, lambda ids: rules_multiplayer.validate_multi_team(ids, pack))
    sides = rules_multiplayer.split_teams(setup) if mode == "teams" else {}
    gg = int(options.get("starting_gg", rules_multiplayer.MULTI_GG))
    players: list[PlayerState] = []
    pieces: dict[str, PieceState] = {}
    for seat_setup in setup.seats:
        players.append(seat_player(seat_setup, teams[seat_setup.seat], gg, pieces))
    order, events = rules_multiplayer.seating(teams, sides, dice, {s.seat: s.name for s in setup.seats})
    state = State(
        format=options["format"],
        board=BoardState(arena=arena, kamas=dict(arena.kamas)),
        players=players,
        pieces=pieces,
        wild_gg=rules_multiplayer.MULTI_WILD,  # 702.3
        first_seat=order[0],
        active_seat=order[0],
        options={**options, "mode": mode},
        multi=MultiState(mode=mode, seating=order, teams=sides),  # type: ignore[arg-type]
    )
    _content_travels(state, pack, teams)
    events.insert(0, ev("game_started", arena=arena.name, arena_it=arena.name_it, format=state.format,
                        gg=[gg] * len(players),
                        players=[p.seat for p in players], mode=mode))
    events.extend(deal(state, pack.rewards if options.get("rewards") != "off" else []))
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
            events.extend(fight_start(state, dice))
    return events


def side_options(state: State) -> list[str]:
    """103.2: a side is offered when the arena has starting squares on it and on the opposite
    side (the first player sits there): two sides on most arenas, all four where it allows."""
    starting = state.board.arena.starting
    return sorted(side for side in starting if OPPOSITE[side] in starting)


def choose_side(state: State, side: str, dice: Dice) -> list[Event]:
    """103.2: the second player picks a side, the first player takes the opposite one."""
    if side not in side_options(state):
        raise RuleError("km.err.bad_side", rule="103.2", side=side, known=", ".join(side_options(state)))
    if state.multi is not None:  # 702.2: player 1 picks the side
        rules_multiplayer.assign_sides(state, side, OPPOSITE[side])
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


def fight_start(state: State, dice: Dice) -> list[Event]:
    """103.10: "at the start of the fight" powers, first player's team first, by initiative. The
    fight is the whole game (103.10a), so this runs once, after the last piece is deployed."""
    state.fight_queue = [f"{piece.id}:{i}" for seat in state.seat_order() for piece in state.pieces_of(seat)
                         for i, power in enumerate(piece.figurine.custom_powers) if power.fight_start]
    return [ev("fight_started"), *continue_fight_start(state, dice)]


def _power(state: State, entry: str) -> tuple[PieceState, CustomPower]:
    pid, index = entry.split(":")
    piece = state.pieces[pid]
    return piece, piece.figurine.custom_powers[int(index)]


def _apply_power(piece: PieceState, power: CustomPower) -> list[Event]:
    """One fight-start power's effects, in written order, on the piece itself."""
    events: list[Event] = []
    for effect in power.fight_start:
        kind = effect.kind.value
        if kind in ("ap_tokens", "mp_tokens"):
            stat = kind[:2]
            placed = add_tokens(piece, stat, effect.value)
            events.append(ev(f"{stat}_tokens", piece=piece.id, name=piece.short,
                             value=placed if effect.value > 0 else -placed, power=power.name,
                             power_it=power.name_it))
        elif kind == "wounds":
            placed = place_wounds(piece, effect.value, by=piece)
            events.append(ev("wounds", piece=piece.id, name=piece.short, wounds=placed,
                             total=piece.wounds, hp=piece.hp))
    return events


def fight_order_matters(state: State, entries: list[str]) -> bool:
    """103.10b: one piece's fight-start powers in every order, on copies: ask only when the
    results differ (e.g. -1 MP tokens capped by 309.6 before or after +1 MP tokens)."""
    if len(entries) > 4:
        return True
    results = set()
    for order in permutations(entries):
        piece = _power(state, order[0])[0].model_copy(deep=True)
        for entry in order:
            _apply_power(piece, _power(state, entry)[1])
        results.add((piece.wounds, piece.ap_tokens, piece.mp_tokens, piece.ap_frozen, piece.mp_frozen))
    return len(results) > 1


def _head_group(state: State) -> list[str]:
    head = state.fight_queue[0].split(":")[0]
    return [e for e in state.fight_queue if e.split(":")[0] == head]


def continue_fight_start(state: State, dice: Dice) -> list[Event]:
    """Resolve the queued fight-start powers until one piece's order must be chosen (103.10b),
    then the K.O.s they caused (308.1), then the first player's turn."""
    events: list[Event] = []
    while state.fight_queue:
        group = _head_group(state)
        if len(group) > 1 and fight_order_matters(state, group):
            state.phase = "order_effects"
            return events
        piece, power = _power(state, state.fight_queue.pop(0))
        events.extend(_apply_power(piece, power))
    state.phase = "turn"
    events.extend(resolution.settle(state, dice, then="fight"))
    if state.cast is not None:
        return events  # a choice of K.O. order is open; ``begin_fight`` follows it
    return events + begin_fight(state, dice)


def begin_fight(state: State, dice: Dice) -> list[Event]:
    """401.1: the first player (still in the game) starts the first turn."""
    if state.phase == "over":
        return []
    first = next((s for s in state.seat_order() if not state.player(s).resigned), state.first_seat)
    return start_player_turn(state, first, dice)


def fight_decision(state: State) -> Decision | None:
    """103.10b: the player whose piece holds several fight-start powers orders them."""
    if not state.fight_queue or state.phase != "order_effects" or state.cast is not None:
        return None
    group = _head_group(state)
    piece = _power(state, group[0])[0]
    return Decision(seats=[piece.owner], kind="order_fight_start", prompt_key="km.ask.order_fight_start",
                    params={"name": piece.short},
                    options=[Option(value=e, label_key="km.option.power",
                                    params={"name": piece.short, "power": _power(state, e)[1].name,
                                            "power_it": _power(state, e)[1].name_it})
                             for e in group])


def order_fight_power(state: State, value: str, dice: Dice) -> list[Event]:
    """103.10b: the chosen power resolves now; the others of that piece wait for the next answer."""
    group = _head_group(state) if state.fight_queue else []
    if value not in group:
        raise RuleError("km.err.bad_choice", rule="103.10b", value=value,
                        known=", ".join(_power(state, e)[1].name for e in group) or "—")
    state.fight_queue.remove(value)
    piece, power = _power(state, value)
    state.phase = "turn"
    return _apply_power(piece, power) + continue_fight_start(state, dice)
