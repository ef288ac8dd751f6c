"""Mage Knight pictures recorded as draw calls and drawn on their palette indexes (issue 28).

The claim to prove, as tests/renderers/test_kit_scene.py proves it for Krosmaster: whatever picture a
table drew before, and whether a picture is a table's first (drawn at once, ``kit_replay.png``) or a
later one (re-drawn only where it changed, ``kit_replay.encode``), its bytes are a whole-picture
encode's: the RGB picture (``render_image``) quantized on the palette (``kit.to_png``). The pictures
are the scripted challenge's, as the console posts them (``tests/mageknight/challenge.txt``), and the
sample combats of the golden tests, crowded ones included."""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from engines.mageknight.state import State
from renderers import kit, kit_scene
from renderers import mageknight as mk
from renderers.kit_palette import Palette
from renderers.mageknight import palette
from tests.renderers import mageknight_states as S
from tests.renderers.picture_orders import ORDERS, in_order

pytestmark = pytest.mark.usefixtures("fresh_scenes")


@functools.lru_cache(maxsize=1)
def _game() -> tuple[tuple[State, tuple[str, ...], tuple[str, ...]], ...]:
    """The scripted challenge's pictures: (view, players, log lines), in the order they were posted."""
    from bench.scripted_pictures import ROOT, record

    return tuple((p.view, p.seat_names, p.log_lines or ()) for p in record(ROOT / "tests/mageknight/challenge.txt"))


def _png(view: State, names: tuple[str, ...], log: tuple[str, ...], lang: str = "en") -> bytes:
    return mk.render(view, lang=lang, seat_names=dict(enumerate(names)), log_lines=list(log))


def _whole(view: State, names: tuple[str, ...], log: tuple[str, ...], lang: str = "en") -> bytes:
    """The picture drawn in RGB and quantized whole: what every way of drawing it must give."""
    image = mk.render_image(view, lang=lang, seat_names=dict(enumerate(names)), log_lines=list(log))
    return kit.to_png(image, palette=palette.palette())




@pytest.mark.parametrize("order", ORDERS)
def test_a_games_pictures_are_the_bytes_of_a_whole_draw_in_any_order(order: str) -> None:
    pictures = list(_game())
    assert len(pictures) > 10
    picked = in_order(pictures, order)
    with kit_scene.table("challenge"):
        for index, (view, names, log) in enumerate(picked):
            assert _png(view, names, log) == _whole(view, names, log), f"picture {index} ({order})"


def test_italian_pictures_and_first_pictures_are_whole_draws_too() -> None:
    for view, names, log in _game():
        kit_scene.forget()  # each a table's first: drawn at once on the palette indexes
        assert _png(view, names, log, "it") == _whole(view, names, log, "it")


@pytest.mark.parametrize("name", ["ranged", "block", "damage", "attack", "over", "assist", "crowd", "long_column",
                                  "crowd_summons"])
def test_the_sample_combats_are_whole_draws(name: str) -> None:
    view = S.public(getattr(S, name)())
    log = tuple(S.LOG_EN)
    for lang in ("en", "it"):
        with kit_scene.table(name):
            for _twice in range(3):  # a first picture, then recorded ones compared with the last
                assert _png(view, ("alice",), log, lang) == _whole(view, ("alice",), log, lang), (name, lang)


def test_a_tables_pictures_are_recorded_as_a_scene() -> None:
    """Issue 28: Mage Knight draws through the scene recorder: a table's second picture is kept as a
    scene, and the same picture again re-draws nothing."""
    view, names, log = _game()[5]
    kit_scene.forget()  # the console that played the game drew its pictures as table 1
    with kit_scene.table(42):
        _png(view, names, log)
        _png(view, names, log)
        assert [key[:2] for key in kit_scene._scenes] == [("mageknight", 42)]
        before = kit_scene.COUNTS.redrawn
        _png(view, names, log)
        assert kit_scene.COUNTS.redrawn == before


def test_a_lone_picture_is_not_quantized_whole() -> None:
    """Issue 28: a table's first picture is drawn on the palette's indexes, not on an RGB canvas that
    is then looked up pixel by pixel (only small text boxes are quantized, once)."""
    view, names, log = _game()[7]
    _png(view, names, log)  # the layers' indexes, the text tiles
    kit_scene.forget()
    sizes: list[int] = []
    original = Palette.quantize

    def counting(self: Palette, image: Image.Image) -> Image.Image:
        sizes.append(image.width * image.height)
        return original(self, image)

    Palette.quantize = counting  # type: ignore[method-assign]
    try:
        _png(view, names, log)
    finally:
        Palette.quantize = original  # type: ignore[method-assign]
    assert max(sizes, default=0) < mk.WIDTH * mk.HEIGHT // 20, sizes
