"""How a play or a unit is paid, as typed: "die", "dado 2", "cristallo rosso", "gold"; and payments
that are really one (two Source dice of the same colour), so the player is not asked which."""

from __future__ import annotations

from typing import Any

from common.i18n import SUPPORTED, t
from engines.mageknight.state import State
from gm.games.names import Name, fold

LANGS = SUPPORTED
_MANA_WORDS = {"die": ("die", "dice", "dado", "dadi", "source", "fonte"), "crystal": ("crystal", "cristallo"),
               "token": ("token", "gettone")}


def mana_matches(spec: str | None, text: str | None, state: State) -> bool:
    """Whether a payment fits what was typed: "die", "dado 2", "crystal", "cristallo rosso", "gold"…"""
    if not text or not text.strip():
        return True
    if not spec:
        return False
    words = fold(text).replace(":", " ").split()
    source, _, detail = spec.partition(":")
    face = state.source[int(detail)].face if source == "die" else detail
    for word in words:
        kind = next((k for k, names in _MANA_WORDS.items() if word in names), None)
        if kind is not None and kind != source:
            return False
        if word.isdecimal() and source == "die" and int(word) not in (int(detail), int(detail) + 1):
            return False
        colour = next((c for c in ("red", "blue", "green", "white", "gold", "black")
                       if word in {c, *(fold(t(f"mk.face.{c}", lang)) for lang in LANGS)}), None)
        if colour is not None and colour != face:
            return False
    return True


def same_payment(state: State, found: list[Name], plays: list[dict[str, Any]]) -> list[Name]:
    """Plays (``found``, parsed as ``plays``) that differ only in which of two alike Source dice pays are
    one play: asking "which red die?" would be a question with one real answer (issue 26)."""

    def paid(play: dict[str, Any]) -> tuple[Any, ...]:
        source, _, detail = str(play.get("mana", "")).partition(":")
        face = state.source[int(detail)].face if source == "die" and detail.isdecimal() else detail
        return play.get("card"), play.get("side"), play.get("option"), source, face, tuple(play.get("colours", ()))

    return found[:1] if len(found) > 1 and all(paid(p) == paid(plays[0]) for p in plays) else found
