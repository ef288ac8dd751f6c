"""Train and Town (train-town, merchant, items.3–4, health-energy.5; worked examples W10, W42) and a property
test over random equip/unequip/buy/sell/train sequences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.errors import RuleError
from engines.wowboard import rules_sheet as S
from engines.wowboard import rules_town as T
from engines.wowboard.content import builtin
from engines.wowboard.content_cards import ClassCard
from engines.wowboard.state import State
from tests.wowboard.test_sheet import give, refused
from tests.wowboard.test_turn import drafted


def game() -> State:
    """The Horde's action phase: warden and arcanist (seat 0) at Cinderhold, a Horde town."""
    state = drafted()
    for c in state.characters.values():
        S.start_character(state, c)
    return state


def test_train_town_1_w10_train_anywhere_only_powers_up_to_the_level_to_the_spellbook():
    # wowboard:W10
    state = game()
    w = state.characters["warden"]
    w.region, w.level, w.gold = "soot_mire", 2, 20  # no town here: training still works (reading 28)
    refused(T.check_train, state, 0, "warden", ["fury_stance"], key="level_too_high", rule="train-town.1")
    refused(T.check_train, state, 0, "warden", ["second_wind"], key="not_in_class_deck", rule="train-town.1")
    refused(T.check_train, state, 0, "warden", ["boar"], key="not_in_class_deck")
    refused(T.check_train, state, 0, "warden", [], key="nothing_to_train")
    T.do_train(state, 0, "warden", ["iron_stance", "battle_stance"])
    assert w.spellbook == ["iron_stance", "battle_stance"] and w.gold == 15 and w.actions_left == 1
    assert "iron_stance" not in state.class_decks["warden"]
    refused(T.check_train, state, 0, "warden", ["iron_stance"], key="not_in_class_deck")


def test_health_energy_5_train_refused_beyond_the_gold_and_nothing_changes():
    state = game()
    w = state.characters["warden"]
    w.gold = 3
    refused(T.check_train, state, 0, "warden", ["shield_slam", "rallying_shout", "battle_stance"],
            key="not_enough_gold", rule="health-energy.5")
    assert w.gold == 3 and w.spellbook == [] and w.actions_left == 2


def test_w42_a_level_one_character_with_five_gold_buys_two_level_one_powers():
    # wowboard:W42
    pack = builtin()
    state = game()
    for char in ("warden", "arcanist"):
        c = state.characters[char]
        ones = sorted((x for x in pack.class_cards if x.class_id == char and x.kind == "power" and x.level == 1),
                      key=lambda x: x.gold)
        assert c.gold == 5 and ones[0].gold + ones[1].gold <= 5
        T.do_train(state, 0, char, [ones[0].id, ones[1].id])
        assert len(c.spellbook) == 2 and c.gold >= 0
    for char in ("ranger", "cantor"):  # the Alliance decks allow it too
        ones = sorted(x.gold for x in pack.class_cards if x.class_id == char and x.kind == "power" and x.level == 1)
        assert ones[0] + ones[1] <= 5


def test_train_town_2_only_in_a_friendly_town_regain_up_to_the_level():
    state = game()
    w = state.characters["warden"]
    w.health, w.energy = 4, 0
    refused(T.check_town, state, 0, "warden", [], [], [], 1, 1, key="town_total", rule="train-town.2")
    T.do_town(state, 0, "warden", health=1)
    assert w.health == 5 and w.actions_left == 1
    w.region = "soot_mire"
    refused(T.check_town, state, 0, "warden", key="not_in_town", rule="train-town.2")
    w.region = "frostgate"  # an Alliance town
    refused(T.check_town, state, 0, "warden", key="not_in_town")
    w.region, w.health = "cinderhold", 10
    refused(T.check_town, state, 0, "warden", [], [], [], 1, key="rest_capacity", rule="health-energy.2")


def test_merchant_2_buy_at_printed_gold_into_the_bag_whatever_the_level():
    state = game()
    w = state.characters["warden"]
    state.merchant = ["circlet_of_ages", "militia_axe"]
    w.gold = 14
    T.do_town(state, 0, "warden", buy=["circlet_of_ages"])
    assert w.bag == ["circlet_of_ages"] and w.gold == 0 and state.merchant == ["militia_axe"]
    refused(T.check_town, state, 0, "warden", [], ["militia_axe"], key="not_enough_gold", rule="health-energy.5")
    refused(T.check_town, state, 0, "warden", [], ["dawnsplitter"], key="not_in_merchant", rule="merchant.2")


def test_merchant_3_sell_from_bag_or_sheet_for_half_rounded_down_into_the_merchant_pile():
    state = game()
    state.merchant = []  # the set-up's six items aside
    w = state.characters["warden"]
    give(state, "warden", "lucky_knucklebone", "militia_axe")
    w.sheet["melee"].card = "militia_axe"
    w.bag.remove("militia_axe")
    events = T.do_town(state, 0, "warden", sell=["lucky_knucklebone", "militia_axe"])
    assert w.gold == 5 + 1 + 1 and w.bag == [] and w.sheet["melee"].card is None
    assert state.merchant == ["lucky_knucklebone", "militia_axe"]
    assert [e.params["gold"] for e in events if e.key == "wowboard.ev.sold"] == [1, 1]
    state.options["sell_round"] = "up"
    w.bag.append("cinder_wand")
    T.do_town(state, 0, "warden", sell=["cinder_wand"])
    assert w.gold == 7 + 2


def test_merchant_3_town_runs_sell_then_buy_so_a_sale_pays_for_a_purchase():
    state = game()
    w = state.characters["warden"]
    w.gold = 0
    give(state, "warden", "moonglass_wand")
    state.merchant = ["skinning_knife"]
    T.do_town(state, 0, "warden", sell=["moonglass_wand"], buy=["skinning_knife"])
    assert w.gold == 1 and w.bag == ["skinning_knife"]


def test_items_4_power_cards_5_soulbound_items_and_powers_are_never_sold():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "westwind_cloak", "shield_slam")
    refused(T.check_town, state, 0, "warden", ["westwind_cloak"], key="soulbound", rule="items.4")
    refused(T.check_town, state, 0, "warden", ["shield_slam"], key="cannot_sell_power", rule="power-cards.5")
    refused(T.check_town, state, 0, "warden", ["dawnsplitter"], key="not_owned", rule="merchant.3")
    assert w.gold == 5 and w.actions_left == 2


def test_items_3_a_fourth_bag_item_needs_the_discard_answer_up_front_and_the_action_is_atomic():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "militia_axe", "quilted_robe", "lucky_knucklebone")
    state.merchant = ["skinning_knife"]
    before = state.model_dump()
    err = refused(T.check_town, state, 0, "warden", [], ["skinning_knife"], key="town_bag", rule="items.3")
    assert err.params["n"] == 1
    refused(T.check_town, state, 0, "warden", [], [], [], 0, 0, ["militia_axe"], key="town_bag")  # no overflow
    assert state.model_dump() == before
    T.do_town(state, 0, "warden", buy=["skinning_knife"], discard=["quilted_robe"])
    assert sorted(w.bag) == ["lucky_knucklebone", "militia_axe", "skinning_knife"]
    assert state.merchant == ["quilted_robe"] and w.gold == 4


def test_town_and_train_spend_one_action_and_need_your_turn():
    state = game()
    refused(T.check_town, state, 1, "ranger", key="not_your_faction_turn")
    state.characters["warden"].actions_left = 0
    refused(T.check_train, state, 0, "warden", ["shield_slam"], key="no_actions_left")


# --- property test -------------------------------------------------------------------------------------------------
ITEMS = ["militia_axe", "quilted_robe", "healing_draught", "leather_cap", "ringmail_shirt", "hide_jerkin",
         "lucky_knucklebone", "pilgrims_mace", "westwind_cloak", "circlet_of_ages", "bronze_buckler"]
POWERS = ["battle_stance", "shield_slam", "rallying_shout", "iron_stance", "sweeping_cut", "rampart"]
AREAS = ["melee", "ranged", "armor", "trinket", "instant", "active", "stance"]
STEP = st.tuples(st.sampled_from(["equip", "unequip", "buy", "sell", "train", "level"]), st.integers(0, 99))


def _candidates(state: State, kind: str) -> list[tuple[str, str]]:
    """Legal moves of one kind, filtered through the rules' own checks (as ``legal_actions`` will)."""
    w = state.characters["warden"]
    owned = w.spellbook + w.bag + [x for s in w.sheet.values() for x in ([s.card] if s.card else []) + s.addons]
    tries = {"equip": [(c, a) for c in w.spellbook + w.bag for a in AREAS],
             "unequip": [(c, "") for c in owned if c not in w.spellbook + w.bag],
             "buy": [(c, "") for c in state.merchant], "sell": [(c, "") for c in owned],
             "train": [(c, "") for c in state.class_decks["warden"] if c in POWERS]}[kind]
    out = []
    for card, area in tries:
        try:
            _do(state, kind, card, area, check=True)
        except RuleError:
            continue
        out.append((card, area))
    return out


def _do(state: State, kind: str, card: str, area: str, check: bool = False) -> None:
    w = state.characters["warden"]
    surplus = [x for x in w.bag if x != card][:max(0, len(w.bag) + 1 - S.BAG_LIMIT)]
    call = {"equip": (S.check_equip, S.do_equip, (card, area)), "unequip": (S.check_unequip, S.do_unequip, (card,)),
            "train": (T.check_train, T.do_train, ([card],))}
    if kind == "buy":
        (T.check_town if check else T.do_town)(state, 0, "warden", buy=[card], discard=surplus)
    elif kind == "sell":
        (T.check_town if check else T.do_town)(state, 0, "warden", sell=[card])
    else:
        fn_check, fn_do, args = call[kind]
        (fn_check if check else fn_do)(state, 0, "warden", *args)


def _places(state: State, card: str) -> int:
    w = state.characters["warden"]
    return (state.class_decks["warden"].count(card) + w.spellbook.count(card) + w.bag.count(card)
            + state.merchant.count(card) + sum(s.card == card for s in w.sheet.values())
            + sum(s.addons.count(card) for s in w.sheet.values()))


@settings(max_examples=60, deadline=None)
@given(st.lists(STEP, max_size=25), st.integers(min_value=0, max_value=30))
def test_property_equip_unequip_buy_sell_keep_places_bag_unique_gold_and_capacity(steps, gold):
    state = game()
    w = state.characters["warden"]
    w.gold = gold
    state.merchant = list(ITEMS)
    pack = builtin()
    for kind, pick in steps:
        state.phase, w.actions_left = ("management", 0) if kind in ("equip", "unequip") else ("play", 2)
        if kind == "level":
            w.level = min(5, w.level + 1)
            w.energy = S.capacity_of(state, w)[1]  # levels.3: a full refill
            continue
        moves = _candidates(state, kind)
        if not moves:
            continue
        _do(state, kind, *moves[pick % len(moves)])
        while len(w.bag) > S.BAG_LIMIT:  # the overflow decision, answered with the oldest item
            state.merchant.append(w.bag.pop(0))
        for c in ITEMS + POWERS:
            assert _places(state, c) == 1, c
        assert len(w.bag) <= S.BAG_LIMIT and w.gold >= 0
        uniques = [x.unique for s in w.sheet.values() if s.card
                   for x in [S.card_of(pack, s.card)] if isinstance(x, ClassCard) and x.unique]
        assert len(uniques) == len(set(uniques))
        max_h, max_e = S.capacity_of(state, w)
        assert 0 <= w.energy <= max_e and w.health <= max_h
