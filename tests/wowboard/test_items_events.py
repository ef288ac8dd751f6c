"""The Bag, the merchant's track item, consumables and the event step (items.3, items.6,
end-of-faction-turn.3, events.1–8, overlord.3; worked examples W23, W24, W25)."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard.content import Pack
from engines.wowboard.rules_events import (
    EventStep,
    boss_defeated,
    closed_flight_areas,
    event_step,
    factions_for,
    move_overlord,
    track_step,
)
from engines.wowboard.rules_items import receive, resolve_overflow, track_item, use_consumable
from engines.wowboard.rules_quests import defeat_figure, draw_quest, reward
from engines.wowboard.state import State
from tests.wowboard.test_quests import PACK, cards_ok, on_top, table, totals_ok


def stack_events(state: State, *cards: str) -> None:
    """The event deck with these cards on top, the first named drawn first."""
    for card in cards:
        state.event_deck.take(card)
    state.event_deck.top = list(cards)


def with_events(monkeypatch: pytest.MonkeyPatch, *extra: tuple[str, str]) -> Pack:
    """The built-in pack plus copies of event cards (new id, same title): a second copy of a bonus event."""
    events = list(PACK.events)
    for new_id, of in extra:
        events.append(next(e for e in PACK.events if e.id == of).model_copy(update={"id": new_id, "destiny": 2}))
    pack = PACK.model_copy(update={"events": events})
    for module in ("rules_quests", "rules_items", "rules_events"):
        monkeypatch.setattr(f"engines.wowboard.{module}.pack_of", lambda _state: pack)
    return pack


def test_items_3_a_fourth_item_opens_the_overflow_and_the_chosen_one_goes_to_the_merchant_for_nothing():
    state = table()
    warden = state.characters["warden"]
    for item in ("militia_axe", "quilted_robe", "leather_cap"):
        state.item_decks["triangle"].take(item)
        assert [e.key for e in receive(state, "warden", item)] == ["wowboard.ev.item_received"]
    state.item_decks["triangle"].take("barbed_arrows")
    assert receive(state, "warden", "barbed_arrows")[-1].key == "wowboard.ev.bag_overflow"
    with pytest.raises(RuleError) as err:
        resolve_overflow(state, "warden", "dawnsplitter")
    assert err.value.key == "wowboard.err.not_in_bag" and err.value.rule == "items.3"
    gold = warden.gold
    resolve_overflow(state, "warden", "quilted_robe")
    assert warden.bag == ["militia_axe", "leather_cap", "barbed_arrows"] and state.merchant[-1] == "quilted_robe"
    assert warden.gold == gold
    with pytest.raises(RuleError) as err:
        resolve_overflow(state, "warden", "militia_axe")
    assert err.value.key == "wowboard.err.no_overflow"
    cards_ok(state)


def test_items_6_a_used_consumable_goes_to_the_bottom_of_its_deck():
    state = table()
    state.item_decks["triangle"].take("healing_draught")
    state.item_decks["triangle"].take("militia_axe")
    state.characters["cantor"].bag = ["healing_draught", "militia_axe"]
    use_consumable(state, "cantor", "healing_draught")
    assert state.item_decks["triangle"].bottom == ["healing_draught"] and state.characters["cantor"].bag == [
        "militia_axe"]
    with pytest.raises(RuleError) as err:
        use_consumable(state, "cantor", "militia_axe")
    assert err.value.key == "wowboard.err.not_consumable" and err.value.rule == "items.6"
    cards_ok(state)


def test_end_of_faction_turn_3_an_item_icon_puts_the_decks_next_card_face_up_on_the_merchant():
    state = table()
    state.turn = 11  # square icon
    before = len(state.item_decks["square"])
    events = track_item(state, RecordedDice([]))
    assert len(state.item_decks["square"]) == before - 1 and events[0].params["item"] == state.merchant[-1]
    assert events[0].reveals_hidden
    state.turn = 12  # no item icon (an event icon)
    assert track_item(state, RecordedDice([])) == []


def test_events_2_w23_a_bonus_event_then_a_normal_one_which_stays_face_up_and_ends_the_step():
    # wowboard:W23
    state = table()
    stack_events(state, "ev_caravan", "ev_market_day", "ev_grave_mist")
    merchant = len(state.merchant)
    out = event_step(state, RecordedDice([]))
    assert [e.params["title"] for e in out.events if e.key.endswith("event_drawn")] == [
        "Caravan Arrives", "Market Day"]
    assert len(state.merchant) == merchant + 3  # 2 triangle, then 1 square
    assert state.event_discard == ["ev_caravan"] and state.events_active == ["ev_market_day"]
    assert state.event_deck.top == ["ev_grave_mist"]
    event_step(state, RecordedDice([]))  # reading: a resolved normal card leaves at the next event step
    assert state.event_discard == ["ev_caravan", "ev_market_day"] and state.events_active == ["ev_grave_mist"]


def test_events_2_w24_a_repeated_bonus_title_is_discarded_unresolved_and_ends_the_step(monkeypatch):
    # wowboard:W24
    with_events(monkeypatch, ("ev_caravan_2", "ev_caravan"))
    state = table()
    stack_events(state, "ev_caravan", "ev_rumours", "ev_caravan_2", "ev_market_day")
    merchant = len(state.merchant)
    out = event_step(state, RecordedDice([]))
    assert out.events[-1].key == "wowboard.ev.event_repeat"
    assert state.event_discard == ["ev_caravan", "ev_rumours", "ev_caravan_2"] and not state.events_active
    assert len(state.merchant) == merchant + 2 and out.quest_draws == ["horde", "alliance"]
    assert state.overlord is not None and state.overlord.route_pos == 1  # reading 22: rumours (1) only, not 2


def test_events_7_overlord_3_the_wanderer_loops_its_route_and_wounds_whoever_stands_where_it_stops():
    state = table()
    lord = PACK.overlords[0]
    out = EventStep()
    move_overlord(state, PACK, 2, out)
    assert state.overlord is not None and state.overlord.region == lord.route[2]
    state.overlord.route_pos = len(lord.route) - 1
    warden, ranger = state.characters["warden"], state.characters["ranger"]
    warden.region = ranger.region = lord.route[lord.loop_from + 1]
    warden.health, ranger.health = 8, 1
    move_overlord(state, PACK, 2, out)  # last region -> loop_from -> loop_from + 1
    assert state.overlord.route_pos == lord.loop_from + 1
    assert warden.health == 7 and ranger.health == 0 and out.defeated == ["ranger"]
    assert [e.key.rsplit(".", 1)[1] for e in out.events][-4:] == [
        "overlord_moved", "wounded", "wounded", "character_felled"]


def test_events_8_an_empty_event_deck_is_rebuilt_from_the_discards():
    state = table()
    state.event_discard = [*state.event_deck.cards()]
    state.event_deck.pool = []
    out = event_step(state, RecordedDice([]))
    assert out.events[0].key == "wowboard.ev.event_deck_reshuffled"
    assert len(state.event_deck) + len(state.event_discard) + len(state.events_active) == 12


def test_events_4_w25_stronger_and_weaker_factions_by_total_xp_equal_totals_make_both_stronger():
    # wowboard:W25
    state = table()
    assert factions_for(state, "stronger") == ["horde", "alliance"] and factions_for(state, "weaker") == []
    state.characters["warden"].xp, state.characters["arcanist"].xp = 13, 14  # 27
    state.characters["ranger"].xp, state.characters["cantor"].xp = 14, 9  # 23
    assert factions_for(state, "stronger") == ["horde"] and factions_for(state, "weaker") == ["alliance"]
    stack_events(state, "ev_bounty")
    out = event_step(state, RecordedDice([]))
    assert [e.params["name"] for e in out.events if e.key.endswith("wounded")] == ["warden", "arcanist"]


def test_events_5_a_boss_event_marks_its_region_and_stays_until_the_boss_is_beaten():
    state = table()
    stack_events(state, "ev_hollow_knight")
    event_step(state, RecordedDice([]))
    assert state.bosses == {"hollow_knight": "barrow_fields"} and state.events_active == ["ev_hollow_knight"]
    stack_events(state, "ev_market_day")
    event_step(state, RecordedDice([]))
    assert "ev_hollow_knight" in state.events_active
    boss_defeated(state, "hollow_knight")
    assert state.bosses == {} and state.events_active == ["ev_market_day"] and "ev_hollow_knight" in \
        state.event_discard


def test_events_1_a_modifier_closes_flights_until_a_quest_with_a_creature_in_its_area_is_completed():
    state = table()
    stack_events(state, "ev_storm")
    event_step(state, RecordedDice([]))
    assert closed_flight_areas(state) == {"C"}
    on_top(state, "horde", "yellow", "H-Y01")  # a webspinner at eagle_spire (area C)
    draw_quest(state, "horde", "yellow", RecordedDice([]))
    for fid in list(state.quests[-1].figures):
        defeat_figure(state, fid)
    res = reward(state, "H-Y01", ["warden"], RecordedDice([]))
    assert res.events[-1].key == "wowboard.ev.event_ended" and closed_flight_areas(state) == set()
    assert state.event_discard == ["ev_storm"]


def test_event_ops_spawn_curse_regain_gold_on_the_table():
    state = table()
    state.characters["ranger"].region = "crossroads"  # area D
    state.characters["warden"].xp = 5
    state.characters["ranger"].health = 2
    stack_events(state, "ev_tithe", "ev_rally")  # tithe: +2 gold to the weaker; rally: weaker to full health
    event_step(state, RecordedDice([]))
    assert state.characters["ranger"].gold == 7 and state.characters["warden"].gold == 5
    assert state.characters["ranger"].health == 6
    stack_events(state, "ev_wolves")
    left = state.supply["dunecur"]["blue"]  # two of the three blue ones already stand for set-up quests
    event_step(state, RecordedDice([]))
    wolves = sum(f.region == "wolfden" and f.type == "dunecur" and f.quest is None for f in state.figures.values())
    assert wolves == min(2, left) and state.supply["dunecur"]["blue"] == left - wolves  # quests.4: what it can
    stack_events(state, "ev_grave_mist")
    event_step(state, RecordedDice([]))
    assert state.characters["ranger"].curse == 1 and state.characters["cantor"].curse == 0
    totals_ok(state)


def test_track_step_item_then_event_icon():
    state = table()
    state.turn = 30  # event icon (30) and no item icon; 29 has the square
    stack_events(state, "ev_market_day")
    out = track_step(state, RecordedDice([]))
    assert [e.key.rsplit(".", 1)[1] for e in out.events][:2] == ["event_drawn", "merchant_item"]
