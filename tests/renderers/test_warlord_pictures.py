"""Warlord pictures drawn on their palette, text and chips as flat fills (issue 28).

The claim to prove, as tests/renderers/test_kit_scene.py proves it for Krosmaster: however a picture
is drawn — at once on its palette indexes (``render``: ``kit_palette_draw``), its text and chips cut by
what lies under them (``kit_ink``), or recorded as draw calls (``kit_scene``) — its bytes are a
whole-picture encode's: the RGB picture drawn the kit's way (``render_image`` with ``kit_ink.blended``)
quantized on the palette (``kit.to_png``). The pictures are the scripted game's, as the console posts
them (``tests/warlord/full_game.txt``), in several orders, and random three- and four-army games."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from PIL import ImageChops

from engines.core.dice import SeededDice
from engines.warlord.state import State
from renderers import kit, kit_ink, kit_palette_draw, kit_scene
from renderers import warlord as W
from renderers.warlord import palette
from tests.renderers.picture_orders import ORDERS, in_order
from tests.warlord.builders import E, fresh

pytestmark = pytest.mark.usefixtures("fresh_scenes")

Picture = tuple[State, tuple[str, ...], tuple[str, ...], str]


@functools.lru_cache(maxsize=1)
def _game() -> tuple[Picture, ...]:
    """The scripted game's pictures: (view, players, log lines, language), in the order they were posted."""
    from bench.scripted_pictures import ROOT, record

    return tuple((p.view, p.seat_names, p.log_lines or (), p.lang)
                 for p in record(ROOT / "tests" / "warlord" / "full_game.txt"))


@functools.lru_cache(maxsize=4)
def _armies(n: int, seed: int = 11, every: int = 9) -> tuple[Picture, ...]:
    """A random ``n``-army game (every legal action as likely), one picture in ``every`` actions."""
    rng, dice, state = random.Random(seed), SeededDice(seed), fresh(n)
    pictures: list[Picture] = []
    for step in range(400):
        decision = E.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)), dice)
        if step % every == 0:
            view = E.view(state, None).private_copy()  # kept past the next move: a view shares the state
            pictures.append((view, tuple(p.name for p in view.players), (f"step {step - 1}", f"step {step}"),
                             "it" if step % 2 else "en"))
    return tuple(pictures)


def _png(view: State, names: tuple[str, ...], log: tuple[str, ...], lang: str) -> bytes:
    return W.render(view, lang, dict(enumerate(names)), None, list(log))


def _whole(view: State, names: tuple[str, ...], log: tuple[str, ...], lang: str) -> bytes:
    """The picture drawn in RGB the kit's way and quantized whole: what every way of drawing it must give."""
    with kit_ink.blended():
        image = W.render_image(view, lang, dict(enumerate(names)), None, list(log))
    return kit.to_png(image, palette=palette.shared())




@pytest.mark.parametrize("order", ORDERS)
def test_a_games_pictures_are_the_bytes_of_a_whole_draw_in_any_order(order: str) -> None:
    pictures = list(_game())
    assert len(pictures) > 40
    picked = in_order(pictures, order)
    with kit_scene.table("game"):
        for index, picture in enumerate(picked):
            assert _png(*picture) == _whole(*picture), f"picture {index} ({order})"


@pytest.mark.parametrize("armies", [3, 4])
def test_three_and_four_armies_in_both_languages_are_the_bytes_of_a_whole_draw(armies: int) -> None:
    pictures = _armies(armies)
    assert len(pictures) > 10
    for index, picture in enumerate(pictures):
        assert _png(*picture) == _whole(*picture), f"picture {index}"


def test_the_pictures_are_drawn_on_the_palette_without_falling_back() -> None:
    """Not a timing test: the palette picture knows every pixel of the game's pictures, so none of them
    is drawn a second time the RGB way (``kit_palette_draw.Draw.exact``)."""
    drawn: list[kit_palette_draw.Draw] = []
    original = kit_palette_draw.Draw.__init__

    def keep(self: kit_palette_draw.Draw, *args: Any) -> None:
        original(self, *args)
        drawn.append(self)

    kit_palette_draw.Draw.__init__ = keep  # type: ignore[method-assign]
    try:
        for picture in _game()[::3] + _armies(4)[::2]:
            _png(*picture)
    finally:
        kit_palette_draw.Draw.__init__ = original  # type: ignore[method-assign]
    assert drawn and [d for d in drawn if not d.exact] == []


def test_text_and_chips_on_a_known_ground_are_the_pixels_the_kit_draws() -> None:
    """``kit_ink`` cuts each text by the ground its caller names; a wrong ground would change edge pixels."""
    for view, names, log, lang in _game()[::4] + _armies(3)[::3]:
        image = W.render_image(view, lang, dict(enumerate(names)), None, list(log))
        with kit_ink.blended():
            reference = W.render_image(view, lang, dict(enumerate(names)), None, list(log))
        assert ImageChops.difference(image, reference).getbbox() is None


def test_a_picture_recorded_as_draw_calls_is_the_bytes_of_a_whole_draw() -> None:
    """The renderer draws through the kit only (no pixel read back, no paste), so its calls can be recorded
    and re-drawn where they changed (``kit_scene``), as Krosmaster's are."""
    with kit_scene.table("recorded"):
        for view, names, log, lang in _game()[10:40]:
            frame = W._Frame(view, lang, dict(enumerate(names)), None, log)
            entries: list[kit_scene.Entry] = []
            W._draw(kit_scene.Recorder(entries), view, lang, dict(enumerate(names)), frame, log)  # type: ignore[arg-type]
            png = kit_scene.encode("recorded", W._static_layer(frame.height), palette.shared(), entries)
            assert png == _whole(view, names, log, lang)


def test_tile_bodies_pasted_again_are_the_bytes_of_a_whole_draw() -> None:
    """Issue 28: a tile body drawn twice is kept and pasted afterwards, wherever its tile goes
    (``kit_sprites``); the game's pictures, in posting order and in both languages of three and four
    armies, are still a whole draw's bytes, with most bodies pasted."""
    from renderers.warlord import tiles

    game = _game()[:70]
    tiles.SPRITES.clear()
    for index, picture in enumerate(game):
        assert _png(*picture) == _whole(*picture), f"picture {index}"
    drawn = tiles.SPRITES.hits + tiles.SPRITES.misses
    assert tiles.SPRITES.hits > drawn // 4, (tiles.SPRITES.hits, drawn)  # a table's next pictures paste bodies
    for index, picture in enumerate(_armies(3) + _armies(4)):
        assert _png(*picture) == _whole(*picture), f"army picture {index}"


def test_no_blank_canvas_is_kept_per_picture_height() -> None:
    """Issue 28: a blank palette canvas is as fast to make as to copy, and its height follows the armies,
    so kept ones only held ~2 MB each in every render worker; each picture gets a fresh one, all alike."""
    from gm.workers import render_memory
    from renderers import warlord

    first, second = warlord._canvas(900), warlord._canvas(900)
    assert first is not second and first.tobytes() == second.tobytes() and first.getpalette() == second.getpalette()
    warlord._canvas(1100)
    assert not any(name.startswith("renderers.warlord._canvas") for name in render_memory.caches())


def test_the_kept_tile_bodies_are_reported_with_the_workers_caches() -> None:
    """A render worker's report names every cache it holds (``render_memory.caches``), the tile bodies too,
    with the bytes their budget counts."""
    from gm.workers import render_memory
    from renderers.warlord import tiles

    for picture in _game()[:12]:
        _png(*picture)
    entries, used = render_memory.caches()["renderers.warlord.tiles.SPRITES"]
    assert entries == len(tiles.SPRITES.kept) > 0 and used == tiles.SPRITES.kept.used <= tiles.TILE_SPRITE_BYTES
