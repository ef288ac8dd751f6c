"""Managing a server's content packs: saving without surprises, removing, listing.

Generic over games (``system``): every game with content packs reuses it. Saving over an
existing pack needs ``replace:true``, so an import never silently changes the content of a
server's tables; a pack that an open lobby or game was created with cannot be removed until
that table ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common.i18n import t
from db import content_packs as packs
from db.store import Store
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.reply import Reply

MAX_NAME = 40


def pack_name(raw: str) -> str:
    """The name a pack is known by in ``options:"pack:NAME"``: lower case, no spaces."""
    return raw.strip().lower().replace(" ", "_")[:MAX_NAME]


def _check(place: Place, actor: Actor) -> int:
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    if not actor.can_manage_guild:
        raise TavoloError("common.missing_permissions")
    return place.guild_id


async def read_upload(place: Place, actor: Actor, data: bytes, filename: str, parse: Callable[[Any], Any], *,
                      max_bytes: int, too_big: str, not_text: str) -> Any:
    """An uploaded pack, parsed and checked by ``parse`` off the loop within its budget
    (``gm.packs.reading.read_pack``), once the upload comes from a server the uploader may manage
    and the file is small enough and text; ``too_big`` and ``not_text`` are the game's own error
    keys. The parse is queued under the server's id (a server's uploads wait behind its own, never
    behind another server's), and its value and text bounds are scaled to ``max_bytes``."""
    from gm.packs.reading import read_pack

    guild = _check(place, actor)
    if len(data) > max_bytes:
        raise TavoloError(too_big, size=len(data), limit=max_bytes)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TavoloError(not_text) from exc
    return await read_pack(decoded, filename, parse, guild_id=guild, max_bytes=max_bytes)


async def save(store: Store, place: Place, actor: Actor, system: str, name: str, data: dict[str, Any],
               replace: bool) -> bool:
    """Store a validated pack; returns True when it replaced one (only with ``replace``)."""
    guild = _check(place, actor)
    async with store.transaction() as conn:
        existing = await packs.get_pack(conn, guild, system, name)
        if existing is not None and not replace:
            raise TavoloError("packs.exists", name=name, system=system)
        await packs.save_pack(conn, guild_id=guild, system=system, name=name, data=data, created_by=actor.user_id)
    return existing is not None


async def remove(store: Store, place: Place, actor: Actor, system: str, raw_name: str) -> Reply:
    guild = _check(place, actor)
    name = pack_name(raw_name)
    async with store.transaction() as conn:
        known = await packs.list_packs(conn, guild, system)
        if name not in known:
            raise TavoloError("packs.unknown", name=name, system=system, known=", ".join(known) or "—")
        channels = await packs.channels_using(conn, guild, system, name)
        if channels:
            raise TavoloError("packs.in_use", name=name, channels=" ".join(f"<#{c}>" for c in channels))
        await packs.delete_pack(conn, guild, system, name)
    return Reply(text=t("packs.removed", actor.locale, name=name, system=system))


async def names(store: Store, guild_id: int | None, system: str) -> list[str]:
    return await packs.list_packs(store.conn, guild_id, system) if guild_id is not None else []


async def list_reply(store: Store, place: Place, actor: Actor, system: str) -> Reply:
    found = await names(store, place.guild_id, system)
    text = ", ".join(f"`{n}`" for n in found) if found else t("packs.none", actor.locale, system=system)
    return Reply(title=t("packs.list_title", actor.locale, system=system), text=text, ephemeral=True)
