"""Seats and teams: four seats with one character each (setup.1, setup.3) and resignation handing a
seat's characters to a teammate (spec §7, rules_resign). Issue 30: three, five and six seats, faction-locked
classes (W1), the leader option (factions.2) and the eight ancestries (health-energy.4)."""

from __future__ import annotations

import pytest

from common import i18n
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE, rules_setup
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import SCHEMA_VERSION, Character, State

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")


def _game(n: int, seed: int = 3, **options: object) -> State:
    dice = SeededDice(seed)
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(n)],
                                  options=dict(options)), dice)
    assert isinstance(state, State)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)
    return state


def test_setup_1_four_seats_run_one_character_each_two_per_faction() -> None:
    state = _game(4)
    assert sorted(len(s.characters) for s in state.seats) == [1, 1, 1, 1]
    assert sorted(s.faction for s in state.seats) == ["alliance", "alliance", "horde", "horde"]
    for seat in state.seats:
        assert all(state.characters[c].faction == seat.faction for c in seat.characters)


def test_faction_turn_2_both_horde_seats_are_asked_in_parallel() -> None:
    state = _game(4)
    decision = ENGINE.decision(state)
    horde = sorted(s.seat for s in state.seats if s.faction == "horde")
    assert decision is not None and decision.kind == "faction_turn" and decision.seats == horde
    for seat in horde:  # each seat's legal actions are its own character's only
        own = set(state.seat(seat).characters)
        assert {getattr(a, "character", None) for a in ENGINE.legal_actions(state, seat)} == own


def test_setup_1_seven_seats_and_a_four_seat_duel_are_refused_in_words() -> None:
    with pytest.raises(RuleError) as err:
        _game(7)
    assert err.value.key == "wowboard.err.seats" and err.value.params["known"] == "2, 3, 4, 5, 6"
    for lang in ("en", "it"):
        text = i18n.t(err.value.key, lang, **err.value.params)
        assert "7" in text and "2, 3, 4, 5, 6" in text and "{" not in text
    with pytest.raises(RuleError) as err:
        _game(4, duel=True)
    assert err.value.key == "wowboard.err.duel_two_seats"


def test_resign_hands_the_characters_to_a_teammate_and_play_goes_on() -> None:
    state = _game(4)
    horde = [s for s in state.seats if s.faction == "horde"]
    leaving, staying = horde
    moved = list(leaving.characters)
    events = ENGINE.apply(state, leaving.seat, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    assert [e.key for e in events] == ["wowboard.ev.seat_handed"]
    assert state.phase == "play" and leaving.resigned and leaving.characters == []
    assert all(state.characters[c].seat == staying.seat for c in moved)
    decision = ENGINE.decision(state)
    assert decision is not None and decision.seats == [staying.seat]  # the teammate now acts for both


def test_resign_by_the_last_seat_of_a_faction_ends_the_game_for_the_other_faction() -> None:
    state = _game(4)
    horde = [s.seat for s in state.seats if s.faction == "horde"]
    alliance = sorted(s.seat for s in state.seats if s.faction == "alliance")
    for seat in horde:
        ENGINE.apply(state, seat, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and sorted(outcome.winners) == alliance
    assert outcome.reason_key == "wowboard.end.resigned"


def test_resign_in_a_two_seat_game_concedes_at_once_even_out_of_turn() -> None:
    state = _game(2)
    assert ENGINE.decision(state).seats == [0]  # type: ignore[union-attr]
    ENGINE.apply(state, 1, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == [0]
    with pytest.raises(RuleError):
        ENGINE.apply(state, 1, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]


def test_setup_3_four_seats_of_the_starter_set_are_dealt_two_per_faction_by_the_dice_and_no_class_is_locked() -> None:
    from engines.core.dice import RecordedDice
    from engines.wowboard.content import builtin

    def dealt(first: int, second: int) -> State:
        seats = [SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(4)]
        state = ENGINE.new_game(Setup(seats=seats), RecordedDice([], picks=[first, second, 0, 0, 0, 0]))
        assert isinstance(state, State)
        return state

    deals = {}
    for first, second in ((0, 0), (3, 1), (2, 2)):
        state = dealt(first, second)
        horde = {s.seat for s in state.seats if s.faction == "horde"}
        assert len(horde) == 2 and len(state.seats) - len(horde) == 2  # an even split, 2/2
        deals[(first, second)] = horde
    assert deals == {(0, 0): {0, 1}, (3, 1): {3, 1}, (2, 2): {2, 3}}  # the recorded draws decide, not the seat order
    classes = sorted(c.id for c in builtin().classes)
    for state in (dealt(0, 0), dealt(3, 1)):  # P1: no faction-locked class, whoever drafts first
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        assert sorted(a.class_id for a in ENGINE.legal_actions(state, seat)) == classes  # type: ignore[attr-defined]
    state = _game(4)
    assert sorted(state.characters[c].faction for s in state.seats for c in s.characters) == [
        "alliance", "alliance", "horde", "horde"]


# --- issue 30.1: two to six seats, faction-locked classes, the leader option ---------------------------------------
def _draft(n: int, plan: dict[int, list[str]], seed: int = 3, picks: tuple[int, ...] = (),
           avoid: tuple[str, ...] = (), **options: object) -> tuple[State, list[str]]:
    """A table of ``n`` seats whose draft follows ``plan`` (seat -> its classes, in pick order); the event
    keys of the whole set-up come back too."""
    from engines.core.dice import RecordedDice

    dice = RecordedDice([], picks=list(picks)) if picks else SeededDice(seed)
    teams = options.pop("teams", {})
    assert isinstance(teams, dict)
    seats = [SeatSetup(seat=i, user_id=100 + i, name=NAMES[i], team=teams.get(i)) for i in range(n)]
    state, said = rules_setup.new_game(Setup(seats=seats, options=dict(options)), dice)
    keys = [e.key for e in said]
    left = {s: list(c) for s, c in plan.items()}
    reserved = {c for cs in plan.values() for c in cs} | set(avoid)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        wanted = left.get(seat, [])
        action = {"kind": "pick_class", "class_id": wanted.pop(0)} if wanted else next(
            a for a in ENGINE.legal_actions(state, seat) if a.class_id not in reserved)  # type: ignore[attr-defined]
        keys += [e.key for e in ENGINE.apply(state, seat, action, dice)]  # type: ignore[arg-type]
    return state, keys


def _side(state: State, faction: str) -> list[int]:
    return sorted(s.seat for s in state.seats if s.faction == faction)


def test_setup_1_three_players_one_plus_one_against_two() -> None:
    state, _ = _draft(3, {}, picks=(2,))  # the die names seat 2 as the one that runs two characters
    assert [s.draft_picks for s in state.seats] == [1, 1, 2] and len(state.characters) == 4
    double = state.seat(2)
    others = [s for s in state.seats if s.seat != 2]
    assert all(o.faction != double.faction for o in others) and others[0].faction == others[1].faction
    assert {state.characters[c].faction for c in double.characters} == {double.faction}
    assert state.pack == "builtin@2" and len(state.quests) == 8  # setup.7, W39: 3 grey + 1 green a side


def test_setup_1_five_players_one_seat_runs_two_of_six_characters() -> None:
    state, _ = _draft(5, {}, seed=11)
    sizes = {s.seat: len(s.characters) for s in state.seats}
    assert sorted(sizes.values()) == [1, 1, 1, 1, 2] and len(state.characters) == 6
    double = next(s for s in state.seats if len(s.characters) == 2)
    mates = [s for s in state.seats if s.faction == double.faction]
    assert len(mates) == 2 and len(state.of_faction(double.faction)) == 3  # 2 + 1 against 1 + 1 + 1
    assert len(state.of_faction("horde")) == len(state.of_faction("alliance")) == 3
    assert len(state.quests) == 10 and state.overlord is not None and state.overlord.side == "6"  # setup.5, .7
    if double.faction == state.active:  # the seat that runs two acts for both, in parallel with its mate
        own = {getattr(a, "character", None) for a in ENGINE.legal_actions(state, double.seat)}
        assert own == set(double.characters)


def test_setup_1_six_players_three_a_side_and_faction_turn_2_w3_six_actions_in_any_order() -> None:
    state, _ = _draft(6, {}, seed=5)
    horde = _side(state, "horde")
    assert len(horde) == 3 and len(_side(state, "alliance")) == 3
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "faction_turn" and decision.seats == horde
    chars = {s: state.seat(s).characters[0] for s in horde}
    c1, c2, c3 = (chars[s] for s in horde)
    dice = SeededDice(1)
    for char in (c2, c1, c1, c2, c3, c3):  # W3: any interleaving of the six actions is legal
        seat = state.characters[char].seat
        ENGINE.apply(state, seat, {"kind": "pass", "character": char}, dice)  # type: ignore[arg-type]
    assert state.phase == "management" or state.active == "alliance"  # the turn ended after the sixth action
    with pytest.raises(RuleError):  # a seventh action by anyone is refused
        ENGINE.apply(state, horde[0], {"kind": "pass", "character": c1}, dice)  # type: ignore[arg-type]


def test_setup_3_w1_the_alliance_locked_class_joins_the_alliance_and_the_other_five_split_three_two() -> None:
    seen = set()
    for seed in range(8):
        state, keys = _draft(6, {0: ["templar"]}, seed=seed, avoid=("stormcaller",))  # W1: nobody takes it
        assert "stormcaller" not in state.characters
        assert state.seat(0).faction == "alliance" and state.characters["templar"].faction == "alliance"
        assert len(_side(state, "alliance")) == 3 and len(_side(state, "horde")) == 3
        assert "wowboard.ev.factions_dealt" in keys
        seen.add(tuple(_side(state, "alliance")))
    assert len(seen) > 1  # the other two Alliance seats are dealt at random, not by seat order


def test_setup_3_a_seat_with_two_characters_cannot_hold_both_locked_classes() -> None:
    from engines.core.dice import RecordedDice

    seats = [SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(2)]
    dice = RecordedDice([], picks=[0])  # seat 0 drafts first
    state = ENGINE.new_game(Setup(seats=seats, options={"edition": "full"}), dice)
    assert isinstance(state, State) and state.draft_order == [0, 1, 0, 1]
    ENGINE.apply(state, 0, {"kind": "pick_class", "class_id": "templar"}, dice)  # type: ignore[arg-type]
    ENGINE.apply(state, 1, {"kind": "pick_class", "class_id": "warden"}, dice)  # type: ignore[arg-type]
    offered = {a.class_id for a in ENGINE.legal_actions(state, 0)}  # type: ignore[attr-defined]
    assert "stormcaller" not in offered and "hexer" in offered
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, {"kind": "pick_class", "class_id": "stormcaller"}, dice)  # type: ignore[arg-type]
    assert err.value.key == "wowboard.err.locked_split" and err.value.rule == "setup.3"
    for lang in ("en", "it"):
        assert "{" not in i18n.t(err.value.key, lang, **err.value.params)
    ENGINE.apply(state, 0, {"kind": "pick_class", "class_id": "hexer"}, dice)  # type: ignore[arg-type]
    ENGINE.apply(state, 1, {"kind": "pick_class", "class_id": "stormcaller"}, dice)  # type: ignore[arg-type]
    assert state.seat(0).faction == "alliance" and state.seat(1).faction == "horde"
    assert {c.faction for c in state.characters.values() if c.seat == 1} == {"horde"}
    assert state.characters["hexer"].region == "southshore" or state.characters["hexer"].region == \
        state.characters["templar"].region  # setup.4: at its faction's start region


def test_setup_3_a_lobby_wish_gives_way_to_a_locked_class_and_is_said_in_words() -> None:
    state, keys = _draft(4, {1: ["templar"]}, seed=2, edition="full", teams={1: "horde", 2: "orda"})
    assert state.seat(1).faction == "alliance" and "wowboard.ev.wish_locked" in keys
    assert state.seat(2).faction == "horde"  # the other wish fits the deal and is kept
    assert all(s.wants is None for s in state.seats) and not state.factions_open


def test_setup_1_the_lobby_says_two_to_six_and_a_duel_two() -> None:
    from gm.table.model import players_text

    assert ENGINE.player_counts({}) == (2, 3, 4, 5, 6) and ENGINE.max_players == 6
    assert players_text(ENGINE, {}) == "2–6" and players_text(ENGINE, {"duel": "on"}) == "2"
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"edition": "deluxe"})
    assert err.value.key == "wowboard.err.bad_edition"
    with pytest.raises(RuleError) as err:
        _game(5, edition="starter")  # six characters need six classes
    assert err.value.key == "wowboard.err.too_few_classes"


def _vote_table(**options: object) -> tuple[State, list[int]]:
    from engines.wowboard.rules_quests import next_deck_options
    from engines.wowboard.state import Pending

    state, _ = _draft(4, {}, seed=4, **options)
    horde = _side(state, "horde")
    deck = next_deck_options(state, "horde")
    state.pending.insert(0, Pending(kind="next_quest_deck", seats=horde, faction="horde", options=deck,
                                    default=deck[0]))
    return state, horde


def test_factions_2_leader_the_seat_of_the_most_experienced_character_decides_a_disagreement() -> None:
    state, (a, b) = _vote_table(faction_decisions="leader")
    state.characters[state.seat(b).characters[0]].xp = 4  # b's character leads on XP
    first, second = state.pending[0].options[:2]
    decision = ENGINE.decision(state)
    assert decision is not None and decision.simultaneous and decision.seats == [a, b]
    events = ENGINE.apply(state, a, {"kind": "choose", "value": first}, SeededDice(1))  # type: ignore[arg-type]
    assert [e.key for e in events] == ["wowboard.ev.faction_vote"] and ENGINE.decision(state).seats == [b]  # type: ignore[union-attr]
    events = ENGINE.apply(state, b, {"kind": "choose", "value": second}, SeededDice(1))  # type: ignore[arg-type]
    keys = [e.key for e in events]
    assert "wowboard.ev.leader_decides" in keys
    decided = next(e for e in events if e.key == "wowboard.ev.leader_decides")
    assert decided.params["value"] == second and decided.params["player"] == NAMES[b]
    assert not any(p.kind == "next_quest_deck" and p.faction == "horde" for p in state.pending)
    assert sum(q.faction == "horde" for q in state.quests) == 5  # the leader's deck was drawn from


def test_factions_2_leader_agreement_needs_no_leader_and_a_tie_on_xp_goes_to_the_dice() -> None:
    from engines.core.dice import RecordedDice

    state, (a, b) = _vote_table(faction_decisions="leader")
    first, second = state.pending[0].options[:2]
    ENGINE.apply(state, a, {"kind": "choose", "value": first}, SeededDice(1))  # type: ignore[arg-type]
    events = ENGINE.apply(state, b, {"kind": "choose", "value": first}, SeededDice(1))  # type: ignore[arg-type]
    assert not any(e.key.endswith(("leader_decides", "leader_drawn")) for e in events)
    state, (a, b) = _vote_table(faction_decisions="leader")  # both characters on 0 XP
    ENGINE.apply(state, a, {"kind": "choose", "value": first}, SeededDice(1))  # type: ignore[arg-type]
    events = ENGINE.apply(state, b, {"kind": "choose", "value": second}, RecordedDice([], picks=[0]))  # type: ignore[arg-type]
    drawn = next(e for e in events if e.key == "wowboard.ev.leader_drawn")
    decided = next(e for e in events if e.key == "wowboard.ev.leader_decides")
    assert drawn.params["player"] == NAMES[a] and decided.params["value"] == first  # pick 0 of the tied seats


def test_factions_2_any_the_first_seat_to_answer_speaks_for_the_faction() -> None:
    state, (a, b) = _vote_table()
    decision = ENGINE.decision(state)
    assert decision is not None and not decision.simultaneous and decision.seats == [a, b]
    choice = state.pending[0].options[-1]
    events = ENGINE.apply(state, b, {"kind": "choose", "value": choice}, SeededDice(1))  # type: ignore[arg-type]
    assert not any(e.key.endswith("faction_vote") for e in events)
    assert not any(p.kind == "next_quest_deck" and p.faction == "horde" for p in state.pending)


# --- issue 30.8: the eight ancestries (health-energy.4) ------------------------------------------------------------
ANCESTRY_FACES = {  # (class, faction) -> ancestry, as the full pack's sheets print them
    ("templar", "alliance"): "highfolk", ("cantor", "alliance"): "highfolk", ("cantor", "horde"): "hornfolk",
    ("warden", "alliance"): "deepdelver", ("arcanist", "alliance"): "cogkin", ("ranger", "alliance"): "sylvani",
    ("warden", "horde"): "tuskborn", ("arcanist", "horde"): "marrowkin", ("ranger", "horde"): "mossblood",
}


def _hero(class_id: str, faction: str) -> tuple[State, Character]:
    state, _ = _draft(2, {0: [class_id]}, edition="full", teams={0: faction})
    c = state.characters[class_id]
    assert c.faction == faction
    return state, c


def test_health_energy_4_eight_original_ancestries_on_the_full_pack_sheets() -> None:
    from engines.wowboard.content import builtin_full
    from engines.wowboard.rules_sheet import ancestry_of

    pack = builtin_full()
    assert len(pack.ancestries) == 8
    seed_races = {"dwarf", "gnome", "human", "night elf", "orc", "tauren", "troll", "undead"}
    for a in pack.ancestries:  # original content: our own names, in both languages
        assert a.name.lower() not in seed_races and a.name_it and a.name_it.lower() not in seed_races
    used = {s.faces[f].ancestry for s in pack.class_sheets for f in s.faces}
    assert used == {a.id for a in pack.ancestries}
    for (class_id, faction), ancestry in ANCESTRY_FACES.items():
        _, c = _hero(class_id, faction)
        assert ancestry_of(pack, c).id == ancestry


@pytest.mark.parametrize(("class_id", "faction", "health", "energy"), [
    ("cantor", "horde", 2, 0),  # Hornfolk: health capacity +2
    ("arcanist", "alliance", 0, 2),  # Cogkin: energy capacity +2
    ("arcanist", "horde", 1, 1),  # Marrowkin: +1 health, +1 energy capacity
    ("warden", "horde", 1, 0),  # Tuskborn: +1 health capacity (and Attrition +1 in PvP)
    ("cantor", "alliance", 0, 0),  # Highfolk: no capacity (a reroll per combat)
    ("warden", "alliance", 0, 0),  # Deepdelver: no capacity (a richer rest)
])
def test_health_energy_4_ancestry_capacity_at_the_start_and_after_a_level(class_id: str, faction: str, health: int,
                                                                         energy: int) -> None:
    from engines.wowboard.content import builtin_full
    from engines.wowboard.rules_sheet import capacity_of

    state, c = _hero(class_id, faction)
    cls = next(k for k in builtin_full().classes if k.id == class_id)
    assert (c.health, c.energy) == (cls.health[0] + health, cls.energy[0] + energy)  # setup.4: full at the start
    c.level = 3
    assert capacity_of(state, c) == (cls.health[2] + health, cls.energy[2] + energy)


@pytest.mark.parametrize(("class_id", "faction", "health", "energy", "refused"), [
    ("warden", "alliance", 3, 0, (4, 0)),  # Deepdelver: a rest regains 1 more health (2 + 1)
    ("ranger", "alliance", 0, 3, (1, 3)),  # Sylvani: 1 more energy, never a health token instead
    ("ranger", "horde", 4, 0, (5, 0)),  # Mossblood: 2 more health
    ("cantor", "horde", 2, 0, (3, 0)),  # Hornfolk: the level's 2 only
])
def test_health_energy_4_rest_1_ancestry_rest_bonus(class_id: str, faction: str, health: int, energy: int,
                                                     refused: tuple[int, int]) -> None:
    state, c = _hero(class_id, faction)
    state.active, state.phase = c.faction, "play"
    for other in state.characters.values():
        other.actions_left = 2 if other.faction == c.faction else 0
    c.region = next(r.id for r in pack_of(state).regions if not r.town and not r.start and not any(
        f.region == r.id for f in state.figures.values()))
    c.health, c.energy = 1, 0
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, c.seat, {"kind": "rest", "character": c.id, "health": refused[0],  # type: ignore[arg-type]
                                     "energy": refused[1]}, SeededDice(1))
    assert err.value.key == "wowboard.err.rest_total"
    ENGINE.apply(state, c.seat, {"kind": "rest", "character": c.id, "health": health, "energy": energy},  # type: ignore[arg-type]
                 SeededDice(1))
    assert (c.health, c.energy) == (1 + health, energy)


def test_health_energy_4_tuskborn_attrition_only_in_pvp_and_highfolk_reroll_once_per_combat() -> None:
    from engines.wowboard.rules_conditions import holds
    from engines.wowboard.rules_sheet import equipped_effects

    state, orc = _hero("warden", "horde")
    pool = [a for a in equipped_effects(state, orc, "dice_pool") if a.kind == "ancestry"]
    assert [op.op for a in pool for op in a.effect.ops] == ["attrition"]
    assert not holds(state, orc, pool[0].source, pool[0].effect.condition)  # no fight: no bonus
    state, human = _hero("cantor", "alliance")
    rerolls = [a for a in equipped_effects(state, human, "reroll_start") if a.kind == "ancestry"]
    assert len(rerolls) == 1 and rerolls[0].effect.once_per_combat and rerolls[0].effect.ops[0].n == 1


def test_state_v2_a_v1_game_saved_in_the_draft_loads_and_finishes_its_draft_as_it_began() -> None:
    from pathlib import Path

    raw = (Path(__file__).resolve().parent / "fixtures" / "draft_4seats.v1.json").read_text(encoding="utf-8")
    assert raw.startswith('{\n "schema_version": 1')
    state = ENGINE.load_state(raw)
    assert state.schema_version == SCHEMA_VERSION and not state.factions_open and state.pack == "builtin@1"
    before = {s.seat: s.faction for s in state.seats}
    dice = SeededDice(9)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)
    assert {s.seat: s.faction for s in state.seats} == before  # dealt before the draft, as v1 did
    assert all(state.characters[c].faction == s.faction for s in state.seats for c in s.characters)
    assert ENGINE.load_state(state.model_dump_json()) == state
    old = (Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowboard.v1.json").read_text(encoding="utf-8")
    assert ENGINE.load_state(old).schema_version == SCHEMA_VERSION
