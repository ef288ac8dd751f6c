"""WoW Miniatures pictures are readable at Discord's preview width (TABLE_UX.md), checked from
what the renderer draws (``kit.recording()``: every text with its size and box, every chip,
badge and token), so a failure says *what* is wrong and where:

- nothing a player reads below 11 px at 500 px wide;
- nothing cut with "…" (a player's own over-long name excepted, shortened only where the
  line could not hold it);
- nothing outside the canvas or its column; no badge or chip over a text not its own;
- whose turn it is said once; every word from the locale files, in both languages;
- highlight colours apart from terrain and team colours for every colour vision.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from PIL import Image

from engines.wowminis import ENGINE
from engines.wowminis.state import State
from renderers import kit
from renderers import wowminis as W
from renderers.kit import Box, Mark
from renderers.kit_colour import VISIONS, worst_delta
from renderers.kit_glyphs import has_glyph
from renderers.wowminis import glyphs, layout
from tests.renderers import wowminis_states as S

MIN_DELTA = 12.0  # CIEDE2000, the floor Krosmaster's and Mage Knight's highlight colours meet


def _board(builder: Callable[[], State], lang: str = "en", seat: int | None = None) -> Callable[[], Image.Image]:
    log = S.LOG_IT if lang == "it" else S.LOG_EN
    return lambda: W.render_image(ENGINE.view(builder(), seat), lang=lang, viewer_seat=seat,  # type: ignore[arg-type]
                                  log_lines=log)


def _crowded_fitting() -> State:
    state = S.crowded()
    state.players[1].name = "Bartholomew"
    return state


def _acted(state: State) -> list[str]:
    """The hexes of the first two characters on the map: what a move or an attack puts in focus."""
    return [c.pos for c in sorted(state.chars.values(), key=lambda c: c.id) if c.pos][:2]


PICTURES: dict[str, Callable[[], Image.Image]] = {
    **{f"{name}_{lang}": _board(getattr(S, name), lang) for name in ("opening", "midgame", "finished")
       for lang in ("en", "it")},
    "crowded_en": _board(_crowded_fitting),
    "crowded_it": _board(_crowded_fitting, "it"),
    "midgame_seat0": _board(S.midgame, seat=0),
    "midgame_seat1_it": _board(S.midgame, "it", seat=1),
    "finished_seat0": _board(S.finished, seat=0),
    "los_en": lambda: W.los_image(S.midgame(), "A6", "E11"),
    "los_405_4_it": lambda: W.los_image(S.los_405_4(), "C5", "B8", "it"),
    "los_adjacent": lambda: W.los_image(S.los_405_4(), "C5", "C6"),
    "move_en": lambda: W.move_image(S.midgame()),
    # issue 27.5: the map around the characters that acted, drawn large
    "zoom_midgame_en": lambda: W.render_image(S.midgame(), focus=_acted(S.midgame())),
    "zoom_crowded_it": lambda: W.render_image(_crowded_fitting(), lang="it", focus=_acted(_crowded_fitting())),
    "move_crowded_it": lambda: W.move_image(_crowded_fitting(), lang="it"),
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


def test_the_minimum_size_is_11_px_at_preview_width() -> None:
    assert kit.Scale(layout.WIDTH).preview(layout.TEXT) >= kit.MIN_PREVIEW_TEXT == 11
    assert layout.WIDTH / layout.HEIGHT == 10 / 7  # shown 500 x 350, Discord's box for a picture
    grid = layout.grid_for(16, 12)  # the built-in maps' size: tokens keep full-size text
    assert layout.token_size(grid) == layout.TEXT


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_text_is_readable_at_preview_width(name: str) -> None:
    marks = _marks(PICTURES[name])
    assert [(m.text, m.size, m.region) for m in marks if m.kind == "text" and m.size < layout.TEXT] == []
    assert sum(m.kind == "text" for m in marks) > 10


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_nothing_players_need_is_cut(name: str) -> None:
    assert [m.text for m in _marks(PICTURES[name]) if m.text.endswith("…")] == []


def test_only_a_players_own_overlong_name_is_shortened() -> None:
    texts = [m.text for m in _marks(_board(S.crowded)) if m.kind == "text"]
    cut = [t for t in texts if "…" in t]
    assert cut and all("Bartholome" in t for t in cut)
    goal = S.crowded().players[1].goal
    assert any(t.endswith(f"0/{goal}") for t in cut)  # the VP chip keeps its numbers


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_character_has_a_glyph(name: str) -> None:
    assert sorted({c for m in _marks(PICTURES[name]) for c in m.text if not has_glyph(c)}) == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_everything_stays_on_the_canvas_and_in_its_column(name: str) -> None:
    left = (0, 0, layout.LEFT_X1 + layout.DU(2), layout.HEIGHT)
    regions = {"board": left, "band": left, "panel": layout.PANEL_BOX}
    outside = [(m.region, m.kind, m.text, m.box) for m in _marks(PICTURES[name])
               if not _inside(m.box, regions.get(m.region, (0, 0, layout.WIDTH, layout.HEIGHT)))]
    assert outside == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_chips_and_badges_never_cover_text(name: str) -> None:
    """No chip or badge over a text that is not its own label, nor over another chip or
    badge; no two texts over each other (labels inside a chip, badge or token excepted)."""
    marks = _marks(PICTURES[name])
    covers = [m for m in marks if m.kind in ("chip", "badge")]
    texts = [m for m in marks if m.kind == "text"]
    problems = []
    for cover in covers:
        problems += [f"{cover.kind} {cover.text!r} covers {t.text!r}" for t in texts
                     if not _inside(t.box, cover.box) and _overlap(cover.box, t.box)]
        problems += [f"{cover.kind}s {cover.text!r} and {o.text!r}" for o in covers
                     if o is not cover and o.box < cover.box and _overlap(cover.box, o.box)]
    for i, text in enumerate(texts):
        problems += [f"{text.text!r} over {o.text!r}" for o in texts[i + 1:] if _overlap(text.box, o.box, 2)]
    assert problems == []


@pytest.mark.parametrize("name", ["midgame_en", "crowded_en", "finished_en"])
def test_token_labels_stay_on_their_token(name: str) -> None:
    marks = _marks(PICTURES[name])
    tokens = [m for m in marks if m.kind == "token"]
    assert tokens
    for token in tokens:
        assert token.text in [m.text for m in marks if m.kind == "text" and _inside(m.box, token.box, 6)]


# -- what the picture says ---------------------------------------------------------------------


def _texts(name: str) -> list[str]:
    return [m.text for m in _marks(PICTURES[name]) if m.kind == "text"]


def test_whose_turn_is_said_once() -> None:
    texts = _texts("midgame_en")
    state = S.midgame()
    decision = ENGINE.decision(state)
    assert decision is not None
    acting = f"{state.players[decision.seats[0]].name} to act"
    assert texts.count(acting) == 1 and sum("to act" in t for t in texts) == 1
    assert "React or pass" in texts


def test_the_opening_says_who_picks_the_first_character_and_the_tie() -> None:
    texts = _texts("opening_en")
    assert "Choose who acts first" in texts and "Tie at 1: Aria chooses" in " ".join(texts)


def test_game_over_says_who_won_and_why() -> None:
    state = S.finished()
    winner = state.player(state.winners[0]).name if state.winners else "?"
    texts = _texts("finished_it")
    assert f"Vince {winner}!" in texts and not any(t.startswith("Pari a") for t in texts)


def test_every_character_has_its_roster_row_and_clock() -> None:
    for name in ("midgame_en", "crowded_en", "opening_it"):
        texts = _texts(name)
        state = S.crowded() if name.startswith("crowded") else getattr(S, name.split("_")[0])()
        assert {c.short for c in state.chars.values()} <= set(texts), name


def test_every_word_comes_from_the_locale_files(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="common.i18n"):
        for name in sorted(PICTURES):
            _marks(PICTURES[name])
    assert [r.getMessage() for r in caplog.records if r.name == "common.i18n"] == []


# -- colours -----------------------------------------------------------------------------------

HIGHLIGHTS = {"reach": glyphs.REACH, "active": kit.HIGHLIGHT, "block": glyphs.BLOCK, "star": glyphs.STAR}
GROUNDS = {**glyphs.TERRAIN_FILLS, "team0": kit.team_colour(0), "team1": kit.team_colour(1), "neutral": glyphs.NEUTRAL}
SHAPED = {("active", "ground"), ("block", "neutral")}
"""Pairs kept apart by shape, not hue: the active hex has a dark edge on sand (as Krosmaster's
active square, for tritanopes), and a blocking hex is a thick frame with a cross, never a ring."""


def test_highlights_stay_apart_from_terrain_and_teams_for_every_vision() -> None:
    close = []
    for a, ca in HIGHLIGHTS.items():
        for b, cb in GROUNDS.items():
            delta, vision = worst_delta(ca, cb, VISIONS)
            if delta < MIN_DELTA and (a, b) not in SHAPED:
                close.append(f"{a} ~ {b}: {delta:.1f} ({vision})")
    assert close == []
