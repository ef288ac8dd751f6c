"""``/game replay`` (issue 31.4): the positions of a game as an animated GIF, a few seconds per turn,
capped to Discord's attachment size, drawn off the loop; offered by a button when a game ends."""

from __future__ import annotations

import asyncio
import io
import random
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from db import games as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor
from gm.table.replies import REPLAY_BUTTON
from tests.conftest import ALICE, BOB, TABLE, ConsoleOf
from web import gif, replay
from web.history import Timelines
from web.pictures import PictureCache

ROOT = Path(__file__).resolve().parents[2]
ALICE_IT = Actor(user_id=ALICE.user_id, name=ALICE.name, locale="it")


async def _race(app: App, *moves: int) -> int:
    await app.tables.new(TABLE, ALICE, "race", "target:20")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    for n, amount in enumerate(moves):
        await app.tables.act(TABLE, (ALICE, BOB)[n % 2], {"kind": "add", "amount": amount})
    game = await repo.open_game(app.store.conn, TABLE.channel_id) or await repo.last_game(
        app.store.conn, TABLE.channel_id)
    assert game is not None
    return game.id


def _frames(data: bytes) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """Frame count, durations and each frame's top-left colour (the race board's colour is its total)."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF"
        colours, times = [], []
        for n in range(image.n_frames):
            image.seek(n)
            times.append(int(image.info["duration"]))
            colours.append(image.convert("RGB").getpixel((1, 1)))
        return image.n_frames, times, colours  # type: ignore[return-value]


async def test_the_replay_has_one_frame_per_position_in_order_and_holds_the_turns(app: App) -> None:
    game = await _race(app, 1, 2, 3, 1)
    reply = await replay.replay_reply(app, TABLE, ALICE)
    assert reply.image is not None and reply.image.filename.endswith(".gif") and not reply.ephemeral
    count, times, colours = _frames(reply.image.data)
    assert count == 5  # the start and four moves
    assert [c[0] for c in colours] == [total * 20 % 256 for total in (0, 1, 3, 6, 7)]  # RacePresenter's colour
    assert times[-1] == replay.END_MS
    assert times[:-1] == [replay.TURN_MS] * 4  # each race move ends a player turn: every position holds
    assert f"#{game}" in reply.text and "5 frames" in reply.text and "steps 1 to 5" in reply.text
    part = await replay.replay_reply(app, TABLE, ALICE, 2, 4)
    assert part.image is not None
    count, _, colours = _frames(part.image.data)
    assert count == 3 and [c[0] for c in colours] == [20, 60, 120]


async def test_the_replay_speaks_both_languages_and_refuses_a_bad_range_clearly(app: App) -> None:
    await _race(app, 1, 2)
    english = await replay.replay_reply(app, TABLE, ALICE)
    italian = await replay.replay_reply(app, TABLE, ALICE_IT)
    assert "frames" in english.text and "fotogrammi" in italian.text and "passi da 1 a 3" in italian.text
    for start, end in ((3, 2), (1, 4), (2, 2)):
        with pytest.raises(TavoloError) as refused:
            await replay.replay_reply(app, TABLE, ALICE_IT, start, end)
        assert refused.value.key == "web.replay_bad_range" and refused.value.params["count"] == 3


async def test_a_long_game_is_thinned_to_every_other_position_keeping_the_last(app: App) -> None:
    await _race(app, *([1] * 15))
    timeline = await Timelines(app.store).get((await repo.last_game(app.store.conn, TABLE.channel_id)).id)  # type: ignore[union-attr]
    assert timeline is not None and timeline.count == 16
    indexes, times = replay.plan(timeline, 0, 15, max_frames=8)
    assert indexes == [0, 3, 6, 9, 12, 15]  # every other would be 9 frames with the last: every third
    assert replay.plan(timeline, 0, 15, max_frames=9)[0] == [0, 2, 4, 6, 8, 10, 12, 14, 15]
    assert times[-1] == replay.END_MS
    made = await replay.make_replay(timeline, 0, 15, "en", PictureCache(1 << 20), max_frames=8)
    count, _, colours = _frames(made.data)
    assert count == len(indexes) and colours[-1][0] == 15 * 20 % 256


def _noise(seed: int, size: tuple[int, int] = (240, 160)) -> bytes:
    """A picture that does not compress: the worst case for the size cap."""
    rng = random.Random(seed)
    image = Image.frombytes("RGB", size, rng.randbytes(size[0] * size[1] * 3))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_the_gif_is_shrunk_then_thinned_to_fit_the_cap() -> None:
    pictures = [_noise(n) for n in range(8)]
    times = [700] * 7 + [4000]
    whole = gif.assemble(pictures, times, max_bytes=50_000_000, deadline=time.monotonic() + 60)
    assert whole.frames == 8 and whole.scale == 1.0 and whole.stride == 1
    cap = len(whole.data) // 6
    fitted = gif.assemble(pictures, times, max_bytes=cap, deadline=time.monotonic() + 60)
    assert len(fitted.data) <= cap and (fitted.scale < 1.0 or fitted.stride > 1)
    with Image.open(io.BytesIO(fitted.data)) as image:
        assert image.n_frames == fitted.frames and image.width < 240
    tiny = gif.assemble(pictures, times, max_bytes=len(whole.data) // 25, deadline=time.monotonic() + 60)
    assert tiny.stride > 1 and tiny.frames < 8  # too small to shrink further: every other position goes
    with pytest.raises(TavoloError) as refused:
        gif.assemble(pictures, times, max_bytes=500, deadline=time.monotonic() + 60)
    assert refused.value.key == "web.replay_too_big"
    with pytest.raises(TavoloError) as late:
        gif.assemble(pictures, times, max_bytes=cap, deadline=time.monotonic() - 1)
    assert late.value.key == "web.replay_too_long"


def test_thinning_gives_each_kept_frame_the_longest_pause_it_stands_for() -> None:
    kept, times = gif.thin([700, 2500, 700, 700, 2500, 4000], 2)
    assert kept == [0, 2, 4, 5] and times == [2500, 700, 2500, 4000]


async def test_the_gif_is_put_together_off_the_loop(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _race(app, 1, 2)
    loop_thread = threading.get_ident()
    threads: list[int] = []
    real = gif.assemble

    def watched(*args: object, **kwargs: object) -> gif.Gif:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay, "assemble", watched)
    ticks = 0

    async def ticker() -> None:  # the loop keeps turning while the replay is made
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    running = asyncio.ensure_future(ticker())
    try:
        reply = await replay.replay_reply(app, TABLE, ALICE)
    finally:
        running.cancel()
    assert reply.image is not None
    assert threads and all(ident != loop_thread for ident in threads)
    assert ticks > 1


async def test_the_move_that_ends_a_game_offers_its_replay_with_a_button(app: App) -> None:
    game = await _race(app, 3, 3, 3, 3, 3, 3)
    last = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})  # 20: alice wins
    assert [(b.label, b.custom_id) for b in last.buttons] == [("Replay as a GIF", f"{REPLAY_BUTTON}:{game}")]
    assert not (await app.tables.status(TABLE, BOB)).buttons  # offered once, with the end, not on every status
    answered = await replay.replay_reply(app, TABLE, BOB, game_id=game)
    assert answered.image is not None and _frames(answered.image.data)[0] == 8
    other = TABLE.__class__(channel_id=TABLE.channel_id + 1, guild_id=TABLE.guild_id)
    with pytest.raises(TavoloError):  # a button of another channel's game opens nothing here
        await replay.replay_reply(app, other, BOB, game_id=game)
    await app.tables.new(other, ALICE_IT, "race", "target:3")
    await app.tables.join(other, BOB)
    await app.tables.start(other, ALICE_IT)
    ended = await app.tables.act(other, ALICE_IT, {"kind": "add", "amount": 3})
    assert [b.label for b in ended.buttons] == ["Replay in GIF"]


async def test_the_console_clicks_the_replay_button_of_a_finished_game(console_of: ConsoleOf) -> None:
    console = await console_of(1)
    for line in (ROOT / "tests" / "mageknight" / "challenge.txt").read_text(encoding="utf-8").splitlines():
        await console.execute(line)
    await console.execute("/click Replay as a GIF")
    await console.execute("/game replay from:2 to:5")
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]
    gifs = sorted((console.out_dir).glob("*.gif"))  # type: ignore[attr-defined]
    assert len(gifs) == 2
    with Image.open(gifs[1]) as image:
        assert image.n_frames == 4
