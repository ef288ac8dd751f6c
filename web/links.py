"""Signed links: who may see what of which game, until when (docs/WEB.md, "Links").

A token is ``base64url(payload ‖ tag)``: the payload packs the game id, the seat (−1 for a public link),
the expiry (Unix seconds) and the game's revocation generation; the tag is the first 16 bytes of
HMAC-SHA256 over a purpose label and the payload. Stdlib only: the format is small enough that a
library would add a dependency and no safety. Nothing about a token is secret but the key; what it
grants is checked again on every request (the generation against the database, the expiry against
the clock), so a revoked or expired link answers the same plain 404 as a forged one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
from dataclasses import dataclass

PURPOSE = b"tavolo-web-link-v1"
_PAYLOAD = struct.Struct(">QiQI")  # game id, seat (-1: public), expiry, generation
TAG_BYTES = 16
MAX_TOKEN_CHARS = 80  # anything longer is not ours: refused before any decoding


@dataclass(frozen=True)
class Link:
    game_id: int
    seat: int | None  # None: the public link (what ``view(state, None)`` shows)
    expires: int  # Unix seconds
    generation: int


def sign(key: bytes, link: Link) -> str:
    payload = _PAYLOAD.pack(link.game_id, -1 if link.seat is None else link.seat, link.expires, link.generation)
    tag = hmac.new(key, PURPOSE + payload, hashlib.sha256).digest()[:TAG_BYTES]
    return base64.urlsafe_b64encode(payload + tag).rstrip(b"=").decode("ascii")


def read(key: bytes, token: str, now: float) -> Link | None:
    """The link a token grants, or None: forged, damaged, or expired (the caller checks the generation)."""
    if not token or len(token) > MAX_TOKEN_CHARS or not token.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if len(raw) != _PAYLOAD.size + TAG_BYTES:
        return None
    payload, tag = raw[:_PAYLOAD.size], raw[_PAYLOAD.size:]
    if not hmac.compare_digest(tag, hmac.new(key, PURPOSE + payload, hashlib.sha256).digest()[:TAG_BYTES]):
        return None
    game_id, seat, expires, generation = _PAYLOAD.unpack(payload)
    if expires <= now or seat < -1:
        return None
    return Link(game_id, None if seat == -1 else seat, expires, generation)
