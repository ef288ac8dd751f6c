"""The end-of-game summary names what scored a WoW Miniatures moment (403.2c kills, 502.2 locations) instead
of the action's kind: "bob gained 8 VP (defeating Thrak)", not "(play)" (issue 32's summary, polished)."""

from __future__ import annotations

from engines.core.events import Event
from engines.core.summary import Step
from engines.wowminis import ENGINE
from gm.table.summary import compose, lines
from tests.wowminis.builders import act, board, put, turn


def _kill() -> tuple[Step, str, str]:
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "lyssara-1", "E3", ahead=2)
    put(state, "thrak-2", "C4", ahead=3, health=1)
    turn(state, "brannoc-1")
    before = state.model_copy(deep=True)
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[9, 9, 1, 1, 1, 1])
    step = ENGINE.summary_step(before, state, 0, events)
    assert step is not None
    defn = state.chars["thrak-2"].defn
    assert defn.name_it and defn.name_it != defn.name  # the built-in pack names it in Italian
    return step, defn.name, defn.name_it


def test_403_2c_a_kill_is_the_moment_s_words() -> None:
    step, victim, _italian = _kill()
    assert step.gains == {0: 8} and step.words is not None
    assert step.words.key == "wowm.summary.kill" and step.words.params["names"] == [victim]
    assert Step.from_params(step.as_params()) == step  # stored with the step and read back


def test_403_2c_the_summary_says_who_was_defeated_in_both_languages() -> None:
    step, victim, italian_name = _kill()
    summary = compose([(7, step, "play")], {0: "alice", 1: "bob"}, 12)
    english = lines("wowminis", summary, None, {}, "en")
    italian = lines("wowminis", summary, None, {}, "it")
    assert f"alice gained 8 VP (defeating {victim})" in english[2]
    assert "(play)" not in english[2]
    assert f"con «l'eliminazione di {italian_name}»" in italian[2]


def test_502_2_locations_held_are_the_words_of_a_scoring_end_of_turn() -> None:
    before = board()
    after = before.model_copy(deep=True)
    after.players[1].vp += 2
    events = [Event(key="wowm.ev.vp", params={"seat": 1, "amount": 1, "cause": "location", "name": "x"}),
              Event(key="wowm.ev.vp", params={"seat": 1, "amount": 1, "cause": "location", "name": "y"})]
    step = ENGINE.summary_step(before, after, 1, events)
    assert step is not None and step.words is not None and step.words.key == "wowm.summary.location_many"
    summary = compose([(3, step, "end_turn")], {0: "alice", 1: "bob"}, 5)
    assert "bob gained 2 VP (holding 2 VP locations)" in lines("wowminis", summary, None, {}, "en")[2]
    assert "il controllo di 2 locazioni VP" in lines("wowminis", summary, None, {}, "it")[2]


def test_a_stored_moment_without_words_is_still_named_by_its_kind() -> None:
    """Summaries stored before the words (and moments no words describe) read as they did."""
    before = board()
    after = before.model_copy(deep=True)
    after.players[0].vp += 1
    step = ENGINE.summary_step(before, after, 0, [])
    assert step is not None and step.words is None
    summary = compose([(2, step, "move")], {0: "alice", 1: "bob"}, 3)
    assert "words" not in summary["moment"]
    assert "alice gained 1 VP (move)" in lines("wowminis", summary, None, {}, "en")[2]
    summary["moment"]["words"] = {"key": "wowm.summary.no_such_key", "params": {}}
    assert "alice gained 1 VP (move)" in lines("wowminis", summary, None, {}, "en")[2]
