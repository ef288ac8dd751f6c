"""Control characters at the edge (issue 28.3): what the cleaner drops and keeps, and the console
path (its lines go through the same check as Discord's interactions) on SQLite and PostgreSQL."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from cogs.client import TavoloBot
from cogs.edge import clean_interaction, clean_options, clean_text
from console.runner import Console
from gm.app import App
from gm.settings import Settings


def test_controls_and_lone_surrogates_go_tab_newline_and_the_rest_of_unicode_stay() -> None:
    assert clean_text("a\x00b\x07c\x1b[31md\x7fe\x85f\ud800g") == "abc[31mdefg"
    kept = "tab\there\nnew line · é 🎲 \u200b\u202e\ufeff\U0010ffff"
    assert clean_text(kept) == kept


def test_discord_options_are_cleaned_at_every_depth_and_only_strings() -> None:
    options = [{"type": 2, "name": "group", "options": [
        {"type": 1, "name": "sub", "options": [
            {"type": 3, "name": "label", "value": "a\x00b", "focused": True},
            {"type": 4, "name": "count", "value": 3},
        ]}]}]
    clean_options(options)
    leaf = options[0]["options"][0]["options"]
    assert leaf[0]["value"] == "ab" and leaf[1]["value"] == 3


def test_the_consoles_namespace_is_cleaned() -> None:
    fake = SimpleNamespace(namespace=SimpleNamespace(label="x\x00y", private=True, count=None))
    clean_interaction(fake)
    assert vars(fake.namespace) == {"label": "xy", "private": True, "count": None}


@pytest.fixture
async def console(any_settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    app = await App.open(any_settings, seed=1)
    bot = TavoloBot(any_settings, app=app)
    try:
        await bot.load_tavolo()
        yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    finally:
        await app.close()
        await bot.http.close()


async def test_the_issues_two_lines_in_the_console(console: Console) -> None:
    for line in ("/rules show section:a\x00b", "/roll expression:1d6 label:a\x00b", "/roll 1d6 label:x\ud800y",
                 "/complete /rules show section:3\x001"):
        before = console.output.tell()
        await console.execute(line)
        console.output.seek(before)
        said = console.output.read()
        assert "something went wrong" not in said, (line, said)
    text = console.output.getvalue()
    assert "“ab”" in text and "· ab" in text and "· xy" in text and "310" in text
