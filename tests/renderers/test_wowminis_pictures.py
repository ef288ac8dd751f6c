"""WoW Miniatures pictures drawn on their palette, the legend under the map pasted (issue 28).

The claim to prove, as tests/renderers/test_kit_scene.py proves it for Krosmaster: however a picture
is drawn — at once on its palette indexes (``render``: ``kit_palette_draw``), the legend under the map
pasted from its one drawing, chips cut by what lies under them (``kit_ink``), or recorded as draw calls
(``kit_scene``) — its bytes are a whole-picture encode's: the RGB picture drawn the kit's way
(``render_image`` with ``kit_ink.blended``) quantized on the map's palette (``kit.to_png``). The
pictures are the scripted game's, as the console posts them (``tests/wowminis/full_game.txt``: whole
maps and maps drawn large around an action), in several orders, random games on the other maps, and
the line-of-sight, move and ability pictures."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import ImageChops

from engines.wowminis import ENGINE
from engines.wowminis.state import State
from renderers import kit, kit_ink, kit_palette_draw, kit_scene
from renderers import wowminis as W
from tests.renderers import wowminis_states as S
from tests.renderers.picture_orders import ORDERS, in_order
from tests.wowminis import playout as P

pytestmark = pytest.mark.usefixtures("fresh_scenes")

Picture = tuple[State, tuple[str, ...], tuple[str, ...] | None, str, tuple[str, ...] | None]


@functools.lru_cache(maxsize=1)
def _game() -> tuple[Picture, ...]:
    """The scripted game's pictures: (view, players, log lines, language, focus), in the order posted."""
    from bench.scripted_pictures import ROOT, record

    return tuple((p.view, p.seat_names, tuple(line.replace("**", "") for line in p.log_lines or ()), p.lang,
                  dict(p.hints).get("focus")) for p in record(ROOT / "tests" / "wowminis" / "full_game.txt"))


@functools.lru_cache(maxsize=1)
def _random_games() -> tuple[Picture, ...]:
    """Seeded random games on the built-in maps: every tenth position, some drawn large around two pieces."""
    pictures: list[Picture] = []
    for seed in range(4):
        for state, step in P.played_steps(seed, 300):
            if step % 10 == 0:
                view = ENGINE.view(state, None).private_copy()  # kept past the next move: a view shares the state
                places = tuple(c.pos for c in view.chars.values() if c.pos)[:2]
                pictures.append((view, tuple(p.name for p in view.players), (f"step {step}",),
                                 "it" if step % 20 else "en", places if step % 20 == 10 else None))
    return tuple(pictures)


def _png(view: State, names: Sequence[str], log: Sequence[str] | None, lang: str,
         focus: Sequence[str] | None) -> bytes:
    return W.render(view, lang=lang, seat_names=dict(enumerate(names)), log_lines=log, focus=focus)


def _whole(view: State, names: Sequence[str], log: Sequence[str] | None, lang: str,
           focus: Sequence[str] | None) -> bytes:
    """The picture drawn in RGB the kit's way and quantized whole: what every way of drawing it must give."""
    picture = W._Picture(view, lang, dict(enumerate(names)), None, log, focus=focus)
    with kit_ink.blended():
        image = picture.image()
    return kit.to_png(image, palette=picture.palette())




@pytest.mark.parametrize("order", ORDERS)
def test_a_games_pictures_are_the_bytes_of_a_whole_draw_in_any_order(order: str) -> None:
    pictures = list(_game())
    assert len(pictures) > 20 and any(focus for *_rest, focus in pictures)  # crops as well as whole maps
    picked = in_order(pictures, order)
    with kit_scene.table("game"):
        for index, picture in enumerate(picked):
            assert _png(*picture) == _whole(*picture), f"picture {index} ({order})"


def test_random_games_on_every_map_are_the_bytes_of_a_whole_draw() -> None:
    pictures = _random_games()
    assert len(pictures) > 20 and len({view.board.name for view, *_rest in pictures}) > 1
    for index, picture in enumerate(pictures):
        assert _png(*picture) == _whole(*picture), f"picture {index}"


def test_los_move_and_ability_pictures_are_the_bytes_of_a_whole_draw() -> None:
    mid = S.midgame()
    for png, image in ((W.render_los(mid, "A6", "E11"), W.los_image(mid, "A6", "E11")),
                       (W.render_move(mid), W.move_image(mid)),
                       (W.render_los(S.los_405_4(), "C4", "C8"), W.los_image(S.los_405_4(), "C4", "C8"))):
        pal = W._Picture(mid, "en", None, None, None).palette()
        assert png == kit.to_png(image, palette=pal)


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
        for picture in _game()[::2] + _random_games()[::3]:
            _png(*picture)
    finally:
        kit_palette_draw.Draw.__init__ = original  # type: ignore[method-assign]
    assert drawn and [d for d in drawn if not d.exact] == []


def test_the_legend_under_the_map_is_pasted_not_drawn_and_is_the_same() -> None:
    """The legend is drawn once per legend and pasted; the picture is the one drawing it in place gives."""
    view, names, log, lang, focus = _game()[-1]
    W._band_picture.cache_clear()
    first = _png(view, names, log, lang, focus)
    assert W._band_picture.cache_info().currsize == 1
    assert _png(view, names, log, lang, focus) == first == _whole(view, names, log, lang, focus)
    assert W._band_picture.cache_info().hits >= 1


def test_chips_and_text_cut_by_their_ground_are_the_pixels_the_kit_draws() -> None:
    for view, names, log, lang, focus in _game()[::3] + _random_games()[::4]:
        picture = W._Picture(view, lang, dict(enumerate(names)), None, log, focus=focus)
        image = picture.image()
        with kit_ink.blended():
            reference = picture.image()
        assert ImageChops.difference(image, reference).getbbox() is None


def test_a_picture_recorded_as_draw_calls_is_the_bytes_of_a_whole_draw() -> None:
    """The renderer draws through the kit only (no pixel read back, no paste: the legend is pasted only on
    a picture drawn at once), so its calls can be recorded and re-drawn where they changed (``kit_scene``)."""
    for view, names, log, lang, focus in _game():
        picture = W._Picture(view, lang, dict(enumerate(names)), None, log, focus=focus)
        entries: list[kit_scene.Entry] = []
        picture.draw(kit_scene.Recorder(entries))  # type: ignore[arg-type]
        png = kit_scene.encode("recorded", picture.static(), picture.palette(), entries)
        assert png == _whole(view, names, log, lang, focus)


def test_a_zoomed_windows_palette_form_is_the_rgb_window_quantized() -> None:
    """Issue 28: a zoomed window's palette form is drawn on a copy of the whole map's form, straight on its
    indexes; it is the window drawn in RGB and quantized, for every window of every built-in map."""
    from engines.wowminis.content import builtin_pack
    from renderers import wowminis
    from renderers.wowminis import palette as map_palette
    from renderers.wowminis import window
    from renderers.wowminis.layout import zoom_for

    checked = 0
    for board_map in builtin_pack().maps:
        map_json, sides = board_map.model_dump_json(), (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))
        windows = {zoom for c in range(board_map.columns) for r in range(board_map.rows) for d in (0, 3)
                   if (zoom := zoom_for(board_map.columns, board_map.rows,
                                        [(c, r), (min(c + d, board_map.columns - 1), r)])) is not None}
        for zoom in sorted(windows, key=repr)[::3]:
            wowminis._window_form.cache_clear()
            form = wowminis._window_form(map_json, sides, zoom)
            quantized = map_palette.for_map(map_json, sides).quantize(window.draw_zoomed(map_json, sides, zoom))
            assert form.tobytes() == quantized.tobytes() and form.getpalette() == quantized.getpalette(), zoom
            checked += 1
    wowminis._window_form.cache_clear()
    assert checked > 40
