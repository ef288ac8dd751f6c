"""Pictures re-drawn only where they changed (renderers/kit_scene.py, issue 13).

The claim to prove: whatever picture a scene held before, ``kit_scene.encode`` writes the very
bytes a whole-picture draw and encode writes, so a stale, foreign or reordered base can only
cost time. Recorded Krosmaster games are drawn in several orders and compared byte for byte."""

from __future__ import annotations

import functools
import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import State
from renderers import kit, kit_png, kit_scene
from renderers import krosmaster as km
from renderers.krosmaster import palette
from tests.renderers.picture_orders import ORDERS, in_order

pytestmark = pytest.mark.usefixtures("fresh_scenes")


@functools.lru_cache(maxsize=2)
def _game(seed: int) -> list[State]:
    from bench.km_games import record

    script = record(seed, every=1, tail=0, limit=80)
    return [State.model_validate_json(text) for text in script.starts.values()]


def _whole(state: State, **kwargs: Any) -> bytes:
    """The picture drawn from scratch and encoded whole: what every order must reproduce."""
    image = km.render_image(state, **kwargs)
    return kit.to_png(image, palette=palette.for_arena(state.board.arena.model_dump_json()))




@pytest.mark.parametrize("order", ORDERS)
def test_a_games_pictures_are_the_bytes_of_a_whole_draw_in_any_order(order: str) -> None:
    states = _game(1)
    picked = in_order(states, order)
    for index, state in enumerate(picked):
        assert km.render(state) == _whole(state), f"picture {index} ({order})"


def test_two_games_sharing_a_scene_key_still_get_their_own_pictures() -> None:
    # (same table, arena, language and names: each picture compares with the other game's)
    """Two tables alike in arena, language and names compare with each other's pictures."""
    first, second = _game(1), _game(2)
    for a, b in zip(first[:30], second[:30], strict=False):
        assert km.render(a) == _whole(a)
        assert km.render(b) == _whole(b)


def test_previews_and_snapshots_of_one_table_interleave_exactly() -> None:
    for state in _game(1)[20:50]:
        moves = {square: option.cost for square, option in reachable_squares(state).items()}
        if km.layout.active_piece_id(state) and moves:
            png = km.render_preview(state, moves, "move")
            assert png == kit.to_png(km.preview_image(state, moves, "move"),
                                     palette=palette.for_arena(state.board.arena.model_dump_json()))
        assert km.render(state, lang="it") == _whole(state, lang="it")


def test_a_spell_preview_matches_its_whole_draw() -> None:
    for state in _game(1)[10:80]:
        piece = km.layout.active_piece_id(state)
        if piece is None or state.active_piece != piece:
            continue
        for spell in state.pieces[piece].figurine.spells:
            targets = {label(plan.target) for plan in spell_targets(state, spell.id)}
            if targets:
                aim = sorted(targets)[0]
                area = area_for(state, spell.id, aim)
                png = km.render_preview(state, targets, "spell", area, target=aim)
                expected = km.preview_image(state, targets, "spell", area, target=aim)
                assert png == kit.to_png(expected, palette=palette.for_arena(state.board.arena.model_dump_json()))
                return
    pytest.fail("no spell with a target in the recorded game")


def test_only_the_changed_bands_are_drawn_again() -> None:
    """Not a timing test: the second of two pictures a token apart redraws a few bands, and the
    same picture again redraws none (each redrawn band's rows are compressed once, whether the picture
    is drawn on palette indexes, ``kit_replay``, or in RGB and quantized, ``kit_scene``)."""
    states = _game(1)
    before, after = next((a, b) for a, b in itertools.pairwise(states) if a.phase == b.phase == "turn"
                         and a.active_piece == b.active_piece and a.pieces[a.active_piece or ""].pos !=
                         b.pieces[b.active_piece or ""].pos)  # the active piece moved: nothing else reflows
    packed: list[int] = []
    original = kit_png.pack_picture

    def counting(image: Image.Image, **kwargs: Any) -> list[kit_png.Band]:
        packed.append(image.height)
        return original(image, **kwargs)

    km.render(before)  # a first picture is drawn at once and only remembered as drawn lately
    km.render(before)  # the second is recorded
    kit_png.pack_picture = counting  # type: ignore[assignment]
    try:
        km.render(before)
        assert packed == []
        km.render(after)
    finally:
        kit_png.pack_picture = original  # type: ignore[assignment]
    assert 0 < sum(packed) < km.HEIGHT


def _scene_png(entries: list[kit_scene.Entry], static: Image.Image, pal: kit_scene.Palette) -> bytes:
    return kit_scene.encode("test", static, pal, entries)


def _whole_png(entries: list[kit_scene.Entry], static: Image.Image, pal: kit_scene.Palette) -> bytes:
    image = static.copy()
    kit_scene.replay(image, entries)
    return kit.to_png(image, palette=pal)


def _plain() -> tuple[Image.Image, kit_scene.Palette]:
    static = Image.new("RGB", (400, 300), kit.PANEL)
    pal = kit_scene.Palette([kit.PANEL, kit.INK, kit.INK_DARK, kit.HIGHLIGHT, *kit.TEAM_COLOURS])
    return static, pal


def test_shared_commands_in_a_new_order_redraw_everything() -> None:
    """Two overlapping squares swapped: the same commands, so only their order says which is on top."""
    static, pal = _plain()
    entries: list[kit_scene.Entry] = []
    draw = kit_scene.Recorder(entries)
    draw.rectangle((10, 10, 200, 200), fill=kit.TEAM_COLOURS[0])
    draw.rectangle((100, 100, 300, 280), fill=kit.TEAM_COLOURS[1])
    assert _scene_png(entries, static, pal) == _whole_png(entries, static, pal)
    swapped = entries[::-1]
    assert _scene_png(swapped, static, pal) == _whole_png(swapped, static, pal)
    assert _whole_png(swapped, static, pal) != _whole_png(entries, static, pal)


def test_commands_whose_hashes_collide_are_told_apart() -> None:
    """In CPython hash(-1) == hash(-2), so these two rectangles hash alike: equality decides."""
    static, pal = _plain()
    first: list[kit_scene.Entry] = []
    second: list[kit_scene.Entry] = []
    kit_scene.Recorder(first).rectangle((-1, 40, 250, 90), fill=kit.INK)
    kit_scene.Recorder(second).rectangle((-2, 40, 250, 90), fill=kit.INK)
    kit_scene.Recorder(first).rectangle((-1, 200, 250, 250), fill=kit.HIGHLIGHT)
    kit_scene.Recorder(second).rectangle((-1, 200, 250, 240), fill=kit.HIGHLIGHT)
    assert hash(first[0][0]) == hash(second[0][0]) and first[0][0] != second[0][0]
    assert _scene_png(first, static, pal) == _whole_png(first, static, pal)
    assert _scene_png(second, static, pal) == _whole_png(second, static, pal)


def test_another_static_layer_or_palette_starts_afresh() -> None:
    static, pal = _plain()
    entries: list[kit_scene.Entry] = []
    kit_scene.Recorder(entries).ellipse((50, 50, 150, 150), fill=kit.INK, outline=kit.INK_DARK, width=3)
    _scene_png(entries, static, pal)
    other = Image.new("RGB", static.size, kit.INK_DARK)
    assert _scene_png(entries, other, pal) == _whole_png(entries, other, pal)


def test_an_unknown_draw_call_is_an_error_not_a_missing_mark() -> None:
    with pytest.raises(AttributeError):
        kit_scene.Recorder([]).text((0, 0), "hello")  # type: ignore[attr-defined]


def test_scenes_are_bounded() -> None:
    static, pal = _plain()
    entries: list[kit_scene.Entry] = []
    kit_scene.Recorder(entries).rectangle((0, 0, 10, 10), fill=kit.INK)
    for n in range(kit_scene.SCENES + 10):
        kit_scene.encode(n, static, pal, entries)
    assert len(kit_scene._scenes) == kit_scene.SCENES
    assert 0 not in kit_scene._scenes and kit_scene.SCENES + 9 in kit_scene._scenes


def test_threads_drawing_one_scene_at_once_each_get_their_own_picture() -> None:
    states = _game(1)[:24]
    expected = [_whole(state) for state in states]
    barrier = threading.Barrier(4)

    def draw(offset: int) -> list[bool]:
        barrier.wait()
        order = states[offset:] + states[:offset]
        wanted = expected[offset:] + expected[:offset]
        return [km.render(state) == png for state, png in zip(order, wanted, strict=True)]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(draw, range(0, 24, 6)))
    assert all(all(r) for r in results)


# -- each command's rows ------------------------------------------------------------------

_COLOURS = st.sampled_from([kit.INK, kit.INK_DARK, kit.HIGHLIGHT, (*kit.TEAM_COLOURS[1], 90), None])
_X = st.integers(-20, 140)
_Y = st.integers(-20, 140)


@st.composite
def _command(draw: st.DrawFn) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    kind = draw(st.sampled_from(["rectangle", "ellipse", "rounded_rectangle", "polygon", "line", "bitmap"]))
    x0, y0 = draw(_X), draw(_Y)
    x1, y1 = x0 + draw(st.integers(0, 90)), y0 + draw(st.integers(0, 90))
    width = draw(st.integers(0, 9))
    if kind in ("rectangle", "ellipse"):
        return kind, ((x0, y0, x1, y1),), {"fill": draw(_COLOURS), "outline": draw(_COLOURS), "width": max(1, width)}
    if kind == "rounded_rectangle":
        return kind, ((x0, y0, x1, y1),), {"radius": draw(st.integers(0, 20)), "fill": draw(_COLOURS),
                                           "outline": draw(_COLOURS), "width": max(1, width)}
    points = draw(st.lists(st.tuples(st.floats(-20, 140), st.floats(-20, 140)), min_size=2, max_size=6))
    if kind == "polygon":
        return kind, (points,), {"fill": draw(_COLOURS), "outline": draw(_COLOURS), "width": max(1, width)}
    if kind == "line":
        return kind, (points,), {"fill": draw(_COLOURS) or kit.INK, "width": width,
                                 "joint": draw(st.sampled_from([None, "curve"]))}
    mask = Image.new("L", (x1 - x0 + 1, y1 - y0 + 1), draw(st.sampled_from([85, 255])))
    return kind, ((x0, y0), mask), {"fill": draw(_COLOURS) or kit.INK}


@given(_command(), st.sampled_from([None, "RGBA"]))
@settings(max_examples=400, deadline=None)
def test_a_command_never_reaches_past_the_rows_it_claims(call: tuple[str, tuple[Any, ...], dict[str, Any]],
                                                        mode: str | None) -> None:
    """The rows a command claims are the bands it dirties: a row it reached unclaimed would keep a
    stale pixel in the next picture."""
    name, args, kwargs = call
    entries: list[kit_scene.Entry] = []
    try:
        getattr(kit_scene.Recorder(entries, mode), name)(*args, **kwargs)
        blank = Image.new("RGB", (160, 160), (1, 2, 3))
        drawn = blank.copy()
        kit_scene.replay(drawn, entries)
    except (ValueError, TypeError):  # what Pillow refuses (a box drawn backwards...) draws nothing anyway
        return
    box = ImageChops.difference(drawn, blank).getbbox()
    if box is None:
        return
    assert min(top for _c, top, _b, _m in entries) <= box[1]
    assert max(bottom for _c, _t, bottom, _m in entries) >= box[3] - 1


def test_recorded_then_replayed_is_what_drawing_directly_draws() -> None:
    """The renderer's calls made on ``kit.Draw`` at once (a table's first picture) and the same
    calls recorded then replayed (its next ones) give the same pixels."""
    for state in _game(1)[::9]:
        static = km.board.static_layer(state.board.arena.model_dump_json())
        replayed = static.copy()
        kit_scene.replay(replayed, km._record(state, "en", None, None))
        direct = km.render_image(state)
        assert direct.tobytes() != static.tobytes()
        assert ImageChops.difference(direct, replayed).getbbox() is None


def test_a_tables_first_picture_is_drawn_at_once_and_its_next_ones_recorded() -> None:
    """Recording pays only when a later picture compares with it: a scene is recorded from its
    second picture on, while it is among the ``RECENT`` scenes drawn lately."""
    state = _game(1)[30]
    with kit_scene.table("first"):
        km.render(state)
        assert kit_scene._scenes == {}
        km.render(state)
        assert [key[1] for key in kit_scene._scenes] == ["first"]
    with kit_scene.table("once"):
        km.render(state)
    for other in range(kit_scene.RECENT):  # as many other tables: "once" is no longer recent
        with kit_scene.table(other):
            km.render(state)
    with kit_scene.table("once"):
        km.render(state)
    assert {key[1] for key in kit_scene._scenes} == {"first"}


def test_the_table_named_by_the_caller_is_part_of_the_scene() -> None:
    """Two games alike in arena, language and names still keep a picture each when the render
    pool names their tables, so neither compares with the other's."""
    first, second = _game(1), _game(2)
    for a, b in zip(first[:6], second[:6], strict=False):
        with kit_scene.table(1):
            assert km.render(a) == _whole(a)
        with kit_scene.table(2):
            assert km.render(b) == _whole(b)
    tables = {key[1] for key in kit_scene._scenes}
    assert tables == {1, 2} and kit_scene.current_table() is None


def test_the_render_pool_names_the_game_as_the_table() -> None:
    import gm.games.krosmaster.presenter
    from gm.workers import render_pool

    state = _game(1)[30]
    for _twice in range(2):
        png = render_pool._render_here(gm.games.krosmaster.presenter.PRESENTER, state, "en", ["Ann", "Bob"], table=7)
    assert png is not None and [key[1] for key in kit_scene._scenes] == [7]
