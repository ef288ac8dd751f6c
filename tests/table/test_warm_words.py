"""What wording a move needs is loaded before READY (issue 28: a table's first act after a start).

WoW Board's first move after a start read its built-in packs on the event loop to name things in the
move's lines, ~12 ms of that act (``bench/acts.py --parts``, "before"). ``presenters.warm_words_all``
runs each presenter's ``warm_words`` in the bot's start-up instead (``TavoloBot.setup_hook``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

import gm.games.wowboard.presenter  # noqa: F401  (registers WoW Board's presenter)
from engines.wowboard import content
from gm import presenters
from gm.games.wowboard import text


@pytest.fixture
def cold_names() -> Iterator[None]:
    content.builtin_full.cache_clear()
    text._names.cache_clear()
    text._renames.cache_clear()
    yield
    content.builtin_full.cache_clear()
    text._names.cache_clear()
    text._renames.cache_clear()


def test_warm_words_reads_wowboard_packs_and_names_in_both_languages(cold_names: None) -> None:
    assert "wowboard" in presenters.warm_words_all()
    assert content.builtin_full.cache_info().currsize == 1
    cached = text._names.cache_info()
    assert cached.currsize == 4  # two built-in packs × en, it
    hits = cached.hits  # the first move's wording now meets the caches
    text.names_of(content.BUILTIN_FULL_KEY, "it")
    assert text._names.cache_info().hits == hits + 1
    assert text._names.cache_info().misses == cached.misses


def test_a_failing_word_warm_up_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        system = "broken-warm-words"

        def warm_words(self) -> None:
            raise RuntimeError("no pack")

    presenters.register(Broken())  # type: ignore[arg-type]
    try:
        with caplog.at_level(logging.ERROR):
            warmed = presenters.warm_words_all()
    finally:
        presenters.unregister(Broken.system)
    assert Broken.system not in warmed and "wowboard" in warmed
    assert "word warm-up of broken-warm-words failed" in caplog.text


def test_warm_words_parses_the_built_in_warlord_decks_definitions_once_before_any_table() -> None:
    """A Warlord table's first act after a start parsed its state's card definitions (~0.6 ms, kept per deck
    choice, ``state_versions.SharedPart``); ``warm_words`` parses both orders of the built-in decks, so a new
    table of the default decks, by other players, finds them."""
    import gm.games.warlord.presenter  # noqa: F401  (registers Warlord's presenter)
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.warlord import ENGINE
    from engines.warlord.upgrades import SCHEMA

    shared = SCHEMA.shared
    assert shared is not None
    shared.kept.clear()
    assert "warlord" in presenters.warm_words_all()
    assert len(shared.kept) == 2
    adapter = shared.adapter
    for decks in ({}, {0: "ashen_horde", 1: "stonewardens"}):
        setup = Setup(seats=[SeatSetup(seat=seat, user_id=40 + seat, name=name,
                                       config={"deck": decks[seat]} if decks else {})
                             for seat, name in enumerate(("alice", "bob"))], options={})
        state = ENGINE.new_game(setup, SeededDice(7))
        shared.adapter = None  # type: ignore[assignment]  (a definitions text not kept would need it: an error)
        try:
            loaded = SCHEMA.load(state.model_dump_json())
        finally:
            shared.adapter = adapter
        assert loaded.cards_def == state.cards_def
    assert len(shared.kept) == 2
