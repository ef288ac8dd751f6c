"""Manual dice mode (ARCHITECTURE.md §4): the group rolls physical dice and types the faces.

Engines are deterministic given their dice, so the table replays the action with the
faces typed so far. When the rules need a roll that is not typed yet, the engine's
``RollRequest`` says how many dice, of which kind, and which seat rolls them: that
player (not whoever acted) is asked for all the dice of that roll in one command, and
exactly that many faces are accepted (TABLE_UX "Manual dice"). Draws that are not dice
(a hidden reward, a coin toss) are made by the bot and replayed unchanged.
"""

from __future__ import annotations

from typing import Any

from common.i18n import Phrase, has, t
from db import games as repo
from engines.core.dice import DiceNeeded, RollRequest
from engines.core.errors import TavoloError
from engines.core.events import Event
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table.core import TableCore, retry_stale
from gm.table.model import MANUAL_PENDING, Table

MAX_MANUAL_VALUES = 100


class ManualDiceTable(TableCore):
    async def _apply_manual(self, table: Table, actor: Actor, seat: int | None, action_data: dict[str, Any],
                            values: list[int], picks: list[int] | None = None, *,
                            undoable: bool | None = None, marks: list[Event] | None = None) -> Reply:
        """Replay the action with the faces typed so far; if the rules need another roll,
        remember the action and ask the player who rolls it.

        ``marks``: events that go first in the action's row whatever the dice (the absent-player mark of
        a move the table made, issue 32.2); kept with the pending action, so the move the players finish
        by typing the faces is logged as the table's like any other."""
        action = table.engine.parse_action(action_data)
        dice = self.dice.manual(values, picks or [])
        marks = marks or []
        try:
            events, working = self._apply(table, seat, action, dice)
        except DiceNeeded as need:
            roller = _roller(table, need.request, actor)
            pending = {"user_id": roller.user_id, "seat": seat, "action": action_data, "values": values,
                       "picks": need.picks, "request": _request_data(need.request),
                       "actor": {"user_id": actor.user_id, "name": actor.name}, "undoable": undoable}
            if marks:
                pending["marks"] = [mark.model_dump() for mark in marks]
            options = {**table.game.options, MANUAL_PENDING: pending}
            async with self.store.transaction() as conn:
                await repo.update_game(conn, table.game.id, table.game.version, options=options)
            self.forget(table.game.channel_id)
            return Reply(text=ask_text(table.game.system, need.request, roller.mention, actor.locale),
                         mentions=[roller.user_id])
        return await self._commit(table, actor, seat, action, working, [*marks, *events], undoable=undoable)

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
            request = _request_of(pending)
            faces = parse_faces(text, table.game.system, request.sides)
            if len(faces) != request.count:
                raise TavoloError("game.manual_wrong_count", expected=request.count, got=len(faces),
                                  dice=Phrase(*_dice_words(table.game.system, request)))
            author = pending.get("actor") or {"user_id": pending["user_id"], "name": actor.name}
            acting = Actor(user_id=int(author["user_id"]), name=str(author["name"]), locale=actor.locale)
            return await self._apply_manual(table, acting, pending["seat"], pending["action"],
                                            [*pending["values"], *faces], pending.get("picks") or [],
                                            undoable=pending.get("undoable"), marks=_marks_of(pending))


def _marks_of(pending: dict[str, Any]) -> list[Event]:
    """The marks a pending action carries (none in games saved before marks were kept)."""
    return [Event.model_validate(mark) for mark in pending.get("marks") or [] if isinstance(mark, dict)]


def _request_data(request: RollRequest) -> dict[str, Any]:
    return {"count": request.count, "sides": request.sides, "kind": request.kind, "by": request.by,
            "purpose": request.purpose}


def _request_of(pending: dict[str, Any]) -> RollRequest:
    """The roll a pending action waits for; games saved before requests existed asked for one die."""
    data = pending.get("request") or {"count": 1, "sides": int(pending.get("sides", 6))}
    return RollRequest(int(data["count"]), int(data["sides"]), data.get("kind"), data.get("by"), data.get("purpose"))


def _roller(table: Table, request: RollRequest, actor: Actor) -> Actor:
    """Who rolls: the seat the rules name (the defender rolls armor), else whoever acted."""
    user = table.user_of(request.by) if request.by is not None else None
    if user is None or user == actor.user_id:
        return actor
    name = next((s.name for s in table.seats if s.user_id == user), str(user))
    return Actor(user_id=user, name=name, locale=actor.locale)


def _dice_words(system: str, request: RollRequest) -> tuple[str, dict[str, Any]]:
    """``"2 Krosmaster dice"`` / ``"1 d6"``: the kind of die, as a translatable phrase."""
    if request.kind and has(f"game.dice_kind.{request.kind}"):
        return f"game.dice_kind.{request.kind}", {"count": request.count}
    return "game.dice_kind.plain", {"count": request.count, "sides": request.sides}


def ask_text(system: str, request: RollRequest, mention: str, lang: str) -> str:
    """The prompt: who rolls, how many dice of which kind, what for, and how to type them."""
    key, params = _dice_words(system, request)
    purpose = request.purpose and f"game.dice_purpose.{request.purpose}"
    why = t(purpose, lang) if purpose and has(purpose) else ""
    return t("game.manual_roll", lang, user=mention, dice=t(key, lang, **params), why=why,
             faces=face_hint(system, request.sides, lang)).replace("  ", " ")


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
        if word.isdecimal() and word.isascii() and 1 <= int(word) <= sides:
            values.append(int(word))
        elif word in by_name:
            values.append(by_name[word])
        else:
            raise TavoloError("game.manual_bad_value", value=token[:20], sides=sides)
    if not values or len(values) > MAX_MANUAL_VALUES:
        raise TavoloError("game.manual_bad_value", value=text[:20], sides=sides)
    return values
