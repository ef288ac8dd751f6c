"""/rules through the console, which drives the real cog callbacks (no Discord)."""

from __future__ import annotations

import io
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.client import TavoloBot
from console.runner import Console
from gm.app import App
from gm.settings import Settings
from tests.rules.conftest import FIXTURES


@pytest.fixture
def rules_settings(tmp_path: Path) -> Settings:
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(FIXTURES / "headings_caps.txt", folder / "wowboard.it.casate.txt")
    return Settings(DATABASE_PATH=tmp_path / "tavolo.sqlite3", RULES_DIR=folder, _env_file=None)


@pytest.fixture
async def console(rules_settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    app = await App.open(rules_settings)
    bot = TavoloBot(rules_settings, app=app)
    await bot.load_tavolo()
    yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    await bot.http.close()
    await app.close()


def _output(console: Console) -> str:
    assert isinstance(console.output, io.StringIO)
    return console.output.getvalue()


async def test_search_show_import_remove(console: Console) -> None:
    wrapped = FIXTURES / "numbered_wrapped.txt"
    script = f"""
/rules search query:palude system:wowboard
/click 1
/rules-admin import system:krosmaster file:{wrapped} language:it
/rules search query:"torri di vetro" system:krosmaster
/rules show section:101.2 system:krosmaster
/click Show 201.3
/complete /rules show section:202
/rules sources
/rules-admin remove name:numbered_wrapped
/rules show section:999.9 system:krosmaster
"""
    await console.run(script.splitlines())
    out = _output(console)
    assert "il-viaggio — IL VIAGGIO" in out  # RULES_DIR file imported at start-up
    assert "**palude**" in out
    assert "Imported **numbered_wrapped** for krosmaster (it): 18 sections (numbered)." in out
    assert "102.1 — Vincere" in out
    assert "== 201.3 — Passi ==" in out
    assert "202.1a" in out
    assert "Removed **numbered_wrapped** (krosmaster)." in out
    assert "There is no rules section “999.9”." in out
    assert console.errors == 1, out  # only the missing section


async def test_page_buttons_edit_in_place(console: Console, tmp_path: Path) -> None:
    long = tmp_path / "lunga.txt"
    long.write_text("300. Lunga\n" + "\n".join(f"300.{i}. Regola {i} " + "parola " * 80 for i in range(1, 8)))
    await console.run([f"/rules-admin import system:krosmaster file:{long} language:it",
                       "/rules show section:300 system:krosmaster", "/click Next ▶"])
    out = _output(console)
    assert "page 1/3" in out and "page 2/3" in out
    assert console.errors == 0, out
