"""How a play or a unit is paid, as typed: "die", "dado 2", "cristallo rosso", "gold"; and payments
that are really one (two Source dice of the same colour), so the player is not asked which."""

from __future__ import annotations

from typing import Any

from common.i18n import SUPPORTED, t
from engines.core.errors import TavoloError
from engines.mageknight.state import State
from gm.games.names import Name, fold

LANGS = SUPPORTED
NOTE = "note"  # a built action's words for the reply (the mana the bot chose), never sent to the engine
_MANA_WORD = {"token": "mk.ui.mana_word.token", "die": "mk.ui.mana_word.die", "crystal": "mk.ui.mana_word.crystal"}
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


# Which mana pays when the player did not say (M46): a mana token first (unused tokens are lost at the
# end of the turn), then the Source die (one per turn, rerolled for the next), and a crystal last (it keeps
# from turn to turn). The reply says which paid and how to pay the other way.
PAYMENT_ORDER = ("token", "die", "crystal")


def preferred_payment(found: list[Name], plays: list[dict[str, Any]]) -> tuple[list[Name], str | None]:
    """One play when ``found`` differ only in what pays (a red die or a red crystal for Fire Lance): the one
    ``PAYMENT_ORDER`` puts first, and the source of the next best ("crystal"), for the reply to offer."""
    if len(found) < 2:
        return found, None

    def play_of(play: dict[str, Any]) -> tuple[Any, ...]:
        return play.get("card") or play.get("unit"), play.get("side"), play.get("ability"), play.get("option"), \
            tuple(play.get("colours", ()))

    if any(play_of(p) != play_of(plays[0]) or not p.get("mana") for p in plays):
        return found, None
    ranked = sorted(zip(found, plays, strict=True), key=lambda pair: _payment_rank(pair[1]))
    best = _source(ranked[0][1])
    other = next((_source(p) for _n, p in ranked[1:] if _source(p) != best), None)
    return [ranked[0][0]], other


def _source(play: dict[str, Any]) -> str:
    return str(play.get("mana", "")).partition(":")[0]


def _payment_rank(play: dict[str, Any]) -> int:
    source = _source(play)
    return PAYMENT_ORDER.index(source) if source in PAYMENT_ORDER else len(PAYMENT_ORDER)


def mana_text(state: State, spec: str | None, lang: str) -> str:
    """"white die", "gold die", "red crystal", "blue token"."""
    if not spec:
        return ""
    source, _, detail = spec.partition(":")
    if source == "die":
        face = state.source[int(detail)].face
        return t("mk.ui.mana.die", lang, face=t(f"mk.face.{face}", lang))
    return t(f"mk.ui.mana.{source}", lang, face=t(f"mk.face.{detail}", lang))


def with_note(state: State, action: dict[str, Any], other: str | None, lang: str) -> dict[str, Any]:
    """A play whose payment the bot chose (``payment.preferred_payment``) says so in the reply: which mana
    paid, and how to pay the other way (``NOTE``, taken off the action by the presenter)."""
    spec = str(action.get("mana") or "")
    if other is None or not spec:
        return action
    face = state.source[int(spec[4:])].face if spec.startswith("die:") else spec.partition(":")[2]
    word = t(_MANA_WORD[other], lang)
    note = t("mk.ui.paid_default", lang, used=mana_text(state, spec, lang),
             other=t(f"mk.ui.mana.{other}", lang, face=t(f"mk.face.{face}", lang)), word=word)
    return {**action, NOTE: note}


def no_such_mana(typed: str, payable: list[Name]) -> None:
    """Issue 27: ``mana:crystal`` with no crystal (or any payment that matches none of the legal ones)
    is refused as such, with the ways the card can be paid, before the engine would word it as a
    refusal of the basic side."""
    if payable:
        raise TavoloError("mk.ui.no_such_mana", mana=typed.strip()[:40], plays="; ".join(n.label for n in payable[:6]))
