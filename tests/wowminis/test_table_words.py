"""How the WoW Miniatures table words events (what a player reads in the channel and the log)."""

from __future__ import annotations

import gm.games.wowminis.presenter  # noqa: F401  (registers the presenter)
from engines.core.events import Event
from gm.table.replies import event_text


def test_a_critical_with_no_extra_hits_says_its_rider_fires_never_plus_zero_hits() -> None:
    rider = Event(key="wowm.ev.critical", params={"ability": "Longbow Volley", "extra": 0})
    assert event_text(rider, "en", "wowminis") == "Critical! Longbow Volley fires its critical effect."
    assert event_text(rider, "it", "wowminis") == "Critico! Raffica d'Arco Lungo attiva il suo effetto critico."
    more = Event(key="wowm.ev.critical", params={"ability": "Hammer of Dawn", "extra": 2})
    assert event_text(more, "en", "wowminis") == "Critical! Hammer of Dawn (+2 hits)."


def test_a_closing_tick_is_not_said_twice() -> None:
    """"End of tick 1." then "Tick 1 ends." then "Tick 2 (round 1).": the middle line adds nothing."""
    assert event_text(Event(key="wowm.ev.tick_ended", params={"tick": 1, "round": 1}), "en", "wowminis") == ""
    assert event_text(Event(key="wowm.ev.tick_ending", params={"tick": 1}), "en", "wowminis") == "End of tick 1."


def test_dice_lines_read_the_faces_without_the_raw_numbers_again() -> None:
    """A d10's 0 is the critical face: the raw 10 must not follow the worded faces."""
    dice = Event(key="wowm.ev.dice", params={"name": "Brannoc", "kind": "attack", "faces": [3, 0, 8]},
                 rolls=[3, 10, 8])
    line = event_text(dice, "en", "wowminis")
    assert line.startswith("🎲 Brannoc") and "💥0" in line and " 10" not in line and line.count("🎲") == 1


def test_plural_ticks_follow_the_cost() -> None:
    one = Event(key="wowm.ev.ability_played", params={"name": "A", "ability": "B", "cost": 1, "tick": 2})
    assert event_text(one, "en", "wowminis") == "A plays B (1 tick, now at tick 2)."
    assert event_text(one, "it", "wowminis") == "A gioca B (1 scatto, ora allo scatto 2)."
