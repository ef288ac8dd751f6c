"""Playing Tavolo through the fake Discord like people would: helpers shared by the game tests.

The driver reads what a player reads — the ``➡️ Your turn, @x`` / ``❓ @x, a choice is
needed`` line of the last public board — and answers with the slash command a player
would type, picking from the bot's own autocomplete. It never peeks at engine state to
decide; tests that check legality read the database separately (:func:`load_table`).
"""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, Response

NEXT_LINE = re.compile(r"^(?:➡️|❓).*$", re.MULTILINE)
MENTION = re.compile(r"<@!?(\d+)>")


async def ok(fake: FakeDiscord, interaction: Any, **kw: Any) -> Response:
    """Wait for the answer to ``interaction`` (a thin alias that keeps tests short)."""
    return await fake.wait_for_response(interaction, **kw)


async def settled(fake: FakeDiscord) -> None:
    """Wait until the bot has stopped posting and editing (a board may follow its answer), as a
    player waits to see the new board before clicking on it."""
    def snapshot() -> tuple[int, int]:
        return len(fake.messages), sum(len(m.history) for m in fake.messages.values())

    seen = snapshot()
    for _ in range(100):
        await asyncio.sleep(0.05)
        now = snapshot()
        if now == seen:
            return
        seen = now


def png(message: FakeMessage) -> Image.Image:
    """The board image attached to ``message``, decoded (fails if missing or not a PNG)."""
    f = message.file(r"\.png$")
    image = Image.open(io.BytesIO(f.data))
    assert image.format == "PNG", f"{f.filename} is {image.format}, not PNG"
    image.load()
    return image


def next_up(fake: FakeDiscord, message: FakeMessage) -> tuple[FakeUser, str]:
    """Who must act after ``message`` and the prompt they were given."""
    lines = NEXT_LINE.findall(message.content)
    assert lines, f"no 'your turn' line in board message:\n{message.text}"
    ids = [int(i) for i in MENTION.findall(lines[-1])]
    assert len(ids) == 1, f"expected one player to act, got {ids} in {lines[-1]!r}"
    user = next(u for u in fake.users.values() if u.id == ids[0])
    return user, lines[-1]


def board_of(res: Response, fake: FakeDiscord | None = None) -> FakeMessage:
    """The board after a reply, failing on a private or error answer.

    A small change (a set-up step, a second move of the same piece) edits the board already in
    the channel and answers with a line of text: with ``fake`` given, that edited board is
    returned, as a player would look up at it."""
    public = [m for m in res.messages if not m.ephemeral]
    assert public, f"expected a public board, got only private replies:\n{res.text}"
    reply = public[-1]
    if fake is None or reply.files:
        return reply
    edited = [m for m in fake.messages.values()
              if m.channel_id == reply.channel_id and m.history and m.files and not m.ephemeral and not m.deleted]
    assert edited, f"no board image in the reply and no board updated in place:\n{res.text}"
    return max(edited, key=lambda m: str(m.data.get("edited_timestamp")))


async def drive_krosmaster_setup(
    fake: FakeDiscord, board: FakeMessage, *, buttons: bool = False, limit: int = 40
) -> FakeMessage:
    """Answer set-up and between-turn decisions as the prompted players until a piece is active.

    With ``buttons`` the questions are answered the clicking way: the board's "Answer"
    button opens a private select, and "Keep the dice" ends the inspiration step.
    """
    channel = next(c for c in fake.channels.values() if c.id == board.channel_id)
    for _ in range(limit):
        user, prompt = next_up(fake, board)
        if "is active" in prompt:
            return board
        if "Deploy your Krosmasters" in prompt:
            pieces = await fake.autocomplete(user, "km deploy", {"piece": ""}, focused="piece", channel=channel)
            assert pieces, f"no piece offered to deploy: {prompt}"
            options = {"piece": pieces[0]["value"], "square": ""}
            squares = await fake.autocomplete(user, "km deploy", options, focused="square", channel=channel)
            assert squares, "no starting square offered"
            options["square"] = squares[0]["value"]
            res = await ok(fake, await fake.slash(user, "km deploy", options, channel=channel))
        elif "Order your Krosmasters" in prompt:
            pieces = await fake.autocomplete(user, "km order", {"piece": ""}, focused="piece", channel=channel)
            res = await ok(fake, await fake.slash(user, "km order", {"piece": pieces[0]["value"]}, channel=channel))
        elif "inspiration dice" in prompt and buttons:
            res = await ok(fake, await fake.click(board, board.find_custom_id(r":keep$"), user=user))
        elif "inspiration dice" in prompt:
            res = await ok(fake, await fake.slash(user, "km inspire", channel=channel))
        elif buttons:
            asked = await ok(fake, await fake.click(board, board.find_custom_id(r":ask$"), user=user))
            assert asked.ephemeral, "the question's select is for the asked player only"
            menu = asked.message.selects()[0]
            res = await ok(
                fake, await fake.select(asked.message, menu["custom_id"], [menu["options"][0]["value"]], user=user)
            )
        else:  # side, tension faces, effect order: the open question
            answers = await fake.autocomplete(user, "km choose", {"option": ""}, focused="option", channel=channel)
            assert answers, f"nothing offered for: {prompt}"
            res = await ok(fake, await fake.slash(user, "km choose", {"option": answers[0]["value"]}, channel=channel))
        board = board_of(res, fake)
    raise AssertionError(f"set-up did not reach a turn in {limit} steps; last board:\n{board.text}")


@dataclass
class TableRow:
    game_id: int
    status: str
    state_json: str | None
    seats: dict[int, int]  # user id -> seat
    actions: int


def load_table(db_path: Path, channel_id: int) -> TableRow:
    """Read the channel's open game straight from SQLite (read-only; the bot may be running)."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        row = conn.execute(
            "SELECT id, status, state FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ).fetchone()
        assert row is not None, f"no game in channel {channel_id}"
        seats = dict(conn.execute("SELECT user_id, seat FROM seats WHERE game_id = ?", (row[0],)).fetchall())
        (actions,) = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ? AND undone = 0", (row[0],)).fetchone()
    return TableRow(row[0], row[1], row[2], seats, actions)


TEAM_A = "bone_crusher, iron_warden, gale_archer"  # levels 5 + 4 + 3 = 12
TEAM_B = "frost_monk, iron_warden, gale_archer, mire_imp"  # 4 + 4 + 3 + 1 = 12


async def open_krosmaster_game(fake: FakeDiscord, channel: str = "games", *, buttons: bool = False) -> FakeMessage:
    """alice opens a Krosmaster lobby, bob joins, both pick teams, alice starts, set-up is played:
    returns the first board on which a piece is active."""
    alice, bob = fake.users["alice"], fake.users["bob"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "krosmaster"}, channel=channel))
    assert not res.ephemeral and "New Krosmaster lobby" in res.text, res.text
    res = await ok(fake, await fake.slash(bob, "game join", channel=channel))
    assert not res.ephemeral, res.text
    for user, team in ((alice, TEAM_A), (bob, TEAM_B)):
        res = await ok(fake, await fake.slash(user, "km team", {"figurines": team}, channel=channel))
        assert not res.ephemeral and user.mention in res.text, res.text
    res = await ok(fake, await fake.slash(alice, "game start", channel=channel))
    board = board_of(res, fake)
    png(board)
    return await drive_krosmaster_setup(fake, board, buttons=buttons)


@dataclass(frozen=True)
class ScriptStep:
    """One command of a console script, as a Discord member sends it: who (the last ``/as``), the command's
    name (``wowb trade``), its options, and the line itself (for failure messages)."""

    user: str
    command: str
    options: dict[str, str | int]
    line: str


def script_steps(text: str, numbers: frozenset[str] = frozenset()) -> list[ScriptStep]:
    """A console script's commands, each with the member the last ``/as`` named (alice before any): blank
    lines, comments and trailing ``  # notes`` left out. ``numbers``: options Discord's client sends as
    integers."""
    import shlex

    steps: list[ScriptStep] = []
    user = "alice"
    for raw in text.splitlines():
        line = raw.split("  #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("/as "):
            user = line.split()[1]
            continue
        words = shlex.split(line.lstrip("/"))
        options: dict[str, str | int] = {}
        for word in (w for w in words if ":" in w):
            key, value = word.split(":", 1)
            options[key] = int(value) if key in numbers else value
        steps.append(ScriptStep(user, " ".join([w for w in words if ":" not in w][:2]), options, line))
    return steps
