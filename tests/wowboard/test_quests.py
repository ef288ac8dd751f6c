"""Set-up of the table, quests and rewards (setup.5–7, quests.2–5, quest-rewards.1–8; worked examples W2,
W17–W22, W39), plus a property test that cards and figures are conserved."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard import rules_quests
from engines.wowboard.content import Pack, builtin
from engines.wowboard.content_cards import ItemDraw, Rewards
from engines.wowboard.engine import WowBoardEngine
from engines.wowboard.rules_items import BAG_LIMIT, resolve_overflow
from engines.wowboard.rules_quests import (
    completed,
    defeat_figure,
    draw_quest,
    keep_item,
    next_deck_options,
    reward,
    take_special,
)
from engines.wowboard.rules_setup_content import setup_content
from engines.wowboard.state import State

E = WowBoardEngine()
PACK = builtin()


def table(duel: bool = False, picks: list[int] | None = None) -> State:
    """A drafted game (as test_turn builds it) with its content set up by ``setup_content``."""
    seats = [SeatSetup(seat=0, user_id=1, name="ann"), SeatSetup(seat=1, user_id=2, name="bo")]
    state = E.new_game(Setup(seats=seats, options={"duel": duel}), RecordedDice([], picks=[0]))
    for cls in (["warden", "ranger"] if duel else ["warden", "ranger", "arcanist", "cantor"]):
        E.apply(state, E.decision(state).seats[0], E.parse_action({"kind": "pick_class", "class_id": cls}),
                RecordedDice([]))
    setup_content(state, PACK, RecordedDice([], picks=picks or []))
    return state


def on_top(state: State, faction: str, colour: str, *cards: str) -> None:
    """Stack a quest deck: the first card named is drawn first."""
    deck = state.quest_decks[faction][colour]
    for card in cards:
        assert deck.take(card), card  # a search reshuffles the deck, so take them all first
    for card in reversed(cards):
        deck.put_top(card)


def custom(monkeypatch: pytest.MonkeyPatch, card: str, **changes: object) -> Pack:
    """The built-in pack with one quest card changed (the worked examples' numbers)."""
    quests = [q.model_copy(update=changes) if q.id == card else q for q in PACK.quests]
    pack = PACK.model_copy(update={"quests": quests})
    for module in ("rules_quests", "rules_items", "rules_events"):
        monkeypatch.setattr(f"engines.wowboard.{module}.pack_of", lambda _state: pack)
    return pack


def totals_ok(state: State) -> None:
    """§3.7: per type and tier, supply + figures on the map = the pack's totals."""
    on_map = Counter((f.type, f.tier) for f in state.figures.values())
    for c in PACK.creatures:
        for tier, n in c.supply.items():
            assert state.supply[c.id][tier] + on_map[(c.id, tier)] == n, (c.id, tier)


def cards_ok(state: State) -> None:
    """§3.7: each quest and item card in exactly one place."""
    quests = [*state.quest_discard, *state.quests_boxed, *(q.card for q in state.quests),
              *(c for decks in state.quest_decks.values() for d in decks.values() for c in d.cards())]
    assert sorted(quests) == sorted(q.id for q in PACK.quests)
    items = [*state.merchant, *state.special, *(c for d in state.item_decks.values() for c in d.cards()),
             *(i for ch in state.characters.values() for i in ch.bag)]
    assert sorted(items) == sorted(i.id for i in PACK.items)


def test_setup_6_item_decks_shuffled_special_kept_aside_merchant_starts_3_triangle_2_square_1_circle():
    state = table()
    decks = {i.id: i.deck for i in PACK.items}
    assert Counter(decks[i] for i in state.merchant) == {"triangle": 3, "square": 2, "circle": 1}
    assert {k: len(d) for k, d in state.item_decks.items()} == {"triangle": 13, "square": 6, "circle": 3}
    assert len(state.special) == 6 and all(not d.top and not d.bottom for d in state.item_decks.values())
    cards_ok(state)


def test_setup_7_w39_four_characters_start_with_3_grey_and_1_green_leftover_grey_leave_the_game():
    # wowboard:W39
    state = table()
    for faction in ("horde", "alliance"):
        colours = Counter(rules_quests.quest_card(PACK, q.card).colour for q in state.quests if q.faction == faction)
        assert colours == {"grey": 3, "green": 1}
        assert len(state.quest_decks[faction]["grey"]) == 0 and len(state.quest_decks[faction]["green"]) == 5
    assert len(state.quests_boxed) == 2
    assert all(q.figures and all(state.figures[f].quest == q.card for f in q.figures) for q in state.quests)
    totals_ok(state)
    cards_ok(state)


def test_setup_7_duel_reads_as_the_reduced_3_grey_plus_1_green():
    state = table(duel=True)
    assert len(state.quests) == 8 and len(state.quests_boxed) == 2


def test_setup_5_8_overlord_on_its_start_side_4_event_deck_shuffled_class_decks_public():
    # wowboard:setup.8
    state = table()
    assert state.overlord is not None and (state.overlord.region, state.overlord.side) == ("crown_peak", "4")
    assert len(state.event_deck) == 12 and not state.event_discard
    assert state.class_decks["warden"] == [k.id for k in PACK.class_cards if k.class_id == "warden"]


def test_quests_2_grey_is_never_drawn_after_set_up():
    state = table()
    with pytest.raises(RuleError) as err:
        draw_quest(state, "horde", "grey", RecordedDice([]))
    assert err.value.key == "wowboard.err.quest_colour" and err.value.rule == "quests.2"


def test_quests_3_w2_blue_independent_without_token_quest_creature_with_the_faction_token():
    # wowboard:W2
    state = table()
    on_top(state, "alliance", "yellow", "A-Y03")
    events = draw_quest(state, "alliance", "yellow", RecordedDice([]))
    assert events[0].key == "wowboard.ev.quest_drawn" and events[0].reveals_hidden
    new = {f.region: f for f in list(state.figures.values())[-2:]}
    assert (new["wolfden"].type, new["wolfden"].tier, new["wolfden"].quest, new["wolfden"].faction) == (
        "webspinner", "blue", None, None)
    assert (new["gull_rock"].tier, new["gull_rock"].quest, new["gull_rock"].faction) == ("red", "A-Y03", "alliance")
    assert state.quests[-1].card == "A-Y03" and state.quests[-1].figures == [new["gull_rock"].id]
    totals_ok(state)


def test_quests_4_a_short_independent_is_skipped_the_quest_still_spawns():
    state = table()
    state.supply["webspinner"]["blue"] = 0
    on_top(state, "alliance", "yellow", "A-Y03")
    events = draw_quest(state, "alliance", "yellow", RecordedDice([]))
    assert [e.key for e in events] == ["wowboard.ev.quest_drawn", "wowboard.ev.independent_short"]
    assert not any(f.type == "webspinner" and f.tier == "blue" for f in state.figures.values())
    assert state.quests[-1].card == "A-Y03"


def test_quests_4_a_short_quest_creature_sends_the_card_to_the_bottom_and_the_faction_draws_again():
    state = table()
    state.supply["tidewyrm"]["red"] = 0
    on_top(state, "alliance", "yellow", "A-Y03", "A-Y01")
    before = len(state.figures)
    events = draw_quest(state, "alliance", "yellow", RecordedDice([]))
    assert [e.key for e in events] == ["wowboard.ev.quest_scarce", "wowboard.ev.quest_drawn"]
    assert state.quest_decks["alliance"]["yellow"].bottom == ["A-Y03"]
    assert state.quests[-1].card == "A-Y01" and len(state.figures) == before + 1


def test_quests_4_reading_8_when_every_card_of_the_colour_fails_no_quest_and_another_colour_is_asked():
    state = table()
    for kind in state.supply.values():
        for tier in kind:
            kind[tier] = 0
    n = len(state.quests)
    events = draw_quest(state, "horde", "red", RecordedDice([]))
    assert events[-1].key == "wowboard.ev.quest_deck_failed"
    assert [e.key for e in events].count("wowboard.ev.quest_scarce") == 4
    assert len(state.quests) == n and len(state.quest_decks["horde"]["red"]) == 4
    assert next_deck_options(state, "horde", failed=["red"]) == ["green", "yellow"]
    cards_ok(state)


def test_quest_rewards_8_next_deck_options_are_the_non_empty_green_yellow_red_decks():
    state = table()
    assert next_deck_options(state, "horde") == ["green", "yellow", "red"]
    state.quest_decks["horde"]["yellow"].pool.clear()
    assert next_deck_options(state, "horde") == ["green", "red"]


def test_quests_5_w17_the_quest_completes_when_its_green_creature_falls_the_blue_one_stays():
    # wowboard:W17
    state = table()
    on_top(state, "horde", "green", "H-E04")
    draw_quest(state, "horde", "green", RecordedDice([]))
    quest = state.quests[-1]
    blue = next(f for f in state.figures.values() if f.region == "redthorn_pass" and f.tier == "blue")
    first, second = quest.figures
    assert [e.key for e in defeat_figure(state, first)] == ["wowboard.ev.figure_defeated"]
    assert quest not in completed(state)  # quests.5: partial progress earns nothing
    assert defeat_figure(state, second)[-1].key == "wowboard.ev.quest_completed"
    assert completed(state) == [quest] and blue.id in state.figures
    totals_ok(state)


def test_w18_quest_rewards_are_granted_in_order_gold_xp_items_special():
    # wowboard:W18
    state = table()
    on_top(state, "alliance", "yellow", "A-Y03")
    draw_quest(state, "alliance", "yellow", RecordedDice([]))
    for fid in list(state.quests[-1].figures):
        defeat_figure(state, fid)
    res = reward(state, "A-Y03", ["ranger"], RecordedDice([]))
    keys = [e.key.rsplit(".", 1)[1] for e in res.events]
    assert keys[:4] == ["reward_gold", "reward_xp", "level_up", "items_drawn"]
    assert [(o.deck, len(o.cards)) for o in res.offers] == [("square", 2), ("triangle", 2)]
    assert res.special_options == ["bellkeepers_ring", "tidecaller_charm"]
    ranger = state.characters["ranger"]
    assert (ranger.gold, ranger.xp, ranger.level) == (15, 10, 2) and res.levels == {"ranger": [2]}  # 7 + 3 bonus
    # levels.3: refilled to the level-2 capacity, the Hornfolk face's +2 health included
    assert (ranger.health, ranger.energy) == (10, 5)
    assert "A-Y03" in state.quest_discard and all(q.card != "A-Y03" for q in state.quests)


def _complete(state: State, card: str, faction: str, colour: str) -> None:
    on_top(state, faction, colour, card)
    draw_quest(state, faction, colour, RecordedDice([]))
    for fid in list(state.quests[-1].figures):
        defeat_figure(state, fid)


def test_quest_rewards_3_w19_level_2_quest_l2_priest_and_l3_hunter_share_4_xp_as_2_and_1():
    # wowboard:W19
    state = table()
    _complete(state, "H-E01", "horde", "green")  # level 2, 4 XP, 5 gold
    state.characters["warden"].level, state.characters["warden"].xp = 3, 11
    state.characters["arcanist"].level, state.characters["arcanist"].xp = 2, 5
    reward(state, "H-E01", ["arcanist", "warden"], RecordedDice([]))
    assert (state.characters["arcanist"].xp, state.characters["warden"].xp) == (7, 12)
    assert (state.characters["arcanist"].gold, state.characters["warden"].gold) == (8, 7)  # remainder: least XP


def test_quest_rewards_4_w20_only_the_lowest_xp_member_below_the_level_gets_the_bonus(monkeypatch):
    # wowboard:W20
    custom(monkeypatch, "H-E04", level=3, rewards=Rewards(gold=0, xp=4))
    state = table()
    _complete(state, "H-E04", "horde", "green")
    state.characters["warden"].level, state.characters["warden"].xp = 3, 11
    state.characters["arcanist"].level, state.characters["arcanist"].xp = 2, 5
    reward(state, "H-E04", ["warden", "arcanist"], RecordedDice([]))
    assert (state.characters["warden"].xp, state.characters["arcanist"].xp) == (13, 8)
    _complete(state, "H-E06", "horde", "green")  # level 3, 6 XP: two level-2 members, one bonus
    state.characters["warden"].level, state.characters["warden"].xp = 2, 6
    state.characters["arcanist"].level, state.characters["arcanist"].xp = 2, 8
    reward(state, "H-E06", ["arcanist", "warden"], RecordedDice([]))
    assert (state.characters["warden"].xp, state.characters["arcanist"].xp) == (10, 11)


def test_quest_rewards_2_w21_a_fallen_member_gets_its_xp_share_and_levels_but_no_gold():
    # wowboard:W21
    state = table()
    _complete(state, "H-E01", "horde", "green")
    warden, arcanist = state.characters["warden"], state.characters["arcanist"]
    arcanist.xp, arcanist.health = 3, 1
    res = reward(state, "H-E01", ["warden", "arcanist"], RecordedDice([]), fallen=["arcanist"])
    assert (warden.gold, arcanist.gold) == (10, 5) and (warden.xp, arcanist.xp) == (3, 5)  # warden: the bonus
    assert res.levels == {"arcanist": [2]} and arcanist.health == 8  # refilled: level-2 capacity 6, Hornfolk +2


def test_quest_rewards_2_everyone_down_means_no_completion():
    state = table()
    _complete(state, "H-E01", "horde", "green")
    res = reward(state, "H-E01", ["warden"], RecordedDice([]), fallen=["warden"])
    assert not res.events and state.characters["warden"].xp == 0 and completed(state)[0].card == "H-E01"


def test_quest_rewards_5_6_w22_draw_keep_one_rejects_to_the_bottom_special_searched_then_bag_overflow(monkeypatch):
    # wowboard:W22
    # wowboard:quest-rewards.6 wowboard:items.1
    items = [ItemDraw(deck="triangle", draw=2), ItemDraw(deck="triangle", draw=2), ItemDraw(deck="square", draw=1)]
    custom(monkeypatch, "H-Y01", rewards=Rewards(gold=0, xp=0, items=items, special_choice=["vigil_lantern"]))
    state = table()
    _complete(state, "H-Y01", "horde", "yellow")
    res = reward(state, "H-Y01", ["arcanist"], RecordedDice([]))
    assert [len(o.cards) for o in res.offers] == [2, 2, 1] and all(e.reveals_hidden for e in res.events
                                                                   if e.key.endswith("items_drawn"))
    rejected = []
    for offer in res.offers:
        keep_item(state, "arcanist", offer.cards[0], offer.cards[1:])
        rejected += offer.cards[1:]
    assert state.item_decks["triangle"].bottom == rejected and len(state.characters["arcanist"].bag) == BAG_LIMIT
    with pytest.raises(RuleError):
        take_special(state, "arcanist", "westwind_cloak", res.special_options)
    events = take_special(state, "arcanist", "vigil_lantern", res.special_options)
    assert events[-1].key == "wowboard.ev.bag_overflow" and "vigil_lantern" not in state.special  # reading §6.30
    old = state.characters["arcanist"].bag[0]
    resolve_overflow(state, "arcanist", old)
    assert state.merchant[-1] == old and len(state.characters["arcanist"].bag) == BAG_LIMIT
    cards_ok(state)


def test_quest_rewards_5_a_kept_card_cannot_also_be_rejected():
    state = table()
    with pytest.raises(RuleError) as err:
        keep_item(state, "warden", "militia_axe", ["militia_axe"])
    assert err.value.rule == "quest-rewards.5"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["draw", "defeat", "reward"]), st.integers(0, 50)), max_size=25),
       st.lists(st.integers(0, 30), max_size=40))
def test_invariant_cards_and_figures_are_conserved_across_quest_draws_defeats_and_rewards(steps, picks):
    state = table(picks=[p % 2 for p in picks[:6]])
    dice = RecordedDice([1, 2, 1, 2] * 30)
    for kind, n in steps:
        faction = ("horde", "alliance")[n % 2]
        if kind == "draw":
            options = next_deck_options(state, faction)
            if options:
                draw_quest(state, faction, options[n % len(options)], dice)
        elif kind == "defeat" and state.figures:
            defeat_figure(state, sorted(state.figures)[n % len(state.figures)])
        elif kind == "reward" and completed(state):
            q = completed(state)[0]
            members = [c.id for c in state.of_faction(q.faction)][: 1 + n % 2]
            res = reward(state, q.card, members, dice)
            for offer in res.offers:
                keep_item(state, members[0], offer.cards[0], offer.cards[1:])
                while len(state.characters[members[0]].bag) > BAG_LIMIT:
                    resolve_overflow(state, members[0], state.characters[members[0]].bag[n % 4])
        totals_ok(state)
        cards_ok(state)
        assert all(f in state.figures for q in state.quests for f in q.figures)
        assert all(len(c.bag) <= BAG_LIMIT for c in state.characters.values())


def test_quests_4_reading_8_a_colour_that_failed_is_not_offered_again_in_the_same_draw():
    """Every colour fails in turn (no creature left to spawn): each is offered once, then the draw ends with no
    question left. The question used to offer every colour but the last one tried, so two failing decks were
    offered one after the other forever (an autopilot seat never got out of it)."""
    from engines.core.dice import SeededDice
    from engines.wowboard import ENGINE
    from engines.wowboard.state import Pending

    state = table()
    for kind in state.supply.values():
        for tier in kind:
            kind[tier] = 0
    seats = [s.seat for s in state.seats if s.faction == "horde"]
    options = next_deck_options(state, "horde")
    state.pending.insert(0, Pending(kind="next_quest_deck", seats=seats, faction="horde", options=options,
                                    default=options[0]))
    failed: list[str] = []
    for _ in range(10):
        top = state.pending[0] if state.pending else None
        if top is None or top.kind != "next_quest_deck":
            break
        events = ENGINE.apply(state, top.seats[0], {"kind": "choose", "value": top.options[0]}, SeededDice(1))  # type: ignore[arg-type]
        failed += [str(e.params["colour"]) for e in events if e.key == "wowboard.ev.quest_deck_failed"]
    assert sorted(failed) == sorted(options)  # each colour tried once (the last one left needs no question)
    assert not any(p.kind == "next_quest_deck" for p in state.pending)
