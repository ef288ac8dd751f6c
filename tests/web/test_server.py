"""The web page of a game (issue 31), driven through aiohttp's test client on the fake race game: the
page, its timeline, live updates, languages, and the security model (escaping, headers, 404s, limits)."""

from __future__ import annotations

import asyncio
import re
import time

from db import games as repo
from gm.app import App
from gm.context import Actor
from tests.conftest import ALICE, BOB, TABLE
from tests.web.conftest import Web, open_web
from web.limits import Rate
from web.links import Link, sign
from web.server import CSP
from web.service import WebConfig

SCRIPT = Actor(user_id=5, name="<script>alert(1)</script>")


async def _race(app: App, *moves: int, options: str = "target:20", host: Actor = ALICE) -> int:
    await app.tables.new(TABLE, host, "race", options)
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, host)
    for n, amount in enumerate(moves):
        await app.tables.act(TABLE, (host, BOB)[n % 2], {"kind": "add", "amount": amount})
    game = await repo.open_game(app.store.conn, TABLE.channel_id) or await repo.last_game(app.store.conn,
                                                                                          TABLE.channel_id)
    assert game is not None
    return game.id


async def test_the_page_shows_the_board_the_log_the_players_and_whose_turn(app: App, web: Web) -> None:
    game = await _race(app, 1, 2, 3)
    path = await web.path(game, 0)
    page = await web.client.get(path + "?lang=en")
    assert page.status == 200
    html = await page.text()
    assert 'data-count="4"' in html and 'data-step="3"' in html  # three actions: four positions
    assert 'alt="total 6/20"' in html  # the summary line is the picture's alt text
    assert "Waiting for: bob" in html and "alice" in html
    assert 'id="slider"' in html and 'max="3"' in html
    for index in range(4):
        step = await (await web.client.get(f"{path}/step/{index}.json")).json()
        assert step["summary"] == f"total {(0, 1, 3, 6)[index]}/20"
        image = await web.client.get(f"{path}/img/{index}.png")
        assert image.status == 200 and (await image.read()).startswith(b"\x89PNG")
    assert (await web.client.get(f"{path}/step/4.json")).status == 404
    timeline = await (await web.client.get(f"{path}/timeline.json")).json()
    assert timeline["count"] == 4 and [e["step"] for e in timeline["log"]] == [0, 1, 2, 3]  # the start, then 3 moves


async def test_the_page_speaks_the_language_asked_for(app: App, web: Web) -> None:
    game = await _race(app, 1)
    path = await web.path(game, None)
    italian = await (await web.client.get(path + "?lang=it")).text()
    english = await (await web.client.get(path, headers={"Accept-Language": "en-GB,en;q=0.9"})).text()
    assert "Registro" in italian and 'lang="it"' in italian and "Passo 2 di 2" in italian
    assert "Log" in english and 'lang="en"' in english and "Step 2 of 2" in english
    browser_it = await (await web.client.get(path, headers={"Accept-Language": "it-IT,it;q=0.9"})).text()
    assert 'lang="it"' in browser_it


async def test_every_name_is_escaped_a_player_called_script_included(app: App, web: Web) -> None:
    game = await _race(app, 2, 1, host=SCRIPT)
    path = await web.path(game, 0)
    for url in (path, path + "?lang=it"):
        html = await (await web.client.get(url)).text()
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert re.findall(r"<script\b[^>]*>", html) == ['<script src="/static/web.js" defer>']  # ours alone
    data = await (await web.client.get(f"{path}/timeline.json")).json()
    assert data["log"][0]["who"] == SCRIPT.name  # JSON carries text; the script writes it as text only


async def test_every_response_carries_the_security_headers_and_no_cookie(app: App, web: Web) -> None:
    game = await _race(app, 1)
    path = await web.path(game, None)
    for url in (path, f"{path}/step/0.json", f"{path}/img/0.png", f"{path}/timeline.json", "/static/web.js",
                "/g/nothing", "/nowhere"):
        response = await web.client.get(url)
        assert response.headers["Content-Security-Policy"] == CSP, url
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in response.headers
        assert not response.cookies
    assert "'unsafe-inline'" not in CSP and "frame-ancestors 'none'" in CSP


async def test_a_bad_expired_or_revoked_token_gets_a_plain_404(app: App, web: Web) -> None:
    game = await _race(app, 1)
    good = await web.path(game, 0)
    token = good.rsplit("/", 1)[-1]
    key = await web.service.key()
    expired = sign(key, Link(game, 0, int(time.time()) - 1, 0))
    forged = sign(b"not the key" * 3, Link(game, 0, int(time.time()) + 999, 0))
    other_game = sign(key, Link(game + 1000, None, int(time.time()) + 999, 0))
    flipped = token[:5] + ("A" if token[5] != "A" else "B") + token[6:]
    unknown = await web.client.get("/nowhere")
    for bad in (expired, forged, other_game, flipped, "x" * 200, "%3Cscript%3E"):
        for suffix in ("", "/step/0.json", "/img/0.png", "/timeline.json", "/live"):
            response = await web.client.get(f"/g/{bad}{suffix}")
            assert response.status == 404, (bad, suffix)
            assert response.content_type == "text/plain"
            assert await response.text() == await unknown.text() == "404: Not Found"
    assert (await web.client.get(good)).status == 200
    await web.service.revoke(game)
    assert (await web.client.get(good)).status == 404  # revoked: the same 404 as a forged token
    fresh = await web.path(game, 0)
    assert fresh != good and (await web.client.get(fresh)).status == 200


async def test_there_is_no_write_endpoint(app: App, web: Web) -> None:
    methods = {route.method for route in web.client.server.app.router.routes()}
    assert methods <= {"GET", "HEAD"}
    game = await _race(app, 1)
    path = await web.path(game, 0)
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        assert (await web.client.request(method, path, data=b"{}")).status == 405


async def test_requests_are_limited_per_address_and_per_token(app: App) -> None:
    web = await open_web(app, WebConfig(port=1, per_ip=Rate(burst=5, per_second=0.01),
                                        per_token=Rate(burst=1000, per_second=1)))
    try:
        game = await _race(app, 1)
        path = await web.path(game, None)
        statuses = [(await web.client.get(f"{path}/step/0.json")).status for _ in range(7)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]
        limited = await web.client.get(path)
        assert limited.status == 429 and int(limited.headers["Retry-After"]) >= 1
    finally:
        await web.client.close()
    web = await open_web(app, WebConfig(port=1, per_ip=Rate(burst=1000, per_second=1),
                                        per_token=Rate(burst=3, per_second=0.01)))
    try:
        path = await web.path(game, None)
        other = await web.path(game, 0)
        assert [(await web.client.get(path)).status for _ in range(4)] == [200, 200, 200, 429]
        assert (await web.client.get(other)).status == 200  # another link has its own budget
    finally:
        await web.client.close()


async def test_a_committed_move_reaches_an_open_page_live(app: App, web: Web) -> None:
    game = await _race(app, 1)
    path = await web.path(game, None)
    stream = await web.client.get(f"{path}/live")
    assert stream.status == 200 and stream.content_type == "text/event-stream"
    assert await stream.content.readuntil(b"\n\n") == b"retry: 3000\n\n"
    began = time.monotonic()
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})
    message = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 2.0)
    took = time.monotonic() - began
    assert message.startswith(b"event: position\ndata: ")
    print(f"live update after {took * 1000:.0f} ms (the table's hook, no poll)")
    assert web.service.broker.open_streams == 1
    data = await (await web.client.get(f"{path}/timeline.json")).json()
    assert data["count"] == 3  # the new position is served at once
    stream.close()


async def test_a_finished_game_opens_its_replay_unless_the_lobby_said_no(app: App, web: Web) -> None:
    game = await _race(app, 3, 3, 3, 3, 3, 3, 2)  # 20: alice wins
    assert (await repo.get_game(app.store.conn, game)).status == "finished"  # type: ignore[union-attr]
    html = await (await web.client.get(await web.path(game, None))).text()
    assert "Full replay" in html
    await web.service.set_replay_reveal(game, False)
    html = await (await web.client.get(await web.path(game, None))).text()
    assert "Full replay" not in html and "Public view" in html
