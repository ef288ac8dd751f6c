"""``/wowb summary``: a private catch-up for a game that lasts weeks (issue 30, "At the table").

A player coming back after days wants two things: what their faction did while they were away, and what is
open now. The first comes from the game's action log (the table's own record, the same one ``/game log``
reads): every action since this seat's last one, teammates' actions in full (with what they caused), and of
everything else only what changed the board for the faction (a quest completed, a PvP fought, an event drawn,
a war or an auction, the Overlord moving). The second is read from the seat's view: the seat's characters and
its question (the control panel's lines), the turn, fights, wars and auctions, the faction's eligible quests,
and where the Overlord waits.

The text is built by a pure function over the view and the log entries (``summary_text``) so it is tested
without a database; ``summary_reply`` only fetches them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from common.i18n import t
from db import games as repo
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from gm.context import Actor, Place
from gm.games.wowboard import text
from gm.games.wowboard.presenter import game, panel
from gm.reply import Reply
from gm.table.replies import action_label

if TYPE_CHECKING:
    from gm.app import App

SYSTEM = "wowboard"
SCAN = 400  # actions read back at most: a faction turn of six seats with its fights is well under 200
TEAM_LINES = 12  # the teammates' latest actions shown (older ones are counted)
BOARD_LINES = 10  # the table's latest board changes shown
TEXT_CHARS = 220  # one action's line at most
# What changed the board for everyone: shown even when another faction (or the table itself) caused it.
BOARD_EVENTS = frozenset({
    "faction_turn", "quest_completed", "quest_drawn", "pvp_started", "pvp_won", "pvp_draw", "pvp_stalled",
    "pvp_deadly_tiebreak",
    "defeated", "event_drawn", "war_declared", "war_won", "boss_appears", "overlord_moved", "minions_summoned",
    "auction_opened", "auction_won", "auction_unsold", "new_lap", "final_called", "overlord_beaten", "game_won",
    "game_drawn", "level_up", "looted", "traded", "seat_handed", "faction_resigned", "class_picked",
    "class_picked_open", "factions_dealt", "overlord_set",
})


@dataclass
class LogEntry:
    """One recorded action: who made it (None: the table itself, a GM), what, and the events it caused."""

    seq: int
    seat: int | None
    kind: str
    events: list[Event] = field(default_factory=list)
    undone: bool = False


def _texts(events: Sequence[Event], seat: int, lang: str, keep: frozenset[str] | None = None) -> list[str]:
    """The events' words a seat may read (a private event only for its own seats), optionally only some keys."""
    out = []
    for e in events:
        if e.private_to and seat not in e.private_to:
            continue
        if keep is not None and e.key.removeprefix("wowboard.ev.") not in keep:
            continue
        words = text.event_text(e, lang)
        if words:
            out.append(words)
    return out


def _clip(line: str) -> str:
    return line if len(line) <= TEXT_CHARS else line[:TEXT_CHARS - 1] + "…"


def since_lines(view: State, seat: int, log: Sequence[LogEntry], lang: str,
                seat_names: dict[int, str] | None = None) -> list[str]:
    """What happened since the seat's last action: its faction's actions, then the board's changes."""
    live = [e for e in log if not e.undone]
    mine = max((e.seq for e in live if e.seat == seat), default=None)
    after = [e for e in live if mine is None or e.seq > mine]
    faction = view.seat(seat).faction
    team = {s.seat for s in view.seats if s.faction == faction and s.seat != seat}
    names = seat_names or {}
    lines = [t("wowboard.ui.recap_since", lang, n=len(after)) if mine is not None
             else t("wowboard.ui.recap_since_start", lang, n=len(after))]
    if view.factions_open:  # setup.3: nobody has a faction yet, so there is no "your faction" to speak of
        team = set()
    ours = [e for e in after if e.seat in team]
    team_lines = []
    for e in ours:
        who = names.get(e.seat or 0) or text.seat_name(view, e.seat or 0)
        said = _texts(e.events, seat, lang)
        team_lines.append(_clip(f"• {who}: {action_label(SYSTEM, e.kind, lang)}" + (f" — {' '.join(said)}" if said
                                                                                        else "")))
    if not view.factions_open:
        lines.append(t("wowboard.ui.recap_team", lang, faction=text.faction_word(faction, lang), n=len(ours)))
        if len(team_lines) > TEAM_LINES:
            lines.append(t("wowboard.ui.recap_more", lang, n=len(team_lines) - TEAM_LINES))
        lines += team_lines[-TEAM_LINES:] or [t("wowboard.ui.recap_nothing", lang)]
    board = [_clip(f"• {words}") for e in after if e.seat not in team
             for words in _texts(e.events, seat, lang, BOARD_EVENTS)]
    lines.append(t("wowboard.ui.recap_board", lang, n=len(board)))
    if len(board) > BOARD_LINES:
        lines.append(t("wowboard.ui.recap_more", lang, n=len(board) - BOARD_LINES))
    lines += board[-BOARD_LINES:] or [t("wowboard.ui.recap_nothing", lang)]
    return lines


def open_lines(view: State, seat: int, lang: str, panel_text: str) -> list[str]:
    """What is open now: the seat's characters and question (the panel's words), the table's state, the
    faction's eligible quests and where the Overlord waits."""
    lines = [t("wowboard.ui.recap_now", lang), panel_text]
    table = text.summary(view, lang)
    if table:
        lines.append(table)
    if view.lap > 1:  # variants.2: the marker is on a later lap
        lines.append(t("wowboard.ui.recap_lap", lang, lap=view.lap))
    if view.factions_open or view.phase in ("draft", "over"):
        return lines
    faction = view.seat(seat).faction
    pack = pack_of(view)
    by_id = {q.id: q for q in pack.quests}
    quests = []
    for quest in view.quests:
        card = by_id.get(quest.card)
        if quest.faction != faction or card is None:
            continue
        where = sorted({text.name(view, view.figures[f].region, lang) for f in quest.figures if f in view.figures})
        quests.append(t("wowboard.ui.quest_line", lang, title=text.name(view, card.id, lang), level=card.level,
                        colour=t(f"wowboard.ui.colour.{card.colour}", lang), n=len(quest.figures),
                        regions=", ".join(where) or "—"))
    lines.append(t("wowboard.ui.recap_quests", lang, n=len(quests)))
    lines += quests
    if view.overlord is not None:
        lines.append(t("wowboard.ui.recap_overlord", lang, name=text.name(view, view.overlord.id, lang),
                       region=text.name(view, view.overlord.region, lang)))
    return lines


def summary_text(view: State, seat: int, log: Sequence[LogEntry], lang: str, panel_text: str,
                 seat_names: dict[int, str] | None = None) -> str:
    return "\n".join([*since_lines(view, seat, log, lang, seat_names), "", *open_lines(view, seat, lang, panel_text)])


def entries(rows: Sequence[Any]) -> list[LogEntry]:
    """The table's action rows (``db.games.ActionRow``) as log entries with their events read back."""
    return [LogEntry(seq=r.seq, seat=r.seat, kind=r.kind, undone=r.undone,
                     events=[Event.model_validate(e) for e in r.events]) for r in rows]


async def summary_reply(app: App, place: Place, actor: Actor) -> Reply:
    """``/wowb summary`` for the asking seat, privately (a spectator has no faction to catch up with)."""
    view, seat, table = await game(app, place, actor)
    if seat is None:
        raise TavoloError("wowboard.ui.recap_spectator")
    rows = await repo.recent_actions(app.store.conn, table.game.id, SCAN)
    lang = actor.locale
    own = panel(view, seat, lang, "")
    names = {s.seat: s.name for s in table.seats}
    body = summary_text(view, seat, entries(rows), lang, own.text or "", names)
    return Reply(title=t("wowboard.ui.recap_title", lang), text=body, ephemeral=True)
