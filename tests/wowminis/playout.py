"""Random legal playouts shared by the property test and the bench (not a test module itself)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.content import builtin_pack, fits
from engines.wowminis.state import State


@dataclass
class Snapshot:
    """What the invariants compare with the previous decision point (cheaper than a deep copy)."""

    vp: list[int]
    master: int


@dataclass
class Played:
    state: State
    actions: int = 0
    turns: int = 0
    rounds: int = 0
    vp_history: list[tuple[int, int]] = field(default_factory=list)


PACK = builtin_pack()


def random_party(rng: random.Random, faction: str) -> tuple[list[str], list[str]]:
    """Three characters of one faction (at most one legendary) and their pool, where up to three
    cards are swapped for other cards that fit the party, so every card of the pack gets played."""
    members = [c for c in PACK.characters if c.faction == faction]
    while True:
        party = rng.sample(members, 3)
        if sum(c.legendary for c in party) <= 1:
            break
    pool = [PACK.card(x).name for c in party for x in c.pool]
    extra = [k.name for k in PACK.cards if any(fits(k, c) for c in party)]
    for _ in range(rng.randint(0, 3)):
        pool[rng.randrange(len(pool))] = rng.choice(extra)
    return [c.name for c in party], pool


def setup(seed: int, options: dict | None = None, parties: tuple[str, str] | None = None, players: int = 2) -> Setup:
    """``players`` 3-4: a free-for-all (or 2 vs 2 with ``teams`` in ``options``); factions may repeat."""
    factions = ["alliance", "horde", "monster"]
    rng = random.Random(seed)
    f = rng.sample(factions, 2) if players == 2 else [rng.choice(factions) for _ in range(players)]
    seats = [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}", config={"faction": f[i]}) for i in range(players)]
    for i in range(players):
        if parties:
            seats[i].config = {"party": parties[i]}
        elif rng.random() < 0.7:
            names, pool = random_party(rng, f[i])
            seats[i].config = {"party": names, "pool": pool}
    return Setup(seats=seats, options=options or {"map": rng.choice(["stonefang_pass", "mirewood_hollow"])})


def new_game(seed: int, options: dict | None = None, players: int = 2) -> tuple[State, SeededDice]:
    """A seeded game; a random pool that cannot fill the bars falls back to the default pools."""
    dice = SeededDice(seed + 7)
    s = setup(seed, options, players=players)
    try:
        return ENGINE.new_game(s, dice), dice
    except RuleError:
        for seat in s.seats:
            seat.config.pop("pool", None)
        return ENGINE.new_game(s, dice), dice


def choose(rng: random.Random, actions: list, state: State | None = None) -> object:
    """Random, but biased like a player: attack when possible, walk towards the enemy, else
    something random (a pure random walk dawdles for dozens of rounds)."""
    if state is not None and rng.random() < 0.85:
        attacks = [a for a in actions if isinstance(a, A.Play) and _is_attack(state, a)]
        if attacks:
            return rng.choice(attacks)
        moves = [a for a in actions if isinstance(a, A.Move)]
        if moves and rng.random() < 0.9:
            return min(moves, key=lambda m: (_enemy_distance(state, m.to), rng.random()))
        if not moves and rng.random() < 0.5:
            ends = [a for a in actions if isinstance(a, A.EndTurn)]
            if ends:
                return ends[0]
    plays = [a for a in actions if isinstance(a, (A.Play, A.React))]
    if plays and rng.random() < 0.6:
        return rng.choice(plays)
    return rng.choice(actions)


def _is_attack(state: State, action: A.Play) -> bool:
    from engines.wowminis.rules_play import find_playable

    turn = state.turn
    if turn is None:
        return False
    p = find_playable(state, state.chars[turn.char], action.ability)
    return p.ability.type == "attack"


def _enemy_distance(state: State, space: str) -> int:
    from engines.wowminis.rules_board import allied, dist

    turn = state.turn
    me = state.chars[turn.char] if turn else None
    foes = [c.pos for c in state.chars.values() if c.pos and me and not allied(state, c.controller, me.controller)]
    return min((dist(space, f) for f in foes), default=0)


def positions(state: State, dice: SeededDice, seed: int, steps: int) -> Iterator[tuple[State, int]]:
    """The positions of a random game played on from ``state`` in place: each is yielded with the seat it
    waits for first, before a random legal move of that seat is applied (at most ``steps`` moves)."""
    rng = random.Random(seed)
    for _ in range(steps):
        seat = _first_to_act(state)
        if seat is None:
            return
        yield state, seat
        ENGINE.apply(state, seat, choose(rng, ENGINE.legal_actions(state, seat), state), dice)


def _first_to_act(state: State) -> int | None:
    decision = ENGINE.decision(state)
    return None if decision is None else decision.seats[0]


def played_steps(seed: int, steps: int) -> Iterator[tuple[State, int]]:
    """A seeded random game's position after each move the rules took (a refused one is skipped), with the move's
    number (at most ``steps``). The game goes on in place: a caller keeps a view's ``private_copy``."""
    state, dice = new_game(seed)
    rng = random.Random(seed)
    for step in range(steps):
        seat = _first_to_act(state)
        if seat is None:
            return
        try:
            ENGINE.apply(state, seat, choose(rng, ENGINE.legal_actions(state, seat), state), dice)
        except RuleError:
            continue
        yield state, step


def play(seed: int, max_actions: int = 3000, check=None, options: dict | None = None, players: int = 2,
         start: tuple[State, SeededDice] | None = None) -> Played:
    """A random game from ``new_game`` (or from ``start``: a game already set up, e.g. a built limited table)."""
    rng = random.Random(seed)
    state, dice = start if start is not None else new_game(seed, options, players)
    out = Played(state)
    for p in state.players:  # table preferences vary too: asked rerolls, opted-out windows
        prefs = {"auto_reroll": rng.choice(["ask", "failures"]), "auto_pass": rng.choice(["never", "never", "always",
                                                                                        "unless_eligible"])}
        ENGINE.apply(state, p.seat, A.Prefs(**prefs), dice)
    current: tuple[int, str, int] | None = None  # (turn number, character, master when it began)
    for _ in range(max_actions):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = rng.choice(decision.seats)
        actions = ENGINE.legal_actions(state, seat)
        assert actions, (decision, state.stage)
        action = choose(rng, actions, state)
        before = Snapshot(vp=[p.vp for p in state.players], master=state.master)
        ENGINE.apply(state, seat, action, dice)
        out.actions += 1
        if check is not None:
            check(before, state, out.actions)
            number = state.turn.number if state.turn is not None else None
            if current is not None and number != current[0] and current[1] in state.chars \
                    and state.phase != "over":  # a game won in the middle of a turn ends no turn
                # every turn advances its character's clock by at least 1 (501.3b): the game progresses
                assert state.chars[current[1]].clock > current[2], current
            if state.turn is not None and (current is None or number != current[0]):
                current = (state.turn.number, state.turn.char, state.master)
            elif state.turn is None:
                current = None
    out.turns = state.turns_taken
    out.rounds = state.round
    return out


# ---------------------------------------------------------------------------- issue 27.3: the pace of a real table
@dataclass
class Paced:
    """A game two sensible people play: how many commands they typed or clicked (answers the table gives
    alone, ``gm.table.forced``, are not counted), and who won."""

    state: State
    commands: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


def _main_attack(state: State, actions: list) -> object | None:
    """The active character's best attack now: its main attack (or a card attack) on the weakest enemy."""
    attacks = [a for a in actions if isinstance(a, A.Play) and a.targets and _is_attack(state, a)]
    if not attacks:
        return None
    return min(attacks, key=lambda a: (a.ability != "main", min(state.chars[t].health if t in state.chars else 99
                                                                 for t in a.targets)))


def sensible_choice(state: State, seat: int, actions: list) -> object:
    """What a player who knows the game does on the common path: take their own character at a tie,
    attack the weakest enemy in reach, else walk towards the nearest enemy (or a VP location), then end
    the turn; pass windows and keep the dice (``auto_reroll: failures`` rerolls the misses)."""
    decision = ENGINE.decision(state)
    kind = decision.kind if decision is not None else ""
    if kind in ("first_character", "next_character"):
        own = [a for a in actions if isinstance(a, A.Choose) and a.value in state.chars
               and state.chars[a.value].controller == seat]
        return own[0] if own else actions[0]
    if kind == "turn":
        attack = _main_attack(state, actions)
        if attack is not None:
            return attack
        moves = [a for a in actions if isinstance(a, A.Move)]
        turn = state.turn
        if moves and turn is not None:
            from engines.wowminis.rules_board import allied, dist

            me = state.chars[turn.char]
            foes = [c.pos for c in state.chars.values() if c.pos and not allied(state, c.controller, me.controller)]
            goals = foes or list(state.board.vp_locations)

            def closeness(m: A.Move) -> tuple[int, str]:
                return min((dist(m.to, g) for g in goals), default=0), m.to

            best = min(moves, key=closeness)
            if me.pos is None or closeness(best)[0] < min((dist(me.pos, g) for g in goals), default=0):
                return best
        ends = [a for a in actions if isinstance(a, A.EndTurn)]
        if ends:
            return ends[0]
    passes = [a for a in actions if isinstance(a, A.Pass)]
    if passes:
        return passes[0]
    keep = [a for a in actions if isinstance(a, A.Reroll) and not a.dice]
    if keep:
        return keep[0]
    return actions[0]


def paced_play(seed: int, options: dict | None = None, auto_pass: str = "never", max_commands: int = 2000,
               players: int = 2) -> Paced:
    """A whole game played by ``sensible_choice``, counting the commands the players would send."""
    from gm.table.forced import only_answer

    setup_ = setup(seed, options, players=players)
    for s in setup_.seats:
        s.config.pop("pool", None)  # the pools each character comes with
    dice = SeededDice(seed + 7)
    state = ENGINE.new_game(setup_, dice)
    out = Paced(state)
    for p in state.players:  # each seat's own settings, set once (not counted)
        ENGINE.apply(state, p.seat, A.Prefs(auto_pass=auto_pass, auto_reroll="failures"), dice)
    while out.commands < max_commands:
        decision = ENGINE.decision(state)
        if decision is None:
            break
        forced = only_answer(ENGINE, state)
        if forced is not None:
            ENGINE.apply(state, forced[0], forced[1], dice)
            continue
        seat = decision.seats[0]
        action = sensible_choice(state, seat, ENGINE.legal_actions(state, seat))
        ENGINE.apply(state, seat, action, dice)
        out.commands += 1
        kind = decision.kind if decision.kind != "turn" else f"turn:{getattr(action, 'kind', '?')}"
        out.by_kind[kind] = out.by_kind.get(kind, 0) + 1
    return out
