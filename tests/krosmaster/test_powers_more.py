"""307.19-307.35 (freezing family, conditions, K.O. and kama powers), 309.8 and 313.6 (Frigost)."""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.square import line_of_sight
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import BuyReward, Collect
from engines.krosmaster.content import Keyword, Reward, RewardRank, builtin_pack
from engines.krosmaster.rules_board import Board, sq
from engines.krosmaster.rules_frost import add_frozen
from engines.krosmaster.rules_powers_more import refresh_conditionals, reward_terms
from engines.krosmaster.rules_range import max_range
from engines.krosmaster.rules_rewards import deal
from engines.krosmaster.rules_tokens import add_tokens
from engines.krosmaster.rules_turn import activate
from tests.krosmaster.builders import ARMOR, LOCK, act, arena, cast, end_turn, fig, find, game, keys, spell

MISS = [LOCK, LOCK]  # one critical die, one armor die, no success on either
FRIGOST_TEAM = ["rimewarden", "sleet_sprite", "ember_monk", "coinpurse", "sage_baltus"]
CLASSIC_TEAM = ["iron_warden", "ember_witch", "tide_healer", "lucky_gambler", "mire_imp"]


def duel(killer_powers=(), victim_powers=(), mate_powers=(), victim_kw=None):
    """``a`` (seat 0) can K.O. ``z`` (seat 1, 2 HP) with one 2-damage hit; ``y`` keeps seat 1 in the game."""
    victim = fig("z", hp=2, powers=list(victim_powers), **(victim_kw or {}))
    return game([("a", fig("a", powers=list(killer_powers)), 0, "C3"),
                 ("b", fig("b", powers=list(mate_powers)), 0, "A1"),
                 ("z", victim, 1, "C5"), ("y", fig("y"), 1, "L12")], gg=(6, 6), wild=1)


# -- K.O. powers ---------------------------------------------------------------------------
def test_307_31_wisdom_of_the_killer_steals_one_more_gg():
    state = duel(killer_powers=["wisdom"])
    events = cast(state, "hit", "C5", MISS)
    assert state.pieces["z"].ko
    assert state.player(0).gg == 6 + 2 + 1 and state.player(1).gg == 6 - 1 - 1 and state.wild_gg == 0
    assert find(events, "wisdom").params["total"] == 1  # 307.31a: the killer's player steals one GG more


def test_307_31_wisdom_of_the_victim_also_gives_one_more_gg():
    state = duel(victim_powers=["wisdom"])
    cast(state, "hit", "C5", MISS)
    assert state.player(0).gg == 9 and state.player(1).gg == 4  # 307.31a: the victim's Wisdom counts too


def test_307_31_no_wisdom_without_the_power():
    state = duel()
    events = cast(state, "hit", "C5", MISS)
    assert "km.wisdom" not in keys(events) and state.player(0).gg == 8


def test_307_32_prospecting_of_any_team_mate_gives_a_kama_on_a_ko():
    state = duel(mate_powers=["prospecting"])
    state.player(0).kamas = 4
    events = cast(state, "hit", "C5", MISS)
    # 307.32a: one kama from the reserve when any of the team's Krosmasters makes a K.O.
    assert state.player(0).kamas == 5 and find(events, "prospecting_kamas").params["kamas"] == 1


def test_307_35_loot_x_pays_x_kamas_to_whoever_knocks_it_out():
    state = duel(victim_powers=["loot"], victim_kw={"power_x": {"loot": 3}})
    events = cast(state, "hit", "C5", MISS)
    assert state.player(0).kamas == 3 and state.player(1).kamas == 0  # 307.35a: X kamas to the killer's player
    assert find(events, "loot_kamas").params["kamas"] == 3


def test_ko_of_a_power_holder_by_its_own_wound_cost_credits_nobody():
    state = game([("a", fig("a", hp=2, powers=["loot", "wisdom"],
                            spells=[{"id": "hit", "cost": {"ap": 1, "wounds": 2}}]), 0, "C3"),
                  ("b", fig("b"), 0, "A1"), ("z", fig("z"), 1, "C5")], gg=(6, 6), wild=1)
    cast(state, "hit", "C5", MISS)
    # 308.5d with 602.2a: the wound cost is placed by the caster on itself, never by an opponent, so no
    # K.O. power of the opponent triggers; the opponent still takes the level in GG (305.2).
    assert state.pieces["a"].ko and state.player(1).kamas == 0 and state.player(1).gg == 8


# -- kama and reward powers ------------------------------------------------------------------
def rw(id: str, rank: str) -> Reward:
    return Reward.model_validate({"id": id, "name": id.title(), "rank": rank, "type": "boost", "heal": 1})


def shop(powers: list[str]):
    board = arena(demon_squares=["C3"], kamas={"C3": 2})
    state = game([("a", fig("a", powers=powers), 0, "C3"), ("b", fig("b", level=0), 0, "A1"),
                  ("z", fig("z"), 1, "J10")], board=board)
    deal(state, [rw("jade_one", "jade"), rw("gold_one", "gold")])
    state.board.kamas = dict(board.kamas)
    state.player(0).kamas = 30
    return state


def test_307_33_creator_first_reward_of_the_activation_costs_no_ap_and_less():
    state = shop(["creator"])
    act(state, BuyReward(pile="jade1", blind=True))
    # 307.33a: jade 5, no AP. 105.1: the card's power beats the price and AP of 306.4.
    assert state.player(0).kamas == 25 and state.pieces["a"].ap == 6
    act(state, BuyReward(pile="gold1", blind=True))
    assert state.player(0).kamas == 13 and state.pieces["a"].ap == 5  # second buy: 12 kamas and 1 AP


def test_307_33_creator_prices_and_granite_unchanged():
    piece = fig("a", powers=["creator"])
    state = game([("a", piece, 0, "C3"), ("z", fig("z"), 1, "J10")])
    a = state.pieces["a"]
    assert [reward_terms(a, r, 99, 1) for r in RewardRank] == [(3, 0), (5, 0), (10, 0), (15, 0)]  # 307.33a
    assert reward_terms(state.pieces["z"], RewardRank.JADE, 6, 1) == (6, 1)


def test_307_33_creator_can_buy_with_no_ap_left():
    state = shop(["creator"])
    state.pieces["a"].ap = 0
    act(state, BuyReward(pile="jade1", blind=True))
    assert state.player(0).kamas == 25


def test_307_34_collector_brings_one_more_kama_at_the_end_of_its_turn():
    state = shop(["collector"])
    act(state, Collect())
    assert state.player(0).kamas == 31
    events = end_turn(state)
    assert state.player(0).kamas == 32 and "km.collector_kamas" in keys(events)  # 307.34a: one more at the end


def test_307_34_collector_that_picked_up_nothing_brings_nothing():
    state = shop(["collector"])
    events = end_turn(state)
    assert state.player(0).kamas == 30 and "km.collector_kamas" not in keys(events)


# -- 307.25/307.26 conditions ----------------------------------------------------------------
def test_307_26_revenge_x_powers_apply_only_with_x_villains_on_the_board():
    sage = fig("sage", classes=["villain"], powers=["revenge"],
               conditional_powers=[{"condition": "revenge", "x": 2, "powers": ["armor"]}])
    other = fig("rogue", classes=["villain"])
    state = game([("a", sage, 0, "C3"), ("z", other, 1, "J10")])
    refresh_conditionals(state)
    assert state.pieces["a"].has(Keyword.ARMOR)  # 307.26a: itself and an opposing villain: 2
    state.pieces["z"].pos = None
    refresh_conditionals(state)
    assert not state.pieces["a"].has(Keyword.ARMOR) and "armor" not in state.pieces["a"].powers()


def test_307_25_blame_x_counts_vigilantes_and_refreshes_after_actions():
    judge = fig("judge", powers=["blame"], spells=[{"id": "hit", "amount": 2, "element": "earth"}],
                conditional_powers=[{"condition": "blame", "x": 1, "powers": ["critical"]}])
    state = game([("a", judge, 0, "C3"), ("v", fig("v", classes=["Vigilante"], hp=2), 1, "C5"),
                  ("y", fig("y"), 1, "L12")])
    refresh_conditionals(state)
    assert state.pieces["a"].has(Keyword.CRITICAL)
    cast(state, "hit", "C5", [LOCK, LOCK, LOCK])  # Critical: two critical dice while the vigilante stands
    # 307.25a; 314.2b: once the condition no longer holds, the power goes at once.
    assert state.pieces["v"].ko and not state.pieces["a"].has(Keyword.CRITICAL)


# -- freezing family (307.19-307.24) and frozen tokens (309.8) -----------------------------------
def freezer(powers, effects, target_powers=()):
    caster = fig("f", powers=powers, spells=[{"id": "chill", "kind": "special", "amount": 0, "effects": effects}])
    return game([("f", caster, 0, "C3"), ("t", fig("t", powers=list(target_powers)), 1, "C5")])


def test_307_24_kongelation_places_frozen_minus_ap_tokens():
    state = freezer(["kongelation"], [{"kind": "ap_tokens", "value": -2}])
    events = cast(state, "chill", "C5")
    t = state.pieces["t"]
    assert (t.ap_tokens, t.ap_frozen) == (0, -2) and find(events, "frozen_tokens").params["value"] == -2  # 307.24a


def test_307_22_and_307_21_unshoe_and_snowshoe_freeze_mp_tokens():
    state = freezer(["unshoe"], [{"kind": "mp_tokens", "value": -1}])
    cast(state, "chill", "C5")
    assert (state.pieces["t"].mp_tokens, state.pieces["t"].mp_frozen) == (0, -1)  # 307.22a: -1 MP frozen
    state = freezer(["snowshoe", "accelfreeze"], [{"kind": "mp_tokens", "value": 1}, {"kind": "ap_tokens", "value": 1}])
    cast(state, "chill", "C5")
    t = state.pieces["t"]
    # 307.21a: +1 MP tokens frozen; 307.23, 307.23a: +1 AP tokens frozen.
    assert (t.mp_frozen, t.ap_frozen, t.mp_tokens, t.ap_tokens) == (1, 1, 0, 0)


def test_307_24_only_its_own_sign_kongelation_leaves_plus_tokens_normal():
    state = freezer(["kongelation"], [{"kind": "ap_tokens", "value": 1}])
    cast(state, "chill", "C5")
    assert (state.pieces["t"].ap_tokens, state.pieces["t"].ap_frozen) == (1, 0)


def test_307_19_inner_fire_receives_normal_tokens_instead():
    state = freezer(["kongelation"], [{"kind": "ap_tokens", "value": -1}], target_powers=["inner_fire"])
    events = cast(state, "chill", "C5")
    assert (state.pieces["t"].ap_tokens, state.pieces["t"].ap_frozen) == (-1, 0)  # 307.19a: normal ones instead
    assert "km.ap_tokens" in keys(events)


def test_309_8_frozen_and_normal_tokens_do_not_cancel_and_both_count_at_activation():
    state = game([("a", fig("a"), 0, "C3"), ("t", fig("t", ap=6, mp=3), 1, "C5")])
    t = state.pieces["t"]
    add_frozen(t, "ap", -1)
    add_tokens(t, "ap", 1)
    assert (t.ap_tokens, t.ap_frozen) == (1, -1)  # a normal +1 does not remove a frozen -1
    add_frozen(t, "ap", 1)
    assert t.ap_frozen == 0  # only a frozen token cancels a frozen token
    add_frozen(t, "mp", 2)
    add_tokens(t, "mp", -1)
    activate(state, "t")
    assert (t.ap, t.mp) == (6 + 1, 3 + 2 - 1) and (t.ap_tokens, t.ap_frozen, t.mp_frozen) == (0, 0, 0)


def test_309_8_normal_and_frozen_minus_tokens_together_never_exceed_the_maximum():
    state = game([("a", fig("a"), 0, "C3"), ("t", fig("t", ap=6, mp=3), 1, "C5")])
    t = state.pieces["t"]
    assert add_tokens(t, "mp", -2) == 2
    assert add_frozen(t, "mp", -3) == 1
    assert add_tokens(t, "mp", -1) == 0
    assert (t.mp_tokens, t.mp_frozen) == (-2, -1)


def test_307_20_freezing_attacks_leave_frozen_wounds_only_inner_fire_heals():
    caster = fig("f", powers=["freezing"], spells=[{"id": "hit", "amount": 3}])
    healer = fig("h", spells=[{"id": "mend", "kind": "heal", "amount": 3, "range": {"min": 1}}])
    monk = fig("m", powers=["inner_fire"], spells=[{"id": "mend", "kind": "heal", "amount": 3, "range": {"min": 1}}])
    state = game([("f", caster, 0, "C3"), ("t", fig("t", hp=12), 1, "C5"), ("h", healer, 1, "D5"),
                  ("m", monk, 1, "C7")])
    events = cast(state, "hit", "C5", MISS)
    t = state.pieces["t"]
    assert (t.wounds, t.frozen_wounds) == (3, 3) and find(events, "frozen_wounds").params["wounds"] == 3  # 307.20a
    activate(state, "h")
    state.active_seat = 1
    cast(state, "mend", "C5", [LOCK])
    assert t.wounds == 3  # 307.19 a contrario: normal heal spells cannot remove frozen wounds
    activate(state, "m")
    cast(state, "mend", "C5", [LOCK])
    assert (t.wounds, t.frozen_wounds) == (0, 0)  # 307.19a: an Inner Fire healer heals frozen wounds


def test_307_20_inner_fire_target_gets_normal_wounds():
    caster = fig("f", powers=["freezing"], spells=[{"id": "hit", "amount": 3}])
    state = game([("f", caster, 0, "C3"), ("t", fig("t", hp=12, powers=["inner_fire"]), 1, "C5")])
    cast(state, "hit", "C5", [LOCK, ARMOR])
    assert state.pieces["t"].wounds == 2 and state.pieces["t"].frozen_wounds == 0


# -- 313.6 ice cubes -------------------------------------------------------------------------
def rink_game(caster_spells=None):
    board = arena(rink=[f"{c}6" for c in "BCDEFG"], ice_cubes=["D6"])
    state = game([("a", fig("a", spells=caster_spells or [spell()]), 0, "B6"), ("z", fig("z"), 1, "L12")],
                 board=board)
    state.board.ice = ["D6"]
    return state


def test_313_6_an_ice_cube_square_is_free_and_does_not_block_line_of_sight():
    state = rink_game()
    board = Board.of(state)
    assert board.is_free(sq("D6")) and not board.blocks_los(sq("D6"))  # 313.5d: free, and it blocks no line
    assert line_of_sight(sq("B6"), sq("F6"), board.blockers.__contains__)


def test_313_6_standing_on_an_ice_cube_adds_one_to_modifiable_range():
    state = rink_game()
    board = Board.of(state)
    modifiable = spell(range={"max": 3, "modifiable": True})
    assert max_range(board, sq("D6"), modifiable) == 4 and max_range(board, sq("B6"), modifiable) == 3  # 313.5d
    assert max_range(board, sq("D6"), spell(range={"max": 3})) == 3


def test_313_6c_push_moves_the_ice_cube_but_never_off_the_rink():
    push = spell("shove", kind="special", amount=0, range={"min": 1, "max": 4},
                 effects=[{"kind": "push", "value": 5}])
    state = rink_game([push])
    events = cast(state, "shove", "D6")
    assert state.board.ice == ["G6"]  # slid 3 squares: G6 is the rink's last square
    assert find(events, "ice_moved").params["squares"] == 3


def test_313_6_frigost_arena_is_built_in_and_a_new_game_puts_its_cubes_on_the_board():
    pack = builtin_pack()
    frigost = pack.arena("frigost_rink")
    assert (frigost.width, frigost.height) == (12, 12) and frigost.ice_cubes and frigost.rink
    assert any(Keyword.FREEZING in f.powers for f in pack.figurines)
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="Ann", config={"team": FRIGOST_TEAM}),
                         SeatSetup(seat=1, user_id=2, name="Bob", config={"team": CLASSIC_TEAM})],
                  options={"arena": "frigost_rink"})
    state = ENGINE.new_game(setup, SeededDice(3))
    assert state.board.ice == frigost.ice_cubes


# -- 313.7 optional destructible scenery -------------------------------------------------------
def lumber(amount: int = 6, destructible: bool = True, rng: str = "melee"):
    axe = spell("chop", amount=amount, cost={"ap": 1}, range={"type": rng, "min": 1, "max": 3})
    state = game([("a", fig("a", spells=[axe]), 0, "C3"), ("z", fig("z"), 1, "L12")],
                 board=arena(trees=["C4"], bushes=["D3"], crates=["B3"]))
    if destructible:
        state.options["scenery"] = "destructible"
    return state


def test_313_7_melee_attacks_destroy_a_tree_at_12_wounds_in_one_turn_and_leave_3_kamas():
    state = lumber()
    events = cast(state, "chop", "C4", [LOCK, LOCK])  # critical roll, then the tree's armor roll
    assert find(events, "scenery_hit").params["wounds"] == 6 and "C4" in state.board.arena.trees
    events = cast(state, "chop", "C4", [LOCK, LOCK])
    assert "C4" not in state.board.arena.trees and state.board.kamas["C4"] == 3  # 313.7c: gone, 3 kamas left
    assert find(events, "scenery_destroyed").params["kamas"] == 3
    assert Board.of(state).is_free(sq("C4"))


def test_313_7b_scenery_heals_at_the_end_of_the_turn_and_crates_need_3():
    state = lumber(amount=2)
    cast(state, "chop", "D3", [LOCK, LOCK])
    state.turn_number += 1  # another player turn: the bush healed
    cast(state, "chop", "D3", [LOCK, LOCK])
    assert state.board.scenery_wounds == {"D3": 2} and "D3" in state.board.arena.bushes
    cast(state, "chop", "B3", [1, LOCK])  # 2 + 1 for the critical success: the crate (3 HP) breaks
    assert "B3" not in state.board.arena.crates and state.board.kamas["B3"] == 1


def test_313_7_scenery_has_hp_so_it_makes_an_armor_roll_302_1_602_6a():
    state = lumber(amount=2)
    events = cast(state, "chop", "B3", [1, 2])  # one critical success against one armor success
    roll = find(events, "scenery_armor_roll")
    assert roll.params["successes"] == 1 and roll.params["square"] == "B3"
    hit = find(events, "scenery_hit")
    assert hit.params["damage"] == 2 and "B3" in state.board.arena.crates  # the swing cancels out
    events = cast(state, "chop", "B3", [LOCK, 2])  # armor wins: 2 - 1 = 1 more, the crate (3 HP) breaks
    hit = find(events, "scenery_hit")
    assert hit.params["damage"] == 1 and hit.params["reason"] == "armor" and hit.params["reason_rule"] == "602.7b"
    assert "B3" not in state.board.arena.crates


def test_313_7a_only_melee_spells_and_only_with_the_option():
    state = lumber(destructible=False)
    events = cast(state, "chop", "C4", [LOCK])
    assert "km.scenery_hit" not in keys(events)
    state = lumber(rng="ranged")
    state.board.arena = state.board.arena.model_copy(update={"bushes": []})
    events = cast(state, "chop", "C4", [LOCK])
    assert "km.scenery_hit" not in keys(events)
    assert ENGINE.validate_options({"scenery": "destructible"})["scenery"] == "destructible"
    assert "scenery" not in ENGINE.validate_options({"scenery": "fixed"})
