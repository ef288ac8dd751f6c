"""The optional rules as lobby options (variants, variants.1–2, W40, W41; issue 30.9), the game's length
(game-length) and the smaller tables (fewer-players)."""

from __future__ import annotations

from pathlib import Path

import pytest

from common import i18n
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard import rules_boxes as RB
from engines.wowboard.combat_state import BoxState
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_fight import settle
from engines.wowboard.rules_pvp import begin_defense
from engines.wowboard.state import SCHEMA_VERSION, State
from tests.wowboard.test_final_battle import last_turn, to_battle
from tests.wowboard.test_pvp import boxes, gathered, to_defense
from tests.wowboard.test_turn import E, act

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = ("ann", "bo", "cy", "di", "ed", "flo")


# ------------------------------------------------------------------------------------------------ the options
def test_variants_the_lobby_takes_either_rule_or_both_and_refuses_unknown_words_in_both_languages() -> None:
    # wowboard:variants
    assert "variant" in E.known_options({}) and "overlord" in E.known_options({})
    assert E.validate_options({"variant": "deadly_pvp"})["variant"] == "deadly_pvp"
    assert E.validate_options({"variant": "defeat_overlord, Deadly-PvP"})["variant"] == "deadly_pvp,defeat_overlord"
    assert E.validate_options({"variant": "pvp_mortale"})["variant"] == "deadly_pvp"  # the Italian name
    assert E.validate_options({"variant": "none"})["variant"] == "none"
    assert "variant" not in E.validate_options({})  # a table that says nothing plays the base rules
    with pytest.raises(RuleError) as err:
        E.validate_options({"variant": "deadly_pvp,hardcore"})
    assert err.value.key == "wowboard.err.bad_variant" and err.value.params["value"] == "hardcore"
    assert err.value.rule == "variants"
    for key in ("wowboard.err.bad_variant", "wowboard.ev.new_lap", "wowboard.ev.pvp_deadly_tiebreak"):
        assert i18n.has(key, "en") and i18n.has(key, "it")


def test_variants_a_table_without_the_options_keeps_the_base_pvp_and_the_end() -> None:
    # wowboard:variants wowboard:pvp-defense.3
    state = gathered("warden", "ranger")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    boxes(state, "horde", defense=3, attrition=1)
    boxes(state, "alliance", defense=2)
    events = to_defense(state)
    due = next(e for e in events if e.key == "wowboard.ev.pvp_resolution_due")
    assert (due.params["horde"], due.params["alliance"]) == (0, 2)  # 4 against 2: they cancel, 2 go through


# ------------------------------------------------------------------------------------------------ variants.1
def test_variants_1_deadly_pvp_cancels_nothing_at_the_resolution_each_side_takes_all_the_enemy_hits() -> None:
    # wowboard:variants.1
    assert RB.pvp_deadly_resolution(RB.Boxes(damage=1, defense=3, attrition=1), RB.Boxes(defense=2)) == (2, 5)
    state = gathered("warden", "ranger")
    state.options["variant"] = "deadly_pvp"
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    boxes(state, "horde", defense=3, attrition=1)
    boxes(state, "alliance", defense=2)
    events = to_defense(state)
    due = next(e for e in events if e.key == "wowboard.ev.pvp_resolution_due")
    assert (due.params["horde"], due.params["alliance"]) == (2, 4)
    assert (state.characters["warden"].health, state.characters["ranger"].health) == (6, 4)


def _deadly_final(horde_hits: int, alliance_hits: int) -> tuple[State, int, int]:
    """The final battle under Deadly PvP with both damage boxes set by hand; nobody can pay a last chance.
    Returns the state at the wound split and each side's total health."""
    state = last_turn()
    state.options["variant"] = "deadly_pvp"
    to_battle(state)
    for c in state.characters.values():
        c.energy = 0
    combat = state.combat
    combat.attack, combat.step = None, "attack"
    combat.pvp_boxes = {"horde": BoxState(damage=horde_hits), "alliance": BoxState(damage=alliance_hits)}
    begin_defense(state)
    settle(state, RecordedDice([]), combat)
    horde = sum(c.health for c in state.of_faction("horde"))
    alliance = sum(c.health for c in state.of_faction("alliance"))
    return state, horde, alliance


def _split(state: State, seat: int, n: int) -> dict[str, int]:
    """Every character of the seat's faction takes what it has in health; the first takes the rest too."""
    mine = [c for c in state.combat.participants if state.characters[c].seat == seat]  # type: ignore[union-attr]
    split = {c: state.characters[c].health for c in mine}
    split[mine[0]] += n - sum(split.values())
    return split


def test_W40_deadly_pvp_both_sides_wiped_in_one_step_the_side_with_fewer_unabsorbed_wounds_wins() -> None:
    # wowboard:W40 wowboard:variants.1
    state, horde, alliance = _deadly_final(horde_hits=40, alliance_hits=30)
    # the hits step: the Horde's 40 hits wound the Alliance and the Alliance's 30 the Horde, together
    act(state, 0, {"kind": "assign_wounds", "split": _split(state, 0, 30)})
    events = act(state, 1, {"kind": "assign_wounds", "split": _split(state, 1, 40)})
    left = {"horde": 30 - horde, "alliance": 40 - alliance}
    assert min(left.values()) >= 0 and left["horde"] != left["alliance"]
    winner = min(left, key=lambda f: left[f])
    said = next(e for e in events if e.key == "wowboard.ev.pvp_deadly_tiebreak")
    assert (said.params["horde"], said.params["alliance"], said.params["faction"]) == (
        left["horde"], left["alliance"], winner)
    assert state.phase == "over" and state.end_reason == "final_battle"
    assert state.winners == [s.seat for s in state.seats if s.faction == winner]


def test_W40_deadly_pvp_equal_unabsorbed_wounds_is_a_draw() -> None:
    # wowboard:W40 wowboard:variants.1 wowboard:victory.3
    _, horde, alliance = _deadly_final(0, 0)
    state, _, _ = _deadly_final(horde_hits=alliance + 3, alliance_hits=horde + 3)
    act(state, 0, {"kind": "assign_wounds", "split": _split(state, 0, horde + 3)})
    events = act(state, 1, {"kind": "assign_wounds", "split": _split(state, 1, alliance + 3)})
    said = next(e for e in events if e.key == "wowboard.ev.pvp_deadly_tiebreak")
    assert (said.params["horde"], said.params["alliance"], said.params["faction"]) == (3, 3, "-")
    assert state.phase == "over" and state.end_reason == "draw" and state.winners == []


def test_W40_base_rules_both_wiped_is_a_draw_whatever_the_left_over_wounds() -> None:
    # wowboard:W40 wowboard:pvp-defense.5
    state = last_turn()
    to_battle(state)
    for c in state.characters.values():
        c.energy = 0
    combat = state.combat
    combat.attack, combat.step = None, "attack"
    combat.pvp_boxes = {"horde": BoxState(damage=40), "alliance": BoxState(damage=60)}
    begin_defense(state)
    settle(state, RecordedDice([]), combat)
    act(state, 0, {"kind": "assign_wounds", "split": {"warden": 30, "arcanist": 30}})
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 20, "cantor": 20}})
    assert state.phase == "over" and state.end_reason == "draw" and state.winners == []


# ------------------------------------------------------------------------------------------------ variants.2
def _turn_30(variant: str | None) -> State:
    state = last_turn()
    if variant:
        state.options["variant"] = variant
    return state


def test_W41_variants_2_after_space_30_the_marker_goes_back_to_space_1_and_play_goes_on() -> None:
    # wowboard:W41 wowboard:variants.2
    state = _turn_30("defeat_overlord")
    events = act(state, 1, {"kind": "management_done"})
    keys = [e.key for e in events]
    assert "wowboard.ev.new_lap" in keys and "wowboard.ev.final_called" not in keys
    assert (state.turn, state.lap, state.phase, state.active) == (1, 2, "play", "horde")
    assert state.final_attackers is None and state.winners is None
    assert all(c.actions_left == 2 for c in state.of_faction("horde"))


def test_W41_variants_2_on_the_second_lap_every_item_icon_gives_a_circle_item() -> None:
    # wowboard:W41 wowboard:variants.2 wowboard:end-of-faction-turn.3
    state = _turn_30("defeat_overlord")
    act(state, 1, {"kind": "management_done"})
    state.active, state.phase = "alliance", "management"  # lap 2, turn 1 over: the marker moves to space 2
    for c in state.characters.values():
        c.actions_left = 0
    circles, triangles = len(state.item_decks["circle"]), len(state.item_decks["triangle"])
    merchant = list(state.merchant)
    assert pack_of(state).track.items[2] == "triangle"
    act(state, 1, {"kind": "management_done"})
    assert state.turn == 2
    assert len(state.item_decks["circle"]) == circles - 1 and len(state.item_decks["triangle"]) == triangles
    new = [i for i in state.merchant if i not in merchant]
    decks = {i.id: i.deck for i in pack_of(state).items}
    assert len(new) == 1 and decks[new[0]] == "circle"


def test_game_length_the_base_game_ends_at_the_end_space_and_the_final_battle_follows() -> None:
    # wowboard:game-length wowboard:victory.2
    state = _turn_30(None)
    events = act(state, 1, {"kind": "management_done"})
    assert state.turn == 31 and state.lap == 1 and state.phase == "final_management"
    assert any(e.key == "wowboard.ev.final_called" for e in events)


def test_game_length_thirty_faction_turns_horde_first_fifteen_each_then_the_end() -> None:
    # wowboard:game-length wowboard:faction-turn.1
    state = _played_to_the_end(None)
    assert state.phase == "final_management" and state.turn == 31 and state.lap == 1


def test_game_length_variants_2_the_track_never_reaches_the_end_it_starts_a_second_lap() -> None:
    # wowboard:game-length wowboard:variants.2
    state = _played_to_the_end("defeat_overlord")
    assert state.phase == "play" and state.turn == 1 and state.lap == 2 and state.active == "horde"


def _played_to_the_end(variant: str | None) -> State:
    """Two seats pass every action for thirty faction turns (any question takes its first answer); the
    faction turns are counted as they start."""
    options = {"variant": variant} if variant else {}
    dice = SeededDice(5)
    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=NAMES[i]) for i in range(2)],
                             options=E.validate_options(options)), dice)
    turns: list[tuple[int, str]] = []
    for _ in range(3000):
        d = E.decision(state)
        if d is None or state.phase == "final_management" or state.lap == 2:
            break
        seat = d.seats[0]
        legal = E.legal_actions(state, seat)
        action = next((a for a in legal if a.kind in ("pass", "management_done")), legal[0])
        for e in E.apply(state, seat, action, dice):
            if e.key == "wowboard.ev.faction_turn":
                turns.append((e.params["turn"], e.params["faction"]))
    assert len(turns) == 30 if variant is None else len(turns) == 31  # lap 2 starts with the Horde's turn 1
    assert turns[:30] == [(t, "horde" if t % 2 else "alliance") for t in range(1, 31)]
    return state


# ------------------------------------------------------------------------------------------------ fewer players
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_fewer_players_seats_run_the_characters_of_one_faction_and_small_tables_start_with_four_quests(
        seats: int) -> None:
    # wowboard:fewer-players wowboard:setup.1 wowboard:setup.7 wowboard:W39
    dice = SeededDice(seats)
    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=NAMES[i]) for i in range(seats)]), dice)
    while state.phase == "draft":
        seat = E.decision(state).seats[0]  # type: ignore[union-attr]
        E.apply(state, seat, E.legal_actions(state, seat)[0], dice)
    characters = {2: 4, 3: 4, 4: 4, 5: 6}[seats]
    assert len(state.characters) == characters
    doubles = [s for s in state.seats if len(s.characters) == 2]
    assert len(doubles) == {2: 2, 3: 1, 4: 0, 5: 1}[seats]
    for s in doubles:  # one seat runs two characters of one faction
        assert {state.characters[c].faction for c in s.characters} == {s.faction}
    locked = {"templar", "stormcaller"}
    assert all(not locked <= set(s.characters) for s in doubles)  # never the two faction-locked classes
    for faction in ("horde", "alliance"):
        mine = [q for q in state.quests if q.faction == faction]
        assert len(mine) == (4 if characters == 4 else 5)  # 3 grey + 1 green, or 4 + 1 with six characters


# ------------------------------------------------------------------------------------------------ saved games
def test_variants_2_a_frozen_v3_game_loads_on_its_first_lap_and_plays_on() -> None:
    # wowboard:variants.2
    text = (FIXTURES / "play_4seats_full.v3.json").read_text()
    assert '"schema_version": 3' in text and '"lap"' not in text
    state = ENGINE.load_state(text)
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION >= 4 and state.lap == 1
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "faction_turn"
    seat = d.seats[0]
    action = next(a for a in ENGINE.legal_actions(state, seat) if a.kind == "pass")
    ENGINE.apply(state, seat, action, SeededDice(1))
    assert ENGINE.load_state(state.model_dump_json()) == state
