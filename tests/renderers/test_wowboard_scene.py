"""WoW board game pictures drawn on one canvas through the kit, recorded as draw calls and drawn on
their palette indexes (issue 28).

The claim to prove, as tests/renderers/test_kit_scene.py proves it for Krosmaster: whatever picture a
table drew before, and whether a picture is a table's first (``kit_replay.png``) or a later one,
re-drawn only where it changed (``kit_replay.encode``), its bytes are a whole-picture encode's: the RGB
picture (``render_image``, ``combat_image``, ``sheet_image``) quantized on its palette (``kit.to_png``).
The pictures are the scripted game's as the console posts them (``tests/wowboard/full_game.txt``):
maps, crops around the touched regions, combat panels, in their order."""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from engines.wowboard.state import State
from renderers import kit, kit_scene
from renderers import wowboard as wb
from renderers.kit_palette import Palette
from renderers.wowboard import board, palette
from tests.renderers.picture_orders import ORDERS, in_order
from tests.wowboard.test_render import midgame

pytestmark = pytest.mark.usefixtures("fresh_scenes")

Picture = tuple[State, tuple[str, ...], tuple[str, ...] | None]  # view, players, focus


@functools.lru_cache(maxsize=1)
def _game() -> tuple[Picture, ...]:
    """The scripted game's pictures, in the order they were posted."""
    from bench.scripted_pictures import ROOT, record

    found = []
    for p in record(ROOT / "tests/wowboard/full_game.txt"):
        focus = dict(p.hints).get("focus")
        found.append((p.view, p.seat_names, tuple(focus) if focus else None))
    return tuple(found)


def _png(picture: Picture, lang: str = "en") -> bytes:
    view, names, focus = picture
    if view.combat is not None:
        return wb.render_combat(view, lang, dict(enumerate(names)))
    return wb.render(view, lang, dict(enumerate(names)), focus=list(focus) if focus else None)


def _whole(picture: Picture, lang: str = "en") -> bytes:
    """The picture drawn in RGB and quantized whole: what every way of drawing it must give."""
    view, names, focus = picture
    if view.combat is not None:
        return kit.to_png(wb.combat_image(view, lang, dict(enumerate(names))), palette=palette.panels_palette())
    image = wb.render_image(view, lang, dict(enumerate(names)), focus=list(focus) if focus else None)
    return kit.to_png(image, palette=palette.for_static(board.static_layer(view.pack, wb._pack(view), lang)))




def test_the_game_posts_every_kind_of_picture() -> None:
    kinds = {"combat" if v.combat is not None else "crop" if focus else "map" for v, _n, focus in _game()}
    assert kinds == {"map", "crop", "combat"}


@pytest.mark.parametrize("order", ORDERS)
def test_a_games_pictures_are_the_bytes_of_a_whole_draw_in_any_order(order: str) -> None:
    pictures = list(_game()[:160])  # maps, crops and panels, two dozen faction turns
    picked = in_order(pictures, order)
    with kit_scene.table("game"):
        for index, picture in enumerate(picked):
            assert _png(picture) == _whole(picture), f"picture {index} ({order})"


def test_the_rest_of_the_game_in_italian_is_whole_draws_too() -> None:
    with kit_scene.table("game"):
        for index, picture in enumerate(_game()[160:]):
            assert _png(picture, "it") == _whole(picture, "it"), f"picture {160 + index}"


def test_first_pictures_and_crops_of_every_region_are_whole_draws() -> None:
    state = midgame()
    for region in sorted(r.id for r in wb._pack(state).regions):
        for lang in ("en", "it"):
            kit_scene.forget()  # a table's first: drawn at once on the palette indexes
            picture = (state, ("Ann", "Bob"), (region,))
            assert _png(picture, lang) == _whole(picture, lang), (region, lang)
    wide = (state, ("Ann",), ("mossmere", "crown_peak"))  # both map edges: the cut is scaled down
    assert _png(wide) == _whole(wide)


def test_a_sheet_is_a_whole_draw() -> None:
    view = next(v for v, _n, focus in _game() if v.combat is None and not focus and len(v.characters) > 2)
    for cid in sorted(view.characters):
        expected = kit.to_png(wb.sheet_image(view, cid, "it"), palette=palette.panels_palette())
        assert wb.render_sheet(view, cid, "it") == expected, cid


def test_a_tables_pictures_are_scenes_of_their_kind_and_redraw_what_changed() -> None:
    """Issue 28: the map, each crop and the combat panel are scenes of their own; the same picture again
    re-draws nothing, and the next picture of a kind re-draws some bands only."""
    game = _game()
    index = next(i for i in range(len(game) - 1) if game[i][2] and game[i + 1][2] == game[i][2]
                 and game[i][0].combat is None and game[i + 1][0].combat is None
                 and _whole(game[i]) != _whole(game[i + 1]))  # two different crops of one cut
    first, second = game[index], game[index + 1]
    kit_scene.forget()  # the console that played the game drew its pictures as table 1
    with kit_scene.table(7):
        _png(first)
        _png(first)  # a table's second picture is recorded
        assert [(key[:2], key[2][0]) for key in kit_scene._scenes] == [(("wowboard", 7), "crop")]
        redrawn = kit_scene.COUNTS.redrawn
        _png(first)
        assert kit_scene.COUNTS.redrawn == redrawn
        bands, redrawn = kit_scene.COUNTS.bands, kit_scene.COUNTS.redrawn
        _png(second)
        assert 0 < kit_scene.COUNTS.redrawn - redrawn < kit_scene.COUNTS.bands - bands


def test_a_lone_picture_is_not_quantized_whole() -> None:
    """Issue 28: a table's first picture is drawn on the palette's indexes, not on an RGB canvas that
    is then looked up pixel by pixel (only small text boxes are quantized, once)."""
    picks = [next(p for p in _game() if p[0].combat is not None), next(p for p in _game() if p[2]),
             next(p for p in _game() if p[0].combat is None and not p[2])]
    for picture in picks:
        _png(picture)  # the layers' indexes, the text tiles
    kit_scene.forget()
    sizes: list[int] = []
    original = Palette.quantize

    def counting(self: Palette, image: Image.Image) -> Image.Image:
        sizes.append(image.width * image.height)
        return original(self, image)

    Palette.quantize = counting  # type: ignore[method-assign]
    try:
        for picture in picks:
            _png(picture)
    finally:
        Palette.quantize = original  # type: ignore[method-assign]
    assert max(sizes, default=0) < wb.WIDTH * 600 // 20, sizes
