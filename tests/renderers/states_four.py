"""Four-player states (section 7) for renderer tests, built like ``states.py`` from local content."""

from __future__ import annotations

from engines.krosmaster.content import Arena
from engines.krosmaster.state import BoardState, Inspiration, MultiState, PlayerState, State
from tests.renderers.states import ARENA, _piece


def four_players(mode: str = "teams", *, teams: dict[int, int] | None = None, powers_lost: bool = True) -> State:
    """Round 2 of a 2-vs-2 (703) or free-for-all (702): two Krosmasters each, seating 2-1-0-3.

    Default teams are seats 0+2 against 1+3 (703.3 seating: Cat, Bob, Ann, Dan). Cat's Ember
    Witch is active; Bob's Iron Warden has lost its powers (314.2d) while holding an armor die.
    """
    pieces = [
        _piece("0a", "healer", 0, "TID", "C11", wounds=1),
        _piece("0b", "golem", 0, "STO", "E10", wounds=4),
        _piece("1a", "archer", 1, "GAL", "F4", wounds=2, ap_tokens=-1),
        _piece("1b", "warden", 1, "IRO", "E6", wounds=3, powers_lost=powers_lost,
               inspirations=[Inspiration(face="armor", seat=1)]),
        _piece("2a", "witch", 2, "EMB", "F8", wounds=1, ap=6, mp=2,
               inspirations=[Inspiration(face="critical", seat=2)]),
        _piece("2b", "imp", 2, "MIR", None, wounds=4, ko=True),
        _piece("3a", "rogue", 3, "SHA", "H5"),
        _piece("3b", "crusher", 3, "BON", "I3", wounds=6),
    ]
    by_id = {p.id: p for p in pieces}
    names = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
    timelines = {0: ["0a", "0b"], 1: ["1a", "1b"], 2: ["2a", "2b"], 3: ["3a", "3b"]}
    players = [PlayerState(seat=s, user_id=10 + s, name=names[s], gg=3 - (s == 1), kamas=2 * s,
                           side="south" if s in (0, 2) else "north", timeline=timelines[s]) for s in range(4)]
    if mode == "teams" and teams is None:
        teams = {0: 0, 2: 0, 1: 1, 3: 1}
    return State(
        board=BoardState(arena=Arena.model_validate(ARENA), kamas={"C6": 1, "G4": 2, "F9": 2}),
        players=players,
        pieces=by_id,
        wild_gg=2,
        first_seat=2,
        active_seat=2,
        turn_number=5,
        active_piece="2a",
        phase="turn",
        options={"mode": mode},
        multi=MultiState(mode=mode, seating=[2, 1, 0, 3], teams=teams or {}),  # type: ignore[arg-type]
    )


FOUR_TEAMS = [["bone_crusher", "gale_archer"], ["iron_warden", "ember_witch"], ["tide_healer", "mire_imp"],
              ["cloud_sage", "root_druid"]]


def play_four(steps: int, mode: str = "teams", seed: int = 1) -> list[State]:
    """A four-player game through the engine's API (built-in pack), with the simple policy of ``states.play``."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.krosmaster.engine import KrosmasterEngine
    from tests.renderers.states import play_from

    engine = KrosmasterEngine()
    seats = [SeatSetup(seat=i, user_id=10 + i, name=name, config={"team": team})
             for i, (name, team) in enumerate(zip(["Ann", "Bob", "Cat", "Dan"], FOUR_TEAMS, strict=True))]
    dice = SeededDice(seed)
    state = engine.new_game(Setup(seats=seats, options={"mode": mode}), dice)
    return play_from(engine, state, dice, steps)
