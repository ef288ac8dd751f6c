"""How a table answers: the board message after a change, the lobby card, the log lines.

Kept apart from the pipeline so every command (play, undo, resign, status) words the
position the same way: events first, the presenter's summary, then either the result or
exactly one line saying who must act now.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common.i18n import has, humanize, t
from engines.core.contract import GameState
from engines.core.decision import Decision
from engines.core.events import Event
from gm import presenters
from gm.context import Actor
from gm.errors import worded
from gm.reply import Button, Image, Reply
from gm.table.model import (
    END_VOTES,
    MANUAL_PENDING,
    RESIGNED,
    RESULT,
    Table,
    game_ref,
    min_players,
    option_text,
    player_counts,
    players_text,
    system_name,
)
from gm.workers import render_pool

LOBBY_HIDDEN = (END_VOTES, MANUAL_PENDING, RESIGNED, RESULT, "closed")
log = logging.getLogger("gm.table.manager")
LOG_LINES = 4  # the last event lines a board may draw (Mage Knight's log band)
PANEL_BUTTON = "tv1:game:me"  # not tied to a position: it always shows the clicker's current view
REPLAY_BUTTON = "tv1:web:replay"  # + ":<game id>": the end-of-game offer of /game replay (cogs.web answers it)


def event_text(event: Event, lang: str, system: str | None = None) -> str:
    """One log line. The game's presenter may word an event itself (``event_text`` hook, e.g. why
    damage was reduced; "" for bookkeeping nobody needs to read, which callers leave out);
    otherwise (the hook returns None) the event's template is filled in."""
    presenter = presenters.get(system or "")
    hook = getattr(presenter, "event_text", None)
    own = hook(event, lang) if hook is not None else None
    namespace = event.key.split(".", 1)[0]
    text = own if own is not None else t(event.key, lang, **worded(humanize(event.params, lang, namespace), lang))
    if own and getattr(presenter, "words_rolls", False):
        return text  # the game's own line reads the dice already (WoW Miniatures: hits and the critical 0)
    if event.rolls and "rolls" not in event.params:
        text += " 🎲 " + " ".join(str(r) for r in event.rolls)
    return text


def action_key(system: str, kind: str) -> str:
    """The locale key naming an action (``<namespace>.action.<kind>``), "" for a game without one.

    The stored ``kind`` is an internal word ("end_turn"); a presenter that declares its
    ``locale_namespace`` has its actions worded in the log and in undo. The table's own actions
    (``start``, ``resign``) are worded by ``game.action.<kind>`` when the game has no word of its own."""
    namespace = getattr(presenters.get(system), "locale_namespace", None)
    own = f"{namespace}.action.{kind}" if namespace else ""
    return own if own and has(own) else (f"game.action.{kind}" if has(f"game.action.{kind}") else own)


def action_label(system: str, kind: str, lang: str) -> str:
    """An action's name for people, or its kind when the game has no words for it."""
    key = action_key(system, kind)
    return t(key, lang) if key and has(key, lang) else kind


def lobby_reply(table: Table, actor: Actor) -> Reply:
    """The lobby card (TABLE_UX): the options, every player's choices, and what is still missing."""
    lang = actor.locale
    presenter = presenters.get(table.game.system)
    describe = getattr(presenter, "seat_line", None)  # e.g. Krosmaster: the team, or "no team yet"
    lines = []
    for s in table.seats:
        line = f"{s.seat + 1}. {s.name}" + (f" ({s.team})" if s.team else "")
        if s.user_id == table.host:
            line += " " + t("game.lobby_host", lang)
        if describe is not None:
            line += " — " + describe(s.config, table.game.options, lang, table.content)
        lines.append(line)
    shown = {k: v for k, v in table.game.options.items()  # a switch left off is no news to anyone
             if k not in LOBBY_HIDDEN and v is not False and str(v).lower() != "false"}
    options = " ".join(f"{k}:{option_text(v)}" for k, v in sorted(shown.items())) or t("game.lobby_no_options", lang)
    low = min_players(table.engine, table.game.options)
    seated = len(table.seats)
    need = t("game.lobby_need", lang, count=low - seated) if seated < low else t("game.lobby_ready", lang)
    if seated >= low and seated not in player_counts(table.engine, table.game.options):  # 3 of "2 or 4"
        need = t("game.lobby_need_count", lang, players=players_text(table.engine, table.game.options, lang))
    text = "\n".join([t("game.lobby_options", lang, options=options), *lines,
                      t("game.lobby_seats", lang, count=seated,
                        players=players_text(table.engine, table.game.options, lang)),
                      need, t("game.lobby_hint", lang)])
    return Reply(title=t("game.lobby_title", lang, system=system_name(table.game.system)), text=text)


async def render(presenter: presenters.Presenter, view: GameState, lang: str, names: list[str],
                 game_id: int, log_lines: list[str] | None = None, view_json: str | None = None,
                 hints: dict[str, Any] | None = None) -> Image | None:
    """The board picture, drawn off the event loop by the render pool (``gm.workers.render_pool``).

    Never raises for a failed picture: the move was committed before anyone asked for it,
    so a render that fails, crashes its worker or is too slow costs the picture only. The
    reply goes out as text and the error is logged with the game, to be fixed. ``view_json``:
    the view's JSON when the caller already has it (``Table.json_of``)."""
    try:
        data = await render_pool.pool().render(presenter, view, lang=lang, seat_names=names, log_lines=log_lines,
                                               view_json=view_json, hints=hints, affinity=game_id)
    except Exception:
        log.exception("game %s (%s): board picture failed; the reply goes out as text", game_id, presenter.system)
        return None
    return Image(filename=f"{presenter.system}-{game_id}.png", data=data) if data else None


def one_more_answer(table: Table, asked_before: Decision | None, state: GameState, events: Iterable[Event]) -> bool:
    """Whether an action only answered a question several seats answer at once, which still waits for others
    (issue 26.8: one public prompt per reaction window). Then its reply edits the board's prompt instead
    of posting: the same question, fewer seats waiting, and no public event but the presenter's
    ``answer_events`` ("alice has answered"); anything else that happened is posted as usual."""
    presenter = presenters.get(table.game.system)
    quiet_keys = getattr(presenter, "answer_events", frozenset())
    if asked_before is None or not asked_before.simultaneous or not quiet_keys:
        return False
    now = table.engine.decision(state)
    if now is None or now.kind != asked_before.kind or not now.simultaneous or not now.seats:
        return False
    public = [e.key for e in events if not e.private_to]
    return set(now.seats) < set(asked_before.seats) and all(key in quiet_keys for key in public)


def decision_prompt(presenter: Any, public: GameState, decision: Decision, lang: str) -> str:
    """What the decision asks, in words ("" when it asks nothing in particular): its ``prompt_key`` with
    parameters humanized, and ids the engine speaks in named by the presenter's ``prompt_params``."""
    if not decision.prompt_key:
        return ""
    params = worded(humanize(decision.params, lang, decision.prompt_key.split(".", 1)[0]), lang)
    named = getattr(presenter, "prompt_params", None)
    if named is not None:
        params = named(public, params, lang)
    return t(decision.prompt_key, lang, **params)


def _next_key(decision: Decision) -> str:
    """How the line that says who acts now reads: one seat's turn, one seat's question, or several
    seats answering at once (and, for a secret choice, that nobody sees an answer before all are in)."""
    if decision.simultaneous:
        return "game.next_secret" if decision.secret else "game.next_simultaneous"
    return "game.next_turn" if decision.kind == "turn" else "game.next_decision"


def seat_names(table: Table, lang: str, away: Mapping[int, object] | None = None) -> list[str]:
    """The seats' names as boards show them, a seat whose player is away (``away``: the App's
    ``AwayBook.marked``) marked (issue 32.3): the names reach every game's summary and picture, so every
    game shows it without a change of its own."""
    if not away:
        return table.seat_names
    marker = t("away.marker", lang)
    return [f"{s.name} {marker}" if s.user_id in away else s.name for s in table.seats]


@dataclass
class EarlyPicture:
    """A board picture started before its move is committed (``start_picture``), and the public view it
    draws: the reply words the same view, and waits for the picture only once the commit is done."""

    state: GameState
    public: GameState
    lines: list[str]
    picture: asyncio.Future[Image | None] | None

    def cancel(self) -> None:
        if self.picture is not None:
            self.picture.cancel()


def public_lines(events: Iterable[Event], lang: str, system: str) -> list[str]:
    """The channel's lines of a move's events: those private to no seat, worded in ``lang``."""
    return [line for e in events if not e.private_to and (line := event_text(e, lang, system))]


def start_picture(table: Table, state: GameState, actor: Actor, events: list[Event],
                  away: Mapping[int, object] | None = None, public: GameState | None = None,
                  state_json: str | None = None) -> EarlyPicture:
    """The public view of ``state`` and its picture, sent to the render pool now (issue 28): a worker draws
    while the move is written, instead of after it. ``public``: the view, when the caller made it already;
    ``state_json``: ``state``'s JSON, sent as the view's when the view hides nothing (is ``state``)."""
    lang = actor.locale
    system = table.game.system
    lines = public_lines(events, lang, system)
    public = public if public is not None else table.engine.view(state, None)
    presenter = presenters.get(system)
    hinting = getattr(presenter, "picture_hints", None)  # which picture, or none (a table's image policy)
    hints: dict[str, Any] | None = hinting(public, events) if hinting is not None else {}
    picture = None
    if presenter is not None and hints is not None:
        picture = asyncio.ensure_future(render(presenter, public, lang, seat_names(table, lang, away), table.game.id,
                                               lines[-LOG_LINES:],
                                               state_json if public is state and state_json else table.json_of(public),
                                               hints or None))
    return EarlyPicture(state, public, lines, picture)


async def board_reply(table: Table, actor: Actor, events: Iterable[Event],
                      away: Mapping[int, object] | None = None, early: EarlyPicture | None = None) -> Reply:
    """Events, board image and summary, then the result or the one line saying who acts next (``away``:
    the members of the table's server a board marks as away). ``early``: the picture ``start_picture``
    began for this very position (used only when it is still the table's state)."""
    lang = actor.locale
    events = list(events)
    system = table.game.system
    state = table.state
    if early is not None and (state is None or early.state is not state):
        early.cancel()
        early = None
    private = [event_text(e, lang, system) for e in events
               if e.private_to and table.seat_of(actor.user_id) in e.private_to]
    presenter = presenters.get(table.game.system)
    next_line = ""
    picture: asyncio.Future[Image | None] | None = None
    try:
        if early is None and state is not None:
            early = start_picture(table, state, actor, events, away)
        lines = early.lines if early is not None else public_lines(events, lang, system)
        reply = Reply(text="\n".join(lines))
        if state is not None and early is not None:
            engine = table.engine
            public = early.public
            picture = early.picture
            if picture is not None and presenter is not None:
                # Started first, so a worker draws while the rest of the reply is worded here.
                names = seat_names(table, lang, away)
                await asyncio.sleep(0)  # one turn of the loop: the job reaches the pool before the words below
                summary = presenter.summary(public, lang=lang, seat_names=names)
                if summary:
                    reply.text = (reply.text + "\n" + summary).strip()
            outcome = engine.outcome(state) if table.game.status in ("active", "finished") else None
            result = table.game.options.get(RESULT)
            if outcome is not None or result:
                data = outcome.model_dump() if outcome is not None else result
                names = ", ".join(f"<@{table.user_of(s)}>" for s in data["winners"]) or t("game.nobody", lang)
                reply.mentions = [u for s in data["winners"] if (u := table.user_of(s)) is not None]
                reason = t(data["reason_key"], lang, **data.get("params", {})).rstrip(".")  # the line adds its own
                reply.text += "\n" + t("game.finished", lang, winners=names, reason=reason)
                if events:  # the move that ended it (not a later /game status): offer the replay
                    reply.buttons = [Button(t("web.replay_button", lang), f"{REPLAY_BUTTON}:{table.game.id}",
                                            "primary")]
            elif table.game.status == "abandoned":
                reply.text += "\n" + t("game.was_abandoned", lang)
            else:
                decision = engine.decision(state)
                if decision is not None:
                    users = [u for s in decision.seats if (u := table.user_of(s)) is not None]
                    pulled = getattr(presenter, "event_mentions", None)  # seats an event pulls in (defenders)
                    extra = [u for s in (pulled(public, events) if pulled is not None else [])
                             if (u := table.user_of(s)) is not None and u not in users]
                    reply.mentions = users + extra
                    prompt = decision_prompt(presenter, public, decision, lang)
                    next_line = t(_next_key(decision), lang, mention=" ".join(f"<@{u}>" for u in users), prompt=prompt)
                    reply.text += "\n" + next_line
                    if presenter is not None and len(decision.seats) == 1:
                        reply.buttons = presenter.buttons(game_ref(table), public, seat=decision.seats[0], lang=lang)
                    elif presenter is not None and getattr(presenter, "shared_buttons", False):
                        # several seats act in parallel (a faction's shared turn, a secret choice): buttons
                        # any of them may press, each click acting for the clicker's own seat
                        reply.buttons = presenter.buttons(game_ref(table), public, seat=None, lang=lang)
                    if getattr(presenter, "private_panel", None) is not None:  # every seat's own view, on demand
                        reply.buttons = [*reply.buttons[:19], Button(t("game.my_panel", lang), PANEL_BUTTON)]
        pending = table.game.options.get(MANUAL_PENDING)
        if pending:
            reply.text += "\n" + t("game.manual_waiting", lang, user=f"<@{pending['user_id']}>")
            next_line = (next_line + "\n" + t("game.manual_waiting", lang, user=f"<@{pending['user_id']}>")).strip()
        if picture is not None:
            reply.image = await picture
    except BaseException:  # a reply that fails has no use for its picture
        if picture is not None:
            picture.cancel()
        raise
    if reply.image is not None:
        reply.board = True
        policy = getattr(presenter, "image_policy", None)
        reply.update_board = bool(events) and policy is not None and policy(events) == "update"
        reply.brief = "\n".join([*lines, next_line]).strip()
        reply.board_text = reply.text.split("\n", len(lines))[-1] if lines else reply.text  # the position only
    if private:
        offered = getattr(presenter, "private_buttons", None)  # what the private lines offer (pre-set passes)
        seat = table.seat_of(actor.user_id)
        buttons = offered([e for e in events if e.private_to and seat in e.private_to], lang=lang) \
            if offered is not None and seat is not None else []
        reply.extra.append(Reply(text="\n".join(private), ephemeral=True, buttons=buttons))
    return reply
