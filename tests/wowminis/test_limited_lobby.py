"""Issue 29.5 (100.3) in the lobby: a sealed or draft table builds its parties from the pools after the start,
so a typed ``/wowm party`` is refused with a message that says how parties are made in that format, and
the seat keeps no party (before, it was stored silently and then thrown away at the start)."""

from __future__ import annotations

import pytest

from common.i18n import t
from console.runner import Console
from db import games as repo

PARTY = '/wowm party characters:"Brannoc, Ysolde, Dannic"'  # a legal constructed party (100.2)
SAID = {  # a piece of each message, as the player reads it
    ("sealed", "en"): "opens a random pool in secret and builds a party from it with `/wowm build`",
    ("sealed", "it"): "apre in segreto una riserva casuale e ne costruisce un gruppo con `/wowm build`",
    ("draft", "en"): "pick in secret from boosters passed round the table (`/wowm pick`)",
    ("draft", "it"): "scelgono in segreto dalle buste passate intorno al tavolo (`/wowm pick`)",
}


async def _lobby(console: Console, fmt: str, lang: str) -> None:
    await console.run([*(["/lang it"] if lang == "it" else []), "/as alice",
                       f'/game new wowminis options:"format:{fmt} first:1"', "/as bob", "/game join", "/as alice"])


async def _seats_and_version(console: Console) -> tuple[list[dict[str, object]], int]:
    conn = console.bot.app.store.conn  # type: ignore[attr-defined]
    game = await repo.last_game(conn, console.channel.id)  # type: ignore[attr-defined]
    assert game is not None
    return [s.config for s in await repo.seats(conn, game.id)], game.version


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("fmt", ["sealed", "draft"])
async def test_100_3_a_typed_party_is_refused_in_a_limited_lobby(console: Console, fmt: str, lang: str) -> None:
    await _lobby(console, fmt, lang)
    assert console.errors == 0
    before = await _seats_and_version(console)
    start = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.execute(PARTY)
    said = console.output.getvalue()[start:]  # type: ignore[attr-defined]
    assert console.errors == 1, said  # an error, not a quiet success
    assert t(f"wowm.err.party_limited_{fmt}", lang) in said
    assert SAID[(fmt, lang)] in said and "100.3" in said
    assert "Brannoc" not in said  # no "party set" line
    assert await _seats_and_version(console) == before  # nothing stored, the lobby unchanged
    await console.execute("/game status")
    assert "Brannoc" not in console.output.getvalue()[start:]  # type: ignore[attr-defined]


async def test_100_2_a_constructed_lobby_still_takes_a_typed_party(console: Console) -> None:
    """The refusal is the limited formats' alone: ``format:constructed`` (the default) keeps ``/wowm party``."""
    await _lobby(console, "constructed", "en")
    await console.execute(PARTY)
    assert console.errors == 0
    seats, _version = await _seats_and_version(console)
    assert seats[0].get("party") == ["brannoc", "ysolde", "dannic"]



@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("fmt", ["sealed", "draft"])
async def test_100_3_the_lobby_card_says_a_limited_seat_builds_from_its_pool(console: Console, fmt: str,
                                                                             lang: str) -> None:
    """A seat of a sealed or draft table read "no party yet (default: a faction's legendary and two more)",
    a default it never gets."""
    await _lobby(console, fmt, lang)
    await console.run(["/game status"])
    card = console.output.getvalue().rsplit("==", 1)[1]  # type: ignore[attr-defined]
    assert t("wowm.ui.lobby_limited_seat", lang, format=fmt) in card, card
    assert t("wowm.ui.lobby_no_party", lang) not in card
