"""Per-system presentation hooks: board image, turn summary and quick buttons.

Engines know rules, renderers know pixels; a presenter ties them to a table reply
without the gm pipeline knowing any particular game.
"""

from __future__ import annotations

import logging
from typing import Protocol

from engines.core.contract import GameState
from gm.reply import Button

log = logging.getLogger(__name__)


class Presenter(Protocol):
    system: str

    def render(self, view: GameState, *, viewer: int | None, lang: str,
               seat_names: list[str]) -> bytes | None:
        """PNG bytes of the board as ``viewer`` may see it (``None`` = public)."""
        ...

    def summary(self, view: GameState, *, lang: str, seat_names: list[str]) -> str:
        """One or two lines: round, active piece/player, anything pending."""
        ...

    def buttons(self, ref: str, view: GameState, *, seat: int | None, lang: str) -> list[Button]:
        """Buttons for the common next moves of the acting seat.

        ``ref`` is ``"<game id>.<state version>"``: put it in every custom id so a click on
        an old board (or a double click) is recognised as stale instead of acting on the
        position that has moved on since."""
        ...

    def help_text(self, lang: str) -> str: ...

    # Optional: ``private_panel(view, *, seat, lang, ref) -> Reply``: what one seat alone may see
    # (its hand, face-down cards) and its legal plays, from ``view(state, seat)``. With it, every
    # public board carries a "Show my hand / My options" button (``tv1:game:me``).
    # Optional: ``shared_buttons = True``: when a decision waits for several seats at once (a team's
    # shared turn, a simultaneous choice), the board still carries buttons: ``buttons(..., seat=None)``
    # must word moves any waiting seat may press, each click acting for the clicker's own seat.
    # Without it only the "Show my hand / My options" panel is offered to several waiting seats.
    # Optional: ``wants_log_lines = True`` with ``render(..., log_lines=[...])``: the board draws
    # the text of the last events (at most ``gm.table.replies.LOG_LINES``).
    # Optional: ``event_text(event, lang) -> str | None``: the game words an event itself when its
    # template is not enough (why damage was reduced); None falls back to the template. With
    # ``words_rolls = True`` a line the hook words carries its dice itself (no raw numbers added).
    # Optional: ``error_params(params, lang) -> dict``: an error's parameters as the reader reads them (WoW
    # Miniatures: the names its engine words in English, in Italian), applied by ``cogs.messages.send_error``.
    # Optional: ``prompt_params(view, params, lang) -> dict``: the decision prompt's parameters after the
    # shared wording, for a game whose engine names things by id (a character, a region) in them.
    # Optional: ``locale_namespace = "km"``: actions are named by ``<namespace>.action.<kind>`` keys in
    # the log and in undo, instead of their internal kind.
    # Optional: ``event_mentions(view, events) -> list[int]``: seats to ping besides those the decision
    # waits for, because an event pulled them in (the defenders of a PvP fight).
    # Optional: ``render_here(view) -> bool``: True when this picture must be drawn in the bot's own
    # process (it needs something only this process holds, such as a server pack), not by a worker.
    # Optional: ``picture_hints(view, events) -> dict | None``: which picture this reply carries. None
    # means none at all (a table that asked for fewer images: the text summary stands alone); a dict
    # is passed to ``render`` as keywords (picklable: it travels to the render workers), e.g. the
    # regions a crop should show. ``events`` is empty for ``/game status``.
    # Optional: ``gm_commands = frozenset({"place", …})``: the ``/gm`` subcommands that apply to this game;
    # every other one is refused in words (``gm.table.overrides``), and its autocomplete offers nothing.
    # Optional: ``warm_up() -> None``: draw once what every picture needs (fonts, arenas, palettes); run
    # by each render worker, and by the fork server they share, before the first player waits for it.
    # Optional: ``warm_words() -> None``: load what this process needs to word a move (a pack's names), run
    # once before READY, so the first move of the game after a start does not pay for it on the event loop.
    # Optional: ``lobby_hint(options, lang) -> str``: a line added to the message that opens a lobby, naming
    # the game's own lobby commands and options (WoW Miniatures: ``/wowm party``, the short scenario).
    # Optional: ``help_line(lang) -> str``: the game's commands in one line, listed by ``/game help`` when no
    # game is open. Optional: ``answer_events``, ``private_buttons(events, *, lang)``, ``resolve_option(key,
    # value, content, lang)``, ``team_name(team, lang)``: see docs/ARCHITECTURE.md, presenter hooks.
    # Optional: ``image_policy(events) -> "new" | "update"``. "update" for changes people need
    # not see as a new image (set-up steps, bookkeeping): the board already in the channel is
    # edited instead. Without it, every change posts a new board.
    # Optional (checked by tests/table/test_image_budget.py, read by nothing at run time):
    # ``player_turns(view) -> frozenset``: the player turns under way in this position, each a hashable
    # marker (Krosmaster ``(turn_number,)``, Warlord ``(turn, seat)`` for every player still in). A
    # game's full script may post about two new pictures per distinct marker; what a player turn is
    # follows the game's rules, so only the game can say.


_PRESENTERS: dict[str, Presenter] = {}


def register(presenter: Presenter) -> Presenter:
    _PRESENTERS[presenter.system] = presenter
    return presenter


def get(system: str) -> Presenter | None:
    return _PRESENTERS.get(system)


def unregister(system: str) -> None:
    _PRESENTERS.pop(system, None)


def warm_up_all(skip: frozenset[str] = frozenset()) -> frozenset[str]:
    """Run the ``warm_up`` of every registered presenter whose system is not in ``skip``; answer the
    systems warmed without an error (a warm-up is an optimisation: a failure is logged, never raised)."""
    return _run_hook("warm_up", "warm-up", skip)


def warm_words_all() -> frozenset[str]:
    """Run the ``warm_words`` of every registered presenter (in the bot's process, before READY: issue 28, a
    table's first act after a start); answer the systems warmed. Like ``warm_up_all``, never raises."""
    return _run_hook("warm_words", "word warm-up", frozenset())


def _run_hook(hook: str, what: str, skip: frozenset[str]) -> frozenset[str]:
    done = []
    for system, presenter in sorted(_PRESENTERS.items()):
        warm = getattr(presenter, hook, None)
        if warm is None or system in skip:
            continue
        try:
            warm()
        except Exception:
            log.exception("%s of %s failed", what, system)
        else:
            done.append(system)
    return frozenset(done)
