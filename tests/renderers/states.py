"""States for renderer tests and the benchmark.

Golden pictures must change only when the renderer changes, so the golden states are
built directly from content defined here (figurines, arena) instead of the engine's
built-in pack or its dice. Separate helpers play real games through the engine's API
for the non-golden checks (no crash, determinism) so the renderer keeps up with it.
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.krosmaster.content import Arena, Figurine
from engines.krosmaster.engine import KrosmasterEngine
from engines.krosmaster.state import BoardState, Inspiration, PieceState, PlayerState, State

ARENA = {
    "id": "render_glade",
    "name": "Sunlit Glade",
    "name_it": "Radura Soleggiata",
    "trees": ["D4", "I4", "F6", "I9", "D9", "G7"],
    "bushes": ["B5", "F3", "K8", "G10"],
    "crates": ["E7", "H6"],
    "kamas": {"C6": 1, "G4": 2, "J7": 1, "F9": 2},
    "demon_squares": ["A7", "L6"],
    "starting": {
        "north": ["C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "C2", "D2", "E2", "F2", "G2", "H2", "I2", "J2"],
        "south": ["J12", "I12", "H12", "G12", "F12", "E12", "D12", "C12", "J11", "I11", "H11", "G11", "F11",
                  "E11", "D11", "C11"],
    },
}


def _spell(id: str, name: str, **kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"id": id, "name": name, "range": {"type": "ranged", "min": 1, "max": 5},
                            "cost": {"ap": 3}, "amount": 2}
    data.update(kw)
    return data


def _fig(id: str, name: str, level: int, init: int, ap: int, mp: int, hp: int, **kw: Any) -> Figurine:
    spells = kw.pop("spells", [_spell(f"{id}_hit", "Hit")])
    return Figurine.model_validate({"id": id, "name": name, "level": level, "initiative": init, "ap": ap,
                                    "mp": mp, "hp": hp, "spells": spells, **kw})


FIGS = {
    "warden": _fig("warden", "Iron Warden", 4, 3, 6, 3, 12, powers=["armor", "lock"], name_it="Guardiano di Ferro"),
    "witch": _fig("witch", "Ember Witch", 3, 6, 6, 3, 8, name_it="Strega delle Braci", spells=[
        _spell("fire_bolt", "Fire Bolt", range={"type": "ranged", "min": 2, "max": 5}),
        _spell("fireball", "Fireball", range={"type": "ranged", "min": 2, "max": 4}, area="cross", cost={"ap": 4}),
    ]),
    "archer": _fig("archer", "Gale Archer", 3, 7, 6, 4, 8, name_it="Arciere del Vento"),
    "healer": _fig("healer", "Tide Healer", 2, 4, 6, 3, 7, name_it="Guaritrice Marina"),
    "golem": _fig("golem", "Stone Golem", 2, 1, 5, 2, 10, name_it="Golem di Pietra"),
    "rogue": _fig("rogue", "Shadow Rogue", 3, 8, 6, 4, 7, name_it="Ladro delle Ombre"),
    "crusher": _fig("crusher", "Bone Crusher", 5, 2, 7, 3, 16, name_it="Spaccaossa"),
    "imp": _fig("imp", "Mire Imp", 1, 5, 5, 4, 4, powers=["small"], name_it="Folletto della Palude"),
}


def _piece(pid: str, fig: str, owner: int, short: str, pos: str | None, **kw: Any) -> PieceState:
    return PieceState(id=pid, owner=owner, figurine=FIGS[fig], short=short, pos=pos, **kw)


def midgame(*, active: str = "0b", over: bool = False) -> State:
    """Round 3, Ann's turn: wounds, tokens, inspiration dice, a K.O. piece, kamas taken."""
    pieces = [
        _piece("0a", "rogue", 0, "SHA", "E8", wounds=2),
        _piece("0b", "witch", 0, "EMB", "F8", wounds=3, ap=4, mp=1,
               inspirations=[Inspiration(face="critical", seat=0)]),
        _piece("0c", "healer", 0, "TID", "C7"),
        _piece("0d", "imp", 0, "MIR", None, wounds=4, ko=True),
        _piece("0e", "golem", 0, "STO", "H8", wounds=9, mp_tokens=-1),
        _piece("1a", "archer", 1, "GAL", "F5", wounds=5, ap_tokens=-2,
               inspirations=[Inspiration(face="dodge", seat=1)]),
        _piece("1b", "warden", 1, "IRO", "E6", wounds=1, inspirations=[Inspiration(face="armor", seat=1)]),
        _piece("1c", "crusher", 1, "BON", "H5", wounds=7),
    ]
    by_id = {p.id: p for p in pieces}
    for pid, piece in by_id.items():
        if pid != active:
            piece.ap = piece.mp = 0
    players = [
        PlayerState(seat=0, user_id=10, name="Ann", gg=5, kamas=4, side="south",
                    timeline=["0a", "0b", "0d", "0c", "0e"]),
        PlayerState(seat=1, user_id=11, name="Bob", gg=4, kamas=6, side="north", timeline=["1a", "1b", "1c"]),
    ]
    state = State(
        board=BoardState(arena=Arena.model_validate(ARENA), kamas={"C6": 1, "G4": 1, "F9": 2}),
        players=players,
        pieces=by_id,
        wild_gg=1,
        first_seat=1,
        active_seat=by_id[active].owner,
        turn_number=6,
        active_piece=active,
        phase="turn",
    )
    if over:
        state.phase = "over"
        state.winners = [1]
        state.end_reason = "last_gg"
        state.active_piece = None
        state.players[0].gg = 0
    return state


def deployment() -> State:
    """Bob (first player) has deployed two of three pieces on the north side."""
    state = midgame()
    for piece in state.pieces.values():
        piece.pos, piece.wounds, piece.ko, piece.ap, piece.mp = None, 0, False, 0, 0
        piece.ap_tokens = piece.mp_tokens = 0
        piece.inspirations = []
    state.pieces["1a"].pos = "E2"
    state.pieces["1b"].pos = "H1"
    state.board.kamas = dict(state.board.arena.kamas)
    state.phase = "deploy"
    state.turn_number = 0
    state.active_piece = None
    for player in state.players:
        player.gg, player.kamas = 6, 0
    return state


TEAM_A = ["bone_crusher", "gale_archer", "cloud_sage", "mire_imp", "root_druid"]
TEAM_B = ["iron_warden", "ember_witch", "tide_healer", "lucky_gambler", "mire_imp"]


def engine_setup(seed: int = 1) -> tuple[KrosmasterEngine, State, SeededDice]:
    """A fresh game through the engine's own API (built-in pack and arena)."""
    engine = KrosmasterEngine()
    setup = Setup(seats=[SeatSetup(seat=0, user_id=10, name="Ann", config={"team": TEAM_A}),
                         SeatSetup(seat=1, user_id=11, name="Bob", config={"team": TEAM_B})], options={})
    dice = SeededDice(seed)
    return engine, engine.new_game(setup, dice), dice


def _spread_deploy(engine: KrosmasterEngine, state: State, seat: int) -> Any:
    """Deploy on every other starting square so the pieces do not form a solid wall."""
    actions = engine.legal_actions(state, seat)
    return actions[(len(actions) // 3) % len(actions)]


def play(steps: int, seed: int = 1) -> list[State]:
    """Play ``steps`` legal actions with a simple deterministic policy; every state is kept.

    Policy: attack when a spell can hit an enemy, else walk towards the nearest enemy,
    else end the activation. It is not a good player; it only needs to reach varied states.
    """
    engine, state, dice = engine_setup(seed)
    return play_from(engine, state, dice, steps)


def play_from(engine: Any, state: State, dice: Any, steps: int) -> list[State]:
    """The policy loop of ``play`` from any starting state (1-vs-1 or four players)."""
    from engines.krosmaster.actions import Cast, Move

    states = [state.model_copy(deep=True)]
    for _ in range(steps):
        decision = engine.decision(state)
        if decision is None or not decision.seats:
            break
        seat = decision.seats[0]
        actions = engine.legal_actions(state, seat)
        if not actions:
            break
        if state.phase == "deploy":
            action = _spread_deploy(engine, state, seat)
        elif state.phase == "turn":
            action = _turn_policy(state, actions, Cast, Move)
        else:
            action = actions[0]
        engine.apply(state, seat, action, dice)
        states.append(state.model_copy(deep=True))
    return states


def _dist(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def _turn_policy(state: State, actions: list[Any], cast_cls: type, move_cls: type) -> Any:
    me = state.pieces[state.active_piece or ""]
    enemies = {p.pos for p in state.pieces.values() if p.in_play and p.owner != me.owner}
    for action in actions:
        if isinstance(action, cast_cls) and action.target in enemies and action.spell != "punch":
            return action
    moves = [a for a in actions if isinstance(a, move_cls)]
    if moves and me.pos and enemies and me.mp > 0:
        here = min(_dist(me.pos, e) for e in enemies if e)
        best = min(moves, key=lambda a: (min(_dist(a.to, e) for e in enemies if e), a.to))
        if min(_dist(best.to, e) for e in enemies if e) < here:
            return best
    return actions[0]  # EndTurn comes first in legal_actions


def big_teams(*, inspiration: bool = False) -> State:
    """Eight pieces a side (the most 101.1a allows): the panel must switch to one-line rows."""
    state = midgame()
    names = list(FIGS)
    pieces: dict[str, PieceState] = {}
    for seat in (0, 1):
        timeline = []
        for i, fig in enumerate(names):
            pid = f"{seat}{'abcdefgh'[i]}"
            piece = _piece(pid, fig, seat, f"{fig[:3].upper()}{i + 1}", f"{'ABCDEFGH'[i]}{3 if seat else 10}",
                           wounds=i % 3)
            pieces[pid] = piece
            timeline.append(pid)
        state.player(seat).timeline = timeline
        third = pieces[f"{seat}c"]
        third.ap_tokens, third.mp_tokens = 2, -1
        third.inspirations = [Inspiration(face="lock", seat=seat), Inspiration(face="dodge", seat=seat)]
    state.pieces = pieces
    state.active_piece = "0c"
    pieces["0c"].ap, pieces["0c"].mp = 5, 2
    if inspiration:
        state.phase = "inspiration"
        state.inspiration_dice = ["critical", "dodge"]
        state.active_piece = None
    return state


def _reward(rid: str, name: str, rank: str) -> Any:
    from engines.krosmaster.content import Reward

    return Reward.model_validate({"id": rid, "name": name, "rank": rank, "type": "buff"})


def with_rewards() -> State:
    """Late game with the reward piles out (306): long face-up names, rewards held by pieces.

    The reported "rewards line cut off" came from exactly this: four ranks and three tops
    do not fit one line of the panel.
    """
    from engines.krosmaster.state import RewardCard, RewardPile

    state = midgame()
    tops = {"granite": "Healing Herb", "jade": "Lucky Bow Meow", "gold": "Swift Trophy of the Long Afternoon"}
    piles = []
    for i, rank in enumerate(("granite", "jade", "gold", "ruby")):
        top = RewardCard(id=f"t{i}", reward=_reward(f"r{i}", tops[rank], rank), face_up=True) if rank in tops else None
        piles.append(RewardPile(id=f"p{i}", rank=rank, count=4, top=top))  # type: ignore[arg-type]
    state.rewards.piles = piles
    state.rewards.total = 20
    state.pieces["1a"].rewards = [RewardCard(id="h1", reward=_reward("r9", "Gobball Helmet", "jade"), face_up=True),
                                  RewardCard(id="h2")]
    return state


def with_summons() -> State:
    """Mid-game with one summon of each kind (315) for Ann: a creature, a bomb, a turret, a trap.

    Built with the engine's own templates and placement (not for goldens): it is the picture
    with the most legend entries (they overflow into the panel) and the longest board labels.
    """
    from engines.krosmaster.content import builtin_pack
    from engines.krosmaster.rules_board import Board, sq
    from engines.krosmaster.rules_summons import place_summon

    state = midgame()
    state.summons = {t.id: t for t in builtin_pack().summons}
    for template, square in (("bristlepup", "D8"), ("powder_keg", "D7"), ("arrow_turret", "B6"), ("snare_trap", "F7")):
        place_summon(state, Board.of(state), state.pieces["0a"], template, sq(square))
    return state
