"""The engine contract (DESIGN §2): seats by mode, options, actions worded by keys, legal actions
exactly accepted, views without hidden information, outcomes, resignation and saved states."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engines import registry
from engines.core.contract import Engine, SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import HIDDEN
from engines.mageknight.state import State
from engines.mageknight.upgrades import SCHEMA
from tests.mageknight.builders import act, combat, rejected

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "states" / "mageknight.v1.json"


def seats(n: int) -> list[SeatSetup]:
    return [SeatSetup(seat=i, user_id=i + 1, name=f"p{i}") for i in range(n)]


def test_the_engine_is_registered_and_follows_the_protocol():
    assert registry.get("mageknight") is ENGINE and isinstance(ENGINE, Engine) and ENGINE.supports_resign
    assert (ENGINE.min_players_for({}), ENGINE.max_players_for({})) == (1, 1)
    assert (ENGINE.min_players_for({"mode": "duel"}), ENGINE.max_players_for({"mode": "duel"})) == (2, 2)


@pytest.mark.parametrize("options, key", [
    ({"mode": "race"}, "mk.err.bad_option_value"),
    ({"tier": 9}, "mk.err.bad_option_value"),
    ({"site": "moon"}, "mk.err.bad_option_value"),
    ({"colour": "red"}, "mk.err.unknown_option"),
    ({"mode": "assist"}, "mk.err.assist_enemies"),
    ({"mode": "assist", "enemies": "Ogre fire swift"}, "mk.err.bad_enemy"),
    ({"mode": "assist", "enemies": "Ogre armor 5 attack 3 sparkly"}, "mk.err.bad_stat_line"),
    ({"mode": "assist", "enemies": "Tusk", "units": "Bob attack 3"}, "mk.err.bad_unit"),
    ({"site": "keep", "city": "red"}, "mk.err.city_only"),
    ({"open_hand": "maybe"}, "mk.err.bad_option_value"),
])
def test_bad_options_are_refused_by_key(options, key):
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options(options)
    assert err.value.key == key


def test_options_are_normalized():
    assert ENGINE.validate_options({}) == {"mode": "challenge", "open_hand": False, "coldfire_pooled": False,
                                           "tier": 1, "site": "rampaging", "time": "day"}
    assist = ENGINE.validate_options({"mode": "assist", "site": "tomb", "enemies": ["g_tusk", {"id": "b_wisp"}],
                                      "open_hand": "sì"})
    assert assist["time"] == "night" and assist["open_hand"] and [e["token"]["name"] for e in assist["enemies"]] == [
        "Tusk Raiders", "Storm Wisp"]


def test_a_table_needs_the_seats_its_mode_says():
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(Setup(seats=seats(2), options={}), SeededDice(1))
    assert err.value.key == "mk.err.seats"


@pytest.mark.parametrize("data, key", [
    ({"kind": "fly"}, "mk.err.unknown_action"),
    ({"kind": "play"}, "mk.err.action_missing"),
    ({"kind": "play", "card": "x", "side": "sideways"}, "mk.err.action_choice"),
    ({"kind": "add", "effect": "attack", "amount": 0}, "mk.err.bad_action"),
])
def test_malformed_actions_are_worded_by_keys(data, key):
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action(data)
    assert err.value.key == key and "pydantic" not in str(err.value.params)


def _random_states(options: dict[str, object], n: int, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    state = ENGINE.new_game(Setup(seats=seats(n), options=options), SeededDice(seed))
    dice = SeededDice(seed + 1)
    found = []
    for _ in range(count):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        found.append(state.model_copy(deep=True))
        action = rng.choice(ENGINE.legal_actions(state, decision.seats[0]))
        ENGINE.apply(state, decision.seats[0], action, dice)
    return found


def test_every_legal_action_is_accepted():
    states: list[State] = []
    for seed in range(10):
        states += _random_states({"site": ["keep", "spawning_grounds", "city", "rampaging", "mage_tower"][seed % 5],
                                  "tier": seed % 4 + 1, "seed": seed}, 1, 60, seed)
        states += _random_states({"mode": "duel", "seed": seed}, 2, 30, seed)
        states += _random_states({"mode": "assist", "enemies": "Veiled Conjurers; Rime Adepts rampaging",
                                  "units": "Stoneguard, Siege Crew", "level": 3, "crystals": "red:2, blue",
                                  "source": "gold,blue,black"}, 1, 60, seed)
    for state in states:
        decision = ENGINE.decision(state)
        assert decision is not None
        for action in ENGINE.legal_actions(state, decision.seats[0]):
            copy = state.model_copy(deep=True)
            ENGINE.apply(copy, decision.seats[0], action, SeededDice(0))
        others = [s.seat for s in state.players if s.seat not in decision.seats]
        assert all(ENGINE.legal_actions(state, seat) == [] for seat in others)


def test_the_hand_deck_and_piles_are_hidden_from_others():
    state = ENGINE.new_game(Setup(seats=seats(1), options={"seed": 4, "site": "spawning_grounds"}), SeededDice(1))
    public = ENGINE.view(state, None)
    assert isinstance(public, State) and set(public.hero.hand) == {HIDDEN}
    assert set(public.hero.deck) == {HIDDEN} and len(public.hero.deck) == len(state.hero.deck)
    assert set(public.pools["brown"]) == {HIDDEN} and len(public.pools["brown"]) == len(state.pools["brown"])
    mine = ENGINE.view(state, 0)
    assert isinstance(mine, State) and mine.hero.hand == state.hero.hand and set(mine.hero.deck) == {HIDDEN}
    state.hero.hand.append("wound")
    assert ENGINE.view(state, None).hero.hand[-1] == "wound"  # type: ignore[attr-defined]
    opened = ENGINE.new_game(Setup(seats=seats(1), options={"seed": 4, "open_hand": True}), SeededDice(1))
    assert ENGINE.view(opened, None).hero.hand == opened.hero.hand  # type: ignore[attr-defined]


def test_a_duel_hides_the_enemy_until_the_die_is_set():
    state, events = ENGINE.new_game_with_events(Setup(seats=seats(2), options={"mode": "duel", "seed": 2}),
                                                SeededDice(1))
    assert state.phase == "setup" and events[0].key == "mk.ev.combat_started_duel"
    decision = ENGINE.decision(state)
    assert decision is not None and decision.seats == [1] and decision.kind == "interactive_die"
    assert ENGINE.view(state, 0).enemies[0].token.id == HIDDEN  # type: ignore[attr-defined]
    assert ENGINE.view(state, 1).enemies[0].token.id != HIDDEN  # type: ignore[attr-defined]
    ENGINE.apply(state, 1, A.Choose(value="black"), RecordedDice([]))
    assert state.phase == "ranged_siege" and ENGINE.view(state, 0).enemies[0].token.id != HIDDEN  # type: ignore


def test_resign_concedes_and_a_duel_goes_to_the_other_seat():
    solo = combat(["Tusk Raiders"])
    events = act(solo, "resign")
    outcome = ENGINE.outcome(solo)
    assert outcome is not None and outcome.winners == [] and outcome.reason_key == "mk.end.conceded"
    assert events[0].params["player"] == "alice" and solo.result is not None and solo.result.score == 0
    duel = ENGINE.new_game(Setup(seats=seats(2), options={"mode": "duel", "seed": 2}), SeededDice(1))
    ENGINE.apply(duel, 1, A.Resign(), RecordedDice([]))
    assert ENGINE.outcome(duel).winners == [0]  # type: ignore[union-attr]
    assert rejected(solo, "resign").key == "mk.err.game_over"


def test_victory_outcome_names_the_fighter():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=2)
    act(state, "commit")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == [0] and outcome.reason_key == "mk.end.victory"
    assert outcome.params == {"fame": 2, "rep": 0, "score": 5, "defeated": 1, "survived": 0}


def test_the_frozen_fixture_is_a_playable_mid_combat_state():
    raw = FIXTURE.read_text(encoding="utf-8")
    state = ENGINE.load_state(raw)
    assert state.phase == "block" and state.staged is not None and any(e.summoned_by for e in state.enemies)
    assert SCHEMA.load(state.model_dump_json()) == state
    assert ENGINE.decision(state) is not None and ENGINE.legal_actions(state, 0)


def test_gm_overrides_are_logged_and_keep_the_state_sane():
    state = combat(["Tusk Raiders"], units=["Stoneguard"])
    assert act(state, "gm_wounds", seat=-1, add=2)[0].key == "mk.ev.gm_wounds"
    assert state.hero.hand.count("wound") == 2
    act(state, "gm_unit", seat=-1, unit="Stoneguard", wounds=1)
    assert state.units[0].wounds == 1
    act(state, "gm_fame", seat=-1, fame=3, reputation=-2)
    assert (state.fame, state.reputation) == (3, -2)
    events = act(state, "gm_enemy", seat=-1, enemy="Tusk Raiders", status="defeated")
    assert state.phase == "over" and "combat_ended" in [e.key.removeprefix("mk.ev.") for e in events]
