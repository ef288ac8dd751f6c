"""Prove the fake Discord with a minimal in-process discord.py bot.

If these pass, failures in the Tavolo tests are about Tavolo, not about the harness:
login, gateway handshake, command sync, slash/autocomplete/button/select dispatch,
multipart uploads, deferrals, followups, edits, faults and the deadline all work
through the real discord.py client.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.fake_discord import (
    CB_DEFERRED_MESSAGE,
    CB_MESSAGE,
    CB_UPDATE,
    FakeDiscord,
    FakeDiscordError,
    FakeFile,
)

pytestmark = pytest.mark.e2e


class Counter(discord.ui.View):
    """A view bound to the message it was sent with (found by message id, like most bots)."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="mini:inc", style=discord.ButtonStyle.primary)
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count={self.count}", view=self)

    @discord.ui.button(label="secret", custom_id="mini:secret")
    async def secret(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @discord.ui.select(custom_id="mini:pick", options=[discord.SelectOption(label=x, value=x) for x in "abc"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}")


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            chunk_guilds_at_startup=False,
            guild_ready_timeout=0.1,
        )
        self.guild_id = guild_id
        self.ready_event = asyncio.Event()

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)

        @self.tree.command(name="echo", description="Echo text")
        @app_commands.describe(text="what to say")
        async def echo(interaction: discord.Interaction, text: str, loud: bool = False) -> None:
            who = interaction.user
            gm = any(r.name == "GM" for r in getattr(who, "roles", []))
            await interaction.response.send_message(
                f"{text.upper() if loud else text} from {who.mention} gm={gm} locale={interaction.locale.value}",
                allowed_mentions=discord.AllowedMentions(users=False),
            )

        async def squares(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=s, value=s) for s in ("a1", "a2", "b1") if s.startswith(current)]

        @self.tree.command(name="move", description="Move somewhere")
        @app_commands.autocomplete(to=squares)
        async def move(interaction: discord.Interaction, to: str) -> None:
            await interaction.response.send_message(f"moved to {to}")

        @self.tree.command(name="counter", description="A counter with buttons")
        async def counter(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("count=0", view=Counter())

        @self.tree.command(name="slow", description="Defers, then uploads a file")
        async def slow(interaction: discord.Interaction, delay: float = 0.2) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(delay)
            await interaction.followup.send("rendered", file=discord.File(io.BytesIO(b"PNGDATA"), "board.png"))
            await interaction.followup.send("and one more", ephemeral=True)

        @self.tree.command(name="poke", description="Mention someone in the channel")
        async def poke(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(f"{who.mention}, your turn", file=discord.File(io.BytesIO(b"x"), "t.txt"))

        @self.tree.command(name="deferred", description="Defer publicly, then answer with mentions")
        async def deferred(interaction: discord.Interaction, who: discord.Member, private: bool = False) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(f"{who.mention} first", ephemeral=private)
            await interaction.followup.send(f"{who.mention} second")

        @self.tree.command(name="upload", description="Admins upload a file")
        @app_commands.default_permissions(manage_guild=True)
        async def upload(interaction: discord.Interaction, file: discord.Attachment) -> None:
            data = await file.read()
            await interaction.response.send_message(f"{file.filename}: {data.decode()}", ephemeral=True)

        group = app_commands.Group(name="rules", description="Rules")

        @group.command(name="show", description="Show a rule")
        @app_commands.choices(system=[app_commands.Choice(name="Krosmaster", value="km")])
        async def show(interaction: discord.Interaction, system: str, rule: int) -> None:
            await interaction.response.send_message(f"{system} rule {rule}")

        self.tree.add_command(group)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        self.ready_event.set()


@pytest.fixture
async def mini(discord_py_at_fake: FakeDiscord) -> AsyncIterator[MiniBot]:
    fake = discord_py_at_fake
    bot = MiniBot(fake.guild.id)
    await bot.login("fake-token")
    task = asyncio.create_task(bot.connect(reconnect=False))
    await fake.wait_for_sync(timeout=5)
    await asyncio.wait_for(bot.ready_event.wait(), 5)
    yield bot
    await bot.close()
    await asyncio.wait_for(task, 5)


async def test_handshake_and_sync(fake: FakeDiscord, mini: MiniBot) -> None:
    assert fake.heartbeat_acks >= 1
    assert fake.identifies[0]["token"] == "fake-token"
    assert mini.user is not None and mini.user.id == fake.bot_user.id
    guild = mini.get_guild(fake.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} >= {"general", "games"}
    assert {r.name for r in guild.roles} == {"@everyone", "GM"}
    assert guild.get_member(fake.users["gm"].id) is None  # no members intent: only the bot is cached
    assert guild.me is not None
    assert {c["name"] for c in fake.commands()} == {
        "echo",
        "move",
        "counter",
        "slow",
        "poke",
        "deferred",
        "upload",
        "rules",
    }
    assert fake.writes("/guilds/{guild}/commands")


async def test_slash_member_roles_and_locale(fake: FakeDiscord, mini: MiniBot) -> None:
    inter = await fake.slash("gm", "echo", {"text": "hi", "loud": True}, locale="it")
    res = await fake.wait_for_response(inter)
    assert res.callback_type == CB_MESSAGE
    assert res.text == f"HI from <@{fake.users['gm'].id}> gm=True locale=it"
    assert res.message.mentioned_ids == [fake.users["gm"].id]
    assert res.message.pinged_ids == []  # AllowedMentions(users=False)
    assert res.latency < 1

    res = await fake.wait_for_response(await fake.slash("bob", "echo", {"text": "yo"}))
    assert "gm=False" in res.text


async def test_client_side_checks(fake: FakeDiscord, mini: MiniBot) -> None:
    with pytest.raises(FakeDiscordError, match="required option"):
        await fake.slash("bob", "echo", {})
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.slash("bob", "echo", {"text": "x", "nope": 1})
    with pytest.raises(FakeDiscordError, match="not synced"):
        await fake.slash("bob", "nothing")
    with pytest.raises(FakeDiscordError, match="not one of"):
        await fake.slash("bob", "rules show", {"system": "dnd", "rule": 1})


async def test_subcommand_and_choices(fake: FakeDiscord, mini: MiniBot) -> None:
    res = await fake.wait_for_response(await fake.slash("alice", "rules show", {"system": "km", "rule": 4}))
    assert res.text == "km rule 4"


async def test_autocomplete(fake: FakeDiscord, mini: MiniBot) -> None:
    choices = await fake.autocomplete("alice", "move", {"to": "a"}, focused="to")
    assert [c["value"] for c in choices] == ["a1", "a2"]
    assert [c["value"] for c in await fake.autocomplete("alice", "move", {}, focused="to")] == [
        "a1",
        "a2",
        "b1",
    ]


async def test_buttons_select_and_ephemeral(fake: FakeDiscord, mini: MiniBot) -> None:
    msg = (await fake.wait_for_response(await fake.slash("alice", "counter"))).message
    assert msg.custom_ids() == ["mini:inc", "mini:secret", "mini:pick"]

    res = await fake.wait_for_response(await fake.click(msg, "mini:inc", user="bob"))
    assert res.callback_type == CB_UPDATE and res.updated is not None and res.updated.content == "count=1"
    res = await fake.wait_for_response(await fake.click(msg, "mini:inc", user="alice"))
    assert fake.messages[msg.id].content == "count=2"

    res = await fake.wait_for_response(await fake.click(msg, "mini:secret", user="carol"))
    assert res.ephemeral and res.text == "only you"
    with pytest.raises(FakeDiscordError, match="cannot see ephemeral"):
        await fake.click(res.message, "mini:inc", user="bob")

    res = await fake.wait_for_response(await fake.select(msg, "mini:pick", ["b"], user="bob"))
    assert res.text == "picked b" and not res.ephemeral
    with pytest.raises(FakeDiscordError, match="not offered"):
        await fake.select(msg, "mini:pick", ["z"], user="bob")


async def test_defer_followup_with_file(fake: FakeDiscord, mini: MiniBot) -> None:
    inter = await fake.slash("alice", "slow")
    res = await fake.wait_for_response(inter, followups=1)
    assert res.callback_type == CB_DEFERRED_MESSAGE
    first, second = res.messages
    assert first.content == "rendered" and not first.loading
    assert first.file(r"\.png$").data == b"PNGDATA"
    assert second.ephemeral and second.content == "and one more"
    assert [f.filename for f in res.files] == ["board.png"]


async def test_channel_message_mentions_and_file(fake: FakeDiscord, mini: MiniBot) -> None:
    res = await fake.wait_for_response(await fake.slash("alice", "poke", {"who": fake.users["bob"]}))
    assert res.ephemeral
    channel_msg = await fake.wait_until(
        lambda: next((m for m in fake.channel_messages(fake.channels["games"]) if m.interaction_id is None), None),
        what="turn reminder",
    )
    assert channel_msg.pinged_ids == [fake.users["bob"].id]
    assert channel_msg.file("t.txt").data == b"x"
    assert fake.writes("POST /channels/{channel}/messages")[0].files[0].field == "files[0]"


@pytest.mark.parametrize("status", [429, 500])
async def test_faults_on_callback_are_retried(fake: FakeDiscord, mini: MiniBot, status: int) -> None:
    fake.fail_next("POST", "/interactions/{id}/{token}/callback", status=status, retry_after=0.2)
    inter = await fake.slash("alice", "echo", {"text": "again"})
    res = await fake.wait_for_response(inter, timeout=5)
    assert [a.status for a in inter.attempts] == [status, 200]
    assert res.text.startswith("again") and res.latency < 3


async def test_late_callback_is_a_problem(fake: FakeDiscord, mini: MiniBot) -> None:
    fake.deadline = 0.1  # the slow command sleeps 0.2 s after deferring; make the defer itself late
    fake.fail_next("POST", "/interactions/{id}/{token}/callback", status=500)  # 1 s retry delay
    inter = await fake.slash("alice", "slow")
    await fake.wait_until(lambda: len(inter.attempts) == 2, what="retry")
    assert fake.late_callbacks == [inter]
    fake.late_callbacks.clear()  # expected here; the fixture would fail the test otherwise


async def test_unknown_route_is_recorded(fake: FakeDiscord, mini: MiniBot) -> None:
    with pytest.raises(discord.NotFound):
        await mini.http.request(discord.http.Route("GET", "/stickers/1"))
    assert [r.path for r in fake.unknown_routes] == ["/api/v10/stickers/1"]
    fake.unknown_routes.clear()


async def test_invalid_message_is_rejected_like_discord(fake: FakeDiscord, mini: MiniBot) -> None:
    channel = mini.get_channel(fake.channels["general"].id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x" * 2001)
    assert err.value.status == 400
    assert "2000" in fake.invalid_requests[0][1][0]
    fake.invalid_requests.clear()


async def test_edits_do_not_ping_and_public_defer_leaks_private_followup(fake: FakeDiscord, mini: MiniBot) -> None:
    bob = fake.users["bob"]
    res = await fake.wait_for_response(await fake.slash("alice", "deferred", {"who": bob}), followups=1)
    first, second = res.messages
    assert first.content == f"{bob.mention} first" and first.pinged_ids == []  # it edited "thinking…"
    assert second.pinged_ids == [bob.id]  # a new message notifies

    inter = await fake.slash("alice", "deferred", {"who": bob, "private": True})
    res = await fake.wait_for_response(inter, followups=1)
    assert not res.messages[0].ephemeral  # the deferral was public, so the "private" followup is not
    assert [i for i, _ in fake.ephemeral_leaks] == [inter]
    fake.ephemeral_leaks.clear()


async def test_attachment_option_and_default_permissions(fake: FakeDiscord, mini: MiniBot) -> None:
    notes = FakeFile("file", "notes.txt", "text/plain", b"hello")
    with pytest.raises(FakeDiscordError, match="cannot see /upload"):
        await fake.slash("alice", "upload", {"file": notes})
    res = await fake.wait_for_response(await fake.slash("owner", "upload", {"file": notes}))
    assert res.ephemeral and res.text == "notes.txt: hello"
