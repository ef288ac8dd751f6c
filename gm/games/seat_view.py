"""The channel's game as one user may see it: the engine's ``view`` for the user's seat, never the
full state, so no hidden card reaches an autocomplete list, a name error or a private panel.

Every game's replies need the same two lookups (Warlord, WoW Miniatures, Mage Knight kept copies):
``seat_view`` answers None when there is no started game of that system here (autocomplete then
offers nothing); ``require_seat_view`` turns the same cases into the error a player reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from engines.core.contract import Engine, GameState
from engines.core.errors import TavoloError
from gm.context import Actor, Place

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

S = TypeVar("S", bound=GameState)


async def seat_view(app: App, place: Place, actor: Actor, system: str, engine: Engine,
                    model: type[S]) -> tuple[S | None, int | None, Table | None]:
    table = await app.tables.table_for(place)
    if table is None or table.game.system != system or not isinstance(table.state, model):
        return None, None, table
    seat = table.seat_of(actor.user_id)
    view = engine.view(table.state, seat)
    assert isinstance(view, model)
    return view, seat, table


async def require_seat_view(app: App, place: Place, actor: Actor, system: str, engine: Engine, model: type[S],
                            wrong_game_key: str) -> tuple[S, int | None, Table]:
    view, seat, table = await seat_view(app, place, actor, system, engine, model)
    if table is None:
        raise TavoloError("game.none_here")
    if table.game.system != system:
        raise TavoloError(wrong_game_key, system=table.game.system)
    if view is None:
        raise TavoloError("game.not_started")
    return view, seat, table
