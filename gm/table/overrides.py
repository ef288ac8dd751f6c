"""``/gm`` overrides for the game in the channel: each subcommand works for the games that declare it,
and says so in words everywhere else (issue 26, convention 5).

The ``/gm`` command tree is one for the whole bot (Discord cannot show a channel's own subcommands),
so a GM may type ``/gm note`` at a WoW Miniatures table. Without this check the engine refused the
unknown action in its own terms ("Unknown action gm_note. Actions: choose_bar, …"). A presenter
names its overrides in ``gm_commands``; everything else is refused here with that list, before
any action is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.core.errors import TavoloError
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Reply

if TYPE_CHECKING:
    from gm.table.manager import TableManager


def gm_commands(system: str | None) -> frozenset[str]:
    """The ``/gm`` subcommands the system's presenter declares (none for a game without overrides)."""
    presenter = presenters.get(system) if system else None
    return frozenset(getattr(presenter, "gm_commands", ()))


def check_override(system: str, command: str) -> None:
    available = sorted(gm_commands(system))
    if command not in available:
        raise TavoloError("game.gm_not_here", command=f"/gm {command}", system=system,
                          available=", ".join(f"/gm {c}" for c in available) or "—")


async def gm_override(tables: TableManager, place: Place, actor: Actor, command: str,
                      action: dict[str, Any]) -> Reply:
    """Build the override with the piece named as the board shows it ("SHA", "Shadow Rogue"): the
    system's presenter renames the shared fields (``gm_fields``) and resolves the piece
    (``resolve_piece``), listing the valid names otherwise; then the table acts as for any move."""
    table = await tables.table_for(place)
    if table is None:
        return await tables.act(place, actor, action)  # the usual "no game here" answer
    if not actor.is_gm:
        raise TavoloError("game.gm_only")
    check_override(table.game.system, command)
    presenter = presenters.get(table.game.system)
    named = dict(action)
    fields = getattr(presenter, "gm_fields", None)  # each game's own names for the shared overrides
    if fields is not None:
        named = fields(named)
    resolver = getattr(presenter, "resolve_piece", None)
    if "piece" in named and resolver is not None and table.state is not None:
        named["piece"] = resolver(table.state, str(named["piece"]), lang=actor.locale)
    names = getattr(presenter, "gm_resolve", None)  # every other named field ("militia axe", a region)
    if names is not None and table.state is not None:
        named = names(table.state, named, lang=actor.locale)  # a miss lists names in the GM's language
    return await tables.act(place, actor, named)
