"""What a page shows of one position, for one audience: the only path from a stored state to a page.

Every word and picture a page serves is made from ``view_for`` (the engine's ``view(state, seat)``,
or ``view(state, None)`` for a public link), never from the full state, unless the game is over and
the table left its replay open (``Audience.reveal``). Log lines follow the same rule: an event
private to some seats is shown only on those seats' links (or in the opened replay); a record no
seat may read (a hidden draw, ``private_to = [-1]``) never is. Mentions (``<@id>``) become seat names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from common.i18n import t
from engines.core.contract import GameState
from engines.core.events import Event
from gm import presenters
from gm.table.replies import action_label, event_text
from gm.table.summary import SUMMARY
from gm.table.summary import lines as summary_lines
from web.history import Timeline
from web.links import Link

NOBODY = -1  # ``Event.private_to`` of records no seat may read (gm.table.core.NOBODY)
_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Audience:
    """Who is looking: a seat (a private link), the public, or everyone once the replay is open."""

    seat: int | None
    reveal: bool = False

    @property
    def key(self) -> str:
        """Part of a picture's cache key: pictures of different audiences never mix."""
        return "all" if self.reveal else ("public" if self.seat is None else f"seat{self.seat}")


def audience_for(link: Link, timeline: Timeline, replay_reveal: bool) -> Audience:
    """A link's audience now: a seat's link of a game that has no such seat is public."""
    seat = link.seat if link.seat is not None and any(s.seat == link.seat for s in timeline.seats) else None
    return Audience(seat=seat, reveal=replay_reveal and timeline.finished())


def view_for(timeline: Timeline, state: GameState, audience: Audience) -> GameState:
    """The state as this audience may see it (the one place a page gets a position from)."""
    if audience.reveal:
        return state
    return timeline.engine.view(state, audience.seat)


def visible(event: Event, audience: Audience) -> bool:
    if not event.private_to:
        return True
    if NOBODY in event.private_to:
        return False
    return audience.reveal or (audience.seat is not None and audience.seat in event.private_to)


def names_for_mentions(timeline: Timeline, text: str) -> str:
    users = {s.user_id: s.name for s in timeline.seats}
    return _MENTION.sub(lambda m: users.get(int(m.group(1)), "?"), text)


@dataclass(frozen=True)
class LogEntry:
    step: int  # the position this action led to
    who: str
    action: str
    lines: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "who": self.who, "action": self.action, "lines": list(self.lines)}


def log_entries(timeline: Timeline, audience: Audience, lang: str) -> list[LogEntry]:
    """One entry per live action, with the lines this audience may read and their dice."""
    system = timeline.game.system
    names = {s.seat: s.name for s in timeline.seats}
    entries = []
    numbered = [(0, row) for row in timeline.preamble] + list(enumerate(timeline.rows, start=1))
    for index, row in numbered:
        lines = []
        for raw in row.events:
            event = Event.model_validate(raw)
            if visible(event, audience) and (line := event_text(event, lang, system)):
                lines.append(names_for_mentions(timeline, line))
        who = names.get(row.seat, "GM") if row.seat is not None else "GM"
        entries.append(LogEntry(index, who, action_label(system, row.kind, lang), tuple(lines)))
    return entries


def players(timeline: Timeline) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "name": s.name, "team": s.team} for s in timeline.seats]


def step_info(timeline: Timeline, index: int, audience: Audience, lang: str) -> dict[str, Any]:
    """A position's words: the summary (also the picture's alt text), who acts or how it ended, and the
    private panel of the link's seat (every seat's, once the replay is open). CPU only: run off the loop."""
    engine, system = timeline.engine, timeline.game.system
    presenter = presenters.get(system)
    state = timeline.state(index)
    view = view_for(timeline, state, audience)
    summary = ""
    if presenter is not None:
        summary = names_for_mentions(timeline, presenter.summary(view, lang=lang, seat_names=timeline.seat_names))
    names = {s.seat: s.name for s in timeline.seats}
    outcome = engine.outcome(state)
    if outcome is not None:
        winners = ", ".join(names.get(s, str(s + 1)) for s in outcome.winners) or t("game.nobody", lang)
        status = t("web.finished", lang, winners=winners,
                   reason=t(outcome.reason_key, lang, **outcome.params).rstrip("."))
        kept = timeline.game.options.get(SUMMARY) if index == timeline.count - 1 else None
        if isinstance(kept, dict):  # the game's summary (issue 32), as the channel read it, ratings aside
            status += " · " + " ".join(summary_lines(system, kept, None, {}, lang)[1:])
        waiting: list[int] = []
    else:
        decision = engine.decision(state)  # who must act is public: the board in Discord says it too
        waiting = list(decision.seats) if decision is not None else []
        status = t("web.waiting", lang, names=", ".join(names.get(s, str(s + 1)) for s in waiting)) if waiting else ""
    panels = []
    panel = getattr(presenter, "private_panel", None)
    seats = [s.seat for s in timeline.seats] if audience.reveal else (
        [audience.seat] if audience.seat is not None else [])
    for seat in seats if panel is not None else []:
        try:
            reply = panel(engine.view(state, seat), seat=seat, lang=lang, ref="web")
        except Exception:  # a panel a past position cannot word is left out, never the page
            continue
        parts = [reply.title or "", reply.text, *(f"{f.name}: {f.value}" for f in reply.fields)]
        panels.append({"seat": seat, "name": names.get(seat, str(seat + 1)),
                       "text": names_for_mentions(timeline, "\n".join(p for p in parts if p))})
    return {"step": index, "count": timeline.count, "summary": summary, "alt": summary.split("\n", 1)[0] or system,
            "status": status, "waiting": waiting, "panels": panels}
