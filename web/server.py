"""The routes of the web pages: read-only, signed, rate-limited (docs/WEB.md, "Security model").

Every route is a GET (aiohttp answers HEAD too, and 405 to anything else): nothing here writes. A
token that does not open (forged, expired, revoked, unknown game) gets the same plain 404 as an
unknown address, so a page says nothing about why. Every response, errors and streams included,
carries the security headers (``_headers``): a Content-Security-Policy that allows only this origin's
script, style, pictures and stream, no framing, no referrer; no response sets a cookie.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import web

from common.i18n import t
from web.history import Timeline
from web.links import Link
from web.pages import Audience, audience_for, log_entries, players, step_info
from web.service import WebService
from web.templates import LANGS, esc, page

STATIC = Path(__file__).resolve().parent / "static"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
HEARTBEAT_SECONDS = 15.0
SERVICE: web.AppKey[WebService] = web.AppKey("tavolo_web", WebService)


def make_app(service: WebService) -> web.Application:
    app = web.Application(middlewares=[_limits], client_max_size=1024)
    app[SERVICE] = service
    app.on_response_prepare.append(_headers)
    app.router.add_get("/g/{token}", _page)
    app.router.add_get("/g/{token}/timeline.json", _timeline)
    app.router.add_get(r"/g/{token}/step/{n:\d{1,6}}.json", _step)
    app.router.add_get(r"/g/{token}/img/{n:\d{1,6}}.png", _image)
    app.router.add_get("/g/{token}/live", _live)
    for name, kind in (("web.js", "text/javascript"), ("web.css", "text/css")):
        app.router.add_get(f"/static/{name}", _static(name, kind))
    app.router.add_get("/favicon.ico", _no_icon)
    return app


async def _no_icon(request: web.Request) -> web.Response:
    """Browsers ask for an icon on every page; an empty answer keeps a 404 out of their console."""
    return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)
    response.headers.popall("Set-Cookie", None)


def client_of(request: web.Request, trust_forwarded: bool) -> str:
    """The client's address; behind a reverse proxy (``WEB_TRUST_FORWARDED``) the one it appended last."""
    if trust_forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "")
        if forwarded:
            return forwarded.rsplit(",", 1)[-1].strip()[:64]
    return request.remote or "?"


@web.middleware
async def _limits(request: web.Request, handler: Any) -> web.StreamResponse:
    service = request.app[SERVICE]
    wait = service.per_ip.take(client_of(request, service.config.trust_forwarded))
    token = request.match_info.get("token")
    if not wait and token:
        wait = service.per_token.take(token[:100])
    if wait:
        return web.Response(status=429, text="429: Too Many Requests", headers={"Retry-After": str(int(wait) + 1)})
    return await handler(request)  # type: ignore[no-any-return]


def _static(name: str, kind: str) -> Any:
    body = (STATIC / name).read_bytes()

    async def handler(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "public, max-age=3600"})
    return handler


def lang_of(request: web.Request, default: str) -> str:
    """``?lang=it`` or ``?lang=en``; else the browser's first language we speak; else the bot's default."""
    asked = request.query.get("lang", "")
    if asked in LANGS:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";", 1)[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return default if default in LANGS else "en"


async def _opened(request: web.Request) -> tuple[WebService, Link, Timeline, Audience]:
    service = request.app[SERVICE]
    found = await service.open(request.match_info["token"])
    if found is None:
        raise web.HTTPNotFound()
    link, timeline, policy = found
    return service, link, timeline, audience_for(link, timeline, policy.replay_reveal)


def _index(request: web.Request, timeline: Timeline) -> int:
    index = int(request.match_info["n"])
    if not 0 <= index < timeline.count:
        raise web.HTTPNotFound()
    return index


async def _log(timeline: Timeline, audience: Audience, lang: str) -> list[Any]:
    key = ("log", audience.key, lang)
    if key not in timeline.memo:
        timeline.memo[key] = await asyncio.to_thread(log_entries, timeline, audience, lang)
    entries: list[Any] = timeline.memo[key]
    return entries


async def _info(timeline: Timeline, index: int, audience: Audience, lang: str) -> dict[str, Any]:
    key = ("step", timeline.key(index), audience.key, lang)
    if key not in timeline.memo:
        timeline.memo[key] = await asyncio.to_thread(step_info, timeline, index, audience, lang)
    info: dict[str, Any] = timeline.memo[key]
    return info


def _audience_line(timeline: Timeline, audience: Audience, lang: str) -> str:
    if audience.reveal:
        return t("web.audience_replay", lang)
    if audience.seat is None:
        return t("web.audience_public", lang)
    name = next((s.name for s in timeline.seats if s.seat == audience.seat), str(audience.seat + 1))
    return t("web.audience_seat", lang, name=name)


def _json(data: Any) -> web.Response:
    return web.Response(text=json.dumps(data, ensure_ascii=False), content_type="application/json",
                        headers={"Cache-Control": "no-store"})


async def _page(request: web.Request) -> web.Response:
    service, _link, timeline, audience = await _opened(request)
    lang = lang_of(request, service.config.default_lang)
    title = t("web.title", lang, game=timeline.game.system, id=timeline.game.id)
    if timeline.count == 0:
        body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" '
                f'content="width=device-width, initial-scale=1"><title>{esc(title)}</title>'
                f'<link rel="stylesheet" href="/static/web.css"></head><body><h1>{esc(title)}</h1>'
                f'<p>{esc(t("web.not_started", lang))}</p></body></html>')
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})
    last = timeline.count - 1
    info = await _info(timeline, last, audience, lang)
    html = page(token=request.match_info["token"], lang=lang, system=timeline.game.system, game_id=timeline.game.id,
                audience_line=_audience_line(timeline, audience, lang), info=info, players=players(timeline),
                entries=await _log(timeline, audience, lang), turn_starts=timeline.turn_starts)
    return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})


async def _timeline(request: web.Request) -> web.Response:
    service, _link, timeline, audience = await _opened(request)
    lang = lang_of(request, service.config.default_lang)
    entries = await _log(timeline, audience, lang)
    return _json({"count": timeline.count, "turns": timeline.turn_starts, "version": timeline.game.version,
                  "finished": timeline.finished(), "log": [e.as_json() for e in entries]})


async def _step(request: web.Request) -> web.Response:
    service, _link, timeline, audience = await _opened(request)
    index = _index(request, timeline)
    return _json(await _info(timeline, index, audience, lang_of(request, service.config.default_lang)))


async def _image(request: web.Request) -> web.Response:
    service, _link, timeline, audience = await _opened(request)
    index = _index(request, timeline)
    data = await service.pictures.picture(timeline, index, audience, lang_of(request, service.config.default_lang))
    if not data:
        raise web.HTTPNotFound()
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "private, no-cache"})


async def _live(request: web.Request) -> web.StreamResponse:
    """Server-sent events: ``position`` with the game's new version whenever it moves; a comment every
    ``HEARTBEAT_SECONDS`` keeps proxies from closing the stream. A revoked link's stream ends."""
    service, link, timeline, _audience = await _opened(request)
    client = client_of(request, service.config.trust_forwarded)
    if service.streams.get(client, 0) >= service.config.streams_per_ip \
            or service.broker.open_streams >= service.config.max_streams:
        return web.Response(status=429, text="429: Too Many Requests", headers={"Retry-After": "30"})
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
    await response.prepare(request)
    game = timeline.game
    queue = service.broker.subscribe(game.id, game.channel_id, game.version)
    service.streams[client] = service.streams.get(client, 0) + 1
    try:
        await response.write(b"retry: 3000\n\n")
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                version = None
            if (await service.policy(game.id)).generation != link.generation:
                break  # revoked while open
            if version is not None:
                await response.write(f"event: position\ndata: {json.dumps({'version': version})}\n\n".encode())
    except ConnectionResetError:  # the page went away; a cancelled handler goes on cancelling
        pass
    finally:
        service.broker.unsubscribe(game.id, game.channel_id, queue)
        left = service.streams.get(client, 1) - 1
        if left > 0:
            service.streams[client] = left
        else:
            service.streams.pop(client, None)
    return response
