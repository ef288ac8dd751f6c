"""The actions players ask for with ``/mk`` commands where more than one typed option is read
together: a declared attack or block (assist mode) and a damage assignment; and the recipients list,
which depends on the enemy typed beside it.

The cog only reads Discord's options and hands them here, so it never needs the engine's types;
``MAX_PACK_BYTES`` is here for the pack admin cog, which refuses a bigger upload before downloading it.
"""

from __future__ import annotations

from typing import Any

from engines.core.errors import TavoloError
from engines.mageknight.content import MAX_PACK_BYTES
from engines.mageknight.state import State
from gm.games.choices import Choice
from gm.games.mageknight import choices

__all__ = ["MAX_PACK_BYTES", "add", "assign", "recipient_choices"]


def add(state: State, amount: int, effect: str, unit: str | None, label: str | None,
        lang: str = "en") -> dict[str, Any]:
    """``/mk add``: an attack or block played at the player's own table; with no kind typed, the kind
    of the open column (an attack when none is open)."""
    action: dict[str, Any] = {"kind": "add", "amount": amount, **choices.parse_effect(effect)}
    action.setdefault("effect", state.staged.kind if state.staged else "attack")
    if unit:
        action["unit"] = choices.resolve_unit_name(state, unit, lang)
    if label:
        action["label"] = label.strip()[:60]
    return action


def assign(state: State, to: str, enemy: str | None, lang: str = "en") -> dict[str, Any]:
    """``/mk assign``: whose damage (when named) goes to a unit or the hero; an autocomplete value
    carries both. ``lang``: the words of the error that lists the recipients."""
    recipient, whose = choices.resolve_recipient(state, to, choices.resolve_damage_enemy(state, enemy, lang), lang)
    return {"kind": "assign", "to": recipient, "enemy": whose}


def recipient_choices(state: State, seat: int | None, enemy: str | None, current: str, lang: str) -> list[Choice]:
    """``/mk assign to:``: the recipients of the typed enemy's damage; while that name is half typed
    (or empty), every enemy's."""
    try:
        named = choices.resolve_damage_enemy(state, enemy, lang)
    except TavoloError:  # half typed: every enemy's recipients
        named = None
    return choices.recipient_choices(state, seat, named, current, lang)
