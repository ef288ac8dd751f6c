"""Ratings per server and per game (issue 32.5): OpenSkill updated once, in the ending's transaction,
by games that ended by their rules; ``/game ratings`` and ``/game profile``; recomputation from the
stored games. Table tests run on SQLite and on PostgreSQL (skipped without ``TAVOLO_TEST_POSTGRES``)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from common.i18n import t
from db import ratings as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.table import ratings
from gm.table.ratings import RatedSeat, changes_for, points, recompute
from renderers.ratings_chart import draw_history
from tests.conftest import ALICE, BOB, CAROL, app_on_both_backends
from tests.fakes import RaceEngine
from tests.renderers import golden

ROOT = Path(__file__).resolve().parents[2]
GUILD = 9
GM = Actor(user_id=99, name="gm", is_gm=True)


app = app_on_both_backends(seed=7)


def channel(n: int) -> Place:
    return Place(channel_id=330_000 + n, guild_id=GUILD)


async def _start(app: App, place: Place, *players: Actor) -> None:
    host, *others = players
    await app.tables.new(place, host, "race", "target:6")
    for player in others:
        await app.tables.join(place, player)
    await app.tables.start(place, host)


async def _play_out(app: App, place: Place, players: list[Actor]) -> None:
    """Adds 3, 3: the second seat's move reaches the target and wins."""
    for _ in range(len(players) * 3):
        table = await app.tables.table_for(place)
        if table is None or table.game.status != "active":
            return
        mover = players[table.state.turn]  # type: ignore[union-attr]
        await app.tables.act(place, mover, {"kind": "add", "amount": 3})
    raise AssertionError("the race did not end")


async def _ratings(app: App, *users: Actor) -> dict[int, repo.Rating]:
    return await repo.current(app.tables.store.conn, GUILD, "race", (u.user_id for u in users))


async def test_a_finished_game_rates_the_winner_up_and_the_loser_down_once(app: App) -> None:
    await _start(app, channel(1), ALICE, BOB)
    await _play_out(app, channel(1), [ALICE, BOB])
    rated = await _ratings(app, ALICE, BOB)
    alice, bob = rated[ALICE.user_id], rated[BOB.user_id]
    assert (bob.won, bob.lost, bob.played) == (1, 0, 1) and (alice.won, alice.lost, alice.played) == (0, 1, 1)
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    assert alice.mu == pytest.approx(expected[0][0].mu) and bob.mu == pytest.approx(expected[1][0].mu)
    assert points(bob.mu, bob.sigma) > points(alice.mu, alice.sigma)
    table = await app.tables.finished_game(channel(1))
    assert table is not None
    async with app.tables.store.transaction() as conn:  # rating the same game again changes nothing
        assert await ratings.rate_game(conn, table.game.id, GUILD, "race", [RatedSeat(0, ALICE.user_id, None),
                                       RatedSeat(1, BOB.user_id, None)], {"winners": [1]}) == []
    assert await _ratings(app, ALICE, BOB) == rated


async def test_the_ratings_are_written_in_the_endings_transaction(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _start(app, channel(2), ALICE, BOB)

    async def failing(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(repo, "record", failing)
    with pytest.raises(RuntimeError):
        await _play_out(app, channel(2), [ALICE, BOB])
    table = await app.tables.table_for(channel(2))
    assert table is not None and table.game.status == "active"  # the ending was not stored without its ratings
    assert await _ratings(app, ALICE, BOB) == {}


async def test_a_game_the_gm_ended_or_left_unfinished_does_not_count(app: App) -> None:
    await _start(app, channel(3), ALICE, BOB)
    await app.tables.act(channel(3), ALICE, {"kind": "add", "amount": 3})
    await app.tables.end(channel(3), GM)
    await app.tables.new(channel(4), ALICE, "race")
    assert await _ratings(app, ALICE, BOB) == {}


async def test_a_resignation_is_a_loss(app: App) -> None:
    await _start(app, channel(5), ALICE, BOB)
    await app.tables.resign(channel(5), ALICE)
    rated = await _ratings(app, ALICE, BOB)
    assert rated[ALICE.user_id].lost == 1 and rated[BOB.user_id].won == 1


async def test_the_gms_undo_of_the_last_move_takes_the_rating_back(app: App) -> None:
    await _start(app, channel(6), ALICE, BOB)
    await _play_out(app, channel(6), [ALICE, BOB])
    assert await _ratings(app, ALICE, BOB)
    await app.tables.undo(channel(6), GM)
    assert await _ratings(app, ALICE, BOB) == {}
    await app.tables.act(channel(6), BOB, {"kind": "add", "amount": 3})  # and rated again when it ends again
    assert (await _ratings(app, BOB))[BOB.user_id].won == 1


async def test_recomputing_from_the_stored_games_gives_the_same_numbers(app: App) -> None:
    for n, players in enumerate([[ALICE, BOB], [BOB, CAROL], [CAROL, ALICE, BOB], [ALICE, CAROL]]):
        await _start(app, channel(10 + n), *players)
        await _play_out(app, channel(10 + n), players)
    before = await repo.everything(app.tables.store.conn)
    async with app.tables.store.transaction() as conn:
        result = await recompute(conn)
    assert (result.games, result.rated, result.differing) == (4, 4, [])
    assert await repo.everything(app.tables.store.conn) == before
    async with app.tables.store.transaction() as conn:  # a tampered rating is found and put right
        await conn.execute("UPDATE ratings SET mu = 40 WHERE user_id = ?", (CAROL.user_id,))
        result = await recompute(conn)
    assert result.differing == [(GUILD, "race", CAROL.user_id)]
    assert await repo.everything(app.tables.store.conn) == before


async def test_ratings_and_profile_replies_in_both_languages(app: App) -> None:
    await _start(app, channel(20), ALICE, BOB)
    await _play_out(app, channel(20), [ALICE, BOB])
    reply = await app.tables.ratings(channel(0), ALICE, "race")
    assert reply.ephemeral and not reply.ping
    lines = reply.text.splitlines()
    assert lines[0].startswith(f"1. <@{BOB.user_id}>") and lines[1].startswith(f"2. <@{ALICE.user_id}>")
    assert "1 won" in lines[0] and "1 lost" in lines[1]
    italian = await app.tables.ratings(channel(0), replace(ALICE, locale="it"), "race")
    assert "vinte 1" in italian.text and "OpenSkill" in italian.text
    assert re.search(r"\d\.\d{3} punti", italian.text) and re.search(r"\d,\d{3} pts", reply.text)  # 1.138 / 1,138
    with pytest.raises(TavoloError) as caught:
        await app.tables.ratings(channel(0), ALICE, "chess")
    assert caught.value.key == "game.unknown_system"
    profile = await app.tables.profile(channel(0), ALICE, BOB.user_id, "bob")
    assert profile.title == t("game.profile_title", "en", user="bob") and "1 won" in profile.text
    assert profile.image is not None
    assert Image.open(io.BytesIO(profile.image.data)).size == (500, 240)
    empty = await app.tables.profile(channel(0), CAROL)
    assert empty.text == t("game.profile_empty", "en", user=f"<@{CAROL.user_id}>") and empty.image is None


async def test_the_command_line_recomputation_reports_what_it_found(tmp_path: Path, race: RaceEngine) -> None:
    """``python bot.py --recompute-ratings`` (SQLite file; the engines are not needed to rate stored results)."""
    path = tmp_path / "ratings.sqlite3"
    application = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=7)
    try:
        await _start(application, channel(30), ALICE, BOB)
        await _play_out(application, channel(30), [ALICE, BOB])
        async with application.tables.store.transaction() as conn:
            await conn.execute("UPDATE ratings SET won = 5 WHERE user_id = ?", (BOB.user_id,))
    finally:
        await application.close()
    env = {**{k: v for k, v in os.environ.items() if k != "DATABASE_URL"}, "DATABASE_PATH": str(path),
           "DEFAULT_LOCALE": "en"}
    done = subprocess.run([sys.executable, "bot.py", "--recompute-ratings"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        t("cli.ratings.done", "en", games=1, rated=1, ratings=2, differing=1),
        t("cli.ratings.differed", "en", guild=GUILD, system="race", user=BOB.user_id)]


def test_teams_share_a_result_and_free_for_all_ranks_the_winner_alone() -> None:
    seats = [RatedSeat(0, 1, "a"), RatedSeat(1, 2, "b"), RatedSeat(2, 3, "a"), RatedSeat(3, 4, "b")]
    changes = {c.user_id: c for c in changes_for(seats, [1, 3], {})}
    assert changes[2].result == changes[4].result == "won" and changes[1].result == changes[3].result == "lost"
    assert changes[2].mu_after == changes[4].mu_after > 25 > changes[1].mu_after == changes[3].mu_after
    free = {c.user_id: c for c in changes_for([RatedSeat(0, 1, None), RatedSeat(1, 2, None), RatedSeat(2, 3, None)],
                                              [2], {})}
    assert free[3].result == "won" and free[1].mu_after == free[2].mu_after < 25 < free[3].mu_after
    drawn = changes_for([RatedSeat(0, 1, None), RatedSeat(1, 2, None)], [], {})
    assert {c.result for c in drawn} == {"drawn"} and drawn[0].mu_after == pytest.approx(drawn[1].mu_after)
    assert changes_for([RatedSeat(0, 1, None), RatedSeat(1, 1, None)], [0], {}) == []  # fewer than two members


def test_the_rating_chart_matches_its_golden(tmp_path: Path) -> None:
    series = [("Krosmaster", [(0, 1000), (1, 1080), (3, 1130), (5, 1190)]),
              ("Warlord", [(2, 940), (4, 985)]), ("WoW Miniatures", [(6, 1010)])]
    png = draw_history("alice: rating after each game", series, 7, "the latest 7 rated games, oldest on the left")
    assert Image.open(io.BytesIO(png)).size == (500, 240)
    golden.check("ratings_chart", png, tmp_path)


async def test_profile_of_another_member_typed_in_the_console(console_of) -> None:  # type: ignore[no-untyped-def]
    """``user:`` is a Discord user option: a member who left the server, or a user the console makes up, is
    still a user, so the command must take one (a ``Member`` annotation refused both with "bad value")."""
    console = await console_of(1)
    for line in ("/as bob", "/game profile", "/as alice", "/game profile user:@bob"):
        await console.execute(line)
    said = console.output.getvalue()  # type: ignore[attr-defined]
    assert said.count(t("game.profile_empty", "en", user="@bob")) == 2, said
    assert t("common.bad_value", "en", value="")[:20] not in said
