"""The P1 cards of the "Embervale" pack (spec §4.2–§4.11): sizes, coverage of the vocabulary, the sample cards and
examples the spec fixes, the balance check W42, and broken packs refused with the field named."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any, get_args

import pytest

from engines.core.errors import RuleError
from engines.wowboard import content_cards as cc
from engines.wowboard.content import DATA, builtin, builtin_full, load_pack

PACK = builtin()
RAW = json.loads(DATA.read_text(encoding="utf-8"))

# Vocabulary the schemas accept but P1 cards deliberately leave out (spec §4.3: "cards with spot, die-change,
# dice-removal or secondary abilities are P2 cards"; travel.6, extra moves, is P2; the P2 creatures and Overlords
# bring the last three abilities). Anything else in the schemas must be used by at least one P1 card.
P2_ONLY_OPS = {"remove_own_dice", "change_die", "extra_move", "train_discount"}  # train-town.3 is P2 too
P2_ONLY_EVENT_OPS = {"close_road", "extra_move"}  # travel.6: roads closed and moves granted by full-pack events
P2_ONLY_EVENT_KINDS = {"war", "auction"}  # events.3, events.6: only the full edition's deck has them
P2_ONLY_CONDITIONS = {"spot"}
P2_ONLY_TIMINGS: set[str] = set()
P2_ONLY_ABILITIES = {"threat_vs", "drain_energy", "summon"}


def _effects() -> list[cc.Effect]:
    """Every effect printed anywhere: class cards, items, ancestries and pre-printed sheet cards."""
    out = [e for c in PACK.class_cards for e in c.effects] + [e for i in PACK.items for e in i.effects]
    out += [e for a in PACK.ancestries for e in a.effects]
    out += [e for s in PACK.class_sheets for a in s.areas if a.preprinted for e in a.preprinted.effects]
    return out


def _abilities() -> set[str]:
    return {k for x in (*PACK.creatures, *PACK.bosses, *PACK.overlords) for k in x.ability}


def test_power_cards_1_coverage_every_timing_condition_op_and_ability_is_used_by_a_p1_card():
    effects = _effects()
    assert {e.timing for e in effects} == set(get_args(cc.Timing)) - P2_ONLY_TIMINGS
    assert {e.condition.kind for e in effects if e.condition} == set(get_args(cc.ConditionName)) - P2_ONLY_CONDITIONS
    assert {o.op for e in effects for o in e.ops} == set(get_args(cc.OpName)) - P2_ONLY_OPS
    assert set(cc.OP_PARAMS) == set(get_args(cc.OpName)) and set(cc.CONDITION_PARAMS) == set(get_args(cc.ConditionName))
    assert _abilities() == set(cc.ABILITY_PARAMS) - P2_ONLY_ABILITIES
    assert {ev.kind for ev in PACK.events} == set(get_args(cc.EventKind)) - P2_ONLY_EVENT_KINDS
    assert {ev.kind for ev in builtin_full().events} == set(get_args(cc.EventKind))  # events.3, .6: the full pack
    assert {o.op for ev in PACK.events for o in ev.ops} == set(get_args(cc.EventOpName)) - P2_ONLY_EVENT_OPS
    assert set(get_args(cc.EventOpName)) == set(cc.EVENT_OP_PARAMS)
    assert {o.op for ev in builtin_full().events for o in ev.ops} >= P2_ONLY_EVENT_OPS  # travel.6: the full pack


def test_equipping_3_coverage_every_slot_type_and_trait_is_on_a_sheet_and_on_a_card():
    areas = [a for s in PACK.class_sheets for a in s.areas]
    assert {t for a in areas for t in a.accepts} == set(get_args(cc.SlotType))
    card_types = {i.type for i in PACK.items} | {c.power_type for c in PACK.class_cards if c.power_type}
    assert card_types - {"bag"} == set(get_args(cc.SlotType))
    assert {i.trait for i in PACK.items if i.trait} == set(get_args(cc.Trait))
    assert {t for a in areas for t in a.traits} == set(get_args(cc.Trait))
    assert {i.addon for i in PACK.items if i.addon} == {"helm", "shield", "ammo"}
    for item in PACK.items:  # every non-bag item fits some area of some class (equipping.3)
        if item.type != "bag":
            assert any(item.type in a.accepts and (not a.traits or item.trait in a.traits) for a in areas), item.id


def test_power_cards_1_p1_sizes_of_spec_4_11():
    assert len(PACK.classes) == 4 and len(PACK.class_cards) == 64 and len(PACK.regions) == 28
    for cls in ("warden", "ranger", "arcanist", "cantor"):
        deck = [c for c in PACK.class_cards if c.class_id == cls]
        assert sorted(c.level for c in deck if c.kind == "power") == [1, 1, 1, 2, 2, 3, 4, 5]
        assert sorted(c.level for c in deck if c.kind == "talent") == [2, 2, 3, 3, 4, 4, 5, 5]
    for faction in ("horde", "alliance"):
        colours = Counter(q.colour for q in PACK.quests if q.faction == faction)
        assert colours == {"grey": 4, "green": 6, "yellow": 5, "red": 4}
    assert Counter(i.deck for i in PACK.items) == {"triangle": 16, "square": 8, "circle": 4, "special": 6}
    assert len(PACK.events) == 12 and len(PACK.overlords) == 1 and len(PACK.creatures) == 6
    assert sum(n for c in PACK.creatures for n in c.supply.values()) == 60
    assert len(PACK.ancestries) == 2 and all(len(s.areas) == 7 for s in PACK.class_sheets)


def test_power_cards_1_ids_are_unique_across_the_pack():
    ids = [x.id for group in (PACK.class_cards, PACK.items, PACK.quests, PACK.events, PACK.bosses, PACK.overlords,
                              PACK.ancestries) for x in group]
    assert len(ids) == len(set(ids))


def test_balance_w42_a_level_1_character_with_5_gold_can_buy_two_level_1_powers():
    # wowboard:W42
    for cls in ("warden", "ranger", "arcanist", "cantor"):
        costs = sorted(c.gold for c in PACK.class_cards if c.class_id == cls and c.kind == "power" and c.level == 1)
        assert costs[0] + costs[1] <= 5, cls


def test_equipping_4_5_stances_only_for_the_warden_companions_only_for_the_ranger():
    stances = {c.class_id for c in PACK.class_cards if c.power_type == "stance"}
    companions = {c.class_id for c in PACK.class_cards if c.companion_health}
    assert stances == {"warden"} and companions == {"ranger"}
    sheets = {s.class_id: s for s in PACK.class_sheets}
    assert sheets["warden"].unique == ["Stance"] and sheets["ranger"].companion == "Companion"
    for c in PACK.class_cards:
        assert c.unique is None or c.unique in sheets[c.class_id].unique
    assert sum(c.unique == "Hymn" for c in PACK.class_cards) >= 2  # the category actually excludes something


def test_power_cards_the_sample_cards_of_spec_4_3_keep_their_numbers():
    card = {c.id: c for c in PACK.class_cards}
    bs = card["battle_stance"]
    assert (bs.power_type, bs.gold, bs.energy, bs.level) == ("stance", 2, 0, 1)
    assert (card["shield_slam"].gold, card["shield_slam"].energy) == (1, 1)
    assert card["boar"].companion_health == 3 and (card["boar"].gold, card["boar"].energy) == (2, 2)
    assert (card["aimed_shot"].gold, card["aimed_shot"].energy) == (2, 1)
    assert card["ember_bolt"].effects[1].condition.kind == "used_previous_round"
    assert (card["focus"].power_type, card["focus"].gold, card["focus"].energy) == ("active", 2, 2)
    assert card["sheltering_prayer"].effects[0].ops[0].n == 2
    assert card["hymn_of_vigor"].unique == "Hymn"
    assert card["second_wind"].effects[0].timing == "last_chance" and card["second_wind"].effects[0].once_per_combat
    assert card["keen_eye"].effects[0].timing == "passive"
    assert card["restore"].effects[0].cost_energy == 1 and card["restore"].effects[0].ops[0].n == 3
    spark = next(a for a in PACK.class_sheets[2].areas if a.preprinted and a.preprinted.name == "Spark")
    assert spark.preprinted.energy == 1


def test_quests_1_levels_and_reward_bands_of_spec_4_6():
    bands = {"grey": ((3, 5), (2, 4)), "green": ((5, 8), (4, 6)), "yellow": ((8, 11), (6, 8)),
             "red": ((11, 15), (8, 12))}
    for q in PACK.quests:
        (glo, ghi), (xlo, xhi) = bands[q.colour]
        assert glo <= q.rewards.gold <= ghi and xlo <= q.rewards.xp <= xhi, q.id
        decks = [d.deck for d in q.rewards.items]
        if q.colour == "grey":
            assert [(d.deck, d.draw) for d in q.rewards.items] == [("triangle", 1)]
        elif q.colour == "green":
            assert [(d.deck, d.draw) for d in q.rewards.items] == [("triangle", 2)]
        elif q.colour == "yellow":
            assert "square" in decks and "triangle" in decks
        else:
            assert decks in (["circle"],) or (not decks and len(q.rewards.special_choice) == 2), q.id


def test_quests_3_the_two_examples_of_spec_4_6():
    quests = {q.id: q for q in PACK.quests}
    pests = quests["H-G01"]
    assert (pests.title, pests.colour, pests.level) == ("Granary Pests", "grey", 1)
    assert [(s.type, s.tier, s.count, s.region, s.role) for s in pests.spawns] == [
        ("mirefin", "green", 2, "soot_mire", "quest")]
    assert (pests.rewards.gold, pests.rewards.xp) == (4, 3)
    bell = quests["A-Y03"]
    assert (bell.title, bell.colour, bell.level) == ("The Drowned Bell", "yellow", 4)
    assert [(s.type, s.tier, s.count, s.region, s.role) for s in bell.spawns] == [
        ("tidewyrm", "red", 1, "gull_rock", "quest"), ("webspinner", "blue", 1, "wolfden", "independent")]
    assert (bell.rewards.gold, bell.rewards.xp) == (10, 7)
    assert [(d.deck, d.draw) for d in bell.rewards.items] == [("square", 2), ("triangle", 2)]
    assert bell.rewards.special_choice == ["bellkeepers_ring", "tidecaller_charm"]


def test_quests_4_spawns_spread_over_the_map_within_the_supply_and_into_the_enemy_half():
    regions = {r.id: r for r in PACK.regions}
    used = {s.region for q in PACK.quests for s in q.spawns}
    assert len(used) >= 24 and {r.area for r in regions.values()} == {regions[r].area for r in used}
    assert {s.type for q in PACK.quests for s in q.spawns} == {c.id for c in PACK.creatures}
    supply = {c.id: c.supply for c in PACK.creatures}
    for q in PACK.quests:
        need = Counter((s.type, s.tier) for s in q.spawns for _ in range(s.count))
        assert all(n <= supply[t][tier] for (t, tier), n in need.items()), q.id
    # the Horde starts in the north (y 0), the Alliance in the south (y 5): the enemy half is the other one
    enemy_half = {"horde": lambda y: y >= 3, "alliance": lambda y: y <= 2}
    for faction, far in enemy_half.items():
        deep = [q.id for q in PACK.quests if q.faction == faction
                and any(s.role == "quest" and far(regions[s.region].y) for s in q.spawns)]
        assert len(deep) >= 5, (faction, deep)


def test_events_7_destiny_numbers_and_the_hollow_knight():
    destiny = Counter(e.destiny for e in PACK.events)
    assert destiny == {0: 4, 1: 5, 2: 3}  # ~30 % / 45 % / 25 %
    knight = next(e for e in PACK.events if e.kind == "boss")
    boss = next(b for b in PACK.bosses if b.id == knight.boss)
    assert knight.region == "barrow_fields" and boss.name == "The Hollow Knight"
    assert (boss.threat, boss.attack, boss.health, boss.ability) == (6, 9, 14, {"armor_halved": {}})
    assert boss.reward.gold_each == 6 and [(d.deck, d.draw) for d in boss.reward.items] == [("square", 1)]
    assert sum(e.kind == "bonus" for e in PACK.events) >= 2  # a bonus chain can happen (events.2)


def test_overlord_3_the_ash_wyrm_wanders_along_roads_and_never_enters_a_start_region():
    wyrm = PACK.overlords[0]
    assert (wyrm.sides["4"].threat, wyrm.sides["4"].attack, wyrm.sides["4"].health) == (7, 14, 26)
    assert (wyrm.sides["6"].threat, wyrm.sides["6"].attack, wyrm.sides["6"].health) == (7, 18, 36)
    assert wyrm.ability == {"scorch": {"wounds": 1}} and wyrm.route[0] == "crown_peak"
    loop = [*wyrm.route[wyrm.loop_from:], wyrm.route[wyrm.loop_from]]
    assert loop == ["eagle_spire", "old_quarry", "redthorn_pass", "crossroads", "barrow_fields", "watchtower_ruin",
                    "bone_orchard", "withered_vale", "eagle_spire"]
    adjacent = {r.id: set(r.adjacent) for r in PACK.regions}
    assert all(b in adjacent[a] for a, b in zip(wyrm.route, [*wyrm.route[1:], wyrm.route[wyrm.loop_from]],
                                                strict=True))


def _broken(edit: Any) -> RuleError:
    data = copy.deepcopy(RAW)
    edit(data)
    with pytest.raises(RuleError) as err:
        load_pack(data)
    return err.value


def _quest(data: dict[str, Any], qid: str) -> dict[str, Any]:
    return next(q for q in data["quests"] if q["id"] == qid)


def test_quests_4_a_broken_pack_is_refused_with_the_field_named():
    err = _broken(lambda d: _quest(d, "H-G01")["spawns"][0].update(region="atlantis"))
    assert err.key == "wowboard.err.pack_ref" and err.params["field"] == "quests.H-G01.spawns.0.region"
    # 2 + 4 green Mirefin in one quest; the supply holds 6 (fits), so make it 2 + 4 + 1 (does not)
    err = _broken(lambda d: _quest(d, "H-G01")["spawns"].extend(
        [dict(_quest(d, "H-G01")["spawns"][0], count=4), dict(_quest(d, "H-G01")["spawns"][0], count=1)]))
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "quests.H-G01.spawns"
    err = _broken(lambda d: _quest(d, "H-G01")["spawns"][0].update(region="havenford"))
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "quests.H-G01.spawns.0.region"
    err = _broken(lambda d: _quest(d, "A-Y03")["rewards"].update(special_choice=["dawnsplitter"]))
    assert err.key == "wowboard.err.pack_ref" and err.params["field"] == "quests.A-Y03.rewards.special_choice"


def test_power_cards_a_typo_in_the_effect_vocabulary_is_refused_with_the_field_named():
    err = _broken(lambda d: d["class_cards"][0]["effects"][0]["ops"][0].update(op="add_die"))
    assert err.key == "wowboard.err.pack_invalid" and err.params["field"].startswith("class_cards.0.effects.0.ops.0")
    err = _broken(lambda d: d["class_cards"][0]["effects"][0]["ops"][0].update(box="damage"))  # a stray parameter
    assert err.key == "wowboard.err.pack_invalid" and "takes no box" in err.params["error"]
    err = _broken(lambda d: d["class_cards"][0]["effects"][0].update(timing="whenever"))
    assert err.params["field"] == "class_cards.0.effects.0.timing"
    err = _broken(lambda d: d["items"][0].update(consumable=True))
    assert err.key == "wowboard.err.pack_invalid" and err.params["field"] == "items.0"


def test_equipping_4_a_stance_for_another_class_or_an_unknown_category_is_refused():
    def stance_for_ranger(d: dict[str, Any]) -> None:
        d["class_cards"][0]["class_id"] = "ranger"
        d["class_cards"][0]["unique"] = "Companion"
    err = _broken(stance_for_ranger)
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "class_cards.battle_stance.power_type"
    err = _broken(lambda d: d["class_cards"][0].update(unique="Aura"))
    assert err.key == "wowboard.err.pack_ref" and err.params["field"] == "class_cards.battle_stance.unique"
    err = _broken(lambda d: d["class_cards"][1].update(id="battle_stance"))
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "battle_stance"


def test_overlord_3_events_and_abilities_with_broken_references_are_refused():
    err = _broken(lambda d: d["overlords"][0]["route"].insert(2, "blackspire"))
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "overlords.ash_wyrm.route.2"
    err = _broken(lambda d: d["creatures"][0].update(ability={"wound_per_faces": {}}))
    assert err.key == "wowboard.err.pack_ref" and err.params["field"] == "creatures.mirefin.ability"
    err = _broken(lambda d: d["creatures"][0].update(ability={"wound_per_face": {"colour": "red"}}))
    assert err.params["field"] == "creatures.mirefin.ability.wound_per_face"
    err = _broken(lambda d: d["events"][0].update(boss="the_lich"))
    assert err.key == "wowboard.err.pack_ref" and err.params["field"] == "events.ev_hollow_knight.boss"
    err = _broken(lambda d: d["events"][8]["ops"][0].update(count=4))
    assert err.key == "wowboard.err.pack_content" and err.params["field"] == "events.ev_wolves.ops.0.count"


def test_setup_the_builtin_pack_fits_the_size_limit_with_room_for_p2():
    assert len(DATA.read_bytes()) < 300_000
