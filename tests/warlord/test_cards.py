"""Order action cards, printed orders and feat orders (actions, card-orders, feats, bonuses, skill-checks)."""
# Cards of spec §4.2 this file plays: warlord:A8 warlord:B8 warlord:B9 warlord:I1 warlord:I2 warlord:I3 warlord:I7
# warlord:J1 warlord:X2 warlord:X3 warlord:X5 warlord:X8 warlord:Y4 warlord:Y5 warlord:Y6 warlord:Y7


from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.warlord.content import Ability
from engines.warlord.rules_common import armor, atk_values
from engines.warlord.rules_turn import end_turn
from tests.warlord.builders import ARMY_A, ARMY_B, WARLORD_A, WARLORD_B, E, act, battle, carry, hand, rejected

VETERAN_FRONT = [["oathkeeper_veteran", "hearth_acolyte", "shieldwall_recruit"], ["axe_sergeant", "hired_crossbowman"],
                 [WARLORD_A]]


def keys(events) -> list[str]:
    return [e.key.removeprefix("warlord.ev.") for e in events]


def test_bonuses_scenario17_shield_bash_strikes_once_with_the_first_atk_and_items():
    state, a, b = battle(VETERAN_FRONT, ARMY_B)
    veteran, grunt = a[0][0], b[0][0]
    carry(state, veteran, "balanced_war_axe")  # +1 ATK
    bash = hand(state, 0, "shield_bash")
    events = act(state, 0, {"kind": "play_order", "card": bash, "performer": veteran, "target": grunt},
                 RecordedDice([3]))
    rolled = [e for e in events if e.key.endswith("strike_rolled")]
    assert len(rolled) == 1 and rolled[0].params["bonus"] == 5  # +4/+2 → only +4, plus the axe
    assert state.chars[veteran].state == "spent" and bash in state.player(0).discard
    assert state.order_seat == 1


def test_actions_a_melee_action_strike_needs_a_target_within_one_rank():
    state, a, b = battle(VETERAN_FRONT, ARMY_B)
    bash = hand(state, 0, "shield_bash")
    err = rejected(state, 0, {"kind": "play_order", "card": bash, "performer": a[1][0], "target": b[0][0]})
    assert err.key == "warlord.err.melee_too_far" and err.rule == "attack" and err.params["n"] == 2


def test_bonuses_scenario24_stone_blessing_lasts_until_end_of_turn_and_needs_no_ready_performer():
    state, a, _b = battle(ARMY_A, ARMY_B)
    recruit, acolyte = a[0][0], a[0][1]
    state.chars[acolyte].state = "spent"  # a non-Spend order: a spent performer may act and stays spent
    blessing = hand(state, 0, "stone_blessing")
    act(state, 0, {"kind": "play_order", "card": blessing, "performer": acolyte, "target": recruit})
    assert armor(state, recruit) == 14 and state.chars[acolyte].state == "spent"
    far = hand(state, 0, "stone_blessing")
    state.order_seat = 0
    err = rejected(state, 0, {"kind": "play_order", "card": far, "performer": acolyte, "target": a[1][0]})
    assert err.key == "warlord.err.bad_target"  # "in this rank"
    end_turn(state, RecordedDice([], picks=[0] * 20))
    assert armor(state, recruit) == 12


def test_actions_rally_cry_readies_spent_not_stunned_and_dark_mending_needs_a_level_two_cleric():
    state, _a, b = battle(ARMY_A, [["horde_grunt", "bone_shaman", "sneak_knife"],
                                  ["ember_hexer", "tusked_brute", "hookblade_sellsword"], [WARLORD_B]])
    hexer, brute, sellsword = b[1]
    state.chars[brute].state = "spent"
    state.chars[sellsword].state = "stunned"
    state.order_seat = 1
    cry = hand(state, 1, "rally_cry")
    err = rejected(state, 1, {"kind": "play_order", "card": cry, "performer": hexer, "target": sellsword})
    assert err.key == "warlord.err.bad_target"  # "spent (not stunned)"
    act(state, 1, {"kind": "play_order", "card": cry, "performer": hexer, "target": brute})
    assert state.chars[brute].state == "ready" and state.chars[hexer].state == "spent"
    state.order_seat = 1
    mending = hand(state, 1, "dark_mending")
    state.chars[b[0][0]].wounds = 0
    err = rejected(state, 1, {"kind": "play_order", "card": mending, "performer": b[0][1], "target": b[0][0]})
    assert err.key == "warlord.err.performer_level"  # a level-2 spell, a level-1 shaman


def test_bonuses_scenario16_frenzied_charge_changes_atk_and_bone_shaman_adds_after_it():
    state, _a, b = battle(ARMY_A, [["ash_reaver", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"],
                                  [WARLORD_B]])
    reaver, shaman = b[0][0], b[0][1]
    state.order_seat = 1
    carry(state, reaver, "jagged_cleaver")  # +1 ATK
    charge = hand(state, 1, "frenzied_charge")
    act(state, 1, {"kind": "play_order", "card": charge, "performer": reaver})
    assert atk_values(state, reaver) == [7, 7]  # "changes to +6" for each value, the item still adds
    state.order_seat = 1
    act(state, 1, {"kind": "use_order", "source": shaman, "target": reaver})
    assert atk_values(state, reaver) == [8, 8]
    state.order_seat = 1
    err = rejected(state, 1, {"kind": "use_order", "source": shaman, "target": reaver})
    assert err.key == "warlord.err.once_per_turn"


def test_skill_checks_scenario19_curse_of_frailty_attaches_on_a_failed_save_only():
    state, a, b = battle(ARMY_A, [["pit_overseer", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"],
                                  [WARLORD_B]])
    state.order_seat = 1
    recruit, scout = a[0][0], a[0][2]
    curse = hand(state, 1, "curse_of_frailty")
    saved = state.model_copy(deep=True)
    events = act(state, 1, {"kind": "play_order", "card": curse, "performer": b[0][0], "target": recruit},
                 RecordedDice([4]))  # skill 0 + 4 < 15
    assert "attached" in keys(events) and curse in state.chars[recruit].attached and armor(state, recruit) == 10
    state.chars[recruit].wounds = 5
    act(state, 0, {"kind": "pass"})
    assert curse in state.player(1).discard  # the attached card leaves with its host
    events = act(saved, 1, {"kind": "play_order", "card": curse, "performer": b[0][0], "target": scout},
                 RecordedDice([12]))  # skill 3 + 12 = 15: saved, untouched
    assert "attached" not in keys(events) and armor(saved, scout) == 11 and curse in saved.player(1).discard


def test_card_orders_vorga_magic_save_or_one_wound():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.order_seat = 1
    vorga, recruit, sergeant = b[2][0], a[0][0], a[1][0]
    err = rejected(state, 1, {"kind": "use_order", "source": vorga, "target": sergeant})
    assert err.key == "warlord.err.bad_target"  # four ranks away; "within 3"
    events = act(state, 1, {"kind": "use_order", "source": vorga, "target": recruit}, RecordedDice([10]))
    assert "wounds_placed" in keys(events) and recruit not in state.chars  # 0 + 10 < 17, 1 HP
    assert state.chars[vorga].state == "spent"


def test_feats_medicine_order_removes_a_wound_once_per_turn():
    state, a, _b = battle([["oathkeeper_veteran", "hearth_acolyte", "shieldwall_recruit"], ["axe_sergeant",
                                                                                         "runecarver_adept"],
                          [WARLORD_A]], ARMY_B)
    veteran, acolyte = a[0][0], a[0][1]
    state.chars[veteran].wounds = 1
    events = act(state, 0, {"kind": "use_order", "source": "feat:medicine", "performer": acolyte,
                            "target": veteran}, RecordedDice([14]))  # skill 2 + Medicine 4 + 14 = 20
    assert "healed" in keys(events) and state.chars[veteran].wounds == 0
    state.order_seat = 0
    state.chars[veteran].wounds = 1
    err = rejected(state, 0, {"kind": "use_order", "source": "feat:medicine", "performer": acolyte,
                              "target": veteran})
    assert err.key == "warlord.err.feat_used"


def test_feats_riding_readies_a_spent_steed():
    captain_army = [["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant", "runecarver_adept"],
                    [WARLORD_A], ["gatewarden_captain"]]
    state, a, _b = battle(captain_army, ARMY_B)
    captain = a[3][0]
    pony = carry(state, captain, "tunnel_pony")
    state.items[pony].state = "spent"
    events = act(state, 0, {"kind": "use_order", "source": "feat:riding", "performer": captain, "target": pony},
                 RecordedDice([12]))  # skill 4 + Riding 4 + 12 = 20
    assert "state_set" in keys(events) and state.items[pony].state == "ready"


def test_feats_scenario8_marksmanship_adds_a_rank_of_reach_or_the_strike_is_lost():
    state, a, b = battle(VETERAN_FRONT, ARMY_B)
    bowman, hexer = a[1][1], b[1][0]  # rank 2 against rank 2: three ranks apart
    err = rejected(state, 0, {"kind": "use_order", "source": bowman, "target": hexer})
    assert err.key == "warlord.err.ranged_too_far" and (err.params["n"], err.params["most"]) == (3, 2)
    probe = state.model_copy(deep=True)
    events = act(state, 0, {"kind": "use_order", "source": bowman, "target": hexer, "marksmanship": "range"},
                 RecordedDice([14, 10]))  # skill 2 + 4 + 14 = 20; then 10 + 5 = 15 ≥ 11
    assert "feat_check" in keys(events) and hexer not in state.chars
    events = act(probe, 0, {"kind": "use_order", "source": bowman, "target": hexer, "marksmanship": "range"},
                 RecordedDice([3]))
    assert "strike_cancelled" in keys(events) and hexer in probe.chars and probe.chars[bowman].state == "spent"
    import gm.games.warlord.presenter  # noqa: F401  (registers the presenter)
    from gm.table.replies import event_text  # issue 27.7: the strike was cancelled, not the Crossbowman
    lost = next(e for e in events if e.key.endswith("strike_cancelled"))
    assert event_text(lost, "en", "warlord") == "The strike of Hired Crossbowman is cancelled."
    assert event_text(lost, "it", "warlord") == "Il colpo di Balestriere Prezzolato è annullato."


def test_feats_marksmanship_plus_five_to_the_roll():
    state, a, b = battle(VETERAN_FRONT, ARMY_B)
    bowman, grunt = a[1][1], b[0][0]
    events = act(state, 0, {"kind": "use_order", "source": bowman, "target": grunt, "marksmanship": "roll"},
                 RecordedDice([14, 2]))
    rolled = next(e for e in events if e.key.endswith("ranged_rolled"))
    assert rolled.params["bonus"] == 10


def test_actions_two_paths_retrieves_a_character_from_the_discard_pile():
    state, a, _b = battle(ARMY_A, ARMY_B)
    paths = hand(state, 0, "two_paths")
    dead = a[0][0]
    state.chars[dead].wounds = 9
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "pass"}) if False else None
    state.order_seat = 0
    assert dead in state.player(0).discard
    events = act(state, 0, {"kind": "play_order", "card": paths, "ability": 1, "performer": a[0][1], "target": dead})
    assert "retrieved" in keys(events) and dead in state.player(0).hand and paths in state.player(0).discard


def test_actions_a_spell_strike_ignores_astral():
    state, a, b = battle(ARMY_A, ARMY_B)
    rune = hand(state, 0, "rune_of_shattering")
    wizard = a[1][1]
    events = act(state, 0, {"kind": "play_order", "card": rune, "performer": wizard, "target": b[0][0]},
                 RecordedDice([20]))
    rolled = next(e for e in events if e.key.endswith("ranged_rolled"))
    assert rolled.params["bonus"] == 6 and rolled.params["hit"]


def test_ranged_strikes_a_spell_one_rank_away_is_refused_as_too_close_in_the_players_words():
    """ranged-strikes (issue 27.3): Rune of Shattering at an enemy one rank away names the range rule, not
    "no enemy within one rank"; the reply cites the rule."""
    from gm.errors import error_reply

    state, a, b = battle(ARMY_A, ARMY_B)
    rune = hand(state, 0, "rune_of_shattering")
    state.player(0).ranks = [[a[1][1], *a[0]], [a[1][0]], a[2]]  # the Runecarver Adept steps into rank 1
    err = rejected(state, 0, {"kind": "play_order", "card": rune, "performer": a[1][1], "target": b[0][0]})
    assert err.key == "warlord.err.ranged_too_close" and err.rule == "ranged-strikes"
    assert error_reply(err, "en", "warlord").text.startswith(
        "⚠️ Horde Grunt is only 1 rank from Runecarver Adept: a ranged strike must reach exactly 2 ranks away")
    assert "un colpo a distanza deve colpire esattamente a 2 ranghi" in error_reply(err, "it", "warlord").text


def test_characters_thane_gives_other_stonewardens_of_his_rank_one_ac_not_himself():
    """bonuses (issue 27.1): "other Stonewarden characters in this rank": the aura skips its source."""
    state, a, _b = battle([["shieldwall_recruit", WARLORD_A, "tunnel_scout"]], ARMY_B)
    assert armor(state, a[0][0]) == 13 and armor(state, a[0][1]) == 16
    state.cards_def["thane_brannoc"].abilities[0].targets[0]["choose"].pop("other")  # a saved game's older data
    assert armor(state, a[0][1]) == 16
    state2, a2, _ = battle(ARMY_A, ARMY_B)
    assert armor(state2, a2[0][0]) == 12


def test_card_orders_legal_actions_list_exactly_what_apply_accepts():
    state, _a, _b = battle(VETERAN_FRONT, ARMY_B)
    for card in ("shield_bash", "stone_blessing", "two_paths", "rune_of_shattering"):
        hand(state, 0, card)
    legal = E.legal_actions(state, 0)
    kinds = {x.kind for x in legal}
    assert {"play_order", "use_order", "attack", "pass"} <= kinds
    for action in legal:
        copy = state.model_copy(deep=True)
        E.apply(copy, 0, action, RecordedDice([10] * 10, picks=[0] * 10))


def test_equip_scenario12_plus_one_level_for_equipping_a_trait_only_helps_that_trait():
    state, a, _b = battle([["axe_sergeant", "shieldwall_recruit", "hearth_acolyte"], ["tunnel_scout",
                                                                                    "runecarver_adept"], [WARLORD_A]],
                          ARMY_B)
    sergeant = a[0][0]  # level 2 in rank 1: items up to level 3
    state.cards_def["axe_sergeant"].abilities = [Ability(kind="static", effects=[
        {"modify": {"stat": "level_for:equip:Shield", "amount": 1, "until": "permanent"}}])]
    shield = hand(state, 0, "tower_shield")  # level 4, Shield
    act(state, 0, {"kind": "equip", "item": shield, "host": sergeant})
    assert shield in state.chars[sergeant].items
    state.order_seat = 0
    mail = hand(state, 0, "riveted_mail")  # level 3 Armor: 2 + 1 = 3, fine; a level-4 non-Shield would not be
    state.cards_def["riveted_mail"].level = 4
    err = rejected(state, 0, {"kind": "equip", "item": mail, "host": sergeant})
    assert err.key == "warlord.err.item_level" and err.params["need"] == 4 and err.params["have"] == 3


def test_glossary_scenario23_killed_by_the_strike_or_by_the_action_that_added_wounds():
    state, a, b = battle([["axe_sergeant", "shieldwall_recruit", "hearth_acolyte"], ["tunnel_scout",
                                                                                    "runecarver_adept"], [WARLORD_A]],
                         [["horde_grunt", "tusked_brute", "bone_shaman"], ["ember_hexer", "sneak_knife"],
                          [WARLORD_B]])
    sergeant, grunt, brute = a[0][0], b[0][0], b[0][1]
    events = act(state, 0, {"kind": "attack", "attacker": sergeant}, RecordedDice([])) + act(
        state, 0, {"kind": "strike", "target": grunt}, RecordedDice([15]))  # a plain hit on a 1-HP target
    killed = next(e for e in events if e.key.endswith("killed"))
    assert killed.params["by"] == "melee_strike"
    state2, a2, b2 = battle([["oathkeeper_veteran", "shieldwall_recruit", "hearth_acolyte"],
                             ["tunnel_scout", "runecarver_adept"], [WARLORD_A]],
                            [["tusked_brute", "horde_grunt", "bone_shaman"], ["ember_hexer", "sneak_knife"],
                             [WARLORD_B]])
    veteran, brute = a2[0][0], b2[0][0]  # the brute: 2 HP
    state2.chars[veteran].wounds = 0
    carry(state2, veteran, "runed_greataxe")
    dice = RecordedDice([15])
    act(state2, 0, {"kind": "attack", "attacker": veteran}, dice, windows=True)
    act(state2, 0, {"kind": "strike", "target": brute}, dice, windows=True)
    events = []
    while (d := E.decision(state2)) is not None and d.kind == "react":
        options = [o for o in E.legal_actions(state2, d.seats[0]) if o.kind == "react" and o.source != "feat:riposte"
                   and state2.cards.get(o.source) and state2.cards[o.source].card == "runed_greataxe"]
        events += E.apply(state2, d.seats[0], options[0] if options else E.parse_action({"kind": "pass_react"}), dice)
    killed = next(e for e in events if e.key.endswith("killed") and e.params["name"] == state2.name(brute))
    assert killed.params["by"] == "action"  # 1 wound would not have killed it: the axe's two did
