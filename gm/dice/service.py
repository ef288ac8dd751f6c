"""/roll and /dice: roll, word the result in the actor's language, record it, reply.

Every method draws a fresh ``Dice`` from the app's ``DiceSource`` (SystemRandom live, the
console's seeded stream with ``--seed``), calls the one implementation of that die in
``engines/core``, appends a row to ``rolls`` and returns a transport-neutral ``Reply``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal

import d20

from common.i18n import t
from db import rolls as repo
from db.store import Store
from engines.core.errors import TavoloError
from engines.core.krosmaster_die import Face, Purpose, possible_faces, roll_krosmaster
from engines.core.system_dice import (
    BASIC_MANA,
    WOWMINIS_CRITICAL,
    BoardColour,
    MiniFace,
    WowBoardRoll,
    roll_mana_source,
    roll_tension,
    roll_warlord,
    roll_wowboard,
    roll_wowminis_with_rerolls,
    wowminis_face,
)
from gm.context import Actor, Place
from gm.dice import notation
from gm.dice.source import DiceSource
from gm.reply import Image, Reply

log = logging.getLogger(__name__)

MAX_HISTORY = 50
MAX_POOL = 100  # dice per system roll: generous for any of the games, small for Discord
INLINE_WORK = 100  # notation.estimate_work steps: well under a millisecond, cheaper than a thread hop


def _code(text: str) -> str:
    """Inline code that a stray backtick in user input cannot break."""
    return "`" + text.replace("`", "ˋ") + "`"


class DiceService:
    """One method per command; each returns the ``Reply`` both the cog and the console send."""

    def __init__(self, store: Store, source: DiceSource) -> None:
        self.store = store
        self.source = source
        self.log = repo.RollLog(store)  # group commit: concurrent rolls share one transaction

    async def stop(self) -> None:
        """Closing the app: every roll already made is written before the database closes."""
        await self.log.drain()

    # -------------------------------------------------------------- helpers
    def _head(self, actor: Actor, key: str, **params: object) -> str:
        return t("dice.head", actor.locale, user=actor.name, what=t(key, actor.locale, **params))

    async def _record(self, place: Place, actor: Actor, *, system: str, expression: str,
                      result: str | dict[str, Any], total: int | None, label: str | None = None,
                      private: bool = False) -> None:
        """Store the raw outcome (JSON for system dice) so history can word it in any language.

        Returns once the row is committed (with the rolls made at the same moment): every
        caller records before it returns its reply, so no roll is shown that was not stored."""
        text = result if isinstance(result, str) else json.dumps(result, separators=(",", ":"))
        await self.log.add(guild_id=place.guild_id, channel_id=place.channel_id,
                           user_id=actor.user_id, user_name=actor.name, system=system, expression=expression,
                           label=label, result=text, total=total, private=private)

    def _finish(self, actor: Actor, lines: list[str], private: bool, image: Image | None = None) -> Reply:
        if private:
            lines.append(t("dice.private_note", actor.locale))
        text = "\n".join(lines)
        if len(text) > notation.MESSAGE_LIMIT:
            note = t("dice.truncated", actor.locale)
            text = text[: notation.MESSAGE_LIMIT - len(note) - 2] + "…\n" + note
        return Reply(text=text, ephemeral=private, image=image)

    @staticmethod
    def _check_pool(n: int, lo: int = 1) -> None:
        if not lo <= n <= MAX_POOL:
            raise TavoloError("dice.pool_size", count=n, min=lo, max=MAX_POOL)

    # -------------------------------------------------------------- /roll
    async def roll(self, place: Place, actor: Actor, expression: str, label: str | None = None,
                   private: bool = False) -> Reply:
        lang = actor.locale
        result = await self._roll_notation(expression)
        label = (label or "").strip() or None
        head = _roll_head(lang, actor.name, result.expression)
        if label:
            head += " · " + label
        if result.comment:
            head += "\n" + t("dice.roll.comment", lang, comment=result.comment.strip())
        tail = _roll_total(lang, result.total)
        if result.crit == d20.CritType.CRIT:
            tail += " · " + t("dice.roll.natural_20", lang)
        elif result.crit == d20.CritType.FAIL:
            tail += " · " + t("dice.roll.natural_1", lang)
        if private:
            tail += "\n" + t("dice.private_note", lang)
        text = f"{head}\n{result.breakdown}{tail}"
        if len(text) > notation.MESSAGE_LIMIT:  # the note is worded only when it is shown
            text = notation.fit(head, result.breakdown, tail, t("dice.truncated", lang))
        await self._record(place, actor, system="notation", expression=result.expression,
                           result=result.breakdown, total=result.storable_total,
                           label=label or (result.comment or None), private=private)
        return Reply(text=text, ephemeral=private)

    async def help(self, actor: Actor) -> Reply:
        """Every form ``/roll`` reads, with an example each (``gm.dice.forms`` has the sources)."""
        lang = actor.locale
        return Reply(title=t("dice.help.title", lang), ephemeral=True,
                     text=t("dice.help.body", lang, max_dice=notation.MAX_DICE, max_sides=notation.MAX_SIDES,
                            max_extra=notation.MAX_EXTRA_ROLLS))

    async def _roll_notation(self, expression: str) -> notation.NotationRoll:
        """Evaluating dice is CPU work on the one event loop every server shares.

        A roll the estimate calls cheap (1d20, 4d6kh3) runs inline, where a thread hop would
        cost more than the roll; anything bigger, or a cheap roll while a worker thread holds
        the roller, runs in a thread so no interaction waits behind it.
        """
        checked = notation.parse(expression)  # cached; raises the user's mistakes at once
        dice = self.source.make()
        if checked.work <= INLINE_WORK:
            try:
                return notation.roll(expression, dice, wait=False)  # a plain NdS ± K is never busy
            except notation.RollerBusy:
                pass
        return await asyncio.to_thread(notation.roll, expression, dice)

    # -------------------------------------------------------------- WoW Miniatures (105)
    async def wowminis(self, place: Place, actor: Actor, dice: int, rerolls: int = 0,
                       reroll: Literal["failures", "successes"] = "failures", private: bool = False) -> Reply:
        lang = actor.locale
        self._check_pool(dice)
        if rerolls < 0:
            raise TavoloError("dice.negative")
        roll = roll_wowminis_with_rerolls(self.source.make(), dice, rerolls, reroll)

        what = ("dice.wowminis.what_rerolls" if rerolls else "dice.wowminis.what")
        lines = [self._head(actor, what, dice=dice, rerolls=rerolls,
                            which=t(f"dice.wowminis.{reroll}", lang))]
        lines.append(t("dice.wowminis.first", lang, faces=", ".join(_mini(v) for v in roll.first)))
        if roll.rerolled:
            changes = ", ".join(f"{_mini(roll.first[i])}→{_mini(roll.final[i])}" for i in sorted(roll.rerolled))
            lines.append(t("dice.wowminis.rerolled", lang, changes=changes))
        data = {"first": list(roll.first), "final": list(roll.final), "rerolled": sorted(roll.rerolled)}
        lines.append(describe("wowminis", data, lang))
        if roll.critical_triggers:
            lines.append(t("dice.wowminis.critical_once", lang))
        lines.append(t("dice.wowminis.rule", lang))
        await self._record(place, actor, system="wowminis",
                           expression=f"dice:{dice} rerolls:{rerolls} reroll:{reroll}",
                           result=data, total=roll.successes, private=private)
        return self._finish(actor, lines, private)

    # -------------------------------------------------------------- Warlord ("Tiri di dado")
    async def warlord(self, place: Place, actor: Actor, bonus: int = 0, dc: int | None = None,
                      private: bool = False) -> Reply:
        lang = actor.locale
        roll = roll_warlord(self.source.make(), bonus, dc)
        signed = f"{bonus:+d}" if bonus else ""
        if dc is None:
            lines = [self._head(actor, "dice.warlord.what", bonus=signed)]
        else:
            lines = [self._head(actor, "dice.warlord.what_dc", bonus=signed, dc=dc)]
        data = {"natural": roll.natural, "bonus": bonus, "dc": dc, "outcome": roll.outcome}
        lines.append(describe("warlord", data, lang))
        if roll.outcome is not None:
            lines.append(t(f"dice.warlord.{roll.outcome}", lang))
            lines.append(t("dice.warlord.rule", lang))
        else:
            lines.append(t("dice.warlord.rule_no_dc", lang))
        await self._record(place, actor, system="warlord", expression=f"bonus:{bonus}" + (
            f" dc:{dc}" if dc is not None else ""), result=data, total=roll.total, private=private)
        return self._finish(actor, lines, private)

    # -------------------------------------------------------------- Krosmaster (106, 310)
    async def krosmaster(self, place: Place, actor: Actor, dice: int, purpose: str,
                         private: bool = False) -> Reply:
        lang = actor.locale
        self._check_pool(dice)
        try:
            wanted = Purpose(purpose)
        except ValueError:
            raise TavoloError("dice.krosmaster.bad_purpose", purpose=purpose) from None
        roll = roll_krosmaster(self.source.make(), dice, wanted)
        target = Face(wanted.value)
        data = {"purpose": wanted.value, "faces": [f.value for f in roll.faces]}
        lines = [self._head(actor, "dice.krosmaster.what", dice=dice,
                            purpose=t(f"dice.krosmaster.purpose.{wanted.value}", lang))]
        lines.append(describe("krosmaster", data, lang))
        lines.append(t(f"dice.krosmaster.rule.{wanted.value}", lang))
        image = self._render(lambda r: r.krosmaster_faces([f.value for f in roll.faces], target.value))
        await self._record(place, actor, system="krosmaster", expression=f"dice:{dice} purpose:{wanted.value}",
                           result=data, total=roll.successes, private=private)
        return self._finish(actor, lines, private, image)

    async def tension(self, place: Place, actor: Actor, private: bool = False) -> Reply:
        lang = actor.locale
        roll = roll_tension(self.source.make())
        lines = [self._head(actor, "dice.tension.what")]
        lines.append(t("dice.faces", lang, faces=", ".join(_face(f, lang) for f in roll.faces)))
        common = ", ".join(_face(f, lang) for f in roll.common_faces)
        lines.append(t(f"dice.tension.{roll.double}", lang, faces=common))
        lines.append(t("dice.tension.rule", lang))
        image = self._render(lambda r: r.krosmaster_faces([f.value for f in roll.faces], None))
        await self._record(place, actor, system="tension", expression="tension",
                           result={"faces": [f.value for f in roll.faces], "double": roll.double},
                           total=None, private=private)
        return self._finish(actor, lines, private, image)

    # -------------------------------------------------------------- WoW board game
    async def wowboard(self, place: Place, actor: Actor, threat: int, blue: int = 0, red: int = 0,
                       green: int = 0, reroll: int = 0, attrition: int = 0, private: bool = False) -> Reply:
        lang = actor.locale
        roll = roll_wowboard(self.source.make(), blue=blue, red=red, green=green, threat=threat,
                             reroll=reroll, attrition=attrition)
        pool = ", ".join(t(f"dice.wowboard.pool.{c.value}", lang, count=n)
                         for c, n in ((BoardColour.BLUE, blue), (BoardColour.RED, red),
                                      (BoardColour.GREEN, green)) if n)
        lines = [self._head(actor, "dice.wowboard.what", pool=pool, threat=threat)]
        if reroll or attrition:
            lines.append(t("dice.wowboard.modifiers", lang, reroll=reroll, attrition=attrition))
        for colour in BoardColour:
            line = self._board_line(roll, colour)
            if line:
                lines.append(f"{t(f'dice.colour.{colour.value}', lang)}: {line}")
        data = {"dice": [[d.colour.value, d.first, d.value, d.rerolled] for d in roll.dice], "threat": threat,
                "damage": roll.damage, "defense": roll.defense, "armor": roll.armor, "attrition": roll.attrition}
        lines.append(describe("wowboard", data, lang))
        lines.append(t("dice.wowboard.rule", lang))
        image = self._render(lambda r: r.wowboard_dice(
            [(d.colour.value, d.value, roll.is_hit(d)) for d in roll.dice], threat))
        await self._record(place, actor, system="wowboard",
                           expression=f"blue:{blue} red:{red} green:{green} threat:{threat} reroll:{reroll}"
                                      f" attrition:{attrition}",
                           result=data, total=roll.damage, private=private)
        return self._finish(actor, lines, private, image)

    @staticmethod
    def _board_line(roll: WowBoardRoll, colour: BoardColour) -> str:
        parts = []
        for die in roll.dice:
            if die.colour is not colour:
                continue
            value = f"**{die.value}**✓" if roll.is_hit(die) else f"{die.value}✗"
            parts.append(f"~~{die.first}~~→{value}" if die.rerolled else value)
        return ", ".join(parts)

    # -------------------------------------------------------------- Mage Knight
    async def mageknight(self, place: Place, actor: Actor, source: int, private: bool = False) -> Reply:
        lang = actor.locale
        self._check_pool(source)
        roll = roll_mana_source(self.source.make(), source)
        data = {"colours": [c.value for c in roll.colours], "passes": roll.passes}
        lines = [self._head(actor, "dice.mageknight.what", dice=source)]
        lines.append(describe("mageknight", data, lang))
        if roll.passes > 1:
            lines.append(t("dice.mageknight.fixed", lang, times=roll.passes - 1))
        lines.append(t("dice.mageknight.rule", lang))
        await self._record(place, actor, system="mageknight", expression=f"source:{source}",
                           result=data, total=None, private=private)
        return self._finish(actor, lines, private)

    # -------------------------------------------------------------- history
    async def history(self, place: Place, actor: Actor, user_id: int | None = None,
                      user_name: str | None = None, count: int = 10) -> Reply:
        lang = actor.locale
        count = max(1, min(MAX_HISTORY, count))
        rows = await repo.recent_rolls(self.store, place.channel_id, user_id=user_id, limit=count)
        title_key = "dice.history.title_user" if user_id is not None else "dice.history.title"
        lines = [t(title_key, lang, user=user_name or "")]
        if not rows:
            lines.append(t("dice.history.empty", lang))
        for row in rows:
            when = _clock(row.created_at)
            what = _code(row.expression) if row.system == "notation" else t(f"dice.system.{row.system}", lang)
            if row.system not in ("notation", "tension"):
                what += " " + _code(row.expression)
            if row.private and row.user_id != actor.user_id:
                lines.append(t("dice.history.secret", lang, time=when, user=row.user_name))
                continue
            result = _history_result(row, lang)
            line = t("dice.history.row", lang, time=when, user=row.user_name, what=what, result=result)
            if row.label:
                line += f" · {row.label}"
            if row.private:
                line = "🔒 " + line
            lines.append(line)
        text = "\n".join(lines)
        if len(text) > notation.MESSAGE_LIMIT:
            note = t("dice.truncated", lang)
            text = text[: notation.MESSAGE_LIMIT - len(note) - 2] + "…\n" + note
        return Reply(text=text, ephemeral=True)

    # -------------------------------------------------------------- images
    @staticmethod
    def _render(draw: Callable[..., bytes]) -> Image | None:
        """A picture of special dice when Pillow is there; a roll never fails for want of one."""
        try:
            from renderers import dice as dice_renderer

            return Image(filename="dice.png", data=draw(dice_renderer))
        except Exception:  # optional garnish: the text already says everything
            log.warning("could not draw the dice image", exc_info=True)
            return None


@lru_cache(maxsize=4096)
def _roll_head(lang: str, user: str, expression: str) -> str:
    """The first line of a /roll reply. Cached, like the total's line: a 1d20 costs ~10 µs
    in all, and each ``t`` ~2.5 µs, for the same few players, expressions and totals."""
    return t("dice.roll.head", lang, user=user, expression=_code(expression))


@lru_cache(maxsize=4096)
def _roll_total(lang: str, total: int) -> str:
    return "\n" + t("dice.roll.total", lang, total=total)


def _mini(value: int) -> str:
    """A WoW Miniatures die as players read it: the critical shows as 0 (105.1)."""
    face = wowminis_face(value)
    shown = "0" if value == WOWMINIS_CRITICAL else str(value)
    if face is MiniFace.CRITICAL:
        return f"**{shown}**✦"
    return f"**{shown}**" if face is MiniFace.SUCCESS else shown


def _face(face: Face | str, lang: str) -> str:
    return t(f"dice.krosmaster.face.{Face(face).value}", lang)


def describe(system: str, data: dict[str, Any], lang: str, brief: bool = False) -> str:
    """The outcome line of a system roll from its stored data, in ``lang``.

    Used for the live reply and for /dice history, so a roll recorded in Italian reads
    in English for an English reader and the two never disagree. ``brief`` (history)
    folds in what the live reply says on lines of its own.
    """
    if system == "wowminis":
        final = data["final"]
        successes = sum(wowminis_face(v) is not MiniFace.FAILURE for v in final)
        return t("dice.wowminis.result", lang, successes=successes, failures=len(final) - successes,
                 criticals=sum(v == WOWMINIS_CRITICAL for v in final))
    if system == "warlord":
        natural = data["natural"]
        shown = f"**{natural}**" if natural in (1, 20) else str(natural)
        line = t("dice.warlord.line", lang, natural=shown, bonus=f"{data['bonus']:+d}",
                 total=natural + data["bonus"])
        if brief and data.get("outcome"):
            line += " · " + t(f"dice.warlord.short.{data['outcome']}", lang, dc=data["dc"])
        return line
    if system == "krosmaster":
        target = Face(data["purpose"])
        shown = []
        for raw in data["faces"]:
            face = Face(raw)
            options = possible_faces(face)
            if len(options) == 1:
                shown.append(f"**{_face(face, lang)}**" if face is target else _face(face, lang))
            elif target in options:  # 106.2b/c: turned to the side this roll needs
                shown.append(f"{_face(face, lang)} → **{_face(target, lang)}**")
            else:
                shown.append(f"{_face(face, lang)} ✗")
        successes = sum(target in possible_faces(Face(f)) for f in data["faces"])
        return (t("dice.faces", lang, faces=", ".join(shown)) + "\n"
                + t("dice.krosmaster.result", lang, successes=successes, dice=len(data["faces"])))
    if system == "tension":
        faces = ", ".join(_face(f, lang) for f in data["faces"])
        return f"{faces} · " + t(f"dice.tension.short.{data['double']}", lang)
    if system == "wowboard":
        return t("dice.wowboard.result", lang, damage=data["damage"], defense=data["defense"],
                 armor=data["armor"], attrition=data["attrition"])
    if system == "mageknight":
        names = []
        for raw in data["colours"]:
            name = t(f"dice.mana.{raw}", lang)
            names.append(name if raw in {c.value for c in BASIC_MANA} else f"*{name}*")
        return t("dice.faces", lang, faces=", ".join(names))
    return ""


def _history_result(row: repo.RollRow, lang: str) -> str:
    if row.system == "notation":
        return f"**{row.total}**" if row.total is not None else row.result[:100]
    try:
        return describe(row.system, json.loads(row.result), lang, brief=True).replace("\n", " · ")
    except (ValueError, KeyError, TypeError):  # a row written by an older version
        return row.result[:200]


def _clock(created_at: str) -> str:
    try:
        return datetime.fromisoformat(created_at.replace("Z", "+00:00")).strftime("%d/%m %H:%M")
    except ValueError:
        return created_at
