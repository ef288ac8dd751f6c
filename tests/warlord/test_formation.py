"""Stealth and the enemy formation, Scribe, deck searches, alignment, resignation and GM overrides
(enemy-formation, feats, deck-building, characters, victory, golden-rule; spec §5 scenarios 27–29)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.warlord import rules_ranks as R
from engines.warlord.actions import PassReact
from engines.warlord.content import Ability
from tests.warlord.builders import ARMY_A, ARMY_B, WARLORD_A, WARLORD_B, E, act, battle, hand, rejected

STEALTH_A = [["glade_warden", "shieldwall_recruit", "hearth_acolyte"], ["axe_sergeant", "runecarver_adept"],
             [WARLORD_A]]


def keys(events) -> list[str]:
    return [e.key.removeprefix("warlord.ev.") for e in events]


def _sneak_in(state, warden, army: str = "army:1", natural: int = 13):
    return act(state, 0, {"kind": "use_order", "source": "feat:stealth", "performer": warden, "target": army},
               RecordedDice([natural]))  # skill 2 + Stealth 5 + 13 = 20


def test_enemy_formation_scenario27_stealth_enters_attacks_there_and_leaves_no_illegal_rank():
    state, a, b = battle(STEALTH_A, [[WARLORD_B]])
    warden, vorga = a[0][0], b[0][0]
    events = _sneak_in(state, warden)
    assert "infiltrated" in keys(events) and warden in state.player(1).ranks[0]
    assert state.chars[warden].army_of == 1 and state.chars[warden].controller == 0
    assert state.chars[warden].state == "spent"  # a Spend order
    assert E.decision(state).kind == "turn"  # its own army is 2, 2, 1: still legal
    assert R.own_ranks(state, 1) == [[vorga]] and R.is_legal(R.own_ranks(state, 1))
    state.chars[warden].state = "ready"
    state.order_seat = 0
    events = act(state, 0, {"kind": "attack", "attacker": warden}, RecordedDice([15]))
    assert "attack_declared" in keys(events)
    events = act(state, 0, {"kind": "strike", "target": vorga}, RecordedDice([19]))
    assert "strike_rolled" in keys(events)


def test_enemy_formation_an_infiltrator_cannot_equip_or_perform_action_cards():
    state, a, _b = battle(STEALTH_A, ARMY_B)
    warden = a[0][0]
    _sneak_in(state, warden)
    state.order_seat = 0
    helm = hand(state, 0, "stone_helm")
    assert rejected(state, 0, {"kind": "equip", "item": helm, "host": warden}).key == "warlord.err.no_such_card"
    bash = hand(state, 0, "shield_bash")
    err = rejected(state, 0, {"kind": "play_order", "card": bash, "performer": warden, "target": ARMY_B[0][0]})
    assert err.key == "warlord.err.no_such_card"


def test_enemy_formation_an_infiltrator_left_behind_steps_up_to_the_hosts_last_rank():
    state, a, _b = battle(STEALTH_A, ARMY_B)
    warden = a[0][0]
    _sneak_in(state, warden)
    state.player(1).ranks[0].remove(warden)
    state.player(1).ranks.append([])
    state.player(1).ranks.append([warden])  # five ranks back: behind the host's own last rank
    from engines.warlord.rules_stack import drive
    events = drive(state, RecordedDice([]))
    assert "moved" in keys(events) and warden in state.player(1).ranks[2]


def test_feats_stealth_react_cancels_a_strike_on_an_infiltrator_that_did_nothing_else():
    state, a, b = battle(STEALTH_A, ARMY_B)
    warden = a[0][0]
    _sneak_in(state, warden)
    state.order_seat = 1
    dice = RecordedDice([13])
    act(state, 1, {"kind": "attack", "attacker": b[0][0]}, dice, windows=True)
    act(state, 1, {"kind": "strike", "target": warden}, dice, windows=True)
    for _ in range(10):
        d = E.decision(state)
        options = [o for o in E.legal_actions(state, d.seats[0]) if o.kind == "react" and o.source == "feat:stealth"]
        if options:
            break
        E.apply(state, d.seats[0], PassReact(), dice)
    events = E.apply(state, 0, options[0], dice)
    while (d := E.decision(state)).kind == "react":
        events += E.apply(state, d.seats[0], PassReact(), dice)
    assert "cancelled" in keys(events) and "strike_cancelled" in keys(events) and warden in state.chars


def test_feats_stealth_is_not_once_per_turn_and_needs_a_front_rank():
    state, a, _b = battle(STEALTH_A, ARMY_B)
    warden = a[0][0]
    assert rejected(state, 0, {"kind": "use_order", "source": "feat:stealth", "performer": warden,
                               "target": "army:0"}).key == "warlord.err.stealth_army"  # its own army
    _sneak_in(state, warden)
    assert "feat:stealth" not in state.chars[warden].used


def test_feats_scribe_attaches_a_spell_then_it_is_cast_as_if_from_hand():
    state, a, b = battle(ARMY_A, ARMY_B)
    adept = a[1][1]  # wizard 2, Scribe +4, skill 3
    rune = hand(state, 0, "rune_of_shattering")
    events = act(state, 0, {"kind": "use_order", "source": "feat:scribe", "performer": adept, "target": rune},
                 RecordedDice([13]))
    assert "scribed" in keys(events) and rune in state.chars[adept].attached and rune not in state.player(0).hand
    state.order_seat = 0
    err = rejected(state, 0, {"kind": "play_order", "card": rune, "performer": a[0][2], "target": b[0][0]})
    assert err.key in ("warlord.err.scribed_holder", "warlord.err.performer_class")
    events = act(state, 0, {"kind": "play_order", "card": rune, "performer": adept, "target": b[0][0]},
                 RecordedDice([15]))
    assert "ranged_rolled" in keys(events) and rune in state.player(0).discard and not state.chars[adept].scribed


def test_feats_scribe_failure_discards_the_spell():
    state, a, _b = battle(ARMY_A, ARMY_B)
    rune = hand(state, 0, "rune_of_shattering")
    events = act(state, 0, {"kind": "use_order", "source": "feat:scribe", "performer": a[1][1], "target": rune},
                 RecordedDice([2]))
    assert "scribe_failed" in keys(events) and rune in state.player(0).discard


def test_deck_building_scenario28_searching_reveals_the_card_and_shuffles_the_deck():
    state, a, _b = battle(ARMY_A, ARMY_B)
    state.cards_def["two_paths"].abilities[1] = Ability(
        kind="order", effects=[{"retrieve": {"from": "deck", "filter": "character", "to": "hand"}}])
    paths = hand(state, 0, "two_paths")
    player = state.player(0)
    top = player.deck_pool.pop()
    player.deck_top = [top]
    events = act(state, 0, {"kind": "play_order", "card": paths, "ability": 1, "performer": a[0][0],
                            "target": "Axe Sergeant"})
    revealed = next(e for e in events if e.key.endswith("revealed"))
    assert revealed.params["name"] == "Axe Sergeant" and "shuffled" in keys(events)
    assert player.deck_top == [] and top in player.deck_pool and player.deck_pool == sorted(player.deck_pool)
    assert any(state.name(u) == "Axe Sergeant" for u in player.hand)


def test_characters_scenario29_opposite_alignment_is_relative_to_the_performer():
    state, a, b = battle(ARMY_A, [["hookblade_sellsword", "horde_grunt", "bone_shaman"], ["ember_hexer",
                                                                                        "tusked_brute"],
                                  [WARLORD_B]])
    state.cards_def["hookblade_sellsword"].alignment = "good"  # a good Mercenary under an evil Warlord
    state.cards_def["rally_cry"].abilities[0] = Ability(kind="order", targets=[
        {"choose": {"side": "any", "alignment": "opposite"}}], effects=[{"wound": {"amount": 1}}])
    state.order_seat = 1
    cry = hand(state, 1, "rally_cry")
    sellsword = b[0][0]
    err = rejected(state, 1, {"kind": "play_order", "card": cry, "performer": sellsword, "target": a[0][0]})
    assert err.key == "warlord.err.bad_target"  # good against good
    act(state, 1, {"kind": "play_order", "card": cry, "performer": sellsword, "target": b[0][1]})
    assert b[0][1] not in state.chars  # the evil grunt is the opposite of the good performer


def test_victory_a_resigning_player_leaves_and_the_last_one_wins():
    state, _a, _b = battle(ARMY_A, ARMY_B, n=2)
    events = act(state, 1, {"kind": "resign"})
    assert "resigned" in keys(events) and state.phase == "over" and state.winners == [0]


def test_victory_resigning_in_a_four_player_game_lets_the_others_play_on():
    from tests.warlord.builders import deploy, fresh
    state = fresh(4)
    for seat, army in enumerate([ARMY_A, ARMY_B, ARMY_A, ARMY_B]):
        deploy(state, seat, army)
    state.phase, state.turn, state.initiative, state.order_seat = "orders", 1, [0, 1, 2, 3], 0
    act(state, 0, {"kind": "resign"})
    assert state.phase == "orders" and state.order_seat == 1 and state.initiative == [1, 2, 3]
    assert state.player(0).ranks == [] and all(c.controller != 0 for c in state.chars.values())


def test_golden_rule_gm_overrides_are_logged_and_checked():
    state, a, b = battle(ARMY_A, ARMY_B)
    events = E.apply(state, None, E.parse_action({"kind": "gm_wounds", "char": a[0][0], "wounds": 1}),
                     RecordedDice([]))
    assert "gm_wounds" in keys(events) and a[0][0] not in state.chars  # 1 HP: dead
    E.apply(state, None, E.parse_action({"kind": "gm_wounds", "char": a[0][1], "wounds": 3}), RecordedDice([]))
    assert E.decision(state).kind == "reform"  # 1 in front of 2: the GM cannot leave an illegal army
    E.apply(state, None, E.parse_action({"kind": "gm_move", "card": b[0][0], "to": "hand"}), RecordedDice([]))
    assert b[0][0] in state.player(1).hand
    events = E.apply(state, None, E.parse_action({"kind": "gm_note", "text": "Scroll of Ash resolved"}),
                     RecordedDice([]))
    assert events[0].params["text"] == "Scroll of Ash resolved"
    try:
        E.apply(state, None, E.parse_action({"kind": "gm_move", "card": b[0][1], "to": "moon"}), RecordedDice([]))
    except Exception as err:
        assert getattr(err, "key", "") == "warlord.err.gm_zone"


def test_victory_a_resigned_seat_reads_resigned_not_warlord_fallen():
    """Issue 26: the panel of a seat that resigned said "Warlord fallen", a death that never happened."""
    from renderers.warlord.panel import player_lines
    from tests.warlord.builders import deploy, fresh
    state = fresh(3)
    for seat, army in enumerate([ARMY_A, ARMY_B, ARMY_A]):
        deploy(state, seat, army)
    state.phase, state.turn, state.initiative, state.order_seat = "orders", 1, [0, 1, 2], 0
    act(state, 2, {"kind": "resign"})
    for lang, word, wrong in (("en", "resigned", "Warlord fallen"), ("it", "ha abbandonato", "caduto")):
        lines = player_lines(state, state.player(2), lang)
        assert word in lines and not any(wrong in line for line in lines)
    assert not any("resigned" in line for line in player_lines(state, state.player(0), "en"))


def test_attack_naming_another_players_character_says_it_is_not_yours():
    """attack: a playtester named the opponent's Warlord as their attacker and read "There is no card Thane
    Brannoc Ironvow there"; the card is there, it is only not theirs."""
    state, a, _b = battle(ARMY_A, ARMY_B)
    state.order_seat = 1
    for named in (a[0][0], state.name(a[0][0]), state.name(a[0][0]).upper()):  # its uid, its name as shown
        err = rejected(state, 1, {"kind": "attack", "attacker": named})
        assert (err.key, err.params["name"]) == ("warlord.err.not_your_character", state.name(a[0][0])), named
    assert rejected(state, 1, {"kind": "attack", "attacker": "nobody at all"}).key == "warlord.err.no_such_card"
