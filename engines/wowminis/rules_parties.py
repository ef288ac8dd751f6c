"""More than two players (101.1, 102, 403.2c, 500.3c): free-for-all of 3-4 and 2 vs 2 teams.

101.1 says the rules are written for two players; the seed still speaks of "the first player to the
left", of "every other player" and of teams (400.2, 500.3c), so the table may seat more. The readings
this module holds, each in one place:

- **Parties.** A *party* here is what the rules treat as one player: a seat on its own, or a whole team
  (500.3c says teams count as one player; 102 is read the same way). ``party_of`` names it.
- **Seats and teams.** Seats sit round the table in join order, clockwise. With ``teams`` the 1st and 3rd
  seats play against the 2nd and 4th, so turns to the left alternate between the teams.
- **Spawn points (403.1, 406.3b).** In a duel or a team game a seat spawns on its side's points (A33:
  team 1 side A, team 2 side B). In a free-for-all of 3-4 every party needs points of its own, and maps
  are drawn with two sides: ``deal_spawns`` hands each seat one point clockwise round the map, in seat
  order, the printed sides ignored; points nobody was dealt are neutral, open to all.
- **Kill VP (403.2c, A11).** Two parties: the opponent scores, as before. More: the last enemy player
  whose damage reached the character since it entered play scores. With no such player (self-inflicted,
  a buff's damage that is nobody's, 301.2a) the opponent scores when there is exactly one opposing party
  (a team), and nobody does in a free-for-all, where "the opponent" names no one.
- **Winning (102.1, 102.2).** A team's VP, goal and Honor are its members' added together, and the team
  wins or loses as one. Simultaneous arrivals compare parties by margin, then Honor, then sudden death.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engines.wowminis.content import MapDef
from engines.wowminis.rules_board import relation
from engines.wowminis.state import CharState, PlayerState, State

TEAM_SEATS = ((0, 2), (1, 3))
"""2 vs 2: the 1st and 3rd seats are team 1, the 2nd and 4th team 2 (turns to the left alternate teams)."""


def party_of(state: State, seat: int) -> int:
    """The party a seat plays in: its team (0, 1), or the seat itself (as ``10 + seat``) when it has none."""
    team = next((p.team for p in state.players if p.seat == seat), None)
    return team if team is not None else 10 + seat


def has_teams(state: State) -> bool:
    return any(p.team is not None for p in state.players)


def free_for_all(state: State) -> bool:
    """Three or more parties, each spawning on its own points."""
    return any(p.spawns for p in state.players)


def tie_chooser(state: State, order: list[int], owners: set[int]) -> int:
    """500.3c: who picks among several tied characters. ``order`` is the seats from the active player
    clockwise (``rules_react.seat_order``); ``owners`` are the controllers of the tied characters.

    One party owns them all: it picks. Otherwise the first party to the left of the active one that owns
    one picks (A8: among all of them). A team is one player here; the member who answers is the first of
    its seats, from the active player clockwise, that controls one of the tied characters."""
    parties = {party_of(state, s) for s in owners}
    if len(parties) == 1:
        chosen = next(iter(parties))
    else:
        ring = list(dict.fromkeys(party_of(state, s) for s in order))  # the active party first
        ring += [p for p in sorted(parties) if p not in ring]  # a resigned seat's party (never reached in play)
        chosen = next(p for p in ring[1:] + ring[:1] if p in parties)
    seats = [s for s in order if s in owners and party_of(state, s) == chosen]
    return seats[0] if seats else min(s for s in owners if party_of(state, s) == chosen)


def kill_scorer(state: State, c: CharState) -> int | None:
    """403.2c: the seat that scores destroying ``c`` (see the module docstring); None: nobody."""
    enemies = [p.seat for p in state.players if not p.resigned and relation(state, p.seat, c.controller) == "enemy"]
    if c.last_hit is not None and c.last_hit in enemies:
        return c.last_hit
    if len({party_of(state, s) for s in enemies}) == 1:  # one opposing party: A11's "the opponent"
        after = sorted(enemies, key=lambda s: (s < c.controller, s))  # the first enemy to its left
        return after[0]
    return None


@dataclass(frozen=True)
class Standing:
    """One party's race to its goal (102.1): its seats, and their VP, goal and Honor added together."""

    seats: tuple[int, ...]
    vp: int
    goal: int
    honor: int


def standings(state: State, players: list[PlayerState]) -> list[Standing]:
    """The parties still playing, in seat order."""
    grouped: dict[int, list[PlayerState]] = {}
    for p in players:
        grouped.setdefault(party_of(state, p.seat), []).append(p)
    return [Standing(seats=tuple(p.seat for p in members), vp=sum(p.vp for p in members),
                     goal=sum(p.goal for p in members), honor=sum(p.honor_total for p in members))
            for members in sorted(grouped.values(), key=lambda ms: ms[0].seat)]


def deal_spawns(board: MapDef, count: int) -> list[list[str]]:
    """403.1 in a free-for-all: one spawn point per seat, clockwise round the map from the top left.

    Side points come first (a map's sides are drawn at its edges); neutral points are used only when the
    sides have too few. The chosen points are spread evenly round the circle so neighbours at the table
    are neighbours on the map, and seat 1 gets the point nearest the top left."""
    sided = [s.at for s in board.spawn_points if s.side != "neutral"]
    pool = sided if len(sided) >= count else [s.at for s in board.spawn_points]
    if len(pool) < count:
        return []

    def xy(label: str) -> tuple[float, float]:
        col = ord(label[0].upper()) - ord("A")
        row = int(label[1:]) - 1
        return col * 1.5, row * math.sqrt(3) + (math.sqrt(3) / 2 if col % 2 else 0)

    centre = ((board.columns - 1) * 0.75, (board.rows - 1) * math.sqrt(3) / 2 + math.sqrt(3) / 4)

    def angle(label: str) -> float:  # clockwise on screen (y grows downwards), in [0, 360)
        x, y = xy(label)
        return math.degrees(math.atan2(y - centre[1], x - centre[0])) % 360

    ring = sorted(pool, key=angle)
    start = ring.index(min(ring, key=lambda at: (math.hypot(*xy(at)), at)))  # the point nearest the top left
    ring = ring[start:] + ring[:start]
    picked = [ring[(i * len(ring)) // count] for i in range(count)]
    return [[at] for at in picked]


def spawn_points_of(state: State, seat: int) -> list[str]:
    """406.3b/A33: where a seat's characters may enter play. Duel and teams: its side's points and the
    neutral ones. Free-for-all: its own points and every point dealt to nobody."""
    player = state.player(seat)
    if not free_for_all(state):
        return [s.at for s in state.board.spawn_points if s.side in (player.side, "neutral")]
    dealt = {at for p in state.players for at in p.spawns}
    return list(player.spawns) + [s.at for s in state.board.spawn_points if s.at not in dealt]
