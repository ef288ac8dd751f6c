"""Reminders people choose (issue 32.4): how, when and how often a member hears that a game waits.

A member picks, per server (``/game notify``): a mention in the game's channel (the default), a direct
message, or nothing; quiet hours in their own time zone (``zoneinfo``), during which nothing reaches
them; and a daily digest, one message a day listing every game that waits for them, instead of one per
game. Vacation (``gm/table/away.py``) comes first: nothing reaches a member who is away.

This module only decides (``route`` for one member, ``Routing`` for a page of a reminder pass); the
reminder pass (``gm/table/reminders.py``) claims and posts, the nudges that must wait sit in the outbox
(``db/notify.py``, sent by ``gm/table/notify_outbox.py``), and the cog sends. Nothing here is Discord.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from common.i18n import t
from db import notify as repo
from db.store import Store
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.reply import Reply

MODES = ("mention", "dm", "none")
DIGEST_HOUR = 9
"""The local hour of the daily digest when the member set no quiet hours (else: when those end)."""
NONE, LATER = "none", "later"
_MODE_KEYS = {"mention": "notify.mode_mention", "dm": "notify.mode_dm", "none": "notify.mode_none"}
_QUIET = re.compile(r"^\s*(\d{1,2})(?::00)?\s*[-–]\s*(\d{1,2})(?::00)?\s*$")
_OFF = {"off", "no", "none", "0", "-", "spento", "nessuna"}


@lru_cache(maxsize=512)
def _zone(name: str) -> ZoneInfo | None:
    """A zone by its IANA name; None when unknown (a zone stored by a build whose tz data knew it)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def zone_of(name: str) -> str:
    """The zone a member typed, checked; raises the localized error that names what was wrong."""
    text = name.strip()
    if not text or "\x00" in text or _zone(text) is None:
        raise TavoloError("notify.bad_zone", zone=name.strip()[:60])
    return text


@lru_cache(maxsize=1)
def _all_zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone_names(current: str, limit: int = 25) -> list[str]:
    """Time zones for autocomplete: those containing what was typed (``rome`` → ``Europe/Rome``)."""
    typed = current.strip().lower().replace(" ", "_")
    return [z for z in _all_zones() if typed in z.lower()][:limit]


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``22-08`` (hours, ``22:00-08:00`` too) → ``(22, 8)``; ``off`` → None (no quiet hours)."""
    if text.strip().lower() in _OFF:
        return None
    match = _QUIET.match(text)
    if match is None:
        raise TavoloError("notify.bad_quiet", text=text.strip()[:40])
    start, end = int(match.group(1)), int(match.group(2))
    if start > 23 or end > 23 or start == end:
        raise TavoloError("notify.bad_quiet", text=text.strip()[:40])
    return start, end


@dataclass(frozen=True, slots=True)
class Prefs:
    """A member's choice on one server; ``Prefs()`` is the default (a mention in the channel)."""

    mode: str = "mention"
    quiet: tuple[int, int] | None = None  # local hours: quiet from the first until the second
    tz: str | None = None
    digest: bool = False

    @classmethod
    def from_row(cls, row: Sequence[Any] | None) -> Prefs:
        """A stored row (``repo.PREFS``); a value this code no longer accepts reads as the default."""
        if row is None:
            return DEFAULT
        mode, start, end, tz, digest = row
        quiet = (int(start), int(end)) if start is not None and end is not None else None
        return cls(mode if mode in MODES else "mention", quiet, tz, bool(digest))

    @property
    def zone(self) -> ZoneInfo:
        return (_zone(self.tz) if self.tz else None) or ZoneInfo("UTC")


DEFAULT = Prefs()


def _at_local_hour(local: datetime, hour: int, zone: ZoneInfo) -> datetime:
    """The first moment at or after ``local`` whose wall clock, in ``zone``, shows ``hour``:00 (UTC)."""
    candidate = datetime(local.year, local.month, local.day, hour, tzinfo=zone)
    if candidate <= local:
        day = local.date() + timedelta(days=1)
        candidate = datetime(day.year, day.month, day.day, hour, tzinfo=zone)
    return candidate.astimezone(UTC)


def quiet_until(prefs: Prefs, now: datetime) -> datetime | None:
    """When the member's quiet hours end, if ``now`` falls in them; None otherwise. A range whose start
    is after its end (``22-08``) runs across midnight, in the member's own zone."""
    if prefs.quiet is None:
        return None
    start, end = prefs.quiet
    zone = prefs.zone
    local = now.astimezone(zone)
    hour = local.hour
    quiet = start <= hour < end if start < end else hour >= start or hour < end
    return _at_local_hour(local, end, zone) if quiet else None


def next_digest(prefs: Prefs, now: datetime) -> datetime:
    """The next daily digest: when the member's quiet hours end, else at ``DIGEST_HOUR``, their time."""
    zone = prefs.zone
    return _at_local_hour(now.astimezone(zone), prefs.quiet[1] if prefs.quiet else DIGEST_HOUR, zone)


def route(prefs: Prefs, now: datetime, back_at: datetime | None = None, *,
          owed: bool = False) -> tuple[str, datetime | None]:
    """How one member hears of one waiting game now: ``("mention" | "dm", None)``, ``("none", None)``, or
    ``("later", when)``. ``owed``: the nudge already waited in the outbox for its time, so a digest member
    is told now (in the digest) instead of being put off to the next day again."""
    if back_at is not None and back_at > now:
        return LATER, back_at  # away: nothing until they are back (32.3)
    if prefs.mode == NONE:
        return NONE, None
    until = quiet_until(prefs, now)
    if until is not None:
        return LATER, until
    if prefs.digest and not owed:
        return LATER, next_digest(prefs, now)
    return prefs.mode, None


class Routing:
    """One reminder pass's view of who hears what: members away (read once a pass) and the stored
    choices of a page's members. With neither, every member gets the default mention, unchanged."""

    def __init__(self, now: datetime, away: Mapping[tuple[int, int], datetime],
                 prefs: Mapping[tuple[int, int], Prefs]) -> None:
        self.now = now
        self.away = away
        self.prefs = prefs

    @property
    def trivial(self) -> bool:
        return not self.away and not self.prefs

    def split(self, guild_id: int | None, users: tuple[int, ...]) -> tuple[
            tuple[int, ...], tuple[int, ...], list[tuple[int, datetime]]]:
        """The members to mention in the channel, those to message directly, and those whose nudge
        waits (each with when); a member who chose nothing is in none of them."""
        if self.trivial or guild_id is None:
            return users, (), []
        mention: list[int] = []
        direct: list[int] = []
        later: list[tuple[int, datetime]] = []
        for user in users:
            how, when = route(self.prefs.get((guild_id, user), DEFAULT), self.now, self.away.get((guild_id, user)))
            if how == "mention":
                mention.append(user)
            elif how == "dm":
                direct.append(user)
            elif how == LATER and when is not None:
                later.append((user, when))
        return tuple(mention), tuple(direct), later


def describe(prefs: Prefs, lang: str) -> str:
    """The member's choice in words, one line each (what ``/game notify`` answers)."""
    lines = [t(_MODE_KEYS.get(prefs.mode, "notify.mode_mention"), lang)]
    if prefs.quiet is not None:
        lines.append(t("notify.quiet_on", lang, start=f"{prefs.quiet[0]:02d}:00", end=f"{prefs.quiet[1]:02d}:00",
                       tz=prefs.tz or "UTC"))
    else:
        lines.append(t("notify.quiet_off", lang))
    if prefs.digest:
        hour = prefs.quiet[1] if prefs.quiet else DIGEST_HOUR
        lines.append(t("notify.digest_on", lang, hour=f"{hour:02d}:00", tz=prefs.tz or "UTC"))
    return "\n".join(lines)


async def notify_reply(store: Store, place: Place, actor: Actor, *, mode: str | None = None,
                       quiet: str | None = None, tz: str | None = None, digest: bool | None = None) -> Reply:
    """``/game notify``: show the member's choice on this server, changing what they gave. Quiet hours
    need a time zone (given now or stored): a night in UTC is nobody's night."""
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    if mode is not None and mode not in MODES:
        raise TavoloError("notify.bad_mode", mode=mode[:20], modes=", ".join(MODES))
    zone = zone_of(tz) if tz is not None else None
    hours = parse_quiet(quiet) if quiet is not None else None
    current = Prefs.from_row(await repo.get_prefs(store.conn, place.guild_id, actor.user_id))
    if all(v is None for v in (mode, quiet, tz, digest)):
        return Reply(title=t("notify.title", actor.locale), text=describe(current, actor.locale), ephemeral=True)
    chosen = Prefs(mode or current.mode, hours if quiet is not None else current.quiet, zone or current.tz,
                   current.digest if digest is None else digest)
    if chosen.quiet is not None and chosen.tz is None:
        raise TavoloError("notify.quiet_needs_zone")
    async with store.transaction() as conn:
        await repo.set_prefs(conn, place.guild_id, actor.user_id, mode=chosen.mode,
                             quiet_start=chosen.quiet[0] if chosen.quiet else None,
                             quiet_end=chosen.quiet[1] if chosen.quiet else None, tz=chosen.tz, digest=chosen.digest)
    return Reply(title=t("notify.updated", actor.locale), text=describe(chosen, actor.locale), ephemeral=True)
