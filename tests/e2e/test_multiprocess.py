"""Several real ``bot.py`` processes, each with its own shards, on one PostgreSQL (issue 18).

The loopback fake Discord routes every guild to the shard Discord would pick, ``(guild_id >> 22) %
shard_count``, so each process only hears its own guilds. The processes run ``bot.py``'s own
``main`` behind a short prelude that registers the tiny race game of ``tests/fakes.py`` (no dice,
every action either applies or is refused by a rule), with a button that acts whatever board it was
pressed on: that makes a dense stream of writes on one channel where nothing is ever stale.

Checked:
- commands are synced once, by the process that holds shard 0;
- a game in each guild is played by the process that owns the guild, and a game goes on across a
  restart of its process;
- 200 actions on one channel, sent to two processes at once: every one is applied or answered by
  a rule, none is lost (the game's version and its total count them), none shows an error;
- a turn reminder is posted exactly once when two processes both own the guild.

Skipped unless ``TAVOLO_TEST_POSTGRES`` names a server; every test works in a schema of its own,
dropped afterwards.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, Guild
from tests.e2e.harness import REPO, BotProcess, stop_all
from tests.e2e.play import ok
from tests.postgres import POSTGRES_ENV, fresh_schema, postgres_server

pytestmark = pytest.mark.e2e

ERROR_WORDS = ("something went wrong", "error id")

# bot.py's main, after registering the race game and its button (what a game cog would provide).
PRELUDE = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from engines import registry
from gm import presenters
from tests.fakes import RaceEngine, RacePresenter
registry.register(RaceEngine())
presenters.register(RacePresenter())
from cogs import messages
from cogs.common import ctx, respond

async def race_button(interaction, args):
    app, place, actor = ctx(interaction)
    _ref, kind, amount = args
    # no ref: a press on any board acts on the current position (a dense stream of legal writes)
    await respond(interaction, lambda: app.tables.act(place, actor, {{"kind": kind, "amount": int(amount)}}),
                  system="race")

messages.register_handler("race", race_button)
import bot
sys.argv = ["bot.py"]
sys.exit(bot.main())
"""

Start = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def database_url() -> AsyncIterator[str]:
    server = postgres_server()
    if server is None:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    async with fresh_schema(server) as url:
        yield url


@pytest.fixture
async def shard_bot(fake: FakeDiscord, database_url: str, tmp_path: Path) -> AsyncIterator[Start]:
    """Start a sharded ``bot.py`` on the test's schema; stopped (exit 0, no ERROR logged) at teardown."""
    procs: list[BotProcess] = []

    async def start(shard_ids: str, *, shard_count: int = 2, **env: str) -> BotProcess:
        workdir = tmp_path / f"work-{len(procs)}"
        proc = BotProcess(fake, tmp_path / "unused.sqlite3", workdir, DATABASE_URL=database_url,
                          SHARD_COUNT=str(shard_count), SHARD_IDS=shard_ids, TAVOLO_DICE_SEED="7", **env)
        proc.argv = [sys.executable, "-c", PRELUDE]
        proc.expect_sync = "0" in shard_ids.replace("-", ",").split(",")
        procs.append(proc)
        connections = len(fake.shard_connections)
        wanted = len(_parse(shard_ids))
        await proc.start(timeout=120)
        await fake.wait_until(lambda: len(fake.shard_connections) >= connections + wanted, timeout=20,
                              what=f"shards {shard_ids} to identify")
        await asyncio.sleep(0.6)  # guild_ready_timeout: READY (and the reminder loop) follow GUILD_CREATE
        return proc

    yield start
    await stop_all(procs)


def _parse(ids: str) -> list[int]:
    low, _, high = ids.partition("-")
    return list(range(int(low), int(high or low) + 1))


def _two_guilds(fake: FakeDiscord) -> tuple[Guild, Guild]:
    """The fake's guild and a second one on the other shard of two."""
    first = fake.guild
    second = fake.add_guild("Tavolo Two", shard=1 - fake.shard_for(first.id, 2))
    return first, second


def _no_errors(fake: FakeDiscord) -> None:
    shown = [m.text for m in fake.messages.values() if any(w in m.text.lower() for w in ERROR_WORDS)]
    assert not shown, f"errors shown to users: {shown[:3]}"


async def _open_race(fake: FakeDiscord, channel: FakeChannel, target: int = 1000) -> FakeMessage:
    alice, bob = fake.users["alice"], fake.users["bob"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "race", "options": f"target:{target}"},
                                          channel=channel))
    assert not res.ephemeral, res.text
    res = await ok(fake, await fake.slash(bob, "game join", channel=channel))
    assert not res.ephemeral, res.text
    res = await ok(fake, await fake.slash(alice, "game start", channel=channel))
    assert not res.ephemeral, res.text
    return res.message


async def _add(fake: FakeDiscord, board: FakeMessage, user: FakeUser, amount: int = 1) -> FakeMessage:
    res = await ok(fake, await fake.click(board, board.find_custom_id(rf":add:{amount}$"), user=user))
    assert not res.ephemeral, res.text
    return res.message


async def _game(url: str, channel_id: int) -> dict[str, object]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT id, guild_id, version, state, status FROM games WHERE channel_id = $1"
                                  " ORDER BY id DESC LIMIT 1", channel_id)
        assert row is not None, f"no game in channel {channel_id}"
        # the moves (the start of the game is an action row too)
        actions = await conn.fetchval("SELECT count(*) FROM actions WHERE game_id = $1 AND kind = 'add'", row["id"])
    finally:
        await conn.close()
    return dict(row) | {"actions": actions, "total": json.loads(row["state"])["total"]}


async def test_commands_synced_once_and_each_guild_played_by_its_process(
    fake: FakeDiscord, shard_bot: Start, database_url: str
) -> None:
    first, second = _two_guilds(fake)
    await shard_bot("0")
    one = await shard_bot("1")
    assert len(fake.command_syncs) == 1, "only the process holding shard 0 syncs the commands"
    assert any("commands are synced by the process that runs shard 0" in line for line in one.output)
    shards = sorted((json.dumps(i.get("shard"))) for i in fake.identifies)
    assert shards == ["[0, 2]", "[1, 2]"]

    # Each guild's events reach only the connection of its shard.
    by_shard = {sid: ws for ws, sid, _ in fake.shard_connections}
    for guild in (first, second):
        assert fake.connections_for(guild.id) == [by_shard[fake.shard_for(guild.id, 2)]]

    boards = {}
    for guild in (first, second):
        boards[guild.id] = await _open_race(fake, guild.channels["games"], target=50)
    alice, bob = fake.users["alice"], fake.users["bob"]
    for guild in (first, second):
        board = boards[guild.id]
        board = await _add(fake, board, alice, 2)
        board = await _add(fake, board, bob, 3)
        assert "total 5/50" in board.text
        assert board.data["guild_id"] == str(guild.id)
    for guild in (first, second):
        game = await _game(database_url, guild.channels["games"].id)
        assert game["guild_id"] == guild.id and game["total"] == 5 and game["actions"] == 2

    _no_errors(fake)


async def test_a_game_goes_on_across_a_restart_of_its_process(
    fake: FakeDiscord, shard_bot: Start, database_url: str
) -> None:
    first, second = _two_guilds(fake)
    await shard_bot("0")
    one = await shard_bot("1")
    guild = second if fake.shard_for(second.id, 2) == 1 else first  # the guild of the shard-1 process
    channel = guild.channels["games"]
    alice, bob = fake.users["alice"], fake.users["bob"]
    board = await _open_race(fake, channel, target=30)
    board = await _add(fake, board, alice, 3)

    assert await one.stop() == 0
    with pytest.raises(AssertionError, match="no connection holds the shard"):
        await fake.slash(bob, "game status", channel=channel)  # nobody hears that guild now
    await shard_bot("1")

    board = await _add(fake, board, bob, 2)  # the old board's button, answered by the new process
    assert "total 5/30" in board.text
    board = await _add(fake, board, alice, 1)
    res = await ok(fake, await fake.slash(bob, "game status", channel=channel))
    assert "total 6/30" in res.text
    game = await _game(database_url, channel.id)
    assert game["status"] == "active" and game["total"] == 6 and game["actions"] == 3
    _no_errors(fake)


async def test_200_actions_on_one_channel_through_two_processes_lose_nothing(
    fake: FakeDiscord, shard_bot: Start, database_url: str
) -> None:
    guild = next(g for g in _two_guilds(fake) if fake.shard_for(g.id, 2) == 0)
    a = await shard_bot("0")  # two processes hold the guild's shard (a rolling restart, a moved shard)
    b = await shard_bot("0")
    channel = guild.channels["games"]
    board = await _open_race(fake, channel, target=1000)
    before = await _game(database_url, channel.id)
    connections = fake.connections_for(guild.id)
    assert len(connections) == 2

    players = [fake.users["alice"], fake.users["bob"]]
    rng = random.Random(18)
    custom_id = board.find_custom_id(r":add:1$")
    sent = []
    started = time.monotonic()
    for n in range(200):
        # every press on the first board, alternately to each process, without waiting for answers
        sent.append(await fake.click_via([connections[n % 2]], board, custom_id, user=rng.choice(players)))
    for inter in sent:
        await ok(fake, inter, timeout=60)

    # A slow answer is deferred, then edited, then replaced by a followup: wait until each one shows a message.
    def settled() -> bool:
        return all(r.messages or r.updated for r in map(fake.response, sent))

    await fake.wait_until(settled, timeout=30, what="every press to show its answer")
    answers = [fake.response(inter) for inter in sent]
    elapsed = time.monotonic() - started

    applied = [r for r in answers if not r.ephemeral]
    refused = [r for r in answers if r.ephemeral]
    assert all("not your turn" in r.text.lower() for r in refused), {r.text for r in refused}
    after = await _game(database_url, channel.id)
    assert after["actions"] == len(applied), "every applied action is recorded, none lost"
    assert after["total"] == len(applied), "every applied +1 is in the position"
    assert after["version"] - before["version"] == len(applied), "the version counts every write"
    assert len(applied) >= 20, f"only {len(applied)} of 200 presses applied in {elapsed:.1f}s"
    print(f"200 presses: {len(applied)} applied, {len(refused)} refused by the turn rule, {elapsed:.1f}s")
    _no_errors(fake)
    assert not a.errors_logged() and not b.errors_logged()


async def test_a_reminder_is_sent_once_when_two_processes_own_the_guild(
    fake: FakeDiscord, shard_bot: Start, database_url: str
) -> None:
    channel = fake.guild.channels["games"]
    fast = {"TURN_REMINDER_HOURS": "0.0003", "TURN_REMINDER_CHECK_SECONDS": "0.3"}  # ~1 s of silence
    await shard_bot("0-1", **fast)
    await shard_bot("0-1", **fast)  # a second process takes the same shards (the overlap of a restart)
    await _open_race(fake, channel, target=30)  # both loops now watch the game: alice is to move

    def reminders() -> list[FakeMessage]:
        return [m for m in fake.channel_messages(channel) if m.text.startswith("⏰")]

    await fake.wait_until(lambda: reminders(), timeout=15, what="a turn reminder")
    await asyncio.sleep(2)  # both processes check ~6 more times: a second nudge would have come by now
    posted = reminders()
    assert len(posted) == 1, [m.text for m in posted]
    assert fake.users["alice"].mention in posted[0].text
    _no_errors(fake)
