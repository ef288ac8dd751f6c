"""Gateway sharding (issue 18): which guilds this process serves, and which process syncs commands.

Discord splits a bot's guilds over shards by ``(guild_id >> 22) % shard_count``; a bot that outgrows one
process runs several, each with a range of shards (``SHARD_COUNT`` and ``SHARD_IDS``), all on one
database. Every loop that acts on games (turn reminders, the autopilot, closing idle lobbies) must then
act only on the guilds of its own shards, or two processes would nudge the same channel twice; and the
command tree is synced by one process only (the one holding shard 0), since every sync replaces the
global commands.

Without ``SHARD_COUNT`` nothing changes: one process, every guild, commands synced at start.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096


class ShardConfigError(ValueError):
    """``SHARD_COUNT``/``SHARD_IDS`` that cannot describe a valid range (said at start, not at the first game)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's own rule for which shard receives a guild's events."""
    return (guild_id >> 22) % shard_count


def parse_ids(text: str | None, shard_count: int) -> tuple[int, ...]:
    """``"0-2"``, ``"0,3,5"``, ``"4"``, or nothing (every shard) → sorted shard ids, each below the count."""
    if text is None or not text.strip():
        return tuple(range(shard_count))
    found: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, sep, high = part.partition("-")
        try:
            first, last = int(low), int(high) if sep else int(low)
        except ValueError as exc:
            raise ShardConfigError(f"SHARD_IDS: {part!r} is not a shard number or a range like 0-3") from exc
        if first > last or first < 0 or last >= shard_count:
            raise ShardConfigError(f"SHARD_IDS: {part!r} is outside 0-{shard_count - 1} (SHARD_COUNT={shard_count})")
        found.update(range(first, last + 1))
    if not found:
        raise ShardConfigError("SHARD_IDS names no shard")
    return tuple(sorted(found))


@dataclass(frozen=True)
class ShardPlan:
    """This process's share of the bot: ``count`` None means unsharded (one process, every guild)."""

    count: int | None = None
    ids: tuple[int, ...] = ()

    @classmethod
    def from_values(cls, count: int | None, ids: str | None) -> ShardPlan:
        if count is None:
            if ids:
                raise ShardConfigError("SHARD_IDS needs SHARD_COUNT")
            return cls()
        if not 1 <= count <= MAX_SHARDS:
            raise ShardConfigError(f"SHARD_COUNT must be 1-{MAX_SHARDS}, not {count}")
        return cls(count, parse_ids(ids, count))

    @classmethod
    def from_settings(cls, settings: object) -> ShardPlan:
        return cls.from_values(getattr(settings, "shard_count", None), getattr(settings, "shard_ids", None))

    @property
    def sharded(self) -> bool:
        return self.count is not None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process acts on the games of ``guild_id`` (a game without a guild: the unsharded
        process only, as no shard receives its events)."""
        if self.count is None:
            return True
        return guild_id is not None and shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_commands(self) -> bool:
        """One process syncs the command tree: the one that holds shard 0 (every process when unsharded)."""
        return self.count is None or 0 in self.ids

    def bot_kwargs(self) -> dict[str, object]:
        """Keyword arguments for ``commands.AutoShardedBot``."""
        if self.count is None:
            return {}
        return {"shard_count": self.count, "shard_ids": list(self.ids)}
