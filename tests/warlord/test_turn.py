"""Set-up and the turn: deck-building, starting-army, ready/draw/initiative phases, order-phase and passing."""

from __future__ import annotations

import copy

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.warlord.content import deck_by_id
from engines.warlord.packs import builtin
from engines.warlord.rules_deck import validate_deck
from engines.warlord.rules_turn import draw_cards, roll_initiative
from tests.warlord.builders import ARMY_A, ARMY_B, E, act, battle, deploy, fresh, hand, rejected

ARMY_A_CHOICE = {"kind": "starting_army", "warlord": "Thane Brannoc Ironvow",
                 "level1": ["Shieldwall Recruit", "Hearth Acolyte", "Tunnel Scout"],
                 "level2": ["Axe Sergeant", "Vault Wisp"]}
ARMY_B_CHOICE = {"kind": "starting_army", "warlord": "Vorga the Cinder Queen",
                 "level1": ["Horde Grunt", "Horde Grunt", "Sneak Knife"],
                 "level2": ["Ember Hexer", "Tusked Brute"]}


ACTIONS = {c.id for c in builtin().cards if c.type == "action"}
ITEMS = {c.id for c in builtin().cards if c.type == "item"}


# -- deck-building --------------------------------------------------------------------
def test_deck_building_both_builtin_decks_are_legal_and_fifty_cards():
    pack = builtin()
    for deck in pack.decks:
        validate_deck(pack, deck)
        assert sum(deck.cards.values()) == 50


def _deck(change):
    pack = builtin().model_copy(deep=True)
    deck = deck_by_id(pack, "stonewardens")
    change(deck.cards)
    return pack, deck


@pytest.mark.parametrize("change, key", [
    (lambda c: c.__setitem__("shieldwall_recruit", 2), "warlord.err.deck_too_small"),
    (lambda c: c.__setitem__("stone_helm", 4), "warlord.err.deck_copies"),
    (lambda c: c.update({k: (0 if k in ACTIONS else 3 if k in ITEMS else n) for k, n in c.items()}),
     "warlord.err.deck_type_over_half"),
    (lambda c: c.update(vorga=1, shieldwall_recruit=2), "warlord.err.deck_warlords"),
])
def test_deck_building_rejections_name_the_rule(change, key):
    pack, deck = _deck(change)
    if key == "warlord.err.deck_warlords":
        pack.cards.append(next(c for c in builtin().cards if c.id == "vorga"))
    with pytest.raises(RuleError) as err:
        validate_deck(pack, deck)
    assert err.value.key == key and err.value.rule == "deck-building"


def test_deck_building_epic_allows_one_copy():
    pack = builtin().model_copy(deep=True)
    helm = next(c for c in pack.cards if c.id == "stone_helm")
    helm.traits.append("Epic")
    deck = deck_by_id(pack, "stonewardens")
    deck.cards["stone_helm"] = 2
    with pytest.raises(RuleError) as err:
        validate_deck(pack, deck)
    assert err.value.key == "warlord.err.deck_copies"


# -- starting-army ----------------------------------------------------------------------
def test_starting_army_scenario1_simultaneous_secret_then_ranks_of_three_two_one_all_ready():
    state = fresh()
    d = E.decision(state)
    assert d.kind == "starting_army" and d.simultaneous and d.secret and d.seats == [0, 1]
    events = act(state, 0, ARMY_A_CHOICE)
    assert [e.key for e in events if not e.private_to] == ["warlord.ev.army_chosen"]
    assert E.decision(state).seats == [1]
    other = E.view(state, 1).player(0)
    assert other.army_choice is not None and other.army_choice.warlord == ""  # the choice stays secret
    act(state, 1, ARMY_B_CHOICE)
    for p in state.players:
        assert [len(r) for r in p.ranks] == [3, 2, 1]
        assert all(state.chars[u].state == "ready" and state.chars[u].wounds == 0 for r in p.ranks for u in r)
        assert p.hand == []  # no opening hand: the draw phase fills it
    assert state.phase == "draw" and state.turn == 1 and E.decision(state).kind == "draw_discard"


@pytest.mark.parametrize("change, key", [
    ({"level1": ["Shieldwall Recruit", "Hearth Acolyte", "Glade Warden"]}, "warlord.err.army_faction"),
    ({"level2": ["Axe Sergeant", "Hired Crossbowman"]}, "warlord.err.army_faction"),  # reading §6.12
    ({"level1": ["Shieldwall Recruit", "Hearth Acolyte", "Axe Sergeant"]}, "warlord.err.army_level"),
    ({"warlord": "Gatewarden Captain"}, "warlord.err.army_not_warlord"),
])
def test_starting_army_rejections(change, key):
    state = fresh()
    err = rejected(state, 0, {**ARMY_A_CHOICE, **change})
    assert err.key == key and err.rule == "starting-army"


def test_starting_army_unique_twice_is_rejected():
    state = fresh()
    gate = next(c for c in state.cards_def.values() if c.id == "axe_sergeant")
    gate.traits.append("Unique")
    err = rejected(state, 0, {**ARMY_A_CHOICE, "level2": ["Axe Sergeant", "Axe Sergeant"]})
    assert err.key == "warlord.err.army_unique"


# -- ready-phase ----------------------------------------------------------------------
def test_ready_phase_scenario2_turns_every_card_one_step():
    state, a, _b = battle(ARMY_A, ARMY_B)
    spent, stunned, ready = a[0]
    state.chars[spent].state, state.chars[stunned].state = "spent", "stunned"
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "pass"})  # all passed in a row: turn 2 starts with the ready phase
    assert state.turn == 2
    assert [state.chars[u].state for u in (spent, stunned, ready)] == ["ready", "spent", "ready"]


# -- draw-phase -----------------------------------------------------------------------
def _to_draw(state):
    act(state, 0, ARMY_A_CHOICE)
    act(state, 1, ARMY_B_CHOICE)


def test_draw_phase_first_draw_fills_hands_to_five_secretly():
    state = fresh()
    _to_draw(state)
    act(state, 0, {"kind": "draw_discard", "cards": []})
    events = act(state, 1, {"kind": "draw_discard", "cards": []}, RecordedDice([15, 9]))
    assert [len(p.hand) for p in state.players] == [5, 5]
    private = [e for e in events if e.key == "warlord.ev.drew_cards"]
    assert {tuple(e.private_to) for e in private} == {(0,), (1,)}
    assert state.phase == "orders" and state.initiative == [0, 1]


def test_draw_phase_scenario3_discard_then_draw_up_to_hand_size():
    state = fresh()
    _to_draw(state)
    p = state.player(0)
    p.hand = [p.deck_pool.pop(), p.deck_pool.pop()]
    keep, drop = p.hand
    assert E.decision(state).seats == [0]  # bob's hand is empty: nothing to ask him
    act(state, 0, {"kind": "draw_discard", "cards": [drop]}, RecordedDice([15, 9]))
    assert len(p.hand) == 5 and keep in p.hand and p.discard == [drop]


def test_draw_phase_full_hand_draws_nothing_and_keeps_six():
    state = fresh()
    _to_draw(state)
    p = state.player(0)
    p.hand = [p.deck_pool.pop() for _ in range(6)]
    act(state, 0, {"kind": "draw_discard", "cards": []}, RecordedDice([15, 9]))
    assert len(p.hand) == 6


def test_draw_phase_empty_deck_is_never_reshuffled():
    state = fresh()
    p = state.player(0)
    p.discard = p.deck_pool[2:]
    p.deck_pool = p.deck_pool[:2]
    p.hand = []
    drawn = draw_cards(state, 0, 4, RecordedDice([]))
    assert len(drawn) == 2 and p.deck_pool == [] and len(p.discard) == 48


# -- initiative-phase -----------------------------------------------------------------
def test_initiative_phase_scenario4_ties_reroll_then_winner_leads_clockwise():
    state, _, _ = battle(ARMY_A, ARMY_B)
    events = roll_initiative(state, RecordedDice([12, 12, 9, 15]))
    assert state.initiative == [1, 0] and state.order_seat == 1
    assert [e.rolls for e in events if e.key == "warlord.ev.initiative_rolled"] == [[12, 12], [9, 15]]


def test_initiative_phase_only_tied_leaders_reroll_natural_20_counts_20_plus_bonus():
    state = fresh(3)
    for seat, army in ((0, ARMY_A), (1, ARMY_B), (2, ARMY_A)):
        deploy(state, seat, army)
    roll_initiative(state, RecordedDice([14, 14, 6, 3, 18]))
    assert state.initiative_rolls == [{"0": 14, "1": 14, "2": 6}, {"0": 3, "1": 18}]
    assert state.initiative == [1, 2, 0]
    from engines.warlord.state import Modifier
    warlord = state.player(0).warlord
    state.chars[warlord].mods.append(Modifier(id="m", source="test", stat="initiative", amount=3))
    roll_initiative(state, RecordedDice([20, 19, 5]))
    assert state.initiative_rolls == [{"0": 23, "1": 19, "2": 5}]


# -- order-phase / passing ------------------------------------------------------------
def test_order_phase_scenario5_two_passes_in_a_row_end_the_turn():
    state, a, _b = battle(ARMY_A, ARMY_B)
    act(state, 0, {"kind": "maneuver", "char": a[0][0], "to": "same", "position": 2})
    act(state, 1, {"kind": "pass"})
    assert state.order_seat == 0 and state.consecutive_passes == 1
    act(state, 0, {"kind": "pass"})
    assert state.turn == 2 and state.phase == "draw"


def test_passing_scenario5_forfeits_nothing_an_order_resets_the_counter():
    state, _a, b = battle(ARMY_A, ARMY_B)
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "maneuver", "char": b[0][0], "to": "same", "position": 1})
    assert state.consecutive_passes == 0 and state.order_seat == 0
    hand(state, 0, "shieldwall_recruit")
    act(state, 0, {"kind": "recruit", "card": "Shieldwall Recruit"})
    act(state, 1, {"kind": "pass"})
    assert state.turn == 1
    act(state, 0, {"kind": "pass"})
    assert state.turn == 2


def test_order_phase_only_the_seat_whose_order_it_is_may_act():
    state, a, _b = battle(ARMY_A, ARMY_B)
    err = rejected(state, 1, {"kind": "pass"})
    assert err.key == "warlord.err.not_your_turn"
    err = rejected(state, 0, {"kind": "reform", "char": a[0][0]})
    assert err.key == "warlord.err.answer_first"


def test_order_phase_max_turns_option_ends_in_a_draw():
    state, _, _ = battle(ARMY_A, ARMY_B)
    state.options["max_turns"] = 1
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "pass"})
    assert E.outcome(state).winners == [] and E.decision(state) is None
    assert copy.deepcopy(state).phase == "over"


# -- turn-structure ---------------------------------------------------------------------
def test_turn_structure_ready_draw_initiative_orders_then_a_new_turn():
    state = fresh()
    act(state, 0, ARMY_A_CHOICE)
    events = act(state, 1, ARMY_B_CHOICE)
    assert [e.key for e in events][-2:] == ["warlord.ev.turn_started", "warlord.ev.readied"]
    act(state, 0, {"kind": "draw_discard", "cards": []})
    events = act(state, 1, {"kind": "draw_discard", "cards": []}, RecordedDice([3, 17]))
    keys = [e.key for e in events]
    assert keys.index("warlord.ev.drew") < keys.index("warlord.ev.initiative_rolled") < keys.index(
        "warlord.ev.initiative_won")
    assert state.phase == "orders" and state.order_seat == 1 and E.decision(state).kind == "turn"
    act(state, 1, {"kind": "pass"})
    act(state, 0, {"kind": "pass"})
    assert state.turn == 2 and state.phase == "draw" and E.decision(state).seats == [0, 1]


def test_draw_phase_an_empty_hand_is_never_asked_while_another_holds_cards():
    """draw-phase: a playtester who had played out their hand was asked to discard every turn, in secret,
    and the table waited for them. A hand's size is public, so leaving it out tells nobody anything."""
    state = fresh()
    _to_draw(state)
    state.player(1).hand = [state.player(1).deck_pool.pop()]
    d = E.decision(state)
    assert (d.seats, d.secret) == ([1], True)
    assert E.decision(E.view(state, 0)).seats == [1]  # every view asks the same seats
    with pytest.raises(RuleError):
        act(state, 0, {"kind": "draw_discard", "cards": []})  # alice is not asked
    act(state, 1, {"kind": "draw_discard", "cards": []}, RecordedDice([15, 9]))
    assert state.phase != "draw" and len(state.player(0).hand) == 5  # the draw finished for both


def test_draw_phase_a_game_saved_waiting_for_an_empty_hand_is_answered_in_public():
    """A game saved before empty hands were left out: the holder has chosen, the empty hand is still
    waited for. It is asked in public (only "discard nothing" is legal), so the table answers it."""
    state = fresh()
    _to_draw(state)
    state.player(0).hand = [state.player(0).deck_pool.pop()]
    state.player(0).discard_choice = []
    d = E.decision(state)
    assert (d.kind, d.seats, d.secret) == ("draw_discard", [1], False)
    assert [a.model_dump() for a in E.legal_actions(state, 1)] == [{"kind": "draw_discard", "cards": []}]
    act(state, 1, {"kind": "draw_discard", "cards": []}, RecordedDice([15, 9]))
    assert state.phase != "draw"
