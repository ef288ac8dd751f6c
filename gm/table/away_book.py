"""Who is away on each server, as one App last read it (issue 32.3): what boards mark.

Why a book per App and not a module-level dictionary: boards are worded with no connection at hand, so
they read what the table layer last learnt (a reminder pass, ``/game away``, ``/game back``, ``/game
mine``). Kept in the module, that knowledge outlived the database it was read from: in a process that
opens several Apps (the test suite, a tool copying between databases) a member marked away in one
database was marked away on the boards of another (found by CI: a Mage Knight golden drawn with
"bob (assente)" after a fuzzed ``/game away`` in an earlier test). The book lives on the App's
``GuildSettings`` (``guild_settings.away``), which every path that learns or reads it already holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime


class AwayBook:
    """Guild → member → the moment they are back, as last read or written by this App."""

    def __init__(self) -> None:
        self._known: dict[int, dict[int, datetime]] = {}

    def learn(self, guild_id: int, found: Mapping[int, datetime]) -> None:
        """One server's vacations, as a read of the database found them (replacing what was known)."""
        self._known[guild_id] = dict(found)

    def remember_all(self, away: Mapping[tuple[int, int], datetime]) -> None:
        """Every vacation running on any server, as a reminder pass read it."""
        fresh: dict[int, dict[int, datetime]] = {}
        for (guild, user), back in away.items():
            fresh.setdefault(guild, {})[user] = back
        self._known = fresh

    def mark(self, guild_id: int, user_id: int, back: datetime) -> None:
        self._known.setdefault(guild_id, {})[user_id] = back

    def unmark(self, guild_id: int, user_id: int) -> None:
        self._known.get(guild_id, {}).pop(user_id, None)

    def marked(self, guild_id: int | None, now: datetime | None = None) -> dict[int, datetime]:
        """The members of this server a board marks as away now (no I/O)."""
        if guild_id is None or not self._known:
            return {}
        now = now or datetime.now(UTC)
        return {user: back for user, back in self._known.get(guild_id, {}).items() if back > now}
