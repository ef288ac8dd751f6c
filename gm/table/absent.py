"""What the table does for an absent seat (issue 32.2): the move it plays, marked as the table's, and
the GM's ``/gm absent`` that changes a table's policy mid-game.

A move made for an absent player goes through the same steps as the player's own (lock, fresh load,
the engine's checks, one commit), *as the seat*, so it is validated, logged, rated and undoable like
any other. Its action row carries one more event, ``game.absent.move``, naming the policy: the log and
the board say the table played it, and the GM's ``/game undo`` takes it back like any move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common.i18n import t
from db import games as repo
from engines.core.errors import TavoloError
from engines.core.events import Event
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table import absent_policy, clock_sync
from gm.table.core import retry_stale
from gm.table.model import DICE_OPTION, MANUAL_PENDING

if TYPE_CHECKING:
    from gm.table.manager import TableManager

MOVE_EVENT = "game.absent.move"


def move_event(name: str, policy: str) -> Event:
    """The mark of a move the table made for ``name`` under ``policy`` (kept in the action's events)."""
    return Event(key=MOVE_EVENT, params={"user": name, "policy_key": f"game.absent.policy.{policy}"})


async def play_for(tables: TableManager, place: Place, actor: Actor, seat: int, action_data: dict[str, Any],
                   policy: str) -> Reply | None:
    """Play ``action_data`` for the absent ``seat`` (its user is ``actor``), marked as the table's move.
    None when the game no longer waits for that seat (a player moved meanwhile: nothing is played)."""
    async with tables.lock(place.channel_id):
        table = await tables.load(place.channel_id, fresh=True)
        if table is None or table.game.status != "active" or table.game.options.get(MANUAL_PENDING):
            return None
        working = tables._working(table)
        engine = table.engine
        decision = engine.decision(working)
        if decision is None or seat not in decision.seats:
            return None
        action = engine.parse_action(action_data)
        resign = action.kind == "resign"  # ``absent:forfeit``: as ``/game resign``, never undoable by the seat
        if resign and not getattr(engine, "supports_resign", False):
            return await tables._resign_two_seats(table, actor, seat)
        if table.game.options.get(DICE_OPTION) == "manual":
            # the faces are typed by the players: the move waits for them like any other, marked all the same
            return await tables._apply_manual(table, actor, seat, action_data, values=[],
                                              undoable=False if resign else None,
                                              marks=[move_event(actor.name, policy)])
        events, working = tables._apply(table, seat, action, tables.dice.make(), working)
        return await tables._commit(table, actor, seat, action, working, [move_event(actor.name, policy), *events],
                                    asked_before=decision, undoable=False if resign else None)


@retry_stale
async def set_policy(tables: TableManager, place: Place, actor: Actor, policy: str,
                     after: str | None = None) -> Reply:
    """``/gm absent``: the GM changes the channel's absent policy, in the lobby or in play. Writing the options
    touches the game, so the waiting seat gets the whole new bound from now: a GM who turns a policy on
    never has a move played in the same minute for a player who could not know."""
    if not actor.is_gm:
        raise TavoloError("game.gm_only")
    stored = absent_policy.normalize(policy, after)
    async with tables.lock(place.channel_id):
        table = await tables._require(place)
        options = {k: v for k, v in table.game.options.items() if k not in absent_policy.OPTIONS}
        if absent_policy.LEGACY_OPTION in options and not stored:  # an old table's autopilot stops too
            stored = {absent_policy.ABSENT_OPTION: "wait"}
        options.update(stored)
        cap = await tables.away_cap(table.game.guild_id)
        async with tables.store.transaction() as conn:
            await repo.update_game(conn, table.game.id, table.game.version, options=options)
            await clock_sync.policy_changed(conn, table, options, tables.now(), cap)  # issue 32.6: runner, clock
        tables.forget(place.channel_id)
    return Reply(text=t("game.absent.set", actor.locale, user=actor.mention,
                        policy=absent_policy.policy_of(options).phrase()), ping=False)
