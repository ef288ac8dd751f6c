"""Readable at Discord's preview width (TABLE_UX.md), checked from what the renderer draws.

Each reported problem of the issue "Krosmaster at a real table" has a test that would
have caught it. Most look at ``kit.recording()`` (every text with its size and box, every
chip) instead of pixels, so a failure says *what* is wrong and where:

- side panel AP/MP lines and square names ~5 px tall at 500 px: ``test_every_text_is_readable_at_preview_width``
- wound bars a thin line: ``test_hp_is_written_as_numbers``
- status badges over the square name: ``test_chips_never_cover_text``
- area of effect pink close to the demon-square pink: ``test_highlight_colours_stay_apart_for_every_vision``
  (and ``test_the_reported_pink_pair_fails_the_colour_check``)
- end subtitle and rewards line cut with "…": ``test_nothing_players_need_is_cut``
- whose turn said twice (title pill and banner): ``test_whose_turn_is_said_once``
- game over without the why: ``test_game_over_says_who_won_and_why``
- trees and bushes drawn as targets: the renderer draws the squares it is given (the cog
  passes the engine's ``spell_targets``); ``test_target_tint_keeps_scenery_visible``
  checks that such a square still shows its tree.
"""

from __future__ import annotations

import io
import json
import typing
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import Phase, State
from renderers import kit, kit_board
from renderers import krosmaster as km
from renderers.kit import Box, Mark
from renderers.kit_colour import VISIONS, over, worst_delta
from renderers.krosmaster import board, glyphs, layout, panel
from tests.renderers.states import big_teams, deployment, midgame, with_rewards, with_summons
from tests.renderers.states_four import four_players

LOCALES = Path(__file__).resolve().parents[2] / "locales"
MIN_DELTA = 12.0
"""CIEDE2000 floor for any highlight against terrain fills and team colours, for normal vision
and each dichromacy. Okabe-Ito's own closest pairs sit at ~11-14 for dichromats; the old area
pink was 4.4 from the old demon pink (0.95 for tritanopes)."""


def _spell_args(state: State) -> tuple[set[str], list[str], str]:
    targets = {label(p.target) for p in spell_targets(state, "fireball")}
    aim = "E10" if "E10" in targets else sorted(targets)[0]
    return targets, area_for(state, "fireball", aim), aim


def _move_preview() -> Image.Image:
    state = midgame(active="0a")
    state.pieces["0a"].ap, state.pieces["0a"].mp = 6, 4
    return km.preview_image(state, {sq: o.cost for sq, o in reachable_squares(state).items()}, "move")


def _spell_preview(lang: str = "it") -> Image.Image:
    state = midgame()
    targets, area, aim = _spell_args(state)
    return km.preview_image(state, targets, "spell", area, target=aim, lang=lang)


def _resigned() -> State:
    state = four_players("ffa")
    state.player(3).resigned = True
    return state


def _powers_lost() -> State:
    state = midgame()
    state.pieces["1c"].powers_lost = state.pieces["1b"].powers_lost = True
    return state


PICTURES: dict[str, Callable[[], Image.Image]] = {
    "midgame_en": lambda: km.render_image(midgame()),
    "midgame_it": lambda: km.render_image(midgame(), lang="it"),
    "over_it": lambda: km.render_image(midgame(over=True), lang="it"),
    "deployment": lambda: km.render_image(deployment(), seat_names={0: "Annabelle", 1: "Bob"}),
    "big_teams_it": lambda: km.render_image(big_teams(inspiration=True), lang="it"),
    "big_teams_turn": lambda: km.render_image(big_teams()),
    "teams_en": lambda: km.render_image(four_players()),
    "teams_it": lambda: km.render_image(four_players(powers_lost=False), lang="it"),
    "ffa_en": lambda: km.render_image(four_players("ffa")),
    "resigned_it": lambda: km.render_image(_resigned(), lang="it"),
    "powers_lost": lambda: km.render_image(_powers_lost()),
    "rewards_it": lambda: km.render_image(with_rewards(), lang="it"),
    "summons_it": lambda: km.render_image(with_summons(), lang="it"),
    "move_preview": _move_preview,
    "spell_preview_it": _spell_preview,
}


def _marks(picture: Callable[[], Image.Image]) -> list[Mark]:
    """What ``picture`` draws, the cached empty arena included (its coordinates are text too)."""
    board.static_layer.cache_clear()
    with kit.recording() as marks:
        picture()
    return marks


def _overlap(a: Box, b: Box, slack: int = 1) -> bool:
    """True when two boxes share more than ``slack`` px each way (anti-aliased edges may touch)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(inner: Box, outer: Box, slack: int = 2) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def _token_labels() -> set[str]:
    states = [midgame(), big_teams(), four_players(), deployment(), with_summons()]
    return {p.short for s in states for p in s.pieces.values()}


# -- sizes -------------------------------------------------------------------------------


def test_the_minimum_size_is_11_px_at_preview_width() -> None:
    assert kit.Scale(layout.WIDTH).preview(layout.TEXT) >= kit.MIN_PREVIEW_TEXT == 11
    assert kit.Scale(1200).min_text == 27 and kit.Scale(1000).min_text == 22 and kit.Scale(500).min_text == 11


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_text_is_readable_at_preview_width(name: str) -> None:
    """Every text is at least 11 px once the picture is shown 500 px wide.

    The one exception is written down: a board label longer than three letters (``WAR1``,
    summons like ``BRI7``) shrinks to fit its token, because a 26-px square holds three.
    """
    marks = _marks(PICTURES[name])
    shorts = _token_labels()
    small = [(m.text, m.size, m.region) for m in marks if m.kind == "text" and m.size < layout.TEXT
             and not (m.region == "board" and m.text in shorts and len(m.text) > 3)]
    assert small == []
    assert any(m.region == "panel" for m in marks) and any(m.region == "legend" for m in marks)


def test_panel_stats_and_squares_are_drawn_at_full_size() -> None:
    """The reported lines themselves: AP/MP and square names in the panel."""
    texts = {m.text: m.size for m in _marks(PICTURES["midgame_en"]) if m.region == "panel" and m.kind == "text"}
    for text in ("AP 6", "MP 4", "E8", "AP 4/6", "MP 1/3", "F8"):
        assert texts.get(text, 0) >= layout.TEXT, text


# -- HP ----------------------------------------------------------------------------------


def test_hp_is_written_as_numbers() -> None:
    """Tokens carry HP left as a number (no thin bar to squint at); panel rows carry "left/max"."""
    state = midgame()
    marks = _marks(lambda: km.render_image(state))
    grid = km.grid_for(state.board.arena.width, state.board.arena.height)
    for piece in state.pieces.values():
        if not piece.in_play:
            continue
        cell = grid.box(*kit_board.parse_label(piece.pos or ""))  # type: ignore[misc]
        left = str(piece.hp - piece.wounds)
        assert any(m.text == left and m.size >= layout.TEXT and _inside(m.box, cell) for m in marks
                   if m.region == "board"), piece.id
        assert f"{left}/{piece.hp}" in {m.text for m in marks if m.region == "panel"}, piece.id


# -- overlaps and cuts ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_chips_never_cover_text(name: str) -> None:
    """No chip (status, die, token count, name chip) overlaps a text that is not its own label,
    nor another chip; panel texts do not overlap each other either."""
    marks = [m for m in _marks(PICTURES[name]) if m.region in ("panel", "legend")]
    chips = [m for m in marks if m.kind == "chip"]
    texts = [m for m in marks if m.kind == "text"]
    problems = []
    for chip in chips:
        for text in texts:
            if not _inside(text.box, chip.box) and _overlap(chip.box, text.box):
                problems.append(f"chip {chip.text!r} covers {text.text!r}")
        problems += [f"chips {chip.text!r} and {other.text!r}" for other in chips
                     if other is not chip and other.box < chip.box and _overlap(chip.box, other.box)]
    for i, text in enumerate(texts):
        problems += [f"{text.text!r} over {other.text!r}" for other in texts[i + 1:]
                     if _overlap(text.box, other.box) and not any(_inside(text.box, c.box) for c in chips)]
    assert problems == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_nothing_players_need_is_cut(name: str) -> None:
    assert [m.text for m in _marks(PICTURES[name]) if m.text.endswith("…")] == []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_everything_stays_in_its_column(name: str) -> None:
    """The panel never runs off its card (too many rows), the legend never off the canvas."""
    regions = {"panel": layout.PANEL_BOX, "legend": (0, layout.BOARD - 2, layout.BOARD, layout.HEIGHT),
               "board": (0, 0, layout.BOARD, layout.BOARD)}
    outside = [(m.region, m.text, m.box) for m in _marks(PICTURES[name])
               if m.region in regions and not _inside(m.box, regions[m.region])]
    assert outside == []


def test_rewards_and_long_names_wrap_instead_of_being_cut() -> None:
    texts = " ".join(m.text for m in _marks(PICTURES["rewards_it"]) if m.region == "panel")
    assert "Swift Trophy of the Long Afternoon" in texts and "Gobball Helmet" in texts
    assert "Ricompense: granito 5 · giada 5 · oro 5 · rubino 4" in texts


# -- the banner ----------------------------------------------------------------------------


def test_whose_turn_is_said_once() -> None:
    """One banner says who must act and what to do; there is no second "to play" pill."""
    texts = [m.text for m in _marks(PICTURES["midgame_en"]) if m.kind == "text"]
    assert texts.count("Ann to play") == 1
    assert "Play EMB Ember Witch" in texts


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_phase_says_what_to_do(lang: str) -> None:
    """Each decision gets its own sentence, not just the phase's name."""
    catalog = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["render"]["km"]
    state = midgame()
    for phase in typing.get_args(Phase):
        if phase in ("over", "turn"):
            continue
        state.phase = phase
        _head, _colour, lines = panel.turn_banner(state, lang, None)
        assert lines == [catalog["do"][phase]], phase
    state.phase = "turn"
    witch = "Strega delle Braci" if lang == "it" else "Ember Witch"  # the reader's name of the piece (issue 26.10)
    assert panel.turn_banner(state, lang, None)[2] == [catalog["do"]["turn"].format(short="EMB", name=witch)]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_game_over_says_who_won_and_why(lang: str) -> None:
    catalog = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for reason, sentence in catalog["km"]["end"].items():
        state = midgame(over=True)
        state.end_reason = reason
        texts = " ".join(m.text for m in _marks(lambda s=state: km.render_image(s, lang=lang)) if m.kind == "text")
        assert catalog["render"]["km"]["winner"].format(name="Bob") in texts
        assert sentence[:1].upper() + sentence[1:] in texts, reason


def test_a_resigned_player_is_shown_as_resigned() -> None:
    texts = [m.text for m in _marks(PICTURES["resigned_it"]) if m.region == "panel"]
    assert "Ha abbandonato" in texts


# -- colours -------------------------------------------------------------------------------


def _highlights() -> dict[str, kit.RGB]:
    result = {}
    for ground_name, ground in (("sand", glyphs.GROUND_A), ("dark sand", glyphs.GROUND_B)):
        result[f"reach on {ground_name}"] = over(ground, kit.REACH, kit.REACH_ALPHA)
        result[f"target on {ground_name}"] = over(ground, kit.TARGET, kit.TARGET_ALPHA)
        result[f"area stripe on {ground_name}"] = over(ground, kit.AREA, kit.AREA_ALPHA)
    return result


def test_highlight_colours_stay_apart_for_every_vision() -> None:
    """Reachable, target and area colours vs every terrain fill and every team colour, and vs
    each other, for normal vision and simulated protanopia, deuteranopia and tritanopia."""
    others = {**glyphs.TERRAIN_FILLS, **{f"team {i}": c for i, c in enumerate(kit.TEAM_COLOURS)}}
    highlights = _highlights()
    close = []
    for name, colour in highlights.items():
        for other, value in others.items():
            delta, vision = worst_delta(colour, value, VISIONS)
            if delta < MIN_DELTA:
                close.append(f"{name} ~ {other}: {delta:.1f} ({vision})")
        for other, value in highlights.items():
            if other.split()[0] != name.split()[0]:
                delta, vision = worst_delta(colour, value, VISIONS)
                if delta < MIN_DELTA:
                    close.append(f"{name} ~ {other}: {delta:.1f} ({vision})")
    assert close == []


def test_the_reported_pink_pair_fails_the_colour_check() -> None:
    """The colours before this change: the area tint and the demon square were both pink."""
    old_area = over(glyphs.GROUND_A, kit.OKABE_ITO["reddish_purple"], 170 / 255)
    old_demon = kit.mix(kit.OKABE_ITO["reddish_purple"], (255, 255, 255), 0.25)
    assert worst_delta(old_area, old_demon)[0] < 2 < MIN_DELTA


def _pixels(image: Image.Image, box: Box) -> list[tuple[int, int, int]]:
    crop = image.crop(box)
    return [crop.getpixel((x, y)) for y in range(crop.height) for x in range(crop.width)]  # type: ignore[misc]


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 8) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_drawn_highlights_use_the_checked_colours() -> None:
    """Ties the colour check to the pixels: a reachable, a target and an area square."""
    state = midgame()
    grid = km.grid_for(12, 12)
    move = Image.open(io.BytesIO(km.render_preview(state, {"B8": 3}, "move"))).convert("RGB")
    x0, _y0, _x1, y1 = grid.box(*kit_board.parse_label("B8"))  # type: ignore[misc]
    assert _near(move.getpixel((x0 + 6, y1 - 6)), over(glyphs.GROUND_A, kit.REACH, kit.REACH_ALPHA))  # type: ignore[arg-type]
    spell = Image.open(io.BytesIO(km.render_preview(state, {"B8"}, "spell", ["J3"]))).convert("RGB")
    assert _near(spell.getpixel((x0 + 6, y1 - 6)), over(glyphs.GROUND_A, kit.TARGET, kit.TARGET_ALPHA))  # type: ignore[arg-type]
    area = _pixels(spell, grid.box(*kit_board.parse_label("J3"), inset=6))  # type: ignore[misc]
    ground = glyphs.GROUND_B  # J3 is a dark square of the checkerboard
    stripes = sum(_near(p, over(ground, kit.AREA, kit.AREA_ALPHA), 24) for p in area)
    plain = sum(_near(p, ground, 12) for p in area)
    assert stripes > len(area) // 5 and plain > len(area) // 5  # a pattern: stripes and ground, no flat fill


def test_demon_squares_are_not_pink_any_more() -> None:
    image = km.render_image(midgame())
    x0, y0, x1, y1 = km.grid_for(12, 12).box(*kit_board.parse_label("A7"))  # type: ignore[misc]
    assert _near(image.getpixel((x0 + 4, y1 - 4)), glyphs.DEMON)  # type: ignore[arg-type]
    assert _near(image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 + 6)), glyphs.DEMON_MARK, 20)  # type: ignore[arg-type]


def test_target_tint_keeps_scenery_visible() -> None:
    """The engine lists tree and bush squares among a spell's targets (``spell_targets``); the
    preview must still show them as a tree and a bush under the orange, not as plain targets."""
    state = midgame()
    targets, area, aim = _spell_args(state)
    scenery = sorted(targets & {*state.board.arena.trees, *state.board.arena.bushes})
    assert scenery, "the sample spell reaches scenery squares"
    image = km.preview_image(state, targets, "spell", area, target=aim)
    grid = km.grid_for(12, 12)
    for square in scenery:
        colour = glyphs.TREE if square in state.board.arena.trees else glyphs.BUSH
        pixels = _pixels(image, grid.box(*kit_board.parse_label(square), inset=4))  # type: ignore[misc]
        assert sum(_near(p, colour, 10) for p in pixels) > 40, square
