"""Wars (events.6, end-of-faction-turn.4): a pair of war tokens on the card's two regions; the faction opposed
to the one whose turn ends wins when it stands in both; its reward; the tokens and the card then leave; four
colours at most."""

from __future__ import annotations

from common import i18n
from engines.core.dice import SeededDice
from engines.wowboard import ENGINE
from engines.wowboard.rules_turn import end_steps
from engines.wowboard.rules_war import war_check, war_regions
from engines.wowboard.state import State
from tests.wowboard.issue30_tables import full_table, side, stack_events

MILL = "ev_war_mill"  # mill_on_the_brook + watchtower_ruin, 3 gold a character


def _war(*cards: str) -> State:
    state = full_table()
    state.turn = 2
    stack_events(state, *cards)
    end_steps(state, SeededDice(1))
    return state


def test_events_6_a_war_card_puts_one_colour_of_tokens_on_its_two_regions_and_stays_face_up() -> None:
    state = _war(MILL)
    assert state.wars == {MILL: "red"} and MILL in state.events_active
    assert war_regions(state) == {"mill_on_the_brook": ["red"], "watchtower_ruin": ["red"]}
    assert state.active == "alliance"  # a war is a normal card: it ended the event step, play goes on


def test_events_6_the_opposing_faction_wins_at_the_end_of_the_other_factions_turn_and_the_tokens_go() -> None:
    state = _war(MILL)  # the Horde's turn ended; now the Alliance acts
    horde, alliance = side(state, "horde"), side(state, "alliance")
    horde[0].region, horde[1].region = "mill_on_the_brook", "watchtower_ruin"
    gold = {c.id: c.gold for c in state.characters.values()}
    state.active = "horde"
    assert war_check(state) == []  # at the end of its own turn the Horde cannot win (end-of-faction-turn.4)
    state.active = "alliance"
    assert MILL in state.wars  # nothing is checked in the middle of a turn
    for c in [*alliance, *alliance]:  # the Alliance's characters pass twice; its turn ends; the Horde holds both
        ENGINE.apply(state, c.seat, {"kind": "pass", "character": c.id}, SeededDice(2))  # type: ignore[arg-type]
    events = []
    for seat in sorted({c.seat for c in alliance}):
        events += ENGINE.apply(state, seat, {"kind": "management_done"}, SeededDice(2))  # type: ignore[arg-type]
    won = next(e for e in events if e.key == "wowboard.ev.war_won")
    assert won.params["faction"] == "horde" and won.params["n"] == 3
    assert all(c.gold == gold[c.id] + 3 for c in horde) and all(c.gold == gold[c.id] for c in alliance)
    assert state.wars == {} and MILL not in state.events_active and MILL in state.event_discard


def test_events_6_one_region_is_not_enough_and_a_fallen_character_does_not_hold_a_region() -> None:
    state = _war(MILL)  # the Alliance is active: a check now is the one at the end of its turn, for the Horde
    horde = side(state, "horde")
    horde[0].region = "mill_on_the_brook"
    assert war_check(state) == [] and MILL in state.wars
    horde[1].region, horde[1].health = "watchtower_ruin", 0
    assert war_check(state) == [] and MILL in state.wars
    horde[1].health = 1
    assert war_check(state)[0].key == "wowboard.ev.war_won"


def test_events_6_several_wars_take_the_four_colours_and_a_fifth_finds_no_tokens() -> None:
    state = full_table()
    from engines.wowboard.rules_common import pack_of
    from engines.wowboard.rules_war import declare_war

    pack = pack_of(state)
    cards = [e for e in pack.events if e.kind == "war"][:4]  # the full deck has four war cards
    cards += [cards[0].model_copy(update={"id": f"war_copy_{n}"}) for n in range(4 - len(cards))]
    fifth = cards[0].model_copy(update={"id": "war_copy_fifth"})
    colours = [declare_war(state, c)[0].params.get("token") for c in cards]
    assert colours == ["red", "blue", "green", "yellow"]
    events = declare_war(state, fifth)
    assert events[0].key == "wowboard.ev.war_no_tokens" and "war_copy_fifth" in state.event_discard
    assert len(state.wars) == 4


def test_events_6_every_war_word_exists_in_both_languages() -> None:
    for key in ("war_declared", "war_no_tokens", "war_won"):
        assert i18n.has(f"wowboard.ev.{key}", "en") and i18n.has(f"wowboard.ev.{key}", "it")
    for colour in ("red", "blue", "green", "yellow"):
        assert i18n.has(f"wowboard.ui.war_colour.{colour}", "it")
