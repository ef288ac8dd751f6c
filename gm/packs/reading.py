"""Read a server's content pack (JSON or YAML) safely, for any game.

A pack is untrusted: ``gm.packs.safe_data`` bounds what the text may expand to, and the whole
read (parse + the engine's pydantic validation) runs in an offload child with the
``content_pack`` budget, so even a pathological pack cannot stall the bot's loop. The child
is queued under the uploading server's id, so one server's uploads cannot hold the slots of
the others (``gm.workers.offload_queue``). Engines keep only their ``load_pack(dict)``
validation; the text never reaches them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from gm.packs.safe_data import DataLimits, load_data
from gm.workers import offload


def parse_pack(text: str, filename: str, validate: Callable[[Any], BaseModel],
               limits: DataLimits = DataLimits()) -> dict[str, Any]:
    """Text → the engine's validated pack, as the JSON-ready dict that is stored.

    Runs in the offload child; returns plain data so the parent unpickles a dict, not a
    model it would have to validate again on the loop.
    """
    return validate(load_data(text, filename, limits)).model_dump(mode="json")


async def read_pack(text: str, filename: str, validate: Callable[[Any], BaseModel], *,
                    guild_id: int | None = None, max_bytes: int | None = None,
                    budget: offload.Budget | None = None) -> dict[str, Any]:
    """``parse_pack`` off the loop, within the content-pack budget (settings by default).

    ``validate`` must be a module-level function (it is sent to the child by name), e.g.
    ``engines.krosmaster.content.load_pack``. Its ``RuleError``s arrive unchanged.
    ``guild_id`` is the uploading server (its jobs queue behind its own); ``max_bytes`` is the
    game's byte limit, which the value and text bounds are scaled to (``DataLimits.for_bytes``)
    so that they never refuse a file the byte limit admits.
    """
    limits = DataLimits.for_bytes(max_bytes) if max_bytes is not None else DataLimits()
    return await offload.run(parse_pack, text, filename, validate, limits,
                             budget=budget or offload.limits().content_pack, what=f"content pack {filename!r}",
                             guild_id=guild_id)
