"""The Embervale map and travel (travel, character-defeat; spec §4.10, worked example W5)."""

from __future__ import annotations

import json

import pytest

from engines.core.errors import RuleError
from engines.wowboard.content import DATA, builtin, load_pack
from engines.wowboard.rules_travel import destinations, nearest_graveyards, steps_from

PACK = builtin()


def test_setup_4_the_map_has_28_regions_46_roads_and_the_features_of_each_faction():
    assert len(PACK.regions) == 28 and len(PACK.areas) == 7
    assert sum(len(r.adjacent) for r in PACK.regions) == 2 * 46
    for faction in ("horde", "alliance"):
        assert sum(r.flight == faction for r in PACK.regions) == 4
        assert sum(r.town == faction for r in PACK.regions) == 3
    assert sum(r.graveyard for r in PACK.regions) == 6
    assert PACK.start_of("horde").id == "cinderhold" and PACK.start_of("alliance").id == "havenford"


def test_setup_a_pack_with_a_one_way_road_is_refused_with_the_region_named():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    data["regions"][0]["adjacent"].append("blackspire")
    with pytest.raises(RuleError) as err:
        load_pack(data)
    assert err.value.key == "wowboard.err.pack_map" and err.value.params["region"] == "cinderhold"


def test_travel_1_two_moves_along_roads():
    reach = destinations(PACK, "horde", "redthorn_pass")
    assert reach["crossroads"] == ["crossroads"] and reach["barrow_fields"] == ["crossroads", "barrow_fields"]
    assert "watchtower_ruin" not in reach  # three roads away


def test_travel_2_independents_in_the_first_region_end_the_action_there():
    reach = destinations(PACK, "alliance", "saintsbridge", independents=["watchtower_ruin"])
    assert reach["watchtower_ruin"] == ["watchtower_ruin"]  # may still go there, and stop
    assert "bone_orchard" not in reach  # only reachable through it
    assert reach["mill_on_the_brook"] == ["havenford", "mill_on_the_brook"]  # another way round: a flight
    assert destinations(PACK, "alliance", "saintsbridge", independents=["bone_orchard"])["bone_orchard"] == [
        "watchtower_ruin", "bone_orchard"]  # the second region entered holds them: that is where it ends


def test_travel_3_missing_roads_and_the_enemy_start_region_are_never_crossed():
    assert "orchard_gate" not in steps_from(PACK, "horde", "reed_delta")  # side by side, no road (a black border)
    reach = destinations(PACK, "horde", "green_hill")
    assert "havenford" not in reach  # the Alliance start region
    assert "havenford" in destinations(PACK, "alliance", "green_hill")


def test_travel_4_w5_friendly_flights_jump_and_may_be_followed_by_a_move():
    # wowboard:W5
    """W5: the Alliance leaves Havenford by flight to a far flight path, then walks one road."""
    reach = destinations(PACK, "alliance", "havenford")
    assert reach["eagle_spire"] == ["eagle_spire"] and reach["crown_peak"] == ["eagle_spire", "crown_peak"]
    assert reach["wreckers_cove"] == ["wreckers_cove"]
    roads = set(PACK.region("mill_on_the_brook").adjacent)
    assert set(steps_from(PACK, "horde", "mill_on_the_brook")) == roads  # an enemy flight path never works
    assert destinations(PACK, "horde", "mossmere")["withered_vale"] == ["withered_vale"]


def test_character_defeat_2_nearest_graveyards_by_road_excluding_the_one_where_it_fell():
    assert nearest_graveyards(PACK, "horde", "lantern_glade") == ["crossroads", "hollow_oak"]  # a tie: both
    # its own graveyard excluded: three graveyards two roads away
    assert nearest_graveyards(PACK, "alliance", "crossroads") == ["hollow_oak", "old_quarry", "orchard_gate"]
    assert nearest_graveyards(PACK, "horde", "blackspire") == ["plague_pits"]
