"""Chapter 4, part 2: movement (404), range and line of sight (405), terrain and spaces (406),
targeting and areas (407)."""

from __future__ import annotations

from engines.wowminis import ENGINE
from engines.wowminis.rules_board import dist, has_los, los_report
from engines.wowminis.rules_effects import apply_buff
from engines.wowminis.rules_moves import natural_moves
from engines.wowminis.rules_summons import place_totem
from engines.wowminis.rules_targeting import aoe_choices, single_targets
from tests.wowminis.builders import PACK, act, board, event, give, keys, put, refused, turn

MONSTERS = ("elowen,brannoc,lyssara", "cinderjaw,mossback,skarn")
ROGUE = ("elowen,brannoc,lyssara", "sereth,grushka,vorzul")


def test_404_1_one_natural_move_made_all_at_once():
    state = board()
    put(state, "brannoc-1", "C3")
    turn(state, "brannoc-1")
    act(state, 0, "move", to="C5")
    assert state.chars["brannoc-1"].pos == "C5"
    refused(state, 0, "move", rule="404.1", to="C6")


def test_404_1a_cover_and_elevation_cost_two():
    state = board(terrain={"C2": "cover", "D2": "elevated"})
    c = put(state, "brannoc-1", "C3")
    turn(state, "brannoc-1")
    reach = natural_moves(state, c)
    assert reach["C2"][0] == 2 and reach["D2"][0] == 2
    assert "C1" not in reach  # cover can only be the first (and last) step with MP 2
    refused(state, 0, "move", rule="404.1a", to="C1")


def test_404_1a_ignores_terrain_keyword():
    state = board(MONSTERS, terrain={"C2": "cover"})
    c = put(state, "skarn-2", "C3")
    turn(state, "skarn-2")
    assert natural_moves(state, c)["C1"][0] == 2


def test_404_1b_pass_through_allies_not_enemies_and_never_stop_on_one():
    state = board()
    c = put(state, "brannoc-1", "A1")
    put(state, "elowen-1", "A2", ahead=2)  # ally: may be crossed
    reach = natural_moves(state, c)
    assert "A3" in reach and "A2" not in reach
    put(state, "elowen-1", None)
    put(state, "thrak-2", "A2", ahead=2)  # enemy: blocks the way along the edge
    put(state, "grushka-2", "B2", ahead=2)
    turn(state, "brannoc-1")
    assert "A3" not in natural_moves(state, c)
    refused(state, 0, "move", to="A2")


def test_404_1b_totem_spaces_can_be_entered_and_stopped_on():
    state = board(("elowen,brannoc,lyssara", "thrak,grushka,vorzul"))
    shaman = put(state, "vorzul-2", "C4", ahead=2)
    place_totem(state, shaman, PACK.card("stoneward_totem").totem)
    put(state, "vorzul-2", "F6")
    c = put(state, "brannoc-1", "C3")
    assert "C4" in natural_moves(state, c)


def test_404_1c_movement_modifiers_and_zero_mp():
    state = board()
    c = put(state, "brannoc-1", "C3")
    snare = PACK.card("hobbling_snare").buff
    apply_buff(state, c, snare, "debuff", 1, None, "snare")
    assert max(cost for cost, _ in natural_moves(state, c).values()) == 1  # movement -1: one space
    apply_buff(state, c, snare.model_copy(update={"name": "second"}), "debuff", 1, None, "snare")
    put(state, "thrak-2", "C4", ahead=2)
    turn(state, "brannoc-1")
    kinds = {a.kind for a in ENGINE.legal_actions(state, 0)}
    assert "move" not in kinds and "play" in kinds  # MP 0: no move, other actions allowed
    refused(state, 0, "move", rule="404.1c", to="C2")


def test_404_2_404_2a_404_2b_teleport():
    state = board(ROGUE, terrain={"E3": "cover", "D3": "impassable"})
    rogue = put(state, "sereth-2", "C3")
    put(state, "brannoc-1", "D4", ahead=2)  # an enemy in the way blocks neither teleport nor sight needs
    card, = give(state, "sereth-2", "shadowstep")
    turn(state, "sereth-2")
    refused(state, 1, "play", rule="404.2a", ability=card.id, space="D3")  # impassable
    refused(state, 1, "play", rule="404.2a", ability=card.id, space="D4")  # a character stands there
    events = act(state, 1, "play", ability=card.id, space="E3")  # cover, no terrain cost, no LOS needed
    assert rogue.pos == "E3" and "teleported" in keys(events) and "moved" not in keys(events)
    assert state.turn.spaces_entered == 0 and not state.turn.moved  # teleport is not movement


def test_404_3_404_3a_effect_move_uses_two_spaces_for_cover():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"), terrain={"E3": "cover"})
    put(state, "grushka-2", "C3")
    ally = put(state, "thrak-2", "D3", ahead=2)
    card, = give(state, "grushka-2", "rallying_shout")
    turn(state, "grushka-2")
    spaces = {a.space for a in ENGINE.legal_actions(state, 1)
              if getattr(a, "ability", "") == card.id and a.targets == ["thrak-2"]}
    assert "E3" in spaces and "F2" not in spaces  # through E3's cover F2 would need 3 of the 2 spaces
    refused(state, 1, "play", rule="404.3", ability=card.id, targets=["thrak-2"], space="F2")
    act(state, 1, "play", ability=card.id, targets=["thrak-2"], space="E3")
    assert ally.pos == "E3"


def test_404_3b_push_away_from_the_source():
    state = board()
    put(state, "vorzul-2", "C3")
    target = put(state, "brannoc-1", "C4", ahead=2)
    card, = give(state, "vorzul-2", "thunder_shove")
    turn(state, "vorzul-2")
    act(state, 1, "play", ability=card.id, targets=["brannoc-1"])
    if ENGINE.decision(state).kind == "forced_path":
        act(state, 1, "choose", value=ENGINE.decision(state).options[0].value)
    assert dist("C3", target.pos) == 4  # every step farther from the source


def test_404_4_e12_leaving_two_same_named_adjacencies_hurts_once():
    state = board(MONSTERS)
    put(state, "cinderjaw-2", "C2", ahead=3)
    put(state, "mossback-2", "B3", ahead=3)
    mover = put(state, "brannoc-1", "C3")
    turn(state, "brannoc-1")
    health = mover.health
    events = act(state, 0, "move", to="E4")
    assert mover.health == health - 1 and keys(events).count("damage") == 1


def test_405_1_e7_range_is_hex_distance_and_zero_is_the_same_space():
    state = board()
    warrior = put(state, "thrak-2", "C3")
    assert dist("C3", "C3") == 0 and dist("C3", "C5") == 2
    shaman = put(state, "brannoc-1", "C4", ahead=3)
    totem = PACK.card("stoneward_totem").totem
    shaman.controller = 0
    place_totem(state, shaman, totem)
    put(state, "brannoc-1", "F6")
    state.totems[next(iter(state.totems))].pos = "C3"  # an enemy totem in the attacker's own space
    put(state, "elowen-1", "C4", ahead=3)
    legal = single_targets(state, warrior, warrior.defn.main_attack)
    assert "elowen-1" in legal and next(iter(state.totems)) in legal


def test_405_2_405_2a_range_needs_los_and_respects_minimum():
    state = board()
    archer = put(state, "lyssara-1", "C3")
    put(state, "grushka-2", "D3", ahead=2)  # distance 1 < minimum 2
    put(state, "thrak-2", "C7", ahead=2)  # distance 4
    turn(state, "lyssara-1")
    legal = single_targets(state, archer, archer.defn.main_attack)
    assert legal == ["thrak-2"]
    refused(state, 0, "play", rule="405.2a", ability="main", targets=["grushka-2"])
    put(state, "vorzul-2", "C5", ahead=2)  # an enemy on the only straight path blocks it
    assert not has_los(state, 0, "C3", "C7")
    refused(state, 0, "play", rule="405.3", ability="main", targets=["thrak-2"])


def test_405_3_what_blocks_sight_depends_on_the_viewer():
    state = board()
    put(state, "brannoc-1", "C5")
    assert has_los(state, 0, "C3", "C7")  # own character: clear for seat 0
    assert not has_los(state, 1, "C3", "C7")  # enemy character: blocked for seat 1
    assert has_los(state, 1, "C3", "C4")  # adjacent is always clear


def test_405_4_middle_paths_decide_at_distance_four():
    state = board(map_id="stonefang_pass")
    state.board.terrain = {"C6": "cover"}
    assert dist("C5", "B8") == 4
    report = los_report(state, 0, "C5", "B8")
    assert report.four_paths and len(report.middle) == 2
    assert any(p.blocked_at is None for p in report.paths)  # C5-B5-B6-B7-B8 is clear...
    assert not report.clear  # ...but both middle paths are blocked
    state.board.terrain = {}
    assert has_los(state, 0, "C5", "B8")


def test_406_1_one_character_per_space():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "elowen-1", "C4", ahead=3)
    turn(state, "brannoc-1")
    refused(state, 0, "move", to="C4")


def test_406_2_406_2d_terrain_blocks_sight_open_does_not():
    state = board(terrain={"C5": "elevated"})
    assert not has_los(state, 0, "C3", "C7")
    state.board.terrain = {}
    assert has_los(state, 0, "C3", "C7")


def test_406_2a_cover_gives_the_defender_one_reroll():
    state = board(terrain={"C4": "cover"})
    put(state, "brannoc-1", "C3")
    put(state, "grushka-2", "C4", ahead=3)
    state.players[1].auto_reroll = "ask"
    turn(state, "brannoc-1")
    act(state, 0, "play", ability="main", targets=["grushka-2"], roll=[9, 9, 9, 1, 1, 1, 5])
    decision = ENGINE.decision(state)
    assert decision.kind == "reroll" and decision.seats == [1] and decision.params["max"] == 1
    refused(state, 1, "reroll", rule="105.3", dice=[0, 1])
    events = act(state, 1, "reroll", dice=[1], roll=[6])
    assert event(events, "blocked").params["blocks"] == 2


def test_406_2b_e9_elevation_one_reroll_for_one_roll_against_two():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"), terrain={"C3": "elevated"})
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    put(state, "lyssara-1", "B3", ahead=3)
    state.players[1].auto_reroll = "ask"
    turn(state, "grushka-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1", "lyssara-1"], roll=[1, 9, 9, 9])
    decision = ENGINE.decision(state)
    assert decision.kind == "reroll" and decision.params["max"] == 1
    events = act(state, 1, "reroll", dice=[0], roll=[5] + [1] * 6)
    assert keys(events).count("dice") == 2  # one attack reroll, then the two defence rolls
    assert event(events, "hits").params["hits"] == 4


def test_406_2c_impassable_cannot_be_entered():
    state = board(terrain={"C4": "impassable"})
    c = put(state, "brannoc-1", "C3")
    assert "C4" not in natural_moves(state, c)


def test_406_3_406_3a_spawn_points_and_vp_locations_do_not_block():
    state = board()
    assert state.board.vp_locations == ["E4"]
    assert has_los(state, 0, "E2", "E6") and has_los(state, 0, "A3", "A1")


def test_406_3b_spawn_points_belong_to_a_side():
    from engines.wowminis.rules_clock import spawn_points
    state = board()
    assert spawn_points(state, 0) == ["A1", "A8"] and spawn_points(state, 1) == ["H1", "H8"]


def test_407_1_407_1a_targets_by_side_and_never_totems_for_buffs():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "elowen-1", "C4", ahead=3)
    put(state, "thrak-2", "D3", ahead=3)
    card, = give(state, "brannoc-1", "bulwark_blessing")
    turn(state, "brannoc-1")
    refused(state, 0, "play", rule="407.1a", ability="main", targets=["elowen-1"])
    refused(state, 0, "play", rule="407.1a", ability=card.id, targets=["thrak-2"])
    act(state, 0, "play", ability=card.id, targets=["elowen-1"])
    assert state.effects and state.effects[0].target == "elowen-1"


def test_407_1b_multi_target_must_be_distinct():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"))
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "grushka-2")
    refused(state, 1, "play", rule="407.1b", ability="main", targets=["brannoc-1", "brannoc-1"])


def test_407_2_407_2a_407_2b_aoe_triangle_spares_allies_and_totems():
    state = board(("teodric,brannoc,lyssara", "grushka,thrak,vorzul"))
    mage = put(state, "teodric-1", "A3")
    card, = give(state, "teodric-1", "cinder_rain")
    put(state, "grushka-2", "D3", ahead=3)
    put(state, "thrak-2", "D4", ahead=3)
    put(state, "brannoc-1", "E4", ahead=3)
    turn(state, "teodric-1")
    choice = next((s, o, a) for s, o, a in aoe_choices(state, mage, card.defn) if set(a) == {"D3", "D4", "E4"})
    space, orientation, _ = choice
    events = act(state, 0, "play", ability=card.id, space=space, orientation=orientation,
                 roll=[9, 9, 9, 9] + [1] * 4)
    defenders = event(events, "attacked").params["defenders"]
    assert sorted(defenders) == ["Grushka Bonesplitter", "Thrak Earthmane"]  # the ally is no defender
