"""400.3-400.3c, mind control (issue 29.2), one scenario per clause, with the built-in card Borrowed Will.

The board: Vessa (seat 1, the shadow priest who may take Borrowed Will) takes an Alliance character of seat 0
and plays its turn at once; the turn she was taking resumes afterwards.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis.card_text import fill, unknown_paths
from engines.wowminis.content import BuffDef, fits
from engines.wowminis.rules_board import relation
from engines.wowminis.rules_effects import apply_buff
from engines.wowminis.state import SCHEMA_VERSION, State
from tests.wowminis.builders import PACK, act, board, event, give, keys, legal_kinds, pass_all, put, refused, turn
from tests.wowminis.playout import choose

V4 = Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowminis.v4.json"
PARTIES = ("elowen,brannoc,lyssara", "vessa,grushka,vorzul")


def _table() -> State:
    """Vessa on C3 with Borrowed Will, Brannoc (seat 0) on C5 within its range 3, Elowen next to Brannoc."""
    state = board(PARTIES)
    put(state, "vessa-2", "C3")
    put(state, "brannoc-1", "C5", ahead=2)
    put(state, "elowen-1", "D5", ahead=3)
    give(state, "vessa-2", "borrowed_will")
    return state


def _take(state: State, target: str = "brannoc-1") -> list:
    """Vessa's turn: she plays Borrowed Will on ``target``; every window is passed."""
    turn(state, "vessa-2")
    card = state.chars["vessa-2"].bar[0]
    events = act(state, 1, "play", ability=card.id, targets=[target])
    return events + pass_all(state)


def test_400_3_borrowed_will_takes_an_enemy_and_plays_its_turn_at_once() -> None:
    state = _table()
    vessa = state.chars["vessa-2"]
    events = _take(state)
    brannoc = state.chars["brannoc-1"]
    assert "controlled" in keys(events) and event(events, "controlled").params["former"] == 0
    assert brannoc.owner == 0 and brannoc.controller == 1
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "turn" and decision.seats == [1]
    assert decision.params["char"] == brannoc.defn.name  # its turn, now, before the rest of Vessa's
    assert state.turn is not None and state.turn.char == "brannoc-1" and not state.turn.moved
    assert state.active_seat == 1 and vessa.clock == state.master + 3  # Vessa paid the card's 3 ticks
    assert [k.char for k in state.controls] == ["brannoc-1"] and state.controls[0].outer.char == "vessa-2"


def test_400_3_an_ally_cannot_be_taken() -> None:
    state = _table()
    put(state, "grushka-2", "C4", ahead=2)
    turn(state, "vessa-2")
    refused(state, 1, "play", ability=state.chars["vessa-2"].bar[0].id, targets=["grushka-2"])


def test_400_3a_ally_and_enemy_are_seen_from_the_controller() -> None:
    state = _table()
    put(state, "grushka-2", "B5", ahead=2)  # Vessa's ally, next to Brannoc too
    _take(state)
    assert relation(state, state.chars["brannoc-1"].controller, state.chars["vessa-2"].controller) == "ally"
    assert relation(state, state.chars["brannoc-1"].controller, state.chars["elowen-1"].controller) == "enemy"
    targets = {tuple(a.targets) for a in ENGINE.legal_actions(state, 1) if a.kind == "play" and a.ability == "main"}
    assert ("elowen-1",) in targets and ("grushka-2",) not in targets  # his owner's ally is his enemy now
    roll = [5, 5, 5, 5, 1, 1, 1]  # four hits; Elowen blocks none
    act(state, 1, "play", ability="main", targets=["elowen-1"], roll=roll)
    pass_all(state, roll=roll)
    elowen = state.chars["elowen-1"]
    assert elowen.health < elowen.defn.health and elowen.last_hit == 1  # the controller's hit


def test_400_3a_the_controller_reveals_and_plays_its_cards_and_its_owner_cannot() -> None:
    state = _table()
    card, = give(state, "brannoc-1", "bulwark_blessing")  # face down
    _take(state)
    refused(state, 0, "reveal", rule=None, card=card.id)  # its owner no longer may
    assert legal_kinds(state, 0) == set()
    refused(state, 0, "end_turn", rule="501.2")
    assert ENGINE.view(state, 1).chars["brannoc-1"].bar[0].defn is not None  # the controller may look at it
    assert ENGINE.view(state, 0).chars["brannoc-1"].bar[0].defn is not None  # and its owner still knows it
    assert ENGINE.view(state, None).chars["brannoc-1"].bar[0].defn is None
    assert keys(act(state, 1, "reveal", card=card.id)) == ["card_revealed"]
    assert card.id in {a.ability for a in ENGINE.legal_actions(state, 1) if a.kind == "play"}
    act(state, 1, "play", ability=card.id, targets=["brannoc-1"])
    pass_all(state)
    assert not card.ready and any(e.target == "brannoc-1" for e in state.effects)


def test_400_3a_a_tick_cost_advances_both_clocks() -> None:
    state = _table()
    _take(state)
    brannoc, vessa = state.chars["brannoc-1"], state.chars["vessa-2"]
    b0, v0 = brannoc.clock, vessa.clock
    events = act(state, 1, "play", ability="main", targets=["elowen-1"], roll=[1] * 12)
    cost = brannoc.defn.main_attack.cost
    assert brannoc.clock == b0 + cost and vessa.clock == v0 + cost
    assert [e.params["cause"] for e in events if e.key == "wowm.ev.clock"] == ["cost", "control_cost"]


def test_400_3a_408_2a_the_controlling_clock_caps_the_cost_too() -> None:
    state = _table()
    _take(state)
    vessa = state.chars["vessa-2"]
    vessa.clock = state.master + 7  # a 4-tick attack would take Vessa 11 ahead
    assert not any(a.kind == "play" and a.ability == "main" for a in ENGINE.legal_actions(state, 1))
    refused(state, 1, "play", rule="408.2a", ability="main", targets=["elowen-1"])


def test_400_3b_buffs_stay_attached_and_a_once_per_game_card_stays_spent() -> None:
    state = _table()
    brannoc = state.chars["brannoc-1"]
    spent, = give(state, "brannoc-1", "last_stand", face_up=True)
    spent.ready = True
    brannoc.used_once.append(spent.id)  # played earlier this game (and readied since, 502.2)
    veil = PACK.card("veil_of_sanctuary").buff
    apply_buff(state, brannoc, veil, "buff", 0, "brannoc-1", "Veil of Sanctuary")
    slow = BuffDef(name="Heavy Limbs", modifiers=[{"stat": "movement", "delta": -1}])
    apply_buff(state, brannoc, slow, "debuff", 1, "grushka-2", "Heavy Limbs")
    _take(state)
    assert {e.name for e in state.effects if e.target == "brannoc-1"} == {"Veil of Sanctuary", "Heavy Limbs"}
    refused(state, 1, "play", rule="400.3b", ability=spent.id)
    assert spent.id not in {getattr(a, "ability", None) for a in ENGINE.legal_actions(state, 1)}
    act(state, 1, "end_turn")
    assert {e.name for e in state.effects if e.target == "brannoc-1"} == {"Veil of Sanctuary", "Heavy Limbs"}


def test_400_3c_control_reverts_at_the_end_of_that_turn_and_the_interrupted_turn_resumes() -> None:
    state = _table()
    _take(state)
    brannoc = state.chars["brannoc-1"]
    events = act(state, 1, "end_turn")
    assert keys(events)[-3:] == ["turn_ended", "control_reverted", "turn_resumed"]
    assert brannoc.controller == 0 and state.controls == []
    assert state.turn is not None and state.turn.char == "vessa-2" and state.turn.action_used
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "turn" and decision.seats == [1]
    assert "move" in legal_kinds(state, 1)  # her natural move is still hers to make
    assert brannoc.clock == state.master + 2  # not idle-ticked: its clock did not match the master (501.3b)
    act(state, 1, "end_turn")
    assert state.turn is None or state.turn.char != "vessa-2"


def test_400_3c_only_the_nested_turns_end_of_turn_effects_end_with_it() -> None:
    state = _table()
    vessa, elowen = state.chars["vessa-2"], state.chars["elowen-1"]
    brief = BuffDef(name="Brief Ward", duration="end_of_turn", modifiers=[{"stat": "armor", "delta": 1}])
    turn(state, "vessa-2")
    apply_buff(state, vessa, brief, "buff", 1, "vessa-2", "Brief Ward")  # made during Vessa's own turn
    act(state, 1, "play", ability=vessa.bar[0].id, targets=["brannoc-1"])
    pass_all(state)
    apply_buff(state, elowen, brief.model_copy(update={"name": "Brief Curse"}), "debuff", 1, "brannoc-1", "x")
    act(state, 1, "end_turn")  # the nested turn ends: only what it made ends
    assert {e.name for e in state.effects} == {"Brief Ward"}
    act(state, 1, "end_turn")
    assert not state.effects


def test_400_3c_a_character_destroyed_during_its_nested_turn_goes_back_out_of_play() -> None:
    state = _table()
    _take(state)
    events = act(state, 0, "gm_health", char="brannoc-1", health=0)
    brannoc = state.chars["brannoc-1"]
    assert brannoc.pos is None and brannoc.controller == 0 and state.controls == []
    vp = [e for e in events if e.key == "wowm.ev.vp"]
    assert [e.params["seat"] for e in vp] == [1]  # destroyed as its owner's: its enemy scores (403.2c)
    assert state.turn is not None and state.turn.char == "vessa-2"  # A10: its turn ended, hers resumed


def test_400_3c_a_pet_changes_hands_with_its_master_and_comes_back() -> None:
    state = _table()
    put(state, "lyssara-1", "D4", ahead=2)
    give(state, "lyssara-1", "call_ridgecat")
    _summon_ridgecat(state)
    pet = next(c for c in state.chars.values() if c.kind == "pet")
    _take(state, "lyssara-1")
    assert pet.controller == 1 and pet.owner == 0  # 400.1: the tokens it put into play follow it
    act(state, 1, "end_turn")
    assert pet.controller == 0 and state.chars["lyssara-1"].controller == 0


def test_400_3c_a_removed_pet_no_longer_exists_and_nothing_comes_back() -> None:
    state = _table()
    put(state, "lyssara-1", "D4", ahead=2)
    give(state, "lyssara-1", "call_ridgecat")
    _summon_ridgecat(state)
    pet = next(c for c in state.chars.values() if c.kind == "pet")
    pet.pos = "C4"
    _take(state, pet.id)
    assert state.turn is not None and state.turn.char == pet.id and pet.controller == 1
    events = act(state, 0, "gm_health", char="lyssara-1", health=0)  # its master falls: the pet is removed
    assert "pet_removed" in keys(events) and pet.id not in state.chars
    assert state.controls == [] and "control_reverted" not in keys(events)
    assert state.turn is not None and state.turn.char == "vessa-2"  # the interrupted turn resumes


def test_400_3c_the_controller_destroyed_in_the_nested_turn_finds_its_own_turn_over() -> None:
    state = _table()
    _take(state)
    act(state, 0, "gm_health", char="vessa-2", health=0)  # e.g. by Brannoc's own hand
    assert state.turn is not None and state.turn.char == "brannoc-1"  # control lasts until that turn's end
    act(state, 1, "end_turn")
    assert state.chars["brannoc-1"].controller == 0 and state.controls == []
    assert state.turn is None or state.turn.char != "vessa-2"


def test_400_3_the_nested_turn_round_trips_through_json() -> None:
    state = _table()
    _take(state)
    again = ENGINE.load_state(state.model_dump_json())
    assert again == state and again.controls[0].outer.char == "vessa-2"
    act(again, 1, "end_turn")
    assert again.chars["brannoc-1"].controller == 0


def test_400_3_borrowed_will_is_original_content_in_both_languages() -> None:
    card = PACK.card("borrowed_will")
    assert card.once_per_game and [s.op for s in card.steps] == ["control"] and card.name_it
    assert not unknown_paths(card, card.text) and not unknown_paths(card, card.text_it)
    assert "3" in fill(card, card.text) and "3" in fill(card, card.text_it)
    assert fits(card, PACK.character("vessa")) and not fits(card, PACK.character("elowen"))


def test_v4_save_loads_with_nobody_under_mind_control() -> None:
    raw = V4.read_text(encoding="utf-8")
    assert '"schema_version":4' in raw.replace(" ", "") and '"controls"' not in raw
    state = ENGINE.load_state(raw)
    assert state.schema_version == SCHEMA_VERSION == 5 and state.controls == []
    assert all(c.controller == c.owner for c in state.chars.values())
    assert ENGINE.decision(state) is not None and ENGINE.load_state(state.model_dump_json()) == state


def _summon_ridgecat(state: State) -> None:
    """Lyssara's own turn: she calls her Ridgecat next to her, then her turn ends."""
    turn(state, "lyssara-1")
    card = next(k for k in state.chars["lyssara-1"].bar if k.defn and k.defn.id == "call_ridgecat")
    act(state, 0, "play", ability=card.id)
    pass_all(state)
    decision = ENGINE.decision(state)
    if decision is not None and decision.kind == "pet_placement":
        act(state, 0, "choose", value=decision.options[0].value)
    act(state, 0, "end_turn")
    state.turn, state.stage = None, "match"
    state.chars["lyssara-1"].clock = state.master + 2


def test_400_3_the_board_and_the_panel_show_who_holds_the_controlled_character() -> None:
    from PIL import Image, ImageChops

    from renderers import kit
    from renderers import wowminis as W

    state = _table()
    _take(state)
    with kit.recording() as marks:
        png = W.render(ENGINE.view(state, None), lang="it", log_lines=[])
    assert any(m.text == "in mano a p2" for m in marks)  # the roster says who holds Brannoc
    plain = state.model_copy(deep=True)
    plain.chars["brannoc-1"].controller = 0
    with kit.recording() as marks:
        other = W.render(ENGINE.view(plain, None), lang="it", log_lines=[])
    assert not any("in mano" in m.text for m in marks)
    import io

    a, b = Image.open(io.BytesIO(png)).convert("RGB"), Image.open(io.BytesIO(other)).convert("RGB")
    assert a.size == b.size and ImageChops.difference(a, b).getbbox() is not None


def test_400_3a_the_controller_gets_the_controlled_characters_actions_in_autocomplete_and_buttons() -> None:
    from gm.games.wowminis import choices
    from gm.games.wowminis.presenter import PRESENTER

    state = _table()
    give(state, "brannoc-1", "bulwark_blessing")
    _take(state)
    mine, theirs = ENGINE.view(state, 1), ENGINE.view(state, 0)
    offered = {c.value for c in choices.ability_choices(mine, 1, "", "en")}
    assert "main" in offered and state.chars["brannoc-1"].bar[0].id in offered  # Brannoc's attack and card
    assert choices.ability_choices(theirs, 0, "", "en") == [] and choices.move_choices(theirs, 0, "", "en") == []
    assert choices.move_choices(mine, 1, "", "en")
    assert [c.value for c in choices.reveal_choices(mine, 1, "", "en")] == [state.chars["brannoc-1"].bar[0].id]
    assert choices.reveal_choices(theirs, 0, "", "en") == []
    ids = [b.custom_id for b in PRESENTER.buttons("g.1", mine, seat=1, lang="it")]
    assert any(i.endswith(":attack") for i in ids) and any(i.endswith(":end") for i in ids)
    assert PRESENTER.buttons("g.1", theirs, seat=0, lang="it") == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_400_3_random_play_around_a_mind_control_keeps_the_invariants(seed: int) -> None:
    """Random legal play from Vessa's Borrowed Will on Brannoc, with pets, cards and attacks around: a character
    is its owner's except under a control in force, a control in force is the current turn's, clocks stay
    within 408.2a, and the state round-trips."""
    rng = random.Random(seed)
    state = _table()
    put(state, "grushka-2", "B5", ahead=1)
    put(state, "lyssara-1", "D4", ahead=1)
    give(state, "brannoc-1", "bulwark_blessing", "aegis_of_light")
    give(state, "lyssara-1", "call_ridgecat")
    _take(state, rng.choice(["brannoc-1", "lyssara-1"]))
    dice = SeededDice(seed)
    for n in range(80):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = rng.choice(decision.seats)
        ENGINE.apply(state, seat, choose(rng, ENGINE.legal_actions(state, seat), state), dice)
        held = {k.char for k in state.controls}
        for c in state.chars.values():
            master_held = c.kind == "pet" and c.master_id in held
            assert c.controller == c.owner or c.id in held or master_held, (c.id, state.controls)
            assert 0 <= c.clock - state.master <= 9
        if state.controls:
            assert state.turn is not None and state.turn.char == state.controls[-1].char
        if n % 20 == 0:
            assert ENGINE.load_state(state.model_dump_json()) == state
    assert state.phase == "over" or state.controls or all(c.controller == c.owner for c in state.chars.values())


def _three() -> State:
    """A free-for-all of three: Thrak (seat 1) holds Borrowed Will and takes Elowen (seat 0); Cinderjaw is seat 2's."""
    from tests.wowminis.test_multiplayer import board4

    state = board4(3)
    put(state, "thrak-2", "E5")
    put(state, "elowen-1", "E7", ahead=2)
    put(state, "cinderjaw-3", "H5", ahead=2)
    give(state, "thrak-2", "borrowed_will")
    turn(state, "thrak-2")
    act(state, 1, "play", ability=state.chars["thrak-2"].bar[0].id, targets=["elowen-1"])
    pass_all(state)
    return state


def test_400_3a_in_a_free_for_all_the_third_party_stays_an_enemy_of_both() -> None:
    state = _three()
    assert state.turn is not None and state.turn.char == "elowen-1" and state.active_seat == 1
    assert relation(state, state.chars["elowen-1"].controller, 1) == "ally"
    assert relation(state, state.chars["elowen-1"].controller, 2) == "enemy"
    assert relation(state, state.chars["elowen-1"].controller, 0) == "enemy"  # seen from the controller, 400.3a


def test_400_3c_the_owner_resigning_takes_its_character_and_the_interrupted_turn_resumes() -> None:
    state = _three()
    act(state, 0, "resign")
    assert "elowen-1" not in state.chars and state.controls == []
    assert state.turn is not None and state.turn.char == "thrak-2" and state.active_seat == 1


def test_400_3c_the_controller_resigning_gives_the_character_back_first() -> None:
    state = _three()
    act(state, 1, "resign")
    assert "thrak-2" not in state.chars and state.controls == []
    assert state.chars["elowen-1"].controller == 0  # never taken away with the controller's party
