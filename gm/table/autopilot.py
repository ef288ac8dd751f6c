"""The absent-player runner (issue 32.2, after issue 17's ``autopilot_hours``): on every reminder tick,
each game whose table has a policy that acts (``gm.table.absent_policy``) and that has waited longer
than its bound gets its waiting seats handled:

- ``autopilot``: the engine's ``autopilot(state, seat)`` move (every engine has one);
- ``skip``: the engine's ``skip_action(state, seat)`` if it has one, else the autopilot's move when it
  only passes (``engines.core.autopilot.PASS_KINDS``); where the rules allow no pass the seat waits;
- ``forfeit``: the seat resigns, as ``/game resign`` does (the game goes on where the rules allow).

The seats handled in one visit are those the game waited for when the visit began (at most
``MOVES_PER_VISIT`` moves): a faction's whole shared turn passes, then the game waits for the other
side, who get their own bound. A seat whose user is on vacation (``gm.table.away``, when that module
exists) is never played for. Moves go through the table pipeline as the seat (``gm.table.absent``), so
they are checked, logged as the table's, and undoable; the channel gets one line naming the policy.

Which games to visit (issue 32.6, migration 020) is two index lookups, never a scan of the games in play:
a table with no clock is due once ``updated_at`` is older than its bound (``games.absent_after``, one range
per distinct bound), a clock table once a waiting seat's time runs out (``games.clock_due``). At a clock's
zero the policy plays for the seats out of time only; with ``absent:wait`` the channel is told once per wait
(``gm.table.turn_clock`` says why).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import clocks as clock_repo
from db import games as repo
from engines import registry
from engines.core import autopilot as core
from engines.core.contract import Action
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table import absent_policy, clock_sync
from gm.table.absent import play_for
from gm.table.absent_policy import Policy, policy_of
from gm.table.manager import TableManager
from gm.table.model import RESIGNED
from gm.table.turn_clock import clock_of
from gm.timefmt import iso, parse_iso

log = logging.getLogger(__name__)
OPTION = absent_policy.LEGACY_OPTION  # kept for callers of issue 17's name
MOVES_PER_VISIT = 40
MAX_POST = 2000  # Discord's limit for one message's text
AWAY_MODULE = "gm.table.away"  # vacation (issue 32.3), written alongside: used once it exists
RETRY = timedelta(hours=1)  # a clock table whose seat ran out but could not be played for is looked at again
PRUNE_EVERY = timedelta(hours=1)  # how often a tick forgets old vacations (``clock_sync.prune``): a scan of them


@dataclass(frozen=True)
class AutopilotPost:
    channel_id: int
    text: str


async def away_of(conn: Any, guild_id: int | None) -> set[int]:
    """Users on vacation in ``guild_id`` now; nobody while the vacation module is not there."""
    if guild_id is None or importlib.util.find_spec(AWAY_MODULE) is None:
        return set()
    module = importlib.import_module(AWAY_MODULE)
    return set(await module.away_users(conn, guild_id))


def choose(engine: Any, policy: str, state: Any, seat: int) -> Action | None:
    """The move the policy makes for ``seat`` now (None: the seat keeps waiting)."""
    if policy == "skip":
        own = getattr(engine, "skip_action", None)
        if own is not None:
            return own(state, seat)  # type: ignore[no-any-return]
        hook = getattr(engine, "autopilot", None)
        return core.skip_of(hook(state, seat)) if hook is not None else None
    hook = getattr(engine, "autopilot", None)
    return hook(state, seat) if hook is not None else None


def fit(lines: list[str], limit: int = MAX_POST) -> str:
    """The lines that fit one Discord message, then "…" (every move is in ``/game log`` anyway)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        line = line if len(line) <= limit // 2 else line[: limit // 2 - 1] + "…"
        if size + len(line) + 1 > limit - 2:
            kept.append("…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


class Autopilot:
    def __init__(self, tables: TableManager, lang: str, owns: Callable[[int | None], bool] | None = None) -> None:
        self.tables = tables
        self.lang = lang
        self.owns = owns or (lambda _guild: True)  # issue 18: a sharded process plays its own guilds only
        self._pruned_at: datetime | None = None  # the last tick that pruned ``away_spans``

    async def tick(self, now: datetime | None = None) -> list[AutopilotPost]:
        """Every game past its own absent bound, or whose turn clock ran out, moves for its absent seats;
        what to post in each channel."""
        now = now or datetime.now(UTC)
        conn = self.tables.store.conn
        before = {bound: iso(now - timedelta(seconds=max(bound, absent_policy.MIN_AFTER.total_seconds())))
                  for bound in await clock_repo.bounds(conn)}
        by_bound = await clock_repo.due_by_bound(conn, before)
        by_clock = await clock_repo.due_clocks(conn, iso(now))
        posts: list[AutopilotPost] = []
        away: dict[int | None, set[int]] = {}
        visits = [(row.updated_at, row, bound) for bound, row in by_bound]
        visits += [(row.updated_at, row, None) for row in by_clock]
        for _, row, bound in sorted(visits, key=lambda v: (v[0], v[1].id)):
            if not self.owns(row.guild_id):
                continue
            try:
                if row.guild_id not in away:
                    away[row.guild_id] = await away_of(conn, row.guild_id)
                if bound is None:
                    text = await self._clock_visit(row, now, away[row.guild_id])
                else:
                    policy = await self._due_policy(row, bound, now)
                    text = await self._play(row, policy, away[row.guild_id]) if policy is not None else ""
            except Exception:  # one broken game must never stop the others
                log.exception("absent policy skipped for game %s", row.id)
                continue
            if text:
                posts.append(AutopilotPost(row.channel_id, text))
        await self._prune(now)
        return posts

    async def _prune(self, now: datetime) -> None:
        """At most once every ``PRUNE_EVERY``, the vacations no clock needs any more go (issue 32.6)."""
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        try:
            async with self.tables.store.transaction() as conn:
                gone = await clock_sync.prune(conn, now)
        except Exception:  # the moves matter more than the housekeeping: the next hour tries again
            log.exception("pruning away_spans failed")
            return
        if gone:
            log.info("pruned %d old away spans", gone)

    async def _due_policy(self, row: repo.DueRow, bound: int, now: datetime) -> Policy | None:
        """The policy of a game its stored bound found, if it is due by its own bound; a bound that is not the
        table's (set before migration 020, or by a path that did not know the policy) is corrected."""
        own = clock_sync.absent_bound(row.options)
        if own != bound:
            async with self.tables.store.transaction() as conn:
                await clock_repo.set_absent_after(conn, row.id, own)
        policy = policy_of(row.options)
        if own is None or not policy.acts or policy.after is None or now - parse_iso(row.updated_at) < policy.after:
            return None
        return policy

    async def _clock_visit(self, row: repo.DueRow, now: datetime, away: set[int]) -> str:
        """A clock table whose earliest wait ran out by ``now``: the policy plays for the seats out of time,
        or (``absent:wait``) the channel is told once; otherwise the clock's due moment is worked out again
        (time away moved it, or the seat moved meanwhile)."""
        store = self.tables.store
        cap = await self.tables.away_cap(row.guild_id)
        lines: list[str] = []
        async with self.tables.lock(row.channel_id):
            table = await self.tables.load(row.channel_id, fresh=True)
            clock = clock_of(row.options)
            if table is None or table.game.id != row.id or table.state is None or clock is None:
                async with store.transaction() as conn:
                    await clock_repo.set_clock_due(conn, row.id, None)
                return ""
            waited = clock_sync.waited_seats(table, table.state)  # resigned seats left out
            out = {time.seat for time in await clock_sync.times(store.conn, table, clock, now, cap)
                   if time.waiting and time.left is not None and time.left <= timedelta(0) and not time.flagged
                   and time.seat in waited and time.user_id not in away}
            policy = policy_of(table.game.options)
            if not out or not policy.acts:
                async with store.transaction() as conn:
                    if out:  # absent:wait: said once a wait, then the table waits for the seat (or the GM)
                        clocks = await clock_repo.seat_clocks(conn, row.id)
                        for seat in out:
                            clocks[seat].flagged = True
                            lines.append(t("game.clock.ran_out_wait", self.lang, user=f"<@{table.user_of(seat)}>"))
                        await clock_repo.save_seat_clocks(conn, row.id, list(clocks.values()))
                    await clock_sync.settle(conn, table, clock, waited, waited, now, cap, retry_at=now + RETRY)
                return fit(lines)
        text = await self._play(row, policy, away, only=out)
        if not text:  # nothing could be played (no pass where the rules allow none): look again later
            async with store.transaction() as conn:
                await clock_repo.set_clock_due(conn, row.id, iso(now + RETRY))
        return text

    async def _play(self, row: repo.DueRow, policy: Policy, away: set[int], only: set[int] | None = None) -> str:
        """Play for the seats the game waits for now (``only``: those out of time on the clock)."""
        engine: Any = registry.get(row.system)
        if engine is None:
            return ""
        place = Place(channel_id=row.channel_id, guild_id=row.guild_id)
        lines: list[str] = []
        absent: set[int] | None = None  # the seats the game waited for when this visit began
        announced: set[int] = set()
        for _ in range(MOVES_PER_VISIT):
            table = await self.tables.load(row.channel_id, fresh=True)
            if table is None or table.state is None or table.game.id != row.id or table.game.status != "active":
                break
            decision = engine.decision(table.state)
            if decision is None:
                break
            resigned = set(table.game.options.get(RESIGNED, []))
            if absent is None:
                absent = {s for s in decision.seats if (u := table.user_of(s)) is not None
                          and u not in away and u not in resigned and (only is None or s in only)}
            elif only is not None:  # on the clock, a seat the game stopped waiting for has a fresh wait
                absent &= set(decision.seats)
            seat = next((s for s in decision.seats if s in absent), None)
            user = table.user_of(seat) if seat is not None else None
            if seat is None or user is None:
                break  # the game waits for someone else now: they get their own bound
            name = next((s.name for s in table.seats if s.seat == seat), str(seat + 1))
            actor = Actor(user_id=user, name=name, locale=self.lang)
            reply = await self._move(table.state, engine, policy, place, actor, seat)
            if reply is None:
                break
            if seat not in announced:
                announced.add(seat)
                assert policy.after is not None
                said = t(f"game.absent.policy.{policy.name}", self.lang)
                lines.append(t("game.clock.ran_out", self.lang, user=f"<@{user}>", policy=said) if only is not None
                             else t("game.absent.played", self.lang, user=f"<@{user}>",
                                    after=absent_policy.duration_phrase(policy.after), policy=said))
            lines.append(reply.brief or reply.text)
            if policy.name == "forfeit":
                absent.discard(seat)  # resigned: the next seat the game waited for, if any
        return fit([line for line in lines if line])

    async def _move(self, state: Any, engine: Any, policy: Policy, place: Place, actor: Actor,
                    seat: int) -> Reply | None:
        if policy.name == "forfeit":  # the seat resigns as the player would (``/game resign``)
            return await play_for(self.tables, place, actor, seat, {"kind": "resign"}, policy.name)
        action = choose(engine, policy.name, state, seat)
        if action is None:
            return None
        return await play_for(self.tables, place, actor, seat, action.model_dump(), policy.name)
