"""Ratings per server and per game (issue 32.5), kept with OpenSkill's Plackett-Luce model.

Why OpenSkill: one model rates 1 vs 1, free-for-all (Krosmaster and Warlord for four), and teams
(Krosmaster 2 vs 2, the WoW board game's factions) from the same ranks, and it is a maintained library
rather than arithmetic of our own. Each member has a rating per (server, system): a mean ``mu`` and an
uncertainty ``sigma``; what the tables show is the conservative estimate ``mu − 3σ`` (OpenSkill's
ordinal), scaled to points (``points``): 1,000 for a newcomer, rising as wins accumulate and as the
uncertainty shrinks.

When a game counts: it finished by its rules (a result stored with it), on a server, with at least two
different members seated. A game the GM ended, one abandoned, or a lobby never rates anyone. A
resignation is a loss: the resigner is never among the winners. A game is rated once, in the same
transaction that stores its end (``rate_game`` is called inside ``db.games.commit_action``'s
transaction, or the two-seat resignation's), so a crash never leaves one without the other; the GM's
undo of the ending move takes the game's rating back by recomputing its (server, system).

Teams: seats with a team (``seats.team``) are rated as teams when every seat has one and there are at
least two; otherwise each seat is its own team. The winners' teams rank first, every other team second
(the engines report winners, not full placings); a result with no winner, or everyone winning, is a draw.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from db import ratings as repo
from gm.table.model import RESULT

MODEL = PlackettLuce()
START_POINTS = 1000
POINTS_PER_ORDINAL = 40


@dataclass(frozen=True)
class RatedSeat:
    seat: int
    user_id: int
    team: str | None


def points(mu: float, sigma: float) -> int:
    """What a table shows: the conservative estimate, scaled (a newcomer's is ``START_POINTS``)."""
    return round(START_POINTS + POINTS_PER_ORDINAL * (mu - 3 * sigma))


def changes_for(seats: Sequence[RatedSeat], winners: Iterable[int],
                before: dict[int, repo.Rating]) -> list[repo.Change]:
    """Each member's result and new rating from one finished game; empty when it does not count."""
    if len({seat.user_id for seat in seats}) < 2:
        return []
    won = set(winners)
    draw = not won or all(seat.seat in won for seat in seats)
    teamed = all(seat.team for seat in seats) and len({seat.team for seat in seats}) >= 2
    groups: dict[str, list[RatedSeat]] = {}
    for seat in sorted(seats, key=lambda s: s.seat):
        groups.setdefault(str(seat.team) if teamed else f"seat{seat.seat}", []).append(seat)
    teams = list(groups.values())
    ranks = [1 if draw or any(seat.seat in won for seat in team) else 2 for team in teams]
    starting = [[_rating(before.get(seat.user_id)) for seat in team] for team in teams]
    rated = MODEL.rate(starting, ranks=ranks)
    changes: list[repo.Change] = []
    for team, rank, old_team, new_team in zip(teams, ranks, starting, rated, strict=True):
        result = "drawn" if draw else "won" if rank == 1 else "lost"
        for seat, old, new in zip(team, old_team, new_team, strict=True):
            changes.append(repo.Change(seat.user_id, result, float(old.mu), float(old.sigma),
                                       float(new.mu), float(new.sigma)))
    return changes


def _rating(stored: repo.Rating | None) -> Any:
    return MODEL.rating() if stored is None else MODEL.rating(mu=stored.mu, sigma=stored.sigma)


async def rate_game(conn: Any, game_id: int, guild_id: int | None, system: str, seats: Sequence[RatedSeat],
                    result: dict[str, Any] | None) -> list[repo.Change]:
    """Rate one finished game inside the caller's transaction (once; nothing when it does not count)."""
    if guild_id is None or not result or await repo.is_rated(conn, game_id):
        return []
    before = await repo.current(conn, guild_id, system, (seat.user_id for seat in seats))
    changes = changes_for(seats, result.get("winners", []), before)
    if changes:
        await repo.record(conn, game_id, guild_id, system, changes)
    return changes


@dataclass(frozen=True)
class Recomputed:
    games: int  # finished games replayed
    rated: int  # of which counted
    ratings: int  # ratings written
    differing: list[tuple[int, str, int]]  # (server, system, member) whose stored rating was not the recomputed one


async def recompute(conn: Any, guild_id: int | None = None) -> Recomputed:
    """Every rating again from the stored finished games, in the order they ended, in the caller's
    transaction; says which stored ratings differed (none, when every game was rated as it ended)."""
    stored = await repo.everything(conn, guild_id)
    await repo.clear(conn, guild_id)
    games = await repo.finished_games(conn, guild_id)
    rated = 0
    for game_id, guild, system, options_text, seats in games:
        options = json.loads(options_text or "{}")
        changes = await rate_game(conn, game_id, guild, system,
                                  [RatedSeat(seat, user, team) for seat, user, team in seats], options.get(RESULT))
        rated += bool(changes)
    now = await repo.everything(conn, guild_id)
    differing = sorted(key for key in stored.keys() | now.keys()
                       if key not in stored or key not in now or not _same(stored[key], now[key]))
    return Recomputed(len(games), rated, len(now), differing)


def _same(a: repo.Rating, b: repo.Rating) -> bool:
    return (math.isclose(a.mu, b.mu, abs_tol=1e-9) and math.isclose(a.sigma, b.sigma, abs_tol=1e-9)
            and (a.played, a.won, a.lost, a.drawn) == (b.played, b.won, b.lost, b.drawn))
