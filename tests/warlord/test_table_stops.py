"""``react_prompts: stops`` at the table (reacts): what the channel reads during an attack — the window
lines, who is asked, the buttons — is the same whether or not the asked seat holds a react card."""

from __future__ import annotations

from engines.core.dice import SeededDice
from engines.warlord import ENGINE
from engines.warlord.state import State
from gm.games.warlord.presenter import PRESENTER
from gm.table.replies import event_text
from tests.warlord.builders import battle, hand


def _public_story(react_in_hand: bool) -> list[str]:
    """Every public line of one attack, window by window, with the defender passing each time."""
    state, ua, ub = battle([["shieldwall_recruit"]], [["sneak_knife"]])
    state.options["react_prompts"] = "stops"
    hand(state, 1, "dirty_trick" if react_in_hand else "tusked_brute")  # a react that fits, or a character
    dice = SeededDice(3)
    story: list[str] = []
    events = ENGINE.apply(state, 0, {"kind": "attack", "attacker": ua[0][0]}, dice)
    events += ENGINE.apply(state, 0, {"kind": "strike", "target": ub[0][0]}, dice)
    for _ in range(20):
        public = ENGINE.view(state, None)
        assert isinstance(public, State)
        story += [event_text(e, "en", "warlord") for e in events if not e.private_to]
        decision = ENGINE.decision(state)
        if decision is None or decision.kind != "react":
            break
        seat = decision.seats[0]
        story.append(PRESENTER.summary(public, lang="en", seat_names=["alice", "bob"]))
        story.append(f"asks {seat}: {decision.params.get('trigger')}")
        story += [b.label for b in PRESENTER.buttons("1.1", public, seat=seat, lang="en")]
        events = ENGINE.apply(state, seat, {"kind": "pass_react"}, dice)
    return story


def test_stops_mode_prompts_the_same_whatever_the_hand_holds() -> None:
    with_react, without = _public_story(True), _public_story(False)
    assert any(line.startswith("asks 1: ") for line in with_react)  # the defender is asked (its stops)
    assert with_react == without
