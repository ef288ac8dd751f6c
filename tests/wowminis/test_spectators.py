"""Issue 29, beyond the rulebook: a spectator of a 3-4 player game (spec 7.3).

erin, who never sat down, comes to the four-player free-for-all of ``ffa4_game.txt`` half way through and
asks what anyone may ask: ``/game status`` (the board picture), ``/game log``, ``/wowm clock``; and
``/wowm cards``, which only a seat has. She must see the board and the log, and nothing hidden: no
face-down card of any of the four parties by name (in either language), no pool, no secret bar answers.

Two checks, so that both the words and the picture are covered: the text she receives holds none of the
hidden names (and the test first proves there are hidden names at that point, else it would prove nothing);
the view every picture she is sent is drawn from is the public one (``view(state, None)``), where every
face-down card has lost its identity.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from console.runner import Console
from db import games as repo
from engines.wowminis import ENGINE
from engines.wowminis.state import State
from gm.games.wowminis.presenter import WowMinisPresenter

SCRIPT = Path(__file__).resolve().parent / "ffa4_game.txt"
SPECTATOR = ["/as erin", "/game status", "/game log count:50", "/wowm clock", "/wowm cards", "/game status"]


def _first_half() -> list[str]:
    lines = [x for x in SCRIPT.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    return lines[:len(lines) // 2]


def hidden_names(state: State) -> set[str]:
    """The names (English and Italian) of every face-down card in a bar that no face-up card shares:
    what nobody but its seat may know."""
    down, up = set(), set()
    for c in state.chars.values():
        for k in c.bar:
            if k.defn is None:
                continue
            names = {k.defn.name, k.defn.name_it} - {""}
            (up if k.face_up else down).update(names)
    return down - up


def _capture(monkeypatch: pytest.MonkeyPatch) -> list[tuple[State, int | None]]:
    drawn: list[tuple[State, int | None]] = []
    original = WowMinisPresenter.render

    def render(self: WowMinisPresenter, view: State, **kwargs: Any) -> bytes | None:
        drawn.append((view, kwargs.get("viewer")))
        return original(self, view, **kwargs)

    monkeypatch.setattr(WowMinisPresenter, "render", render)
    return drawn


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_spectator_of_a_four_player_game_sees_the_board_and_the_log_and_nothing_hidden(
        console: Console, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    await console.run(_first_half())
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]
    game = await repo.last_game(console.bot.app.store.conn, console.channel.id)  # type: ignore[attr-defined]
    assert game is not None and game.state is not None
    state = ENGINE.load_state(game.state)
    assert isinstance(state, State) and len(state.players) == 4 and state.phase == "play"
    secret = hidden_names(state)
    assert len(secret) >= 6, secret  # four parties still hold face-down cards: the check below can fail

    drawn = _capture(monkeypatch)
    start = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(["/lang it"] * (lang == "it") + SPECTATOR)
    seen = console.output.getvalue()[start:]  # type: ignore[attr-defined]
    assert console.errors == 1, seen  # /wowm cards: a spectator has no hand
    refusal = ("Stai guardando questa partita" if lang == "it" else "You are watching this game")
    assert refusal in seen
    assert seen.count("[image]") >= 2  # the board, twice
    # the status line: clock and VP ("Master Clock tick 1", "Master Clock allo scatto 1"; an older log line with
    # "Tick 1" may be left out of /game log count:50 to fit Discord's limit, which keeps the newest)
    assert ("VP" in seen) and ("Master Clock tick" in seen or "scatto" in seen)
    moves = "muove" if lang == "it" else "moves"
    assert moves in seen  # the log: who moved where
    leaked = sorted(name for name in secret if name in seen)
    assert leaked == [], leaked

    assert drawn, "no picture was drawn for the spectator"
    for view, viewer in drawn:
        assert viewer is None  # drawn for nobody's seat
        assert view.pool == {} and view.bar_choices == {}
        down = [k for c in view.chars.values() for k in c.bar if not k.face_up and k.zone == "bar"]
        assert down and all(k.defn is None for k in down)  # face-down cards are backs only
        assert view.model_dump_json() == ENGINE.view(state, None).model_dump_json()
