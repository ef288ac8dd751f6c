"""Mage Knight pictures are readable at Discord's preview width (TABLE_UX.md), checked from
what the renderer draws (``kit.recording()``: every text with its size and box, every chip
and badge), the way ``test_readability.py`` checks Krosmaster:

- every text at least 11 px once the picture is shown 500 px wide;
- no chip or badge over a text that is not its own label, no two texts over each other,
  token text inside its token;
- nothing cut with "…", nothing outside its column, no character the font cannot draw;
- whose turn it is said once, and every decision says what to do, in both languages;
- colours that carry a meaning stay apart for normal vision and the three dichromacies,
  and each is doubled by a word, a letter or a shape.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight.state import State
from renderers import kit
from renderers import mageknight as mk
from renderers.kit import Box, Mark
from renderers.kit_colour import VISIONS, worst_delta
from renderers.kit_glyphs import has_glyph
from renderers.mageknight import glyphs, layout, panel, words
from tests.renderers import mageknight_states as S

LOCALES = Path(__file__).resolve().parents[2] / "locales"
MIN_DELTA = 12.0  # CIEDE2000, the same floor as Krosmaster's highlight colours
LOG = ["alice aims at Bolt Throwers, Wall Wardens and a very long list of names so that the line wraps "
       "onto a second line of the log band", "Battering Ram: Siege Attack 2.", "Città: È già finito? Sì."]


def _duel(face: str | None = None) -> State:
    seats = [SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")]
    state: State = ENGINE.new_game(Setup(seats=seats, options={"mode": "duel", "site": "mage_tower", "tier": 2,
                                                               "seed": 3}), SeededDice(3))  # type: ignore[assignment]
    if face:
        ENGINE.apply(state, 1, {"kind": "choose", "value": face}, SeededDice(1))
    return state


def _duel_resigned() -> State:
    state = _duel("red")
    ENGINE.apply(state, 0, {"kind": "resign"}, SeededDice(1))
    return state


def _summon_question() -> State:
    state = S.new({"mode": "assist", "enemies": "Drum Callers; Veiled Conjurers", "level": 2, "site": "dungeon"})
    S.act(state, "next")
    return state


def _board(builder: Callable[[], State], lang: str = "en", seat: int | None = None) -> Callable[[], Image.Image]:
    return lambda: mk.render_image(ENGINE.view(builder(), seat), lang=lang, log_lines=LOG)  # type: ignore[arg-type]


PICTURES: dict[str, Callable[[], Image.Image]] = {
    **{f"{name}_{lang}": _board(getattr(S, name), lang) for name in ("ranged", "block", "damage", "attack", "over",
                                                                      "assist", "crowd") for lang in ("en", "it")},
    "ranged_fighter": _board(S.ranged, seat=0),
    "duel_setup_it": _board(_duel, "it"),
    "duel_red_opponent": _board(lambda: _duel("red"), seat=1),
    "summon_question_it": _board(_summon_question, "it"),
    "duel_resigned": _board(_duel_resigned),
    "long_column_en": _board(S.long_column),
    "long_column_it": _board(S.long_column, "it"),
    "crowd_summons": _board(S.crowd_summons),
    "crowd_summons_it": _board(S.crowd_summons, "it"),
    "hand_en": lambda: mk.hand_image(ENGINE.view(S.ranged(), 0), 0),  # type: ignore[arg-type]
    "hand_it": lambda: mk.hand_image(ENGINE.view(S.attack(), 0), 0, lang="it"),  # type: ignore[arg-type]
    "hand_public": lambda: mk.hand_image(ENGINE.view(S.ranged(), None), 0),  # type: ignore[arg-type]
}


def _marks(picture: Callable[[], Image.Image]) -> list[Mark]:
    with kit.recording() as marks:
        picture()
    return marks


def _overlap(a: Box, b: Box, slack: int = 1) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(inner: Box, outer: Box, slack: int = 2) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


# -- sizes, cuts, glyphs -----------------------------------------------------------------------


def test_the_minimum_size_is_11_px_at_preview_width() -> None:
    assert kit.Scale(layout.WIDTH).preview(layout.TEXT) >= kit.MIN_PREVIEW_TEXT == 11
    assert layout.WIDTH / layout.HEIGHT == 10 / 7  # shown 500 x 350, Discord's box for a picture


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_text_is_readable_at_preview_width(name: str) -> None:
    marks = _marks(PICTURES[name])
    assert [(m.text, m.size, m.region) for m in marks if m.kind == "text" and m.size < layout.TEXT] == []
    assert sum(m.kind == "text" for m in marks) > 5


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_nothing_players_need_is_cut(name: str) -> None:
    assert [m.text for m in _marks(PICTURES[name]) if m.text.endswith("…")] == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_character_has_a_glyph(name: str) -> None:
    """The bundled font has no accents: Italian is written "Citta'" rather than in boxes."""
    assert sorted({c for m in _marks(PICTURES[name]) for c in m.text if not has_glyph(c)}) == []


def test_every_word_comes_from_the_locale_files(caplog: pytest.LogCaptureFixture) -> None:
    """No key missing (it would be drawn as "render.mk...") in any picture, in either language."""
    with caplog.at_level(logging.WARNING, logger="common.i18n"):
        for name in sorted(PICTURES):
            _marks(PICTURES[name])
    assert [r.getMessage() for r in caplog.records if r.name == "common.i18n"] == []
    texts = {m.text for name in ("ranged_it", "duel_setup_it") for m in _marks(PICTURES[name])}
    assert not any(t.startswith("render.mk") for t in texts)


def test_accents_and_signs_are_drawn_and_the_rest_never_becomes_an_empty_box() -> None:
    """The kit's font draws Italian and the signs we use; a glyph it lacks is written without
    its marks, or as "?" (an emoji in a player's name), never as an empty box."""
    assert all(has_glyph(c) for c in "aàèéìòù·→−×÷½")
    assert words.plain("Città: È già −1 → ×2 ÷ 2") == "Città: È già −1 → ×2 ÷ 2"
    assert not has_glyph("🐉")
    assert words.plain("Drago 🐉") == "Drago ?"


# -- overlaps and columns ---------------------------------------------------------------------


DENSEST = {"crowd_summons", "crowd_summons_it"}
"""The known limit: eleven tokens and five units leave a drawn summon token too small for its
attack and element glyphs at 11 px; they are drawn anyway, over its letter badge."""


@pytest.mark.parametrize("name", sorted(set(PICTURES) - DENSEST))
def test_chips_and_badges_never_cover_text(name: str) -> None:
    """No chip or ring badge overlaps a text that is not its own label, nor another chip or
    badge; no two texts overlap (labels inside a chip or badge excepted)."""
    marks = _marks(PICTURES[name])
    covers = [m for m in marks if m.kind in ("chip", "badge")]
    texts = [m for m in marks if m.kind == "text"]
    problems = []
    for cover in covers:
        problems += [f"{cover.kind} {cover.text!r} covers {t.text!r}" for t in texts
                     if not _inside(t.box, cover.box) and _overlap(cover.box, t.box)]
        problems += [f"{cover.kind}s {cover.text!r} and {o.text!r}" for o in covers
                     if o is not cover and o.box < cover.box and _overlap(cover.box, o.box)
                     and not (cover.region == o.region == "enemies" and _summoned_overlap(marks, cover, o))]
    for i, text in enumerate(texts):
        problems += [f"{text.text!r} over {o.text!r}" for o in texts[i + 1:]
                     if _overlap(text.box, o.box) and not any(_inside(text.box, c.box) for c in covers)]
    assert problems == []


def _summoned_overlap(marks: list[Mark], a: Mark, b: Mark) -> bool:
    """A summoned token lies over its summoner's ring on purpose; its own letter badge may
    touch the summoner's ring badges only where the two discs overlap."""
    tokens = [m.box for m in marks if m.kind == "token"]
    return any(_overlap(t1, t2) and _inside(a.box, _union(t1, t2), 30) and _inside(b.box, _union(t1, t2), 30)
               for i, t1 in enumerate(tokens) for t2 in tokens[i + 1:])


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


@pytest.mark.parametrize("name", sorted(n for n in PICTURES if not n.startswith("hand")))
def test_everything_stays_in_its_column(name: str) -> None:
    left = (0, 0, layout.LEFT_X1 + layout.DU(3), layout.HEIGHT)
    regions = {"panel": layout.PANEL_BOX, "top": left, "enemies": left, "units": left, "log": left}
    outside = [(m.region, m.kind, m.text, m.box) for m in _marks(PICTURES[name])
               if m.region in regions and not _inside(m.box, regions[m.region])]
    assert outside == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_token_text_stays_inside_its_token(name: str) -> None:
    marks = _marks(PICTURES[name])
    tokens = [m for m in marks if m.kind == "token"]
    badges = [m.box for m in marks if m.kind in ("badge", "chip")]
    for text in (m for m in marks if m.kind == "text" and m.region == "enemies"):
        if any(_inside(text.box, b) for b in badges) or text.box[1] > max(t.box[3] for t in tokens):
            continue  # a badge's label, or a caption under the tokens
        assert any(_inside(text.box, t.box, 0) for t in tokens), text.text


# -- what the picture says ---------------------------------------------------------------------


def test_whose_turn_is_said_once() -> None:
    texts = [m.text for m in _marks(PICTURES["ranged_en"]) if m.kind == "text"]
    assert texts.count("alice to act") == 1 and sum("to act" in t for t in texts) == 1
    assert "Add attacks, then commit or take back" in " ".join(texts)


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["render"]["mk"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_decision_says_what_to_do(lang: str) -> None:
    do = {k: words.plain(v) for k, v in _catalog(lang)["do"].items()}  # type: ignore[union-attr]
    state = S.new({"site": "keep", "tier": 3, "seed": 1})
    assert panel.banner(state, lang, None)[2] == [do["ranged_siege"]]
    S.act(state, "target", enemies=["e1"])
    assert panel.banner(state, lang, None)[2] == [do["column_attack"]]
    state = S.block()
    assert panel.banner(state, lang, None)[2] == [do["column_block"]]
    S.act(state, "take_back")
    assert panel.banner(state, lang, None)[2] == [do["block"]]
    state = S.damage()
    left = state.damage.remaining if state.damage else 0
    enemy = state.enemy(state.damage.enemy).local_name(lang) if state.damage else ""  # the reader's name
    assert panel.banner(state, lang, None)[2] == [do["assign_step"].format(enemy=enemy, left=left)]
    state = S.attack()
    S.act(state, "take_back")
    assert panel.banner(state, lang, None)[2] == [do["attack"]]
    drums = "Suonatori di Tamburo" if lang == "it" else "Drum Callers"  # the reader's name (issue 26.10)
    assert panel.banner(_summon_question(), lang, None)[2] == [do["summon_token"].format(enemy=drums)]
    assert panel.banner(_duel(), lang, None)[2] == [do["interactive_die"]]


def test_the_end_says_how_it_went() -> None:
    texts = [m.text for m in _marks(PICTURES["over_en"]) if m.kind == "text"]
    assert "1 enemy survives" in texts and texts.count("Fame 4 ·") == 1 and "Score 0" in texts
    assert "1 enemy defeated" in texts and "Defeated" in texts


def test_a_column_too_long_for_the_panel_lists_its_last_parts_and_counts_the_rest() -> None:
    """An open-hand table with seven staged parts: the panel keeps its cards and its
    verdict, lists the last parts, counts the others; the sum counts them all."""
    texts = [m.text for m in _marks(PICTURES["long_column_en"]) if m.kind == "text"]
    assert "+4 earlier effects" in texts and "0 + half of 15 (7) = 7" in texts
    assert {"Frost Ward", "Improvise", "Endurance"} <= set(texts) and "Not enough: 1 short" in texts


def test_the_densest_combat_keeps_every_number() -> None:
    """At assist's maximum the names give way, the numbers stay: every enemy's armor (the
    summoners' too) and every attacker's attack is drawn."""
    state = S.crowd_summons()
    texts = [m.text for m in _marks(PICTURES["crowd_summons"]) if m.kind == "text" and m.region == "enemies"]
    for enemy in state.enemies:
        if enemy.summoned_by is None:
            assert str(enemy.token.armor) in texts, enemy.name
        if not enemy.has("summon"):
            assert str(enemy.token.attack) in texts, enemy.name


def test_a_duel_names_its_winner() -> None:
    texts = [m.text for m in _marks(PICTURES["duel_resigned"]) if m.kind == "text"]
    assert "bob wins!" in texts and "1 enemy survives" in texts


def test_tokens_carry_their_colour_letter_and_numbers() -> None:
    """Colour is never the only cue: each token has its letter; armor, attack, Fame are numbers."""
    marks = _marks(PICTURES["crowd_en"])
    tokens = [m for m in marks if m.kind == "token"]
    state = S.crowd()
    catalog = _catalog("en")
    for enemy, token in zip(state.enemies, tokens, strict=True):
        inside = [m.text for m in marks if m.kind == "text" and _inside(m.box, token.box, 20)]
        assert catalog["letter"][enemy.token.colour] in inside, enemy.name  # type: ignore[index]
        assert str(enemy.token.fame) in inside and str(enemy.token.attack) in inside, enemy.name


def test_knock_out_bar_is_segments_and_a_number() -> None:
    marks = _marks(PICTURES["attack_en"])
    assert "2/5" in [m.text for m in marks] and any(m.kind == "ko_bar" for m in marks)


def test_statuses_are_words_too() -> None:
    texts = {m.text for m in _marks(PICTURES["damage_en"])}
    assert {"Blocked", "4 of 6 left", "Spent", "Wounded"} <= texts  # a wounded unit is not Ready (M39)
    texts = {m.text for m in _marks(PICTURES["ranged_en"])}
    assert {"Siege only", "Out of reach", "Not enough: 1 short"} <= texts


# -- colours -----------------------------------------------------------------------------------

GROUPS: dict[str, dict[str, kit.RGB]] = {
    "token captions": {"blocked": glyphs.BLOCKED, "damage": glyphs.DAMAGE, "defeated": glyphs.DEFEATED_RING,
                       "information": glyphs.NEED},
    "verdict": {"enough": glyphs.ENOUGH, "short": glyphs.SHORT},
    "unit status": {"ready": glyphs.READY, "spent": glyphs.SPENT, "soaked": glyphs.SOAKED,
                    "destroyed": glyphs.DESTROYED},
    "resistance pips": dict(glyphs.RESIST),
    "target outline": {"target": glyphs.TARGET, **glyphs.RING, "ground": kit.BACKGROUND, "token": glyphs.TOKEN_FILL},
}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_meaningful_colours_stay_apart_for_every_vision(group: str) -> None:
    colours = GROUPS[group]
    pairs = [(a, b) for a in colours for b in colours if a < b]
    if group == "target outline":  # only the outline against what it is drawn next to
        pairs = [("target", b) for b in colours if b != "target"]
    close = []
    for a, b in pairs:
        delta, vision = worst_delta(colours[a], colours[b], VISIONS)
        if delta < MIN_DELTA:
            close.append(f"{a} ~ {b}: {delta:.1f} ({vision})")
    assert close == []
