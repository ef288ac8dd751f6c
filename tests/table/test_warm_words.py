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
