"""What a table is: a game row, its seats and (once started) its parsed state.

Shared by every part of the table layer (lobby, play, ending, manual dice), so it holds
only data and the small rules about seats and table options that all of them read.
"""

from __future__ import annotations

import logging
import shlex
from typing import Any

from common.i18n import Phrase, has, t
from db import games as repo
from engines import registry
from engines.core.contract import Engine, GameState
from engines.core.errors import TavoloError
from engines.core.state_versions import StateUnreadable
from gm.table.absent_policy import ABSENT_OPTION, AFTER_OPTION
from gm.table.turn_clock import CLOCK_OPTION

log = logging.getLogger("gm.table.manager")

MAX_OPTIONS_LENGTH = 1000
# Table options handled here, not by engines: a server content pack to play with, and
# ``dice:manual`` for groups that roll physical dice and type the faces in.
PACK_OPTION = "pack"
DICE_OPTION = "dice"
MANUAL_PENDING = "manual_pending"
END_VOTES = "end_votes"
RESIGNED = "resigned"  # user ids who resigned from a game that plays on: they no longer block an end vote
RESULT = "result"
MAX_LOG_COUNT = 50
LOG_TEXT_LIMIT = 4096
"""Characters of ``/game log``'s text: Discord's limit for an embed's description. A log that would pass it
drops its oldest lines, never its newest (a player asks for the log to see what just happened)."""
LOG_LINE_LIMIT = 1000
"""Characters of one action's line in ``/game log``: a WoW Board answer can name a dozen results."""


class Table:
    """A loaded game: its row, seats and (once started) the engine state.

    The committed state lives as the JSON text of ``game.state`` (what the database holds);
    ``state`` is that text parsed, on first use. The table cache keeps the text of many games
    and the parsed state of only the most recent ones (``drop_parsed``): a parsed Krosmaster
    state takes about nine times the memory of its text and hundreds of objects the garbage
    collector must walk. A parsed state reachable from the cache is never mutated: actions
    change a private ``parse()`` and the commit installs it.

    ``problem`` is set when the stored state cannot be read by this version of the code:
    the game is quarantined (see ``TableCore.require_readable``) and only reading its log
    and ending it still work, so one bad save never blocks the channel or the bot.
    """

    def __init__(self, game: repo.GameRow, seats: list[repo.SeatRow], state: GameState | None = None,
                 content: dict[str, Any] | None = None, problem: StateUnreadable | None = None) -> None:
        self.game = game
        self.seats = seats
        self.content = content  # the server's content pack named by the ``pack`` option
        self._state = state
        self._problem = problem
        self._checked = state is not None or problem is not None  # has game.state been read once?
        self._dumped = False  # game.state is exactly _state.model_dump_json() (``install``)
        self.dictionary: str | None = None  # what its history is compressed against (db/state_codec.py)

    def __repr__(self) -> str:
        return f"Table(game={self.game.id}, channel={self.game.channel_id}, version={self.game.version})"

    @property
    def state(self) -> GameState | None:
        """The parsed committed state; None before the start and for a quarantined game."""
        if self._state is None and self.game.state is not None and self._problem is None:
            self._state = self.parse()
        return self._state

    @state.setter
    def state(self, value: GameState | None) -> None:
        self._state = value
        self._checked = True
        self._dumped = False

    def install(self, state: GameState, text: str) -> None:
        """A commit's new state and the JSON it wrote, which is ``state.model_dump_json()``."""
        self.game.state = text
        self.state = state
        self._dumped = True

    def json_of(self, view: GameState) -> str | None:
        """``view``'s JSON without serializing again, when ``view`` is the committed state the
        last commit dumped (a view that hides nothing is the state itself); else None."""
        return self.game.state if self._dumped and view is self._state else None

    @property
    def problem(self) -> StateUnreadable | None:
        """Why the stored state cannot be read, if it cannot (read once to know)."""
        if not self._checked and self.game.state is not None:
            _ = self.state
        return self._problem

    @property
    def parsed(self) -> bool:
        """Whether a parsed state is held right now (no parse happens to answer)."""
        return self._state is not None

    def parse(self) -> GameState | None:
        """A new parse of the committed JSON, private to the caller; None (and ``problem``) if unreadable."""
        if self.game.state is None:
            return None
        try:
            parsed = self.engine.load_state(self.game.state)
        except StateUnreadable as problem:  # quarantine this game only (ARCHITECTURE.md §3)
            log.warning("game %s (%s) quarantined: %s %s", self.game.id, self.game.system, problem.key,
                        problem.params)
            self._problem = problem
            parsed = None
        self._checked = True
        return parsed

    def drop_parsed(self) -> None:
        """Let the parsed state go; the JSON stays, and the next ``state`` parses it again."""
        if self.game.state is not None:
            self._state = None
            self._dumped = False

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


def player_counts(engine: Any, options: dict[str, Any]) -> list[int]:
    """Every number of players a table may start with. Most games take any count between the least
    and the most; an engine whose rules skip some (the WoW board game seats 2 or 4, never 3) says
    which with ``player_counts(options)``."""
    counts = range(min_players(engine, options), max_players(engine, options) + 1)
    hook = getattr(engine, "player_counts", None)
    if hook is None:
        return list(counts)
    allowed = set(hook(options))
    return [n for n in counts if n in allowed]


def players_text(engine: Any, options: dict[str, Any], lang: str = "en") -> str:
    """The counts as a player reads them: "2", "2–4", or "2 or 4" when the rules skip one."""
    counts = player_counts(engine, options)
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return t("game.players_or", lang, some=", ".join(map(str, counts[:-1])), last=counts[-1])


def known_options(engine: Any, options: dict[str, Any]) -> list[str]:
    """The option names this table takes: the engine's own (``known_options``, which may depend on the
    options given, such as a mode) and the platform's (``pack``, ``dice``)."""
    hook = getattr(engine, "known_options", None)
    own = sorted(hook(options)) if hook is not None else sorted(options)
    platform = (DICE_OPTION, PACK_OPTION, ABSENT_OPTION, AFTER_OPTION, CLOCK_OPTION)  # issue 32.2, 32.6
    return [*own, *[o for o in platform if o not in own]]


def check_option_names(engine: Any, options: dict[str, Any], lang: str = "en") -> None:
    """A misspelt or foreign option (``gaol:4``) is refused with the list of what this game takes,
    never ignored: a table played without the option its players asked for is worse than an error.
    ``dice:manual`` is refused by a game whose rolls cannot be typed in (``supports_manual_dice``)."""
    allowed = known_options(engine, options)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TavoloError("game.unknown_option", option=unknown[0][:30], known=option_list(allowed))
    if str(options.get(DICE_OPTION, "")).lower() == "manual" and not getattr(engine, "supports_manual_dice", False):
        # a game may say why, and what to do instead (``manual_dice_refusal``: a locale key)
        raise TavoloError(getattr(engine, "manual_dice_refusal", None) or "game.manual_dice_unsupported",
                          system=system_name(engine.system))


def option_list(names: list[str]) -> str:
    """``map:…, goal:…, dice:manual, pack:NAME``: option names as a player types them."""
    hints = {DICE_OPTION: "dice:manual", PACK_OPTION: "pack:NAME", ABSENT_OPTION: "absent:wait|autopilot|skip|forfeit",
             AFTER_OPTION: "after:48h", CLOCK_OPTION: "clock:48h+7d"}
    return ", ".join(hints.get(name, f"{name}:…") for name in names)


def option_text(value: Any) -> str:
    """An option's value as a player would type it: ``duel:true``, not ``duel:True``; lists comma-joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return ",".join(option_text(v) for v in value)
    text = str(value)
    return f'"{text}"' if " " in text else text


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


def system_name(system: str) -> Phrase | str:
    """The game's name as players know it ("WoW board game"), in the reader's language; its id only for a game
    that has no name in the locales yet (issue 26.2: no internal word reaches a player)."""
    key = f"dice.system.{system}"
    return Phrase(key) if has(key, "en") else system


def system_title(system: str, lang: str) -> str:
    """``system_name`` already in the reader's words, for lists and buttons that take plain text."""
    name = system_name(system)
    return t(name.key, lang) if isinstance(name, Phrase) else name
