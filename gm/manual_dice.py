"""Manual dice mode (DESIGN.md §3): the group rolls physical dice and types the faces.

Engines are deterministic given their dice, so the table replays the action with the
faces typed so far; when the rules need more, it remembers the action and asks for them.
"""

from __future__ import annotations

from typing import Any

from db import games as repo
from engines.core.dice import DiceNeeded, ManualDice, SeededDice
from engines.core.errors import TavoloError
from gm import presenters
from gm.context import Actor, Place
from gm.i18n import t
from gm.reply import Reply
from gm.table_core import TableCore, retry_stale
from gm.table_model import MANUAL_PENDING, Table

MAX_MANUAL_VALUES = 100


class ManualDiceTable(TableCore):
    async def _apply_manual(self, table: Table, actor: Actor, seat: int | None, action_data: dict[str, Any],
                            values: list[int]) -> Reply:
        """Replay the action with the faces typed so far; if the rules need more dice,
        remember the action and ask its player to roll them."""
        action = table.engine.parse_action(action_data)
        try:
            events, working = self._apply(table, seat, action, ManualDice(values))
        except DiceNeeded as need:
            probe = SeededDice(0)
            try:  # how many dice a typical resolution takes, to ask for them in one go
                self._apply(table, seat, action, probe)
                expected = max(len(probe.drawn) - need.used, 1)
            except Exception:
                expected = 1
            pending = {"user_id": actor.user_id, "seat": seat, "action": action_data, "values": values,
                       "sides": need.sides}
            options = {**table.game.options, MANUAL_PENDING: pending}
            async with self.store.transaction() as conn:
                await repo.update_game(conn, table.game.id, table.game.version, options=options)
            self.forget(table.game.channel_id)
            return Reply(text=t("game.manual_roll", actor.locale, user=actor.mention, count=expected,
                                sides=need.sides, faces=face_hint(table.game.system, need.sides, actor.locale)),
                         mentions=[actor.user_id])
        return await self._commit(table, actor, seat, action, working, events)

    @retry_stale
    async def provide_dice(self, place: Place, actor: Actor, text: str) -> Reply:
        """``/game dice values:"3 5"``: the faces of the physical dice the bot asked for."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            self.require_readable(table)
            pending = table.game.options.get(MANUAL_PENDING)
            if not pending:
                raise TavoloError("game.manual_nothing_pending")
            if actor.user_id != pending["user_id"] and not actor.is_gm:
                raise TavoloError("game.manual_not_yours", user=f"<@{pending['user_id']}>")
            values = parse_faces(text, table.game.system, int(pending["sides"]))
            user = next((s for s in table.seats if s.user_id == pending["user_id"]), None)
            roller = actor if actor.user_id == pending["user_id"] or user is None else Actor(
                user_id=user.user_id, name=user.name, locale=actor.locale)
            return await self._apply_manual(table, roller, pending["seat"], pending["action"],
                                            [*pending["values"], *values])


def _face_names(system: str, sides: int) -> dict[int, str]:
    """Label keys of a special die's faces, if the system's presenter declares any."""
    presenter = presenters.get(system)
    hook = getattr(presenter, "die_faces", None)
    return (hook(sides) if hook else None) or {}


def face_hint(system: str, sides: int, lang: str) -> str:
    """How to type the faces: numbers, or the symbols of a special die (Krosmaster's d6)."""
    names = _face_names(system, sides)
    if not names:
        return t("game.manual_numbers", lang, sides=sides)
    return ", ".join(f"{value}={t(key, lang)}" for value, key in sorted(names.items()))


def parse_faces(text: str, system: str, sides: int) -> list[int]:
    """``"3 5, 1"`` or face names (``"lock dodge"``, in English or Italian) → die values."""
    by_name: dict[str, int] = {}
    for value, key in _face_names(system, sides).items():
        for lang in ("en", "it"):
            by_name[t(key, lang).lower().replace(" ", "")] = value
        by_name[key.rsplit(".", 1)[-1]] = value
    values = []
    for token in text.replace(",", " ").split():
        word = token.strip().lower()
        if word.isdigit() and 1 <= int(word) <= sides:
            values.append(int(word))
        elif word in by_name:
            values.append(by_name[word])
        else:
            raise TavoloError("game.manual_bad_value", value=token[:20], sides=sides)
    if not values or len(values) > MAX_MANUAL_VALUES:
        raise TavoloError("game.manual_bad_value", value=text[:20], sides=sides)
    return values
