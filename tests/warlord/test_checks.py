"""skill-checks and feats: d20 + skill + bonuses vs DC, crits, feat sources adding up (spec §5.9, 5.10, 5.19)."""
# Cards of spec §4.2 this file plays: warlord:I10


from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.warlord.rules_checks import FEATS, feat_bonus, feat_check, save, skill_total, succeeded
from engines.warlord.state import Modifier
from tests.warlord.builders import battle, carry

VETERAN = [["oathkeeper_veteran", "shieldwall_recruit"], ["hearth_acolyte"], ["thane_brannoc"]]
ARMY_B = [["horde_grunt", "bone_shaman"], ["ember_hexer"], ["vorga"]]


@pytest.mark.parametrize("natural, ok", [(12, True), (11, False)])
def test_feats_scenario9_riposte_five_skill_three_needs_a_natural_twelve(natural, ok):
    state, a, _b = battle(VETERAN, ARMY_B)
    roll = feat_check(state, a[0][0], "riposte", RecordedDice([natural]))
    assert roll.bonus == 8 and roll.dc == 20 and succeeded(roll) is ok


def test_feats_scenario9_crits_beat_any_bonus():
    state, a, _b = battle(VETERAN, ARMY_B)
    vet = a[0][0]
    state.chars[vet].mods.append(Modifier(id="m", source="t", stat="skill", amount=-18))
    assert succeeded(feat_check(state, vet, "riposte", RecordedDice([20])))
    state.chars[vet].mods = [Modifier(id="m", source="t", stat="skill", amount=17)]
    assert not succeeded(feat_check(state, vet, "riposte", RecordedDice([1])))


def test_feats_scenario10_two_sources_add_medicine_four_plus_satchel_three():
    state, a, _b = battle(VETERAN, ARMY_B)
    acolyte = a[1][0]  # Medicine +4, skill +2
    carry(state, acolyte, "healers_satchel")
    assert feat_bonus(state, acolyte, "medicine") == 7
    assert feat_check(state, acolyte, "medicine", RecordedDice([11])).bonus == 9
    assert feat_bonus(state, a[0][1], "medicine") is None


def test_feats_the_builtin_decks_use_all_ten_feats():
    from engines.warlord.packs import builtin
    assert {f for c in builtin().cards for f in c.feats} == set(FEATS)


def test_skill_checks_scenario19_magic_save_bonus_counts():
    state, _a, b = battle(VETERAN, ARMY_B)
    shaman = b[0][1]  # skill +2
    state.chars[shaman].mods.append(Modifier(id="m", source="t", stat="save:magic", amount=3))
    roll = save(state, shaman, "magic", 15, RecordedDice([10]))
    assert roll.total == 15 and succeeded(roll)


def test_skill_checks_item_statics_change_skill():
    state, a, _b = battle(VETERAN, ARMY_B)
    thane = a[2][0]
    carry(state, thane, "ancestors_charm")
    assert skill_total(state, thane) == 9
