"""actions / card-orders: the performer gate (spec §5.14, §5.15)."""
# Cards of spec §4.2 this file plays: warlord:J9


from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.warlord.rules_actions import check_performer, is_spell
from tests.warlord.builders import battle, carry

ARMY_A = [["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant", "runecarver_adept"],
          ["thane_brannoc"]]
ARMY_B = [["horde_grunt", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"], ["vorga"]]


def _err(state, seat, uid, card_id, spend=False) -> str | None:
    try:
        check_performer(state, seat, uid, state.cards_def[card_id], spend)
    except RuleError as err:
        return err.key
    return None


def test_actions_spells_are_cleric_and_wizard_action_cards_only():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    assert is_spell(state.cards_def["rune_of_shattering"]) and is_spell(state.cards_def["stone_blessing"])
    assert not is_spell(state.cards_def["shield_bash"]) and not is_spell(state.cards_def["hearth_acolyte"])


def test_actions_scenario15_level_and_class_of_the_performer():
    state, _a, b = battle(ARMY_A, ARMY_B)
    hexer = b[1][0]  # level 2 wizard
    state.cards_def["searing_bolt"] = state.cards_def["searing_bolt"].model_copy(update={"level": 3})
    assert _err(state, 1, hexer, "searing_bolt") == "warlord.err.performer_level"
    carry(state, hexer, "blood_idol")  # +1 level for performing spells
    assert _err(state, 1, hexer, "searing_bolt") is None
    assert _err(state, 1, b[0][0], "dark_mending") == "warlord.err.performer_class"  # fighter, cleric spell
    assert _err(state, 1, b[1][1], "rally_cry") is None  # oval: any class; the level-2 brute reaches level 2
    assert _err(state, 1, b[0][0], "rally_cry") == "warlord.err.performer_level"


@pytest.mark.parametrize("orientation, spend, key", [
    ("spent", False, None), ("ready", False, None), ("ready", True, None),
    ("spent", True, "warlord.err.not_ready"), ("stunned", False, "warlord.err.performer_stunned"),
])
def test_card_orders_scenario14_spend_semantics(orientation, spend, key):
    state, a, _b = battle(ARMY_A, ARMY_B)
    fighter = a[1][0]  # level 2 fighter, Shield Bash is level 1 fighter
    state.chars[fighter].state = orientation
    assert _err(state, 0, fighter, "shield_bash", spend) == key


def test_actions_the_performer_must_be_in_your_army():
    state, _a, b = battle(ARMY_A, ARMY_B)
    assert _err(state, 0, b[0][0], "shield_bash") == "warlord.err.not_your_character"
