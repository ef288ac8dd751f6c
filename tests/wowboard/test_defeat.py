"""Defeat and respawn (character-defeat.2–3)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.wowboard.content import builtin
from engines.wowboard.rules_defeat import defeat, respawn, respawn_options
from tests.wowboard.test_turn import drafted

PACK = builtin()


def test_character_defeat_2_the_nearest_graveyards_or_the_start_region_ties_all_offered():
    state = drafted()
    warden = state.characters["warden"]
    assert respawn_options(PACK, warden, "lantern_glade") == ["crossroads", "hollow_oak", "cinderhold"]
    assert respawn_options(PACK, warden, "crossroads") == ["hollow_oak", "old_quarry", "orchard_gate", "cinderhold"]


def test_character_defeat_3_health_and_energy_one_no_actions_no_tokens_then_the_chosen_respawn():
    state = drafted()
    warden = state.characters["warden"]
    warden.region, warden.health, warden.stun, warden.curse = "wolfden", 0, 1, 2
    defeat(state, PACK, warden, "wolfden")
    assert (warden.health, warden.energy, warden.actions_left, warden.stun, warden.curse) == (1, 1, 0, 0, 0)
    assert state.pending[-1].kind == "respawn" and state.pending[-1].default == "cinderhold"
    with pytest.raises(RuleError) as err:
        respawn(state, 0, "havenford")
    assert err.value.key == "wowboard.err.respawn_where"
    respawn(state, 0, "hollow_oak")
    assert warden.region == "hollow_oak" and state.pending == []


def test_w22_item_cards_offered_for_a_reward_are_seen_only_by_the_rewarded_seat():
    # wowboard:W22
    from engines.wowboard.engine import WowBoardEngine
    from engines.wowboard.state import Pending

    state = drafted()
    drawn = [state.item_decks["triangle"].pool.pop(), state.item_decks["triangle"].pool.pop()]
    state.pending.insert(0, Pending(kind="keep_item", seats=[0], character="warden", options=drawn,
                                    default=drawn[0]))
    engine = WowBoardEngine()
    assert engine.view(state, 0).pending[0].options == drawn
    for seat in (1, None):
        hidden = engine.view(state, seat)
        text = hidden.model_dump_json()
        assert hidden.pending[0].options == ["?", "?"] and not [c for c in drawn if f'"{c}"' in text]
        deck = hidden.item_decks["triangle"]
        assert len(deck) == len(state.item_decks["triangle"]) and set(deck.cards()) <= {"?"}
