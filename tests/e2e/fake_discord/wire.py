"""The HTTP wire format, both ways: a request body as discord.py sends it (JSON, or
multipart ``payload_json`` + ``files[n]``) and a JSON answer as discord.py expects it.

Shared by the route dispatcher and the fault injector, which answer in the same shape.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.messages import FakeFile
from tests.e2e.fake_discord.records import Recorded


def json_response(rec: Recorded, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """Answer ``body`` with ``status`` and note both on ``rec``; ``None`` or 204 is an empty answer."""
    rec.status, rec.response = status, body
    if status == 204 or body is None:
        return web.Response(status=204, headers=headers)
    # Exactly "application/json": discord.py parses JSON only on that exact content type.
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


async def read_body(request: web.Request) -> tuple[Any, list[FakeFile]]:
    """JSON body, or multipart ``payload_json`` + ``files[n]`` as discord.py sends them."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: list[FakeFile] = []
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""  # type: ignore[union-attr]
            raw = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(raw)
            else:
                files.append(
                    FakeFile(
                        name,
                        part.filename or name,  # type: ignore[union-attr]
                        part.headers.get("Content-Type", ""),
                        bytes(raw),
                    )
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []
