"""TABLE_UX "the channel is a shared space", checked: each game's full script, played in the console
(seed 1), posts at most about two new public pictures per player turn; everything else edits the
board already posted.

A new public picture is a top-level ``[image]`` line of the console (an edit prints "(board above
updated)" and its picture under it; a private reply prints "(only …)" and its picture under it).
What a player turn is belongs to each game's rules, so each presenter answers it with its
``player_turns(view)`` hook (see ``docs/ARCHITECTURE.md``): the player turns under way in a position;
a game's are all the distinct ones seen after the lines of its script. The numbers are printed, kept
as the test's ``image_budget`` property (in a JUnit XML report) and written into the failure message,
so a CI log shows how close each game is to its budget.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cogs.client import TavoloBot
from common.i18n import t
from console.runner import Console
from gm import presenters
from gm.app import App
from gm.context import Place
from gm.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
# TABLE_UX: "about two new pictures per player turn at most". Not loosened to let a game through: a game
# over it changes its presenter's ``image_policy`` (which events deserve a new picture).
MAX_RATE = 2.0
SCRIPTS = {
    "krosmaster": ROOT / "tests" / "krosmaster" / "full_game.txt",
    "mageknight": ROOT / "tests" / "mageknight" / "challenge.txt",
    "warlord": ROOT / "tests" / "warlord" / "full_game.txt",
    "wowminis": ROOT / "tests" / "wowminis" / "full_game.txt",
    "wowboard": ROOT / "tests" / "wowboard" / "full_game.txt",
}
EDITED = tuple(t("console.board_updated", lang) for lang in ("en", "it"))


@dataclass(frozen=True)
class Tally:
    """What one game posted to the channel, against its player turns."""

    system: str
    new: int
    edits: int
    turns: int

    @property
    def rate(self) -> float:
        return self.new / max(self.turns, 1)

    def line(self) -> str:
        return (f"image budget {self.system}: {self.new} new pictures, {self.edits} edits, "
                f"{self.turns} player turns, {self.rate:.2f} new per turn (at most {MAX_RATE:.1f})")


def pictures(output: str) -> tuple[int, int]:
    """New public pictures and edits of the board, as the console printed them."""
    lines = output.splitlines()
    return sum(line.startswith("[image] ") for line in lines), sum(line.startswith(EDITED) for line in lines)


async def _player_turns(console: Console, system: str) -> frozenset[Hashable]:
    """The player turns under way in the channel's game (its public view), as its presenter names them."""
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    tables = console.bot.app.tables
    table = await tables.table_for(place) or await tables.finished_game(place)
    presenter: Any = presenters.get(system)
    if table is None or table.state is None or table.game.system != system or presenter is None:
        return frozenset()
    under_way: frozenset[Hashable] = presenter.player_turns(table.engine.view(table.state, None))
    return under_way


async def play_and_count(console: Console, system: str, options: str = "") -> Tally:
    """Play the game's script line by line (``options`` added to its ``/game new``), noting the player
    turns after each line."""
    turns: set[Hashable] = set()
    for line in SCRIPTS[system].read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        if options and line.startswith("/game new"):
            line = f'{line} options:"{options}"'
        await console.execute(line)
        turns |= await _player_turns(console, system)
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    new, edits = pictures(output)
    return Tally(system, new, edits, len(turns))


def check_budget(tally: Tally) -> None:
    """The rule itself: about two new public pictures per player turn at most."""
    assert tally.turns > 0, f"{tally.system}: no player turn was seen; is player_turns wired?"
    assert tally.rate <= MAX_RATE, tally.line() + ": too many new pictures; let small changes edit the board"


@pytest.mark.parametrize("system", sorted(SCRIPTS))
async def test_a_full_game_posts_about_two_new_pictures_per_player_turn(
        console: Console, system: str, record_property: Any) -> None:
    tally = await play_and_count(console, system)
    print(tally.line())
    record_property("image_budget", tally.line())
    check_budget(tally)


async def test_the_check_fails_when_every_change_posts_a_new_picture(
        console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    presenter = presenters.get("mageknight")
    monkeypatch.setattr(presenter, "image_policy", lambda events: "new")
    tally = await play_and_count(console, "mageknight")
    assert tally.edits == 0
    with pytest.raises(AssertionError, match="too many new pictures"):
        check_budget(tally)


@asynccontextmanager
async def seeded_console(settings: Settings, out_dir: Path) -> AsyncIterator[Console]:
    """A console like the ``console`` fixture's, with its own App: its dice start again from seed 1, so the
    same script plays the same game once more."""
    app = await App.open(settings, seed=1)
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    try:
        yield Console(bot, out_dir=out_dir, output=io.StringIO())
    finally:
        await app.close()
        await bot.http.close()


async def test_wowboard_images_option_keeps_its_meaning(settings: Settings, tmp_path: Path,
                                                        record_property: Any) -> None:
    """``images:turn_end``: only the whole map, when a faction turn starts (new) and when its actions end
    (an edit, or new with a fight's result), no crop of each action; the default ``every`` also shows each
    action (edits) and each fight's result (new). ``images:off``: words only (``/game status`` aside)."""
    tallies = {}
    for option in ("every", "turn_end", "off"):  # each game in a channel of its own
        async with seeded_console(settings, tmp_path / option) as console:
            await console.execute(f"/channel {option}")
            tallies[option] = await play_and_count(console, "wowboard", f"images:{option}")
        print(f"images:{option} → {tallies[option].line()}")
        record_property(f"image_budget_wowboard_{option}", tallies[option].line())
    every, fewer, off = tallies["every"], tallies["turn_end"], tallies["off"]
    assert fewer.turns == every.turns == off.turns
    assert fewer.new + fewer.edits <= 2 * fewer.turns + 2  # a faction turn's start and end, and the game's
    assert fewer.new < every.new and fewer.edits < every.edits // 4  # no crop of each action
    assert (off.new, off.edits) == (0, 0)


def test_pictures_counts_new_public_boards_and_edits_not_private_ones() -> None:
    output = "\n".join([
        "alice moves.", "[image] out/0001-board.png",  # a new board
        "(board above updated) bob attacks.", "                      [image] out/0002-board.png",
        "(only alice) your hand", "             [image] out/0003-hand.png",  # private
        "(tabellone sopra aggiornato) alice passa.",
    ])
    assert pictures(output) == (1, 2)
