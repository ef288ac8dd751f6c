"""The full base game's cards (issue 30 item 2; spec §4.4–§4.7, the P2 columns) in ``builtin_v2.json``: the deck
sizes per tier and per faction, the P2 creatures with the spec's numbers, both languages on every entry, the
quest bands, the special items every red quest offers, and a full-edition game that deals from the larger decks.
The starter set (``builtin_v1.json``) keeps its own P1 sizes (``test_content``), so its goldens stay as they are."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowboard.content import builtin, builtin_full
from engines.wowboard.content_cards import QUEST_LEVELS, local_name
from engines.wowboard.engine import WowBoardEngine

FULL = builtin_full()
P2_CREATURES = {  # spec §4.5: supply green/blue/red, threat, attack/health per tier, ability
    "moonhowler": ((4, 2, 2), 6, ((7, 9), (7, 10), (9, 11)), {"armor_halved": {}}),
    "barrow_shade": ((4, 2, 2), 6, ((5, 9), (6, 10), (7, 11)), {"drain_energy": {"per_wound": 1}}),
    "stonehide_brute": ((2, 1, 1), 7, ((10, 12), (11, 11), (12, 12)), {"threat_vs": {"colour": "blue", "value": 8}}),
    "emberdrake": ((2, 1, 1), 7, ((10, 15), (11, 16), (12, 18)), {"scorch": {"wounds": 1}}),
}
TIERS = ("green", "blue", "red")


def test_items_1_the_full_pack_has_30_16_8_14_items_per_deck():
    # spec §4.4: P2 30/16/8/14 (triangle, square, circle, special)
    assert Counter(i.deck for i in FULL.items) == {"triangle": 30, "square": 16, "circle": 8, "special": 14}
    assert Counter(i.deck for i in builtin().items) == {"triangle": 16, "square": 8, "circle": 4, "special": 6}


def test_quests_1_each_faction_has_6_grey_10_green_8_yellow_6_red_quests():
    # spec §4.6: P2 grey 6 · green 10 · yellow 8 · red 6, per faction
    for faction in ("horde", "alliance"):
        colours = Counter(q.colour for q in FULL.quests if q.faction == faction)
        assert colours == {"grey": 6, "green": 10, "yellow": 8, "red": 6}, faction


def test_events_1_the_full_deck_has_28_events_and_the_lich_regent_brings_5_decrees():
    # spec §4.7: P2 28 + 5 Regent cards
    common = [e for e in FULL.events if e.overlord is None]
    regent = [e for e in FULL.events if e.overlord == "lich_regent"]
    assert len(common) == 28 and len(regent) == 5
    assert len(next(o for o in FULL.overlords if o.id == "lich_regent").decrees) == 5


def test_events_7_destiny_numbers_of_the_full_deck_follow_30_45_25_percent():
    destiny = Counter(e.destiny for e in FULL.events if e.overlord is None)
    assert destiny == {0: 8, 1: 13, 2: 7}  # 28.6 % / 46.4 % / 25 %
    for card in (e for e in FULL.events if e.kind == "boss"):  # events.5: every boss card names a boss it has
        assert card.boss in {b.id for b in FULL.bosses} and card.region is not None


def test_stun_curse_1_the_p2_creatures_have_the_numbers_of_spec_4_5():
    kinds = {c.id: c for c in FULL.creatures}
    for cid, (supply, threat, stats, ability) in P2_CREATURES.items():
        c = kinds[cid]
        assert tuple(c.supply[t] for t in TIERS) == supply, cid
        assert c.threat == threat and tuple(c.stats[t] for t in TIERS) == stats, cid
        assert c.ability == ability, cid
    assert not set(P2_CREATURES) & {c.id for c in builtin().creatures}  # the starter set keeps the P1 six
    used = {s.type for q in FULL.quests for s in q.spawns} | {o.type for e in FULL.events for o in e.ops if o.type}
    assert set(P2_CREATURES) <= used  # every P2 creature comes onto the map somewhere


def test_health_energy_4_every_entry_of_the_full_pack_has_an_english_and_an_italian_name():
    groups = (FULL.items, FULL.quests, FULL.events, FULL.creatures, FULL.bosses, FULL.overlords, FULL.class_cards,
              FULL.ancestries, FULL.regions, FULL.classes)
    for group in groups:
        for entry in group:
            en, it = local_name(entry, "en"), local_name(entry, "it")
            assert en and it and it != en, (entry.id, en, it)
    for sheet in FULL.class_sheets:
        for face in sheet.faces.values():
            assert face.name and face.name_it, sheet.class_id
    assert set(FULL.areas) == set(FULL.areas_it)


def test_quests_1_levels_and_reward_bands_hold_for_every_quest_of_the_full_pack():
    bands = {"grey": ((3, 5), (2, 4)), "green": ((5, 8), (4, 6)), "yellow": ((8, 11), (6, 8)),
             "red": ((11, 15), (8, 12))}
    for q in FULL.quests:
        low, high = QUEST_LEVELS[q.colour]
        assert low <= q.level <= high, q.id
        (glo, ghi), (xlo, xhi) = bands[q.colour]
        assert glo <= q.rewards.gold <= ghi and xlo <= q.rewards.xp <= xhi, q.id
        decks = [(d.deck, d.draw) for d in q.rewards.items]
        if q.colour == "grey":
            assert decks == [("triangle", 1)], q.id
        elif q.colour == "green":
            assert decks == [("triangle", 2)], q.id
        elif q.colour == "yellow":
            assert {d for d, _ in decks} == {"square", "triangle"}, q.id
        else:
            assert {d for d, _ in decks} == {"circle"} or (not decks and len(q.rewards.special_choice) == 2), q.id


def test_quest_rewards_5_every_special_item_is_offered_by_some_quest():
    offered = {sid for q in FULL.quests for sid in q.rewards.special_choice}
    assert offered == {i.id for i in FULL.items if i.deck == "special"}


def test_quests_4_full_pack_spawns_cover_every_area_and_reach_into_the_enemy_half():
    regions = {r.id: r for r in FULL.regions}
    used = {s.region for q in FULL.quests for s in q.spawns}
    assert len(used) >= 24 and {r.area for r in regions.values()} == {regions[r].area for r in used}
    enemy_half = {"horde": lambda y: y >= 3, "alliance": lambda y: y <= 2}
    for faction, far in enemy_half.items():
        deep = [q.id for q in FULL.quests if q.faction == faction
                and any(s.role == "quest" and far(regions[s.region].y) for s in q.spawns)]
        assert len(deep) >= 8, (faction, deep)


def test_equipping_3_every_item_of_the_full_pack_fits_some_class_sheet():
    areas = [a for s in FULL.class_sheets for a in s.areas]
    for item in FULL.items:
        if item.type != "bag":
            assert any(item.type in a.accepts and (not a.traits or item.trait in a.traits) for a in areas), item.id


@pytest.mark.parametrize(("seats", "edition", "sizes"), [
    (6, "full", {"triangle": 30, "square": 16, "circle": 8}),
    (4, "starter", {"triangle": 16, "square": 8, "circle": 4}),
])
def test_setup_6_a_game_deals_from_its_edition_s_item_and_quest_decks(seats: int, edition: str,
                                                                       sizes: dict[str, int]) -> None:
    """setup.6–7: the item decks and the merchant hold the edition's items; the quest decks, the quests in
    play and the boxed greys hold the edition's quests (the full game's larger decks reach the table)."""
    engine, dice = WowBoardEngine(), SeededDice(7)
    names = ("ann", "bo", "cy", "di", "ed", "flo")
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=names[i]) for i in range(seats)],
                  options={"edition": edition})
    state = engine.new_game(setup, dice)
    while state.phase == "draft":
        decision = engine.decision(state)
        assert decision is not None
        seat = decision.seats[0]
        engine.apply(state, seat, engine.legal_actions(state, seat)[0], dice)
    pack = FULL if edition == "full" else builtin()
    specs = {i.id: i.deck for i in pack.items}
    dealt = Counter(specs[i] for i in state.merchant)
    for deck, n in sizes.items():
        assert len(state.item_decks[deck].cards()) + dealt[deck] == n, deck
    quests = {q.id for q in pack.quests}
    in_play = {q.card for q in state.quests} | set(state.quests_boxed)
    in_play |= {qid for decks in state.quest_decks.values() for d in decks.values() for qid in d.cards()}
    assert in_play == quests


def test_power_cards_1_every_class_deck_of_the_full_pack_has_12_powers_and_12_talents():
    # spec §4.3: full decks are powers L1×3 L2×3 L3×2 L4×2 L5×2 and talents 3 per level 2–5
    powers, talents = {1: 3, 2: 3, 3: 2, 4: 2, 5: 2}, {2: 3, 3: 3, 4: 3, 5: 3}
    for cls in FULL.classes:
        deck = [c for c in FULL.class_cards if c.class_id == cls.id]
        assert Counter(c.level for c in deck if c.kind == "talent") == talents, cls.id
        have = Counter(c.level for c in deck if c.kind == "power")
        # the Ranger carries one extra level-2 spotting power (Falcon Sight) beside the spec's twelve
        extra = Counter({2: 1}) if cls.id == "ranger" else Counter()
        assert have == Counter(powers) + extra, cls.id


def test_card_limits_3_the_p2_versions_of_shield_slam_and_aimed_shot_carry_a_secondary_spot():
    # spec §4.3: Shield Slam (a red 8 → a defense hit) and Aimed Shot (a blue 8 → a damage hit), P2 only
    full = {c.id: c for c in FULL.class_cards}
    starter = {c.id: c for c in builtin().class_cards}
    for cid, colour, box in (("shield_slam", "red", "defense"), ("aimed_shot", "blue", "damage")):
        second = [e for e in full[cid].effects if e.secondary]
        assert len(second) == 1 and second[0].timing == "reroll_end", cid
        assert second[0].condition.kind == "spot" and second[0].condition.colours == [colour] and \
            second[0].condition.face == 8
        assert [(o.op, o.box, o.n) for o in second[0].ops] == [("add_hits", box, 1)]
        assert not any(e.secondary for e in starter[cid].effects)  # the starter set keeps the P1 card
    frost = full["frost_ring"]
    assert (frost.level, frost.gold, frost.energy, frost.power_type) == (3, 4, 2, "instant")
    assert [o.op for o in frost.effects[0].ops] == ["remove_own_dice", "add_hits"]
    assert [o.op for o in full["overload"].effects[0].ops] == ["change_die"]
    secondaries = [c for c in FULL.class_cards if any(e.secondary for e in c.effects)]
    assert {c.class_id for c in secondaries} == {c.id for c in FULL.classes}  # every class has one
