"""``/wowb summary`` words (issue 30, "At the table"): what the asking seat's faction did since its last action,
what others changed on the board, and what is open now, from the view and the action log, in both languages."""

from __future__ import annotations

from engines.core.dice import SeededDice
from engines.wowboard import ENGINE
from engines.wowboard.state import State
from gm.games.wowboard.presenter import panel
from gm.games.wowboard.summary import TEAM_LINES, LogEntry, summary_text
from tests.wowboard.issue30_tables import full_table

E = ENGINE


class Recorder:
    """Plays actions on a table and keeps the log the table would keep (seat, kind, events)."""

    def __init__(self, state: State) -> None:
        self.state, self.log, self.dice = state, [], SeededDice(9)

    def do(self, seat: int, action: dict) -> None:
        events = E.apply(self.state, seat, E.parse_action(action), self.dice)
        self.log.append(LogEntry(seq=len(self.log) + 1, seat=seat, kind=action["kind"], events=events))

    def text(self, seat: int, lang: str = "en") -> str:
        view = E.view(self.state, seat)
        assert isinstance(view, State)
        return summary_text(view, seat, self.log, lang, panel(view, seat, lang, "r").text or "",
                            {s.seat: s.name for s in view.seats})


def _horde(state: State) -> tuple[int, int, str, str]:
    seats = sorted(s.seat for s in state.seats if s.faction == "horde")
    first, second = seats
    return first, second, state.seat(first).characters[0], state.seat(second).characters[0]


def test_summary_lists_the_teammates_actions_since_mine_and_what_is_open_now() -> None:
    state = full_table(4)
    rec = Recorder(state)
    me, mate, mine, theirs = _horde(state)
    rec.do(me, {"kind": "pass", "character": mine})
    rec.do(mate, {"kind": "pass", "character": theirs})
    rec.do(mate, {"kind": "rest", "character": theirs, "health": 0, "energy": 0})
    text = rec.text(me)
    assert "2 actions since your last one" in text
    assert "2 actions by your teammates" in text and text.count(f"• {state.seat(mate).name}:") == 2
    assert "**Open now**" in text and "Your move" in text  # my character still has an action
    assert "eligible quests" in text and "The Overlord, Ash Wyrm, waits at" in text
    quests = [q for q in state.quests if q.faction == "horde"]
    assert f"eligible quests** ({len(quests)})" in text
    assert "Turn 1 of 30" in text


def test_summary_my_own_actions_reset_it_and_the_enemy_only_shows_board_changes() -> None:
    state = full_table(4)
    rec = Recorder(state)
    me, mate, mine, theirs = _horde(state)
    for seat, char in ((me, mine), (mate, theirs), (me, mine), (mate, theirs)):
        rec.do(seat, {"kind": "pass", "character": char})
    text = rec.text(me)
    assert "1 action since your last one" in text and "1 action by your teammates" in text
    for seat in sorted(s.seat for s in state.seats if s.faction == "horde"):  # the management step
        if state.phase == "management":
            rec.do(seat, {"kind": "management_done"})
    assert state.active == "alliance"
    enemy = sorted(s.seat for s in state.seats if s.faction == "alliance")[0]
    rec.do(enemy, {"kind": "pass", "character": state.seat(enemy).characters[0]})
    text = rec.text(me)
    assert "passes" not in text.split("**On the board**")[1].split("**Open now**")[0]  # the enemy's pass: no news
    assert "Alliance" in text and "Waiting for" in text  # the Alliance's turn is on the board, not my move


def test_summary_before_my_first_action_counts_from_the_start_and_reads_in_italian() -> None:
    state = full_table(4)
    rec = Recorder(state)
    me, mate, _mine, theirs = _horde(state)
    rec.do(mate, {"kind": "pass", "character": theirs})
    text = rec.text(me, "it")
    assert "Non hai ancora agito: 1 azione dall'inizio della partita." in text
    assert "**Aperto ora**" in text and "Missioni idonee della tua fazione" in text
    assert "L'Overlord, Serpe di Cenere, attende a" in text


def test_summary_many_teammate_actions_show_the_latest_and_count_the_rest() -> None:
    state = full_table(4)
    me, mate, _mine, _theirs = _horde(state)
    log = [LogEntry(seq=i + 1, seat=mate, kind="rest", events=[]) for i in range(TEAM_LINES + 5)]
    view = E.view(state, me)
    assert isinstance(view, State)
    text = summary_text(view, me, log, "en", "panel")
    assert "…and 5 earlier" in text and text.count("• ") >= TEAM_LINES
    undone = [LogEntry(seq=1, seat=mate, kind="rest", events=[], undone=True)]
    assert "0 actions by your teammates" in summary_text(view, me, undone, "en", "panel")


def test_summary_during_the_draft_names_no_faction_and_shows_the_picks() -> None:
    from engines.core.contract import SeatSetup, Setup

    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=n) for i, n in enumerate("abc")],
                             options={"edition": "full"}), SeededDice(2))
    assert isinstance(state, State) and state.factions_open
    rec = Recorder(state)
    first = state.draft_order[0]
    rec.do(first, {"kind": "pick_class", "class_id": E.legal_actions(state, first)[0].class_id})
    other = next(s.seat for s in state.seats if s.seat != first)
    text = rec.text(other)
    assert "Your faction (" not in text and "1 change made by others" in text and "picks" in text
