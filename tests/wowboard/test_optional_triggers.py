"""Optional triggers (issue 30, left from part 2): a card ability with a price of its own — dice out of the pool
(combat-general.4) or energy on top of the card's — is its owner's to use or decline when it comes up, in the
order card-limits.6 sets; the autopilot uses it unless it would cost hits. Every scenario runs on the built-in
full pack's own cards (Reckless Swing, Frost Ring, Overload)."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard import rules_fight as F
from engines.wowboard import rules_spot as S
from engines.wowboard.combat_state import Die
from engines.wowboard.content import builtin_full
from engines.wowboard.content_cards import Effect, Op, is_optional
from engines.wowboard.rules_answers import answer
from engines.wowboard.rules_autopilot import default_action
from engines.wowboard.state import State
from gm.games.wowboard import presenter
from gm.games.wowboard.cards import card_text
from tests.wowboard.test_card_mechanics import challenge, equip, table

PACK = builtin_full()


def _warden_swings(dice: list[int]) -> tuple[State, list[str]]:
    """The warden pays Reckless Swing (+2 red; secondary at the reroll step: a green die out for Reroll +2)
    and rolls ``dice`` (four red, then two green)."""
    state = table("warden")
    state.active = "alliance"
    warden = state.characters["warden"]
    warden.actions_left, warden.energy = 2, 3
    equip(state, "warden", "instant", "reckless_swing")
    challenge(state, "warden")
    events = F.roll(state, warden.seat, ["reckless_swing"], [], RecordedDice(dice))
    return state, [e.key.rsplit(".", 1)[1] for e in events]


def test_combat_general_4_removing_dice_is_optional_and_its_owner_is_asked() -> None:
    state, keys = _warden_swings([3, 3, 3, 3, 5, 2])
    top = state.pending[0]
    assert top.kind == "optional_trigger" and top.character == "warden"
    assert top.seats == [state.characters["warden"].seat] and top.options == ["use", "decline"]
    assert top.target == "reckless_swing" and top.default == "use"  # the green 2 misses: nothing lost
    assert "optional_trigger_asked" in keys and "dice_set_aside" not in keys
    attack = state.combat.attack
    assert attack.window == "reroll_start" and len(attack.dice) == 6 and attack.reroll == 0
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "optional_trigger" and decision.params["card"] == "reckless_swing"
    with pytest.raises(RuleError):  # the reroll waits for the answer
        ENGINE.apply(state, top.seats[0], A.Reroll(dice=[]), RecordedDice([]))
    events = answer(state, top.seats[0], "use", RecordedDice([]))
    assert any(e.key.endswith("dice_set_aside") for e in events)
    assert [(d.colour, d.value) for d in attack.set_aside] == [("green", 2)] and attack.reroll == 2
    assert attack.window == "" and not state.pending


def test_combat_general_4_a_declined_trigger_removes_nothing_and_the_attack_goes_on() -> None:
    state, _ = _warden_swings([3, 3, 3, 3, 5, 2])
    seat = state.pending[0].seats[0]
    events = answer(state, seat, "decline", RecordedDice([]))
    keys = [e.key.rsplit(".", 1)[1] for e in events]
    assert "trigger_declined" in keys and "dice_set_aside" not in keys
    assert "hits_placed" in keys  # no Reroll: the reroll step passes and the hits are placed
    assert not state.pending and state.combat is not None


def test_combat_general_4_the_autopilot_uses_a_trigger_unless_it_costs_hits() -> None:
    state, _ = _warden_swings([3, 3, 3, 3, 5, 2])
    seat = state.pending[0].seats[0]
    assert default_action(state, seat, ENGINE.legal_actions(state, seat), "optional_trigger") == A.Choose(value="use")
    state, _ = _warden_swings([3, 3, 3, 3, 8, 8])  # both greens hit: taking one out loses a hit for no hit back
    top = state.pending[0]
    assert top.default == "decline"
    chosen = default_action(state, seat, ENGINE.legal_actions(state, seat), "optional_trigger")
    assert chosen == A.Choose(value="decline")
    ENGINE.apply(state, seat, chosen, RecordedDice([]))
    assert state.combat is None or state.combat.attack is None or not state.combat.attack.set_aside


def _arcanist_rings(dice: list[int]) -> State:
    """The arcanist pays Frost Ring (at the end of the reroll step: 2 dice out for 3 defense hits) and holds
    Overload (the same moment: a blue 8 spotted turns a die to 8)."""
    state = table("arcanist")
    arcanist = state.characters["arcanist"]
    arcanist.energy = 4
    equip(state, "arcanist", "instant_2", "frost_ring")
    arcanist.talents[3] = "overload"
    challenge(state, "arcanist")
    assert "frost_ring" in F.affordable_instants(state, "arcanist")  # an instant with only dice triggers
    F.roll(state, arcanist.seat, ["frost_ring"], [], RecordedDice(dice))
    assert arcanist.energy == 2  # paid at the pool step, so its trigger works this round (card-limits.3)
    return state


def test_card_limits_6_an_optional_trigger_is_asked_at_its_turn_in_the_chosen_order() -> None:
    state = _arcanist_rings([2, 1])  # pre-printed: a red and a green die, no Reroll
    seat = state.characters["arcanist"].seat
    top = state.pending[0]
    assert top.kind == "effect_order" and sorted(top.options) == ["frost_ring>overload", "overload>frost_ring"]
    answer(state, seat, "overload>frost_ring", RecordedDice([]))  # Overload finds no blue 8; then the ring
    top = state.pending[0]
    assert top.kind == "optional_trigger" and top.target == "frost_ring" and top.waiting == []
    events = answer(state, seat, "use", RecordedDice([]))
    keys = [e.key.rsplit(".", 1)[1] for e in events]
    assert keys.index("dice_set_aside") < keys.index("hits_placed")
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_defense"] == 3


def test_card_limits_6_the_triggers_after_a_declined_one_still_resolve() -> None:
    state = _arcanist_rings([2, 1])
    seat = state.characters["arcanist"].seat
    answer(state, seat, "frost_ring>overload", RecordedDice([]))
    top = state.pending[0]
    assert top.kind == "optional_trigger" and top.waiting == ["overload"]
    events = answer(state, seat, "decline", RecordedDice([]))
    keys = [e.key.rsplit(".", 1)[1] for e in events]
    assert keys.index("trigger_declined") < keys.index("spot_missed") < keys.index("hits_placed")
    placed = next(e for e in events if e.key.endswith("hits_placed"))
    assert placed.params["hit_defense"] == 0  # the ring took no dice and added no hits


def test_combat_general_4_a_trigger_that_could_do_nothing_is_not_asked() -> None:
    state, _ = _warden_swings([3, 3, 3, 3, 5, 2])
    state.pending.clear()
    attack = state.combat.attack
    attack.window, attack.fired = "", []
    attack.dice = [Die(colour="red", value=3, first=3), Die(colour="green", value=2, first=2)]
    attack.spotted = [1]  # the only green die is spotted: it cannot be removed (combat-general.4)
    events = S.open_window(state, "reroll_start")
    assert not state.pending and attack.window == ""
    assert [e.key.rsplit(".", 1)[1] for e in events] == ["remove_short"]


def test_combat_general_4_only_triggers_with_a_price_are_optional_and_their_text_says_so() -> None:
    cards = {c.id: c for c in PACK.class_cards}
    assert is_optional(cards["frost_ring"].effects[0]) and is_optional(cards["reckless_swing"].effects[1])
    assert not is_optional(cards["overload"].effects[0]) and not is_optional(cards["falcon_sight"].effects[0])
    assert is_optional(Effect(timing="reroll_end", cost_energy=1, ops=[Op(op="attrition", n=1)]))
    assert not is_optional(Effect(timing="dice_pool", ops=[Op(op="add_dice", colour="red", n=1)]))
    assert "if you wish" in card_text(cards["frost_ring"], "en", PACK)
    assert "se vuoi" in card_text(cards["frost_ring"], "it", PACK)
    assert "if you wish" not in card_text(cards["falcon_sight"], "en", PACK)


@pytest.mark.parametrize(("lang", "use", "decline", "card"), [("en", "use it", "decline", "Reckless Swing"),
                                                               ("it", "usala", "rinuncia", "Colpo Sconsiderato")])
def test_combat_general_4_the_question_has_buttons_and_names_the_card(lang: str, use: str, decline: str,
                                                                      card: str) -> None:
    state, _ = _warden_swings([3, 3, 3, 3, 5, 2])
    seat = state.pending[0].seats[0]
    view = ENGINE.view(state, seat)
    buttons = presenter.decision_buttons(view, seat, lang, "1.1")
    assert [b.label for b in buttons] == [use, decline]
    assert [b.custom_id for b in buttons] == ["tv1:wb:1.1:ch:use", "tv1:wb:1.1:ch:decline"]
    decision = ENGINE.decision(view)
    assert decision is not None
    params = presenter.WowBoardPresenter().prompt_params(view, dict(decision.params), lang)
    from common.i18n import t
    words = t(decision.prompt_key, lang, **params)
    assert card in words and use in words and decline in words
