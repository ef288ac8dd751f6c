"""Duel with ``pick``: the opponent picks the encounter in secret within a Fame budget (spec §3
duel row, M51). Reading in ``rules_setup``: as many tokens as a challenge at this site and tier,
of its colours, for at most the Fame of each colour's strongest token."""

from __future__ import annotations

import pytest

from console.runner import Console
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE, rules_setup
from engines.mageknight import actions as A
from engines.mageknight.content import HIDDEN
from engines.mageknight.state import State

SEATS = [SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")]


def picking(**options: object) -> State:
    state = ENGINE.new_game(Setup(seats=SEATS, options={"mode": "duel", "pick": "true", "seed": 3, **options}),
                            SeededDice(1))
    assert isinstance(state, State)
    return state


def test_M51_duel_pick_budget_is_the_strongest_deal_of_the_site() -> None:
    state = picking(tier=2, site="rampaging")  # a tier 2 rampaging challenge deals two green tokens
    assert state.enemies == [] and state.pick_left == 2 and state.pick_budget == 8  # two greens of Fame 4
    decision = ENGINE.decision(state)
    assert decision is not None and decision.seats == [1] and decision.kind == "pick_encounter"
    assert "budget" not in decision.params  # the public prompt never tells what is left
    values = [o.value for o in decision.options]
    assert "g_brutes" in values and "done" not in values and "r_elder" not in values  # the site's colours only


def test_M51_duel_pick_spends_the_budget_and_hides_the_picks_from_the_fighter() -> None:
    state = picking(tier=2, site="rampaging")
    events = ENGINE.apply(state, 1, A.Choose(value="g_brutes"), RecordedDice([]))
    secret = [e for e in events if e.key == "mk.ev.picked_secret"]
    assert secret and secret[0].private_to == [1] and secret[0].params["budget"] == 4
    public = [e for e in events if e.key == "mk.ev.picked"]
    assert public and public[0].params == {"colour": "green", "colour_key": "mk.colour.green"}
    fighter = ENGINE.view(state, 0)
    assert isinstance(fighter, State) and fighter.enemies[0].token.id == HIDDEN and fighter.pick_budget == 0
    assert ENGINE.view(state, 1).enemies[0].token.id == "g_brutes"  # type: ignore[attr-defined]
    options = [o.value for o in ENGINE.decision(state).options]  # type: ignore[union-attr]
    assert "g_brutes" not in options and "done" in options
    assert all(state.bestiary[v].fame <= 4 for v in options if v != "done")
    with pytest.raises(RuleError) as err:  # over budget now that 4 Fame are spent: not offered, refused
        ENGINE.apply(state, 1, A.Choose(value="r_elder"), RecordedDice([]))
    assert err.value.key == "mk.err.pick_token"
    ENGINE.apply(state, 1, A.Choose(value="g_tusk"), RecordedDice([]))
    assert state.pick_left == 0 and state.pending is not None and state.pending.kind == "interactive_die"
    ENGINE.apply(state, 1, A.Choose(value="black"), RecordedDice([]))
    assert state.phase == "ranged_siege" and [e.token.id for e in state.enemies] == ["g_brutes", "g_tusk"]
    assert ENGINE.view(state, 0).enemies[0].token.id == "g_brutes"  # type: ignore[attr-defined]  # A0: revealed


def test_M51_duel_pick_done_early_and_never_with_no_enemy() -> None:
    state = picking(tier=2, site="rampaging")
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, A.Choose(value="done"), RecordedDice([]))
    assert err.value.key == "mk.err.pick_one_first"
    ENGINE.apply(state, 1, A.Choose(value="g_tusk"), RecordedDice([]))
    ENGINE.apply(state, 1, A.Choose(value="fatto"), RecordedDice([]))  # Italian "done"
    assert len(state.enemies) == 1 and state.pending is not None and state.pending.kind == "interactive_die"


def test_M51_duel_without_pick_still_deals_one_enemy() -> None:
    state = ENGINE.new_game(Setup(seats=SEATS, options={"mode": "duel", "seed": 3}), SeededDice(1))
    assert isinstance(state, State) and len(state.enemies) == 1 and state.pending.kind == "interactive_die"  # type: ignore[union-attr]
    with pytest.raises(RuleError):  # pick is a duel option only
        ENGINE.validate_options({"mode": "challenge", "pick": "true"})


async def test_M51_duel_pick_at_the_table_keeps_the_picks_secret(console: Console) -> None:
    await console.run(["/as alice", '/game new mageknight options:"mode:duel pick:true tier:2 seed:3"',
                       "/as bob", "/game join", "/as alice", "/game start"])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert "@bob, a choice is needed: Pick in secret the enemies" in output, output[-2000:]
    await console.run(["/as bob", "/complete /mk choose option:brut", '/mk choose option:"g_brutes"'])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert "(only bob) You picked" in output and "4 Fame left" in output
    public = [line for line in output.splitlines() if not line.startswith("(only")]
    assert not any("Brutes" in line and "picked" in line for line in public)
    assert "An enemy token is picked: its back is green." in output
    await console.run(["/as alice", "/complete /mk choose option:"])
    assert "Done: start with these enemies" not in console.output.getvalue()  # type: ignore[attr-defined]
    await console.run(["/as bob", "/mk choose option:done", "/mk choose option:black"])
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]


def test_M51_legal_actions_of_the_pick_are_the_tokens_it_accepts() -> None:
    """The engine contract: ``legal_actions`` lists exactly what ``apply`` accepts. During the pick it listed
    the die's six faces (the question after it), which the pick refuses: a random duel found it."""
    state = picking(tier=2, site="rampaging")
    legal = ENGINE.legal_actions(state, 1)
    assert [a.value for a in legal] == [value for value, _token in rules_setup.pick_options(state)]  # type: ignore[attr-defined]
    assert "red" not in [a.value for a in legal]  # type: ignore[attr-defined]
    for action in legal:  # each accepted
        ENGINE.apply(state.model_copy(deep=True), 1, action, RecordedDice([]))
    ENGINE.apply(state, 1, legal[0], RecordedDice([]))
    assert "done" in [a.value for a in ENGINE.legal_actions(state, 1)]  # type: ignore[attr-defined]


def test_M51_an_absent_opponent_s_autopilot_picks_an_encounter_the_pick_accepts() -> None:
    """Issue 32.2's autopilot takes the first legal option: a token within the budget, not a die face."""
    state = picking(tier=2, site="rampaging")
    while state.pending is not None and state.pending.kind == "pick_encounter":
        move = ENGINE.autopilot(state, 1)
        assert move is not None
        ENGINE.apply(state, 1, move, RecordedDice([]))
    assert state.enemies and state.pending is not None and state.pending.kind == "interactive_die"
