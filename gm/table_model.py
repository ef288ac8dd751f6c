"""What a table is: a game row, its seats and (once started) its parsed state.

Shared by every part of the table layer (lobby, play, ending, manual dice), so it holds
only data and the small rules about seats and table options that all of them read.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from db import games as repo
from engines import registry
from engines.core.contract import Engine, GameState
from engines.core.errors import TavoloError
from engines.core.state_versions import StateUnreadable

MAX_OPTIONS_LENGTH = 1000
# Table options handled here, not by engines: a server content pack to play with, and
# ``dice:manual`` for groups that roll physical dice and type the faces in.
PACK_OPTION = "pack"
DICE_OPTION = "dice"
MANUAL_PENDING = "manual_pending"
END_VOTES = "end_votes"
RESULT = "result"
MAX_LOG_COUNT = 50


@dataclass
class Table:
    """A loaded game: its row, seats and (once started) the parsed engine state.

    ``problem`` is set when the stored state cannot be read by this version of the code:
    the game is quarantined (see ``TableCore.require_readable``) and only reading its log
    and ending it still work, so one bad save never blocks the channel or the bot.
    """

    game: repo.GameRow
    seats: list[repo.SeatRow]
    state: GameState | None = None
    content: dict[str, Any] | None = None  # the server's content pack named by the ``pack`` option
    problem: StateUnreadable | None = None

    @property
    def engine(self) -> Engine:
        engine = registry.get(self.game.system)
        if engine is None:
            raise TavoloError("game.unknown_system", system=self.game.system, known=", ".join(registry.systems()))
        return engine

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    @property
    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def host(self) -> int:
        """The player who runs the lobby (its creator, or whoever inherited it on leaving)."""
        return self.game.created_by


def game_ref(table: Table) -> str:
    """``<game id>.<version>``: names one exact position of one game, for component ids."""
    return f"{table.game.id}.{table.game.version}"


def max_players(engine: Any, options: dict[str, Any]) -> int:
    """Seats a table offers: engines may open more seats for some options (Krosmaster ``mode``)."""
    hook = getattr(engine, "max_players_for", None)
    return int(hook(options)) if hook is not None else int(engine.max_players)


def min_players(engine: Any, options: dict[str, Any]) -> int:
    """Players a table needs to start; some options raise it (Krosmaster's four-player modes)."""
    hook = getattr(engine, "min_players_for", None)
    return int(hook(options)) if hook is not None else int(engine.min_players)


def players_text(engine: Any, options: dict[str, Any]) -> str:
    low, high = min_players(engine, options), max_players(engine, options)
    return str(low) if low == high else f"{low}–{high}"


def parse_options(text: str | None) -> dict[str, Any]:
    """``format:limited arena:"Temple of Bonta"`` (or ``key=value``) → dict."""
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_LENGTH:
        raise TavoloError("game.options_too_long", limit=MAX_OPTIONS_LENGTH)
    try:
        tokens = shlex.split(text)
    except ValueError as exc:  # shlex's only complaint: a quote left open
        raise TavoloError("game.bad_options") from exc
    options: dict[str, Any] = {}
    for token in tokens:
        sep = ":" if ":" in token else "=" if "=" in token else None
        if sep is None:
            raise TavoloError("game.bad_option", option=token)
        key, value = token.split(sep, 1)
        if not key:
            raise TavoloError("game.bad_option", option=token)
        options[key.strip().lower()] = value.strip()
    return options
