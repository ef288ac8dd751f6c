"""Card mechanics of the full game (issue 30.3): secondary abilities, simultaneous triggers, spotting, "the
previous combat round", participating friendly characters, removing dice, "training" and events that
change travel; the worked examples W14–W16. Every scenario runs on the built-in full pack's own cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard import rules_combat as C
from engines.wowboard import rules_fight as F
from engines.wowboard import rules_spot as S
from engines.wowboard.combat_state import AttackPhase, Die
from engines.wowboard.content import Pack, builtin_full, check_cards
from engines.wowboard.content_cards import ClassCard, Condition, Effect, Event, Item, Op
from engines.wowboard.rules_answers import answer
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_events import travel_closures
from engines.wowboard.rules_participants import combat_start
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.rules_town import do_town, do_train
from engines.wowboard.rules_travel import destinations
from engines.wowboard.rules_turn import check_travel
from engines.wowboard.state import SCHEMA_VERSION, Figure, Slot, State
from tests.wowboard.issue30_tables import full_table

PACK = builtin_full()
FIGHT_AT = "soot_mire"


def table(*names: str, foe: str = "dunecur", tier: str = "green") -> State:
    """The four-seat full game (Horde: arcanist, ranger; Alliance: warden, cantor) with ``names`` standing in
    the mire next to one independent-free creature figure of ``foe`` (a horde quest creature)."""
    state = full_table(4)
    state.figures, state.quests = {}, []
    for name in names:
        state.characters[name].region = FIGHT_AT
    state.figures["x0"] = Figure(id="x0", type=foe, tier=tier, region=FIGHT_AT)  # type: ignore[arg-type]
    return state


def equip(state: State, name: str, area: str, card: str) -> None:
    state.characters[name].sheet[area] = Slot(card=card)
    deck = state.class_decks.get(name, [])
    if card in deck:
        deck.remove(card)


def challenge(state: State, name: str, foe: str = "dunecur") -> None:
    """One character challenges the figure through the action (horde's turn)."""
    c = state.characters[name]
    F.challenge(state, c.seat, name, f"group:{FIGHT_AT}:{foe}:free", [], RecordedDice([]))
    assert state.combat is not None and state.combat.attack is not None


def seat(state: State, name: str) -> int:
    return state.characters[name].seat


# ---------------------------------------------------------------------------- card-limits.3, W14
def test_W14_the_paid_instant_adds_a_blue_die_and_its_secondary_needs_an_8_at_the_reroll_step() -> None:
    # wowboard:card-limits.3 wowboard:card-limits.7
    state = table("arcanist")
    equip(state, "arcanist", "instant_2", "cinder_lance")
    challenge(state, "arcanist")
    energy = state.characters["arcanist"].energy
    # pool: pre-printed melee 1 red and armor 1 green, Cinder Lance 1 blue -> blue, red, green
    F.roll(state, seat(state, "arcanist"), ["cinder_lance"], [], RecordedDice([8, 3, 2]))
    attack = state.combat.attack
    assert state.characters["arcanist"].energy == energy - 1  # the first ability's energy, paid at the pool step
    assert [d.colour for d in attack.dice] == ["blue", "red", "green"]
    assert attack.reroll == 2 and attack.spotted == [0]  # the secondary spotted the blue 8: Reroll +2


def test_card_limits_3_the_secondary_does_nothing_in_a_round_the_instant_was_not_paid() -> None:
    state = table("arcanist")
    equip(state, "arcanist", "instant_2", "cinder_lance")
    challenge(state, "arcanist")
    energy = state.characters["arcanist"].energy
    events = F.roll(state, seat(state, "arcanist"), [], [], RecordedDice([8, 2]))  # a red 8 would fit the spot
    assert state.characters["arcanist"].energy == energy
    assert not any(e.key.endswith(("spotted", "trigger_resolved")) for e in events)
    assert state.combat.attack is None or state.combat.attack.reroll == 0


def test_card_limits_3_a_secondary_ability_is_refused_on_load_where_nothing_pays_for_it() -> None:
    spot8 = Condition(kind="spot", colours=["blue"], face=8)
    second = Effect(timing="reroll_end", secondary=True, condition=spot8, ops=[Op(op="attrition", n=1)])
    first = Effect(timing="dice_pool", ops=[Op(op="add_dice", colour="blue", n=1)])
    ClassCard(id="ok", name="Ok", class_id="ranger", kind="power", power_type="instant", energy=1, level=1,
              effects=[first, second])
    with pytest.raises(ValidationError, match=r"card-limits\.3"):  # an active power pays no cost in the round
        ClassCard(id="no", name="No", class_id="ranger", kind="power", power_type="active", energy=1, level=1,
                  effects=[first, second])
    with pytest.raises(ValidationError, match=r"card-limits\.3"):  # the secondary cannot come first
        ClassCard(id="no", name="No", class_id="ranger", kind="power", power_type="instant", energy=1, level=1,
                  effects=[second, first])
    with pytest.raises(ValidationError, match="secondary"):
        Item(id="no", name="No", deck="triangle", type="trinket", gold=1, level=1, effects=[first, second])
    with pytest.raises(ValidationError, match="reroll_start or reroll_end"):  # dice are spotted on the roll only
        Effect(timing="dice_pool", condition=spot8, ops=[Op(op="add_dice", colour="red", n=1)])


# ---------------------------------------------------------------------------- card-limits.6, W15
def _ranger_with(state: State, *cards: tuple[str, str]) -> None:
    for area, card in cards:
        equip(state, "ranger", area, card)


def test_W15_two_cards_trigger_at_the_end_of_the_reroll_step_and_the_active_player_orders_them() -> None:
    # wowboard:card-limits.6 wowboard:card-limits.8
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"), ("active_2", "windreader"))
    challenge(state, "ranger")
    F.roll(state, seat(state, "ranger"), [], [], RecordedDice([3, 2]))  # pre-printed ranged: 2 blue; no Reroll
    top = state.pending[0]
    assert top.kind == "effect_order" and top.seats == [seat(state, "ranger")] and top.character == "ranger"
    assert top.options == ["falcon_sight>windreader", "windreader>falcon_sight"]
    # Windreader first turns the 2 into an 8, which Falcon Sight may then spot (each resolves in full)
    events = answer(state, seat(state, "ranger"), "windreader>falcon_sight", RecordedDice([]))
    keys = [e.key.rsplit(".", 1)[1] for e in events]
    assert keys.index("die_changed") < keys.index("spotted") < keys.index("hits_placed")
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_damage"] == 2  # the changed 8 hits (threat 4) and Falcon Sight adds one more


def test_card_limits_6_the_other_order_leaves_the_spot_without_a_die() -> None:
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"), ("active_2", "windreader"))
    challenge(state, "ranger")
    F.roll(state, seat(state, "ranger"), [], [], RecordedDice([3, 2]))
    events = answer(state, seat(state, "ranger"), "falcon_sight>windreader", RecordedDice([]))
    assert any(e.key.endswith("spot_missed") for e in events)
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_damage"] == 1  # only the changed die, no bonus


def test_card_limits_6_a_lone_trigger_resolves_without_a_question_and_a_bad_order_is_refused() -> None:
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"))
    challenge(state, "ranger")
    events = F.roll(state, seat(state, "ranger"), [], [], RecordedDice([8, 2]))
    assert not state.pending and any(e.key.endswith("spotted") for e in events)
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"), ("active_2", "windreader"))
    challenge(state, "ranger")
    F.roll(state, seat(state, "ranger"), [], [], RecordedDice([3, 2]))
    with pytest.raises(RuleError):
        answer(state, seat(state, "ranger"), "windreader", RecordedDice([]))
    with pytest.raises(RuleError) as err:
        F.order_effects(state, "windreader>windreader", RecordedDice([]))
    assert err.value.rule == "card-limits.6"


# ---------------------------------------------------------------------------- card-limits.8, W16
def test_W16_two_abilities_need_an_8_and_one_blue_8_fires_only_one() -> None:
    # wowboard:card-limits.8
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"), ("instant", "pinning_shot"))
    challenge(state, "ranger")
    # pool: pre-printed 2 blue + Pinning Shot 1 blue (paid); only one die shows 8
    F.roll(state, seat(state, "ranger"), ["pinning_shot"], [], RecordedDice([8, 3, 2]))
    top = state.pending[0]
    assert top.kind == "effect_order"
    events = answer(state, seat(state, "ranger"), "pinning_shot>falcon_sight", RecordedDice([]))
    spotted = [e for e in events if e.key.endswith("spotted")]
    assert [e.params["card"] for e in spotted] == ["pinning_shot"]  # one die, one spot
    assert any(e.key.endswith("spot_missed") and e.params["card"] == "falcon_sight" for e in events)
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_defense"] == 2 and placed.params["hit_damage"] == 1  # the 8 itself, no Falcon bonus


def test_card_limits_8_two_8s_let_both_abilities_fire() -> None:
    state = table("ranger")
    _ranger_with(state, ("active", "falcon_sight"), ("instant", "pinning_shot"))
    challenge(state, "ranger")
    F.roll(state, seat(state, "ranger"), ["pinning_shot"], [], RecordedDice([8, 8, 2]))
    events = answer(state, seat(state, "ranger"), "falcon_sight>pinning_shot", RecordedDice([]))
    assert sorted(e.params["card"] for e in events if e.key.endswith("spotted")) == ["falcon_sight", "pinning_shot"]


def test_card_limits_8_a_creature_ability_may_read_the_die_a_card_spotted() -> None:
    state = table("warden", foe="mirefin")  # its ability: each red 1 is a wound
    state.active = "alliance"
    warden = state.characters["warden"]
    warden.level, warden.talents, warden.actions_left = 3, {3: "grit"}, 2
    challenge(state, "warden", foe="mirefin")
    # pool: pre-printed melee 2 red, armor 1 green, stance 1 green
    events = F.roll(state, warden.seat, [], [], RecordedDice([1, 4, 2, 2]))
    assert any(e.key.endswith("spotted") and e.params["card"] == "grit" for e in events)  # Grit spots the red 1
    by_ability = [e for e in events if e.key.endswith("wounded") and e.params["source"] == "ability"]
    assert [e.params["n"] for e in by_ability] == [1]  # and the creature still reads that same red 1
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_attrition"] == 1


def test_card_limits_8_a_die_is_spotted_once_per_round_and_a_fresh_round_spots_again() -> None:
    attack = AttackPhase(character="x", dice=[Die(colour="blue", value=8, first=8)])
    eight = Condition(kind="spot", colours=["blue"], face=8)
    first = S.spot(attack, eight)
    assert first == [0]
    attack.spotted += first
    assert S.spot(attack, eight) is None
    assert S.spot(AttackPhase(character="x", dice=attack.dice), eight) == [0]  # the next round's attack phase
    seven_up = Condition(kind="spot", colours=["red", "blue"], face=7, or_higher=True, count=2)
    mixed = AttackPhase(character="x", dice=[Die(colour="red", value=8, first=8), Die(colour="blue", value=7, first=7),
                                             Die(colour="green", value=8, first=8)])
    assert S.spot(mixed, seven_up) == [1, 0]  # the lowest that fit first; green is not one of the colours


# ---------------------------------------------------------------------------- card-limits.9
def test_card_limits_9_the_previous_round_is_the_one_just_before_in_this_same_combat() -> None:
    state = table("arcanist")
    equip(state, "arcanist", "instant_2", "ember_bolt")  # +1 blue; +1 more if used in the previous round
    arcanist = state.characters["arcanist"]
    arcanist.health, arcanist.energy = 12, 7  # enough health to stand three rounds of the dunecur's 3 wounds
    challenge(state, "arcanist")
    F.roll(state, arcanist.seat, ["ember_bolt"], [], RecordedDice([2, 2, 2]))  # blue 1, red 1, green 1: no hits
    assert state.combat is not None and state.combat.round == 2  # the dunecur's 3 wounds landed
    F.roll(state, arcanist.seat, ["ember_bolt"], [], RecordedDice([2, 2, 2, 2]))
    assert state.combat.round == 3
    assert "2:ember_bolt" in arcanist.used_round  # round 2 rolled two blue dice (four dice in all)
    card = next(c for c in PACK.class_cards if c.id == "ember_bolt")
    again = card.effects[1].condition
    assert holds(state, arcanist, "ember_bolt", again)  # round 3: it was used in round 2
    state.combat.round = 4
    assert not holds(state, arcanist, "ember_bolt", again)  # two rounds back is not "the previous round"
    state.combat = None
    C.start(state, PACK, ["arcanist"], f"group:{FIGHT_AT}:dunecur:free")  # a new fight
    assert not holds(state, arcanist, "ember_bolt", again)  # its first round has no previous round
    state.combat.round = 2
    assert not holds(state, arcanist, "ember_bolt", again)  # the old fight's round-1 use is not this fight's


# ---------------------------------------------------------------------------- combat-general.3
def test_combat_general_3_a_participating_friend_includes_the_user_and_needs_the_user_in_the_fight() -> None:
    state = table("cantor", "warden", foe="dunecur")
    cantor, warden = state.characters["cantor"], state.characters["warden"]
    cantor.level, cantor.talents = 4, {4: "inspire"}  # each participant gains 1 energy as a fight starts
    cantor.energy, warden.energy = 1, 3  # the warden is full (capacity 3 at level 1)
    C.start(state, PACK, ["cantor", "warden"], f"group:{FIGHT_AT}:dunecur:free")
    events = combat_start(state)
    assert cantor.energy == 2 and warden.energy == 4 and warden.overcap == {"energy": 1}  # a gain may pass capacity
    assert {e.params["name"] for e in events} == {"cantor", "warden"}
    state.combat = None
    warden.energy, warden.overcap = 3, {}
    C.start(state, PACK, ["warden"], f"group:{FIGHT_AT}:dunecur:free")  # the cantor stands by, not fighting
    assert combat_start(state) == [] and warden.energy == 3


def test_combat_general_3_the_gain_above_capacity_goes_when_the_fight_ends() -> None:
    state = table("cantor", foe="dunecur")
    state.active = "alliance"
    cantor = state.characters["cantor"]
    cantor.level, cantor.talents, cantor.actions_left = 4, {4: "inspire"}, 2
    cantor.energy = capacity_of(state, cantor)[1]  # already full
    full = cantor.energy
    challenge(state, "cantor")
    assert cantor.energy == full + 1 and cantor.overcap == {"energy": 1}
    fight = state.combat
    C.end(state, won=False)  # the fight is over, however it ended
    F.settle(state, RecordedDice([]), fight)
    assert cantor.energy == full and cantor.overcap == {}


# ---------------------------------------------------------------------------- combat-general.4
def test_combat_general_4_removed_dice_are_set_aside_and_cannot_be_rerolled() -> None:
    state = table("warden")
    state.active = "alliance"
    warden = state.characters["warden"]
    warden.actions_left, warden.energy = 2, 3
    equip(state, "warden", "instant", "reckless_swing")  # +2 red; secondary: remove a green die for Reroll +2
    challenge(state, "warden")
    # pool: red 2 + 2, green 1 + 1 -> four red then two green
    F.roll(state, warden.seat, ["reckless_swing"], [], RecordedDice([3, 3, 3, 3, 5, 2]))
    assert state.pending[0].kind == "optional_trigger"  # the price is the player's to pay (test_optional_triggers)
    events = answer(state, warden.seat, "use", RecordedDice([]))
    attack = state.combat.attack
    assert any(e.key.endswith("dice_set_aside") for e in events)
    assert [(d.colour, d.value) for d in attack.set_aside] == [("green", 2)]  # the lowest green went
    assert len(attack.dice) == 5 and attack.reroll == 2
    assert S.room(attack, "green") == 5  # the removed die still counts under the colour's 7
    with pytest.raises(RuleError):
        F.reroll(state, warden.seat, [5], RecordedDice([8]))  # there is no sixth die in the pool any more
    F.reroll(state, warden.seat, [0, 1], RecordedDice([8, 8]))


def test_combat_general_4_phantom_and_spotted_dice_cannot_be_removed() -> None:
    state = table("warden")
    warden = state.characters["warden"]
    attack = AttackPhase(character="warden", dice=[Die(colour="green", value=2, first=2),
                                                   Die(colour="green", value=8, first=8)],
                         phantom={"green": 3}, spotted=[1])
    price = Effect(timing="reroll_start", ops=[Op(op="remove_own_dice", colour="green", n=2), Op(op="reroll", n=1)])
    t = S.Trigger(key="t", source="t", power_type=None, effect=price)
    events = S.fire(state, warden, attack, t)
    assert [e.key.rsplit(".", 1)[1] for e in events] == ["remove_short"]  # one real, unspotted green only
    assert len(attack.dice) == 2 and attack.reroll == 0 and attack.set_aside == []
    one = Effect(timing="reroll_start", ops=[Op(op="remove_own_dice", colour="green", n=1), Op(op="reroll", n=1)])
    S.fire(state, warden, attack, S.Trigger(key="u", source="u", power_type=None, effect=one))
    assert [d.value for d in attack.dice] == [8] and attack.spotted == [0]  # the spot mark follows its die
    assert attack.reroll == 1


# ---------------------------------------------------------------------------- train-town.3
def test_train_town_3_training_means_buying_powers_by_a_train_or_a_town_action() -> None:
    state = table()
    arcanist = state.characters["arcanist"]
    arcanist.level, arcanist.talents, arcanist.gold = 2, {2: "quick_study"}, 10
    arcanist.region = "cinderhold"  # the Horde's town
    do_train(state, arcanist.seat, "arcanist", ["focus"])  # 2 gold, 1 off
    assert arcanist.gold == 9 and "focus" in arcanist.spellbook
    events = do_town(state, arcanist.seat, "arcanist", powers=["frost_shard", "ember_bolt"])  # 2 + 1, one off
    assert arcanist.gold == 9 - 2 - 1 + 1
    assert sum(e.params["n"] for e in events if e.key.endswith("training_discount")) == 1  # once per action
    card = next(c for c in PACK.class_cards if c.id == "quick_study")
    assert card.effects[0].ops[0].op == "train_discount"


def test_train_town_3_buying_an_item_is_not_training() -> None:
    state = table()
    arcanist = state.characters["arcanist"]
    arcanist.level, arcanist.talents, arcanist.gold = 2, {2: "quick_study"}, 20
    arcanist.region = "cinderhold"
    item = next(i for i in PACK.items if i.gold >= 1 and i.deck == "triangle")
    for deck in state.item_decks.values():
        deck.take(item.id)
    state.merchant.append(item.id)
    events = do_town(state, arcanist.seat, "arcanist", buy=[item.id])
    assert arcanist.gold == 20 - item.gold and not any(e.key.endswith("training_discount") for e in events)


# ---------------------------------------------------------------------------- travel.6
def test_travel_6_a_face_up_event_closes_a_road_both_ways() -> None:
    state = table()
    state.figures = {}
    ranger = state.characters["ranger"]
    ranger.region = "soot_mire"
    assert check_travel(state, ranger.seat, "ranger", "mossmere")[1] == ["mossmere"]
    state.events_active.append("ev_rockslide")
    assert "mossmere" not in _one_move(state)  # the road itself is closed
    _, path = check_travel(state, ranger.seat, "ranger", "mossmere")
    assert path != ["mossmere"]  # still reachable, but around the closed road
    ranger.region = "mossmere"
    _, path = check_travel(state, ranger.seat, "ranger", "soot_mire")
    assert path != ["soot_mire"]


def _one_move(state: State) -> dict[str, list[str]]:
    """Where the ranger gets in one move under the face-up events."""
    c = state.characters["ranger"]
    return destinations(PACK, c.faction, c.region, moves=1, closed=travel_closures(state, c.faction))


def test_travel_6_closed_flight_paths_and_extra_moves() -> None:
    state = table()
    state.figures = {}
    arcanist = state.characters["arcanist"]
    far = "withered_vale"  # a Horde flight path in area F
    assert check_travel(state, arcanist.seat, "arcanist", far)[1] == [far]  # one flight from Cinderhold
    state.events_active.append("ev_ashfall")  # flight paths in area F are closed
    reach = destinations(PACK, "horde", "cinderhold", closed=travel_closures(state, "horde"))
    assert reach.get(far) != [far] and "brine_hollow" in reach  # no flight into F; the other flights still work
    assert check_travel(state, arcanist.seat, "arcanist", "brine_hollow")[1] == ["brine_hollow"]
    state.events_active.remove("ev_ashfall")
    state.events_active.append("ev_tailwind")  # the weaker faction makes one more move per travel
    three = _three_moves_away(state, "cinderhold")
    with pytest.raises(RuleError):
        check_travel(state, arcanist.seat, "arcanist", three)  # equal XP: no faction is weaker
    state.characters["warden"].xp = 3  # the Alliance is now stronger, the Horde weaker
    assert len(check_travel(state, arcanist.seat, "arcanist", three)[1]) == 3


def _three_moves_away(state: State, start: str) -> str:
    two = destinations(PACK, "horde", start)
    three = destinations(PACK, "horde", start, moves=3)
    return next(r for r in three if r not in two)


def test_travel_6_lasting_travel_ops_only_on_a_lasting_event_and_roads_must_exist() -> None:
    with pytest.raises(ValidationError, match=r"travel\.6"):
        Event(id="e", title="E", kind="normal", destiny=0,
              ops=[{"op": "close_road", "region": "soot_mire", "to": "mossmere"}])  # type: ignore[list-item]
    data = PACK.model_dump(exclude_unset=True)
    bad = next(e for e in data["events"] if e["id"] == "ev_rockslide")
    bad["ops"][0]["to"] = "havenford"
    with pytest.raises(RuleError) as err:
        check_cards(Pack.model_validate(data))
    assert "no road" in str(err.value.params["problem"])


# ---------------------------------------------------------------------------- saved games (state v5)
FIXTURES = Path(__file__).parent / "fixtures"


def test_card_limits_6_a_frozen_v4_fight_loads_as_v5_and_its_triggers_are_ordered() -> None:
    text = (FIXTURES / "fight_ranger_pool.v4.json").read_text()
    assert '"schema_version": 4' in text and '"spotted"' not in text and '"window"' not in text
    state = ENGINE.load_state(text)
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION >= 5
    attack = state.combat.attack
    assert attack.spotted == [] and attack.set_aside == [] and attack.bonus == {} and attack.window == ""
    ranger = state.characters["ranger"]
    ENGINE.apply(state, ranger.seat, {"kind": "roll", "character": "ranger"},  # type: ignore[arg-type]
                 RecordedDice([3, 2]))
    assert state.pending[0].kind == "effect_order" and state.combat.attack.window == "reroll_end"
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "effect_order" and d.seats == [ranger.seat]
    ENGINE.apply(state, ranger.seat, {"kind": "choose", "value": "windreader>falcon_sight"},  # type: ignore[arg-type]
                 RecordedDice([]))
    assert ENGINE.load_state(state.model_dump_json()) == state


def test_card_limits_6_the_v3_fixture_climbs_to_v5() -> None:
    state = ENGINE.load_state((FIXTURES / "play_4seats_full.v3.json").read_text())
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION
