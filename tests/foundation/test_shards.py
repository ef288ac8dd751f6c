"""Sharding (issue 18): which guilds a process serves (Discord's rule), which process syncs commands,
and the loops that act on games (reminders, idle lobbies, autopilot) keeping to their own shards."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cogs.client import TavoloBot, TavoloShardedBot, make_bot
from gm.app import App
from gm.context import Place
from gm.shards import ShardConfigError, ShardPlan, parse_ids, shard_of
from gm.table.reminders import Reminders
from tests.conftest import ALICE, BOB
from tests.table.test_reminders import NOW, _age

GUILDS = {s: next(g << 22 for g in range(1, 100) if (g << 22 >> 22) % 2 == s) for s in (0, 1)}


def test_shard_of_is_discords_rule() -> None:
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert [shard_of(GUILDS[s], 2) for s in (0, 1)] == [0, 1]


def test_shard_ids_ranges_lists_and_errors_name_the_setting() -> None:
    assert parse_ids("0-2", 4) == (0, 1, 2) and parse_ids("3, 1", 4) == (1, 3) and parse_ids(None, 3) == (0, 1, 2)
    for bad in ("4", "2-1", "x", "-1"):
        with pytest.raises(ShardConfigError, match="SHARD_IDS"):
            parse_ids(bad, 4)
    with pytest.raises(ShardConfigError, match="SHARD_COUNT"):
        ShardPlan.from_values(None, "0")


def test_one_process_syncs_commands_and_each_owns_its_guilds() -> None:
    first, second = ShardPlan.from_values(2, "0"), ShardPlan.from_values(2, "1")
    assert first.syncs_commands and not second.syncs_commands
    assert first.owns(GUILDS[0]) and not first.owns(GUILDS[1]) and second.owns(GUILDS[1])
    assert not first.owns(None)  # a game with no guild receives no shard's events
    unsharded = ShardPlan()
    assert unsharded.syncs_commands and unsharded.owns(GUILDS[1]) and unsharded.owns(None)


def test_the_client_is_sharded_only_when_asked() -> None:
    plain = make_bot(SimpleNamespace(shard_count=None, shard_ids=None))  # type: ignore[arg-type]
    sharded = make_bot(SimpleNamespace(shard_count=4, shard_ids="2-3"))  # type: ignore[arg-type]
    assert type(plain) is TavoloBot and isinstance(sharded, TavoloShardedBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [2, 3]


async def test_reminders_of_another_shards_guild_are_left_to_that_process(app: App) -> None:
    places = {s: Place(channel_id=300 + s, guild_id=GUILDS[s]) for s in (0, 1)}
    for place in places.values():
        await app.tables.new(place, ALICE, "race", "target:20")
        await app.tables.join(place, BOB)
        await app.tables.start(place, ALICE)
    for game_id in (1, 2):
        await _age(app, game_id, 30)
    mine = Reminders(app.tables, hours=24, lang="en", owns=ShardPlan.from_values(2, "0").owns)
    [due] = await mine.due(NOW)
    assert due.channel_id == places[0].channel_id
    await mine.mark_sent(due.game_id, due.version)
    theirs = Reminders(app.tables, hours=24, lang="en", owns=ShardPlan.from_values(2, "1").owns)
    [other] = await theirs.due(NOW)  # not marked by the first process: still due for its owner
    assert other.channel_id == places[1].channel_id


async def test_a_reminder_found_by_two_processes_is_claimed_by_one(app: App) -> None:
    """During a rolling restart two processes may own the same guild: the claim (a conditional update
    that only one of them can win) comes before the post, so exactly one reminder goes out."""
    place = Place(channel_id=400, guild_id=GUILDS[0])
    await app.tables.new(place, ALICE, "race", "target:20")
    await app.tables.join(place, BOB)
    await app.tables.start(place, ALICE)
    await _age(app, 1, 30)
    old, new = (Reminders(app.tables, hours=24, lang="en") for _ in range(2))
    [seen_by_old], [seen_by_new] = await old.due(NOW), await new.due(NOW)
    assert seen_by_old == seen_by_new
    claims = [await old.claim(seen_by_old.game_id, seen_by_old.version),
              await new.claim(seen_by_new.game_id, seen_by_new.version)]
    assert claims == [True, False]
    assert await old.due(NOW) == [] and await new.due(NOW) == []
