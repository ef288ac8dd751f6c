"""605.19 replace, 605.20 token exchange, 308.6 wound exchange, 504.1/314.1d "until the end of the
turn" effects, and the rewards that add range (306.3c), element damage (602.7c) and healing (603.2b)."""

from __future__ import annotations

from engines.krosmaster import ENGINE, spell_targets
from engines.krosmaster.actions import Cast, RevealReward
from engines.krosmaster.content import builtin_pack
from engines.krosmaster.rules_damage import damage_for
from engines.krosmaster.rules_stats import max_stat
from engines.krosmaster.rules_tokens import add_tokens
from tests.krosmaster.builders import CRIT, LOCK, act, cast, end_turn, fig, find, game, keys, spell
from tests.krosmaster.test_kamas_rewards import card_of, holding, rw

MISS = [LOCK, LOCK]  # no critical success, no armor success


def shaper_game():
    pack = builtin_pack()
    state = game([("a", pack.figurine("wildshaper"), 0, "E5"), ("z", fig("z"), 1, "E9")])
    state.forms = pack.forms([pack.figurine("wildshaper")])
    return state


# -- 605.19 -------------------------------------------------------------------------------------
def test_605_19_replace_changes_card_and_figure_and_keeps_every_token():
    state = shaper_game()
    a = state.pieces["a"]
    a.wounds, a.frozen_wounds, a.mp_tokens = 4, 1, -1
    events = cast(state, "bear_form", "E5")  # a special spell: no dice (604.2)
    assert find(events, "replaced").params["into"] == "Ursa Wildshaper-Bear Form"  # 605.19a: card and figure
    assert a.figurine.id == "wildshaper_bear" and a.hp == 12 and a.has("lock")
    assert (a.wounds, a.frozen_wounds, a.mp_tokens, a.pos, a.short) == (4, 1, -1, "E5", "A")
    assert state.player(0).timeline == ["a"]  # 204.3b: the slot is kept
    assert {x.spell for x in ENGINE.legal_actions(state, 0) if isinstance(x, Cast)} >= {"maul", "human_form"}


def test_605_19_a_smaller_card_caps_the_wounds_and_can_knock_out():
    state = shaper_game()
    cast(state, "bear_form", "E5")
    a = state.pieces["a"]
    a.wounds = 10
    state.pieces["a"].used_turn = []
    cast(state, "human_form", "E5")  # back to 9 HP with 10 wounds: 308.7 caps, 308.1 K.O.
    assert a.ko and state.phase == "over" and state.winners == [1]


def test_605_19_replace_forms_travel_with_the_game_from_set_up():
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice

    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="A", config={"team": ["wildshaper", "iron_warden",
                                                                                    "tide_healer", "mire_imp",
                                                                                    "root_druid", "mire_imp"]}),
                         SeatSetup(seat=1, user_id=2, name="B", config={"team": ["bone_crusher", "gale_archer",
                                                                                    "cloud_sage", "mirror_mage"]})])
    state = ENGINE.new_game(setup, SeededDice(1))
    assert set(state.forms) == {"wildshaper", "wildshaper_bear"}
    assert ENGINE.load_state(state.model_dump_json()) == state


# -- 605.20 and 308.6 --------------------------------------------------------------------------
def swap_game(**target):
    mirra = builtin_pack().figurine("mirror_mage")
    return game([("a", mirra, 0, "E5"), ("z", fig("z", **target), 1, "E6")])


def test_605_20_token_exchange_is_not_a_placement():
    state = swap_game()
    a, z = state.pieces["a"], state.pieces["z"]
    a.ap_tokens, z.ap_tokens, z.mp_tokens = 0, 2, -2
    a.mp_tokens = 1
    events = cast(state, "token_twist", "E6")
    assert (a.ap_tokens, a.mp_tokens, z.ap_tokens, z.mp_tokens) == (2, -2, 0, 1)
    # 605.20a: a manipulation, not a placement: no token is placed, so nothing cancels (309.7) or triggers.
    assert "km.tokens_swapped" in keys(events) and "km.ap_tokens" not in keys(events)


def test_605_20_exchanged_tokens_still_fit_309_5_and_309_6_and_307_18_stops_it():
    state = swap_game(mp=2)
    a, z = state.pieces["a"], state.pieces["z"]
    a.mp_tokens = -3  # a has MP 3; z has MP 2: only two -1 MP tokens fit (309.6)
    cast(state, "token_twist", "E6")
    assert z.mp_tokens == -2 and a.mp_tokens == 0
    state = swap_game(powers=["insensitive"])
    state.pieces["z"].ap_tokens = 2
    events = cast(state, "token_twist", "E6")
    assert "km.insensitive" in keys(events) and state.pieces["z"].ap_tokens == 2


def test_308_6_wound_exchange_moves_wounds_without_inflicting_them():
    state = swap_game(hp=6, powers=["counterattack"])
    a, z = state.pieces["a"], state.pieces["z"]
    a.wounds, z.wounds = 5, 1
    events = cast(state, "mirror_pain", "E6")
    assert (a.wounds, z.wounds) == (1, 5)
    assert "km.counterattack" not in keys(events)  # moved wounds are neither inflicted nor suffered
    assert find(events, "wounds_swapped").params["other_wounds"] == 5


def test_308_6_308_7_exchange_caps_at_hp_and_a_full_card_is_ko_credited_to_the_caster():
    state = swap_game(hp=3, level=2)
    a, z = state.pieces["a"], state.pieces["z"]
    a.wounds = 6
    events = cast(state, "mirror_pain", "E6")
    assert z.ko and a.wounds == 0 and "km.ko" in keys(events)
    assert state.player(0).gg == 6 + 2  # the wild GG and one of the opponent's


# -- 504.1 / 314.1d ------------------------------------------------------------------------------
def dancer_game():
    reeda = builtin_pack().figurine("staff_dancer")
    return game([("a", reeda, 0, "E5"), ("b", fig("b"), 0, "A1"), ("z", fig("z", hp=20), 1, "E7"),
                 ("y", fig("y"), 1, "L12")])


def test_314_1d_a_spell_that_grows_until_the_end_of_the_turn():
    state = dancer_game()
    first = cast(state, "returning_staff", "E7", MISS)
    assert find(first, "damage").params["damage"] == 2  # 1 + the +1 its own step 3 just left
    second = cast(state, "returning_staff", "E7", MISS)
    assert find(second, "damage").params["damage"] == 3
    ended = end_turn(state)
    assert "km.turn_effects_ended" in keys(ended) and state.pieces["a"].turn_effects == []  # 504.1


def test_504_1_an_element_bonus_until_the_end_of_the_turn_helps_only_that_element():
    state = dancer_game()
    cast(state, "fire_dance", "E5")
    a, z = state.pieces["a"], state.pieces["z"]
    assert damage_for(builtin_pack().figurine("staff_dancer").spells[2], a, z, 0, 0) == 3  # fire: +1
    assert damage_for(spell("rock", amount=2, element="earth"), a, z, 0, 0) == 2


def test_504_1_range_until_the_end_of_the_turn_only_for_modifiable_spells():
    state = game([("a", builtin_pack().figurine("wildshaper"), 0, "E1"), ("z", fig("z"), 1, "E7")])
    assert "E7" not in {label(p.target) for p in spell_targets(state, "thorn_volley")}  # 2-4
    cast(state, "eagle_eye", "E1")
    assert "E7" in {label(p.target) for p in spell_targets(state, "thorn_volley")}  # 2-6 now


def label(square):
    from engines.krosmaster.rules_board import label as fmt

    return fmt(square)


# -- rewards (306.3c, 602.7c, 603.2b) -------------------------------------------------------------
def test_602_7c_the_air_boost_adds_only_to_air_spells_until_the_end_of_the_turn():
    state = holding([rw("air", damage=2, element="air")])
    act(state, RevealReward(reward=card_of(state, "air")))
    a, z = state.pieces["a"], state.pieces["z"]
    assert a.rewards == []  # 306.3a: used up at once, its bonus lasts for the turn (504.1)
    to_fu_ti = spell("tofu", amount=1, element="air", effects=[{"kind": "element_damage", "value": 2,
                                                                "element": "air"}])
    z.figurine = z.figurine.model_copy(update={"powers": ["resist_air"]})
    assert damage_for(to_fu_ti, a, z, 1, 1) == 4  # 1 + 2 + 2 (Air Boost) + 0 - 1, the worked example
    assert damage_for(spell("fire", amount=1, element="fire"), a, z, 0, 0) == 1


def test_306_3c_a_range_equipment_adds_to_modifiable_spells_only():
    state = holding([rw("monocle", rank="jade", type="equipment", slot="trophy", range=1)])
    a = state.pieces["a"]
    a.figurine = a.figurine.model_copy(update={"spells": [
        spell("far", range={"type": "ranged", "min": 1, "max": 3, "modifiable": True}),
        spell("fixed", range={"type": "ranged", "min": 1, "max": 3})]})
    reach = {s: {label(p.target) for p in spell_targets(state, s)} for s in ("far", "fixed")}
    act(state, RevealReward(reward=card_of(state, "monocle")))
    after = {s: {label(p.target) for p in spell_targets(state, s)} for s in ("far", "fixed")}
    assert after["fixed"] == reach["fixed"] and len(after["far"]) > len(reach["far"])


def test_603_2b_healing_from_a_reward_adds_to_heal_spells():
    state = holding([rw("tofu", type="equipment", slot="pet", heal_bonus=1)])
    act(state, RevealReward(reward=card_of(state, "tofu")))
    a = state.pieces["a"]
    a.figurine = a.figurine.model_copy(update={"spells": [spell("mend", kind="heal", amount=1,
                                                                range={"type": "self"})]})
    a.wounds = 5
    events = cast(state, "mend", "C3", [LOCK])  # 1 + 1 (reward), no critical success
    assert find(events, "healed").params["healed"] == 2 and a.wounds == 3


# -- 309.6 with 306.3c ----------------------------------------------------------------------------
def test_309_6_the_minus_token_cap_is_the_modified_maximum_equipment_included():
    state = holding([rw("dofus", rank="jade", type="equipment", slot="dofus", ap=1)])
    a = state.pieces["a"]
    act(state, RevealReward(reward=card_of(state, "dofus")))
    assert max_stat(a, "ap") == 7
    assert add_tokens(a, "ap", -9) == 7 and a.ap_tokens == -7  # printed 6, +1 from the equipment
    assert add_tokens(a, "ap", -1) == 0


def test_309_6_the_bar_refill_and_the_cap_read_the_same_maximum():
    state = holding([rw("boots", rank="jade", type="equipment", slot="trophy", mp=1)])
    act(state, RevealReward(reward=card_of(state, "boots")))
    a = state.pieces["a"]
    add_tokens(a, "mp", -5)
    from engines.krosmaster.rules_turn import activate

    activate(state, "a")
    assert a.mp == 0  # 3 + 1 MP MAX, 4 -1 tokens (309.4, 309.6)


def test_critical_success_is_one_face():
    assert CRIT == 1
