"""The challenge score, each server's daily puzzle and its leaderboard.

Daily puzzle: the seed, tier and site come from a hash of the server id and the UTC date,
so every member of a server gets the same deal that day and another server gets another;
nothing is stored to make it so. ``/mk daily`` opens and starts it in the channel.

Scores: when a challenge ends (not conceded) its score is stored per server, day and user
(``db/mageknight_scores.py``); a game that matches its server's puzzle of the day it was
opened counts for that day's leaderboard, however it was opened.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from common.i18n import t
from db import mageknight_scores as repo
from db.store import Store
from engines.core.errors import TavoloError
from engines.mageknight.rules_outcome import score as score_of
from engines.mageknight.rules_setup import CHALLENGE_SITES, MAX_SEED
from engines.mageknight.state import Result, State
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table.model import Table

if TYPE_CHECKING:
    from gm.table.manager import TableManager

SYSTEM = "mageknight"
LEADERBOARD_SIZE = 10


@dataclass(frozen=True)
class Puzzle:
    seed: int
    tier: int
    site: str

    def options(self) -> str:
        return f"mode:challenge site:{self.site} tier:{self.tier} seed:{self.seed}"


def today() -> date:
    return datetime.now(UTC).date()


def daily_puzzle(guild_id: int | None, day: date) -> Puzzle:
    """The server's puzzle of ``day``: the same for every member, different for every server and day."""
    digest = hashlib.sha256(f"mageknight:{guild_id or 0}:{day.isoformat()}".encode()).digest()
    seed = int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)
    tier = 1 + digest[8] % 4
    site = CHALLENGE_SITES[digest[9] % len(CHALLENGE_SITES)]
    return Puzzle(seed=seed, tier=tier, site=site)


def day_of(stamp: str) -> date:
    """The UTC date of a stored timestamp (``2025-01-31T23:59:59.123Z``)."""
    return date.fromisoformat(stamp[:10])


def is_daily(guild_id: int | None, opened: date, state: State) -> bool:
    puzzle = daily_puzzle(guild_id, opened)
    return (state.mode == "challenge" and state.seed == puzzle.seed and state.tier == puzzle.tier
            and state.site == puzzle.site)


def daily_intro(puzzle: Puzzle, day: date, lang: str) -> str:
    return t("mk.ui.daily_intro", lang, day=day.isoformat(), tier=puzzle.tier, site=t(f"mk.site.{puzzle.site}", lang),
             seed=puzzle.seed)


# ---------------------------------------------------------------------------- recording
def score_row(table: Table) -> repo.ScoreRow | None:
    """The score of a finished, not conceded challenge at ``table``, or None."""
    state = table.state
    if table.game.system != SYSTEM or not isinstance(state, State) or state.mode != "challenge":
        return None
    result = state.result
    if state.phase != "over" or result is None or result.conceded or state.seed is None or state.tier is None:
        return None
    user = table.user_of(state.fighter)
    if user is None:
        return None
    opened = day_of(table.game.created_at)
    name = next((s.name for s in table.seats if s.user_id == user), "")
    return repo.ScoreRow(game_id=table.game.id, guild_id=table.game.guild_id, channel_id=table.game.channel_id,
                         user_id=user, user_name=name, day=opened.isoformat(),
                         daily=is_daily(table.game.guild_id, opened, state), seed=state.seed, tier=state.tier,
                         site=state.site, score=result.score, fame=result.fame,
                         wounds=result.hero_wounds + result.discard_wounds, won=not result.survived)


async def record(store: Store, table: Table | None) -> bool:
    """Store the score if ``table`` is a finished challenge; True when one was stored."""
    row = score_row(table) if table is not None else None
    if row is None:
        return False
    await repo.record(store, row)
    return True


async def record_last(store: Store, tables: TableManager, place: Place) -> bool:
    """After an action: if the channel's game just ended, store its score (idempotent)."""
    if await tables.table_for(place) is not None:  # still going: nothing to store
        return False
    return await record(store, await tables.finished_game(place))


# ---------------------------------------------------------------------------- replies
def score_text(state: State, lang: str) -> str:
    """How the challenge score is made, with this combat's numbers (a fixed, public formula)."""
    result = state.result
    if result is None:  # still fighting: what it would be if the combat ended now
        hero = state.hero
        survived = [e for e in state.enemies if e.status != "defeated" and e.summoned_by is None]
        result = Result(fame=state.fame, hero_wounds=hero.combat_hand_wounds,
                        discard_wounds=hero.combat_discard_wounds, unit_wounds=sum(u.wounds for u in state.units),
                        units_destroyed=sum(u.destroyed for u in state.units),
                        survived=[e.uid for e in survived])
        result.score = score_of(result, not survived)
        head = t("mk.ui.score_now", lang, score=result.score)
    elif result.conceded:
        return t("mk.ui.score_conceded", lang)
    else:
        head = t("mk.ui.score_final", lang, score=result.score)
    clean = 3 if not result.survived else 0
    wounds = result.hero_wounds + result.discard_wounds
    detail = t("mk.ui.score_detail", lang, fame=result.fame, clean=clean, wounds=wounds, penalty=2 * wounds,
               unit_wounds=result.unit_wounds, destroyed=result.units_destroyed,
               destroyed_penalty=2 * result.units_destroyed, score=result.score)
    return f"{head}\n{detail}"


async def score_reply(store: Store, tables: TableManager, place: Place, actor: Actor) -> Reply:
    """``/mk score``: this channel's combat (or the last one) and how its score is made."""
    table = await tables.table_for(place)
    if table is None or table.game.status != "active":
        table = await tables.finished_game(place)
        await record(store, table)
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        raise TavoloError("mk.ui.no_combat")
    state = table.state
    lines = [score_text(state, actor.locale)]
    if state.mode == "challenge" and state.seed is not None:
        lines.append(t("mk.ui.score_replay", actor.locale, seed=state.seed, tier=state.tier,
                       site=state.site))
    return Reply(title=t("mk.ui.score_title", actor.locale), text="\n".join(lines), ephemeral=True)


async def leaderboard_reply(store: Store, place: Place, actor: Actor, day: str | None = None) -> Reply:
    """``/mk leaderboard``: the best score of each member on the server's puzzle of the day."""
    lang = actor.locale
    when = today()
    if day:
        try:
            when = date.fromisoformat(day.strip())
        except ValueError:
            raise TavoloError("mk.ui.bad_day", day=day.strip()[:20]) from None
    puzzle = daily_puzzle(place.guild_id, when)
    rows = await repo.daily_board(store, place.guild_id, when.isoformat(), LEADERBOARD_SIZE)
    lines = [daily_intro(puzzle, when, lang)]
    if not rows:
        lines.append(t("mk.ui.leaderboard_empty", lang))
    for rank_number, row in enumerate(rows, start=1):
        key = "mk.ui.leaderboard_line_won" if row.won else "mk.ui.leaderboard_line"
        lines.append(t(key, lang, rank=rank_number, user=f"<@{row.user_id}>", score=row.score, fame=row.fame,
                       wounds=row.wounds))
    return Reply(title=t("mk.ui.leaderboard_title", lang, day=when.isoformat()), text="\n".join(lines), ping=False)
