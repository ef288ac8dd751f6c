"""DiceService through a real database, and the commands through the console (en, it)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.client import TavoloBot
from common.i18n import LOCALES_DIR, _flatten, placeholders
from console.runner import Console
from db.rolls import recent_rolls
from engines.core.errors import RuleError, TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.dice.service import DiceService
from gm.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
ALICE = Actor(user_id=1, name="alice")
BOB = Actor(user_id=2, name="bob")
ALICE_IT = Actor(user_id=1, name="alice", locale="it")
HERE = Place(channel_id=100, guild_id=1)
ELSEWHERE = Place(channel_id=200, guild_id=1)


@pytest.fixture
async def dice_app(settings: Settings) -> AsyncIterator[App]:
    application = await App.open(settings, seed=11)
    yield application
    await application.close()


@pytest.fixture
def service(dice_app: App) -> DiceService:
    return dice_app.services["dice"]


async def test_roll_is_recorded_with_total_and_label(service: DiceService, dice_app: App) -> None:
    reply = await service.roll(HERE, ALICE, "4d6kh3", label="strength")
    assert "**alice**" in reply.text and "strength" in reply.text and not reply.ephemeral
    [row] = await recent_rolls(dice_app.store, HERE.channel_id)
    assert (row.system, row.expression, row.label, row.user_id) == ("notation", "4d6kh3", "strength", 1)
    assert f"**Total: {row.total}**" in reply.text


async def test_private_roll_is_ephemeral_recorded_and_hidden_from_others(service: DiceService) -> None:
    reply = await service.roll(HERE, ALICE, "1d20+3", private=True)
    assert reply.ephemeral and "🔒" in reply.text
    theirs = await service.history(HERE, BOB)
    assert "secret roll" in theirs.text and "1d20+3" not in theirs.text
    mine = await service.history(HERE, ALICE)
    assert "1d20+3" in mine.text


async def test_errors_record_nothing(service: DiceService, dice_app: App) -> None:
    with pytest.raises(TavoloError):
        await service.roll(HERE, ALICE, "1d1e1")
    assert await recent_rolls(dice_app.store, HERE.channel_id) == []


async def test_history_is_per_channel_newest_first_and_filters_by_user(service: DiceService) -> None:
    await service.roll(HERE, ALICE, "1d4")
    await service.roll(HERE, BOB, "1d6")
    await service.roll(ELSEWHERE, BOB, "1d8")
    text = (await service.history(HERE, ALICE)).text
    assert text.index("1d6") < text.index("1d4") and "1d8" not in text
    only_alice = (await service.history(HERE, ALICE, user_id=1, user_name="alice")).text
    assert "1d4" in only_alice and "1d6" not in only_alice
    assert "No rolls" in (await service.history(Place(channel_id=999), ALICE)).text
    assert (await service.history(HERE, ALICE, count=1)).text.count("\n") == 1


async def test_history_words_system_rolls_in_the_readers_language(service: DiceService) -> None:
    await service.krosmaster(HERE, ALICE_IT, 3, "armor")
    await service.wowminis(HERE, ALICE_IT, 5, rerolls=1)
    english = (await service.history(HERE, BOB)).text
    assert "Successes" in english and "Successi" not in english
    italian = (await service.history(HERE, ALICE_IT)).text
    assert "Successi" in italian


async def test_system_rolls_store_their_raw_dice(service: DiceService, dice_app: App) -> None:
    await service.wowminis(HERE, ALICE, 6, rerolls=2)
    [row] = await recent_rolls(dice_app.store, HERE.channel_id)
    data = json.loads(row.result)
    assert len(data["first"]) == len(data["final"]) == 6 and row.total is not None


async def test_each_system_replies_with_its_rule(service: DiceService) -> None:
    replies = [
        await service.wowminis(HERE, ALICE, 10, rerolls=2),
        await service.warlord(HERE, ALICE, bonus=3, dc=15),
        await service.warlord(HERE, ALICE),
        await service.krosmaster(HERE, ALICE, 3, "lock"),
        await service.tension(HERE, ALICE),
        await service.wowboard(HERE, ALICE, threat=5, blue=3, red=2, green=1, reroll=1, attrition=1),
        await service.mageknight(HERE, ALICE, 5),
    ]
    for reply, cite in zip(replies, ("105", "Dice rolls", "Dice rolls", "310.2b", "402.1",
                                     "The attack phase", "Source"), strict=True):
        assert cite in reply.text, reply.text
        assert len(reply.text) <= 2000
    assert replies[3].image is not None and replies[3].image.data.startswith(b"\x89PNG")
    assert replies[5].image is not None


async def test_wowboard_limit_cites_the_rule(service: DiceService) -> None:
    with pytest.raises(RuleError) as err:
        await service.wowboard(HERE, ALICE, threat=5, blue=8)
    assert err.value.rule == "I LIMITI DEI DADI"


async def test_pool_sizes_are_checked(service: DiceService) -> None:
    with pytest.raises(TavoloError):
        await service.wowminis(HERE, ALICE, 0)
    with pytest.raises(TavoloError):
        await service.krosmaster(HERE, ALICE, 3, "fishing")


async def test_huge_roll_fits_in_a_discord_message(service: DiceService) -> None:
    reply = await service.roll(HERE, ALICE, "500d10000")
    assert len(reply.text) <= 2000 and "Total:" in reply.text and "shortened" in reply.text


async def test_seeded_app_reproduces_a_session(settings: Settings, tmp_path: Path) -> None:
    async def session(path: Path) -> list[str]:
        app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=5)
        try:
            svc: DiceService = app.services["dice"]
            return [(await svc.roll(HERE, ALICE, "3d6")).text, (await svc.wowminis(HERE, ALICE, 4)).text]
        finally:
            await app.close()

    assert await session(tmp_path / "a.sqlite3") == await session(tmp_path / "b.sqlite3")


# ------------------------------------------------------------------ locale files


def _dice_keys(lang: str) -> dict[str, str]:
    flat = _flatten(json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8")))
    return {k: v for k, v in flat.items() if k.startswith(("dice.", "cmd.dice.", "cmd.roll."))}


def test_dice_locale_keys_match_in_both_languages() -> None:
    en, it = _dice_keys("en"), _dice_keys("it")
    assert set(en) == set(it) and len(en) > 100

    def names(text: str) -> set[str]:
        return placeholders(text)

    assert [k for k in en if names(en[k]) != names(it[k])] == []


# ------------------------------------------------------------------ console, in-process and real process


@pytest.fixture
async def console(dice_app: App, settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    bot = TavoloBot(settings, app=dice_app)
    await bot.load_tavolo()
    yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    await bot.http.close()


SCRIPT = """
/roll 4d6kh3
/roll 1d20+5 label:attack private:true
/dice wowminis dice:10 rerolls:2 reroll:failures
/dice warlord bonus:3 dc:15
/dice krosmaster dice:3 purpose:armor
/dice krosmaster-tension
/dice wowboard blue:3 red:2 green:1 threat:5 reroll:2 attrition:1
/dice mageknight source:5
/dice history count:20
"""


async def test_every_command_through_the_console_in_english(console: Console) -> None:
    await console.run(SCRIPT.splitlines())
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, out
    for expected in ("rolls `4d6kh3`", "(only alice) 🎲", "WoW Miniatures, 10 dice", "Warlord, d20+3 against 15",
                     "Krosmaster, 3 dice, armor roll", "tension roll", "Damage box", "Mage Knight, Source",
                     "Latest rolls in this channel"):
        assert expected in out, expected
    assert len(list(console.out_dir.glob("*.png"))) == 3


async def test_every_command_through_the_console_in_italian(console: Console) -> None:
    await console.run(["/lang it", *SCRIPT.splitlines()])
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, out
    for expected in ("tira `4d6kh3`", "Totale", "WoW Miniatures, 10 dadi", "Warlord, d20+3 contro 15",
                     "tiro di Armatura", "lancio di tensione", "Scatola danni", "Fonte di 5 dadi",
                     "Ultimi tiri in questo canale"):
        assert expected in out, expected


async def test_console_errors_are_localized(console: Console) -> None:
    await console.run(["/roll 1d1e1", "/lang it", "/roll 9999999d6"])
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 2
    assert "would reroll or explode forever" in out and "il massimo è 500" in out


def test_console_subprocess_with_seed_is_reproducible(tmp_path: Path) -> None:
    def run() -> str:
        done = subprocess.run([sys.executable, "bot.py", "--console", "--seed", "1", "--strict",
                               "--out", str(tmp_path / "out")],
                              input="/roll 4d6kh3\n/dice wowminis dice:5\n", capture_output=True, text=True,
                              cwd=ROOT, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = run()
    assert "Total:" in first and first == run()
