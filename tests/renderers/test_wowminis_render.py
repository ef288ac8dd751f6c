"""WoW Miniatures pictures: golden images, plus checks that can fail on their own.

Golden states are the engine's samples frozen as JSON (``wowminis_states.py`` says why);
``test_the_sample_states`` pins what each must show, so a different sample fails there with
a sentence before it fails as pixels. Every golden was looked at 500 px wide before it was
stored (``UPDATE_GOLDEN=1``).
"""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.state import State
from renderers import kit
from renderers import wowminis as W
from renderers.wowminis import palette
from tests.renderers import golden
from tests.renderers import wowminis_states as S

GOLDENS = {  # golden name -> (picture, language)
    "wowm_opening_en": ("opening", "en"),
    "wowm_midgame_en": ("midgame", "en"),
    "wowm_midgame_it": ("midgame", "it"),
    "wowm_finished_en": ("finished", "en"),
    "wowm_los_en": ("los", "en"),
    "wowm_los_405_4_it": ("los_405_4", "it"),
    "wowm_move_en": ("move", "en"),
}


def picture(name: str, lang: str = "en") -> bytes:
    log = S.LOG_IT if lang == "it" else S.LOG_EN
    if name == "los":
        return W.render_los(S.midgame(), "A6", "E11", lang)
    if name == "los_405_4":
        return W.render_los(S.los_405_4(), "C5", "B8", lang)
    if name == "move":
        return W.render_move(S.midgame(), lang=lang)
    return W.render(ENGINE.view(getattr(S, name)(), None), lang=lang, log_lines=log)  # type: ignore[arg-type]


@pytest.mark.parametrize("golden_name", sorted(GOLDENS))
def test_golden_board(golden_name: str, tmp_path: Path) -> None:
    name, lang = GOLDENS[golden_name]
    golden.check(golden_name, picture(name, lang), tmp_path)


def test_the_sample_states() -> None:
    """What each golden must show, said in words."""
    opening = S.opening()
    assert opening.phase == "play" and all(c.pos is None for c in opening.chars.values())
    assert len({c.clock for c in opening.chars.values()}) == 1  # everyone tied at tick 1
    assert opening.pending is not None and opening.pending.kind == "first_character"
    mid = S.midgame()
    assert sum(c.pos is not None for c in mid.chars.values()) >= 5 and mid.effects and mid.turn is not None
    assert any(c.health < c.defn.health for c in mid.chars.values())
    assert any(card.face_up for c in mid.chars.values() for card in c.bar)
    assert any(not card.face_up for c in mid.chars.values() for card in c.bar)
    over = S.finished()
    assert over.phase == "over" and over.winners
    assert ENGINE.view(S.los_405_4(), None).board.terrain == {"C6": "cover"}  # type: ignore[attr-defined]


# -- purity, determinism, output ---------------------------------------------------------


def test_rendering_never_changes_the_state() -> None:
    for state in (S.opening(), S.midgame(), S.finished(), S.crowded()):
        before = state.model_dump_json()
        W.render(state, lang="it", log_lines=["a", "b"])
        W.render(state, viewer_seat=0)
        W.render_los(state, "A6", "E11")
        W.render_move(state)
        assert state.model_dump_json() == before


def test_same_state_same_bytes() -> None:
    state = S.midgame()
    assert W.render(state) == W.render(state)
    assert W.render(state, lang="it") != W.render(state)


def _chunks(png: bytes) -> list[bytes]:
    names, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        names.append(png[pos + 4:pos + 8])
        pos += 12 + length
    return names


def test_png_size_palette_and_no_metadata() -> None:
    png = W.render(S.midgame())
    image = Image.open(io.BytesIO(png))
    assert image.size == (W.WIDTH, W.HEIGHT) == (1000, 700)  # 10:7, shown 500 px wide by Discord
    assert image.mode == "P"
    assert set(_chunks(png)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}


# -- hidden information (7.3) ----------------------------------------------------------------


def _texts(image_fn, *args, **kw) -> list[str]:  # type: ignore[no-untyped-def]
    with kit.recording() as marks:
        image_fn(*args, **kw)
    return [m.text for m in marks if m.kind == "text"]


def _names(state: State, seat: int, face_up: bool) -> set[str]:
    return {card.defn.name for c in state.chars.values() if c.controller == seat for card in c.bar
            if card.defn is not None and card.face_up == face_up and card.zone == "bar"}


def test_face_down_cards_are_backs_to_everyone_but_their_owner() -> None:
    state = S.heroes_only(S.midgame())  # room for card names (a crowded panel draws glyphs instead)
    for seat in (0, 1):  # one face-down card per seat, whatever the sample played
        hero = next(c for c in state.chars.values() if c.kind == "hero" and c.controller == seat and c.bar)
        hero.bar[-1].face_up = False
    down0, down1 = _names(state, 0, False), _names(state, 1, False)
    assert down0 and down1
    public = " ".join(_texts(W.render_image, ENGINE.view(state, None)))
    assert not any(name in public for name in down0 | down1)
    mine = " ".join(_texts(W.render_image, ENGINE.view(state, 0), viewer_seat=0))
    assert all(name in mine for name in down0 if len(name) < 14)
    assert not any(name in mine for name in down1)
    # Given the whole state by mistake, the public picture still shows backs (the renderer hides too).
    assert not any(name in " ".join(_texts(W.render_image, state)) for name in down0 | down1)


def test_face_up_cards_show_name_and_cost_when_there_is_room() -> None:
    state = S.opening()
    c = next(iter(state.chars.values()))
    card = c.bar[0]
    card.face_up = True
    assert card.defn is not None
    assert f"{card.defn.name} {card.defn.cost}" in _texts(W.render_image, state)


# -- line of sight and move preview --------------------------------------------------------


def test_los_405_4_reads_blocked_with_both_middle_paths() -> None:
    texts = _texts(W.los_image, S.los_405_4(), "C5", "B8")
    assert "C5 → B8: blocked" in texts
    joined = " ".join(texts)
    assert "both are blocked (405.4)" in joined and "First blocking hex: C6" in joined


def test_los_without_the_cover_is_clear() -> None:
    state = S.los_405_4()
    state.board.terrain = {}
    assert "C5 → B8: in sight" in _texts(W.los_image, state, "C5", "B8")


def test_move_preview_prints_each_cost_from_the_engine() -> None:
    state = S.midgame()
    costs, _head = W.overlay.move(state, None, "en")
    assert costs and set(costs.values()) <= {1, 2}
    texts = _texts(W.move_image, state)
    assert texts.count("2") >= sum(v == 2 for v in costs.values())


# -- the palette --------------------------------------------------------------------------


PICTURES = {
    "opening": lambda: W.render_image(S.opening(), lang="it", log_lines=S.LOG_IT),
    "midgame": lambda: W.render_image(S.midgame(), log_lines=S.LOG_EN),
    "finished": lambda: W.render_image(S.finished(), viewer_seat=1),
    "crowded": lambda: W.render_image(S.crowded(), log_lines=S.LOG_EN),
    "los": lambda: W.los_image(S.midgame(), "A6", "E11"),
    "los_405_4": lambda: W.los_image(S.los_405_4(), "C5", "B8", "it"),
    "move": lambda: W.move_image(S.crowded()),
}


def test_every_named_colour_comes_back_exact() -> None:
    colours = palette.flat_colours()
    image = Image.new("RGB", (4 * len(colours), 4), kit.BACKGROUND)
    draw = kit.Draw(image)
    for i, colour in enumerate(colours):
        draw.rectangle((4 * i, 0, 4 * i + 3, 3), fill=colour)
    assert ImageChops.difference(palette.shared().quantize(image).convert("RGB"), image).getbbox() is None
    assert palette.shared().flat_dropped == []
    assert len(palette.shared()) <= 256 - 32  # room for a server map's own colours


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_quantizing_a_snapshot_changes_next_to_nothing(name: str) -> None:
    """What players receive against what was drawn: far below the golden tolerance."""
    drawn = PICTURES[name]()
    state = S.los_405_4() if name == "los_405_4" else S.midgame()
    from renderers.wowminis.layout import side_colours

    pal = palette.for_map(state.board.model_dump_json(), side_colours(state))
    sent = Image.open(io.BytesIO(kit.to_png(drawn, palette=pal))).convert("RGB")
    mean, worst_tile, _where = golden.difference(sent, drawn)
    worst_pixel = max(high for _low, high in ImageChops.difference(sent, drawn).getextrema())  # type: ignore[misc]
    assert mean < 0.05 and worst_tile <= 2 and worst_pixel <= 16, (mean, worst_tile, worst_pixel)


# -- every reachable state renders -----------------------------------------------------------


def _playout(seed: int, steps: int = 160) -> list[State]:
    rng = random.Random(seed)
    faction = ["horde", "monster"][seed % 2]
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="ann", config={"faction": "alliance"}),
                         SeatSetup(seat=1, user_id=2, name="Òscar", config={"faction": faction})],
                  options={"map": ["stonefang_pass", "mirewood_hollow", "proving_ground"][seed % 3]})
    dice = SeededDice(seed)
    state: State = ENGINE.new_game(setup, dice)  # type: ignore[assignment]
    states = [state.model_copy(deep=True)]
    for _ in range(steps):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        actions = ENGINE.legal_actions(state, seat)
        plays = [a for a in actions if isinstance(a, A.Play | A.Move)]
        ENGINE.apply(state, seat, rng.choice(plays if plays and rng.random() < 0.7 else actions), dice)
        states.append(state.model_copy(deep=True))
    return states


@pytest.mark.parametrize("seed", range(4))
def test_engine_played_games_render_in_both_languages(seed: int) -> None:
    for i, state in enumerate(_playout(seed)[::9]):
        lang = "it" if i % 2 else "en"
        with kit.recording() as marks:
            W.render_image(ENGINE.view(state, None), lang=lang, log_lines=["x " * 30] * (i % 3))  # type: ignore[arg-type]
        assert [m.text for m in marks if m.text.endswith("…")] == [], (seed, i)
        assert not [m.text for m in marks if m.text.startswith("wowm.")], (seed, i)


def test_ability_preview_shades_range_and_sight_and_points_at_legal_targets_405_2() -> None:
    """``/wowm preview ability:`` (spec 7.1): the engine's own range, sight and targets, drawn."""
    from engines.wowminis import rules_board
    from engines.wowminis.rules_play import find_playable
    from engines.wowminis.rules_targeting import single_targets
    from renderers.wowminis import overlay

    state = S.midgame()
    assert state.turn is not None
    c = state.chars[state.turn.char]
    reach, spots, area, source, head = overlay.ability(state, None, "main", "en")
    spec = find_playable(state, c, "main").ability.target
    assert source == c.pos and reach and area == []
    assert all(rules_board.within_range(state, c.controller, c.pos or "", h, spec.range.min, spec.range.max,
                                        spec.range.los) for h in reach)
    legal = {(state.chars.get(p) or state.totems[p]).pos for p in single_targets(state, c, find_playable(
        state, c, "main").ability)}
    assert set(spots) == legal and set(spots) <= set(reach)
    assert head[0].startswith(c.defn.name)
    png = W.render_ability(state, "main", lang="it")
    assert Image.open(io.BytesIO(png)).size == (W.WIDTH, W.HEIGHT)
