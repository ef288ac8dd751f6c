"""Issue 27.7 (the map's codes in words) and 27.8 (one name for a character, in text and pictures).

The map and each crop carry a legend under them that names, in the reader's language and at least 11 px
at 500 px wide, every code the picture shows; a character is named by its class in lines, buttons and
pictures alike, with the hero of its sheet face beside it on the sheet, and any of those names can be
typed."""

from __future__ import annotations

from console.runner import Console
from engines.wowboard.state import State
from gm.games.wowboard import text
from renderers import kit
from renderers import wowboard as W
from renderers.wowboard.layout import TEXT
from tests.conftest import ConsoleOf
from tests.wowboard.console_reads import out
from tests.wowboard.test_issue27 import TWO, _since
from tests.wowboard.test_render import midgame
from tests.wowboard.test_render_combat import attack_scene


def _legend(state: State, lang: str, focus: list[str] | None = None) -> tuple[list[kit.Mark], str]:
    with kit.recording() as marks:
        W.render_image(state, lang, {0: "Ann", 1: "Bob"}, focus=focus)
    found = [m for m in marks if m.region == "legend"]
    return found, " | ".join(m.text for m in found if m.kind == "text")


def test_the_map_legend_names_every_code_in_the_readers_language() -> None:
    state = midgame()
    words = {"en": ["starting region", "town", "flight path", "graveyard", "Overlord", "event boss",
                    "quest creatures", "green", "blue", "red", "G2 = 2 green", "Dunecur", "Mirefin", "Tidewyrm",
                    "Arcanist · Ann", "Warden · Ann", "Cantor · Bob", "event", "item draw"],
             "it": ["regione di partenza", "città", "sentiero volante", "cimitero", "Capo Supremo", "boss evento",
                    "creature missione", "verde", "blu", "rosso", "G2 = 2 verdi", "Ringhiaduna", "Pinnafango",
                    "Serpemarea", "Arcanista · Ann", "Guardiano · Ann", "Cantore · Bob", "evento", "pesca oggetti"]}
    for lang, expected in words.items():
        marks, drawn = _legend(state, lang)
        for word in expected:
            assert word in drawn, (lang, word, drawn)
        codes = [m.text for m in marks if m.kind == "text" and m.text in ("DC", "MF", "TW", "WS", "ZL", "GE")]
        assert sorted(codes) == ["DC", "GE", "MF", "TW", "WS", "ZL"], codes  # each creature code, once
        small = [(m.text, m.size) for m in marks if m.kind == "text" and m.size < TEXT]
        assert not small, small  # ≥ 22 px on the 1000 px map: ≥ 11 px at 500 px


def test_a_crop_legend_names_only_what_the_crop_shows() -> None:
    state = midgame()
    marks, drawn = _legend(state, "it", ["crossroads"])
    assert "Arcanista · Ann" in drawn and "Tessitela" in drawn, drawn
    assert "Serpemarea" not in drawn and "Capo Supremo" not in drawn, drawn  # Gull Rock, Plague Pits: not shown
    assert all(m.size >= TEXT for m in marks if m.kind == "text")


def test_the_legend_says_what_the_plus_n_chip_of_a_crowded_region_means() -> None:
    """issue 27.7: the "+3" of a crowded region (pieces its disc has no room for) had no words anywhere."""
    state = midgame()
    for lang, words in (("en", "3 more pieces in that region"), ("it", "altri 3 pezzi in quella regione")):
        marks, drawn = _legend(state, lang)
        assert [m.text for m in marks if m.kind == "piece" and m.text.startswith("+")] == ["+3"], lang
        assert words in drawn, (lang, drawn)
    marks, drawn = _legend(state, "en", ["havenford"])  # a crop far from the crowded Cinderhold
    assert not [m for m in marks if m.kind == "piece" and m.text.startswith("+")] and "more pieces" not in drawn



def test_the_legend_names_each_item_deck_shape_the_turn_track_draws() -> None:
    """A playtest found the track's square (turns 11, 20, 29) and circle (turn 25) in no legend: only the
    triangle was named. items.1: the three decks are told apart by their shapes."""
    state = midgame()
    for lang, words in (("en", ["item draw, triangle deck", "item draw, square deck", "item draw, circle deck"]),
                        ("it", ["pesca oggetti, mazzo triangolo", "pesca oggetti, mazzo quadrato",
                                "pesca oggetti, mazzo cerchio"])):
        _marks, drawn = _legend(state, lang)
        for word in words:
            assert word in drawn, (lang, word, drawn)

def test_the_pictures_name_a_character_as_the_text_does() -> None:
    state = attack_scene()
    assert state.combat is not None and state.combat.attack is not None
    attacker = state.combat.attack.character
    for lang in ("en", "it"):
        with kit.recording() as marks:
            W.combat_image(state, lang)
        head = " | ".join(m.text for m in marks if m.kind == "text" and m.region == "header")
        assert text.char_name(state, attacker, lang) in head, head
        with kit.recording() as marks:
            W.sheet_image(state, attacker, lang)
        title = " | ".join(m.text for m in marks if m.kind == "text" and m.region == "header")
        assert text.char_full(state, attacker, lang) in title, title
    assert text.char_full(state, "warden", "en") == "Warden (Grusk Ironhide)"
    assert text.char_full(state, "warden", "it") == "Guardiano (Grusk Pellediferro)"


async def test_a_character_is_typed_by_hero_class_or_id_and_its_sheet_names_both(console_of: ConsoleOf) -> None:
    console: Console = await console_of(3)
    await console.run(TWO)
    for typed in ("Vezza", "arcanist", "Arcanist", "Linguacenere"):
        shown = await _since(console, [f"/wowb sheet character:{typed}"])
        assert "Arcanist (Vezza Cindertongue)" in shown and "⚠️" not in shown, (typed, shown)
    moved = await _since(console, ["/wowb travel character:Vezza to:redthorn_pass"])
    assert "⚠️" not in moved and "Arcanist" in moved, moved
    italian = await _since(console, ["/lang it", "/wowb sheet character:Oruna"])
    assert "Cantore (Oruna Flautodosso)" in italian, italian
    assert console.errors == 0, out(console)[-800:]
