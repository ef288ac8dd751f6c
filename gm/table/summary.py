"""The end-of-game summary (issue 32, "beyond the anchors"): turns played, the decisive moment, and each
player's rating change, posted in the channel when a game ends and kept with it.

The numbers come from the engine (``engines.core.summary``): while the game is played, every action that
moves the game's measure (Gallons of Glory, VP, kills, XP, Fame) carries a ``game.summary.step`` event no
seat sees; at the end the table reads those few rows, never the past states. The summary (turns and the
moment) is stored in the game's options with its result, in the ending's own write, so ``/game log`` and
the web page show it later; the rating changes are read from ``rating_changes``, which the same ending
transaction wrote (and a GM's undo of the ending takes back with the summary).

An action that decided the game outright (an engine's ``Finale``: the WoW board game's Overlord falling or its
final battle) is stored apart as ``finale`` and worded first, whatever the swings; the decisive swing is then
the biggest among the other actions, so no action is told twice.

Nothing here may fail a move: a hook that raises leaves the step out (logged), and a summary that cannot
be made leaves the ending as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from common.i18n import has, humanize, t
from db import games as repo
from db import summaries as store
from engines.core.contract import Engine, GameState
from engines.core.events import Event
from engines.core.summary import Step, decisive, finale_of
from gm.table.model import Table
from gm.table.ratings import points
from gm.table.replies import action_label

log = logging.getLogger(__name__)

SUMMARY = "summary"  # the game option holding a finished game's summary
STEP_EVENT = "game.summary.step"
NOBODY = -1  # ``Event.private_to`` of records no seat reads (``gm.table.core.NOBODY``)


RESIGN = "resign"
"""The kind of the action a resignation ends a game with (the engine's own, or the table's for two seats)."""


def step_event(engine: Engine, before: GameState | None, after: GameState, seat: int | None, kind: str,
               events: Sequence[Event]) -> Event | None:
    """The record of what this action changed in the game's measure, or None when it changed nothing and
    decided nothing (most actions), the engine has no measure, or the action is a GM's correction (never a
    moment)."""
    hook = getattr(engine, "summary_step", None)
    if hook is None or before is None or seat is None or kind.startswith("gm_"):
        return None
    try:
        step: Step | None = hook(before, after, seat, list(events))
    except Exception:  # the move matters more than its statistics
        log.exception("summary step failed (%s, %s)", engine.system, kind)
        return None
    if step is None or (not step.gains and step.finale is None):
        return None
    return Event(key=STEP_EVENT, params=step.as_params(), private_to=[NOBODY])


def turns_of(engine: Engine, state: GameState | None) -> int | None:
    hook = getattr(engine, "turns_played", None)
    if hook is None or state is None:
        return None
    try:
        return int(hook(state))
    except Exception:
        log.exception("turns_played failed (%s)", engine.system)
        return None


def steps_of(rows: Iterable[store.StepRow]) -> list[tuple[int, Step, str]]:
    """``(seq, step, action kind)`` of every stored step, in the order played."""
    found = []
    for row in rows:
        for event in row.events:
            if isinstance(event, dict) and event.get("key") == STEP_EVENT:
                step = Step.from_params(event.get("params") or {})
                if step is not None:
                    found.append((row.seq, step, row.kind))
    return found


async def build(conn: Any, table: Table, final: GameState | None, kind: str, events: Sequence[Event]) -> dict[str, Any]:
    """The summary of the game ``table`` ends with the action ``kind`` (its ``events`` not stored yet):
    what the ending writes into the game's options."""
    seq = await repo.last_seq(conn, table.game.id) + 1  # the ending action's own number
    steps = steps_of(await store.step_rows(conn, table.game.id, STEP_EVENT))
    steps += steps_of([store.StepRow(seq, None, kind, [e.model_dump() for e in events])])
    summary = compose(steps, {s.seat: s.name for s in table.seats}, turns_of(table.engine, final))
    if kind == RESIGN:
        summary["resigned"] = True  # the score did not end it: no "no single move swung the score" line
    return summary


def compose(steps: Sequence[tuple[int, Step, str]], names: dict[int, str], turns: int | None) -> dict[str, Any]:
    """The stored summary from the game's ``(seq, step, action kind)`` records and its seats' names: the
    finale (the action an engine said decided the game) apart, and the biggest swing among the others."""
    moment = decisive(((s, step) for s, step, _ in steps), names)
    summary: dict[str, Any] = {"turns": turns, "moment": None}
    ended = finale_of((s, step) for s, step, _ in steps)
    if ended is not None and ended[1].finale is not None:
        summary["finale"] = {"seq": ended[0], "turn": ended[1].turn, **ended[1].finale.as_params()}
    if moment is not None:
        seq, step, kind = next(found for found in steps if found[0] == moment.seq)
        summary["moment"] = {"seq": seq, "turn": moment.turn, "seat": moment.seat,
                             "name": names.get(moment.seat, str(moment.seat + 1)), "gain": moment.gain,
                             "swing": moment.swing, "kind": kind}
        if step.words is not None:
            summary["moment"]["words"] = step.words.as_params()
    return summary


async def safe_build(conn: Any, table: Table, final: GameState | None, kind: str,
                     events: Sequence[Event]) -> dict[str, Any] | None:
    try:
        return await build(conn, table, final, kind, events)
    except Exception:  # an ending is never refused for its summary
        log.exception("summary of game %s failed", table.game.id)
        return None


def measure(system: str, lang: str, amount: int) -> str:
    key = f"game.summary.measure.{system}"
    return t(key if has(key) else "game.summary.measure.default", lang, n=amount)


def finale_line(finale: Any, lang: str) -> str | None:
    """The action that decided the game, in the engine's words (its parameters worded as event parameters
    are: factions and names in the reader's language), or None when the stored record cannot be read."""
    if not isinstance(finale, dict) or not isinstance(finale.get("turn"), int):
        return None
    what = words_of(finale, lang)  # a finale is the engine's words, with the turn it came on
    return None if what is None else t("game.summary.finale", lang, turn=finale["turn"], what=what)


def words_of(words: Any, lang: str) -> str | None:
    """What the decisive action did, in the engine's words (``engines.core.summary.Words``), or None when the
    moment has none or the stored record cannot be read: then the action's kind names it."""
    if not isinstance(words, dict):
        return None
    key, params = words.get("key"), words.get("params")
    if not isinstance(key, str) or not isinstance(params, dict) or not has(key):
        return None
    return t(key, lang, **humanize(params, lang, key.split(".")[0]))


def lines(system: str, summary: dict[str, Any] | None, changes: Sequence[store.RatingChange] | None,
          names: dict[int, str], lang: str) -> list[str]:
    """The summary in words: turns, the action that decided the game (when an engine named one), the
    decisive swing, and each rated player's change of points (``changes`` None: no ratings line, for a
    reader that has not looked them up). After a finale the swing is called the biggest swing, and a game
    with no swing says nothing more: the finale was its moment."""
    summary = summary or {}
    out = [t("game.summary.title", lang)]
    if summary.get("turns") is not None:
        out.append(t("game.summary.turns", lang, n=summary["turns"]))
    ended = finale_line(summary.get("finale"), lang)
    if ended is not None:
        out.append(ended)
    moment = summary.get("moment")
    gained_key = "game.summary.moment" if ended is None else "game.summary.moment_after_finale"
    swing_key = "game.summary.moment_swing" if ended is None else "game.summary.moment_swing_after_finale"
    if isinstance(moment, dict):
        try:
            action = words_of(moment.get("words"), lang) or action_label(system, str(moment["kind"]), lang)
            swing = measure(system, lang, int(moment["swing"]))
            if int(moment["gain"]) > 0:
                out.append(t(gained_key, lang, turn=moment["turn"], user=moment["name"],
                             action=action, gained=measure(system, lang, int(moment["gain"])), swing=swing))
            else:
                out.append(t(swing_key, lang, turn=moment["turn"], user=moment["name"],
                             action=action, swing=swing))
        except (KeyError, TypeError, ValueError):  # a stored summary this code cannot read: left out
            pass
    elif ended is None and not summary.get("resigned"):
        out.append(t("game.summary.no_moment", lang))
    if changes is None:
        return out
    rated, deltas = [], []
    for change in changes:
        before, after = points(change.mu_before, change.sigma_before), points(change.mu_after, change.sigma_after)
        rated.append(t("game.summary.rating", lang, user=names.get(change.user_id, f"<@{change.user_id}>"),
                       before=before, after=after, delta=f"{after - before:+d}"))
        deltas.append(after - before)
    out.append(t("game.summary.ratings", lang, list="; ".join(rated)) if rated else t("game.summary.unrated", lang))
    if lopsided(deltas):
        out.append(t("game.summary.ratings_cautious", lang))
    return out


def lopsided(deltas: list[int]) -> bool:
    """Whether the points won and lost differ enough to puzzle a player ("+138 for alice, -73 for bob").

    Why they differ: the points shown are a cautious estimate (the skill less three times its uncertainty),
    and a game shrinks every player's uncertainty, so a winner with few games gains twice over and a loser's
    fall is softened. A line says so when it shows (a playtester asked where the other points went)."""
    won, lost = sum(d for d in deltas if d > 0), -sum(d for d in deltas if d < 0)
    return min(won, lost) > 0 and max(won, lost) > 1.25 * min(won, lost)


async def text(conn: Any, table: Table, lang: str) -> str:
    """The stored summary of a finished game, worded with its rating changes ("" when it has none)."""
    summary = table.game.options.get(SUMMARY)
    if not isinstance(summary, dict):
        return ""
    changes = await store.rating_changes(conn, table.game.id)
    names = {s.user_id: s.name for s in table.seats}
    return "\n".join(lines(table.game.system, summary, changes, names, lang))
