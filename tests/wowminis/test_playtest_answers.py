"""A newcomer's playtest of WoW Miniatures (defects 11-19), each answered where the player met it: the
console for what a command says, the engine for the numbers, the renderer's own marks for the pictures.

The console games follow the playtest's own script (``scenario:short``, alice Alliance, bob Horde): set-up,
then alice's choice of who acts first, then Sereth's first turn.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

import gm.games.wowminis.presenter  # noqa: F401  (registers the presenter)
from console.runner import Console
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis import ENGINE
from engines.wowminis.content import builtin_pack
from engines.wowminis.state import State
from gm.games.wowminis import limited
from gm.games.wowminis.text import ability_parts
from gm.table.replies import event_text
from renderers import kit
from renderers import wowminis as W
from renderers.kit import Mark
from renderers.wowminis import ring
from tests.wowminis.builders import act, board, event, give, put, refused, turn

PACK = builtin_pack()
SET_UP = ["/as alice", '/game new wowminis options:"scenario:short"',
          '/wowm party characters:"lyssara, brannoc, elowen"', "/as bob", "/game join",
          '/wowm party characters:"grushka, sereth, thrak"', "/game start",
          '/wowm bar cards:"GRU: sweeping, riposte; SER: shadowstep, feint; THR: ursine, stag"', "/as alice",
          '/wowm bar cards:"LYS: runed, thicket; BRA: aegis, veil; ELO: renewing, umbral"']
"""The playtest's set-up: alice is then asked who acts first (101.4)."""
TO_SERETH = ["/as alice", "/wowm next character:LYS", "/wowm spawn point:A8", "/wowm end", "/as bob",
             "/wowm next character:SER", "/wowm spawn point:H1"]
"""From alice's first question to bob's Sereth Duskblade on H1, in its turn."""


def _out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def _after(console: Console, lines: list[str]) -> str:
    """What the console printed for ``lines`` alone (run after everything before)."""
    mark = len(_out(console))
    await console.run(lines)
    return _out(console)[mark:]


# ---------------------------------------------------------------------------- 11 preferences at any time
def test_preferences_are_an_any_time_action_of_the_engine() -> None:
    """701 note: the comfort settings are the seat's own, whoever the game waits for (as Warlord's stops)."""
    assert {"prefs", "reveal", "resign"} <= ENGINE.any_time_kinds


async def test_preferences_are_set_and_shown_while_another_seat_is_asked(console: Console) -> None:
    await console.run(SET_UP)
    said = await _after(console, ["/as bob", "/wowm prefs auto_pass:my_turn", "/wowm prefs"])
    assert "not your turn" not in said
    assert said.count("(only bob) Your preferences: react windows — until my next turn") == 2


# ---------------------------------------------------------------------------- 13 the wrong seat hears "not your turn"
async def test_another_seats_question_answers_not_your_turn_never_its_choices_500_3c(console: Console) -> None:
    await console.run(SET_UP)
    said = await _after(console, ["/as bob", "/wowm next character:GRU"])
    assert "It is not your turn: waiting for @alice." in said
    assert "not one of the choices" not in said and "Brannoc" not in said


async def test_a_play_on_another_seats_turn_answers_not_your_turn_never_its_abilities_501_2(console: Console) -> None:
    await console.run(SET_UP + TO_SERETH)
    said = await _after(console, ["/as alice", "/wowm play ability:ursine"])
    assert "It is not your turn: waiting for @bob." in said
    assert "Choose among" not in said and "Twin Daggers" not in said


def test_typed_names_are_read_only_for_the_asked_seat_500_3c() -> None:
    """The cog hands the typing seat to the reader: the seat asked has its answer read, another seat's text goes
    to the table unread (which says whose turn it is), and the table itself (no seat) is always read."""
    from engines.wowminis.rules_steps import card_option
    from engines.wowminis.state import Pending
    from gm.games.wowminis import names

    state = board()
    shown, = give(state, "brannoc-1", "aegis_of_light", face_up=True)
    state.pending = Pending(kind="exhaust_card", seat=0, params={"char": "Brannoc"}, options=[card_option(shown, 1)])
    assert ENGINE.decision(state).seats == [0]
    assert names.asked(ENGINE.view(state, 0), 0) and not names.asked(ENGINE.view(state, 1), 1)
    assert names.asked(ENGINE.view(state, None), None)
    assert names.resolve_option(ENGINE.view(state, 0), 0, "aegis", "en") == shown.id
    assert names.resolve_option(ENGINE.view(state, 1), 1, "aegis", "en") == "aegis"  # unread: "not your turn"


# ---------------------------------------------------------------------------- 12 a destination is needed
def test_a_teleport_without_a_destination_says_one_is_needed_and_where_404_2a() -> None:
    state = board(("elowen,brannoc,lyssara", "sereth,grushka,vorzul"))
    put(state, "sereth-2", "H1")
    card = give(state, "sereth-2", "Shadowstep")[0]
    turn(state, "sereth-2")
    error = refused(state, 1, "play", rule="404.2a", ability=card.id)
    assert error.key == "wowm.err.no_destination" and error.params["ability"] == "Shadowstep"
    assert "E1" in error.params["known"] and error.params["example"] == "E1"


async def test_shadowstep_typed_without_a_target_shows_how_to_give_one_404_2a(console: Console) -> None:
    await console.run(SET_UP + TO_SERETH)
    said = await _after(console, ["/wowm play ability:shadowstep"])
    assert "Shadowstep needs a destination (legal now: E1, E2, E3" in said and "e.g. `target:E1`" in said
    assert "⚠️  is" not in said
    said = await _after(console, ["/wowm play ability:shadowstep target:E1"])
    assert "Sereth Duskblade teleports H1 → E1." in said


# ---------------------------------------------------------------------------- 14 blocks never pass the hits
def _main_attack(attacker: str, target: str, seat: int, roll: list[int]) -> tuple[Any, list[Event]]:
    """``attacker`` (on C3) uses its main attack on ``target`` three spaces ahead (C4 or C6 for a ranged one)."""
    state = board()
    put(state, attacker, "C3")
    put(state, target, "C6" if attacker.startswith("lyssara") else "C4", ahead=3)
    turn(state, attacker)
    return state, act(state, seat, "play", ability="main", targets=[target], roll=roll)


def test_blocks_beyond_the_hits_cancel_nothing_and_damage_is_never_negative_602_1() -> None:
    state, events = _main_attack("grushka-2", "brannoc-1", 1, [9, 9, 1, 1, 9, 9, 9])
    target = state.chars["brannoc-1"]
    assert event(events, "blocked").params == {"name": "Brannoc Emberforge", "blocks": 2, "hits": 2, "damage": 0}
    assert target.health == 9
    assert event_text(event(events, "blocked"), "en", "wowminis") == \
        "Brannoc Emberforge blocks 2 of 2 hits and takes 0 damage."


def test_one_hit_is_said_in_the_singular_in_both_languages() -> None:
    hits = Event(key="wowm.ev.hits", params={"ability": "Dawnsteel Swing", "hits": 1})
    assert event_text(hits, "en", "wowminis") == "Dawnsteel Swing: 1 hit."
    assert event_text(hits, "it", "wowminis").endswith(": 1 colpo.")
    blocked = Event(key="wowm.ev.blocked", params={"name": "Sereth Duskblade", "blocks": 1, "hits": 1, "damage": 0})
    assert event_text(blocked, "en", "wowminis") == "Sereth Duskblade blocks 1 of 1 hit and takes 0 damage."
    assert event_text(blocked, "it", "wowminis").endswith("blocca 1 colpo su 1 e subisce 0 danni.")


# ---------------------------------------------------------------------------- 15 a critical with no effect
def test_a_critical_of_an_ability_without_a_critical_effect_announces_none_105_1b_601_1c() -> None:
    _state, events = _main_attack("grushka-2", "brannoc-1", 1, [10, 9, 1, 1, 1, 1, 1])
    critical = event(events, "critical")
    assert critical.params["effect"] is False and event(events, "hits").params["hits"] == 2
    line = event_text(critical, "en", "wowminis")
    assert line == "Critical! Twin Cleave has no critical effect: the critical die counts as a hit."
    assert "effetto critico" in event_text(critical, "it", "wowminis")


def test_a_critical_with_an_effect_still_says_it_fires_602_2() -> None:
    _state, events = _main_attack("lyssara-1", "grushka-2", 0, [10, 9, 1, 1, 1, 1, 1])
    assert event_text(event(events, "critical"), "en", "wowminis") == \
        "Critical! Longbow Volley fires its critical effect."


# ---------------------------------------------------------------------------- 16 which defence the dice meet
@pytest.mark.parametrize(("char", "en", "it"), [
    ("ysolde", "4 dice, physical (holy), vs Armor", "4 dadi, fisico (sacro), contro Armatura"),
    ("grushka", "4 dice, melee, vs Armor", "4 dadi, mischia, contro Armatura"),
    ("vessa", "4 dice, shadow, vs Resist", "4 dadi, ombra, contro Resistenza"),
])
def test_an_attack_says_which_defence_it_meets_600_1c_601_2(char: str, en: str, it: str) -> None:
    attack = PACK.character(char).main_attack
    assert en in ability_parts(attack, "en") and it in ability_parts(attack, "it")


# ---------------------------------------------------------------------------- 17 the scenario's goal, the party's fault
async def test_the_party_reply_names_the_scenarios_goal_102_1(console: Console) -> None:
    said = await _after(console, SET_UP[:3])
    assert "(Honor 13; this table plays to 5 VP)." in said and "without a goal option" not in said


async def test_a_wrong_party_is_told_what_is_wrong_with_it_100_1(console: Console) -> None:
    said = await _after(console, ["/as alice", '/game new wowminis options:"scenario:short"',
                                  '/wowm party characters:"grushka, sereth, thrak, vessa"',
                                  '/wowm party characters:"grushka, sereth, lyssara"',
                                  '/wowm party characters:"grushka, grushka, sereth"'])
    assert "This scenario's party is 3 characters: you named 4." in said
    assert "all of one faction, and Lyssara Windquill is not of Grushka Bonesplitter's faction." in said
    assert "each one different, and Grushka Bonesplitter is named twice." in said
    assert "mixed factions" not in said and "wrong number of characters" not in said


def test_the_suggested_party_names_the_tables_goal_not_its_honor_102_1() -> None:
    short = limited.suggest_reply(None, None, None, "en", {"scenario": "short", "goal": 5}).text
    assert "this table plays to 5 VP" in short and "which is also your goal" not in short
    standard = limited.suggest_reply(None, None, None, "en", {}).text
    assert "which is also your goal" in standard
    unknown = limited.suggest_reply(None, None, None, "en").text  # a lobby whose options were not given
    assert "which is also your goal" not in unknown and "unless the table's scenario" in unknown


async def test_the_lobbys_suggestion_names_the_scenarios_goal_102_1(console: Console) -> None:
    """Through the command: the lobby hands its options to the suggestion (``scenario:short`` plays to 5 VP)."""
    said = await _after(console, ["/as alice", '/game new wowminis options:"scenario:short"', "/wowm suggest"])
    assert "(Honor 12; this table plays to 5 VP)" in said and "unless the table's scenario" not in said


# ---------------------------------------------------------------------------- 19 a rule term points to its rule
async def test_info_on_a_rule_term_points_to_its_rule_708_4(console: Console) -> None:
    said = await _after(console, ["/as alice", "/game new wowminis", "/wowm info name:stealth",
                                  "/wowm info name:protettore"])
    assert "Stealth is a rule, not a character or card: `/rules show section:708.4` explains it." in said
    assert "`/rules show section:600.3`" in said and "Rule 708.4" in said
    assert "+45" not in said and "Choose among" not in said


# ---------------------------------------------------------------------------- 18 pictures
def _playtest_board() -> State:
    """The playtest's board of round 1 (ww, picture 14): BRA and LYS, GRU on the map; YSO, SER, THR off it;
    three ticks-1 chips beside two tick-2 ones."""
    state = board(("brannoc,ysolde,lyssara", "grushka,sereth,thrak"))
    for cid in state.chars:
        put(state, cid, None)
    cards = {"brannoc-1": ("Aegis of Light", "Veil of Sanctuary"), "ysolde-1": ("Renewing Light", "Sunward Oath"),
             "lyssara-1": ("Runed Arrow", "Call Ridgecat"), "grushka-2": ("Sweeping Cleave", "Riposte"),
             "sereth-2": ("Shadowstep", "Feint"), "thrak-2": ("Ursine Form", "Stag Form")}
    for cid, names in cards.items():
        give(state, cid, *names)
    put(state, "brannoc-1", "B6")
    put(state, "lyssara-1", "A8", ahead=1)
    put(state, "grushka-2", "F7", ahead=1)
    return state


def _marks(state: State) -> list[Mark]:
    with kit.recording() as marks:
        W.render_image(ENGINE.view(state, None), lang="en")
    return marks


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def test_the_clock_rings_chips_never_cover_each_other() -> None:
    badges = [m.box for m in _marks(_playtest_board()) if m.kind == "badge" and m.region == "panel"]
    assert [(a, b) for i, a in enumerate(badges) for b in badges[i + 1:] if _overlap(a, b)] == []


def test_chips_of_crowded_neighbouring_ticks_stay_apart_even_across_tick_10() -> None:
    pitch, gap, around = 13.0, 3.0, 251.0
    wanted = [(25.0 * k, n) for k, n in enumerate([3, 2, 0, 0, 0, 0, 0, 1, 2, 3])]
    places = sorted(p % around for arcs in ring.spread(wanted, pitch, gap, around) for p in arcs)
    assert len(places) == 11
    steps = [b - a for a, b in pairwise(places)] + [places[0] + around - places[-1]]
    assert min(steps) >= pitch - 1e-6


def test_the_tick_chips_legend_is_drawn_once() -> None:
    texts = [m.text for m in _marks(_playtest_board()) if m.kind == "text"]
    assert texts.count("characters at that tick") == 1


def test_a_roster_icon_stays_on_its_characters_line() -> None:
    """Taunt, Stealth and Protector beside the character's label, never on a line of their own."""
    marks = [m for m in _marks(_playtest_board()) if m.region == "panel" and m.kind == "chip"]
    rows = {m.box[1] for m in marks if m.text in ("BRA", "YSO", "LYS", "GRU", "SER", "THR")}
    icons = [m.box[1] for m in marks if m.text == ""]
    assert len(icons) == 4 and all(top in rows for top in icons)


def test_a_rule_error_names_the_party_problem_with_its_characters() -> None:
    """The engine's side of 17: the facts go with the key, for any language."""
    from engines.wowminis.rules_setup import check_party

    with pytest.raises(RuleError) as info:
        check_party(PACK.scenario("short"), [PACK.character(i) for i in ("grushka", "sereth", "lyssara")])
    assert info.value.params["names"] == ["Lyssara Windquill"] and info.value.params["lead"] == "Grushka Bonesplitter"
