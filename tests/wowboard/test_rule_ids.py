"""Scenario tests for rule ids of the spec (§2) that had no test of their own: challenge.4, .6, faction-turn.3,
factions.2, health-energy.3–4, card-limits.2, .4, .5, .7, items.2, .5, merchant.1, levels.1, .3, quest-rewards.7,
character-defeat.5. Each builds its position through the engine (the helpers of the other wowboard tests), acts,
and checks the rule's effect, so breaking the rule breaks the test."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard import rules_combat as C
from engines.wowboard import rules_sheet as S
from engines.wowboard import rules_town as T
from engines.wowboard.content import builtin
from engines.wowboard.content_cards import Item
from engines.wowboard.rules_defeat import last_chance_options
from engines.wowboard.rules_fight import after_fight, pool_effects
from engines.wowboard.rules_items import receive, resolve_overflow, track_item
from engines.wowboard.rules_rewards import level_for
from engines.wowboard.state import ActiveQuest, Figure, State
from tests.wowboard.test_combat import fight, pool
from tests.wowboard.test_sheet import give, managing
from tests.wowboard.test_turn import E, act, drafted

PACK = builtin()


def _item(item_id: str) -> Item:
    return next(i for i in PACK.items if i.id == item_id)


def _sheets(state: State) -> State:
    for c in state.characters.values():
        S.start_character(state, c)
    return state


def _quest_figure(state: State, fid: str, ctype: str, tier: str, region: str, card: str = "H-G01",
                  faction: str = "horde") -> None:
    """One quest figure of ``card`` (the quest's only living figure) in ``region``."""
    state.figures[fid] = Figure(id=fid, type=ctype, tier=tier, region=region, quest=card,  # type: ignore[arg-type]
                                faction=faction)  # type: ignore[arg-type]
    quest = next((q for q in state.quests if q.card == card), None)
    if quest is None:
        state.quests.append(ActiveQuest(card=card, faction=faction, figures=[fid]))  # type: ignore[arg-type]
    else:
        quest.figures.append(fid)


def _play_out(state: State, seat: int, dice: RecordedDice) -> None:
    """Answer the fight's questions with the first legal answer until it is over."""
    while state.combat is not None:
        d = E.decision(state)
        who = seat if seat in d.seats else d.seats[0]
        E.apply(state, who, E.legal_actions(state, who)[0], dice)


def _swapped() -> State:
    """A draft where the Alliance picks first: Horde ranger and cantor, Alliance warden and arcanist. On these
    faction faces every character is Highfolk (the usual draft makes everyone Hornfolk)."""
    from tests.wowboard.test_turn import new

    state = new(first_pick=1)
    for cls in ("warden", "ranger", "arcanist", "cantor"):
        act(state, E.decision(state).seats[0], {"kind": "pick_class", "class_id": cls})
    return state


# ---------------------------------------------------------------------------- challenge
def test_challenge_4_a_challenge_fights_one_group_of_one_type_the_other_group_stays():
    state = drafted()
    state.figures, state.quests = {}, []
    state.characters["warden"].region = "crossroads"
    _quest_figure(state, "f1", "mirefin", "green", "crossroads", card="H-G01")
    _quest_figure(state, "f2", "mirefin", "red", "crossroads", card="H-G01")
    _quest_figure(state, "f3", "dunecur", "green", "crossroads", card="H-G02")
    legal = sorted(a.target for a in E.legal_actions(state, 0) if a.kind == "challenge" and a.character == "warden")
    assert legal == ["group:crossroads:dunecur:horde", "group:crossroads:mirefin:horde"]  # never both types
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "group:crossroads:mirefin:horde"})
    assert sorted(o.ref for o in state.combat.opponents) == ["f1", "f2"]  # the whole group, green and red
    assert state.figures["f3"].region == "crossroads"  # the dunecur are no part of this fight
    with pytest.raises(RuleError):
        C.start(state, PACK, ["warden"], "group:crossroads:webspinner:free")  # no such group: nothing to fight


def test_challenge_6_pvp_defenders_spend_no_action_attackers_are_the_challenger_and_its_joiners():
    state = drafted()
    state.figures, state.quests = {}, []
    for cid in ("warden", "arcanist", "ranger", "cantor"):
        state.characters[cid].region = "barrow_fields"
    state.characters["ranger"].actions_left = 1  # even a defender with an action left keeps it
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp", "invite": ["arcanist"]})
    combat = state.combat
    assert combat.kind == "pvp" and combat.faction == "horde"
    assert sorted(combat.participants) == ["arcanist", "cantor", "ranger", "warden"]
    left = {cid: c.actions_left for cid, c in state.characters.items()}
    assert left == {"warden": 1, "arcanist": 1, "ranger": 1, "cantor": 0}


def test_challenge_6_a_joiner_without_an_action_cannot_join_the_attack():
    state = drafted()
    state.figures, state.quests = {}, []
    for cid in ("warden", "arcanist", "ranger"):
        state.characters[cid].region = "barrow_fields"
    state.characters["arcanist"].actions_left = 0
    with pytest.raises(RuleError):
        act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp", "invite": ["arcanist"]})
    assert state.combat is None and state.characters["warden"].actions_left == 2


# ---------------------------------------------------------------------------- the faction turn
def test_faction_turn_3_five_action_kinds_each_spends_one_action():
    kinds = {"travel", "rest", "challenge", "train", "town"}

    def ready() -> State:
        state = _sheets(drafted())
        state.figures, state.quests = {}, []
        _quest_figure(state, "f1", "mirefin", "green", "cinderhold")  # a friendly quest group at home
        state.characters["warden"].health = 4  # something to rest for
        return state

    offered = {a.kind for a in E.legal_actions(ready(), 0) if getattr(a, "character", "") == "warden"}
    assert kinds <= offered and offered <= kinds | {"pass"}  # pass is a zero rest (faction-turn.5)
    for kind in sorted(kinds):
        state = ready()
        action = next(a for a in E.legal_actions(state, 0) if a.kind == kind and a.character == "warden")
        E.apply(state, 0, action, RecordedDice([1] * 40))
        assert state.characters["warden"].actions_left == 1, kind
    with pytest.raises(RuleError):  # no sixth kind of action exists
        E.parse_action({"kind": "trade", "character": "warden"})


def test_factions_2_any_seat_of_the_faction_answers_a_faction_wide_choice():
    from tests.wowboard.test_seats import _game

    state = _game(4)
    horde = sorted(s.seat for s in state.seats if s.faction == "horde")
    alliance = [s.seat for s in state.seats if s.faction == "alliance"]
    fighter = state.characters[state.seat(horde[0]).characters[0]]
    quest = next(q for q in state.quests if q.faction == "horde")
    for fid in quest.figures:
        state.figures.pop(fid)
    quest.figures = []  # the fighter has just felled its last figure
    after_fight(state, [fighter.id], [], RecordedDice([], picks=[0] * 10))
    while state.pending and state.pending[0].kind != "next_quest_deck":  # the fighter's own questions first
        top = state.pending[0]
        E.apply(state, top.seats[0], E.legal_actions(state, top.seats[0])[0], RecordedDice([], picks=[0] * 10))
    d = E.decision(state)
    assert d.kind == "next_quest_deck" and d.seats == horde  # the faction decides: any of its seats
    with pytest.raises(RuleError):
        E.apply(state, alliance[0], E.parse_action({"kind": "choose", "value": "green"}), RecordedDice([]))
    before = len(state.quests)
    E.apply(state, horde[1], E.parse_action({"kind": "choose", "value": state.pending[0].options[0]}),
            RecordedDice([], picks=[0] * 10))  # the teammate, not the fighter's seat, answers
    assert not [p for p in state.pending if p.kind == "next_quest_deck"] and len(state.quests) == before + 1


# ---------------------------------------------------------------------------- health and energy
def test_health_energy_3_a_capacity_bonus_covered_by_another_card_is_trimmed_at_once():
    state = managing(_sheets(drafted()), "alliance")
    ranger = state.characters["ranger"]
    give(state, "ranger", "ringmail_shirt", "hide_jerkin")
    act(state, 1, {"kind": "equip", "character": "ranger", "card": "ringmail_shirt", "area": "armor"})
    full = S.capacity_of(state, ranger)[0]
    ranger.health = full
    events = act(state, 1, {"kind": "equip", "character": "ranger", "card": "hide_jerkin", "area": "armor"})
    assert "ringmail_shirt" in ranger.bag  # the shirt left its area to make room
    assert ranger.health == full - 1 == S.capacity_of(state, ranger)[0]  # the extra token went with it
    assert any(e.key == "wowboard.ev.trimmed" for e in events)


def test_health_energy_3_selling_a_worn_capacity_item_in_town_trims_at_once():
    state = _sheets(drafted())
    state.active, ranger = "alliance", state.characters["ranger"]
    ranger.actions_left = 2
    ranger.sheet["armor"].card = "ringmail_shirt"
    ranger.health = S.capacity_of(state, ranger)[0]
    T.do_town(state, 1, "ranger", sell=["ringmail_shirt"])
    assert ranger.health == S.capacity_of(state, ranger)[0] == 8


def test_health_energy_4_the_ancestry_on_the_sheet_face_changes_capacity_and_rerolls():
    usual, swapped = _sheets(drafted()), _sheets(_swapped())
    assert S.ancestry_of(PACK, usual.characters["warden"]).id == "hornfolk"
    assert S.ancestry_of(PACK, swapped.characters["warden"]).id == "highfolk"  # the same class, other face
    cls = next(k for k in PACK.classes if k.id == "warden")
    assert S.capacity_of(usual, usual.characters["warden"]) == (cls.health[0] + 2, cls.energy[0])  # Hornfolk
    assert S.capacity_of(swapped, swapped.characters["warden"]) == (cls.health[0], cls.energy[0])
    rerolls = {}
    for name, state in (("hornfolk", usual), ("highfolk", swapped)):
        state.figures, state.quests = {}, []
        state.characters["ranger"].region = "soot_mire"
        _quest_figure(state, "f1", "mirefin", "green", "soot_mire")
        C.start(state, PACK, ["ranger"], "group:soot_mire:mirefin:horde")
        C.begin_attack(state)
        C.roll_attack(state, pool_effects(state, "ranger", []), None, RecordedDice([2] * 20))
        rerolls[name] = state.combat.attack.reroll
    assert rerolls["highfolk"] == rerolls["hornfolk"] + 1  # Highfolk: Reroll +1 at every attack phase


# ---------------------------------------------------------------------------- card limits
def test_card_limits_2_a_bag_item_works_from_the_bag_only_at_its_level():
    state = fight([("mirefin", "green")])  # attack 3
    warden = state.characters["warden"]
    warden.health, warden.bag = 2, ["healing_draught", "militia_axe"]
    assert "militia_axe" not in {a.source for a in S.equipped_effects(state, warden)}  # a weapon needs an area
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": 3})
    assert state.pending[0].kind == "last_chance" and state.pending[0].options == ["healing_draught", "none"]
    act(state, 0, {"kind": "choose", "value": "healing_draught"})  # used straight from the Bag, never equipped
    assert warden.health == 3 - 1 and warden.bag == ["militia_axe"]
    warden.bag.append("elixir_of_vigor")  # a level-2 bag item
    assert "elixir_of_vigor" not in {a.source for a in S.equipped_effects(state, warden)}
    warden.level = 2
    assert "elixir_of_vigor" in {a.source for a in S.equipped_effects(state, warden)}


def test_card_limits_4_a_card_is_used_once_per_combat_round_and_again_in_the_next(monkeypatch):
    talent = next(c for c in PACK.class_cards if c.id == "second_wind")  # last chance: heal 2
    monkeypatch.setattr(talent.effects[0], "once_per_combat", False)  # only the round limit is left
    state = fight([("mirefin", "green")])  # attack 3
    warden = state.characters["warden"]
    warden.health, warden.talents = 2, {2: "second_wind"}
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": 3})  # 2 wounds bring it down, 1 waits
    act(state, 0, {"kind": "choose", "value": "second_wind"})
    assert warden.health == 2 - 1 and state.combat.round == 2
    assert last_chance_options(state, warden) == ["second_wind"]  # a new round: usable again
    C.roll_attack(state, pool(blue=1), None, RecordedDice([1]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": 3})  # 1 wound brings it down, 2 wait
    assert state.pending[0].options == ["second_wind", "none"]
    act(state, 0, {"kind": "choose", "value": "second_wind"})  # healed to 2, then the 2 waiting wounds land
    assert state.combat is None  # the fight is lost: no second last chance in this round
    assert [p.kind for p in state.pending] == ["respawn"]  # not offered a second time in round 2: fallen


def test_card_limits_4_an_instant_paid_this_round_is_not_paid_again_and_its_dice_last_one_round():
    from engines.wowboard.rules_fight import affordable_instants

    state = fight([("tidewyrm", "green")], who=("arcanist",))  # health 8: the fight lasts
    arcanist = state.characters["arcanist"]
    arcanist.energy = 5
    _sheets_for = S.start_character
    _sheets_for(state, arcanist)
    with_spark = pool_effects(state, "arcanist", ["pre:instant"])  # Spark: 1 energy, 2 blue dice
    assert arcanist.energy == 4 and "pre:instant" not in affordable_instants(state, "arcanist")
    with pytest.raises(RuleError) as err:
        pool_effects(state, "arcanist", ["pre:instant"])
    assert err.value.rule == "card-limits.4" and arcanist.energy == 4
    C.roll_attack(state, with_spark, None, RecordedDice([1] * 20))
    first = len(state.combat.attack.dice)
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"arcanist": state.combat.pending_wounds})
    assert state.combat.round == 2 and "pre:instant" in affordable_instants(state, "arcanist")
    C.roll_attack(state, pool_effects(state, "arcanist", []), None, RecordedDice([1] * 20))
    assert len(state.combat.attack.dice) == first - 2  # last round's bonus dice are gone


def test_card_limits_5_dice_join_the_pool_only_at_the_dice_pool_step():
    state = fight([("tidewyrm", "green")], who=("arcanist",))
    arcanist = state.characters["arcanist"]
    S.start_character(state, arcanist)
    arcanist.energy = 5
    assert E.decision(state).kind == "pool"
    assert any(a.instants == ["pre:instant"] for a in E.legal_actions(state, 0))  # offered at the pool step
    C.roll_attack(state, pool_effects(state, "arcanist", []), None, RecordedDice([1] * 20))  # without Spark
    dice = len(state.combat.attack.dice)
    assert E.decision(state).kind == "reroll" and all(a.kind == "reroll" for a in E.legal_actions(state, 0))
    with pytest.raises(RuleError):  # too late for Spark's dice
        act(state, 0, {"kind": "roll", "instants": ["pre:instant"]})
    assert len(state.combat.attack.dice) == dice and arcanist.energy == 5


def test_card_limits_7_a_coloured_symbol_needs_that_colour_a_black_one_any_a_number_that_face():
    from engines.wowboard.content_cards import Condition

    state = fight([("mirefin", "green")])  # its ability: each red die showing exactly 1 wounds
    warden = state.characters["warden"]
    C.roll_attack(state, pool(blue=1, red=2), None, RecordedDice([1, 1, 2]))  # blue 1, red 1, red 2
    C.reroll(state, [], RecordedDice([]))
    assert warden.health == 8 - 1  # only the red 1: not the blue 1 (colour), not the red 2 (face)
    state = fight([("webspinner", "green")])  # its ability: two dice of any colour showing 1 stun
    C.roll_attack(state, pool(blue=1, green=1), None, RecordedDice([1, 1]))
    C.reroll(state, [], RecordedDice([]))
    assert state.characters["warden"].stun == 1  # a black symbol: a blue and a green 1 both count
    state = fight([("webspinner", "green")])
    C.roll_attack(state, pool(blue=1, green=1), None, RecordedDice([1, 2]))
    C.reroll(state, [], RecordedDice([]))
    assert state.characters["warden"].stun == 0
    # the card schema writes the other symbols too: two colours, and a face "or higher"
    symbol = Condition(kind="spot", colours=["blue", "red"], face=7, or_higher=True)
    assert (symbol.colours, symbol.face, symbol.or_higher) == (["blue", "red"], 7, True)
    with pytest.raises(ValueError):
        Condition(kind="spot", colour="blue", face=9)  # a d8 has no 9


# ---------------------------------------------------------------------------- items and the merchant
def test_items_2_the_printed_fields_of_an_item_are_what_the_rules_read():
    state = _sheets(drafted())
    warden = state.characters["warden"]
    axe, plate, cloak, cap = (_item(i) for i in ("militia_axe", "tower_plate", "westwind_cloak", "leather_cap"))
    state.merchant = [axe.id]
    gold = warden.gold
    T.do_town(state, 0, "warden", buy=[axe.id])
    assert warden.gold == gold - axe.gold  # the gold cost
    assert (axe.type, axe.trait, plate.level, cloak.soulbound, cap.addon) == ("melee", "axe", 3, True, "helm")
    state.phase = "management"
    with pytest.raises(RuleError) as err:  # the type icon
        S.check_equip(state, 0, "warden", axe.id, "armor")
    assert err.value.key == "wowboard.err.wrong_area"
    give(state, "warden", plate.id)
    with pytest.raises(RuleError) as err:  # the level requirement
        S.check_equip(state, 0, "warden", plate.id, "armor")
    assert err.value.key == "wowboard.err.level_too_high"
    state.phase = "play"
    warden.bag = [cloak.id]
    with pytest.raises(RuleError) as err:  # soulbound
        T.check_town(state, 0, "warden", [cloak.id])
    assert err.value.key == "wowboard.err.soulbound"
    assert all(i.energy >= 0 and i.gold >= 0 and 1 <= i.level <= 5 for i in PACK.items)


def test_items_5_an_item_above_the_level_is_stored_but_neither_equipped_nor_used():
    state = _sheets(drafted())
    warden = state.characters["warden"]
    receive(state, "warden", "tower_plate")  # level 3, received by a level-1 character: kept in the Bag
    receive(state, "warden", "elixir_of_vigor")  # a level-2 bag item
    assert warden.bag == ["tower_plate", "elixir_of_vigor"]
    state.phase = "management"
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "equip", "character": "warden", "card": "tower_plate", "area": "armor"})
    assert err.value.key == "wowboard.err.level_too_high"
    assert "elixir_of_vigor" not in {a.source for a in S.equipped_effects(state, warden)}  # not usable
    warden.level = 3
    act(state, 0, {"kind": "equip", "character": "warden", "card": "tower_plate", "area": "armor"})
    assert warden.sheet["armor"].card == "tower_plate"
    assert "elixir_of_vigor" in {a.source for a in S.equipped_effects(state, warden)}


def test_merchant_1_the_public_pile_gets_sold_items_bag_overflow_and_track_items():
    state = _sheets(drafted())
    state.merchant = []
    warden = state.characters["warden"]
    warden.bag = ["militia_axe"]
    T.do_town(state, 0, "warden", sell=["militia_axe"])
    assert state.merchant == ["militia_axe"]
    warden.bag = ["quilted_robe", "hide_jerkin", "lucky_knucklebone"]
    receive(state, "warden", "skinning_knife")
    resolve_overflow(state, "warden", "hide_jerkin")  # the Bag's only way out: for nothing, to the merchant
    assert state.merchant == ["militia_axe", "hide_jerkin"]
    state.turn = next(t for t, deck in PACK.track.items.items() if deck == "triangle")
    size = len(state.item_decks["triangle"])
    track_item(state, RecordedDice([], picks=[0]))
    assert len(state.merchant) == 3 and len(state.item_decks["triangle"]) == size - 1
    for seat in (0, 1, None):  # public: every seat (and a spectator) sees the whole pile
        assert E.view(state, seat).merchant == state.merchant


# ---------------------------------------------------------------------------- XP and levels
def test_levels_1_xp_comes_from_quests_never_from_independents():
    state = drafted()
    state.figures, state.quests = {}, []
    warden = state.characters["warden"]
    warden.region = "crossroads"
    state.figures["i1"] = Figure(id="i1", type="mirefin", tier="blue", region="crossroads")  # independent
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "group:crossroads:mirefin:free"})
    state.combat.opponents[0].health = 1
    _play_out(state, 0, RecordedDice([8] * 40))
    assert "i1" not in state.figures and warden.xp == 0  # beaten, and no XP for it
    _quest_figure(state, "q1", "mirefin", "green", "crossroads", card="H-G01")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "group:crossroads:mirefin:horde"})
    state.combat.opponents[0].health = 1
    _play_out(state, 0, RecordedDice([8] * 40, picks=[0] * 10))
    quest = next(q for q in PACK.quests if q.id == "H-G01")
    assert warden.xp == quest.rewards.xp  # a level-1 quest, a level-1 character: the marker moves by its XP


def test_levels_3_a_level_gained_refills_health_and_energy_and_asks_for_a_talent():
    state = _sheets(_swapped())  # Highfolk faces: the capacity is the class table's (see the report on Hornfolk)
    ranger = state.characters["ranger"]  # Horde
    quest = next(q for q in state.quests if q.faction == "horde")
    card = next(q for q in PACK.quests if q.id == quest.card)
    ranger.xp = PACK.xp_levels[0] - 1  # one XP short of level 2
    ranger.health, ranger.energy = 1, 0
    for fid in quest.figures:
        state.figures.pop(fid)
    quest.figures = []
    after_fight(state, ["ranger"], [], RecordedDice([], picks=[0] * 10))
    assert card.rewards.xp >= 1 and ranger.level == level_for(ranger.xp, PACK.xp_levels) >= 2
    assert (ranger.health, ranger.energy) == S.capacity_of(state, ranger)  # full, not a "regain"
    talent = next(p for p in state.pending if p.kind == "talent")
    assert talent.character == "ranger" and talent.seats == [ranger.seat]
    while state.pending[0].kind != "talent":
        top = state.pending[0]
        E.apply(state, top.seats[0], E.legal_actions(state, top.seats[0])[0], RecordedDice([], picks=[0] * 10))
    options = [a.value for a in E.legal_actions(state, ranger.seat)]
    assert options and options == S.talent_options(state, "ranger", 2)
    act(state, ranger.seat, {"kind": "choose", "value": options[0]})
    assert ranger.talents == {2: options[0]}


# ---------------------------------------------------------------------------- defeat
def test_character_defeat_5_losing_to_the_overlord_is_an_ordinary_defeat_and_play_goes_on():
    state = drafted()
    state.figures = {}
    warden = state.characters["warden"]
    warden.region = state.overlord.region = "old_quarry"
    warden.health, warden.bag = 3, []
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "overlord:ash_wyrm"})
    _play_out(state, 0, RecordedDice([1] * 40))  # every die misses
    assert state.combat is None and state.phase == "play" and E.outcome(state) is None
    assert state.overlord.region == "old_quarry"  # the Overlord stays where it is
    assert (warden.health, warden.energy, warden.actions_left) == (1, 1, 0)  # the usual defeat (character-defeat.3)
    d = E.decision(state)
    assert d.kind == "respawn" and d.seats == [0]
    act(state, 0, {"kind": "choose", "value": state.pending[0].default})
    d = E.decision(state)
    assert d.kind == "faction_turn" and state.characters["arcanist"].actions_left == 2


# ---------------------------------------------------------------------------- quest rewards
def test_quest_rewards_7_the_group_decides_who_receives_each_item_even_above_its_level():
    state = _sheets(drafted())
    square = state.item_decks["square"]
    if not square.take("tower_plate"):  # a level-3 item, drawn first
        state.merchant.remove("tower_plate")
    square.put_top("tower_plate")
    state.quests.append(ActiveQuest(card="H-Y01", faction="horde", figures=[]))  # its last figure just fell
    state.characters["warden"].xp = 2  # no XP tie to settle
    after_fight(state, ["warden", "arcanist"], [], RecordedDice([1] * 10, picks=[0] * 10))
    asked = [p for p in state.pending if p.kind == "keep_item"]
    default = min(("warden", "arcanist"), key=lambda c: state.characters[c].xp)  # least XP after the reward
    other = "arcanist" if default == "warden" else "warden"
    assert len(asked) == 2 and all(p.character == default and p.seats == [0] for p in asked)
    plate = next(p for p in asked if "tower_plate" in p.options)
    assert plate.options == ["tower_plate", f"tower_plate@{other}"] and plate.default == "tower_plate"
    while any(p.kind == "keep_item" for p in state.pending):
        top = state.pending[0]
        value = f"tower_plate@{other}" if "tower_plate" in top.options else E.legal_actions(state, 0)[0].value
        E.apply(state, top.seats[0], E.parse_action({"kind": "choose", "value": value}),
                RecordedDice([1] * 10, picks=[0] * 10))
    receiver, skipped = state.characters[other], state.characters[default]
    assert "tower_plate" in receiver.bag and "tower_plate" not in skipped.bag  # the group's pick, not the default
    assert receiver.level < 3 and len(skipped.bag) == 1  # a member below level 3 keeps the level-3 item in its Bag
