"""What a test reads back from the fake: the bot's IDENTIFY and command syncs, the answer
to an interaction (waiting for it, with an optional trace), channel history and the
requests the bot wrote.

Every wait here goes through :meth:`FakeState.wait_until`, so a missing answer fails with
the recent requests and the bot's diagnostics instead of hanging.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.messages import FakeMessage
from tests.e2e.fake_discord.protocol import CB_DEFERRED_UPDATE, CB_UPDATE
from tests.e2e.fake_discord.records import FakeInteraction, Recorded, Response, describe
from tests.e2e.fake_discord.state import FakeState
from tests.e2e.fake_discord.world import FakeChannel


class Inspection(FakeState):
    """Waiting for and reading what the bot did."""

    async def wait_for_identify(self, count: int = 1, timeout: float = 15.0) -> dict[str, Any]:
        await self.wait_until(lambda: len(self.identifies) >= count, timeout=timeout, what=f"IDENTIFY #{count}")
        return self.identifies[count - 1]

    async def wait_for_sync(self, count: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        """Wait for the ``count``-th command sync; return the commands visible in the guild."""
        await self.wait_until(lambda: len(self.command_syncs) >= count, timeout=timeout, what=f"command sync #{count}")
        return self.commands()

    async def wait_for_response(
        self, interaction: FakeInteraction | int, *, followups: int = 0, edits: int = 0, timeout: float = 15.0
    ) -> Response:
        """Wait until the bot answered ``interaction`` (and sent ``followups`` followups / ``edits`` edits).

        A deferral alone is not an answer: after type 5/6 the bot must edit or follow up.
        """
        inter = interaction if isinstance(interaction, FakeInteraction) else self.interactions[interaction]
        await self.wait_until(
            lambda: inter.answered and len(inter.followup_ids) >= followups and inter.edits >= edits,
            timeout=timeout,
            what=f"an answer to interaction {inter.id} ({describe(inter)})",
        )
        res = self.response(inter)
        if self.trace:
            print(f"\n>>> {describe(inter)} [cb={inter.callback_type} {res.latency:.2f}s]")
            for m in [*res.messages, *([res.updated] if res.updated else [])]:
                files = ", ".join(f.filename for f in m.files.values())
                print(
                    f"<<< {'(ephemeral) ' if m.ephemeral else ''}{m.text!r} files=[{files}] "
                    f"buttons={m.custom_ids()} pinged={m.pinged_ids}"
                )
            if inter.choices is not None:
                print(f"<<< choices {[c['value'] for c in inter.choices]}")
        return res

    def response(self, inter: FakeInteraction) -> Response:
        messages: list[FakeMessage] = []
        updated = None
        if inter.original_id is not None:
            original = self.messages[inter.original_id]
            if inter.callback_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
                updated = original
            elif not original.deleted:
                messages.append(original)
        messages += [self.messages[i] for i in inter.followup_ids if not self.messages[i].deleted]
        return Response(inter, messages, updated)

    def channel_messages(self, channel: FakeChannel | int, *, since: float = 0.0) -> list[FakeMessage]:
        """Non-deleted messages in a channel (interaction replies included), oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and m.data.get("_created", 0) >= since
        ]

    def writes(self, route: str | None = None) -> list[Recorded]:
        """Recorded non-GET requests, optionally only those whose route template contains ``route``."""
        return [r for r in self.requests if r.method != "GET" and (route is None or route in r.route)]

