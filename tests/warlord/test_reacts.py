"""Reacts and react feats through the reaction windows (reacts, feats, spec §5 scenarios 20–26)."""
# Cards of spec §4.2 this file plays: warlord:A1 warlord:A10 warlord:A2 warlord:A3 warlord:A4 warlord:A5 warlord:A6
# warlord:A7 warlord:A9 warlord:B1 warlord:B2 warlord:B3 warlord:B4 warlord:B5 warlord:B6 warlord:B7 warlord:I4
# warlord:I5 warlord:X1 warlord:X6 warlord:X7 warlord:Y1 warlord:Y3 warlord:Y8 warlord:Y9


from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.warlord.actions import PassReact, parse_action
from engines.warlord.rules_common import armor, atk_values
from engines.warlord.rules_stack import drive
from engines.warlord.rules_turn import roll_initiative
from engines.warlord.state import State
from tests.warlord.builders import ARMY_A, ARMY_B, WARLORD_A, WARLORD_B, E, act, battle, carry, hand

A_FRONT_FIGHTERS = [["axe_sergeant", "shieldwall_recruit", "hearth_acolyte"], ["tunnel_scout", "runecarver_adept"],
                    [WARLORD_A]]


def _card(state: State, uid: str) -> str:
    return uid if uid.startswith("feat:") else state.cards[uid].card


def until_asked(state: State, dice, seat: int, source: str):
    """Pass every window until ``seat`` is asked and may play ``source`` (a card id or ``feat:x``)."""
    for _ in range(40):
        d = E.decision(state)
        assert d is not None and d.kind == "react", d
        if seat in d.seats:
            options = [o for o in E.legal_actions(state, seat) if o.kind == "react"]
            found = [o for o in options if _card(state, o.source) == source]
            if found:
                return found
        E.apply(state, seat if seat in d.seats else d.seats[0], PassReact(), dice)
    raise AssertionError(f"seat {seat} was never offered {source}")


def react(state: State, seat: int, option, dice):
    return E.apply(state, seat, option, dice)


def pass_all(state: State, dice) -> list:
    events: list = []
    while (d := E.decision(state)) is not None and d.kind == "react":
        events += E.apply(state, d.seats[0], PassReact(), dice)
    return events


def keys(events) -> list[str]:
    return [e.key.removeprefix("warlord.ev.") for e in events]


def test_reacts_scenario20_initiative_winner_is_asked_first_then_clockwise():
    state, a, b = battle(A_FRONT_FIGHTERS, ARMY_B)
    state.initiative = [1, 0]  # seat 1 won the initiative although seat 0 attacks
    sergeant, knife = a[0][0], b[0][2]
    hand(state, 1, "dirty_trick")
    dice = RecordedDice([20, 15])
    act(state, 0, {"kind": "attack", "attacker": sergeant}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": knife}, dice, windows=True)
    d = E.decision(state)
    # both are asked at once, listed in initiative order: the winner first, then clockwise
    assert (d.kind, d.seats, d.params["trigger"], d.simultaneous, d.secret) == ("react", [1, 0], "before_roll",
                                                                                True, True)
    (pa,) = [o for o in E.legal_actions(state, 0) if o.kind == "react"]
    events = react(state, 0, pa, dice)  # the striker answers first: Powerattack waits for the winner
    assert "feat_check" not in keys(events) and E.decision(state).seats == [1]
    events = E.apply(state, 1, PassReact(), dice)  # the winner passes: the Powerattack plays (natural 20)
    # everyone who still could answer is asked again: the winner (its hand holds a card); the striker's one
    # feat is used for the turn and its hand is empty, so it is not asked
    assert "feat_check" in keys(events) and E.decision(state).seats == [1]
    (trick,) = [o for o in E.legal_actions(state, 1) if o.kind == "react"]
    events = react(state, 1, trick, dice)  # −4 to this strike only
    events += pass_all(state, dice)
    rolled = next(e for e in events if e.key.endswith("strike_rolled"))
    assert (rolled.params["bonus"], rolled.params["total"], rolled.params["hit"]) == (-1, 14, True)
    assert knife not in state.chars


def test_reacts_scenario20_21_two_copies_of_brace_for_impact_each_reduce_the_same_packet():
    state, a, b = battle([["oathkeeper_veteran", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant",
                                                                                    "runecarver_adept"], [WARLORD_A]],
                         [["ash_reaver", "horde_grunt", "bone_shaman"], ["ember_hexer", "sneak_knife"], [WARLORD_B]])
    state.initiative, state.order_seat = [1, 0], 1
    veteran, acolyte, scout = a[0]
    first, second = hand(state, 0, "brace_for_impact"), hand(state, 0, "brace_for_impact")
    dice = RecordedDice([20, 15])
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": veteran}, dice, windows=True)
    react(state, 1, until_asked(state, dice, 1, "feat:powerattack")[0], dice)  # 2 wounds if it hits
    options = until_asked(state, dice, 0, "brace_for_impact")
    assert {o.source for o in options} == {first, second}
    react(state, 0, next(o for o in options if o.source == first and o.performer == acolyte), dice)
    options = until_asked(state, dice, 0, "brace_for_impact")
    assert {o.source for o in options} == {second} and all(o.performer != acolyte for o in options)  # spent now
    events = react(state, 0, next(o for o in options if o.performer == scout), dice)
    events += pass_all(state, dice)
    assert "no_wounds" in keys(events) and state.chars[veteran].wounds == 0
    assert state.chars[acolyte].state == "spent" and state.chars[scout].state == "spent"  # scenario 21: Spend React
    assert {first, second} <= set(state.player(0).discard)


def test_reacts_brace_for_impact_answers_the_wounds_of_an_orders_failed_save():
    """reacts (issue 27.2): "before one of your characters suffers wounds" is a moment of every wound, not only
    a strike's: Vorga's order (a failed magic save, one wound) opens the before-wounds window, and Brace for
    Impact cancels the wound that killed Axe Sergeant with no window."""
    state, a, b = battle(A_FRONT_FIGHTERS, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    sergeant, vorga = a[0][0], b[2][0]
    brace = hand(state, 0, "brace_for_impact")
    dice = RecordedDice([3])  # the save: 3 + skill < 17
    act(state, 1, {"kind": "use_order", "source": vorga, "target": sergeant}, dice, windows=True)
    option = until_asked(state, dice, 0, "brace_for_impact")[0]  # one option per performer
    assert E.decision(state).params["trigger"] == "before_wounds"
    assert sergeant in state.chars and state.chars[sergeant].wounds == 0  # the save failed, the wound waits
    events = react(state, 0, option, dice) + pass_all(state, dice)
    assert "no_wounds" in keys(events) and sergeant in state.chars and state.chars[sergeant].wounds == 0
    assert brace in state.player(0).discard


def test_reacts_scenario22_runed_greataxe_one_card_answers_once_host_and_target_both_die():
    state, a, b = battle(A_FRONT_FIGHTERS, [["tusked_brute", "horde_grunt", "bone_shaman"],
                                            ["ember_hexer", "sneak_knife"], [WARLORD_B]])
    sergeant, brute = a[0][0], b[0][0]
    axe = carry(state, sergeant, "runed_greataxe")  # +2 ATK; after a hit: +2 wounds, 1 wound to the bearer
    dice = RecordedDice([10])
    act(state, 0, {"kind": "attack", "attacker": sergeant}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": brute}, dice, windows=True)
    (greataxe,) = until_asked(state, dice, 0, "runed_greataxe")
    events = react(state, 0, greataxe, dice)
    assert "killed" in keys(events)  # the bearer has 1 HP
    d = E.decision(state)
    offered = E.legal_actions(state, d.seats[0]) if d.kind == "react" else []
    assert not any(o.kind == "react" and o.source == axe for o in offered)
    events += pass_all(state, dice)
    placed = next(e for e in events if e.key.endswith("wounds_placed") and e.params["name"] == state.name(brute))
    assert placed.params["n"] == 3 and brute not in state.chars and sergeant not in state.chars
    assert axe in state.player(0).discard and brute in state.player(1).discard


def test_feats_riposte_scenario25_warlord_dies_mid_attack_and_the_game_ends_at_once():
    state, a, b = battle([["shieldwall_recruit", WARLORD_A, "hearth_acolyte"]],
                         [["tusked_brute", "horde_grunt", "bone_shaman"], ["ember_hexer", "sneak_knife"], [WARLORD_B]])
    thane, brute = a[0][1], b[0][0]
    state.chars[thane].wounds = 2  # HP 3
    dice = RecordedDice([2, 16, 19])  # Thane misses; Riposte +3 feat +1 skill: 16 + 4 = 20; the strike back: 19
    act(state, 0, {"kind": "attack", "attacker": thane}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": brute}, dice, windows=True)
    (riposte,) = until_asked(state, dice, 1, "feat:riposte")
    events = react(state, 1, riposte, dice)
    events += pass_all(state, dice)
    assert "warlord_killed" in keys(events) and state.phase == "over" and state.winners == [1]
    assert state.attack is None and state.stack == [] and E.decision(state) is None  # second strike never made


def test_feats_scenario26_defend_only_for_a_neighbour_and_the_strike_keeps_its_bonus():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    recruit, acolyte, scout = a[0]
    dice = RecordedDice([18, 10])
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)
    state_far = state.model_copy(deep=True)
    act(state, 1, {"kind": "strike", "target": acolyte}, dice, windows=True)
    (defend,) = until_asked(state, dice, 0, "feat:defend")
    assert defend.performer == recruit
    events = react(state, 0, defend, dice)  # skill 0 + Defend 2 + natural 18 = 20
    assert "redirected" in keys(events)
    events = pass_all(state, dice)
    rolled = next(e for e in events if e.key.endswith("strike_rolled"))
    assert rolled.params["target"] == state.name(recruit) and rolled.params["bonus"] == 2
    assert recruit not in state.chars and acolyte in state.chars
    act(state_far, 1, {"kind": "strike", "target": scout}, RecordedDice([]), windows=True)  # two places away
    d = E.decision(state_far)
    assert d.kind != "react" or not any(o.kind == "react" and o.source == "feat:defend"
                                        for o in E.legal_actions(state_far, d.seats[0]))


def test_feats_magic_resistance_cancels_a_spell_and_defend_may_answer_a_spell_too():
    state, a, b = battle([["mountain_chaplain", "shieldwall_recruit", "hearth_acolyte"], ["axe_sergeant",
                                                                                        "runecarver_adept"],
                          [WARLORD_A]], ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    chaplain, hexer = a[0][0], b[1][0]
    bolt = hand(state, 1, "searing_bolt")
    dice = RecordedDice([13])
    act(state, 1, {"kind": "play_order", "card": bolt, "performer": hexer, "target": chaplain}, dice, windows=True)
    d = E.decision(state)
    assert (d.kind, d.params["trigger"]) == ("react", "targeted")
    options = until_asked(state, dice, 0, "feat:magic_resistance")
    sources = {o.source for o in E.legal_actions(state, 0) if o.kind == "react"}
    assert sources == {"feat:magic_resistance", "feat:defend"}
    events = react(state, 0, options[0], dice)  # skill 5 + 2 + 13 = 20
    events += pass_all(state, dice)
    assert "action_cancelled" in keys(events) and state.chars[chaplain].wounds == 0
    assert state.chars[hexer].state == "spent" and bolt in state.player(1).discard


def test_ranks_scenario7_hold_the_line_keeps_the_states_of_the_reform():
    state, a, _b = battle(ARMY_A, ARMY_B)
    card = hand(state, 0, "hold_the_line")
    for uid in a[0][:2]:
        state.chars[uid].wounds = 9
    dice = RecordedDice([])
    drive(state, dice)
    (option,) = [o for o in until_asked(state, dice, 0, "hold_the_line") if o.performer == a[1][0]]
    assert E.decision(state).params["trigger"] == "reforming"
    react(state, 0, option, dice)
    pass_all(state, dice)
    assert E.decision(state).kind == "reform"
    act(state, 0, {"kind": "reform", "char": a[1][1]})
    assert state.chars[a[1][1]].state == "ready" and card in state.player(0).discard
    assert E.decision(state).kind == "turn" and state.reform_free == []


def test_initiative_phase_ill_omen_after_the_rolls_changes_the_winner():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    omen = hand(state, 1, "ill_omen")
    dice = RecordedDice([15, 13])
    roll_initiative(state, dice)
    drive(state, dice)
    assert state.initiative == [0, 1]
    (option, *_) = until_asked(state, dice, 1, "ill_omen")
    events = react(state, 1, option, dice)
    assert "initiative_changed" in keys(events) and state.initiative == [1, 0]
    pass_all(state, dice)
    d = E.decision(state)
    assert (d.kind, d.seats) == ("turn", [1]) and omen in state.player(1).discard


def test_initiative_phase_ill_omen_tie_rerolls_the_tied_leaders():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    hand(state, 1, "ill_omen")
    dice = RecordedDice([15, 12, 4, 9])
    roll_initiative(state, dice)
    drive(state, dice)
    react(state, 1, until_asked(state, dice, 1, "ill_omen")[0], dice)  # 12 + 3 = 15: a tie, both reroll
    assert state.initiative == [1, 0]  # 4 + 0 against 9 + 3


def test_reacts_vanish_cancels_a_melee_strike():
    state, a, b = battle(A_FRONT_FIGHTERS, [["smoke_phantom", "horde_grunt", "bone_shaman"],
                                            ["ember_hexer", "sneak_knife"], [WARLORD_B]])
    phantom = b[0][0]
    vanish = hand(state, 1, "vanish")
    dice = RecordedDice([])
    act(state, 0, {"kind": "attack", "attacker": a[0][0]}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": phantom}, dice, windows=True)
    (option,) = until_asked(state, dice, 1, "vanish")
    events = react(state, 1, option, dice)
    events += pass_all(state, dice)
    assert "strike_cancelled" in keys(events) and not any(e.key.endswith("strike_rolled") for e in events)
    assert state.chars[phantom].state == "spent" and vanish in state.player(1).discard


def test_reacts_counterblow_after_a_miss_strikes_the_striker_with_the_first_atk():
    state, a, b = battle([["oathkeeper_veteran", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant",
                                                                                    "runecarver_adept"], [WARLORD_A]],
                         ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    veteran, grunt = a[0][0], b[0][0]
    hand(state, 0, "counterblow")
    dice = RecordedDice([3, 9])
    act(state, 1, {"kind": "attack", "attacker": grunt}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": veteran}, dice, windows=True)
    (option,) = until_asked(state, dice, 0, "counterblow")
    assert E.decision(state).params["trigger"] == "after_miss"
    events = react(state, 0, option, dice)
    events += pass_all(state, dice)
    back = [e for e in events if e.key.endswith("strike_rolled")][-1]
    assert (back.params["striker"], back.params["bonus"], back.params["total"]) == (state.name(veteran), 4, 13)
    assert grunt not in state.chars  # AC 11


def test_feats_powerattack_adds_a_wound_only_on_a_hit():
    state, a, b = battle(A_FRONT_FIGHTERS, [["tusked_brute", "horde_grunt", "bone_shaman"],
                                            ["ember_hexer", "sneak_knife"], [WARLORD_B]])
    brute = b[0][0]  # 2 HP, AC 12
    dice = RecordedDice([16, 9])  # skill 1 + Powerattack 3 + 16 = 20; strike 9 + 3 = 12
    act(state, 0, {"kind": "attack", "attacker": a[0][0]}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": brute}, dice, windows=True)
    react(state, 0, until_asked(state, dice, 0, "feat:powerattack")[0], dice)
    pass_all(state, dice)
    assert brute not in state.chars
    assert "feat:powerattack" in state.chars[a[0][0]].used  # once per turn


def test_feats_charisma_rerolls_a_strike_of_a_character_in_the_same_rank():
    state, a, b = battle([["axe_sergeant", "mountain_chaplain", "hearth_acolyte"], ["tunnel_scout",
                                                                                  "runecarver_adept"], [WARLORD_A]],
                         ARMY_B)
    grunt = b[0][0]
    dice = RecordedDice([5, 12, 18])  # miss with 5; Charisma 5 + 3 + 12 = 20; reroll 18
    act(state, 0, {"kind": "attack", "attacker": a[0][0]}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": grunt}, dice, windows=True)
    (option,) = until_asked(state, dice, 0, "feat:charisma")
    assert E.decision(state).params["trigger"] == "after_roll" and option.performer == a[0][1]
    react(state, 0, option, dice)
    pass_all(state, dice)
    assert grunt not in state.chars


def test_ready_spent_stunned_a_stunned_character_cannot_react():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    state.chars[a[0][0]].state = "stunned"  # the recruit with Defend
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, windows=True)
    act(state, 1, {"kind": "strike", "target": a[0][1]}, RecordedDice([5]), windows=True)
    d = E.decision(state)
    assert d.kind != "react" or d.params["trigger"] != "targeted"


def _decisions_while_passing(with_react: bool) -> list[tuple]:
    state, a, b = battle([["hearth_acolyte", "tunnel_scout", "glade_warden"], ["runecarver_adept",
                                                                              "hired_crossbowman"], [WARLORD_A]],
                         ARMY_B, )
    state.options["react_prompts"] = "stops"
    state.initiative, state.order_seat = [1, 0], 1
    hand(state, 0, "brace_for_impact" if with_react else "stone_helm")
    dice = RecordedDice([12, 14])
    seen = []
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": a[0][0]}, dice, windows=True)
    while (d := E.decision(state)) is not None and d.kind == "react":
        seen.append((d.kind, tuple(d.seats), tuple(sorted(d.params.items()))))
        E.apply(state, d.seats[0], parse_action({"kind": "pass_react"}), dice)
    return seen


def test_reacts_stops_mode_prompts_are_the_same_whether_or_not_the_seat_holds_a_react():
    with_react, without = _decisions_while_passing(True), _decisions_while_passing(False)
    assert with_react == without
    assert any(seats == (0,) for _, seats, _ in with_react)  # the defender is asked at its default stops


def test_reacts_auto_mode_asks_nobody_when_no_react_could_answer_the_moment():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    act(state, 1, {"kind": "attack", "attacker": b[0][1]}, windows=True)  # the shaman: no feats
    # the scout: no neighbour with Defend
    act(state, 1, {"kind": "strike", "target": a[0][2]}, RecordedDice([5]), windows=True)
    assert E.decision(state).kind != "react"


def test_reacts_an_earlier_seats_react_plays_first_and_sets_a_later_answer_aside():
    """Answers given at once take effect in initiative order: the winner's react, given last, plays first; the
    striker's Powerattack, chosen without knowing it, is set aside (privately) and the striker asked again."""
    state, a, b = battle(A_FRONT_FIGHTERS, ARMY_B)
    state.initiative = [1, 0]
    sergeant, knife = a[0][0], b[0][2]
    hand(state, 1, "dirty_trick")
    dice = RecordedDice([20, 15])
    act(state, 0, {"kind": "attack", "attacker": sergeant}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": knife}, dice, windows=True)
    (pa,) = [o for o in E.legal_actions(state, 0) if o.kind == "react"]
    assert react(state, 0, pa, dice)[-1].private_to == [0]  # what seat 0 chose, only seat 0 hears
    assert E.view(state, 1).stack[-1].answers == {0: {"kind": "answered"}}  # the others see that it answered
    (trick,) = [o for o in E.legal_actions(state, 1) if o.kind == "react"]
    events = react(state, 1, trick, dice)
    assert "react_played" in keys(events) and "feat_check" not in keys(events)
    aside = next(e for e in events if e.key.endswith("react_set_aside"))
    assert aside.private_to == [0] and E.decision(state).seats == [0]  # seat 1's hand is empty now


def test_reacts_who_is_asked_never_depends_on_the_hand():
    """No leak: a seat holding Brace for Impact and one holding a card that cannot react are asked alike
    (its deck list has React cards and its hand is not empty: both public)."""
    asked = []
    for card in ("brace_for_impact", "stone_helm"):
        state, a, b = battle(ARMY_A, ARMY_B)
        state.initiative, state.order_seat = [1, 0], 1
        hand(state, 0, card)
        dice = RecordedDice([12, 14, 12, 14])
        act(state, 1, {"kind": "attack", "attacker": b[0][1]}, dice, windows=True)
        act(state, 1, {"kind": "strike", "target": a[0][2]}, dice, windows=True)
        seen = []
        while (d := E.decision(state)) is not None and d.kind == "react":
            seen.append((d.params["trigger"], tuple(d.seats)))
            E.apply(state, d.seats[0], PassReact(), dice)
        asked.append(seen)
    assert asked[0] == asked[1] and any(0 in seats for _, seats in asked[0])


def test_reacts_a_pre_set_pass_skips_windows_that_do_not_concern_the_seat():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    hand(state, 0, "brace_for_impact")
    events = E.apply(state, 0, parse_action({"kind": "set_preset", "preset": "targeted"}), RecordedDice([]))
    assert events[0].private_to == [0] and E.view(state, 1).player(0).react_preset == "none"
    dice = RecordedDice([12, 14])
    act(state, 1, {"kind": "attack", "attacker": b[0][1]}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": a[0][2]}, dice, windows=True)
    while (d := E.decision(state)) is not None and d.kind == "react":  # seat 0's character is struck: asked
        E.apply(state, d.seats[0], PassReact(), dice)
    assert state.player(0).passed_once


def test_reacts_set_stops_is_private_and_checked():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    events = E.apply(state, 1, parse_action({"kind": "set_stops", "stops": ["after_miss"]}), RecordedDice([]))
    assert events[0].private_to == [1] and state.player(1).react_stops == ["after_miss"]
    try:
        E.apply(state, 1, parse_action({"kind": "set_stops", "stops": ["whenever"]}), RecordedDice([]))
    except Exception as err:
        assert getattr(err, "key", "") == "warlord.err.bad_stop"
    else:
        raise AssertionError("accepted")


def test_reacts_yield_for_the_turn_skips_the_seat_until_the_next_turn():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    dice = RecordedDice([5, 5, 5, 5, 5, 5])
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": a[0][1]}, dice, windows=True)
    until_asked(state, dice, 0, "feat:defend")
    E.apply(state, 0, parse_action({"kind": "pass_react", "yield_for": "turn"}), dice)
    assert state.player(0).yield_until == "turn"
    while (d := E.decision(state)) is not None and d.kind == "react":
        assert d.seats != [0]
        E.apply(state, d.seats[0], PassReact(), dice)
    assert armor(state, a[0][1]) == 10


def test_reacts_y2_rend_adds_three_to_this_fighters_strike_only():
    # warlord:Y2
    state, a, b = battle(ARMY_A, ARMY_B)
    state.initiative, state.order_seat = [1, 0], 1
    hand(state, 1, "rend")
    dice = RecordedDice([5, 6])
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)  # the grunt: +2
    act(state, 1, {"kind": "strike", "target": a[0][2]}, dice, windows=True)
    (option,) = [o for o in until_asked(state, dice, 1, "rend") if o.performer == b[0][0]]
    events = react(state, 1, option, dice)
    events += pass_all(state, dice)
    rolled = next(e for e in events if e.key.endswith("strike_rolled"))
    assert rolled.params["bonus"] == 5 and atk_values(state, b[0][0]) == [2]  # for this strike only
