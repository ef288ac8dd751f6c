"""Issue 27 at a real table (WoW Miniatures): what a first evening hit, each through the console or the
table where a player sees it."""

from __future__ import annotations

import re

import pytest

from console.runner import Console
from engines.wowminis.card_text import PLACEHOLDER, fill, unknown_paths
from engines.wowminis.content import builtin_pack
from gm.games.wowminis.text import card_info, character_info, printed_text

PACK = builtin_pack()
# Numbers that are rules, not card values: the AOE triangle is 3 spaces (407.2) and "until the end of
# tick 10" is the round's last tick (502.2, the ``end_of_tick_10`` duration).
FIXED = re.compile(r"\b(?:3 (?:spaces|spazi)|(?:tick|scatto) 10)\b")
LANGS = ("en", "it")


def _out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- 27.1 card text from the numbers
@pytest.mark.parametrize("item", [*PACK.cards, *PACK.characters], ids=lambda item: item.id)
def test_every_number_of_the_printed_text_comes_from_the_card(item) -> None:
    """No digit is written by hand in the pack's text: each is a ``{path}`` to the field the engine
    reads, so the text and the dice cannot disagree (Mind Lance said "Attack 3" and rolled 4 dice)."""
    for template in (item.text, item.text_it):
        assert unknown_paths(item, template) == []
        assert not re.search(r"\d", FIXED.sub("", PLACEHOLDER.sub("", template))), template
    for lang in LANGS:
        shown = printed_text(item, lang)
        assert "{" not in shown and "}" not in shown
        if getattr(item, "type", None) == "attack" and item.text:
            verb = "Attack" if lang == "en" else "Attacco"
            assert f"{verb} {item.power} " in shown, shown
        if getattr(item, "type", None) == "heal":
            verb = "Heal" if lang == "en" else "Cura"
            assert f"{verb} {item.power} " in shown, shown


@pytest.mark.parametrize("card", [c for c in PACK.cards if c.type == "attack"], ids=lambda c: c.id)
def test_an_attack_card_says_the_dice_it_rolls(card) -> None:
    for lang in LANGS:
        info = card_info(card, lang)
        dice = re.findall(r"(\d+) (?:dice|dadi)", info)[0]
        written = re.search(r"(?:Attack|Attacco) (\d+)", info)
        assert written is not None and written.group(1) == dice == str(card.power), info


def test_fill_reads_signed_and_nested_numbers() -> None:
    card = next(c for c in PACK.cards if c.id == "hobbling_snare")
    assert "movement -1 " in fill(card, card.text)
    teodric = next(c for c in PACK.characters if c.id == "teodric")
    assert "a new 2-dice frost attack" in character_info(teodric, "en")
    assert fill(card, "{nothing.here} stays") == "{nothing.here} stays"


async def test_info_on_mind_lance_through_the_console(console: Console) -> None:
    await console.run(["/as alice", "/game new wowminis", '/wowm info name:"Mind Lance"', "/lang it",
                       '/wowm info name:"Lancia Mentale"'])
    out = _out(console)
    assert "4 dice, shadow, vs Resist · Attack 4 (shadow), range 1-4." in out  # 601.2: magic, so Resist
    assert "4 dadi, ombra, contro Resistenza · Attacco 4 (ombra), raggio 1-4." in out


# ---------------------------------------------------------------------------- 27.2 too close
async def test_a_target_inside_the_minimum_range_is_too_close(console: Console) -> None:
    """Lyssara's Longbow Volley reaches 2-4; Sereth stands next to her (405.2a)."""
    from tests.wowminis.test_console_game import _script

    lines = _script()
    await console.run(lines[:lines.index("/wowm move to:H9")])
    mark = len(_out(console))
    await console.run(["/wowm play ability:main target:SER", "/lang it", "/wowm play ability:main target:SER"])
    said = _out(console)[mark:]
    assert "Sereth Duskblade is too close (minimum 2)." in said and "at most" not in said
    assert "Sereth Lamacrepuscolo è troppo vicino (minimo 2)." in said


# ---------------------------------------------------------------------------- 27.3 pace
def test_the_short_scenario_is_a_small_map_and_fewer_vp() -> None:
    from engines.wowminis import ENGINE
    from engines.wowminis.rules_setup import SHORT

    options = ENGINE.validate_options({"scenario": "short"})
    assert options["map"] == "proving_ground" and options["goal"] == SHORT["goal"] == 5
    assert ENGINE.validate_options({"scenario": "short", "goal": "7"})["goal"] == 7  # a named option still wins
    from engines.core.errors import RuleError

    with pytest.raises(RuleError) as refused:
        ENGINE.validate_options({"scenario": "epic"})
    assert refused.value.params["option"] == "scenario" and "short" in refused.value.params["allowed"]


def test_two_people_finish_the_short_scenario_in_about_100_commands() -> None:
    """Measured with ``paced_play``: sensible players on their printed pools, every window answered
    (``auto_pass: never``): median 89 (131 before windows read the printed pools); a pre-set "never ask
    me" brings it to 83. Standard games take about twice as long."""
    from statistics import median

    from tests.wowminis.playout import paced_play

    short = [paced_play(seed, {"scenario": "short"}) for seed in range(12)]
    assert all(p.state.phase == "over" for p in short)
    assert 60 <= median(p.commands for p in short) <= 110, [p.commands for p in short]
    windows = median(p.by_kind.get("react_window", 0) for p in short)  # printed pools say who could react
    assert windows <= 15, [p.by_kind.get("react_window", 0) for p in short]
    quiet = median(paced_play(seed, {"scenario": "short"}, auto_pass="always").commands for seed in range(12))
    assert quiet <= 95
    standard = median(paced_play(seed, {"map": "stonefang_pass"}).commands for seed in range(6))
    assert standard > median(p.commands for p in short)


async def test_a_tie_offers_the_choosers_own_characters_first(console: Console) -> None:
    """500.3c/A8: bob may pick any tied character, so he is asked; his own come first, one click each."""
    from tests.wowminis.test_console_game import _script

    lines = _script()
    await console.run(lines[:lines.index("/wowm next character:SER")])
    board = [line for line in _out(console).splitlines() if line.strip().startswith("[buttons] 1) ")][-1]
    labels = re.findall(r"\d\) ([A-Z]{3}) ", board)
    assert labels[:3] == ["GRU", "SER", "THR"] and set(labels[3:]) == {"BRA", "ELO"}, board


# ---------------------------------------------------------------------------- 27.4 guidance
async def test_lobby_cards_characters_and_menus_guide_a_new_player(console: Console) -> None:
    await console.run(["/as alice", "/game new wowminis", "/game end", "/game new wowminis options:scenario:short",
                       "/wowm characters", '/wowm party characters:"lyssara, brannoc, elowen"', "/as bob",
                       "/game join", "/game start", "/wowm cards", "/wowm bar", "/pick nonsense"])
    out = _out(console)
    assert '`/wowm party characters:"a, b, c"`' in out and "options:scenario:short" in out
    assert "Short scenario: Proving Ground, 5 VP to win." in out
    assert "Brannoc Emberforge · Alliance · dwarf paladin (protection) · Honor 4" in out
    assert "**Sweeping Cleave** (for GRU Grushka Bonesplitter) · action" in out or \
        "(for THR Thrak Earthmane)" in out
    assert "[options] Ursine Form + Stag Form · Ursine Form + Rejuvenating Bloom" in out
    refused = next(line for line in out.splitlines() if 'No button "nonsense"' in line)
    assert "Ursine Form + Stag Form" in refused and not re.search(r"\bk\d+\b", refused)


# ---------------------------------------------------------------------------- 27.5 pictures
def test_the_tie_label_goes_once_the_tie_is_settled() -> None:
    from renderers.wowminis.panel import tie_line
    from tests.renderers import wowminis_states as S

    state = S.opening()
    assert state.pending is not None and tie_line(state, "en", None)  # the open question: who chooses
    state.pending = None
    assert tie_line(state, "en", None) is None


def test_a_move_zooms_on_the_action_and_status_shows_the_whole_map() -> None:
    from engines.core.events import Event
    from gm.games.wowminis.presenter import WowMinisPresenter
    from renderers.wowminis.layout import grid_for, zoom_for
    from tests.renderers import wowminis_states as S

    view = S.crowded()
    mover = next(c for c in view.chars.values() if c.pos)
    moved = [Event(key="wowm.ev.moved", params={"char": mover.id, "frm": mover.pos, "to": mover.pos})]
    presenter = WowMinisPresenter()
    hints = presenter.picture_hints(view, moved)
    assert hints and mover.pos in hints["focus"]
    assert presenter.picture_hints(view, []) == {}  # /game status: the whole map
    assert presenter.picture_hints(view, [Event(key="wowm.ev.round_started", params={"round": 2})]) == {}
    grid = zoom_for(view.board.columns, view.board.rows, [(7, 6)])
    full = grid_for(view.board.columns, view.board.rows)
    assert grid is not None and grid.cols == 8 and grid.s >= 1.6 * full.s  # hexes half as large again and more


def test_a_v1_save_keeps_asking_for_every_face_down_card() -> None:
    """State v2 records printed pools; a v1 game cannot tell them from custom ones, so it keeps v1's prompts."""
    from pathlib import Path

    from engines.wowminis import ENGINE

    raw = (Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowminis.v1.json").read_text(encoding="utf-8")
    state = ENGINE.load_state(raw)
    assert state.schema_version >= 2 and state.players and not any(p.pool_public for p in state.players)
