"""Ending a game and taking moves back: resign, end votes, undo (also of a finished game).

- A resignation goes through the engine when it supports one (``supports_resign``): the
  player leaves as the rules say and play goes on while two sides remain. Two-seat games
  of engines without it simply end with the other player as the winner.
- An end vote lapses with the next action or after the server's ``end_vote_minutes``, so
  an old vote can never end a game by surprise much later.
- The GM may take back the last action of a finished game too: an override or a move that
  ended the game by mistake is never final.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import games as repo
from engines.core.errors import TavoloError
from engines.core.events import Event
from gm.context import Actor, Place
from gm.reply import Button, Reply
from gm.table import clock_sync, summary
from gm.table.core import retry_stale
from gm.table.manual_dice import ManualDiceTable
from gm.table.model import DICE_OPTION, END_VOTES, RESIGNED, RESULT, Table
from gm.table.ratings import recompute
from gm.table.replies import action_key
from gm.timefmt import iso, parse_iso


class EndingTable(ManualDiceTable):
    async def resign_prompt(self, place: Place, actor: Actor) -> Reply:
        """``/game resign`` asks first (TABLE_UX: what ends something irreversibly needs a confirmation
        button). The button names the game, not the position: moves made meanwhile do not void it,
        but it never resigns the player from a later game in the same channel."""
        table = await self._require(place)
        self._check_resign(table, actor)
        return Reply(text=t("game.resign_confirm", actor.locale), ephemeral=True, buttons=[
            Button(t("game.resign_button", actor.locale), f"tv1:game:resign:{table.game.id}", style="danger")])

    def _check_resign(self, table: Table, actor: Actor) -> int:
        seat = table.seat_of(actor.user_id)
        if seat is None or actor.user_id in table.game.options.get(RESIGNED, []):
            raise TavoloError("game.not_seated")
        if table.game.status != "active":
            raise TavoloError("game.not_started")
        self.require_readable(table)
        return seat

    @retry_stale
    async def resign(self, place: Place, actor: Actor, game_id: int | None = None) -> Reply:
        """Resign at once (the confirmation button, tests); ``game_id`` is the game the button was for."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if game_id is not None and game_id != table.game.id:
                raise TavoloError("common.stale_button")
            seat = self._check_resign(table, actor)
            engine = table.engine
            if getattr(engine, "supports_resign", False):
                data: dict[str, Any] = {"kind": "resign"}
                if table.game.options.get(DICE_OPTION) == "manual":
                    return await self._apply_manual(table, actor, seat, data, values=[], undoable=False)
                action = engine.parse_action(data)
                events, working = self._apply(table, seat, action, self.dice.make())
                return await self._commit(table, actor, seat, action, working, events, undoable=False)
            return await self._resign_two_seats(table, actor, seat)

    async def _resign_two_seats(self, table: Table, actor: Actor, seat: int) -> Reply:
        """Engines without a resignation rule: the game ends and the other seats win."""
        winners = [s.seat for s in table.seats if s.seat != seat]
        result = {"winners": winners, "reason_key": "game.reason_resigned", "params": {"user": actor.name}}
        options = {**table.game.options, RESULT: result}
        ending = await summary.safe_build(self.store.conn, table, table.state, "resign", [])  # issue 32
        if ending is not None:
            options[summary.SUMMARY] = ending
        async with self.store.transaction() as conn:
            await repo.append_action(conn, table.game.id, user_id=actor.user_id, seat=seat, kind="resign",
                                     action={"kind": "resign"}, events=[],
                                     state_before=self.committed_json(table),
                                     undoable=False)
            await repo.update_game(conn, table.game.id, table.game.version, status="finished", options=options)
            await self._rate(table, result)(conn)  # a resignation is a loss (issue 32.5)
        self.forget(table.game.channel_id)
        names = ", ".join(f"<@{table.user_of(s)}>" for s in winners) or "—"
        table.game.options = options
        words = await summary.text(self.store.conn, table, actor.locale)
        return Reply(text="\n".join(w for w in (t("game.resigned", actor.locale, user=actor.mention, winners=names),
                                                 words) if w),
                     mentions=[u for s in winners if (u := table.user_of(s)) is not None])

    @retry_stale
    async def end(self, place: Place, actor: Actor) -> Reply:
        """GM ends at once; otherwise every seated player must ask, before the next move."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            # TABLE_UX: a seat that resigned from a game that plays on never blocks the vote
            seated = {s.user_id for s in table.seats} - set(table.game.options.get(RESIGNED, []))
            if not actor.is_gm and actor.user_id not in seated:
                raise TavoloError("game.not_seated")
            policy = await self.guild_settings.policy(table.game.guild_id)
            position = await repo.last_seq(self.store.conn, table.game.id)
            now = datetime.now(UTC)
            votes = [v for v in table.game.options.get(END_VOTES, [])
                     if _still_valid(v, position, now, policy.end_vote_minutes)]
            if not actor.is_gm and actor.user_id not in {v["user"] for v in votes}:
                votes.append({"user": actor.user_id, "seq": position, "at": iso(now)})
            voters = {v["user"] for v in votes}
            done = actor.is_gm or seated <= voters
            options = {**table.game.options, END_VOTES: votes}
            async with self.store.transaction() as conn:
                await repo.update_game(conn, table.game.id, table.game.version, options=options,
                                       status="abandoned" if done else None)
            self.forget(place.channel_id)
        if done:
            return Reply(text=t("game.ended", actor.locale, user=actor.mention))
        missing = " ".join(f"<@{u}>" for u in sorted(seated - voters))
        lapse = (t("game.end_vote_lapse", actor.locale, minutes=policy.end_vote_minutes)
                 if policy.end_vote_minutes else t("game.end_vote_lapse_move", actor.locale))
        return Reply(text=t("game.end_vote", actor.locale, user=actor.mention, missing=missing) + " " + lapse,
                     mentions=sorted(seated - voters))

    # -------------------------------------------------------------------- undo
    @retry_stale
    async def undo(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self.load(place.channel_id, fresh=True) if not place.is_dm else None
            if table is None:
                return await self._undo_finished(place, actor)
            if table.game.status != "active":
                raise TavoloError("game.not_started")
            self.require_readable(table)
            last = await repo.last_live_action(self.store.conn, table.game.id)
            if last is None or last.state_before is None:
                raise TavoloError("game.nothing_to_undo")
            if not actor.is_gm:
                if last.user_id != actor.user_id:
                    raise TavoloError("game.undo_not_yours")
                if not last.undoable:
                    raise TavoloError("game.undo_revealed")
            options = _without_resignation({k: v for k, v in table.game.options.items() if k != END_VOTES},
                                           last.kind, last.user_id)
            waiting, asks = self.marks_for_text(table, last.state_before)
            async with self.store.transaction() as conn:
                await repo.mark_undone(conn, table.game.id, last.seq)
                await repo.update_game(conn, table.game.id, table.game.version, state=last.state_before,
                                       options=options, waiting=waiting, asks=asks)
                await clock_sync.undo(conn, table, last.seq, self.now())  # issue 32.6: the time it charged comes back
            self.forget(place.channel_id)
            table = await self._require(place)
        return await self._board_reply(table, actor, [Event(key="game.undone", params={
            "user": actor.mention, "action": last.kind, "seq": last.seq,
            "action_key": action_key(table.game.system, last.kind)})])

    async def _undo_finished(self, place: Place, actor: Actor) -> Reply:
        """GM only: reopen the channel's finished game by taking back the action that ended it."""
        table = await self.finished_game(place)
        if table is None or table.game.status != "finished":
            raise TavoloError("game.none_here")
        if not actor.is_gm:
            raise TavoloError("game.undo_finished_gm")
        self.require_readable(table)
        last = await repo.last_live_action(self.store.conn, table.game.id)
        if last is None or last.state_before is None:
            raise TavoloError("game.nothing_to_undo")
        options = _without_resignation({k: v for k, v in table.game.options.items()
                                        if k not in (RESULT, END_VOTES, summary.SUMMARY)},
                                       last.kind, last.user_id)
        waiting, asks = self.marks_for_text(table, last.state_before)
        try:
            async with self.store.transaction() as conn:
                await repo.mark_undone(conn, table.game.id, last.seq)
                await repo.update_game(conn, table.game.id, table.game.version, state=last.state_before,
                                       status="active", options=options, waiting=waiting, asks=asks)
                await clock_sync.undo(conn, table, last.seq, self.now())  # the clocks run again as before the ending
                if table.game.guild_id is not None:  # the reopened game no longer counts: its server's ratings again
                    await recompute(conn, table.game.guild_id)
        except repo.ChannelBusy as exc:  # reopening would make two open games in one channel
            raise TavoloError("game.channel_busy", system=table.game.system, status="?") from exc
        self.forget(place.channel_id)
        table = await self._require(place)
        return await self._board_reply(table, actor, [Event(key="game.undone", params={
            "user": actor.mention, "action": last.kind, "seq": last.seq,
            "action_key": action_key(table.game.system, last.kind)})])


def _without_resignation(options: dict[str, Any], kind: str, user_id: int | None) -> dict[str, Any]:
    """Taking back a resignation seats the player again: their vote is needed to end the game once more."""
    if kind != "resign" or user_id not in options.get(RESIGNED, []):
        return options
    left = [u for u in options[RESIGNED] if u != user_id]
    return {k: v for k, v in options.items() if k != RESIGNED} | ({RESIGNED: left} if left else {})


def _still_valid(vote: object, position: int, now: datetime, minutes: int) -> bool:
    """A vote counts for the position it was cast in, and for ``minutes`` at most (0 = no time limit).

    Votes stored by older versions were bare user ids with no position: they have lapsed."""
    if not isinstance(vote, dict) or vote.get("seq") != position:
        return False
    if minutes <= 0:
        return True
    try:
        return now - parse_iso(str(vote.get("at"))) < timedelta(minutes=minutes)
    except ValueError:
        return False
