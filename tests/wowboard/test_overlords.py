"""The three Overlords (setup.5, setup.8, overlord.2–3, victory.1; issue 30.7): chosen in the lobby or drawn,
the Lich-Regent's decrees seeded into the event deck, the Pit Warlord's minions in the fight."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import i18n
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard.content import builtin_full, load_pack
from engines.wowboard.rules_events import event_step
from engines.wowboard.rules_fight import settle
from engines.wowboard.state import State
from gm.games.wowboard.cards import overlord_text
from gm.games.wowboard.text import option_label
from tests.wowboard.issue30_tables import NAMES, stack_events
from tests.wowboard.test_playouts import ended, play

E = ENGINE
DECREES = {"ev_decree_shades", "ev_decree_blight", "ev_decree_frost", "ev_decree_tithe", "ev_decree_march"}


def table(options: dict[str, object], seats: int = 4, seed: int = 3) -> tuple[State, list]:
    """A game of ``seats`` players with these lobby options, drafted (first legal picks); the events of the
    last pick (the set-up's) are returned with it."""
    dice = SeededDice(seed)
    opts = E.validate_options(options)
    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(seats)],
                             options=opts), dice)
    assert isinstance(state, State)
    events: list = []
    while state.phase == "draft":
        seat = E.decision(state).seats[0]  # type: ignore[union-attr]
        events = E.apply(state, seat, E.legal_actions(state, seat)[0], dice)
    return state, events


def test_setup_5_the_overlord_named_in_the_lobby_rules_the_game_by_id_or_by_name_in_either_language() -> None:
    # wowboard:setup.5 wowboard:overlord.2
    for word, lord, region in (("lich_regent", "lich_regent", "blackspire"), ("Pit Warlord", "pit_warlord",
                               "plague_pits"), ("Signore della Fossa", "pit_warlord", "plague_pits"),
                               ("Reggente Lich", "lich_regent", "blackspire")):
        state, events = table({"overlord": word})
        assert state.overlord is not None and (state.overlord.id, state.overlord.region) == (lord, region)
        assert state.pack == "builtin@2"  # edition auto takes the full game: the starter set has one Overlord
        said = next(e for e in events if e.key == "wowboard.ev.overlord_set")
        assert said.params["region"] == region and said.params["side"] == "4"


def test_setup_5_without_the_option_the_pack_first_overlord_rules_and_six_characters_turn_its_sheet() -> None:
    # wowboard:setup.5
    state, _ = table({}, seats=6)
    assert state.overlord is not None and (state.overlord.id, state.overlord.side) == ("ash_wyrm", "6")
    assert len(state.characters) == 6


def test_setup_5_random_is_a_recorded_pick_among_the_three_and_replays_exactly() -> None:
    # wowboard:setup.5
    seen = set()
    for seed in range(12):
        state, events = table({"overlord": "random", "edition": "full"}, seed=seed)
        said = next(e for e in events if e.key == "wowboard.ev.overlord_set")
        assert said.draws and said.reveals_hidden  # the pick is on the record
        seen.add(state.overlord.id)  # type: ignore[union-attr]
        again, _ = table({"overlord": "random", "edition": "full"}, seed=seed)
        assert again.overlord == state.overlord
    assert seen == {"ash_wyrm", "lich_regent", "pit_warlord"}


def test_setup_5_unknown_overlords_and_the_starter_set_without_them_are_refused_in_words() -> None:
    # wowboard:setup.5
    with pytest.raises(RuleError) as err:
        E.validate_options({"overlord": "smaug"})
    assert err.value.key == "wowboard.err.bad_overlord" and "pit_warlord" in err.value.params["known"]
    with pytest.raises(RuleError) as err:
        E.validate_options({"overlord": "lich_regent", "edition": "starter"})
    assert err.value.key == "wowboard.err.overlord_starter"
    for key in ("wowboard.err.bad_overlord", "wowboard.err.overlord_starter", "wowboard.ev.minions_summoned"):
        assert i18n.has(key, "en") and i18n.has(key, "it")
    assert E.validate_options({"overlord": "RANDOM"})["overlord"] == "random"


def test_overlord_3_the_lich_regent_seeds_its_five_decrees_only_into_its_own_games() -> None:
    # wowboard:overlord.3 wowboard:setup.8
    regent, _ = table({"overlord": "lich_regent"})
    wyrm, _ = table({"overlord": "ash_wyrm", "edition": "full"})
    assert set(regent.event_deck.cards()) >= DECREES
    assert not DECREES & set(wyrm.event_deck.cards())
    assert len(regent.event_deck) == len(wyrm.event_deck) + 5
    pack = builtin_full()
    assert {e.id for e in pack.events if e.overlord == "lich_regent"} == DECREES
    assert all(i18n.has("wowboard.ev.overlord_set", lang) for lang in ("en", "it"))
    assert all(e.title_it for e in pack.events if e.overlord)  # both languages
    regent_card = next(o for o in pack.overlords if o.id == "lich_regent")
    assert "Decree: Frozen Skies" in overlord_text(regent_card, "en", pack)
    assert "Decreto: Cieli Gelati" in overlord_text(regent_card, "it", pack)


def test_overlord_3_a_drawn_decree_resolves_like_an_event_and_the_regent_never_moves() -> None:
    # wowboard:overlord.3 wowboard:events.1
    state, _ = table({"overlord": "lich_regent"})
    stack_events(state, "ev_decree_shades")
    state.turn = 3
    step = event_step(state, RecordedDice([]))
    shades = [f for f in state.figures.values() if f.region == "bone_orchard" and f.type == "grave_eater"]
    assert len(shades) >= 2 and all(f.quest is None for f in shades[-2:])  # independents: challenged first
    assert state.overlord is not None and state.overlord.region == "blackspire"  # destiny 1, but it stands
    assert not any(e.key == "wowboard.ev.overlord_moved" for e in step.events)
    assert "ev_decree_shades" in state.events_active  # a normal card: face up as the current event


def test_overlord_3_the_lich_regent_tithe_wounds_and_curses_the_stronger_faction() -> None:
    # wowboard:overlord.3 wowboard:events.4
    state, _ = table({"overlord": "lich_regent"})
    strong = next(c for c in state.characters.values() if c.faction == "alliance")
    strong.xp = 9
    health, curse = strong.health, strong.curse
    stack_events(state, "ev_decree_tithe")
    event_step(state, RecordedDice([]))
    assert (strong.health, strong.curse) == (health - 1, curse + 1)
    assert all(c.curse == 0 for c in state.characters.values() if c.faction == "horde")


def _at_the_pits(state: State) -> str:
    state.figures, state.quests = {}, []
    hero = next(c for c in state.characters.values() if c.faction == state.active)
    hero.region = "plague_pits"
    return hero.id


def test_overlord_3_the_pit_warlord_calls_its_minion_whose_attack_counts_in_the_defense_phase() -> None:
    # wowboard:overlord.3 wowboard:defense-phase.2
    state, _ = table({"overlord": "pit_warlord"})
    hero = _at_the_pits(state)
    seat = state.characters[hero].seat
    assert "overlord:pit_warlord" in [a.target for a in E.legal_actions(state, seat) if a.kind == "challenge"]
    events = E.apply(state, seat, E.parse_action({"kind": "challenge", "character": hero,
                                                   "target": "overlord:pit_warlord"}), RecordedDice([]))
    summoned = next(e for e in events if e.key == "wowboard.ev.minions_summoned")
    assert summoned.params["n"] == 1
    combat = state.combat
    assert combat is not None and [o.kind for o in combat.opponents] == ["overlord", "creature"]
    minion = combat.opponents[1]
    assert (minion.attack, minion.health) == (11, 11)  # a blue Stonehide Brute of the pack (spec: overlord.3)
    assert not any(f.region == "plague_pits" for f in state.figures.values())  # no figure from the supply
    events = E.apply(state, seat, E.parse_action({"kind": "roll"}), RecordedDice([1] * 30))
    due = next(e for e in events if e.key == "wowboard.ev.wounds_due")
    assert due.params["n"] == 13 + 11  # the Warlord's attack (4-character side) and its minion's


def test_overlord_3_victory_1_the_group_picks_who_falls_and_the_warlord_falling_wins_with_its_minion_up() -> None:
    # wowboard:overlord.3 wowboard:victory.1 wowboard:defense-phase.1
    state, _ = table({"overlord": "pit_warlord"})
    hero = _at_the_pits(state)
    seat = state.characters[hero].seat
    E.apply(state, seat, E.parse_action({"kind": "challenge", "character": hero, "target": "overlord:pit_warlord"}),
            RecordedDice([]))
    combat = state.combat
    assert combat is not None
    combat.attack, combat.step = None, "hit_assign"  # the attack phases are over: 11 hits in the damage box
    combat.boxes.damage = 11  # enough for the Brute (11 health) or the Warlord: the group picks
    combat.opponents[0].health = 2  # most of the Warlord already beaten
    settle(state, RecordedDice([]), combat)
    question = state.pending[0]
    assert question.kind == "hit_target"
    assert sorted(question.options) == ["minion:stonehide_brute:1", "overlord:pit_warlord"]
    assert sorted(option_label(state, o, "en") for o in question.options) == ["Pit Warlord", "Stonehide Brute 1"]
    assert sorted(option_label(state, o, "it") for o in question.options) == ["Bruto Pelledipietra 1",
                                                                              "Signore della Fossa"]
    E.apply(state, seat, E.parse_action({"kind": "choose", "value": "overlord:pit_warlord"}), RecordedDice([]))
    assert state.phase == "over" and state.combat is None and state.end_reason == "overlord"
    assert state.winners == [s.seat for s in state.seats if s.faction == state.characters[hero].faction]


def test_overlord_3_beating_the_minion_first_leaves_the_warlord_alone_in_the_fight() -> None:
    # wowboard:overlord.3
    state, _ = table({"overlord": "pit_warlord"})
    hero = _at_the_pits(state)
    seat = state.characters[hero].seat
    E.apply(state, seat, E.parse_action({"kind": "challenge", "character": hero, "target": "overlord:pit_warlord"}),
            RecordedDice([]))
    combat = state.combat
    assert combat is not None
    combat.attack, combat.step = None, "hit_assign"
    combat.boxes.damage = 12  # only the minion fits (the Warlord has 24 health)
    state.characters[hero].health = 40  # it outlives the Warlord's answer (13 wounds)
    events = settle(state, RecordedDice([]), combat)
    assert any(e.key == "wowboard.ev.opponent_defeated" and e.params["ref"] == "minion:stonehide_brute:1"
               for e in events)
    assert state.combat is not None and [o.kind for o in state.combat.opponents] == ["overlord"]
    assert state.phase == "play" and state.combat.boxes.damage == 1 and state.combat.round == 2  # one hit carried
    assert state.characters[hero].health == 40 - 13  # the minion fell before the defense phase's wounds


def test_overlord_3_packs_that_give_an_overlord_the_wrong_data_for_its_behaviour_are_refused() -> None:
    # wowboard:overlord.3
    data = builtin_full().model_dump(mode="json", exclude_unset=True)
    lords = data["overlords"]
    regent = next(o for o in lords if o["id"] == "lich_regent")
    data["events"] = [e for e in data["events"] if not e.get("overlord")]  # the dump lists them twice
    broken = dict(regent, decrees=[])
    with pytest.raises(RuleError):
        load_pack(dict(data, overlords=[o if o["id"] != "lich_regent" else broken for o in lords]))
    walker = dict(regent, behaviour="wander")
    with pytest.raises(RuleError):
        load_pack(dict(data, overlords=[o if o["id"] != "lich_regent" else walker for o in lords]))
    stray = dict(next(o for o in lords if o["id"] == "pit_warlord"), ability={"scorch": {"wounds": 1}})
    with pytest.raises(RuleError):
        load_pack(dict(data, overlords=[o if o["id"] != "pit_warlord" else stray for o in lords]))
    assert {o.id for o in load_pack(data).overlords} == {"ash_wyrm", "lich_regent", "pit_warlord"}


# ------------------------------------------------------------------------------------------------ playouts
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["lich_regent", "pit_warlord", "random"]))
def test_overlord_3_variants_1_random_games_with_each_overlord_and_deadly_pvp_keep_the_invariants(
        seed: int, lord: str) -> None:
    """The playouts' invariants (spec §3.7) and an outcome, with the Lich-Regent's decrees in the deck or the
    Pit Warlord's minions in its fights, and Deadly PvP for every PvP fight and the final battle."""
    state = play(seed, seats=4, options={"edition": "full", "overlord": lord, "variant": "deadly_pvp"})
    assert state.overlord is not None and (lord == "random" or state.overlord.id == lord)
    ended(state)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_variants_2_random_games_of_defeat_the_overlord_never_fight_the_final_battle(seed: int) -> None:
    """variants.2: the marker laps instead of reaching the End; the game ends only with the Overlord's fall
    (or goes on: the playout stops after its step budget). The invariants hold all along (turn within 1..31)."""
    state = play(seed, seats=2, max_steps=2500, options={"variant": "defeat_overlord"})
    assert state.final_attackers is None and state.phase not in ("final_management", "final_battle")
    assert state.phase != "over" or state.end_reason == "overlord"
